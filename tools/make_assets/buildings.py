"""Buildings: walls and roofs, opaque, tiling seamlessly side by side."""

from __future__ import annotations

import random

from .canvas import Canvas, box, bricks, disc, sprinkle
from .palette import (
    IRON,
    IRON_D,
    LEAF,
    MORTAR,
    OUTLINE,
    PLASTER,
    PLASTER_D,
    RGBA,
    STONE,
    STONE_D,
    STONE_L,
    TIMBER,
    TIMBER_D,
    WOOD_L,
    hexc,
    shade_of,
)


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
