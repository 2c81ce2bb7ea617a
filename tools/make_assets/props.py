"""Props: the blocking objects of the decor layer (well, forge, stalls, crates, ...)."""

from __future__ import annotations

import random

from .canvas import Canvas, box, bricks, disc, ground_shadow, rounded, sprinkle, with_object
from .palette import (
    BARK,
    BARK_D,
    DIRT_D,
    EYE,
    FIRE_O,
    FIRE_R,
    FIRE_Y,
    FOAM,
    GRASS_DD,
    GRASS_L,
    IRON,
    IRON_D,
    IRON_L,
    LEAF,
    LEAF_D,
    LEAF_L,
    RGBA,
    ROOF_RED,
    STONE,
    STONE_D,
    STONE_L,
    TIMBER,
    TIMBER_D,
    WATER,
    WATER_L,
    WHITE,
    WOOD,
    WOOD_D,
    WOOD_DD,
    WOOD_L,
    Region,
    hexc,
    shade_of,
)


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


def t_notice_board() -> Canvas:
    """The village notice board: a framed plank board on two posts, under a little roof,
    with paper notes pinned to it."""

    def draw(c: Canvas) -> None:
        for x in (6, 24):  # the two posts
            c.shaded(box(x, 6, x + 1, 28), TIMBER, WOOD, TIMBER_D, 1)
        roof = box(3, 3, 28, 5)
        c.shaded(roof, WOOD_D, WOOD, WOOD_DD, 1)
        c.hline(4, 27, 2, WOOD_L)
        board = box(4, 7, 27, 21)
        c.shaded(board, WOOD, WOOD_L, WOOD_D, 1)
        for y in (11, 16):  # the planks
            c.hline(5, 26, y, WOOD_D)
        notes = (
            (box(6, 9, 11, 15), WHITE, FIRE_R),
            (box(13, 8, 18, 13), hexc("#f4e3a8"), hexc("#3f6fc0")),
            (box(20, 9, 25, 16), hexc("#f6f0e4"), FIRE_R),
            (box(12, 15, 17, 20), hexc("#dfeaf4"), hexc("#6fb04a")),
        )
        for region, paper, pin in notes:
            c.fill(region, paper)
            x0 = min(x for x, _ in region)
            x1 = max(x for x, _ in region)
            y0 = min(y for _, y in region)
            y1 = max(y for _, y in region)
            for y in range(y0 + 2, y1, 2):  # lines of writing
                c.hline(x0 + 1, x1 - 1 - (y % 3), y, STONE_D)
            c.dot((x0 + x1) // 2, y0, pin)
        c.hline(6, 25, 22, WOOD_DD)  # the board's bottom rail
        c.hline(6, 25, 23, TIMBER)

    return with_object(draw, (16, 28.5, 12, 2))


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
