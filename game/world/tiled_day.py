"""What a map says about the village's day: lamps, notice boards and day plans.

- **Lamps**: a tileset tile with the property `lamp` set to true (every cell drawn with it
  is a lamp), or any object in an object layer named `lamps` (its tile; a rectangle's
  middle). Either may set `radius` (tiles of light, 1-12, default 3).
- **Notice boards**: an object of class (type) `board`, or named `board`, in any object
  layer: its name names it, its tile is where it stands.
- **Day plans**: an NPC's `plan` property (see `game.world.plans` for the format), with
  its `home` and `work` places; without one, `default_plan`. A plan that does not read is
  one warning line and the default.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from pytiled_parser import ObjectLayer, TileLayer

from game.text import clean_text
from game.world.grid import Tile
from game.world.plans import Plan, default_plan, parse_plan, plan_example

__all__ = ["BoardSpot", "Lamp", "boards_of", "lamps_of", "plan_of"]

GID_MASK = 0x1FFFFFFF
LAMP_RADIUS = 3.0
MAX_LAMPS = 2000


@dataclass(frozen=True)
class Lamp:
    """A light that burns at night."""

    tile: Tile
    radius: float = LAMP_RADIUS


@dataclass(frozen=True)
class BoardSpot:
    """A notice board standing on the map."""

    name: str
    tile: Tile
    description: str = ""


def _flag(value: Any) -> bool:
    return value is True or str(value).strip().lower() in ("true", "1", "yes")


def _radius(props: dict[str, Any]) -> float:
    try:
        radius = float(props.get("radius", LAMP_RADIUS))
    except (TypeError, ValueError):
        return LAMP_RADIUS
    return min(12.0, max(1.0, radius)) if radius == radius else LAMP_RADIUS


def _centre(obj: Any, tw: int, th: int) -> Tile:
    x = obj.coordinates.x + obj.size.width / 2
    y = obj.coordinates.y + obj.size.height / 2
    if obj.size.width == 0 and obj.size.height == 0 and getattr(obj, "gid", None):
        y -= th / 2  # a tile object's coordinates are its bottom-left corner
    return (int(x // tw), int(y // th))


def lamps_of(tiled: Any, layers: Iterable[Any], tw: int, th: int) -> list[Lamp]:
    """The lamps of a map: tiles marked `lamp`, and the objects of a `lamps` layer."""
    lamp_gids: dict[int, float] = {}
    for firstgid, tileset in tiled.tilesets.items():
        for tile_id, tile in (tileset.tiles or {}).items():
            props = tile.properties or {}
            if _flag(props.get("lamp")):
                lamp_gids[firstgid + tile_id] = _radius(props)
    found: dict[Tile, Lamp] = {}
    for layer in layers:
        if isinstance(layer, TileLayer) and layer.data is not None and lamp_gids:
            for y, row in enumerate(layer.data):
                for x, raw in enumerate(row):
                    radius = lamp_gids.get(raw & GID_MASK)
                    if radius is not None:
                        found[(x, y)] = Lamp((x, y), radius)
        elif isinstance(layer, ObjectLayer) and layer.name.lower() == "lamps":
            for obj in layer.tiled_objects:
                tile = _centre(obj, tw, th)
                found[tile] = Lamp(tile, _radius(obj.properties or {}))
    return list(found.values())[:MAX_LAMPS]


def boards_of(layers: Iterable[Any], tw: int, th: int) -> list[BoardSpot]:
    """The notice boards of a map."""
    boards: list[BoardSpot] = []
    for layer in layers:
        if not isinstance(layer, ObjectLayer):
            continue
        for obj in layer.tiled_objects:
            kind = str(getattr(obj, "class_", "") or "").strip().lower()
            name = clean_text(obj.name or "").strip()
            if kind != "board" and name.lower() not in ("board", "notice_board"):
                continue
            description = clean_text(str((obj.properties or {}).get("description", "")))
            boards.append(BoardSpot(name or "board", _centre(obj, tw, th), description))
    return boards


def plan_of(
    name: str, props: dict[str, str], places: Collection[str], map_name: str, warnings: list[str]
) -> Plan | None:
    """An NPC's day plan from its properties (or the default), with a warning line for a
    `plan`, `home` or `work` that names no place of the map. `places`: the map's place
    names, a set or a dict (one for every NPC: it is not copied)."""
    known = places
    home = props.get("home", "").strip().lower()
    work = props.get("work", "").strip().lower()
    for what, value in (("home", home), ("work", work)):
        if value and value not in known:
            warnings.append(
                f"map {map_name}: NPC {name!r} has {what} {value!r}, which is no place of the "
                "map; name a place of the places layer"
            )
    home = home if home in known else ""
    work = work if work in known else ""
    text = props.get("plan", "").strip()
    if text:
        plan = parse_plan(text, known, home, work)
        if isinstance(plan, Plan):
            return plan
        warnings.append(
            f"map {map_name}: NPC {name!r} has a plan that does not read ({plan}); it follows "
            f"the default plan. Write it as '{plan_example(known, home, work)}'"
        )
    return default_plan(home, work, known)
