"""The tileset registry: its order defines tile ids (gid = id + 1 with firstgid 1); new
tiles are appended, so existing ids never move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PIL import Image

from .buildings import t_chimney, t_collision, t_roof, t_wall, t_wall_stone
from .canvas import Canvas
from .ground import (
    t_bridge,
    t_cobble,
    t_dock,
    t_grass,
    t_lily,
    t_path,
    t_sand,
    t_water,
    t_water_corner,
    t_wood_floor,
)
from .overlays import t_bush, t_fence, t_flowers, t_mushrooms, t_pine, t_rock, t_stump, t_tree
from .palette import CLEAR, COLUMNS, FIRE_Y, ROOF_RED, ROOF_SLATE, TILE, WHITE, hexc
from .props import (
    t_anvil,
    t_barrel,
    t_bench,
    t_boat,
    t_bread_stall,
    t_bucket,
    t_cabbages,
    t_cart,
    t_cloth_stall,
    t_crate,
    t_fish_basket,
    t_flower_pot,
    t_forge,
    t_hay,
    t_lamp,
    t_log_pile,
    t_market_stall,
    t_notice_board,
    t_oven,
    t_pumpkins,
    t_reeds,
    t_sacks,
    t_sign,
    t_table,
    t_tall_grass,
    t_well,
)

# Extra custom properties of some tiles, written into the tileset: a lamp post lights the
# night (`game.world.tiled_day` reads `lamp` and `radius`, in tiles).
LAMP_PROPS: tuple[tuple[str, bool | float], ...] = (("lamp", True), ("radius", 4.0))


@dataclass(frozen=True)
class TileDef:
    """One tile of the tileset."""

    name: str
    walkable: bool
    draw: Callable[[], Canvas]
    props: tuple[tuple[str, bool | float], ...] = ()


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
        TileDef("lamp", block, t_lamp, LAMP_PROPS),
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
    # New tiles go last, so the ids of the tiles before them (and every map drawn with
    # them) stay as they were.
    t.append(TileDef("notice_board", block, t_notice_board))
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
