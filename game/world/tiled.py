"""Tiled maps (.tmx XML or .tmj JSON) -> `MapData`, the pure description of a level.

Coordinates are tiles: `(x, y)` with `x` growing east and `y` growing south, as in Tiled.
The loader reads the map through pytiled_parser and keeps only what the game needs:
layer names, blocked tiles, NPC spawns with their properties, the player spawn and named
places. Anything wrong with the file becomes one `MapError` whose message names the file
and what is missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytiled_parser
from pytiled_parser import ObjectLayer, TileLayer
from pytiled_parser.layer import LayerGroup

from game.world.errors import WorldError

GID_MASK = 0x1FFFFFFF  # Tiled keeps flip flags in the top three bits of a gid
NPC_FIELDS = ("id", "name", "persona", "greeting", "sprite")
_ID_RE = re.compile(r"^[a-z0-9_-]{1,64}$")

Tile = tuple[int, int]


class MapError(WorldError):
    """A map file is missing, unreadable or lacks something the game needs."""


@dataclass(frozen=True)
class NpcSpawn:
    """An NPC as the map maker placed it: where, and who."""

    npc_id: str
    name: str
    persona: str
    greeting: str
    sprite: str
    tile: Tile
    properties: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Place:
    """A named area of the map (forge, bakery, well...)."""

    name: str
    x: int
    y: int
    width: int
    height: int
    description: str = ""

    def contains(self, tile: Tile) -> bool:
        """Whether a tile lies inside this area."""
        return self.x <= tile[0] < self.x + self.width and self.y <= tile[1] < self.y + self.height

    @property
    def center(self) -> Tile:
        """The tile at the middle of the area."""
        return (self.x + self.width // 2, self.y + self.height // 2)


@dataclass
class MapData:
    """Everything the simulation needs from a map, with no drawing in it."""

    path: Path
    width: int
    height: int
    tile_width: int
    tile_height: int
    blocked: set[Tile]
    player_spawn: Tile
    npcs: list[NpcSpawn]
    places: dict[str, Place]
    tile_layers: list[str]
    properties: dict[str, str] = field(default_factory=dict)

    @property
    def map_id(self) -> str:
        """A stable id for saves: the file name without its extension."""
        return self.path.stem

    @property
    def name(self) -> str:
        """The map's display name (its `name` property, else the file stem)."""
        name = self.properties.get("name")
        return self.path.stem if name is None else name

    def place_at(self, tile: Tile) -> Place | None:
        """The smallest named place containing a tile, if any."""
        hits = [p for p in self.places.values() if p.contains(tile)]
        return min(hits, key=lambda p: p.width * p.height) if hits else None


def _props(raw: dict[str, Any] | None) -> dict[str, str]:
    return {str(k): str(v) for k, v in (raw or {}).items()}


def _walk_layers(layers: list[Any]) -> list[Any]:
    out: list[Any] = []
    for layer in layers:
        if isinstance(layer, LayerGroup):
            out.extend(_walk_layers(layer.layers or []))
        else:
            out.append(layer)
    return out


def _unwalkable_gids(tiled: Any) -> set[int]:
    gids: set[int] = set()
    for firstgid, tileset in tiled.tilesets.items():
        for tile_id, tile in (tileset.tiles or {}).items():
            value = (tile.properties or {}).get("walkable")
            if value is False or str(value).lower() == "false":
                gids.add(firstgid + tile_id)
    return gids


def _object_tile(obj: Any, tw: int, th: int) -> Tile:
    return (int(obj.coordinates.x // tw), int(obj.coordinates.y // th))


def load_map(path: str | Path) -> MapData:
    """Read a .tmx or .tmj map; raise `MapError` with a one-line reason on any problem."""
    path = Path(path)
    if not path.is_file():
        raise MapError(f"map file not found: {path}")
    try:
        tiled = pytiled_parser.parse_map(path)
    except Exception as exc:  # pytiled_parser raises many kinds; all mean "unreadable"
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise MapError(f"cannot read map {path}: {reason}") from exc
    if tiled.infinite:
        raise MapError(f"map {path} is infinite; save it as a fixed-size map in Tiled")

    width, height = int(tiled.map_size.width), int(tiled.map_size.height)
    tw, th = int(tiled.tile_size.width), int(tiled.tile_size.height)
    layers = _walk_layers(tiled.layers)
    unwalkable = _unwalkable_gids(tiled)
    blocked: set[Tile] = set()
    tile_layers: list[str] = []
    for layer in layers:
        if not isinstance(layer, TileLayer) or layer.data is None:
            continue
        tile_layers.append(layer.name)
        is_collision = layer.name.lower() == "collision"
        for y, row in enumerate(layer.data):
            for x, raw_gid in enumerate(row):
                gid = raw_gid & GID_MASK
                if gid and (is_collision or gid in unwalkable):
                    blocked.add((x, y))

    spawn: Tile | None = None
    npcs: list[NpcSpawn] = []
    places: dict[str, Place] = {}
    for layer in layers:
        if not isinstance(layer, ObjectLayer):
            continue
        lname = layer.name.lower()
        for obj in layer.tiled_objects:
            if obj.name == "player_spawn":
                spawn = _object_tile(obj, tw, th)
            elif lname == "npcs":
                npcs.append(_npc_from(obj, path, tw, th))
            elif lname == "places" and obj.name:
                places[obj.name] = Place(
                    name=obj.name,
                    x=int(obj.coordinates.x // tw),
                    y=int(obj.coordinates.y // th),
                    width=max(1, round(obj.size.width / tw)),
                    height=max(1, round(obj.size.height / th)),
                    description=_props(obj.properties).get("description", ""),
                )
    if spawn is None:
        raise MapError(f"map {path} has no player_spawn: add a point object named player_spawn")
    _check_inside(path, "player_spawn", spawn, width, height, blocked)
    seen: set[str] = set()
    for npc in npcs:
        if npc.npc_id in seen:
            raise MapError(f"map {path}: two NPCs share the id {npc.npc_id!r}; ids must be unique")
        seen.add(npc.npc_id)
        _check_inside(path, f"NPC {npc.npc_id!r}", npc.tile, width, height, blocked)
    return MapData(
        path=path,
        width=width,
        height=height,
        tile_width=tw,
        tile_height=th,
        blocked=blocked,
        player_spawn=spawn,
        npcs=npcs,
        places=places,
        tile_layers=tile_layers,
        properties=_props(tiled.properties),
    )


def _npc_from(obj: Any, path: Path, tw: int, th: int) -> NpcSpawn:
    props = _props(obj.properties)
    label = obj.name or f"object {obj.id}"
    missing = [f for f in NPC_FIELDS if not props.get(f)]
    if missing:
        raise MapError(
            f"map {path}: NPC {label!r} in layer npcs lacks {', '.join(missing)}; "
            "add them as custom properties"
        )
    if not _ID_RE.match(props["id"]):
        raise MapError(f"map {path}: NPC id {props['id']!r} must be 1-64 of a-z, 0-9, _ or -")
    return NpcSpawn(
        npc_id=props["id"],
        name=props["name"],
        persona=props["persona"],
        greeting=props["greeting"],
        sprite=props["sprite"],
        tile=_object_tile(obj, tw, th),
        properties=props,
    )


def _check_inside(path: Path, what: str, tile: Tile, w: int, h: int, blocked: set[Tile]) -> None:
    if not (0 <= tile[0] < w and 0 <= tile[1] < h):
        raise MapError(f"map {path}: {what} at {tile} lies outside the {w}x{h} map")
    if tile in blocked:
        raise MapError(f"map {path}: {what} stands on a blocked tile {tile}; move it")
