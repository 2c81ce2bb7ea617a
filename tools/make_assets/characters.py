"""Character sheets: 4 rows (down, left, right, up) x 4 walk frames of 32x32."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from .canvas import Canvas, box, disc, ground_shadow, rounded
from .palette import (
    BLUSH,
    CLEAR,
    EYE,
    RGBA,
    SKIN,
    SKIN_D,
    SKIN_DARK,
    SKIN_DARK_D,
    SKIN_TAN,
    SKIN_TAN_D,
    TILE,
    WHITE,
    WOOD,
    WOOD_D,
    WOOD_L,
    Region,
    hexc,
    shade_of,
)

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
    hat: str = ""  # "" | toque | rainhat | feather | cap
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
    # Larkmoor's people.
    "potter": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#a8482a"),
        "tied",
        hexc("#d08a3a"),
        hexc("#6a5444"),
        hexc("#4a3426"),
        apron=hexc("#b8a48c"),
        scarf=hexc("#4a8ac8"),
    ),
    "beekeeper": Villager(
        SKIN,
        SKIN_D,
        hexc("#c8a070"),
        "short",
        hexc("#f0ead0"),
        hexc("#9a8a5a"),
        hexc("#5a4a30"),
        hat="rainhat",
        hat_colour=hexc("#f4f0e0"),
        belt=hexc("#e0a82a"),
    ),
    "teacher": Villager(
        SKIN,
        SKIN_D,
        hexc("#8c8a94"),
        "tied",
        hexc("#2e3c68"),
        hexc("#26304e"),
        hexc("#2a2228"),
        robe=True,
        scarf=hexc("#f2f0f6"),
    ),
    "watchman": Villager(
        SKIN_DARK,
        SKIN_DARK_D,
        hexc("#3a3436"),
        "crop",
        hexc("#4a5a4e"),
        hexc("#2e3434"),
        hexc("#221c1a"),
        hat="cap",
        hat_colour=hexc("#2c2c38"),
        beard=hexc("#a8a4a8"),
        staff=True,
    ),
    "peatcutter": Villager(
        SKIN,
        SKIN_D,
        hexc("#1e1a1c"),
        "crop",
        hexc("#6a7a3a"),
        hexc("#5a4030"),
        hexc("#3a2a1e"),
        belt=hexc("#3a2a1e"),
        pack=hexc("#7a5a34"),
    ),
    "glassblower": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#5a3420"),
        "short",
        hexc("#2a7a8a"),
        hexc("#3a3a4a"),
        hexc("#2a2020"),
        apron=hexc("#7a4e30"),
        scarf=hexc("#e8a23a"),
    ),
    # Stonereach's people.
    "miner": Villager(
        SKIN,
        SKIN_D,
        hexc("#4a3a2a"),
        "crop",
        hexc("#7a6a58"),
        hexc("#3a3a44"),
        hexc("#2a2220"),
        hat="cap",
        hat_colour=hexc("#d8b040"),
        beard=hexc("#5a4634"),
        belt=hexc("#2a2220"),
    ),
    "innkeeper": Villager(
        SKIN,
        SKIN_D,
        hexc("#b86a3a"),
        "tied",
        hexc("#a83a3a"),
        hexc("#4a3a34"),
        hexc("#3a2a22"),
        apron=hexc("#f0e6d0"),
    ),
    "goatherd": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#e0c070"),
        "long",
        hexc("#5aa04a"),
        hexc("#7a5a3a"),
        hexc("#4a3420"),
        scarf=hexc("#e8d04a"),
        staff=True,
    ),
    "herbalist": Villager(
        SKIN_DARK,
        SKIN_DARK_D,
        hexc("#d8d4dc"),
        "long",
        hexc("#3e6a4a"),
        hexc("#2e4a36"),
        hexc("#3a2a22"),
        robe=True,
        belt=hexc("#a8783a"),
    ),
    "weaver": Villager(
        SKIN,
        SKIN_D,
        hexc("#2a2226"),
        "tied",
        hexc("#8a4aa0"),
        hexc("#4a3a5a"),
        hexc("#2a2228"),
        scarf=hexc("#e86a8a"),
        belt=hexc("#e0b84a"),
    ),
    "tinker": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#6a4a2a"),
        "short",
        hexc("#c87a3a"),
        hexc("#4a5a6a"),
        hexc("#3a2a22"),
        hat="cap",
        hat_colour=hexc("#6a5a4a"),
        pack=hexc("#8a8a9a"),
        belt=hexc("#3a2a22"),
    ),
    # Thornwick's people.
    "chandler": Villager(
        SKIN,
        SKIN_D,
        hexc("#e8c890"),
        "long",
        hexc("#f0d8a0"),
        hexc("#8a3a5a"),
        hexc("#5a2a3a"),
        apron=hexc("#fff4d8"),
        scarf=hexc("#c83a6a"),
    ),
    "charburner": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#1a1a1a"),
        "crop",
        hexc("#3a3a3a"),
        hexc("#2a2a2a"),
        hexc("#1a1414"),
        beard=hexc("#2a2420"),
        beard_long=True,
        belt=hexc("#6a4a2a"),
    ),
    "cooper_boy": Villager(
        SKIN,
        SKIN_D,
        hexc("#c8602a"),
        "short",
        hexc("#4a8ac8"),
        hexc("#6a5a3a"),
        hexc("#3a2a1a"),
        hat="cap",
        hat_colour=hexc("#3a6a3a"),
        apron=hexc("#a07a4a"),
        child=True,
    ),
    "dairywoman": Villager(
        SKIN,
        SKIN_D,
        hexc("#f0f0f0"),
        "tied",
        hexc("#6a9ad8"),
        hexc("#3a4a6a"),
        hexc("#3a2a22"),
        hat="toque",
        hat_colour=hexc("#fafafa"),
        apron=hexc("#ffffff"),
        staff=True,
    ),
    "tollkeeper": Villager(
        SKIN_DARK,
        SKIN_DARK_D,
        hexc("#1a1210"),
        "short",
        hexc("#2a3a6a"),
        hexc("#1a1a2a"),
        hexc("#101010"),
        hat="feather",
        hat_colour=hexc("#1a1a2a"),
        belt=hexc("#c8a040"),
        scarf=hexc("#f0f0f0"),
    ),
    "falconer": Villager(
        SKIN_TAN,
        SKIN_TAN_D,
        hexc("#8a5a2a"),
        "pigtails",
        hexc("#6a4a2a"),
        hexc("#3a4a2a"),
        hexc("#2a2218"),
        hat="rainhat",
        hat_colour=hexc("#4a5a3a"),
        belt=hexc("#2a1a10"),
        pack=hexc("#a07040"),
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
    if v.hat == "cap":
        crown = rounded(hx0, hy0 - 2, hx1, hy0 + 2, 3)
        if d == "down":
            return crown | box(hx0 + 2, hy0 + 3, hx1 - 2, hy0 + 3)
        if d == "left":
            return crown | box(hx0 - 3, hy0 + 2, hx0 + 1, hy0 + 3)
        return crown
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
    elif v.hat == "cap":
        c.hline(hx0 + 1, hx1 - 1, hy0 + 1, shade_of(v.hat_colour, 0.75))
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
