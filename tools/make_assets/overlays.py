"""Overlay decorations: flowers, trees, bushes, rocks, fences (drawn on the decor layer)."""

from __future__ import annotations

import random

from .canvas import Canvas, box, disc, sprinkle, with_object
from .palette import (
    BARK,
    BARK_D,
    LEAF,
    LEAF_D,
    LEAF_H,
    LEAF_L,
    PINE,
    PINE_D,
    PINE_L,
    RGBA,
    SHADOW,
    STONE,
    STONE_D,
    STONE_L,
    WHITE,
    WOOD,
    WOOD_D,
    WOOD_L,
    Region,
    hexc,
    shade_of,
)

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
