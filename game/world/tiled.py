"""Tiled maps (.tmx XML or .tmj JSON) -> `MapData`, the pure description of a level.

Coordinates are tiles: `(x, y)` with `x` growing east and `y` growing south, as in Tiled.
The loader checks the map against its bounds first (`tiled_check`: sizes, counts, the
files it names), reads it through pytiled_parser and keeps only what the game needs:
layer names, blocked tiles, NPC spawns with their properties, the player spawn, named
places and the image files it draws from (which `game.assets` opens before any window).
What makes a map unplayable (no such file, not a map, past a bound, a value of the wrong
type, no player spawn, a spawn or NPC outside the map, two NPCs with one id) is one
`MapError` naming the file and what is wrong. An NPC needs only a position and a name
(the object's name, or a `name` property, which wins): a missing id, persona, greeting or
sprite gets a default, and a blocked tile the nearest walkable one, each NPC with one
line in `MapData.warnings` (also logged) naming the map, the NPC and the properties to
add. An NPC's text is bounded (`game.limits`: its name, persona, greeting, wares, each
other property, how many it has): past a bound it is cut, with one warning line naming
the NPC, the property and the bound.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import pytiled_parser
from pytiled_parser import ImageLayer, ObjectLayer, TileLayer
from pytiled_parser.layer import LayerGroup

from game.limits import (
    MAX_NPC_PROPERTIES,
    MAX_NPC_PROPERTY_CHARS,
    MAX_NPC_PROPERTY_NAME,
    NPC_TEXT_CHARS,
    PROFILE_PLACES,
)
from game.text import clean_text
from game.world.errors import MapError
from game.world.grid import Tile
from game.world.places import Place, PlaceIndex
from game.world.plans import Plan
from game.world.tiled_check import check_map_file
from game.world.tiled_day import BoardSpot, Lamp, boards_of, lamps_of, plan_of

GID_MASK = 0x1FFFFFFF  # Tiled keeps flip flags in the top three bits of a gid
_ID_RE = re.compile(r"[a-z0-9_-]{1,64}")
log = logging.getLogger(__name__)
_WARNED: set[str] = set()
# The NPC properties the game reads, kept first when there are too many (after the name).
_KNOWN = ("id", "sprite", "home", "work", "description", *NPC_TEXT_CHARS)


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
    plan: Plan | None = None  # where it is at which hour (`game.world.plans`)

    @property
    def home(self) -> str:
        """Its home place ("" if the map gives none)."""
        return self.properties.get("home", "").strip().lower()

    @property
    def work(self) -> str:
        """Its work place ("" if the map gives none)."""
        return self.properties.get("work", "").strip().lower()


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
    warnings: list[str] = field(default_factory=list)  # what was defaulted, one line each
    images: list[Path] = field(default_factory=list)  # image files it draws from (`_images`)
    lamps: list[Lamp] = field(default_factory=list)  # lit at night (`tiled_day`)
    boards: list[BoardSpot] = field(default_factory=list)  # notice boards (`tiled_day`)

    @property
    def map_id(self) -> str:
        """A stable id for saves: the file name without its extension."""
        return self.path.stem

    @property
    def name(self) -> str:
        """The map's display name (its `name` property, else the file stem)."""
        name = self.properties.get("name")
        return self.path.stem if name is None else name

    @cached_property
    def place_index(self) -> PlaceIndex:
        """The places by square and by name, made at the first question."""
        return PlaceIndex(self.places, (self.width, self.height), PROFILE_PLACES)

    def place_at(self, tile: Tile) -> Place | None:
        """The smallest named place containing a tile, if any (of two alike, the first)."""
        return self.place_index.at(tile)


def _props(raw: dict[str, Any] | None) -> dict[str, str]:
    # Names, personas and descriptions reach bubbles and terminals: no control characters.
    return {str(k): clean_text(str(v)) for k, v in (raw or {}).items()}


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


def load_map(path: str | Path, *, sheets: Sequence[str] = ()) -> MapData:
    """Read a .tmx or .tmj map; raise `MapError` with a one-line reason when it cannot be
    played. `sheets`: the character sheets there are; an NPC whose `sprite` is missing or
    not among them gets one of them, the same from run to run (none given: sprites are
    not checked, and a missing one is "")."""
    path = Path(path)
    check_map_file(path)  # sizes, counts and the files it names, before it is read whole
    try:
        tiled = pytiled_parser.parse_map(path)
    except Exception as exc:  # pytiled_parser raises many kinds; all mean "unreadable"
        raise MapError(f"cannot read map {path}: {_reason(exc)}") from exc
    try:
        return _map_data(path, tiled, sheets)
    except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        # What the outline does not check, a .tmj can still give the wrong type of.
        raise MapError(
            f"cannot read map {path}: a value of the wrong kind ({_reason(exc)}); "
            "open and save it again in Tiled"
        ) from exc


def _reason(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _map_data(path: Path, tiled: Any, sheets: Sequence[str]) -> MapData:
    """The `MapData` of a parsed map."""
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
    npc_objects: list[Any] = []
    places: dict[str, Place] = {}
    has_npcs_layer = False
    for layer in layers:
        if not isinstance(layer, ObjectLayer):
            continue
        lname = layer.name.lower()
        has_npcs_layer = has_npcs_layer or lname == "npcs"
        for obj in layer.tiled_objects:
            if obj.name == "player_spawn":
                spawn = _object_tile(obj, tw, th)
            elif lname == "npcs":
                npc_objects.append(obj)
            elif (
                lname == "places"
                and clean_text(obj.name).strip()
                and str(obj.class_).lower() != "board"
            ):
                place = clean_text(obj.name).strip()
                places[place] = Place(
                    name=place,
                    x=int(obj.coordinates.x // tw),
                    y=int(obj.coordinates.y // th),
                    width=max(1, round(obj.size.width / tw)),
                    height=max(1, round(obj.size.height / th)),
                    description=_props(obj.properties).get("description", ""),
                )
    if spawn is None:
        raise MapError(f"map {path} has no player_spawn: add a point object named player_spawn")
    _check_inside(path, "player_spawn", spawn, width, height, blocked)
    warnings: list[str] = []
    if not has_npcs_layer:
        warnings.append(f"map {path.name}: no object layer named npcs; it plays without NPCs")
    npcs = _npcs_from(npc_objects, path, (tw, th), (width, height), blocked, sheets, warnings)
    npcs = [
        replace(npc, plan=plan_of(npc.name, npc.properties, places, path.name, warnings))
        for npc in npcs
    ]
    for line in warnings:
        if line not in _WARNED:  # a map read twice (checked, then played) warns once
            _WARNED.add(line)
            log.warning("%s", line)
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
        warnings=warnings,
        images=_images(path, tiled, layers),
        lamps=lamps_of(tiled, layers, tw, th),
        boards=boards_of(layers, tw, th),
    )


def _images(path: Path, tiled: Any, layers: list[Any]) -> list[Path]:
    """The image files the map draws from, each once: tileset sheets, the images of an
    image-collection tileset's tiles, image layers. A relative path is found as arcade
    finds it: as it is, else beside the map."""
    found: list[Path] = []
    for tileset in tiled.tilesets.values():
        found += [tileset.image] if tileset.image else []
        found += [tile.image for tile in (tileset.tiles or {}).values() if tile.image]
    found += [layer.image for layer in layers if isinstance(layer, ImageLayer) and layer.image]
    return list(
        dict.fromkeys(p if p.is_absolute() or p.exists() else path.parent / p for p in found)
    )


def _npcs_from(
    objects: list[Any],
    path: Path,
    tile_size: tuple[int, int],
    size: tuple[int, int],
    blocked: set[Tile],
    sheets: Sequence[str],
    warnings: list[str],
) -> list[NpcSpawn]:
    """The NPCs of the npcs layer: explicit ids first (two alike are an error), then ids
    made from names for the rest, each unique."""
    named: dict[str, Any] = {}
    for obj in objects:
        given = _props(obj.properties).get("id")
        if not given:
            continue
        if not _ID_RE.fullmatch(given):
            raise MapError(f"map {path}: NPC id {given!r} must be 1-64 of a-z, 0-9, _ or -")
        if given in named:
            raise MapError(
                f"map {path}: {_label(named[given])} and {_label(obj)} share the id {given!r}; "
                "ids must be unique"
            )
        named[given] = obj
    taken = set(named)
    return [
        _npc_from(obj, path, tile_size, size, blocked, sheets, taken, warnings) for obj in objects
    ]


def _label(obj: Any) -> str:
    name = str(obj.name or "")[: NPC_TEXT_CHARS["name"]]
    return f"NPC object {obj.id}" + (f" ({name!r})" if name else "")


def _within_bounds(
    props: dict[str, str], who: str, where: str, warnings: list[str]
) -> dict[str, str]:
    """An NPC's properties within their bounds: long text cut, extra properties dropped,
    each with a warning line."""
    kept: dict[str, str] = {}
    dropped: list[str] = []
    for key, value in props.items():
        if len(key) > MAX_NPC_PROPERTY_NAME or len(kept) >= MAX_NPC_PROPERTIES:
            dropped.append(key[:MAX_NPC_PROPERTY_NAME])
            continue
        bound = NPC_TEXT_CHARS.get(key, MAX_NPC_PROPERTY_CHARS)
        if len(value) > bound:
            warnings.append(
                f"map {where}: NPC {who!r}: its {key} has {len(value):,} characters; "
                f"only the first {bound:,} are kept"
            )
            value = value[:bound]
        kept[key] = value
    if dropped:
        warnings.append(
            f"map {where}: NPC {who!r}: {len(dropped)} properties past the "
            f"{MAX_NPC_PROPERTIES} kept, or named in more than {MAX_NPC_PROPERTY_NAME} "
            f"characters; left out: {', '.join(repr(k) for k in dropped[:3])}"
            + (", ..." if len(dropped) > 3 else "")
        )
    return kept


def _npc_from(
    obj: Any,
    path: Path,
    tile_size: tuple[int, int],
    size: tuple[int, int],
    blocked: set[Tile],
    sheets: Sequence[str],
    taken: set[str],
    warnings: list[str],
) -> NpcSpawn:
    props = _props(obj.properties)
    name = " ".join(clean_text(props.get("name") or obj.name or "").split())
    if not name:
        raise MapError(
            f"map {path}: {_label(obj)} in layer npcs has no name; name the object in Tiled"
        )
    # The properties the game reads first, so that none of them is the one left out.
    given = {k: v for k, v in props.items() if k != "name"}
    ordered = {"name": name} | {k: given[k] for k in _KNOWN if k in given} | given
    props = _within_bounds(ordered, name[: NPC_TEXT_CHARS["name"]], path.name, warnings)
    name = props["name"].strip()
    missing: list[str] = []  # properties not given
    chosen: list[str] = []  # what was made up for them, where it is not obvious
    npc_id = props.get("id") or ""
    if not npc_id:
        npc_id = _unique(_slug(name), taken)
        taken.add(npc_id)
        missing.append("id")
        chosen.append(f"id {npc_id!r}")
    persona = props.get("persona") or ""
    if not persona:
        persona = f"{name} lives here and is glad of a chat."
        missing.append("persona")
    greeting = props.get("greeting") or ""
    if not greeting:
        missing.append("greeting")
    sprite = props.get("sprite") or ""
    unknown = sprite if sheets and sprite and sprite not in sheets else ""
    if not sprite:
        missing.append("sprite")
    if sheets and sprite not in sheets:
        sprite = _sheet_for(npc_id, sheets)
        chosen.append(f"sprite {sprite!r}")
    tile = _object_tile(obj, *tile_size)
    _check_inside(path, f"NPC {name!r}", tile, size[0], size[1], set())
    if tile in blocked:
        free = _nearest_free(tile, size, blocked)
        if free is None:
            raise MapError(f"map {path}: NPC {name!r} stands on a blocked tile {tile}; move it")
        warnings.append(
            f"map {path.name}: NPC {name!r} stands on a blocked tile {tile}; "
            f"it starts at {free}, the nearest walkable one"
        )
        tile = free
    if missing or unknown:
        what = [f"has no {', '.join(missing)}"] if missing else []
        if unknown:
            what.append(f"has a sprite {unknown!r} that is not in assets/characters")
        using = f"; using {', '.join(chosen)}" if chosen else ""
        warnings.append(
            f"map {path.name}: NPC {name!r} {' and '.join(what)}{using}; "
            "set them as custom properties"
        )
    return NpcSpawn(
        npc_id=npc_id,
        name=name,
        persona=persona,
        greeting=greeting,
        sprite=sprite,
        tile=tile,
        properties={**props, "id": npc_id, "name": name, "sprite": sprite},
    )


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-")[:60].strip("-")
    return slug or "npc"


def _unique(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _sheet_for(npc_id: str, sheets: Sequence[str]) -> str:
    """One of the sheets, picked by the id: the same one every run."""
    digest = hashlib.sha256(npc_id.encode()).digest()
    ordered = sorted(sheets)
    return ordered[int.from_bytes(digest[:4], "big") % len(ordered)]


def _nearest_free(tile: Tile, size: tuple[int, int], blocked: set[Tile]) -> Tile | None:
    """The walkable tile nearest to `tile` (breadth first over the map), if any."""
    queue: deque[Tile] = deque([tile])
    seen = {tile}
    while queue:
        x, y = queue.popleft()
        if (x, y) not in blocked:
            return (x, y)
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nxt[0] < size[0] and 0 <= nxt[1] < size[1] and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return None


def _check_inside(path: Path, what: str, tile: Tile, w: int, h: int, blocked: set[Tile]) -> None:
    if not (0 <= tile[0] < w and 0 <= tile[1] < h):
        raise MapError(f"map {path}: {what} at {tile} lies outside the {w}x{h} map")
    if tile in blocked:
        raise MapError(f"map {path}: {what} stands on a blocked tile {tile}; move it")
