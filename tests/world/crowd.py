"""A generated map with many NPCs (a .tmj on the village's tileset), for scale tests and
`tests/benchmarks/many_npcs.py`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TILESET = ROOT / "assets" / "tiles" / "village_tiles.tsj"
SHEETS = ("baker", "child", "elder", "fisher", "merchant", "smith")
GRASS, WALL = 1, 31  # gids of the village tileset: plain grass, a house wall
SPACING = 2  # tiles between neighbours, so everyone can step aside
KINDS = ("Cottage", "Barn", "Mill", "Shed", "Well", "Orchard")  # what generated places are


def prop(name: str, value: str) -> dict[str, str]:
    """One string property as Tiled writes it."""
    return {"name": name, "type": "string", "value": value}


def npc_tiles(count: int) -> list[tuple[int, int]]:
    """Where the NPCs of a crowd stand: rows inside the wall, `SPACING` apart, from (2, 2)."""
    per_row = max(1, math.ceil(math.sqrt(count)))
    return [(2 + SPACING * (i % per_row), 2 + SPACING * (i // per_row)) for i in range(count)]


def crowd_map(count: int, size: tuple[int, int] | None = None, places: int = 0) -> dict[str, Any]:
    """A walled square of grass (or a rectangle of `size` tiles), a place (the green, all
    of it), the player at (1, 1) and `count` NPCs; `places` more places, plots of one tile
    side by side in rows from (1, 1) (the map made large enough to hold them), each an
    object of the places layer with a name and a description, as a map maker draws them."""
    tiles = npc_tiles(count)
    side = max(8, max((max(x, y) for x, y in tiles), default=0) + 3)
    per_row = math.ceil(math.sqrt(places))
    side = max(side, per_row + 2)
    width, height = size or (side, side)
    ground = [GRASS] * (width * height)
    collision = [
        WALL if x in (0, width - 1) or y in (0, height - 1) else 0
        for y in range(height)
        for x in range(width)
    ]
    npcs = [
        {
            "id": 100 + i,
            "name": f"Villager {i}",
            "point": True,
            "x": x * 32 + 16,
            "y": y * 32 + 16,
            "width": 0,
            "height": 0,
            "rotation": 0,
            "type": "npc",
            "visible": True,
            "properties": [
                prop("id", f"v{i}"),
                prop("persona", f"Villager {i} keeps bees. They like a quiet morning."),
                prop("greeting", "Morning!"),
                prop("sprite", SHEETS[i % len(SHEETS)]),
                prop("home", "green"),
            ],
        }
        for i, (x, y) in enumerate(tiles)
    ]

    def tile_layer(layer_id: int, name: str, data: list[int]) -> dict[str, Any]:
        return {
            "data": data,
            "height": height,
            "width": width,
            "id": layer_id,
            "name": name,
            "opacity": 1,
            "type": "tilelayer",
            "visible": name != "collision",
            "x": 0,
            "y": 0,
        }

    def object_layer(layer_id: int, name: str, objects: list[Any]) -> dict[str, Any]:
        return {
            "draworder": "topdown",
            "id": layer_id,
            "name": name,
            "objects": objects,
            "opacity": 1,
            "type": "objectgroup",
            "visible": True,
            "x": 0,
            "y": 0,
        }

    green = {
        "id": 1,
        "name": "green",
        "x": 32,
        "y": 32,
        "width": (width - 2) * 32,
        "height": (height - 2) * 32,
        "rotation": 0,
        "type": "place",
        "visible": True,
        "properties": [prop("description", "The village green.")],
    }
    houses = [
        {
            "id": 100 + count + i,
            "name": f"{KINDS[i % len(KINDS)]} {i}",
            "x": (1 + i % per_row) * 32,
            "y": (1 + i // per_row) * 32,
            "width": 32,
            "height": 32,
            "rotation": 0,
            "type": "place",
            "visible": True,
            "properties": [prop("description", f"A {KINDS[i % len(KINDS)].lower()} of the crowd.")],
        }
        for i in range(places)
    ]
    spawn = {
        "id": 2,
        "name": "player_spawn",
        "point": True,
        "x": 48,
        "y": 48,
        "width": 0,
        "height": 0,
        "rotation": 0,
        "type": "spawn",
        "visible": True,
    }
    return {
        "compressionlevel": -1,
        "height": height,
        "width": width,
        "infinite": False,
        "layers": [
            tile_layer(1, "ground", ground),
            tile_layer(2, "collision", collision),
            object_layer(3, "places", [green, *houses]),
            object_layer(4, "npcs", npcs),
            object_layer(5, "spawns", [spawn]),
        ],
        "nextlayerid": 6,
        "nextobjectid": 100 + count + places,
        "orientation": "orthogonal",
        "properties": [prop("name", "Crowdby")],
        "renderorder": "right-down",
        "tiledversion": "1.10.2",
        "tileheight": 32,
        "tilewidth": 32,
        "tilesets": [{"firstgid": 1, "source": str(TILESET)}],
        "type": "map",
        "version": "1.10",
    }


def write_crowd_map(
    folder: Path, count: int, size: tuple[int, int] | None = None, places: int = 0
) -> Path:
    """Write `crowd_map(count, size, places)` as `crowd<count>.tmj` in `folder`; its path."""
    path = folder / f"crowd{count}.tmj"
    path.write_text(json.dumps(crowd_map(count, size, places)), encoding="utf-8")
    return path
