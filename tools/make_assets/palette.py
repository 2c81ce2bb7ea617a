"""Sizes, pixel types and the colour palette: soft, warm, cosy."""

from __future__ import annotations

TILE = 32
COLUMNS = 8

RGBA = tuple[int, int, int, int]
Px = tuple[int, int]
Region = set[Px]


def hexc(code: str, alpha: int = 255) -> RGBA:
    """Parse '#rrggbb' into an RGBA tuple."""
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16), alpha)


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
