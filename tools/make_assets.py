#!/usr/bin/env python3
"""Generate Hollowbrook's art (tileset, character sheets, emotes) and maps (TMX + TMJ twins).

Everything is drawn procedurally with Pillow from fixed seeds, so the output is deterministic.
Run from the repository root:

    python tools/make_assets.py               # writes ./assets and ./maps
    python tools/make_assets.py --out DIR     # writes DIR/assets and DIR/maps
    python tools/make_assets.py --preview     # also writes /tmp/preview_*.png (never commit)
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from PIL import Image, ImageOps

TILE = 32
COLUMNS = 8
TILED_VERSION = "1.10.2"
FORMAT_VERSION = "1.10"
TILESET_NAME = "village_tiles"

RGBA = tuple[int, int, int, int]
Px = tuple[int, int]
Region = set[Px]


def hexc(code: str, alpha: int = 255) -> RGBA:
    """Parse '#rrggbb' into an RGBA tuple."""
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16), alpha)


# ---------------------------------------------------------------------------------------------
# Palette: soft, warm, cosy.
# ---------------------------------------------------------------------------------------------
CLEAR: RGBA = (0, 0, 0, 0)
OUTLINE = hexc("#2e2430")
SHADOW = (20, 24, 40, 70)

GRASS = hexc("#72b552")
GRASS_D = hexc("#5a9c46")
GRASS_L = hexc("#8fcb63")
GRASS_DD = hexc("#4a8740")

DIRT = hexc("#d2ab78")
DIRT_D = hexc("#b58b5f")
DIRT_L = hexc("#e3c393")

SAND = hexc("#ecd6a0")
SAND_D = hexc("#d6bb82")
SAND_L = hexc("#f7e8c0")

STONE = hexc("#aeaab4")
STONE_D = hexc("#8a8594")
STONE_L = hexc("#cfccd4")
MORTAR = hexc("#787280")

WATER = hexc("#4c93d6")
WATER_D = hexc("#3f7fc4")
WATER_L = hexc("#78b6ea")
FOAM = hexc("#d4ecfa")
BANK = hexc("#c9a66e")
BANK_D = hexc("#9c7a4e")

WOOD = hexc("#b47a48")
WOOD_D = hexc("#875832")
WOOD_L = hexc("#d29a62")
WOOD_DD = hexc("#5e3c24")

PLASTER = hexc("#f0e4c6")
PLASTER_D = hexc("#ddcca6")
TIMBER = hexc("#7a5034")
TIMBER_D = hexc("#5a3a26")

LEAF = hexc("#3f9a4e")
LEAF_D = hexc("#2c7642")
LEAF_L = hexc("#6cbf5c")
LEAF_H = hexc("#9ad66e")
PINE = hexc("#2f8068")
PINE_D = hexc("#22604f")
PINE_L = hexc("#4fa27a")
BARK = hexc("#7c5536")
BARK_D = hexc("#5b3c26")

IRON = hexc("#4c4e5c")
IRON_D = hexc("#34353f")
IRON_L = hexc("#8a8ea0")
FIRE_R = hexc("#d8502e")
FIRE_O = hexc("#f39a3a")
FIRE_Y = hexc("#ffe07a")

ROOF_RED = (hexc("#c9533e"), hexc("#e6805e"), hexc("#a03c34"), hexc("#74282a"))
ROOF_SLATE = (hexc("#5f7298"), hexc("#8399bd"), hexc("#475677"), hexc("#333d58"))

SKIN = hexc("#f4cda4")
SKIN_D = hexc("#dea982")
SKIN_TAN = hexc("#d69a6c")
SKIN_TAN_D = hexc("#b97c52")
SKIN_DARK = hexc("#a86e4a")
SKIN_DARK_D = hexc("#8a5638")
EYE = hexc("#2a2030")
BLUSH = hexc("#f0a0a0")
WHITE = hexc("#fbf8f2")


def shade_of(c: RGBA, f: float) -> RGBA:
    """Darken (f < 1) or lighten (f > 1) a colour."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f), c[3])
    g = f - 1
    return (
        int(c[0] + (255 - c[0]) * g),
        int(c[1] + (255 - c[1]) * g),
        int(c[2] + (255 - c[2]) * g),
        c[3],
    )


# ---------------------------------------------------------------------------------------------
# Pixel helpers
# ---------------------------------------------------------------------------------------------
def disc(cx: float, cy: float, rx: float, ry: float | None = None) -> Region:
    """Pixels whose centres lie inside an ellipse."""
    ry = rx if ry is None else ry
    out: Region = set()
    for y in range(int(cy - ry) - 1, int(cy + ry) + 2):
        for x in range(int(cx - rx) - 1, int(cx + rx) + 2):
            if ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1.0:
                out.add((x, y))
    return out


def box(x0: int, y0: int, x1: int, y1: int) -> Region:
    """Pixels of an inclusive rectangle."""
    return {(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)}


def rounded(x0: int, y0: int, x1: int, y1: int, r: int = 1) -> Region:
    """An inclusive rectangle with its corners cut by r pixels."""
    out = box(x0, y0, x1, y1)
    for i in range(r):
        for j in range(r - i):
            out -= {(x0 + i, y0 + j), (x1 - i, y0 + j), (x0 + i, y1 - j), (x1 - i, y1 - j)}
    return out


class Canvas:
    """A small RGBA pixel canvas with pixel-art drawing helpers."""

    def __init__(self, width: int = TILE, height: int = TILE) -> None:
        self.w = width
        self.h = height
        self.img = Image.new("RGBA", (width, height), CLEAR)
        px = self.img.load()
        assert px is not None
        self.px = px

    def dot(self, x: int, y: int, c: RGBA) -> None:
        """Set one pixel (ignored outside the canvas)."""
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[x, y] = c

    def get(self, x: int, y: int) -> RGBA:
        """Read one pixel (transparent outside the canvas)."""
        if 0 <= x < self.w and 0 <= y < self.h:
            v = self.px[x, y]
            assert isinstance(v, tuple)
            return (v[0], v[1], v[2], v[3])
        return CLEAR

    def rect(self, x0: int, y0: int, x1: int, y1: int, c: RGBA) -> None:
        """Fill an inclusive rectangle."""
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.dot(x, y, c)

    def fill(self, region: Iterable[Px], c: RGBA) -> None:
        """Fill every pixel of a region."""
        for x, y in region:
            self.dot(x, y, c)

    def blend(self, region: Iterable[Px], c: RGBA) -> None:
        """Alpha-blend a colour over every pixel of a region."""
        a = c[3] / 255
        for x, y in region:
            if not (0 <= x < self.w and 0 <= y < self.h):
                continue
            r, g, b, al = self.get(x, y)
            if al == 0:
                self.dot(x, y, c)
                continue
            self.dot(
                x,
                y,
                (
                    int(r * (1 - a) + c[0] * a),
                    int(g * (1 - a) + c[1] * a),
                    int(b * (1 - a) + c[2] * a),
                    max(al, c[3]),
                ),
            )

    def hline(self, x0: int, x1: int, y: int, c: RGBA) -> None:
        """Horizontal line, inclusive."""
        self.rect(x0, y, x1, y, c)

    def vline(self, x: int, y0: int, y1: int, c: RGBA) -> None:
        """Vertical line, inclusive."""
        self.rect(x, y0, x, y1, c)

    def shaded(
        self, region: Region, base: RGBA, light: RGBA, dark: RGBA, dark_depth: int = 2
    ) -> None:
        """Fill a region lit from the top-left: light rim top-left, dark rim bottom-right."""
        self.fill(region, base)
        for x, y in region:
            if (x - 1, y) not in region or (x, y - 1) not in region:
                self.dot(x, y, light)
        for x, y in region:
            if any((x + d, y + d) not in region for d in range(1, dark_depth + 1)):
                self.dot(x, y, dark)

    def outline(self, c: RGBA = OUTLINE) -> None:
        """Draw a 1px outline around every fully opaque pixel."""
        solid = {(x, y) for y in range(self.h) for x in range(self.w) if self.get(x, y)[3] == 255}
        edge = set()
        for x, y in solid:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (x + dx, y + dy)
                if n not in solid and 0 <= n[0] < self.w and 0 <= n[1] < self.h:
                    edge.add(n)
        self.fill(edge, c)

    def over(self, other: Canvas, dx: int = 0, dy: int = 0) -> None:
        """Composite another canvas on top of this one."""
        layer = Image.new("RGBA", (self.w, self.h), CLEAR)
        layer.paste(other.img, (dx, dy))
        self.img.alpha_composite(layer)

    def mirrored(self) -> Canvas:
        """A left-right mirrored copy."""
        out = Canvas(self.w, self.h)
        out.img.paste(ImageOps.mirror(self.img), (0, 0))
        return out


def sprinkle(c: Canvas, rng: random.Random, n: int, colour: RGBA, region: Region | None = None):
    """Scatter single pixels of a colour."""
    cells = sorted(region) if region else [(x, y) for y in range(c.h) for x in range(c.w)]
    for _ in range(n):
        x, y = rng.choice(cells)
        c.dot(x, y, colour)


def ground_shadow(c: Canvas, cx: float, cy: float, rx: float, ry: float) -> None:
    """A soft translucent shadow under an object."""
    c.blend(disc(cx, cy, rx, ry), SHADOW)


def with_object(draw: Callable[[Canvas], None], shadow: tuple[float, float, float, float] | None):
    """Draw an outlined object over an optional ground shadow, on a transparent tile."""
    obj = Canvas()
    draw(obj)
    obj.outline()
    out = Canvas()
    if shadow:
        ground_shadow(out, *shadow)
    out.over(obj)
    return out


# ---------------------------------------------------------------------------------------------
# Ground tiles
# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# Overlay decorations (transparent background; drawn on the decor layer)
# ---------------------------------------------------------------------------------------------
# fmt: off
FLOWER_SPOTS = ((5, 5), (11, 8), (21, 4), (26, 9), (15, 14), (5, 17), (24, 19), (10, 24),
                (18, 23), (27, 27), (4, 28))
# fmt: on


def t_flowers(petal: RGBA, centre: RGBA, seed: str) -> Canvas:
    """A scatter of small flowers with leaves."""
    rng = random.Random(seed)
    c = Canvas()
    light = shade_of(petal, 1.35)
    for fx, fy in FLOWER_SPOTS:
        x, y = fx + rng.randrange(-1, 2), fy + rng.randrange(-1, 2)
        c.dot(x - 1, y + 2, LEAF_D)
        c.dot(x + 2, y + 2, LEAF)
        c.dot(x, y + 2, LEAF_D)
        c.dot(x + 1, y + 3, LEAF_D)
        for dx, dy in ((0, -1), (1, -1), (-1, 0), (2, 0), (-1, 1), (2, 1), (0, 2), (1, 2)):
            c.dot(x + dx, y + dy, petal)
        c.dot(x, y - 1, light)
        c.dot(x - 1, y, light)
        c.fill({(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}, centre)
    return c


def t_mushrooms() -> Canvas:
    """Three small red toadstools."""
    c = Canvas()

    def shroom(cx: int, cy: int, r: int) -> None:
        stem = box(cx - 1, cy, cx + 1, cy + r + 1)
        c.fill(stem, hexc("#efe6d4"))
        cap = disc(cx + 0.5, cy, r + 1.5, r) - box(cx - 8, cy + 1, cx + 8, cy + 8)
        c.shaded(cap, hexc("#d8453c"), hexc("#f0706a"), hexc("#a83030"), 1)
        c.dot(cx - 1, cy - r + 1, WHITE)
        c.dot(cx + 2, cy - 1, WHITE)

    shroom(10, 18, 3)
    shroom(19, 13, 4)
    shroom(22, 24, 2)
    obj = c
    obj.outline()
    return obj


def canopy_texture(c: Canvas, region: Region, rng: random.Random, dark: RGBA, hi: RGBA) -> None:
    """Little leaf-clump arcs over a canopy."""
    cells = sorted(region)
    for _ in range(len(cells) // 22):
        x, y = rng.choice(cells)
        for dx, dy in ((0, 0), (1, 1), (2, 1), (3, 0)):
            if (x + dx, y + dy) in region and (x + dx, y + dy + 2) in region:
                c.dot(x + dx, y + dy, dark)
    ys = [y for _, y in cells]
    top = min(ys)
    for _ in range(len(cells) // 40):
        x, y = rng.choice(cells)
        if y < top + (max(ys) - top) * 0.55 and (x - 1, y - 1) in region:
            c.dot(x, y, hi)


def t_tree() -> Canvas:
    """A round leafy oak."""
    rng = random.Random("tree")

    def draw(c: Canvas) -> None:
        trunk = box(13, 20, 18, 28) | {(12, 28), (19, 28)}
        c.shaded(trunk, BARK, hexc("#9a6d48"), BARK_D, 1)
        c.vline(15, 23, 26, BARK_D)
        crown: Region = set()
        for cx, cy, r in (
            (16, 13, 11),
            (9, 13, 6.5),
            (23, 13, 6.5),
            (16, 7, 8),
            (11, 18, 6),
            (21, 18, 6),
            (16, 19, 6),
        ):
            crown |= disc(cx, cy, r, r * 0.95)
        crown = {(x, y) for x, y in crown if 1 <= x <= 30 and 1 <= y <= 25}
        c.shaded(crown, LEAF, LEAF_L, LEAF_D, 3)
        canopy_texture(c, crown, rng, LEAF_D, LEAF_H)

    return with_object(draw, (16, 28.5, 10, 3))


def t_pine() -> Canvas:
    """A tall layered pine."""
    rng = random.Random("pine")

    def draw(c: Canvas) -> None:
        trunk = box(14, 24, 17, 29)
        c.shaded(trunk, BARK, hexc("#9a6d48"), BARK_D, 1)
        body: Region = set()
        for top, bottom, half in ((1, 12, 6), (6, 19, 9.5), (11, 26, 13)):
            for y in range(top, bottom + 1):
                w = half * (y - top + 1) / (bottom - top + 1)
                for x in range(int(16 - w), int(16 + w + 0.999)):
                    body.add((x, y))
        body = {(x, y) for x, y in body if 1 <= x <= 30}
        c.shaded(body, PINE, PINE_L, PINE_D, 2)
        for bottom in (12, 19, 26):
            for x in range(2, 30):
                if (x, bottom) in body and (x, bottom + 1) in body:
                    c.dot(x, bottom, PINE_D)
        sprinkle(c, rng, 10, PINE_L, {p for p in body if p[0] < 16 and p[1] < 22})

    return with_object(draw, (16, 28.5, 9, 2.5))


def t_bush() -> Canvas:
    """A round shrub with a few berries."""
    rng = random.Random("bush")

    def draw(c: Canvas) -> None:
        region = disc(16, 19, 12, 9) | disc(10, 16, 6) | disc(21, 15, 7)
        region = {(x, y) for x, y in region if 1 <= x <= 30 and 2 <= y <= 29}
        c.shaded(region, LEAF, LEAF_L, LEAF_D, 2)
        canopy_texture(c, region, rng, LEAF_D, LEAF_H)
        for x, y in ((9, 18), (20, 13), (23, 21), (14, 24)):
            c.dot(x, y, hexc("#e2505a"))
            c.dot(x, y - 1, hexc("#ff9aa0"))

    return with_object(draw, (16, 28, 12, 2.5))


def t_rock() -> Canvas:
    """A mossy grey boulder."""

    def draw(c: Canvas) -> None:
        region = disc(16, 19, 11, 8) | disc(13, 15, 7, 6)
        region = {(x, y) for x, y in region if y <= 27}
        c.shaded(region, STONE, STONE_L, STONE_D, 2)
        for x, y in ((17, 15), (18, 16), (18, 17), (19, 18)):
            c.dot(x, y, STONE_D)
        c.fill({(x, y) for x, y in region if y <= 11 and x < 16}, hexc("#7bb062"))
        c.dot(10, 12, hexc("#9ccc72"))

    return with_object(draw, (16, 27.5, 12, 2.5))


def t_stump() -> Canvas:
    """A cut tree stump with growth rings."""

    def draw(c: Canvas) -> None:
        side = box(8, 16, 23, 25) | disc(16, 25, 8, 3)
        c.shaded(side, BARK, hexc("#9a6d48"), BARK_D, 1)
        for x in (11, 15, 19):
            c.vline(x, 19, 25, BARK_D)
        c.fill({(6, 27), (7, 27), (24, 27), (25, 27), (7, 26), (24, 26)}, BARK)
        top = disc(16, 16, 8, 4)
        c.fill(top, hexc("#e0bc86"))
        c.fill(disc(16, 16, 5, 2.5) - disc(16, 16, 4, 1.7), hexc("#b98e5a"))
        c.dot(16, 16, hexc("#b98e5a"))

    return with_object(draw, (16, 27, 11, 3))


def t_fence(conn: str) -> Canvas:
    """Wooden fence piece connecting towards the sides in conn (subset of 'lrud')."""

    def draw(c: Canvas) -> None:
        if "u" in conn or "d" in conn:
            y0 = 0 if "u" in conn else 14
            y1 = 31 if "d" in conn else 18
            c.shaded(box(13, y0, 18, y1), WOOD, WOOD_L, WOOD_D, 1)
        for side in "lr":
            if side in conn:
                x0, x1 = (0, 15) if side == "l" else (16, 31)
                for y in (11, 19):
                    c.rect(x0, y, x1, y + 3, WOOD)
                    c.hline(x0, x1, y, WOOD_L)
                    c.hline(x0, x1, y + 3, WOOD_D)
        if conn != "ud":
            c.shaded(box(13, 7, 18, 27), WOOD, WOOD_L, WOOD_D, 1)
            c.fill(box(14, 5, 17, 6), WOOD_L)
        else:
            for y in (8, 24):
                c.hline(13, 18, y, WOOD_D)

    obj = Canvas()
    draw(obj)
    obj.outline()
    out = Canvas()
    if "l" in conn:
        out.blend(box(0, 24, 15, 25), SHADOW)
    if "r" in conn:
        out.blend(box(16, 24, 31, 25), SHADOW)
    if "u" in conn or "d" in conn:
        out.blend(box(19, 0 if "u" in conn else 14, 21, 31 if "d" in conn else 26), SHADOW)
    out.over(obj)
    return out


# ---------------------------------------------------------------------------------------------
# Props (blocking objects on the decor layer)
# ---------------------------------------------------------------------------------------------
def bricks(
    c: Canvas, region: Region, base: RGBA, light: RGBA, dark: RGBA, bw: int = 6, bh: int = 4
) -> None:
    """Fill a region with a running-bond brick pattern."""
    c.fill(region, dark)
    for x, y in region:
        row = y // bh
        off = (row % 2) * (bw // 2)
        if y % bh == bh - 1 or (x + off) % bw == bw - 1:
            continue
        c.dot(x, y, light if y % bh == 0 else base)


def t_well() -> Canvas:
    """Round stone well with a little red roof and a bucket rope."""

    def draw(c: Canvas) -> None:
        body = box(5, 17, 26, 26) | disc(16, 26, 11, 3)
        bricks(c, body, STONE, STONE_L, STONE_D, 7, 4)
        c.blend({(x, y) for x, y in body if x > 22}, (40, 30, 60, 60))
        rim = disc(16, 17, 11, 4.5)
        c.fill(rim, STONE_L)
        c.fill(disc(16, 17.5, 8, 2.8), hexc("#284a78"))
        c.fill(disc(16, 18.2, 6, 1.6), hexc("#3c6aa4"))
        c.rect(6, 5, 7, 17, TIMBER)
        c.rect(24, 5, 25, 17, TIMBER)
        c.vline(6, 5, 17, WOOD)
        c.vline(24, 5, 17, WOOD)
        c.hline(7, 24, 8, TIMBER_D)
        c.vline(16, 9, 14, hexc("#d8c8a0"))
        c.rect(14, 13, 18, 16, WOOD)
        c.hline(14, 18, 13, WOOD_L)
        c.hline(14, 18, 16, WOOD_D)
        roof = set()
        for y in range(1, 7):
            half = 6 + y * 2
            roof |= {(x, y) for x in range(16 - half, 16 + half)}
        base, light, dark, _ = ROOF_RED
        c.fill(roof, base)
        for x, y in roof:
            if y == 6:
                c.dot(x, y, dark)
            elif (x + y) % 4 == 0:
                c.dot(x, y, light)

    return with_object(draw, (16, 29, 12, 2.5))


def t_anvil() -> Canvas:
    """An iron anvil on a wooden block."""

    def draw(c: Canvas) -> None:
        block = box(10, 20, 21, 28)
        c.shaded(block, BARK, hexc("#9a6d48"), BARK_D, 1)
        c.vline(14, 22, 28, BARK_D)
        c.vline(18, 21, 27, BARK_D)
        body = box(9, 10, 25, 13) | box(5, 11, 8, 12) | {(4, 12)} | box(12, 14, 21, 16)
        body |= box(10, 17, 23, 19)
        c.shaded(body, IRON, IRON_L, IRON_D, 1)
        c.hline(9, 24, 10, hexc("#b4b8c8"))
        c.dot(22, 11, IRON_D)
        c.dot(23, 11, IRON_D)

    return with_object(draw, (16, 28.5, 10, 2.5))


def t_forge() -> Canvas:
    """Stone smithing furnace with a glowing mouth and chimney."""
    rng = random.Random("forge")

    def draw(c: Canvas) -> None:
        chimney = box(11, 1, 20, 9)
        bricks(c, chimney, IRON_L, STONE, STONE_D, 5, 3)
        c.hline(10, 21, 1, IRON_D)
        body = box(3, 9, 28, 28)
        bricks(c, body, STONE, STONE_L, STONE_D, 7, 4)
        c.blend({(x, y) for x, y in body if x > 24}, (40, 30, 60, 60))
        mouth = box(9, 16, 22, 27) | disc(15.5, 16, 6.5, 4)
        mouth = {(x, y) for x, y in mouth if y <= 27}
        c.fill(mouth, hexc("#3a1c1c"))
        fire: Region = set()
        for i, h in enumerate((3, 5, 7, 5, 8, 6, 4, 6, 5, 3, 2)):
            fire |= {(10 + i, y) for y in range(27 - h, 28)}
        c.fill(fire, FIRE_R)
        c.fill({(x, y) for x, y in fire if y >= 27 - 5 and 11 <= x <= 20}, FIRE_O)
        c.fill({(x, y) for x, y in fire if y >= 25 and 12 <= x <= 18}, FIRE_Y)
        c.blend(box(5, 12, 26, 15) - mouth, (255, 170, 80, 60))
        sprinkle(c, rng, 4, FIRE_Y, box(10, 17, 21, 21))

    return with_object(draw, None)


def t_oven() -> Canvas:
    """Domed brick bread oven with warm embers."""

    def draw(c: Canvas) -> None:
        base = box(3, 23, 28, 29)
        bricks(c, base, STONE, STONE_L, STONE_D, 8, 3)
        dome = {(x, y) for x, y in disc(16, 24, 13, 19) if y <= 23}
        bricks(c, dome, hexc("#c8704c"), hexc("#e4946a"), hexc("#94503a"), 6, 4)
        c.blend({(x, y) for x, y in dome if x > 22}, (40, 20, 30, 60))
        mouth = {(x, y) for x, y in disc(16, 24, 6, 8) if y <= 24}
        c.fill(mouth, hexc("#3a1c1c"))
        c.fill(box(11, 21, 20, 24), FIRE_R)
        c.fill(box(12, 22, 19, 24), FIRE_O)
        c.fill({(13, 23), (15, 22), (16, 23), (18, 23)}, FIRE_Y)
        c.fill(disc(16, 19.5, 3, 1.5), hexc("#d89a50"))
        c.hline(15, 17, 19, hexc("#f0c27a"))
        c.fill(box(14, 3, 17, 8), STONE_D)
        c.hline(14, 17, 3, STONE_L)

    return with_object(draw, None)


def awning_stall(c: Canvas, stripe_a: RGBA, stripe_b: RGBA) -> None:
    """Common market stall frame: striped awning, posts and counter."""
    c.rect(4, 8, 5, 28, TIMBER)
    c.rect(26, 8, 27, 28, TIMBER)
    counter = box(2, 19, 29, 28)
    c.fill(counter, WOOD)
    for x in range(2, 30, 7):
        c.vline(x, 20, 28, WOOD_D)
    c.hline(2, 29, 19, WOOD_L)
    c.hline(2, 29, 20, WOOD_L)
    c.hline(2, 29, 28, WOOD_D)
    awning = box(1, 2, 30, 8)
    for x, y in awning:
        c.dot(x, y, stripe_a if (x - 1) // 4 % 2 == 0 else stripe_b)
    for x in range(1, 31):
        if (x - 1) % 4 in (1, 2):
            c.dot(x, 9, stripe_a if (x - 1) // 4 % 2 == 0 else stripe_b)
    c.hline(1, 30, 2, shade_of(stripe_b, 1.2))
    c.blend(box(6, 10, 25, 11), (0, 0, 0, 60))


def t_bread_stall() -> Canvas:
    """The baker's stall with loaves and a baguette."""

    def draw(c: Canvas) -> None:
        awning_stall(c, hexc("#f4e6c8"), hexc("#b9773f"))
        for cx in (9, 16, 23):
            loaf = disc(cx, 16.5, 3.6, 2.6)
            c.shaded(loaf, hexc("#d0914a"), hexc("#f0c07a"), hexc("#9a6230"), 1)
            c.dot(cx - 1, 16, hexc("#f5d49a"))
            c.dot(cx + 1, 16, hexc("#f5d49a"))
        stick = {(x, 13 + (x - 7) // 6) for x in range(7, 25)}
        c.fill(stick, hexc("#dca35c"))
        c.fill({(x, y + 1) for x, y in stick}, hexc("#a8703a"))

    return with_object(draw, (16, 29, 14, 2))


def t_market_stall() -> Canvas:
    """Fruit and vegetable stall with a red awning."""

    def draw(c: Canvas) -> None:
        awning_stall(c, hexc("#f6f0e4"), hexc("#d24c48"))
        for i, (col, hi) in enumerate(
            (
                (hexc("#d8383c"), hexc("#ff8a80")),
                (hexc("#f29a2e"), hexc("#ffd27a")),
                (hexc("#6fb04a"), hexc("#b6e07a")),
            )
        ):
            bx = 5 + i * 8
            c.fill(box(bx, 16, bx + 6, 18), WOOD_D)
            for dx, dy in ((1, 14), (3, 14), (5, 14), (2, 12), (4, 12)):
                c.fill(
                    {(bx + dx, dy), (bx + dx + 1, dy), (bx + dx, dy + 1), (bx + dx + 1, dy + 1)},
                    col,
                )
                c.dot(bx + dx, dy, hi)

    return with_object(draw, (16, 29, 14, 2))


def t_cloth_stall() -> Canvas:
    """The merchant's stall with bolts of cloth under a blue awning."""

    def draw(c: Canvas) -> None:
        awning_stall(c, hexc("#f6f0e4"), hexc("#3f6fc0"))
        for i, col in enumerate(
            (hexc("#8a5cc4"), hexc("#3aa59a"), hexc("#e8b53c"), hexc("#d85c7a"))
        ):
            bx = 6 + i * 5
            roll = box(bx, 12, bx + 4, 18)
            c.shaded(roll, col, shade_of(col, 1.3), shade_of(col, 0.7), 1)
            c.hline(bx, bx + 4, 15, shade_of(col, 0.8))

    return with_object(draw, (16, 29, 14, 2))


def t_crate() -> Canvas:
    """A wooden crate with cross braces."""

    def draw(c: Canvas) -> None:
        c.fill(box(6, 7, 25, 11), WOOD_L)
        c.hline(6, 25, 9, WOOD)
        front = box(6, 12, 25, 27)
        c.shaded(front, WOOD, WOOD_L, WOOD_D, 1)
        c.rect(6, 12, 25, 13, WOOD_D)
        c.rect(6, 26, 25, 27, WOOD_D)
        for i in range(14):
            x = 8 + int(i * 16 / 13)
            c.dot(x, 13 + i, WOOD_DD)
            c.dot(x + 1, 13 + i, WOOD_D)
            c.dot(31 - x - 1, 13 + i, WOOD_DD)

    return with_object(draw, (16, 28, 12, 2))


def t_barrel() -> Canvas:
    """An oak barrel with iron hoops."""

    def draw(c: Canvas) -> None:
        body = box(8, 8, 23, 27) | box(7, 11, 24, 24)
        c.shaded(body, hexc("#a86c3e"), hexc("#c88c58"), hexc("#7a4c2c"), 2)
        for x in (11, 15, 19):
            c.vline(x, 9, 27, hexc("#8c5a34"))
        for y in (11, 23):
            c.hline(7, 24, y, IRON)
            c.hline(7, 24, y + 1, IRON_D)
        top = disc(16, 8, 8, 3)
        c.fill(top, hexc("#c89060"))
        c.fill(disc(16, 8, 6, 1.8), hexc("#8c5a34"))

    return with_object(draw, (16, 28, 11, 2))


def t_sign() -> Canvas:
    """A wooden signpost."""

    def draw(c: Canvas) -> None:
        c.shaded(box(14, 12, 17, 28), TIMBER, WOOD, TIMBER_D, 1)
        board = box(4, 4, 27, 15)
        c.shaded(board, WOOD, WOOD_L, WOOD_D, 1)
        c.hline(5, 26, 9, WOOD_D)
        for y, (a, b) in ((6, (7, 20)), (12, (8, 23))):
            c.hline(a, b, y, WOOD_DD)
        c.fill({(24, 6), (25, 7), (24, 8)}, WOOD_DD)

    return with_object(draw, (16, 28.5, 6, 2))


def t_boat() -> Canvas:
    """A small moored rowboat (sits on water)."""

    def draw(c: Canvas) -> None:
        hull = {
            (x, y)
            for x in range(2, 30)
            for y in range(6, 27)
            if abs(y + 0.5 - 16) <= 8.5 * (1 - ((x + 0.5 - 16) / 14.5) ** 2)
        }
        c.shaded(hull, hexc("#9c6a44"), hexc("#c08a5a"), hexc("#6e4628"), 2)
        inner = {
            (x, y)
            for x in range(4, 28)
            for y in range(8, 24)
            if abs(y + 0.5 - 15.5) <= 5.5 * (1 - ((x + 0.5 - 16) / 11) ** 2)
        }
        c.fill(inner, hexc("#d8b080"))
        c.fill(box(14, 10, 17, 20) & inner, hexc("#a87850"))
        c.fill({(x, 21 - (x - 4) // 6) for x in range(4, 26)}, hexc("#7e5634"))
        c.hline(8, 11, 13, hexc("#f0e0c0"))

    obj = Canvas()
    draw(obj)
    obj.outline()
    out = Canvas()
    out.blend(disc(17, 18, 15, 9), (20, 40, 80, 80))
    out.over(obj)
    return out


def t_lamp() -> Canvas:
    """An iron lamp post with a warm lantern."""

    def draw(c: Canvas) -> None:
        c.fill(box(15, 10, 16, 27), IRON)
        c.vline(15, 10, 27, IRON_L)
        c.fill(box(12, 26, 19, 28), IRON)
        c.fill(box(11, 4, 20, 11), IRON_D)
        c.fill(box(12, 5, 19, 10), FIRE_Y)
        c.fill(box(13, 6, 14, 9), hexc("#fff6d0"))
        c.vline(15, 5, 10, IRON_D)
        c.fill({(x, 3) for x in range(12, 20)} | {(x, 2) for x in range(14, 18)}, IRON)
        c.dot(15, 1, IRON)

    obj = Canvas()
    draw(obj)
    obj.outline()
    out = Canvas()
    out.blend(disc(16, 8, 11, 9), (255, 230, 140, 45))
    ground_shadow(out, 16, 28.5, 6, 2)
    out.over(obj)
    return out


def t_hay() -> Canvas:
    """A round bale of hay."""
    rng = random.Random("hay")

    def draw(c: Canvas) -> None:
        bale = rounded(4, 9, 27, 27, 3)
        c.shaded(bale, hexc("#e2c062"), hexc("#f4dc8a"), hexc("#b8963c"), 2)
        sprinkle(c, rng, 30, hexc("#c8a448"), bale)
        for y in (14, 22):
            c.hline(4, 27, y, hexc("#a0522d"))

    return with_object(draw, (16, 28, 13, 2))


def t_sacks() -> Canvas:
    """Two flour sacks leaning together."""

    def draw(c: Canvas) -> None:
        for cx, top in ((11, 10), (21, 13)):
            sack = disc(cx, top + 9, 7, 9) | box(cx - 2, top - 1, cx + 2, top + 2)
            sack = {(x, y) for x, y in sack if y <= 27}
            c.shaded(sack, hexc("#e6dabc"), hexc("#f8f0dc"), hexc("#bfae88"), 2)
            c.hline(cx - 2, cx + 2, top + 2, hexc("#9a7a50"))
            c.fill(disc(cx, top + 11, 2.5, 2), hexc("#c8b48a"))

    return with_object(draw, (16, 28, 13, 2))


def t_log_pile() -> Canvas:
    """Firewood stacked for the forge."""

    def draw(c: Canvas) -> None:
        for cx, cy in ((8, 23), (16, 23), (24, 23), (12, 16), (20, 16), (16, 9)):
            log = disc(cx, cy, 4.2)
            c.fill(log, hexc("#d8b07a"))
            c.fill(disc(cx, cy, 2.6) - disc(cx, cy, 1.6), hexc("#b08050"))
            c.dot(cx, cy, hexc("#b08050"))
            c.fill({(x, y) for x, y in log if (x + 1, y + 1) not in log}, BARK)

    return with_object(draw, (16, 28, 13, 2))


def t_bench() -> Canvas:
    """A park bench facing the viewer."""

    def draw(c: Canvas) -> None:
        c.fill(box(4, 8, 27, 13), WOOD)
        c.hline(4, 27, 8, WOOD_L)
        c.hline(4, 27, 10, WOOD_D)
        c.fill(box(3, 15, 28, 20), WOOD)
        c.hline(3, 28, 15, WOOD_L)
        c.hline(3, 28, 18, WOOD_D)
        for x in (5, 25):
            c.fill(box(x, 13, x + 1, 15), IRON)
            c.fill(box(x, 20, x + 1, 26), IRON)

    return with_object(draw, (16, 27, 13, 2))


def t_flower_pot() -> Canvas:
    """A terracotta pot of daisies."""

    def draw(c: Canvas) -> None:
        pot = {(x, y) for y in range(18, 28) for x in range(9 + (y - 18) // 3, 23 - (y - 18) // 3)}
        c.shaded(pot, hexc("#c8643c"), hexc("#e88a5e"), hexc("#92442a"), 1)
        c.fill(box(8, 16, 23, 18), hexc("#d87448"))
        c.hline(8, 23, 16, hexc("#f0a070"))
        leaves = disc(16, 12, 8, 5)
        c.shaded(leaves, LEAF, LEAF_L, LEAF_D, 1)
        for x, y in ((11, 10), (16, 8), (20, 11), (14, 13), (19, 14)):
            for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                c.dot(x + dx, y + dy, WHITE)
            c.dot(x, y, FIRE_Y)

    return with_object(draw, (16, 28, 9, 2))


def t_cart() -> Canvas:
    """The travelling merchant's covered cart."""

    def draw(c: Canvas) -> None:
        cover = {(x, y) for x, y in disc(15, 13, 12, 10) if y <= 14}
        c.shaded(cover, hexc("#efe4c8"), WHITE, hexc("#c8b890"), 2)
        for x in (8, 15, 22):
            c.vline(x, 5, 14, hexc("#c8b890"))
        bed = box(2, 15, 28, 22)
        c.shaded(bed, WOOD, WOOD_L, WOOD_D, 1)
        c.hline(2, 28, 18, WOOD_D)
        c.fill({(x, 19) for x in range(28, 31)}, TIMBER)
        wheel = disc(10, 24, 5.2)
        c.fill(wheel, TIMBER_D)
        c.fill(disc(10, 24, 3.5), WOOD)
        c.fill({(10, y) for y in range(20, 29)} | {(x, 24) for x in range(6, 15)}, TIMBER_D)
        c.dot(10, 24, IRON_L)

    return with_object(draw, (16, 29, 13, 2))


def t_pumpkins() -> Canvas:
    """Two ripe pumpkins with leaves."""

    def draw(c: Canvas) -> None:
        for cx, cy, r in ((11, 19, 6.5), (22, 22, 5)):
            body = disc(cx, cy, r + 1.5, r)
            c.shaded(body, hexc("#ec8a2c"), hexc("#ffb45a"), hexc("#b85e1a"), 2)
            c.vline(int(cx), int(cy - r + 2), int(cy + r - 2), hexc("#c86a20"))
            c.fill(box(int(cx), int(cy - r - 2), int(cx) + 1, int(cy - r)), hexc("#5a7a2a"))
        leaf = disc(19, 12, 4, 2.5)
        c.shaded(leaf, LEAF, LEAF_L, LEAF_D, 1)

    return with_object(draw, (16, 28, 13, 2))


def t_bucket() -> Canvas:
    """A wooden bucket of water."""

    def draw(c: Canvas) -> None:
        body = {(x, y) for y in range(14, 27) for x in range(9 + (y - 14) // 5, 23 - (y - 14) // 5)}
        c.shaded(body, WOOD, WOOD_L, WOOD_D, 1)
        for y in (17, 23):
            c.hline(9, 22, y, IRON)
        c.fill(disc(16, 14, 7, 2.5), WATER)
        c.hline(13, 16, 14, FOAM)
        for i in range(13):
            a = i / 12
            c.dot(9 + i + 1, int(12 - 6 * (1 - (2 * a - 1) ** 2)), IRON_D)

    return with_object(draw, (16, 27, 9, 2))


def t_fish_basket() -> Canvas:
    """A wicker basket with the day's catch."""

    def draw(c: Canvas) -> None:
        body = {(x, y) for y in range(15, 28) for x in range(6 + (y - 15) // 4, 26 - (y - 15) // 4)}
        c.shaded(body, hexc("#c89a58"), hexc("#e4bc7a"), hexc("#8e6a36"), 1)
        for y in range(16, 28, 3):
            for x in range(6, 26):
                if (x, y) in body and (x + y) % 4 < 2:
                    c.dot(x, y, hexc("#a67a40"))
        for cx, cy, col in ((12, 13, hexc("#9ab4c8")), (19, 12, hexc("#b8c8d4"))):
            fish = disc(cx, cy, 5, 2.2)
            c.shaded(fish, col, WHITE, shade_of(col, 0.7), 1)
            c.fill(
                {(cx + 5, cy - 1), (cx + 6, cy - 2), (cx + 5, cy + 1), (cx + 6, cy + 2)},
                shade_of(col, 0.8),
            )
            c.dot(cx - 3, cy - 1, EYE)
        c.fill(box(6, 14, 25, 15), hexc("#a67a40"))

    return with_object(draw, (16, 28, 11, 2))


def t_cabbages() -> Canvas:
    """A row of garden cabbages."""

    def draw(c: Canvas) -> None:
        for cx, cy in ((9, 11), (22, 11), (9, 23), (22, 23)):
            head = disc(cx, cy, 6, 5)
            c.shaded(head, hexc("#7cc25a"), hexc("#b4e48a"), hexc("#4e9440"), 1)
            c.fill({(cx, cy - 2), (cx - 1, cy - 1), (cx + 1, cy - 1), (cx, cy)}, hexc("#d4f0a8"))
            c.fill({(cx - 5, cy + 3), (cx + 5, cy + 3)}, hexc("#4e9440"))

    obj = Canvas()
    draw(obj)
    obj.outline(hexc("#2c5030"))
    out = Canvas()
    out.fill(box(2, 16, 29, 18), DIRT_D)
    out.fill(box(2, 28, 29, 30), DIRT_D)
    out.over(obj)
    return out


def t_tall_grass() -> Canvas:
    """Tufts of tall wild grass (walkable)."""
    c = Canvas()
    for bx, by in ((4, 10), (17, 6), (9, 24), (22, 20), (27, 29)):
        for i, (dx, hgt) in enumerate(((0, 5), (2, 7), (4, 6), (6, 4))):
            col = GRASS_L if i % 2 else GRASS_DD
            for k in range(hgt):
                c.dot(bx + dx + (1 if k > hgt - 3 and i % 2 else 0), by - k, col)
            c.dot(bx + dx, by - hgt, hexc("#c4e07a"))
    return c


def t_reeds() -> Canvas:
    """Cattail reeds growing out of the water."""
    c = Canvas()
    for bx, hgt in ((6, 18), (10, 22), (14, 16), (19, 21), (23, 17), (26, 13)):
        base = 27 - (bx % 3)
        c.vline(bx, base - hgt, base, LEAF_D)
        c.vline(bx + 1, base - hgt + 4, base, LEAF)
        c.fill(box(bx, base - hgt - 1, bx + 1, base - hgt + 3), hexc("#8a5a34"))
        c.dot(bx, base - hgt - 1, hexc("#b07a48"))
    c.fill({(x, 28) for x in range(5, 28)}, WATER_L)
    return c


def t_table() -> Canvas:
    """A small outdoor table with a jug."""

    def draw(c: Canvas) -> None:
        c.fill(box(4, 11, 27, 19), WOOD)
        c.hline(4, 27, 11, WOOD_L)
        c.hline(4, 27, 19, WOOD_D)
        c.fill(box(4, 20, 27, 21), WOOD_D)
        for x in (6, 24):
            c.fill(box(x, 22, x + 1, 27), TIMBER)
        jug = box(17, 5, 21, 13) | box(16, 8, 22, 12)
        c.shaded(jug, hexc("#6e9ad8"), hexc("#a8c8f0"), hexc("#4a70b0"), 1)
        c.fill(box(8, 13, 12, 15), WHITE)
        c.fill(box(9, 13, 11, 14), hexc("#d0914a"))

    return with_object(draw, (16, 28, 13, 2))


# ---------------------------------------------------------------------------------------------
# Buildings: walls and roofs (opaque, tile seamlessly side by side)
# ---------------------------------------------------------------------------------------------
def wall_plaster(seed: str) -> Canvas:
    """Half-timbered plaster wall with a stone footing."""
    rng = random.Random(seed)
    c = Canvas()
    c.rect(0, 0, 31, 31, PLASTER)
    sprinkle(c, rng, 18, PLASTER_D, box(3, 5, 28, 24))
    c.rect(0, 0, 31, 3, TIMBER)
    c.hline(0, 31, 0, OUTLINE)
    c.hline(0, 31, 4, PLASTER_D)
    c.rect(0, 0, 1, 25, TIMBER)
    c.rect(30, 0, 31, 25, TIMBER_D)
    c.rect(0, 24, 31, 25, TIMBER)
    bricks(c, box(0, 26, 31, 31), STONE, STONE_L, STONE_D, 8, 3)
    c.hline(0, 31, 31, OUTLINE)
    return c


def wall_stone(seed: str) -> Canvas:
    """Sturdy grey stone wall (the forge)."""
    rng = random.Random(seed)
    c = Canvas()
    c.rect(0, 0, 31, 31, MORTAR)
    for row in range(5):
        y0 = 3 + row * 6
        x = -((row % 2) * 5)
        while x < 32:
            w = rng.choice((8, 9, 10, 11))
            tone = rng.choice((STONE, shade_of(STONE, 0.93), shade_of(STONE, 1.05)))
            for yy in range(y0, min(y0 + 5, 31)):
                for xx in range(max(x, 0), min(x + w - 1, 32)):
                    col = tone
                    if yy == y0:
                        col = STONE_L
                    elif yy == y0 + 4:
                        col = STONE_D
                    c.dot(xx, yy, col)
            x += w
    c.rect(0, 0, 31, 2, TIMBER_D)
    c.hline(0, 31, 0, OUTLINE)
    c.hline(0, 31, 31, OUTLINE)
    return c


def add_window(c: Canvas, glass: RGBA, glass_l: RGBA, frame: RGBA, box_flowers: bool) -> None:
    """A four-pane window with a sill (and optionally a flower box)."""
    c.fill(box(8, 6, 23, 21), frame)
    c.fill(box(10, 8, 21, 19), glass)
    c.fill({(11 + i, 12 - i) for i in range(4)} | {(12 + i, 12 - i) for i in range(4)}, glass_l)
    c.vline(15, 8, 19, frame)
    c.vline(16, 8, 19, frame)
    c.hline(10, 21, 13, frame)
    c.fill(box(7, 21, 24, 22), WOOD_L)
    c.hline(7, 24, 23, TIMBER_D)
    if box_flowers:
        c.fill(box(8, 23, 23, 25), hexc("#8a5a36"))
        c.hline(8, 23, 25, TIMBER_D)
        for x in range(9, 23, 3):
            c.dot(x, 22, hexc("#e2505a"))
            c.dot(x + 1, 22, LEAF)
            c.dot(x, 21, hexc("#ff9aa0"))


def add_door(c: Canvas, wood: RGBA, wood_d: RGBA, bands: bool) -> None:
    """An arched plank door reaching the ground, with a step."""
    door = box(9, 9, 22, 30) | disc(15.5 + 0.5, 10, 7, 4)
    door = {(x, y) for x, y in door if 9 <= x <= 22 and y <= 30}
    c.fill({(x, y) for x, y in door}, OUTLINE)
    inner = {(x, y) for x, y in door if 10 <= x <= 21 and y >= 8 and (x, y - 1) in door}
    c.fill(inner, wood)
    for x in (13, 16, 19):
        c.vline(x, 8, 30, wood_d)
    if bands:
        for y in (14, 24):
            c.hline(10, 21, y, IRON)
    c.fill(box(18, 19, 19, 20), hexc("#f0c85a"))
    c.dot(18, 19, hexc("#fff0b0"))
    c.fill(box(7, 30, 24, 31), STONE_L)
    c.hline(7, 24, 31, STONE_D)


def t_wall(kind: str) -> Canvas:
    """House wall: 'plain', 'window' or 'door'."""
    c = wall_plaster("wall" + kind)
    if kind == "window":
        add_window(c, hexc("#8cc4e8"), hexc("#d6f0ff"), TIMBER_D, True)
    elif kind == "door":
        add_door(c, hexc("#a0643a"), hexc("#7a4a2a"), False)
    return c


def t_wall_stone(kind: str) -> Canvas:
    """Forge wall: 'plain', 'window' (glowing) or 'door' (iron-banded)."""
    c = wall_stone("stone" + kind)
    if kind == "window":
        add_window(c, hexc("#f0a848"), hexc("#ffe08a"), IRON_D, False)
    elif kind == "door":
        add_door(c, hexc("#7a5034"), hexc("#5a3a26"), True)
    return c


def t_roof(pal: tuple[RGBA, RGBA, RGBA, RGBA], top: bool, side: str) -> Canvas:
    """Shingled roof piece: top (ridge) or bottom (eave) row; side 'l', 'm' or 'r'."""
    base, light, dark, deep = pal
    c = Canvas()
    c.rect(0, 0, 31, 31, dark)
    # Shingle rows continue across the two roof rows: rows start at 5, 11, ... 29, 35(=3), ...
    for r in range(-1, 12):
        y0 = 5 + r * 6 - (0 if top else 32)
        off = (r % 2) * 4
        for sx in range(-8, 40, 8):
            x0 = sx + off
            for yy in range(y0, y0 + 6):
                for xx in range(x0, x0 + 8):
                    if not (0 <= xx < 32 and 0 <= yy < 32):
                        continue
                    col = base
                    edge = xx in (x0, x0 + 7)
                    if yy == y0 + 5:
                        col = deep if edge or xx in (x0 + 1, x0 + 6) else dark
                    elif yy == y0 + 4 and edge:
                        col = deep
                    elif yy == y0 + 4:
                        col = base
                    elif xx == x0 + 7:
                        col = dark
                    elif (yy == y0 + 1 and 1 <= xx - x0 <= 3) or (xx == x0 + 1 and yy <= y0 + 2):
                        col = light
                    c.dot(xx, yy, col)
    if top:
        c.rect(0, 0, 31, 4, deep)
        c.hline(0, 31, 1, dark)
        c.hline(0, 31, 2, base)
        c.hline(0, 31, 0, OUTLINE)
        for x in range(2, 32, 8):
            c.dot(x, 2, light)
    else:
        c.hline(0, 31, 26, deep)
        c.rect(0, 27, 31, 29, hexc("#7a4a30"))
        c.hline(0, 31, 27, hexc("#9c6640"))
        c.hline(0, 31, 30, deep)
        c.hline(0, 31, 31, OUTLINE)
    if side == "l":
        c.vline(0, 0, 31, OUTLINE)
        c.rect(1, 0, 2, 31, hexc("#9c6640"))
        c.vline(3, 0, 31, deep)
    elif side == "r":
        c.vline(31, 0, 31, OUTLINE)
        c.rect(29, 0, 30, 31, hexc("#7a4a30"))
        c.vline(28, 0, 31, deep)
    return c


def t_chimney(pal: tuple[RGBA, RGBA, RGBA, RGBA]) -> Canvas:
    """Ridge roof piece with a brick chimney and a puff of smoke."""
    c = t_roof(pal, True, "m")
    chim = box(17, 2, 24, 14)
    bricks(c, chim, hexc("#b0604a"), hexc("#d08066"), hexc("#7a3c2e"), 4, 3)
    c.fill(box(16, 1, 25, 3), STONE_D)
    c.hline(16, 25, 1, STONE_L)
    c.vline(16, 1, 14, OUTLINE)
    c.vline(25, 1, 14, OUTLINE)
    c.hline(16, 25, 0, OUTLINE)
    c.blend(box(16, 15, 25, 16), (0, 0, 0, 70))
    return c


def t_collision() -> Canvas:
    """Editor-only marker for the hidden collision layer."""
    c = Canvas()
    c.rect(0, 0, 31, 31, (220, 40, 40, 90))
    for i in range(32):
        c.dot(i, i, (220, 40, 40, 200))
        c.dot(31 - i, i, (220, 40, 40, 200))
    for i in range(32):
        for p in ((i, 0), (i, 31), (0, i), (31, i)):
            c.dot(p[0], p[1], (160, 20, 20, 220))
    return c


# ---------------------------------------------------------------------------------------------
# Tileset registry: order defines tile ids (gid = id + 1 with firstgid 1).
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TileDef:
    """One tile of the tileset."""

    name: str
    walkable: bool
    draw: Callable[[], Canvas]


def _tiles() -> list[TileDef]:
    walk, block = True, False
    t: list[TileDef] = [
        TileDef("grass", walk, lambda: t_grass(0)),
        TileDef("grass_2", walk, lambda: t_grass(1)),
        TileDef("grass_3", walk, lambda: t_grass(2)),
        TileDef("path", walk, t_path),
        TileDef("cobble", walk, t_cobble),
        TileDef("sand", walk, t_sand),
        TileDef("wood_floor", walk, t_wood_floor),
        TileDef("dock", walk, t_dock),
        TileDef("bridge", walk, lambda: t_bridge(True, True)),
        TileDef("bridge_n", walk, lambda: t_bridge(True, False)),
        TileDef("bridge_s", walk, lambda: t_bridge(False, True)),
        TileDef("flowers_red", walk, lambda: t_flowers(hexc("#e45a64"), FIRE_Y, "fr")),
        TileDef("flowers_yellow", walk, lambda: t_flowers(hexc("#f6cc3c"), hexc("#d87a2a"), "fy")),
        TileDef("flowers_blue", walk, lambda: t_flowers(hexc("#6e8ce8"), WHITE, "fb")),
        TileDef("mushrooms", walk, t_mushrooms),
        TileDef("water", block, t_water),
        TileDef("water_n", block, lambda: t_water("n")),
        TileDef("water_s", block, lambda: t_water("s")),
        TileDef("water_w", block, lambda: t_water("w")),
        TileDef("water_e", block, lambda: t_water("e")),
        TileDef("water_nw", block, lambda: t_water("nw")),
        TileDef("water_ne", block, lambda: t_water("ne")),
        TileDef("water_sw", block, lambda: t_water("sw")),
        TileDef("water_se", block, lambda: t_water("se")),
        TileDef("water_corner_nw", block, lambda: t_water_corner("nw")),
        TileDef("water_corner_ne", block, lambda: t_water_corner("ne")),
        TileDef("water_corner_sw", block, lambda: t_water_corner("sw")),
        TileDef("water_corner_se", block, lambda: t_water_corner("se")),
        TileDef("water_lily", block, t_lily),
        TileDef("tree", block, t_tree),
        TileDef("pine", block, t_pine),
        TileDef("bush", block, t_bush),
        TileDef("rock", block, t_rock),
        TileDef("stump", block, t_stump),
        TileDef("fence_h", block, lambda: t_fence("lr")),
        TileDef("fence_v", block, lambda: t_fence("ud")),
        TileDef("fence_end_l", block, lambda: t_fence("r")),
        TileDef("fence_end_r", block, lambda: t_fence("l")),
        TileDef("fence_nw", block, lambda: t_fence("rd")),
        TileDef("fence_ne", block, lambda: t_fence("ld")),
        TileDef("fence_sw", block, lambda: t_fence("ru")),
        TileDef("fence_se", block, lambda: t_fence("lu")),
        TileDef("well", block, t_well),
        TileDef("anvil", block, t_anvil),
        TileDef("forge", block, t_forge),
        TileDef("oven", block, t_oven),
        TileDef("bread_stall", block, t_bread_stall),
        TileDef("market_stall", block, t_market_stall),
        TileDef("cloth_stall", block, t_cloth_stall),
        TileDef("crate", block, t_crate),
        TileDef("barrel", block, t_barrel),
        TileDef("sign", block, t_sign),
        TileDef("boat", block, t_boat),
        TileDef("lamp", block, t_lamp),
        TileDef("hay_bale", block, t_hay),
        TileDef("sacks", block, t_sacks),
        TileDef("log_pile", block, t_log_pile),
        TileDef("bench", block, t_bench),
        TileDef("flower_pot", block, t_flower_pot),
        TileDef("cart", block, t_cart),
        TileDef("pumpkins", block, t_pumpkins),
        TileDef("bucket", block, t_bucket),
        TileDef("fish_basket", block, t_fish_basket),
        TileDef("cabbages", block, t_cabbages),
        TileDef("tall_grass", walk, t_tall_grass),
        TileDef("reeds", block, t_reeds),
        TileDef("table", block, t_table),
        TileDef("wall", block, lambda: t_wall("plain")),
        TileDef("wall_window", block, lambda: t_wall("window")),
        TileDef("wall_door", block, lambda: t_wall("door")),
        TileDef("wall_stone", block, lambda: t_wall_stone("plain")),
        TileDef("wall_stone_window", block, lambda: t_wall_stone("window")),
        TileDef("wall_stone_door", block, lambda: t_wall_stone("door")),
    ]
    for colour, pal in (("red", ROOF_RED), ("slate", ROOF_SLATE)):
        for top in (True, False):
            for side in "lmr":
                name = f"roof_{colour}_{'top_' if top else ''}{side}"
                t.append(TileDef(name, block, partial(t_roof, pal, top, side)))
        t.append(TileDef(f"roof_{colour}_chimney", block, partial(t_chimney, pal)))
    t.append(TileDef("collision", block, t_collision))
    return t


TILES: list[TileDef] = _tiles()
TILE_ID: dict[str, int] = {t.name: i for i, t in enumerate(TILES)}


def gid(name: str) -> int:
    """Global tile id of a named tile in maps (the tileset's firstgid is 1)."""
    return TILE_ID[name] + 1


def build_tileset() -> Image.Image:
    """Render every tile into one tileset image, COLUMNS wide."""
    rows = (len(TILES) + COLUMNS - 1) // COLUMNS
    sheet = Image.new("RGBA", (COLUMNS * TILE, rows * TILE), CLEAR)
    for i, t in enumerate(TILES):
        sheet.paste(t.draw().img, ((i % COLUMNS) * TILE, (i // COLUMNS) * TILE))
    return sheet


# ---------------------------------------------------------------------------------------------
# Maps: ASCII layouts -> ground / decor / collision layers
# ---------------------------------------------------------------------------------------------
# Legend. Ground: . grass   , grass+flowers   : dirt path   # cobblestone   ~ water (banks are
# automatic)   @ water with lily pad   s sand   = bridge   d dock   _ wooden floor.
# Decor (ground beneath is taken from the neighbours): T tree  P pine  b bush  o rock  t stump
# m mushrooms  - | fence (pieces join automatically)  W well  A anvil  F forge furnace  O oven
# B bread stall  M fruit stall  Y cloth stall  C crate  K barrel  S sign  k boat  L lamp
# h hay bale  % flour sacks  l log pile  n bench  v flower pot  c cart  p pumpkins  q bucket
# f fish basket  x cabbages  " tall grass  i reeds (in water)  a table.
# Buildings: H wall  w wall+window  D door  G stone wall  g stone window
# E stone door; roofs: r/R red ridge/eave row, u/U slate ridge/eave row, ^ red chimney,
# & slate chimney (left/middle/right roof pieces are chosen automatically).
VILLAGE_LAYOUT = """
TTTPPTTPTPTPPPPPTTTPTTTTPPTTPTPTT~~~PPPTPTTPPTTP
TT.T...bT..T.PTTTb..T.Tb.T....TbP~~~PTTP..Tb..TT
Tb.,............T...,...,......T.~~~...........T
TT.......-----.......,........"..~~~.......T...T
TP.rrr^r.|xxx|h...........T..T...~~~..T........T
Tb.RRRRR.|p,,|..uuuuu&u..".......~~~......,...PT
TbbHwDwHb|,,p|..UUUUUUU..........~~~..".....,..T
TT...:...|x,x|..HwHwHwH...T..T...~~~...........T
TT...:...--.--.bHwHDHwHb.........~~~..........TT
P.,..:.,........,,.:.,,........".~~~...rrrrr..TT
Tb.,.:.......b.....:....t.T..T...~~~...RRRRR...T
TP...:.rrr^r.......:.............~~~..bHwDwHb.TT
P....:.RRRRR...,...:...,..,...,..~~~.....:.K..TT
PbT..:%HwDwHO.Lv#######vL..n.....~~~.....:..T..T
P....:..v:v...##n#####a##b.....P.~~~,.T..:....bT
T....:...:.B..###########...,....~~~.,...:.....T
T....:...:....#####Wq####.S......~~~.....:....TT
TT::::::::::::###########::::::::===::::::::::.T
TT::::::::::::###########::::::::===::::::::::.T
T........:...,###########..P.....~~~.....:.....T
TTT......:..,.###########,..T....~~~.o...:."...T
P..".....:....L#########L.,......~~~.....:..o..P
TP.uuuuu.:..T..#########.........~~~~~~..:f....P
T..UUUUU.:.....#M#Y#M#C#.....ss.~~~~~~~~~d~...TP
T..GgEgGF:.....#######K#....sss~~~~~~~~~~d~~...T
PT.:::::::K....##p##%###...sss~~~~~~@~~~~d~~i.TT
T..l:::::A:....C##a###c#.bsssi~~~~~~~~~~~dk~~~bT
TT.::::::::.P.b#########..sos~~~~~~~~~~~~d~~~~TP
T......:................T.sss~~~~~~~~~~~~~~~~~TP
TT.----.----.,......."....sss~~~~@~~~~~~~~~~~~bP
T..|x:x:x:x|......,........sss~~~~~~~~~~~~~~~"bT
T..|x:x:x:x|.m,.....T....,...ssoi~~~~~@~~~~~...T
P..|:::::::|..........,......ss.~~~~~~~~~~~...TT
T..---------".................................bP
TTbTTbbTP......bT.P..T.....bPP.P.TT..TTTPbb.P.bP
PPTPTTTTTTPPTPPTTTPTTTTTPTTTPTTTTTPTPTTPTTTPPTTT
"""

TINY_LAYOUT = """
TTPTTTTPTT
T...,....T
T.HwH..~~T
T......~~T
T.::::...T
T........T
T...,..b.T
TTTPTTTTTT
"""

GROUND_CHARS: dict[str, str] = {
    ".": "grass",
    ",": "grass",
    ":": "path",
    "#": "cobble",
    "~": "water",
    "@": "water_lily",
    "s": "sand",
    "=": "bridge",
    "d": "dock",
    "_": "wood_floor",
}
# fmt: off
DECOR_CHARS: dict[str, str] = {
    "T": "tree", "P": "pine", "b": "bush", "o": "rock", "t": "stump", "m": "mushrooms",
    "W": "well", "A": "anvil", "F": "forge", "O": "oven", "B": "bread_stall",
    "M": "market_stall", "Y": "cloth_stall", "C": "crate", "K": "barrel", "S": "sign",
    "k": "boat", "L": "lamp", "h": "hay_bale", "%": "sacks", "l": "log_pile", "n": "bench",
    "v": "flower_pot", "c": "cart", "p": "pumpkins", "q": "bucket", "f": "fish_basket",
    "x": "cabbages", '"': "tall_grass", "i": "reeds", "a": "table",
    "H": "wall", "w": "wall_window", "D": "wall_door",
    "G": "wall_stone", "g": "wall_stone_window", "E": "wall_stone_door",
}
# fmt: on
FENCE_CHARS = "-|"
# fmt: off
ROOF_CHARS: dict[str, tuple[str, bool]] = {
    "r": ("red", True), "^": ("red", True), "R": ("red", False),
    "u": ("slate", True), "&": ("slate", True), "U": ("slate", False),
}
# fmt: on
FLOWER_TILES = ("flowers_red", "flowers_yellow", "flowers_blue")
GRASS_TILES = ("grass", "grass", "grass", "grass", "grass", "grass_2", "grass_2", "grass_3")
# Tile kinds that a decor cell may borrow as its ground, most preferred first.
GROUND_PREFERENCE = ("cobble", "path", "sand", "wood_floor", "dock", "grass")
OVER_WATER = {"water", "water_lily", "bridge", "dock"}
WATER_DECOR = "ki"  # decor that stands in water: boat, reeds


def parse_layout(text: str) -> list[str]:
    """Split an ASCII layout into equal-length rows."""
    rows = [r for r in text.strip("\n").split("\n")]
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"layout row {i} has {len(r)} chars, expected {width}")
        for ch in r:
            if (
                ch not in GROUND_CHARS
                and ch not in DECOR_CHARS
                and ch not in FENCE_CHARS
                and ch not in ROOF_CHARS
            ):
                raise ValueError(f"unknown layout char {ch!r} in row {i}")
    return rows


def cell_hash(x: int, y: int, salt: int = 0) -> int:
    """A stable per-cell pseudo-random number (independent of PYTHONHASHSEED)."""
    return ((x * 73856093) ^ (y * 19349663) ^ (salt * 83492791)) % 1000003


@dataclass
class TileGrids:
    """The three tile layers of a map as row-major gid lists."""

    width: int
    height: int
    ground: list[int]
    decor: list[int]
    collision: list[int]


def build_grids(layout: str) -> TileGrids:
    """Turn an ASCII layout into ground, decor and collision gid grids."""
    rows = parse_layout(layout)
    h, w = len(rows), len(rows[0])

    def ch(x: int, y: int) -> str | None:
        return rows[y][x] if 0 <= x < w and 0 <= y < h else None

    # 1. Ground kind per cell: explicit, else borrowed from neighbours.
    kind: dict[Px, str] = {}
    for y in range(h):
        for x in range(w):
            c = rows[y][x]
            if c in GROUND_CHARS:
                kind[(x, y)] = GROUND_CHARS[c]
    explicit = dict(kind)
    # Two passes: the second also hears from decor neighbours resolved in the first, so a lamp
    # in a plaza corner next to a flower pot still stands on cobbles.
    for _ in range(2):
        known = dict(kind)
        for y in range(h):
            for x in range(w):
                if (x, y) in explicit:
                    continue
                votes: Counter[str] = Counter()
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    k = known.get((x + dx, y + dy))
                    if k is None:
                        continue
                    if rows[y][x] in WATER_DECOR:
                        votes["water"] += 1
                    elif k in GROUND_PREFERENCE:
                        votes[k] += 1
                if not votes:
                    kind[(x, y)] = "water" if rows[y][x] in WATER_DECOR else "grass"
                    continue
                if rows[y][x] in FENCE_CHARS and votes["grass"]:
                    kind[(x, y)] = "grass"  # fences stand in the meadow
                    continue
                best = max(votes.values())
                winners = [k for k in (*GROUND_PREFERENCE, "water") if votes.get(k) == best]
                kind[(x, y)] = winners[0]

    def wet(x: int, y: int) -> bool:
        if not (0 <= x < w and 0 <= y < h):
            return True  # water flowing off the map edge has no bank there
        return kind[(x, y)] in OVER_WATER

    ground: list[int] = []
    decor: list[int] = []
    for y in range(h):
        for x in range(w):
            k = kind[(x, y)]
            c = rows[y][x]
            if k == "grass":
                name = GRASS_TILES[cell_hash(x, y) % len(GRASS_TILES)]
            elif k == "water":
                n, s_, w_, e = (
                    not wet(x, y - 1),
                    not wet(x, y + 1),
                    not wet(x - 1, y),
                    not wet(x + 1, y),
                )
                sides = ("n" if n else "s" if s_ else "") + ("w" if w_ else "e" if e else "")
                name = f"water_{sides}" if sides else "water"
                if not sides:
                    for corner, (dx, dy) in (
                        ("nw", (-1, -1)),
                        ("ne", (1, -1)),
                        ("sw", (-1, 1)),
                        ("se", (1, 1)),
                    ):
                        if not wet(x + dx, y + dy):
                            name = f"water_corner_{corner}"
                            break
            elif k == "bridge":
                top, bottom = ch(x, y - 1) != "=", ch(x, y + 1) != "="
                name = "bridge" if top and bottom else "bridge_n" if top else "bridge_s"
                if not top and not bottom:
                    name = "bridge_s"
            else:
                name = k
            ground.append(gid(name))
            over = decor_tile(rows, x, y)
            decor.append(gid(over) if over else 0)
    blocked = {gid(t.name) for t in TILES if not t.walkable}
    collision = [
        gid("collision") if (g in blocked or d in blocked) else 0
        for g, d in zip(ground, decor, strict=True)
    ]
    return TileGrids(w, h, ground, decor, collision)


def decor_tile(rows: list[str], x: int, y: int) -> str | None:
    """The decor tile name for one layout cell, or None."""
    h, w = len(rows), len(rows[0])

    def ch(xx: int, yy: int) -> str:
        return rows[yy][xx] if 0 <= xx < w and 0 <= yy < h else " "

    c = rows[y][x]
    if c == ",":
        return FLOWER_TILES[cell_hash(x, y, 1) % len(FLOWER_TILES)]
    if c in DECOR_CHARS:
        return DECOR_CHARS[c]
    if c in FENCE_CHARS:
        conn = "".join(
            side
            for side, (dx, dy) in (("l", (-1, 0)), ("r", (1, 0)), ("u", (0, -1)), ("d", (0, 1)))
            if ch(x + dx, y + dy) in FENCE_CHARS
        )
        return {
            "lr": "fence_h",
            "ud": "fence_v",
            "r": "fence_end_l",
            "l": "fence_end_r",
            "rd": "fence_nw",
            "ld": "fence_ne",
            "ru": "fence_sw",
            "lu": "fence_se",
            "u": "fence_v",
            "d": "fence_v",
        }.get(conn, "fence_h")
    if c in ROOF_CHARS:
        colour, top = ROOF_CHARS[c]
        if c in "^&":
            return f"roof_{colour}_chimney"

        def same(cc: str) -> bool:
            return cc in ROOF_CHARS and ROOF_CHARS[cc] == (colour, top)

        side = "l" if not same(ch(x - 1, y)) else "r" if not same(ch(x + 1, y)) else "m"
        return f"roof_{colour}_{'top_' if top else ''}{side}"
    return None


def compose_map(grids: TileGrids, tileset: Image.Image) -> Image.Image:
    """Render the visible tile layers (ground, decor) into one image."""
    tiles = [
        tileset.crop(
            (
                (i % COLUMNS) * TILE,
                (i // COLUMNS) * TILE,
                (i % COLUMNS + 1) * TILE,
                (i // COLUMNS + 1) * TILE,
            )
        )
        for i in range(len(TILES))
    ]
    out = Image.new("RGBA", (grids.width * TILE, grids.height * TILE), CLEAR)
    for layer in (grids.ground, grids.decor):
        for i, g in enumerate(layer):
            if g:
                x, y = (i % grids.width) * TILE, (i // grids.width) * TILE
                out.alpha_composite(tiles[g - 1], (x, y))
    return out


# ---------------------------------------------------------------------------------------------
# Characters: 4 rows (down, left, right, up) x 4 walk frames of 32x32; column 0 = standing.
# ---------------------------------------------------------------------------------------------
DIRECTIONS = ("down", "left", "right", "up")


@dataclass(frozen=True)
class Villager:
    """Look of one character."""

    skin: RGBA
    skin_d: RGBA
    hair: RGBA
    hair_style: str  # short | long | crop | pigtails | tied
    shirt: RGBA
    pants: RGBA
    shoes: RGBA
    hat: str = ""  # "" | toque | rainhat | feather
    hat_colour: RGBA = WHITE
    beard: RGBA | None = None
    beard_long: bool = False
    apron: RGBA | None = None
    robe: bool = False
    belt: RGBA | None = None
    pack: RGBA | None = None
    scarf: RGBA | None = None
    staff: bool = False
    child: bool = False


VILLAGERS: dict[str, Villager] = {
    "player": Villager(
        SKIN,
        SKIN_D,
        hexc("#7a4a2a"),
        "short",
        hexc("#3f78c8"),
        hexc("#4a4458"),
        hexc("#5a3a26"),
        belt=hexc("#7a5034"),
        scarf=hexc("#d8453c"),
    ),
    "smith": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#3a2c2a"),
        "crop",
        hexc("#b4543a"),
        hexc("#4a4654"),
        hexc("#3a2a22"),
        beard=hexc("#4a3428"),
        apron=hexc("#6a4e3c"),
    ),
    "baker": Villager(
        SKIN,
        SKIN_D,
        hexc("#d8a048"),
        "tied",
        hexc("#e89aa8"),
        hexc("#8a6a52"),
        hexc("#6a4a36"),
        hat="toque",
        apron=hexc("#faf6ec"),
    ),
    "elder": Villager(
        SKIN,
        SKIN_D,
        hexc("#e6e4ee"),
        "long",
        hexc("#7256a8"),
        hexc("#5a4488"),
        hexc("#4a3a30"),
        beard=hexc("#f2f0f6"),
        beard_long=True,
        robe=True,
        belt=hexc("#e0b84a"),
        staff=True,
    ),
    "fisher": Villager(
        SKIN_DARK,
        SKIN_DARK_D,
        hexc("#2e2426"),
        "short",
        hexc("#3a9488"),
        hexc("#3c4a5c"),
        hexc("#2e4a38"),
        hat="rainhat",
        hat_colour=hexc("#ecc43c"),
        belt=hexc("#5a3a26"),
    ),
    "child": Villager(
        SKIN,
        SKIN_D,
        hexc("#e8843a"),
        "pigtails",
        hexc("#e25a5a"),
        hexc("#4a6cc0"),
        hexc("#8a4a2a"),
        child=True,
    ),
    "merchant": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#2a2430"),
        "tied",
        hexc("#3f8a4e"),
        hexc("#5a4a3a"),
        hexc("#3a2a22"),
        hat="feather",
        hat_colour=hexc("#8c3450"),
        belt=hexc("#e0b84a"),
        pack=hexc("#9a6a3e"),
    ),
}


def draw_villager(v: Villager, direction: str, frame: int) -> Canvas:
    """Draw one 32x32 frame of a villager facing a direction ('right' mirrors 'left')."""
    if direction == "right":
        return draw_villager(v, "left", frame).mirrored()
    side = direction == "left"
    body = Canvas()
    bob = -1 if frame == 2 else 0
    step = {0: 0, 1: 1, 2: 0, 3: -1}[frame]  # +1: first leg forward, -1: second leg forward
    ht = (7 if v.child else 3) + bob  # head top
    hx0, hx1, hy0, hy1 = 9, 22, ht, ht + 12
    tt = hy1 + 1  # torso top
    tb = (24 if v.child else 23) + bob  # torso bottom
    tx0, tx1 = (12, 19) if v.child else (11, 20)
    if side:
        tx0, tx1 = tx0 + 1, tx1 - 1
    lt = tb + 1  # leg top
    pants_d = shade_of(v.pants, 0.78)
    shirt_l, shirt_d = shade_of(v.shirt, 1.22), shade_of(v.shirt, 0.78)

    # Legs and shoes.
    def leg(x0: int, x1: int, lift: int, colour: RGBA, toe: int = 0) -> None:
        bottom = 29 - lift
        body.fill(box(x0, lt, x1, bottom - 2), colour)
        shoe = box(x0, bottom - 1, x1, bottom) | ({(x0 - 1, bottom)} if toe < 0 else set())
        body.fill(shoe, v.shoes)
        body.dot(x0, bottom - 1, shade_of(v.shoes, 1.4))

    if not v.robe:
        if not side:
            lx0 = 13 if v.child else 12
            leg(lx0, lx0 + 2, 2 if step < 0 else 0, v.pants)
            leg(31 - lx0 - 2, 31 - lx0, 2 if step > 0 else 0, v.pants)
        elif step == 0:
            leg(14, 17, 0, v.pants, -1)
        else:
            # Far leg darker; the silhouettes of frames 1 and 3 differ by which leg leads.
            near, far = (v.pants, pants_d) if step > 0 else (pants_d, v.pants)
            leg(17, 19, 0, far)
            leg(11, 13, 0, near, -1)
            body.fill({(14, lt), (15, lt), (16, lt)}, v.pants)
    else:
        # Shoes peek out under the robe.
        if side:
            body.fill(box(11 - step, 28, 14 - step, 29), v.shoes)
            body.fill(box(16 + step, 28, 18 + step, 29), shade_of(v.shoes, 0.8))
        else:
            body.fill(
                box(12, 28 - (1 if step < 0 else 0), 14, 29 - (1 if step < 0 else 0)), v.shoes
            )
            body.fill(
                box(17, 28 - (1 if step > 0 else 0), 19, 29 - (1 if step > 0 else 0)), v.shoes
            )

    # Backpack behind the body when seen from the side.
    if v.pack and side:
        pack = box(tx1 + 1, tt + 1, tx1 + 4, tb - 1)
        body.shaded(pack, v.pack, shade_of(v.pack, 1.25), shade_of(v.pack, 0.75), 1)

    # Torso (or robe).
    torso = box(tx0, tt, tx1, tb)
    if v.robe:
        sway = step if side else 0
        torso |= box(tx0, tb, tx1, 27) | box(tx0 - 1 + sway, 25, tx1 + 1 + sway, 27)
    body.shaded(torso, v.shirt, shirt_l, shirt_d, 1)
    if v.belt:
        body.hline(tx0, tx1, tb - 1 if not v.robe else tb - 2, v.belt)
        if not side and direction == "down":
            body.dot(15, tb - 1 if not v.robe else tb - 2, shade_of(v.belt, 1.5))
    if v.apron and direction != "up":
        if side:
            body.fill(box(tx0, tt + 2, tx0 + 1, tb + 2), v.apron)
        else:
            body.fill(box(tx0 + 1, tt + 2, tx1 - 1, tb + 2), v.apron)
            body.fill({(tx0 + 2, tt), (tx0 + 2, tt + 1), (tx1 - 2, tt), (tx1 - 2, tt + 1)}, v.apron)
            body.hline(tx0 + 2, tx1 - 2, tb + 2, shade_of(v.apron, 0.85))
    if v.pack and not side:
        if direction == "up":
            pack = box(tx0 + 1, tt, tx1 - 1, tb - 1)
            body.shaded(pack, v.pack, shade_of(v.pack, 1.25), shade_of(v.pack, 0.75), 1)
            body.hline(tx0 + 1, tx1 - 1, tt + 3, shade_of(v.pack, 0.7))
            body.fill(box(14, tt + 4, 17, tt + 5), hexc("#e0b84a"))
        else:
            body.fill(
                box(tx0 + 1, tt, tx0 + 1, tb - 2) | box(tx1 - 1, tt, tx1 - 1, tb - 2),
                shade_of(v.pack, 0.75),
            )

    # Arms.
    ay0, ay1 = tt + 1, tb - 1
    if not side:
        for ax, swing in ((tx0 - 2, step), (tx1 + 1, -step)):
            a0, a1 = (
                ay0 - (1 if swing > 0 else 0),
                ay1 - (1 if swing > 0 else 0) + (1 if swing < 0 else 0),
            )
            arm = box(ax, a0, ax + 1, a1)
            body.shaded(arm, v.shirt, shirt_l, shirt_d, 1)
            body.fill(box(ax, a1 + 1, ax + 1, a1 + 2), v.skin)
    else:
        ax = 15 - 2 * step
        arm = box(ax, ay0, ax + 2, ay1 - 1)
        body.shaded(arm, v.shirt, shirt_l, shirt_d, 1)
        body.fill(box(ax, ay1, ax + 2, ay1 + 1), v.skin)
        if step > 0:
            body.dot(ax - 1, ay1, v.skin)
    if v.scarf:
        if direction == "up":
            body.fill(box(tx0 + 1, tt, tx1 - 1, tt + 1), v.scarf)
        elif side:
            body.fill(box(tx0, tt, tx1, tt + 1), v.scarf)
            body.fill(box(tx1 - 1, tt + 2, tx1, tt + 4 + step), shade_of(v.scarf, 0.8))
        else:
            body.fill(box(tx0 + 1, tt, tx1 - 1, tt + 1), v.scarf)
            body.fill(box(tx1 - 4, tt + 2, tx1 - 3, tt + 4), shade_of(v.scarf, 0.85))

    # Head.
    head = rounded(hx0, hy0, hx1, hy1, 3)
    body.fill(head, v.skin)
    body.fill({(x, y) for x, y in head if y >= hy1 - 1 or x >= hx1 - 1}, v.skin_d)
    hair = hair_region(v, direction, hx0, hy0, hx1, hy1)
    hair_l, hair_d = shade_of(v.hair, 1.25), shade_of(v.hair, 0.75)
    body.fill(hair, v.hair)
    for x, y in hair:
        if (x, y - 1) not in hair and y <= hy0 + 1:
            body.dot(x, y, hair_l)
        elif (x + 1, y) not in hair or (x, y + 1) not in hair:
            body.dot(x, y, hair_d)
    if v.beard:
        beard = beard_region(v, direction, hx0, hy0, hx1, hy1)
        body.fill(beard, v.beard)
        body.fill({(x, y) for x, y in beard if (x, y + 1) not in beard}, shade_of(v.beard, 0.8))
    # Face.
    ey = hy0 + 7
    if direction == "down":
        for ex in (12, 19):
            body.fill({(ex, ey), (ex, ey + 1)}, EYE)
        if not v.beard:
            body.dot(11, ey + 2, BLUSH)
            body.dot(20, ey + 2, BLUSH)
            body.fill({(15, ey + 3), (16, ey + 3)}, shade_of(v.skin, 0.7))
    elif side:
        body.fill({(hx0 + 2, ey), (hx0 + 2, ey + 1)}, EYE)
        if not v.beard:
            body.dot(hx0 + 3, ey + 2, BLUSH)
    hat = hat_region(v, direction, hx0, hy0, hx1, hy1)
    if hat:
        body.shaded(hat, v.hat_colour, shade_of(v.hat_colour, 1.2), shade_of(v.hat_colour, 0.8), 1)
        hat_details(body, v, direction, hx0, hy0, hx1)

    if v.staff:
        sx = {"down": 24, "left": 7, "up": 6}[direction]
        if direction == "up":
            # Seen from behind, the staff is partly hidden by the body: draw it first.
            staff_layer = Canvas()
            staff_layer.fill(box(sx, hy0 + 5, sx + 1, 29), WOOD_D)
            staff_layer.fill(disc(sx + 1, hy0 + 4, 2, 2), WOOD)
            staff_layer.over(body)
            body = staff_layer
        else:
            body.fill(box(sx, hy0 + 5, sx + 1, 29), WOOD_D)
            body.vline(sx, hy0 + 5, 29, WOOD)
            body.fill(disc(sx + 1, hy0 + 4, 2, 2), WOOD)
            body.dot(sx, hy0 + 3, WOOD_L)
    body.outline()
    out = Canvas()
    ground_shadow(out, 16, 29.5, 7 if not v.child else 6, 2)
    out.over(body)
    return out


def hair_region(v: Villager, d: str, hx0: int, hy0: int, hx1: int, hy1: int) -> Region:
    """Pixels covered by hair for a style and facing direction."""
    mass = rounded(hx0 - 1, hy0 - 1, hx1 + 1, hy1, 4)
    style = v.hair_style
    cap_rows = 2 if style == "crop" else 3 if v.hat else 4
    side_len = {"crop": 6, "short": 8, "tied": 8, "pigtails": 8, "long": 16}[style]
    out: Region = {(x, y) for x, y in mass if y <= hy0 + cap_rows - 1}
    if d in ("down",):
        out |= {(x, y) for x, y in mass if (x <= hx0 or x >= hx1) and y <= hy0 + side_len}
        if style in ("short", "pigtails", "tied") and not v.hat:
            out |= {
                (x, hy0 + cap_rows)
                for x in (hx0 + 1, hx0 + 2, hx0 + 5, hx0 + 6, hx0 + 7, hx1 - 3, hx1 - 2, hx1 - 1)
            }
        if style == "long":
            out |= box(hx0 - 1, hy0 + 4, hx0, hy1 + 3) | box(hx1, hy0 + 4, hx1 + 1, hy1 + 3)
    elif d == "up":
        out |= {(x, y) for x, y in mass if y <= hy1 - 2}
        if style == "long":
            out |= box(hx0, hy1 - 2, hx1, hy1 + 4)
        if style == "tied":
            out |= disc(16, hy1 - 1, 2.5, 2)
    else:  # left
        out |= {(x, y) for x, y in mass if x >= hx0 + 6 and y <= hy0 + side_len + 1}
        if style in ("short", "pigtails", "tied") and not v.hat:
            out |= {(hx0 + 1, hy0 + cap_rows), (hx0 + 2, hy0 + cap_rows)}
        if style == "long":
            out |= box(hx0 + 8, hy1 - 2, hx1 + 1, hy1 + 4)
        if style == "tied":
            out |= disc(hx1 + 1.5, hy0 + 8, 2, 2.5)
    if style == "pigtails":
        tufts = {"down": [hx0 - 2.5, hx1 + 3.5], "up": [hx0 - 2.5, hx1 + 3.5], "left": [hx1 + 3.5]}[
            d
        ]
        for tx in tufts:
            out |= disc(tx, hy0 + 8, 2.5, 3.2)
    return out


def beard_region(v: Villager, d: str, hx0: int, hy0: int, hx1: int, hy1: int) -> Region:
    """Pixels covered by a beard."""
    extra = 7 if v.beard_long else 2
    if d == "down":
        face = {(x, y) for x, y in rounded(hx0, hy0, hx1, hy1, 3) if y >= hy0 + 9}
        chin = {(x, y) for x, y in disc(16, hy1, 6, extra + 1) if y > hy1}
        return (
            face | chin | {(x, hy0 + 9) for x in range(13, 19)} - {(15, hy0 + 10), (16, hy0 + 10)}
        )
    if d == "left":
        return box(hx0, hy0 + 9, hx0 + 6, hy1) | {
            (x, y) for x, y in disc(hx0 + 3, hy1, 3.5, extra + 1) if y > hy1
        }
    return set()


def hat_region(v: Villager, d: str, hx0: int, hy0: int, hx1: int, hy1: int) -> Region:
    """Pixels covered by a hat."""
    if v.hat == "toque":
        puff = (
            disc(16, hy0 - 3, 6.5, 4.5) | disc(12.5, hy0 - 1, 3.5, 3) | disc(19.5, hy0 - 1, 3.5, 3)
        )
        return puff | box(hx0 + 1, hy0, hx1 - 1, hy0 + 2)
    if v.hat == "rainhat":
        return rounded(hx0 + 1, hy0 - 3, hx1 - 1, hy0 + 3, 3) | box(
            hx0 - 3, hy0 + 3, hx1 + 3, hy0 + 5
        )
    if v.hat == "feather":
        brim = (
            box(hx0 - 2, hy0 + 2, hx1 + 2, hy0 + 3)
            if d in ("down", "up")
            else box(hx0 - 3, hy0 + 2, hx1 + 1, hy0 + 3)
        )
        return rounded(hx0 + 1, hy0 - 3, hx1 - 1, hy0 + 2, 2) | brim
    return set()


def hat_details(c: Canvas, v: Villager, d: str, hx0: int, hy0: int, hx1: int) -> None:
    """Bands and feathers drawn over a hat."""
    if v.hat == "toque":
        c.hline(hx0 + 1, hx1 - 1, hy0 + 2, hexc("#d8d2c8"))
    elif v.hat == "rainhat":
        c.hline(hx0 + 1, hx1 - 1, hy0 + 2, shade_of(v.hat_colour, 0.7))
    elif v.hat == "feather":
        c.hline(hx0 + 1, hx1 - 1, hy0 + 1, hexc("#e0b84a"))
        fx = hx1 - 2 if d != "left" else hx1 - 1
        c.fill(
            {
                (fx, hy0 - 4),
                (fx + 1, hy0 - 5),
                (fx + 1, hy0 - 6),
                (fx + 2, hy0 - 7),
                (fx, hy0 - 3),
                (fx - 1, hy0 - 2),
            },
            hexc("#f4f0e8"),
        )
        c.dot(fx + 2, hy0 - 7, hexc("#e25a5a"))


def build_sheet(v: Villager) -> Image.Image:
    """A 128x128 sheet: rows down, left, right, up; columns walk frames 0..3."""
    sheet = Image.new("RGBA", (4 * TILE, 4 * TILE), CLEAR)
    for row, d in enumerate(DIRECTIONS):
        for col in range(4):
            sheet.paste(draw_villager(v, d, col).img, (col * TILE, row * TILE))
    return sheet


# ---------------------------------------------------------------------------------------------
# Emotes: 32x32 icons in a white rounded bubble; talk_hint is a 24x24 speech bubble.
# ---------------------------------------------------------------------------------------------
def bubble(size: int = 32, cloud: bool = False) -> tuple[Canvas, Region]:
    """A white speech (or thought) bubble with a dark outline; returns canvas and inner area."""
    c = Canvas(size, size)
    s = size / 32
    if cloud:
        body: Region = set()
        for cx, cy, r in (
            (16, 13, 11),
            (8, 11, 6),
            (24, 11, 6),
            (11, 6, 5.5),
            (21, 6, 5.5),
            (10, 17, 6),
            (22, 17, 6),
        ):
            body |= disc(cx * s, cy * s, r * s, r * s * 0.95)
        body = {(x, y) for x, y in body if 1 <= x < size - 1 and 1 <= y < size - 1}
        tail = disc(6 * s, 25 * s, 2.2 * s) | disc(3.5 * s, 29 * s, 1.3 * s)
    else:
        body = rounded(1, 1, size - 2, int(24 * s), max(2, int(5 * s)))
        tail = {
            (x, y)
            for y in range(int(24 * s), int(30 * s))
            for x in range(int(7 * s), int(7 * s) + int(6 * s) - (y - int(24 * s)))
        }
    c.fill(body | tail, WHITE)
    c.fill(
        {
            (x, y)
            for x, y in body
            if y >= (22 if not cloud else 20) * s and (x, y + 1) not in body | tail
        },
        hexc("#dcd6e4"),
    )
    c.outline()
    return c, body


def e_wave() -> Canvas:
    """A waving hand with motion marks."""
    c, _ = bubble()
    hand = box(11, 9, 20, 19) | rounded(11, 15, 20, 21, 2)
    for fx, top in ((11, 5), (13, 4), (15, 4), (17, 5)):
        hand |= box(fx, top, fx + 1, 10)
    hand |= box(20, 11, 22, 14) | {(22, 10), (23, 10)}
    layer = Canvas()
    layer.shaded(hand, SKIN, hexc("#fde4c8"), SKIN_D, 1)
    for fx in (12, 14, 16):
        layer.vline(fx + 1, 7, 10, SKIN_D)
    layer.outline()
    c.over(layer)
    for pts in (((7, 8), (6, 10), (6, 12)), ((25, 16), (26, 18), (26, 20))):
        c.fill(set(pts), hexc("#5a8fd8"))
    c.fill({(8, 6), (24, 21)}, hexc("#5a8fd8"))
    return c


def e_nod() -> Canvas:
    """A green check mark."""
    c, _ = bubble()
    check: Region = set()
    for i in range(5):
        check |= box(8 + i, 12 + i, 10 + i, 14 + i)
    for i in range(9):
        check |= box(12 + i, 15 - i, 14 + i, 17 - i)
    layer = Canvas()
    layer.shaded(check, hexc("#4cae50"), hexc("#86d884"), hexc("#2f8a3a"), 1)
    layer.outline(hexc("#1f5a28"))
    c.over(layer)
    return c


def e_shake_head() -> Canvas:
    """A red cross."""
    c, _ = bubble()
    cross: Region = set()
    for i in range(11):
        cross |= box(9 + i, 6 + i, 11 + i, 8 + i) | box(20 - i, 6 + i, 22 - i, 8 + i)
    layer = Canvas()
    layer.shaded(cross, hexc("#e04848"), hexc("#ff8a80"), hexc("#a83030"), 1)
    layer.outline(hexc("#6a1e22"))
    c.over(layer)
    return c


def e_laugh() -> Canvas:
    """A laughing face with closed eyes and an open mouth."""
    c, _ = bubble()
    face = disc(16, 13, 9, 8.5)
    layer = Canvas()
    layer.shaded(face, hexc("#f8cc48"), hexc("#ffe890"), hexc("#d8a030"), 1)
    for ex in (11, 18):
        layer.fill({(ex, 11), (ex + 1, 10), (ex + 2, 10), (ex + 3, 11)}, EYE)
    mouth = {(x, y) for x, y in disc(16, 14, 5.5, 5) if y >= 14}
    layer.fill(mouth, hexc("#8a2a3a"))
    layer.fill({(x, y) for x, y in mouth if y >= 17}, hexc("#f07888"))
    layer.hline(11, 21, 14, hexc("#8a2a3a"))
    layer.fill({(9, 13), (23, 13)}, BLUSH)
    layer.outline()
    c.over(layer)
    c.fill({(5, 8), (5, 9), (26, 8), (26, 9)}, hexc("#6ab8ee"))
    return c


def e_think() -> Canvas:
    """A thought cloud with an ellipsis."""
    c, _ = bubble(cloud=True)
    for x in (9, 15, 21):
        c.fill(box(x, 12, x + 2, 14), hexc("#5a5468"))
        c.dot(x, 12, hexc("#8a84a0"))
    return c


def e_talk_hint() -> Canvas:
    """A small 24x24 speech bubble with three dots: 'you can talk to me'."""
    c, _ = bubble(24)
    for x in (6, 11, 16):
        c.fill(box(x, 8, x + 1, 9), hexc("#3f78c8"))
    return c


EMOTES: dict[str, Callable[[], Canvas]] = {
    "wave": e_wave,
    "nod": e_nod,
    "shake_head": e_shake_head,
    "laugh": e_laugh,
    "think": e_think,
    "talk_hint": e_talk_hint,
}


# ---------------------------------------------------------------------------------------------
# Map objects: NPCs, spawn, places (all in tile coordinates here, pixels in the files)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NpcDef:
    """An NPC placed on a map."""

    id: str
    name: str
    sprite: str
    home: str
    tile: Px
    persona: str
    greeting: str


@dataclass(frozen=True)
class PlaceDef:
    """A named rectangle of tiles."""

    id: str
    rect: tuple[int, int, int, int]  # x, y, width, height in tiles
    description: str


VILLAGE_NPCS: tuple[NpcDef, ...] = (
    NpcDef(
        "brenna",
        "Brenna",
        "smith",
        "forge",
        (8, 26),
        "Brenna is Hollowbrook's blacksmith: gruff, blunt and short on patience for idle "
        "chatter. She takes fierce pride in honest work and quietly worries about the old "
        "bridge. Earn her respect with straight talk and she will stand by you like one of "
        "her own blades.",
        "Hmph. If you're here to talk, make it quick - the iron won't wait.",
    ),
    NpcDef(
        "tobin",
        "Tobin",
        "baker",
        "bakery",
        (10, 15),
        "Tobin bakes the village bread before dawn and stays cheerful from the first loaf to "
        "the last crumb. He knows everyone's favourite pastry and every bit of harmless "
        "gossip, and he cannot resist offering a taste of something fresh.",
        "Good morning, good morning! Mind the crust, it's still warm - care for a bun?",
    ),
    NpcDef(
        "maren",
        "Elder Maren",
        "elder",
        "elder_house",
        (19, 10),
        "Maren is the oldest voice in Hollowbrook and its patient, wise elder. She speaks "
        "slowly, answers questions with gentle questions, and remembers every story the "
        "village has forgotten. She keeps the peace and watches over newcomers kindly.",
        "Welcome, traveller. Sit a while; the road will still be there when you are rested.",
    ),
    NpcDef(
        "wren",
        "Wren",
        "fisher",
        "dock",
        (41, 26),
        "Wren is a quiet fisher who spends her days on the dock by the pond. She uses few "
        "words, notices everything, and prefers the company of herons to crowds. Ask her "
        "about the water and she opens up a little.",
        "...Shh. They're biting today. You can stay if you're quiet.",
    ),
    NpcDef(
        "pip",
        "Pip",
        "child",
        "cottage",
        (22, 19),
        "Pip is a curious, restless child who asks a hundred questions a minute. Pip dreams "
        "of being an adventurer, collects shiny pebbles and is certain a dragon lives past "
        "the river.",
        "Whoa, who are you? Where did you come from? Have you ever seen a dragon?",
    ),
    NpcDef(
        "cassius",
        "Cassius",
        "merchant",
        "market",
        (19, 22),
        "Cassius is a travelling merchant with a silver tongue and a cart full of "
        "curiosities from distant towns. He is charming, always ready to haggle, and has a "
        "tall tale for every trinket. He likes Hollowbrook but never stays anywhere for long.",
        "Ah, a discerning customer! Step closer, friend - the finest wares this side of the "
        "mountains.",
    ),
)

VILLAGE_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef(
        "plaza",
        (14, 13, 11, 9),
        "The cobbled heart of Hollowbrook, with lamp posts at its corners and the old "
        "well in the middle.",
    ),
    PlaceDef(
        "well",
        (19, 16, 1, 1),
        "A round stone well under a little red roof; its water is cold and sweet.",
    ),
    PlaceDef(
        "elder_house",
        (16, 5, 7, 5),
        "Elder Maren's large slate-roofed house, looking down the lane to the plaza.",
    ),
    PlaceDef(
        "cottage",
        (3, 4, 5, 4),
        "A snug red-roofed cottage where Pip's family lives, beside the vegetable garden.",
    ),
    PlaceDef(
        "garden",
        (9, 3, 5, 6),
        "A fenced vegetable garden with cabbages, flowers and fat orange pumpkins.",
    ),
    PlaceDef(
        "bakery",
        (6, 11, 7, 5),
        "Tobin's bakery, with a brick oven by the wall and a stall of fresh loaves out front.",
    ),
    PlaceDef(
        "forge",
        (3, 22, 8, 6),
        "Brenna's stone forge: a roaring furnace, an anvil and a yard that smells of coal "
        "and hot iron.",
    ),
    PlaceDef(
        "market",
        (15, 22, 9, 6),
        "Market stalls selling fruit, cloth and curiosities, with crates and barrels "
        "stacked about.",
    ),
    PlaceDef(
        "orchard",
        (25, 3, 7, 9),
        "A small orchard of old apple trees between the elder's house and the river.",
    ),
    PlaceDef(
        "bridge",
        (33, 17, 3, 2),
        "A sturdy wooden bridge over the river, linking the village to the east bank.",
    ),
    PlaceDef("fisher_hut", (38, 9, 7, 4), "Wren's little cottage on the east bank of the river."),
    PlaceDef(
        "dock",
        (40, 22, 3, 6),
        "A wooden jetty reaching into the pond, where Wren fishes beside her rowboat.",
    ),
    PlaceDef(
        "pond", (28, 22, 18, 11), "A wide, quiet pond fed by the river and dotted with lily pads."
    ),
    PlaceDef("beach", (25, 23, 6, 10), "A little sandy beach on the west shore of the pond."),
)
VILLAGE_SPAWN: Px = (17, 19)

TINY_NPCS: tuple[NpcDef, ...] = (
    NpcDef(
        "tobin",
        "Tobin",
        "baker",
        "yard",
        (5, 5),
        "Tobin is a cheerful baker who loves to chat. He always has bread to share.",
        "Hello there! Fancy a warm roll?",
    ),
)
TINY_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef("house", (2, 2, 3, 1), "A short stretch of house wall with a window."),
    PlaceDef("pond", (7, 2, 2, 2), "A tiny pond."),
    PlaceDef("yard", (1, 4, 8, 3), "An open yard with a short dirt path."),
)
TINY_SPAWN: Px = (2, 5)


# ---------------------------------------------------------------------------------------------
# Tiled writers (TMX/TSX XML and TMJ/TSJ JSON, Tiled 1.10 flavour)
# ---------------------------------------------------------------------------------------------
Prop = tuple[str, str, str | bool]  # name, Tiled type ("string" | "bool"), value


@dataclass
class MapObject:
    """A Tiled object: a point (NPCs, spawn) or a rectangle (places)."""

    id: int
    name: str
    type: str
    x: int
    y: int
    width: int = 0
    height: int = 0
    point: bool = False
    props: list[Prop] = field(default_factory=list)


@dataclass
class Layer:
    """A tile layer (data) or an object group (objects)."""

    id: int
    name: str
    data: list[int] | None = None
    objects: list[MapObject] | None = None
    visible: bool = True


@dataclass
class MapSpec:
    """Everything written to a map file."""

    width: int
    height: int
    props: list[Prop]
    layers: list[Layer]

    @property
    def next_object_id(self) -> int:
        """One more than the largest object id."""
        ids = [o.id for layer in self.layers for o in layer.objects or []]
        return max(ids, default=0) + 1


def make_map(
    layout: str,
    name: str,
    description: str,
    npcs: tuple[NpcDef, ...],
    places: tuple[PlaceDef, ...],
    spawn: Px | None,
    with_npcs: bool = True,
) -> MapSpec:
    """Assemble a map: ground, decor, collision, places, npcs, spawns."""
    grids = build_grids(layout)
    layers = [
        Layer(1, "ground", data=grids.ground),
        Layer(2, "decor", data=grids.decor),
        Layer(3, "collision", data=grids.collision, visible=False),
    ]
    next_id = 1
    place_objs = []
    for p in places:
        x, y, w, h = p.rect
        place_objs.append(
            MapObject(
                next_id,
                p.id,
                "place",
                x * TILE,
                y * TILE,
                w * TILE,
                h * TILE,
                props=[("description", "string", p.description)],
            )
        )
        next_id += 1
    layers.append(Layer(4, "places", objects=place_objs))
    if with_npcs:
        npc_objs = []
        for n in npcs:
            tx, ty = n.tile
            props: list[Prop] = [
                ("greeting", "string", n.greeting),
                ("home", "string", n.home),
                ("id", "string", n.id),
                ("name", "string", n.name),
                ("persona", "string", n.persona),
                ("sprite", "string", n.sprite),
            ]
            npc_objs.append(
                MapObject(
                    next_id,
                    n.id,
                    "npc",
                    tx * TILE + TILE // 2,
                    ty * TILE + TILE // 2,
                    point=True,
                    props=props,
                )
            )
            next_id += 1
        layers.append(Layer(5, "npcs", objects=npc_objs))
    spawn_objs = []
    if spawn is not None:
        sx, sy = spawn
        spawn_objs.append(
            MapObject(
                next_id,
                "player_spawn",
                "spawn",
                sx * TILE + TILE // 2,
                sy * TILE + TILE // 2,
                point=True,
            )
        )
    layers.append(Layer(6, "spawns", objects=spawn_objs))
    map_props: list[Prop] = [("description", "string", description), ("name", "string", name)]
    return MapSpec(grids.width, grids.height, map_props, layers)


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _xml_props(props: list[Prop], indent: str) -> list[str]:
    if not props:
        return []
    out = [f"{indent}<properties>"]
    for name, typ, value in sorted(props):
        if typ == "bool":
            out.append(
                f'{indent} <property name="{name}" type="bool" '
                f'value="{"true" if value else "false"}"/>'
            )
        else:
            out.append(f'{indent} <property name="{name}" value="{_attr(str(value))}"/>')
    out.append(f"{indent}</properties>")
    return out


def _json_props(props: list[Prop]) -> list[dict[str, Any]]:
    return [{"name": n, "type": t, "value": v} for n, t, v in sorted(props)]


def write_tmx(spec: MapSpec, tileset_source: str) -> str:
    """Serialise a map as Tiled XML (CSV-encoded tile layers)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="{FORMAT_VERSION}" tiledversion="{TILED_VERSION}" '
        f'orientation="orthogonal" renderorder="right-down" width="{spec.width}" '
        f'height="{spec.height}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" '
        f'nextlayerid="{max(la.id for la in spec.layers) + 1}" '
        f'nextobjectid="{spec.next_object_id}">',
        *_xml_props(spec.props, " "),
        f' <tileset firstgid="1" source="{_attr(tileset_source)}"/>',
    ]
    for layer in spec.layers:
        if layer.data is not None:
            vis = "" if layer.visible else ' visible="0"'
            lines.append(
                f' <layer id="{layer.id}" name="{layer.name}" width="{spec.width}" '
                f'height="{spec.height}"{vis}>'
            )
            lines.append('  <data encoding="csv">')
            rows = [
                ",".join(str(g) for g in layer.data[y * spec.width : (y + 1) * spec.width])
                for y in range(spec.height)
            ]
            lines.append(",\n".join(rows))
            lines.append("</data>")
            lines.append(" </layer>")
        else:
            lines.append(f' <objectgroup id="{layer.id}" name="{layer.name}">')
            for o in layer.objects or []:
                size = f' width="{o.width}" height="{o.height}"' if not o.point else ""
                head = (
                    f'  <object id="{o.id}" name="{_attr(o.name)}" type="{o.type}" '
                    f'x="{o.x}" y="{o.y}"{size}'
                )
                body = _xml_props(o.props, "   ") + (["   <point/>"] if o.point else [])
                if body:
                    lines.append(head + ">")
                    lines.extend(body)
                    lines.append("  </object>")
                else:
                    lines.append(head + "/>")
            lines.append(" </objectgroup>")
    lines.append("</map>")
    return "\n".join(lines) + "\n"


def write_tmj(spec: MapSpec, tileset_source: str) -> str:
    """Serialise a map as Tiled JSON, with tile data laid out one map row per line."""
    layers: list[dict[str, Any]] = []
    rows_by_marker: dict[str, str] = {}
    for layer in spec.layers:
        if layer.data is not None:
            marker = f"@@DATA{layer.id}@@"
            rows_by_marker[f'"{marker}"'] = (
                "["
                + ",\n    ".join(
                    ",".join(str(g) for g in layer.data[y * spec.width : (y + 1) * spec.width])
                    for y in range(spec.height)
                )
                + "]"
            )
            layers.append(
                {
                    "data": marker,
                    "height": spec.height,
                    "id": layer.id,
                    "name": layer.name,
                    "opacity": 1,
                    "type": "tilelayer",
                    "visible": layer.visible,
                    "width": spec.width,
                    "x": 0,
                    "y": 0,
                }
            )
        else:
            objects = []
            for o in layer.objects or []:
                obj: dict[str, Any] = {
                    "height": o.height,
                    "id": o.id,
                    "name": o.name,
                }
                if o.point:
                    obj["point"] = True
                if o.props:
                    obj["properties"] = _json_props(o.props)
                obj.update(
                    {
                        "rotation": 0,
                        "type": o.type,
                        "visible": True,
                        "width": o.width,
                        "x": o.x,
                        "y": o.y,
                    }
                )
                objects.append(obj)
            layers.append(
                {
                    "draworder": "topdown",
                    "id": layer.id,
                    "name": layer.name,
                    "objects": objects,
                    "opacity": 1,
                    "type": "objectgroup",
                    "visible": layer.visible,
                    "x": 0,
                    "y": 0,
                }
            )
    doc = {
        "compressionlevel": -1,
        "height": spec.height,
        "infinite": False,
        "layers": layers,
        "nextlayerid": max(la.id for la in spec.layers) + 1,
        "nextobjectid": spec.next_object_id,
        "orientation": "orthogonal",
        "properties": _json_props(spec.props),
        "renderorder": "right-down",
        "tiledversion": TILED_VERSION,
        "tileheight": TILE,
        "tilesets": [{"firstgid": 1, "source": tileset_source}],
        "tilewidth": TILE,
        "type": "map",
        "version": FORMAT_VERSION,
        "width": spec.width,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    for marker, rows in rows_by_marker.items():
        text = text.replace(marker, rows)
    return text + "\n"


def tile_props(t: TileDef) -> list[Prop]:
    """Per-tile custom properties written to the tileset."""
    return [("name", "string", t.name), ("walkable", "bool", t.walkable)]


def write_tsx(image_name: str, image_size: tuple[int, int]) -> str:
    """Serialise the tileset as Tiled XML."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="{FORMAT_VERSION}" tiledversion="{TILED_VERSION}" '
        f'name="{TILESET_NAME}" tilewidth="{TILE}" tileheight="{TILE}" '
        f'tilecount="{len(TILES)}" columns="{COLUMNS}">',
        f' <image source="{image_name}" width="{image_size[0]}" height="{image_size[1]}"/>',
    ]
    for i, t in enumerate(TILES):
        lines.append(f' <tile id="{i}">')
        lines.extend(_xml_props(tile_props(t), "  "))
        lines.append(" </tile>")
    lines.append("</tileset>")
    return "\n".join(lines) + "\n"


def write_tsj(image_name: str, image_size: tuple[int, int]) -> str:
    """Serialise the tileset as Tiled JSON."""
    doc = {
        "columns": COLUMNS,
        "image": image_name,
        "imageheight": image_size[1],
        "imagewidth": image_size[0],
        "margin": 0,
        "name": TILESET_NAME,
        "spacing": 0,
        "tilecount": len(TILES),
        "tiledversion": TILED_VERSION,
        "tileheight": TILE,
        "tiles": [{"id": i, "properties": _json_props(tile_props(t))} for i, t in enumerate(TILES)],
        "tilewidth": TILE,
        "type": "tileset",
        "version": FORMAT_VERSION,
    }
    return json.dumps(doc, indent=1) + "\n"


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------
LICENSE_TEXT = """# Art licence

All art in `assets/` (the tileset `tiles/village_tiles.png`, the character sheets in
`characters/`, the emote icons in `emotes/`) and the maps in `maps/` are original works drawn
for this project. Nothing was copied or derived from third-party art: every pixel is produced
procedurally by `tools/make_assets.py` with Pillow, and running that script regenerates the
files exactly.

The art and maps are dedicated to the public domain under
[CC0 1.0 Universal](https://creativecommons.org/publicdomain/zero/1.0/): you may copy, modify
and use them for any purpose without asking permission or giving credit.
"""

VILLAGE_DESCRIPTION = (
    "Hollowbrook is a cosy riverside village with a cobbled plaza around an old well, a forge, "
    "a bakery, a market and a quiet fishing pond."
)


def save_png(img: Image.Image, path: Path) -> None:
    """Write a PNG without metadata (byte-stable for a given Pillow version)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, format="PNG", optimize=False, compress_level=9)


def write_text(path: Path, text: str) -> None:
    """Write UTF-8 text with Unix newlines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def generate(root: Path) -> list[Path]:
    """Write every asset and map under root; return the written paths."""
    written: list[Path] = []

    def png(img: Image.Image, rel: str) -> None:
        save_png(img, root / rel)
        written.append(root / rel)

    def txt(text: str, rel: str) -> None:
        write_text(root / rel, text)
        written.append(root / rel)

    tileset = build_tileset()
    png(tileset, "assets/tiles/village_tiles.png")
    txt(write_tsx("village_tiles.png", tileset.size), "assets/tiles/village_tiles.tsx")
    txt(write_tsj("village_tiles.png", tileset.size), "assets/tiles/village_tiles.tsj")
    for name, v in VILLAGERS.items():
        png(build_sheet(v), f"assets/characters/{name}.png")
    for name, draw in EMOTES.items():
        png(draw().img, f"assets/emotes/{name}.png")
    txt(LICENSE_TEXT, "assets/LICENSE-ART.md")

    village = make_map(
        VILLAGE_LAYOUT,
        "Hollowbrook",
        VILLAGE_DESCRIPTION,
        VILLAGE_NPCS,
        VILLAGE_PLACES,
        VILLAGE_SPAWN,
    )
    txt(write_tmx(village, "../assets/tiles/village_tiles.tsx"), "maps/village.tmx")
    txt(write_tmj(village, "../assets/tiles/village_tiles.tsj"), "maps/village.tmj")
    tiny_desc = "A tiny test map: one villager, a bit of house wall and a small pond."
    tiny = make_map(TINY_LAYOUT, "Tinybrook", tiny_desc, TINY_NPCS, TINY_PLACES, TINY_SPAWN)
    txt(write_tmx(tiny, "../assets/tiles/village_tiles.tsx"), "maps/tiny.tmx")
    txt(write_tmj(tiny, "../assets/tiles/village_tiles.tsj"), "maps/tiny.tmj")
    no_spawn = make_map(
        TINY_LAYOUT,
        "No Spawn",
        "A valid map that lacks a player_spawn.",
        TINY_NPCS,
        TINY_PLACES,
        None,
    )
    txt(write_tmx(no_spawn, "../../assets/tiles/village_tiles.tsx"), "maps/broken/no_spawn.tmx")
    no_npcs = make_map(
        TINY_LAYOUT,
        "No NPCs",
        "A valid map with a spawn but no npcs layer.",
        TINY_NPCS,
        TINY_PLACES,
        TINY_SPAWN,
        with_npcs=False,
    )
    txt(write_tmx(no_npcs, "../../assets/tiles/village_tiles.tsx"), "maps/broken/no_npcs.tmx")
    return written


def write_previews(out_dir: Path) -> list[Path]:
    """Render preview PNGs (map with NPCs, sprite sheets, emotes) for eyeballing."""
    tileset = build_tileset()
    grids = build_grids(VILLAGE_LAYOUT)
    world = compose_map(grids, tileset)
    for n in VILLAGE_NPCS:
        frame = build_sheet(VILLAGERS[n.sprite]).crop((0, 0, TILE, TILE))
        world.alpha_composite(frame, (n.tile[0] * TILE, n.tile[1] * TILE))
    player = build_sheet(VILLAGERS["player"]).crop((0, 0, TILE, TILE))
    world.alpha_composite(player, (VILLAGE_SPAWN[0] * TILE, VILLAGE_SPAWN[1] * TILE))
    hint = e_talk_hint().img
    for n in VILLAGE_NPCS:
        world.alpha_composite(hint, (n.tile[0] * TILE + 4, n.tile[1] * TILE - 22))
    paths = [out_dir / "preview_map.png"]
    world.save(paths[0])
    sheets = Image.new("RGBA", (len(VILLAGERS) * 136, 136), (114, 181, 82, 255))
    for i, v in enumerate(VILLAGERS.values()):
        sheets.alpha_composite(build_sheet(v), (i * 136 + 4, 4))
    paths.append(out_dir / "preview_sheets.png")
    sheets.resize((sheets.width * 2, sheets.height * 2), Image.Resampling.NEAREST).save(paths[-1])
    emotes = Image.new("RGBA", (len(EMOTES) * 36, 36), (114, 181, 82, 255))
    for i, draw in enumerate(EMOTES.values()):
        emotes.alpha_composite(draw().img, (i * 36 + 2, 2))
    paths.append(out_dir / "preview_emotes.png")
    emotes.resize((emotes.width * 4, emotes.height * 4), Image.Resampling.NEAREST).save(paths[-1])
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="root directory that receives assets/ and maps/ (default: repo)",
    )
    parser.add_argument(
        "--preview",
        type=Path,
        nargs="?",
        const=Path("/tmp"),
        default=None,
        help="also write preview PNGs into this directory (default /tmp)",
    )
    args = parser.parse_args(argv)
    written = generate(args.out)
    print(f"wrote {len(written)} files under {args.out}")
    if args.preview is not None:
        for p in write_previews(args.preview):
            print(f"preview: {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
