"""Tiled writers: TMX/TSX XML and TMJ/TSJ JSON, Tiled 1.10 flavour."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from .layouts import build_grids
from .map_objects import BoardDef, NpcDef, PlaceDef
from .palette import COLUMNS, TILE, Px
from .tileset import TILES, TileDef, gid

TILED_VERSION = "1.10.2"
FORMAT_VERSION = "1.10"
TILESET_NAME = "village_tiles"

Prop = tuple[str, str, str | bool | float]  # name, Tiled type ("string", "bool", "float"), value


@dataclass
class MapObject:
    """A Tiled object: a point (NPCs, spawn) or a rectangle (places)."""

    id: int
    name: str
    type: str
    x: int
    y: int
    width: int = 0
    height: int = 0
    point: bool = False
    props: list[Prop] = field(default_factory=list)


@dataclass
class Layer:
    """A tile layer (data) or an object group (objects)."""

    id: int
    name: str
    data: list[int] | None = None
    objects: list[MapObject] | None = None
    visible: bool = True


@dataclass
class MapSpec:
    """Everything written to a map file."""

    width: int
    height: int
    props: list[Prop]
    layers: list[Layer]

    @property
    def next_object_id(self) -> int:
        """One more than the largest object id."""
        ids = [o.id for layer in self.layers for o in layer.objects or []]
        return max(ids, default=0) + 1


def make_map(
    layout: str,
    name: str,
    description: str,
    npcs: tuple[NpcDef, ...],
    places: tuple[PlaceDef, ...],
    spawn: Px | None,
    with_npcs: bool = True,
    boards: tuple[BoardDef, ...] = (),
) -> MapSpec:
    """Assemble a map: ground, decor, collision, places, (boards), npcs, spawns."""
    grids = build_grids(layout)
    layers = [
        Layer(1, "ground", data=grids.ground),
        Layer(2, "decor", data=grids.decor),
        Layer(3, "collision", data=grids.collision, visible=False),
    ]
    next_id = 1
    place_objs = []
    for p in places:
        x, y, w, h = p.rect
        place_objs.append(
            MapObject(
                next_id,
                p.id,
                "place",
                x * TILE,
                y * TILE,
                w * TILE,
                h * TILE,
                props=[("description", "string", p.description)],
            )
        )
        next_id += 1
    layers.append(Layer(4, "places", objects=place_objs))
    if with_npcs:
        npc_objs = []
        for n in npcs:
            tx, ty = n.tile
            props: list[Prop] = [
                ("greeting", "string", n.greeting),
                ("home", "string", n.home),
                ("id", "string", n.id),
                ("name", "string", n.name),
                ("persona", "string", n.persona),
                ("sprite", "string", n.sprite),
            ]
            for key, value in (("work", n.work), ("plan", n.plan), ("wares", n.wares)):
                if value:
                    props.append((key, "string", value))
            npc_objs.append(
                MapObject(
                    next_id,
                    n.id,
                    "npc",
                    tx * TILE + TILE // 2,
                    ty * TILE + TILE // 2,
                    point=True,
                    props=props,
                )
            )
            next_id += 1
        layers.append(Layer(5, "npcs", objects=npc_objs))
    spawn_objs = []
    if spawn is not None:
        sx, sy = spawn
        spawn_objs.append(
            MapObject(
                next_id,
                "player_spawn",
                "spawn",
                sx * TILE + TILE // 2,
                sy * TILE + TILE // 2,
                point=True,
            )
        )
        next_id += 1
    layers.append(Layer(6, "spawns", objects=spawn_objs))
    for b in boards:
        bx, by = b.tile
        if grids.decor[by * grids.width + bx] != gid("notice_board"):
            raise ValueError(f"board {b.id!r} at {b.tile}: the layout has no notice board there")
    if boards:
        # The boards came after the other layers: the next layer and object ids, drawn
        # after the places. Each board is one tile, where the layout draws it.
        board_objs = [
            MapObject(
                next_id + i,
                b.id,
                "board",
                b.tile[0] * TILE,
                b.tile[1] * TILE,
                TILE,
                TILE,
                props=[("description", "string", b.description)],
            )
            for i, b in enumerate(boards)
        ]
        layers.insert(4, Layer(7, "boards", objects=board_objs))
    map_props: list[Prop] = [("description", "string", description), ("name", "string", name)]
    return MapSpec(grids.width, grids.height, map_props, layers)


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _xml_props(props: list[Prop], indent: str) -> list[str]:
    if not props:
        return []
    out = [f"{indent}<properties>"]
    for name, typ, value in sorted(props):
        if typ == "bool":
            out.append(
                f'{indent} <property name="{name}" type="bool" '
                f'value="{"true" if value else "false"}"/>'
            )
        elif typ == "float":
            out.append(f'{indent} <property name="{name}" type="float" value="{value:g}"/>')
        else:
            out.append(f'{indent} <property name="{name}" value="{_attr(str(value))}"/>')
    out.append(f"{indent}</properties>")
    return out


def _json_props(props: list[Prop]) -> list[dict[str, Any]]:
    return [{"name": n, "type": t, "value": v} for n, t, v in sorted(props)]


def write_tmx(spec: MapSpec, tileset_source: str) -> str:
    """Serialise a map as Tiled XML (CSV-encoded tile layers)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="{FORMAT_VERSION}" tiledversion="{TILED_VERSION}" '
        f'orientation="orthogonal" renderorder="right-down" width="{spec.width}" '
        f'height="{spec.height}" tilewidth="{TILE}" tileheight="{TILE}" infinite="0" '
        f'nextlayerid="{max(la.id for la in spec.layers) + 1}" '
        f'nextobjectid="{spec.next_object_id}">',
        *_xml_props(spec.props, " "),
        f' <tileset firstgid="1" source="{_attr(tileset_source)}"/>',
    ]
    for layer in spec.layers:
        if layer.data is not None:
            vis = "" if layer.visible else ' visible="0"'
            lines.append(
                f' <layer id="{layer.id}" name="{layer.name}" width="{spec.width}" '
                f'height="{spec.height}"{vis}>'
            )
            lines.append('  <data encoding="csv">')
            rows = [
                ",".join(str(g) for g in layer.data[y * spec.width : (y + 1) * spec.width])
                for y in range(spec.height)
            ]
            lines.append(",\n".join(rows))
            lines.append("</data>")
            lines.append(" </layer>")
        else:
            lines.append(f' <objectgroup id="{layer.id}" name="{layer.name}">')
            for o in layer.objects or []:
                size = f' width="{o.width}" height="{o.height}"' if not o.point else ""
                head = (
                    f'  <object id="{o.id}" name="{_attr(o.name)}" type="{o.type}" '
                    f'x="{o.x}" y="{o.y}"{size}'
                )
                body = _xml_props(o.props, "   ") + (["   <point/>"] if o.point else [])
                if body:
                    lines.append(head + ">")
                    lines.extend(body)
                    lines.append("  </object>")
                else:
                    lines.append(head + "/>")
            lines.append(" </objectgroup>")
    lines.append("</map>")
    return "\n".join(lines) + "\n"


def write_tmj(spec: MapSpec, tileset_source: str) -> str:
    """Serialise a map as Tiled JSON, with tile data laid out one map row per line."""
    layers: list[dict[str, Any]] = []
    rows_by_marker: dict[str, str] = {}
    for layer in spec.layers:
        if layer.data is not None:
            marker = f"@@DATA{layer.id}@@"
            rows_by_marker[f'"{marker}"'] = (
                "["
                + ",\n    ".join(
                    ",".join(str(g) for g in layer.data[y * spec.width : (y + 1) * spec.width])
                    for y in range(spec.height)
                )
                + "]"
            )
            layers.append(
                {
                    "data": marker,
                    "height": spec.height,
                    "id": layer.id,
                    "name": layer.name,
                    "opacity": 1,
                    "type": "tilelayer",
                    "visible": layer.visible,
                    "width": spec.width,
                    "x": 0,
                    "y": 0,
                }
            )
        else:
            objects = []
            for o in layer.objects or []:
                obj: dict[str, Any] = {
                    "height": o.height,
                    "id": o.id,
                    "name": o.name,
                }
                if o.point:
                    obj["point"] = True
                if o.props:
                    obj["properties"] = _json_props(o.props)
                obj.update(
                    {
                        "rotation": 0,
                        "type": o.type,
                        "visible": True,
                        "width": o.width,
                        "x": o.x,
                        "y": o.y,
                    }
                )
                objects.append(obj)
            layers.append(
                {
                    "draworder": "topdown",
                    "id": layer.id,
                    "name": layer.name,
                    "objects": objects,
                    "opacity": 1,
                    "type": "objectgroup",
                    "visible": layer.visible,
                    "x": 0,
                    "y": 0,
                }
            )
    doc = {
        "compressionlevel": -1,
        "height": spec.height,
        "infinite": False,
        "layers": layers,
        "nextlayerid": max(la.id for la in spec.layers) + 1,
        "nextobjectid": spec.next_object_id,
        "orientation": "orthogonal",
        "properties": _json_props(spec.props),
        "renderorder": "right-down",
        "tiledversion": TILED_VERSION,
        "tileheight": TILE,
        "tilesets": [{"firstgid": 1, "source": tileset_source}],
        "tilewidth": TILE,
        "type": "map",
        "version": FORMAT_VERSION,
        "width": spec.width,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    for marker, rows in rows_by_marker.items():
        text = text.replace(marker, rows)
    return text + "\n"


def tile_props(t: TileDef) -> list[Prop]:
    """Per-tile custom properties written to the tileset: every tile's name and walkable,
    and a tile's own extras (a lamp post's `lamp` and `radius`)."""
    extras: list[Prop] = [
        (key, "bool" if isinstance(value, bool) else "float", value) for key, value in t.props
    ]
    return [("name", "string", t.name), ("walkable", "bool", t.walkable), *extras]


def write_tsx(image_name: str, image_size: tuple[int, int]) -> str:
    """Serialise the tileset as Tiled XML."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="{FORMAT_VERSION}" tiledversion="{TILED_VERSION}" '
        f'name="{TILESET_NAME}" tilewidth="{TILE}" tileheight="{TILE}" '
        f'tilecount="{len(TILES)}" columns="{COLUMNS}">',
        f' <image source="{image_name}" width="{image_size[0]}" height="{image_size[1]}"/>',
    ]
    for i, t in enumerate(TILES):
        lines.append(f' <tile id="{i}">')
        lines.extend(_xml_props(tile_props(t), "  "))
        lines.append(" </tile>")
    lines.append("</tileset>")
    return "\n".join(lines) + "\n"


def write_tsj(image_name: str, image_size: tuple[int, int]) -> str:
    """Serialise the tileset as Tiled JSON."""
    doc = {
        "columns": COLUMNS,
        "image": image_name,
        "imageheight": image_size[1],
        "imagewidth": image_size[0],
        "margin": 0,
        "name": TILESET_NAME,
        "spacing": 0,
        "tilecount": len(TILES),
        "tiledversion": TILED_VERSION,
        "tileheight": TILE,
        "tiles": [{"id": i, "properties": _json_props(tile_props(t))} for i, t in enumerate(TILES)],
        "tilewidth": TILE,
        "type": "tileset",
        "version": FORMAT_VERSION,
    }
    return json.dumps(doc, indent=1) + "\n"
