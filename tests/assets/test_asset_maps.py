"""Checks on the Tiled maps and tileset: structure, twins, walkability, reachability."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import deque
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import pytiled_parser
from PIL import Image
from pytiled_parser.tiled_object import Point, Rectangle

from game.assets import load_game_map
from game.world.plans import Plan, parse_plan

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
TILES_DIR = ROOT / "assets" / "tiles"
CHARACTERS = ROOT / "assets" / "characters"
TILE = 32

LAYER_ORDER = ["ground", "decor", "collision", "places", "npcs", "spawns"]
# The playable villages: their stem, name, size in tiles, the square where the village meets
# (lamps at its corners, the notice board at its edge, the player's spawn) and places they
# must have.
VILLAGES: dict[str, tuple[str, tuple[int, int], str, set[str]]] = {
    "village": (
        "Hollowbrook",
        (48, 36),
        "plaza",
        {"forge", "bakery", "well", "plaza", "market", "dock", "elder_house", "bridge"},
    ),
    "larkmoor": (
        "Larkmoor",
        (46, 34),
        "green",
        {
            "green",
            "schoolhouse",
            "pottery",
            "apiary",
            "glassworks",
            "peat_cuttings",
            "causeway",
            "watch_house",
            "marsh",
        },
    ),
    "stonereach": (
        "Stonereach",
        (44, 36),
        "square",
        {"square", "mine", "quarry", "pasture", "inn", "herb_garden", "weaver_cottage"},
    ),
    "thornwick": (
        "Thornwick",
        (44, 36),
        "cross",
        {"cross", "clearing", "cooperage", "dairy", "chandlery", "mews", "toll_gate", "mere"},
    ),
}
BOTH = [f"{stem}.{ext}" for stem in VILLAGES for ext in ("tmx", "tmj")]
TMX = [f"{stem}.tmx" for stem in VILLAGES]
VILLAGE_LAYER_ORDER = ["ground", "decor", "collision", "places", "boards", "npcs", "spawns"]
NPC_PROPS = {"id", "name", "persona", "greeting", "sprite", "home", "work", "plan"}
ID_RE = re.compile(r"^[a-z0-9_-]+$")
REQUIRED_TILES = {
    "grass",
    "grass_2",
    "grass_3",
    "flowers_red",
    "path",
    "cobble",
    "water",
    "water_n",
    "sand",
    "wood_floor",
    "bridge",
    "dock",
    "wall",
    "wall_window",
    "wall_door",
    "roof_red_l",
    "roof_red_m",
    "roof_red_r",
    "fence_h",
    "fence_v",
    "tree",
    "bush",
    "rock",
    "well",
    "anvil",
    "forge",
    "oven",
    "bread_stall",
    "market_stall",
    "crate",
    "barrel",
    "sign",
    "lamp",
    "notice_board",
    "collision",
}
MUST_BLOCK = {
    "water",
    "wall",
    "wall_window",
    "wall_door",
    "roof_red_m",
    "fence_h",
    "fence_v",
    "tree",
    "bush",
    "rock",
    "well",
    "anvil",
    "forge",
    "oven",
    "bread_stall",
    "market_stall",
    "crate",
    "barrel",
    "sign",
    "lamp",
    "notice_board",
    "collision",
}
MUST_WALK = {
    "grass",
    "grass_2",
    "grass_3",
    "path",
    "cobble",
    "sand",
    "wood_floor",
    "bridge",
    "bridge_n",
    "bridge_s",
    "dock",
    "flowers_red",
    "flowers_yellow",
    "flowers_blue",
}


@cache
def load(rel: str) -> pytiled_parser.TiledMap:
    """Parse a map once per test session."""
    return pytiled_parser.parse_map(MAPS / rel)


def layer(m: pytiled_parser.TiledMap, name: str) -> Any:
    """The layer with a given name (fails the test if missing)."""
    for la in m.layers:
        if la.name == name:
            return la
    raise AssertionError(f"no layer {name!r}")


def grid(m: pytiled_parser.TiledMap, name: str) -> list[list[int]]:
    """A tile layer's gids as rows."""
    data = layer(m, name).data
    assert data is not None
    return [list(row) for row in data]


def tile_props(m: pytiled_parser.TiledMap) -> dict[int, dict[str, Any]]:
    """Properties of every tile by gid."""
    ((firstgid, ts),) = m.tilesets.items()
    assert ts.tiles is not None
    return {firstgid + tid: dict(t.properties or {}) for tid, t in ts.tiles.items()}


def gids_by_name(m: pytiled_parser.TiledMap) -> dict[str, int]:
    """Tile gid by its `name` property."""
    return {str(p["name"]): g for g, p in tile_props(m).items()}


def blocked_cells(m: pytiled_parser.TiledMap) -> set[tuple[int, int]]:
    """Cells whose collision tile is non-zero."""
    return {(x, y) for y, row in enumerate(grid(m, "collision")) for x, g in enumerate(row) if g}


def objects(m: pytiled_parser.TiledMap, name: str) -> list[Any]:
    """Objects of an object layer."""
    return list(layer(m, name).tiled_objects)


def str_props(obj: Any) -> dict[str, str]:
    """An object's custom properties, all of which must be strings."""
    props = dict(obj.properties or {})
    assert all(isinstance(v, str) for v in props.values()), props
    return {k: str(v) for k, v in props.items()}


def map_wh(m: pytiled_parser.TiledMap) -> tuple[int, int]:
    """Map width and height in tiles."""
    return int(m.map_size.width), int(m.map_size.height)


def tile_of(obj: Any) -> tuple[int, int]:
    """Tile coordinates of a point object."""
    return int(obj.coordinates.x // TILE), int(obj.coordinates.y // TILE)


def reachable(m: pytiled_parser.TiledMap, start: tuple[int, int]) -> set[tuple[int, int]]:
    """4-neighbour flood fill over non-collision cells."""
    w, h = map_wh(m)
    blocked = blocked_cells(m)
    seen = {start}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in blocked and (nx, ny) not in seen:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


def spawn_of(m: pytiled_parser.TiledMap) -> Any:
    """The player_spawn object."""
    spawns = [o for o in objects(m, "spawns") if o.name == "player_spawn"]
    assert len(spawns) == 1
    return spawns[0]


def describe(m: pytiled_parser.TiledMap) -> dict[str, Any]:
    """A format-neutral summary used to compare the TMX and TMJ twins."""
    out: dict[str, Any] = {
        "size": (m.map_size.width, m.map_size.height),
        "tile_size": (m.tile_size.width, m.tile_size.height),
        "props": dict(m.properties or {}),
        "tiles": tile_props(m),
        "layers": [],
    }
    for la in m.layers:
        entry: dict[str, Any] = {"name": la.name, "visible": la.visible, "id": la.id}
        if isinstance(la, pytiled_parser.TileLayer):
            entry["data"] = la.data
        else:
            assert isinstance(la, pytiled_parser.ObjectLayer)
            entry["objects"] = [
                (
                    type(o).__name__,
                    o.id,
                    o.name,
                    o.class_,
                    o.coordinates,
                    o.size,
                    dict(o.properties or {}),
                )
                for o in la.tiled_objects
            ]
        out["layers"].append(entry)
    return out


def village_of(rel: str) -> tuple[str, tuple[int, int], str, set[str]]:
    """The VILLAGES entry of a map file."""
    return VILLAGES[Path(rel).stem]


def square_of(m: pytiled_parser.TiledMap, rel: str) -> Any:
    """The place where the village meets (the plaza, the green)."""
    return next(o for o in objects(m, "places") if o.name == village_of(rel)[2])


@pytest.mark.parametrize("rel", BOTH)
def test_village_structure(rel: str) -> None:
    m = load(rel)
    name, size, _, _ = village_of(rel)
    assert (m.map_size.width, m.map_size.height) == size
    assert (m.tile_size.width, m.tile_size.height) == (TILE, TILE)
    assert m.orientation == "orthogonal"
    assert [la.name for la in m.layers] == VILLAGE_LAYER_ORDER
    map_props = dict(m.properties or {})
    assert map_props["name"] == name
    assert str(map_props["description"]).endswith(".")
    assert layer(m, "collision").visible is False
    for name in ("ground", "decor", "collision"):
        assert isinstance(layer(m, name), pytiled_parser.TileLayer)
    ground = grid(m, "ground")
    assert all(g > 0 for row in ground for g in row), "ground must be filled everywhere"


@pytest.mark.parametrize("stem", [*VILLAGES, "tiny"])
def test_tmx_and_tmj_twins_are_identical(stem: str) -> None:
    tmx, tmj = describe(load(f"{stem}.tmx")), describe(load(f"{stem}.tmj"))
    assert tmx == tmj


def test_tilesets_agree_and_match_image() -> None:
    tsx = pytiled_parser.parse_tileset(TILES_DIR / "village_tiles.tsx")
    tsj = pytiled_parser.parse_tileset(TILES_DIR / "village_tiles.tsj")
    assert tsx.tiles is not None and tsj.tiles is not None
    assert {i: t.properties for i, t in tsx.tiles.items()} == {
        i: t.properties for i, t in tsj.tiles.items()
    }
    assert (tsx.tile_count, tsx.columns, tsx.margin, tsx.spacing) == (
        tsj.tile_count,
        tsj.columns,
        tsj.margin,
        tsj.spacing,
    )
    assert (tsx.margin, tsx.spacing) == (0, 0)
    with Image.open(TILES_DIR / "village_tiles.png") as img:
        cols, rows = img.width // TILE, img.height // TILE
        assert (img.width % TILE, img.height % TILE) == (0, 0)
    assert cols == tsx.columns
    # Every tile has its cell; only the last row may have spare cells, and they are empty.
    assert tsx.tile_count == len(tsx.tiles) and rows == -(-tsx.tile_count // cols)
    with Image.open(TILES_DIR / "village_tiles.png") as img:
        sheet = img.convert("RGBA")
    for i in range(tsx.tile_count, cols * rows):
        cell = (i % cols * TILE, i // cols * TILE, (i % cols + 1) * TILE, (i // cols + 1) * TILE)
        assert sheet.crop(cell).getchannel("A").getextrema() == (0, 0), f"spare cell {i} drawn"


def test_every_tile_has_name_and_walkable() -> None:
    props = tile_props(load("village.tmx"))
    names = [p.get("name") for p in props.values()]
    assert all(isinstance(n, str) and n for n in names)
    assert len(set(names)) == len(names), "tile names must be unique"
    assert all(isinstance(p.get("walkable"), bool) for p in props.values())
    by_name = {p["name"]: p["walkable"] for p in props.values()}
    assert REQUIRED_TILES <= set(by_name)
    assert not any(by_name[n] for n in MUST_BLOCK)
    assert all(by_name[n] for n in MUST_WALK)
    assert all(
        not w for n, w in by_name.items() if n.startswith(("water", "roof", "wall", "fence"))
    )


@pytest.mark.parametrize("rel", [*BOTH, "tiny.tmx", "tiny.tmj"])
def test_collision_layer_matches_tile_properties(rel: str) -> None:
    m = load(rel)
    props = tile_props(m)
    ground, decor, coll = grid(m, "ground"), grid(m, "decor"), grid(m, "collision")
    for y, row in enumerate(coll):
        for x, c in enumerate(row):
            by_props = any(g and props[g]["walkable"] is False for g in (ground[y][x], decor[y][x]))
            assert bool(c) == by_props, f"collision/tile property mismatch at {(x, y)}"


@pytest.mark.parametrize("rel", [*TMX, "tiny.tmx"])
def test_map_border_is_blocked(rel: str) -> None:
    m = load(rel)
    w, h = map_wh(m)
    blocked = blocked_cells(m)
    border = {(x, y) for x in range(w) for y in (0, h - 1)} | {
        (x, y) for y in range(h) for x in (0, w - 1)
    }
    assert border <= blocked


@pytest.mark.parametrize("rel", BOTH)
def test_npcs_are_complete_and_stand_on_walkable_tiles(rel: str) -> None:
    m = load(rel)
    npcs = objects(m, "npcs")
    assert len(npcs) == 6
    places = {o.name for o in objects(m, "places")}
    blocked = blocked_cells(m)
    ids = []
    for o in npcs:
        assert isinstance(o, Point)
        props = str_props(o)
        assert set(props) >= NPC_PROPS
        assert all(isinstance(props[k], str) and props[k].strip() for k in NPC_PROPS)
        assert ID_RE.match(props["id"]), props["id"]
        assert o.name == props["id"]
        assert 2 <= props["persona"].count(". ") + 1 <= 4
        assert props["home"] in places and props["work"] in places
        x, y = o.coordinates.x, o.coordinates.y
        assert (x % TILE, y % TILE) == (TILE // 2, TILE // 2), "NPC not at a tile centre"
        assert tile_of(o) not in blocked
        ids.append(props["id"])
        with Image.open(CHARACTERS / f"{props['sprite']}.png") as img:
            assert img.size == (128, 128)
    assert len(set(ids)) == len(ids)
    assert len({str_props(o)["sprite"] for o in npcs}) == 6
    assert len({str_props(o)["name"] for o in npcs}) == 6
    sellers = [o.name for o in npcs if str_props(o).get("wares", "").strip()]
    assert len(sellers) == 1, f"one villager sells wares, not {sellers}"
    for o in npcs:
        props = str_props(o)
        plan = parse_plan(props["plan"], places, props["home"], props["work"])
        assert isinstance(plan, Plan), f"{o.name}'s plan: {plan}"
        assert len(props["persona"]) < 2000


def test_each_villages_people_wear_their_own_sheets() -> None:
    worn = {
        stem: {str_props(o)["sprite"] for o in objects(load(f"{stem}.tmx"), "npcs")}
        for stem in VILLAGES
    }
    for stem, sheets in worn.items():
        others = set().union(*(s for other, s in worn.items() if other != stem))
        assert not sheets & others, f"{stem} shares {sheets & others}"


@pytest.mark.parametrize("rel", [*TMX, "tiny.tmx"])
def test_the_game_loads_the_map_without_a_warning(rel: str) -> None:
    assert load_game_map(MAPS / rel).warnings == []


@pytest.mark.parametrize("rel", BOTH)
def test_spawn_is_walkable_near_plaza_and_an_npc(rel: str) -> None:
    m = load(rel)
    spawn = spawn_of(m)
    assert isinstance(spawn, Point)
    sx, sy = tile_of(spawn)
    assert (spawn.coordinates.x % TILE, spawn.coordinates.y % TILE) == (16, 16)
    assert (sx, sy) not in blocked_cells(m)
    plaza = square_of(m, rel)
    px, py = plaza.coordinates.x // TILE, plaza.coordinates.y // TILE
    pw, ph = plaza.size.width // TILE, plaza.size.height // TILE
    assert px <= sx < px + pw and py <= sy < py + ph
    dists = [
        ((tile_of(o)[0] - sx) ** 2 + (tile_of(o)[1] - sy) ** 2) ** 0.5 for o in objects(m, "npcs")
    ]
    assert min(dists) <= 10


@pytest.mark.parametrize("rel", [*BOTH, "tiny.tmx"])
def test_every_npc_is_reachable_from_spawn(rel: str) -> None:
    m = load(rel)
    seen = reachable(m, tile_of(spawn_of(m)))
    for o in objects(m, "npcs"):
        assert tile_of(o) in seen, f"{o.name} cannot be reached from the spawn"


@pytest.mark.parametrize("rel", [*TMX, "tiny.tmx"])
def test_no_isolated_walkable_pockets(rel: str) -> None:
    m = load(rel)
    w, h = map_wh(m)
    free = {(x, y) for x in range(w) for y in range(h)} - blocked_cells(m)
    seen = reachable(m, tile_of(spawn_of(m)))
    assert seen == free, f"unreachable walkable cells: {sorted(free - seen)[:10]}"


@pytest.mark.parametrize("rel", TMX)
def test_doors_block_and_open_onto_reachable_paths(rel: str) -> None:
    m = load(rel)
    names = gids_by_name(m)
    decor = grid(m, "decor")
    seen = reachable(m, tile_of(spawn_of(m)))
    doors = [
        (x, y)
        for y, row in enumerate(decor)
        for x, g in enumerate(row)
        if g in (names["wall_door"], names["wall_stone_door"])
    ]
    assert 5 <= len(doors) <= 7, "a door for each home and workshop"
    blocked = blocked_cells(m)
    for x, y in doors:
        assert (x, y) in blocked
        assert (x, y + 1) in seen, f"door at {(x, y)} has no reachable tile in front"


def test_village_features_present() -> None:
    m = load("village.tmx")
    names = gids_by_name(m)
    cells = [g for lay in ("ground", "decor") for row in grid(m, lay) for g in row]
    for feature in (
        "water",
        "bridge_n",
        "bridge_s",
        "dock",
        "well",
        "anvil",
        "forge",
        "oven",
        "bread_stall",
        "market_stall",
        "fence_h",
        "tree",
        "cobble",
        "sign",
    ):
        assert names[feature] in cells, f"{feature} missing from the village"
    seen = reachable(m, tile_of(spawn_of(m)))
    ground = grid(m, "ground")
    bridge = {
        (x, y)
        for y, row in enumerate(ground)
        for x, g in enumerate(row)
        if g in (names["bridge_n"], names["bridge_s"], names["bridge"])
    }
    dock = {(x, y) for y, row in enumerate(ground) for x, g in enumerate(row) if g == names["dock"]}
    assert bridge and bridge <= seen
    assert dock and dock <= seen


def test_larkmoor_features_present() -> None:
    m = load("larkmoor.tmx")
    names = gids_by_name(m)
    cells = [g for lay in ("ground", "decor") for row in grid(m, lay) for g in row]
    for feature in ("water", "reeds", "dock", "oven", "forge", "hay_bale", "log_pile", "rock"):
        assert names[feature] in cells, f"{feature} missing from Larkmoor"
    seen = reachable(m, tile_of(spawn_of(m)))
    ground = grid(m, "ground")
    causeway = {
        (x, y) for y, row in enumerate(ground) for x, g in enumerate(row) if g == names["dock"]
    }
    assert causeway and causeway <= seen
    lowen = next(o for o in objects(m, "npcs") if o.name == "lowen")
    assert tile_of(lowen) in seen, "the watch house is reached over the causeway"


def test_stonereach_features_present() -> None:
    m = load("stonereach.tmx")
    names = gids_by_name(m)
    cells = [g for lay in ("ground", "decor") for row in grid(m, lay) for g in row]
    for feature in ("sand", "rock", "cart", "log_pile", "hay_bale", "cloth_stall", "cobble"):
        assert names[feature] in cells, f"{feature} missing from Stonereach"
    places = {o.name: o for o in objects(m, "places")}
    quarry = places["quarry"]
    x0, y0 = int(quarry.coordinates.x // TILE), int(quarry.coordinates.y // TILE)
    inside = {
        (x, y)
        for x in range(x0, x0 + int(quarry.size.width // TILE))
        for y in range(y0, y0 + int(quarry.size.height // TILE))
    }
    assert inside & reachable(m, tile_of(spawn_of(m))), "the quarry can be walked into"


def test_the_lamp_tile_lights_the_night() -> None:
    props = {p["name"]: p for p in tile_props(load("village.tmx")).values()}
    assert props["lamp"]["lamp"] is True and props["lamp"]["radius"] == 4.0
    assert not [n for n, p in props.items() if "lamp" in p and n != "lamp"]


@pytest.mark.parametrize("rel", BOTH)
def test_lamp_posts_stand_at_the_plaza_corners(rel: str) -> None:
    m = load(rel)
    lamp = gids_by_name(m)["lamp"]
    lamps = {
        (x, y) for y, row in enumerate(grid(m, "decor")) for x, g in enumerate(row) if g == lamp
    }
    plaza = square_of(m, rel)
    x0, y0 = int(plaza.coordinates.x // TILE), int(plaza.coordinates.y // TILE)
    x1, y1 = x0 + int(plaza.size.width // TILE) - 1, y0 + int(plaza.size.height // TILE) - 1
    assert {(x0, y0), (x1, y0), (x0, y1), (x1, y1)} <= lamps


@pytest.mark.parametrize("rel", BOTH)
def test_the_notice_board_stands_on_the_plaza_by_a_lamp(rel: str) -> None:
    m = load(rel)
    (board,) = objects(m, "boards")
    assert isinstance(board, Rectangle) and board.class_ == "board"
    assert board.name == "notice_board"
    assert "notice board" in str_props(board)["description"]
    assert (board.size.width, board.size.height) == (TILE, TILE)
    bx, by = int(board.coordinates.x // TILE), int(board.coordinates.y // TILE)
    names = gids_by_name(m)
    decor = grid(m, "decor")
    assert decor[by][bx] == names["notice_board"]
    assert (bx, by) in blocked_cells(m)
    plaza = square_of(m, rel)
    px, py = plaza.coordinates.x // TILE, plaza.coordinates.y // TILE
    pw, ph = plaza.size.width // TILE, plaza.size.height // TILE
    assert px <= bx < px + pw and py <= by < py + ph
    assert bx in (px, px + pw - 1) or by in (py, py + ph - 1), "the board stands at the edge"
    near = [(bx + dx, by + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert any(decor[y][x] == names["lamp"] for x, y in near)
    seen = reachable(m, tile_of(spawn_of(m)))
    assert any((bx + dx, by + dy) in seen for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))


@pytest.mark.parametrize("rel", BOTH)
def test_places_are_grid_aligned_rectangles(rel: str) -> None:
    m = load(rel)
    places = objects(m, "places")
    names = [o.name for o in places]
    assert len(places) >= 7
    assert len(set(names)) == len(names)
    assert village_of(rel)[3] <= set(names)
    npcs = [str_props(o) for o in objects(m, "npcs")]
    assert {p[k] for p in npcs for k in ("home", "work")} <= set(names)
    for o in places:
        assert isinstance(o, Rectangle)
        assert ID_RE.match(o.name)
        assert str_props(o)["description"].strip()
        x, y, w, h = o.coordinates.x, o.coordinates.y, o.size.width, o.size.height
        assert all(v % TILE == 0 for v in (x, y, w, h)) and w > 0 and h > 0
        assert x + w <= m.map_size.width * TILE and y + h <= m.map_size.height * TILE


def test_tiny_map() -> None:
    m = load("tiny.tmx")
    assert (m.map_size.width, m.map_size.height) == (10, 8)
    assert [la.name for la in m.layers] == LAYER_ORDER
    assert len(objects(m, "npcs")) == 1
    names = gids_by_name(m)
    cells = [g for lay in ("ground", "decor") for row in grid(m, lay) for g in row]
    water = {g for n, g in names.items() if n.startswith("water")}
    assert water & set(cells)
    assert names["wall"] in cells


def test_broken_maps_are_valid_but_incomplete() -> None:
    no_spawn = load("broken/no_spawn.tmx")
    assert objects(no_spawn, "npcs")
    assert not [
        o
        for la in no_spawn.layers
        if isinstance(la, pytiled_parser.ObjectLayer)
        for o in la.tiled_objects
        if o.name == "player_spawn"
    ]
    no_npcs = load("broken/no_npcs.tmx")
    assert "npcs" not in [la.name for la in no_npcs.layers]
    assert spawn_of(no_npcs)


ARCADE_SCRIPT = """
import sys
import arcade
window = arcade.Window(64, 64, visible=False)
for arg in sys.argv[1:]:
    path, w, h = arg.rsplit(":", 2)
    tm = arcade.load_tilemap(path, scaling=1.0)
    assert (tm.width, tm.height) == (int(w), int(h)), path
    assert len(tm.sprite_lists["ground"]) == int(w) * int(h), path
    assert {"places", "boards", "npcs", "spawns"} <= set(tm.object_lists), path
    assert len(tm.object_lists["npcs"]) == 6, path
    print("ok", path)
"""


def test_arcade_loads_every_village() -> None:
    env = dict(os.environ, ARCADE_HEADLESS="1")
    paths = [f"{MAPS / rel}:{village_of(rel)[1][0]}:{village_of(rel)[1][1]}" for rel in BOTH]
    proc = subprocess.run(
        [sys.executable, "-c", ARCADE_SCRIPT, *paths],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.count("ok ") == len(BOTH)
