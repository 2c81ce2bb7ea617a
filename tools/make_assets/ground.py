"""Ground tiles: grass, paths, cobbles, sand, wood, bridges and water."""

from __future__ import annotations

import random

from .canvas import Canvas, box, disc, sprinkle
from .palette import (
    BANK,
    BANK_D,
    DIRT,
    DIRT_D,
    DIRT_L,
    FIRE_Y,
    FOAM,
    GRASS,
    GRASS_D,
    GRASS_DD,
    GRASS_L,
    MORTAR,
    RGBA,
    SAND,
    SAND_D,
    SAND_L,
    STONE,
    STONE_D,
    STONE_L,
    TIMBER,
    TIMBER_D,
    WATER,
    WATER_D,
    WATER_L,
    WOOD,
    WOOD_D,
    WOOD_DD,
    WOOD_L,
    hexc,
    shade_of,
)


def t_grass(variant: int) -> Canvas:
    """Grass with tufts; variants differ in detail so large fields do not look tiled."""
    rng = random.Random(f"grass{variant}")
    c = Canvas()
    c.rect(0, 0, 31, 31, GRASS)
    sprinkle(c, rng, 26, GRASS_D)
    sprinkle(c, rng, 14, GRASS_L)
    tufts = (3, 6, 4)[variant]
    for _ in range(tufts):
        x, y = rng.randrange(2, 29), rng.randrange(3, 30)
        c.dot(x, y, GRASS_DD)
        c.dot(x - 1, y - 1, GRASS_D)
        c.dot(x + 1, y - 1, GRASS_D)
        c.dot(x, y - 2, GRASS_L)
    if variant == 2:
        for _ in range(4):
            x, y = rng.randrange(2, 30), rng.randrange(2, 30)
            c.dot(x, y, hexc("#f6f2d8"))
            c.dot(x + 1, y, hexc("#f6f2d8"))
            c.dot(x, y + 1, GRASS_DD)
    return c


def t_path() -> Canvas:
    """Packed dirt road with pebbles."""
    rng = random.Random("path")
    c = Canvas()
    c.rect(0, 0, 31, 31, DIRT)
    sprinkle(c, rng, 40, DIRT_D)
    sprinkle(c, rng, 30, DIRT_L)
    for _ in range(4):
        x, y = rng.randrange(2, 29), rng.randrange(2, 29)
        c.rect(x, y, x + 1, y, hexc("#c8bcaa"))
        c.hline(x, x + 1, y + 1, hexc("#8f7c66"))
    return c


def t_cobble() -> Canvas:
    """Cobblestone plaza: rows of rounded stones that tile seamlessly."""
    rng = random.Random("cobble")
    c = Canvas()
    c.rect(0, 0, 31, 31, MORTAR)
    for row in range(4):
        y0 = row * 8
        x = (row % 2) * 5
        start = x
        while x < start + 32:
            w = rng.choice((7, 8, 9)) if x + 9 < start + 32 else start + 32 - x
            tone = rng.choice((STONE, shade_of(STONE, 0.95), shade_of(STONE, 1.06)))
            for yy in range(y0 + 1, y0 + 7):
                for xx in range(x + 1, x + w):
                    corner = (xx in (x + 1, x + w - 1)) and (yy in (y0 + 1, y0 + 6))
                    if corner:
                        continue
                    col = tone
                    if yy == y0 + 1 or xx == x + 1:
                        col = STONE_L
                    if yy == y0 + 6 or xx == x + w - 1:
                        col = STONE_D
                    c.dot(xx % 32, yy, col)
            x += w
    return c


def t_sand() -> Canvas:
    """Beach sand with speckles and a few tiny shells."""
    rng = random.Random("sand")
    c = Canvas()
    c.rect(0, 0, 31, 31, SAND)
    sprinkle(c, rng, 34, SAND_D)
    sprinkle(c, rng, 24, SAND_L)
    for _ in range(2):
        x, y = rng.randrange(3, 28), rng.randrange(3, 28)
        c.dot(x, y, hexc("#f2b8a8"))
        c.dot(x + 1, y, hexc("#fde0d2"))
    return c


def planks_h(c: Canvas, seed: str, base: RGBA, light: RGBA, dark: RGBA) -> None:
    """Horizontal floor planks, 8 px tall."""
    rng = random.Random(seed)
    for row in range(4):
        y0 = row * 8
        tone = shade_of(base, rng.choice((0.96, 1.0, 1.04)))
        c.rect(0, y0, 31, y0 + 7, tone)
        c.hline(0, 31, y0, light)
        c.hline(0, 31, y0 + 7, dark)
        seam = rng.randrange(4, 28)
        c.vline(seam, y0 + 1, y0 + 6, dark)
        c.dot(seam + 1, y0 + 1, light)
        for _ in range(3):
            gx, gy = rng.randrange(0, 28), rng.randrange(y0 + 2, y0 + 6)
            c.hline(gx, gx + rng.randrange(2, 5), gy, shade_of(tone, 0.9))


def t_wood_floor() -> Canvas:
    """Warm indoor/porch floorboards."""
    c = Canvas()
    planks_h(c, "floor", WOOD, WOOD_L, WOOD_D)
    return c


def t_bridge(rail_top: bool, rail_bottom: bool) -> Canvas:
    """Bridge deck with planks across the direction of travel and optional rails."""
    rng = random.Random(f"bridge{rail_top}{rail_bottom}")
    c = Canvas()
    for i in range(4):
        x0 = i * 8
        tone = shade_of(hexc("#bf8a55"), rng.choice((0.94, 1.0, 1.05)))
        c.rect(x0, 0, x0 + 7, 31, tone)
        c.vline(x0, 0, 31, hexc("#d9a86e"))
        c.vline(x0 + 7, 0, 31, WOOD_D)
        for _ in range(3):
            gx, gy = rng.randrange(x0 + 2, x0 + 6), rng.randrange(0, 28)
            c.vline(gx, gy, gy + rng.randrange(2, 4), shade_of(tone, 0.88))
        c.dot(x0 + 3, 9 if rail_top else 2, WOOD_DD)
        c.dot(x0 + 3, 22 if rail_bottom else 29, WOOD_DD)

    def rail(y: int) -> None:
        c.rect(0, y, 31, y + 3, WOOD_D)
        c.hline(0, 31, y, WOOD_L)
        c.hline(0, 31, y + 3, WOOD_DD)
        for px in (4, 20):
            c.rect(px, y - 2, px + 3, y + 5, TIMBER)
            c.hline(px, px + 3, y - 2, WOOD_L)
            c.vline(px + 3, y - 1, y + 5, TIMBER_D)

    if rail_top:
        rail(2)
    if rail_bottom:
        c.blend(box(0, 24, 31, 25), (0, 0, 0, 50))
        rail(26)
    return c


def t_dock() -> Canvas:
    """Weathered jetty planks with side beams and mooring posts."""
    c = Canvas()
    planks_h(c, "dock", hexc("#b08760"), hexc("#caa47a"), hexc("#7e5e40"))
    c.rect(0, 0, 2, 31, WOOD_DD)
    c.rect(29, 0, 31, 31, WOOD_DD)
    c.vline(1, 0, 31, WOOD_D)
    c.vline(30, 0, 31, WOOD_D)
    for y in (4, 20):
        for x in (0, 28):
            c.rect(x, y, x + 3, y + 4, TIMBER)
            c.hline(x, x + 3, y, WOOD_L)
            c.hline(x, x + 3, y + 4, TIMBER_D)
    return c


def water_base(seed: str) -> Canvas:
    """Open water with gentle wave marks."""
    rng = random.Random(seed)
    c = Canvas()
    c.rect(0, 0, 31, 31, WATER)
    for _ in range(10):
        x, y = rng.randrange(0, 32), rng.randrange(0, 32)
        c.hline(x, x + 2, y, WATER_D)
    for _ in range(5):
        x, y = rng.randrange(0, 28), rng.randrange(1, 31)
        for i, dy in enumerate((1, 0, 0, 1)):
            c.dot((x + i) % 32, y + dy, WATER_L)
    for _ in range(2):
        c.dot(rng.randrange(0, 32), rng.randrange(0, 32), FOAM)
    return c


def t_water(sides: str = "") -> Canvas:
    """Water; sides (subset of 'nswe') get a sandy bank with foam."""
    c = water_base("water" + sides)

    def depth(i: int) -> int:
        return 5 + (1 if (i // 4) % 3 == 1 else 0) - (1 if (i // 4) % 3 == 2 else 0)

    for i in range(32):
        d = depth(i)
        for k in range(d + 2):
            if k < d - 2:
                col = BANK
            elif k < d:
                col = BANK_D
            elif k == d:
                col = FOAM
            else:
                col = WATER_L
            if "n" in sides:
                c.dot(i, k, col)
            if "s" in sides:
                c.dot(i, 31 - k, col if k >= d - 2 else BANK)
            if "w" in sides:
                c.dot(k, i, col)
            if "e" in sides:
                c.dot(31 - k, i, col)
    # Re-assert bank over foam where two banks meet in a corner.
    for i in range(32):
        d = depth(i)
        for k in range(d - 2):
            if "n" in sides:
                c.dot(i, k, BANK)
            if "s" in sides:
                c.dot(i, 31 - k, BANK)
            if "w" in sides:
                c.dot(k, i, BANK)
            if "e" in sides:
                c.dot(31 - k, i, BANK)
    rng = random.Random("bank" + sides)
    bank = {(x, y) for y in range(32) for x in range(32) if c.get(x, y) == BANK}
    if bank:
        sprinkle(c, rng, len(bank) // 12, SAND_L, bank)
        sprinkle(c, rng, len(bank) // 12, BANK_D, bank)
    return c


def t_water_corner(corner: str) -> Canvas:
    """Water with a small rounded bank in one corner (land only diagonally adjacent)."""
    c = water_base("watercorner" + corner)
    ox = 0 if "w" in corner else 32
    oy = 0 if "n" in corner else 32
    for y in range(32):
        for x in range(32):
            r = ((x + 0.5 - ox) ** 2 + (y + 0.5 - oy) ** 2) ** 0.5
            if r < 3.5:
                c.dot(x, y, BANK)
            elif r < 5.5:
                c.dot(x, y, BANK_D)
            elif r < 6.5:
                c.dot(x, y, FOAM)
            elif r < 7.5:
                c.dot(x, y, WATER_L)
    return c


def t_lily() -> Canvas:
    """Water with a lily pad and a pink flower."""
    c = water_base("lily")
    pad = disc(15, 17, 8, 6) - {(x, y) for x in range(15, 24) for y in range(17, 18)}
    c.shaded(pad, hexc("#4fa65a"), hexc("#78c870"), hexc("#3a8048"), 1)
    c.fill({(x, 17) for x in range(15, 23)} - pad, WATER_D)
    c.fill(disc(12, 13, 3, 2.5), hexc("#f2a6c4"))
    c.dot(12, 12, hexc("#fff1f6"))
    c.dot(12, 13, FIRE_Y)
    small = disc(24, 8, 4, 3)
    c.shaded(small, hexc("#4fa65a"), hexc("#78c870"), hexc("#3a8048"), 1)
    return c
