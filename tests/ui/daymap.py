"""A small map of the village's day for the UI tests: grass, one villager with a day plan,
one lamp and one notice board (the village's own art and objects may change under them)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.world.crowd import crowd_map, prop

SIZE = (20, 12)  # tiles: smaller than the window, so the whole map shows
LAMP = (4, 6)
BOARD = (12, 8)
BOARD_ID = "notice_board"
PLAN = "6:30 green, 21 sleep"


def _point(oid: int, name: str, tile: tuple[int, int], kind: str = "") -> dict[str, object]:
    return {
        "id": oid,
        "name": name,
        "point": True,
        "x": tile[0] * 32 + 16,
        "y": tile[1] * 32 + 16,
        "width": 0,
        "height": 0,
        "rotation": 0,
        "type": kind,
        "visible": True,
    }


def write_day_map(folder: Path) -> Path:
    """Write the map as `dayby.tmj` in `folder`; its path. The villager (`v0`) stands at
    (2, 2), the player at (1, 1)."""
    data = crowd_map(1, size=SIZE)
    layers = data["layers"]
    npcs = next(layer for layer in layers if layer["name"] == "npcs")
    npcs["objects"][0]["properties"].append(prop("plan", PLAN))
    board = _point(900, BOARD_ID, BOARD, "board")
    board["properties"] = [prop("description", "The green's notice board.")]
    for layer_id, name, objects in (
        (6, "lamps", [_point(800, "lamp", LAMP)]),
        (7, "boards", [board]),
    ):
        layers.append(
            {
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
        )
    data["nextlayerid"] = 8
    data["nextobjectid"] = 1000
    path = folder / "dayby.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
