"""What a map may hold, checked before pytiled_parser reads any of it.

pytiled_parser reads a map, and the tilesets and templates it names, whole, and unpacks
a layer's zlib or gzip data whole: a FIFO would hang it, /dev/zero fill the memory, and a
small file unpack to gigabytes. So `check_map_file` comes first. The map and every file
it names must be a regular file of at most `MAX_FILE_BYTES`, with at most `MAX_NODES`
XML elements or JSON objects and arrays. What they declare is read without building them
(XML by a streaming parse that refuses a DOCTYPE, so no entity is ever expanded; JSON
as it is): the map's and its layers' sizes must be whole numbers within the bounds below,
a layer's data must hold no more tiles than its size (compressed data is unpacked only
that far), positions must be numbers, and layers, objects and NPCs are counted. Each
breach is one `MapError` naming the file and the bound.
"""

from __future__ import annotations

import base64
import binascii
import math
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from json import loads
from pathlib import Path
from typing import Any, TypeVar

from game.files import BadFile, check_regular, mb, os_reason, read_capped
from game.limits import MAX_LAYER_TILES, MAX_TILE_PX
from game.limits import MAX_MAP_FILE_BYTES as MAX_FILE_BYTES
from game.limits import MAX_MAP_LAYERS as MAX_LAYERS
from game.limits import MAX_MAP_NODES as MAX_NODES
from game.limits import MAX_MAP_NPCS as MAX_NPCS
from game.limits import MAX_MAP_OBJECTS as MAX_OBJECTS
from game.limits import MAX_MAP_TILES as MAX_TILES
from game.world.errors import MapError

_LAYERS = ("layer", "objectgroup", "imagelayer", "group")
_LAYER_NUMBERS = ("x", "y", "offsetx", "offsety", "opacity")
_OBJECT_NUMBERS = ("x", "y", "width", "height", "rotation")
_T = TypeVar("_T")


@dataclass
class _TileLayer:
    name: str
    width: Any
    height: Any
    encoding: str = ""  # "" (a JSON array, or XML <tile> elements), "csv" or "base64"
    compression: str = ""
    data: str = ""  # base64 text
    values: int = 0  # tiles in an array, a CSV or <tile> elements


@dataclass
class Outline:
    """What a Tiled file declares, read without building it."""

    root: str = ""  # the XML root's tag ("map" for a map); "" for JSON
    fields: Mapping[str, Any] = field(default_factory=dict)  # the root's own attributes
    tile_layers: list[_TileLayer] = field(default_factory=list)
    layers: int = 0
    objects: int = 0
    npcs: int = 0
    tilesets: list[str] = field(default_factory=list)  # external tilesets' `source`
    templates: list[str] = field(default_factory=list)  # objects' `template`


def check_file(path: Path, what: str) -> None:
    """A file a map is or names must be a regular file of at most `MAX_FILE_BYTES`; `what`
    says what it is in a message ("map", "map X: tileset")."""
    _bounded(check_regular, path, what)


def _bounded(use: Callable[[Path, int], _T], path: Path, what: str) -> _T:
    """`use(path, MAX_FILE_BYTES)` (`check_regular`, `read_capped`), its refusals as
    `MapError`s naming `what`."""
    try:
        return use(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise MapError(f"{what} not found: {path}; check the path") from None
    except BadFile as exc:
        raise MapError(
            f"{what} {exc}; a map and every file it names must be a regular file of at "
            f"most {mb(MAX_FILE_BYTES)}"
        ) from None
    except OSError as exc:
        raise MapError(f"cannot read {what} {path}: {os_reason(exc)}") from None


def check_map_file(path: Path) -> None:
    """Check a map file, what it declares, and every file it names, before anything reads
    them whole (see the module); `MapError` at the first breach."""
    outline = _outline(path, "map")
    if outline.root not in ("", "map"):
        raise MapError(f"cannot read map {path}: it is a <{outline.root}>, not a Tiled map")
    _check_outline(path, outline)
    for source in dict.fromkeys(outline.tilesets):
        _outline(path.parent / source, f"map {path}: tileset")
    for source in dict.fromkeys(outline.templates):
        template = path.parent / source
        inner = _outline(template, f"map {path}: template")
        for tileset in dict.fromkeys(inner.tilesets):
            _outline(template.parent / tileset, f"map {path}: template {template}'s tileset")


def _outline(path: Path, what: str) -> Outline:
    """Read a Tiled file's outline: XML if it starts with "<" (as pytiled_parser decides),
    else JSON. `what` says what the file is in a message."""
    raw = _bounded(read_capped, path, what)
    where = f"{what} {path}"
    try:
        if raw.lstrip()[:1] == b"<":
            tags = _Tags(where)
            parser = ET.XMLParser(target=tags)
            parser.feed(raw)
            parser.close()
            return tags.outline
        if raw.count(b"{") + raw.count(b"[") > MAX_NODES:
            raise MapError(f"{where} has more than {MAX_NODES:,} JSON objects and arrays")
        return _json_outline(where, loads(raw))
    except (ET.ParseError, ValueError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise MapError(f"cannot read {where}: {reason}") from None


def _numbers(
    where: str,
    what: str,
    keys: tuple[str, ...],
    raw: Mapping[str, Any],
    read: Callable[[str], Any] | None = None,
) -> None:
    """The `keys` of `raw` that are there must be numbers (`read`: from XML's text)."""
    for key in keys:
        if key not in raw:
            continue
        value = raw[key] if read is None else read(raw[key])
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise MapError(
                f"{where}: the {key} of {what} must be a number, not {value!r}; fix it in Tiled"
            )


def _xml_number(text: str | None) -> Any:
    """An XML attribute as the number it spells, else as it is (refused later)."""
    if text is None:
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


class _Tags:
    """A parser target for a .tmx (or .tsx, .tx): notes what the outline needs from the
    start tags and keeps no tree. `where` names the file in a message."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.outline = Outline()
        self.stack: list[str] = []
        self.nodes = 0
        self.group = ""  # the name of the object layer we are in
        self.text: list[str] | None = None  # a layer's data, while in it

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        """Note one start tag."""
        out, parent = self.outline, self.stack[-1] if self.stack else ""
        self.stack.append(tag)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise MapError(f"{self.where} has more than {MAX_NODES:,} XML elements")
        if not parent:
            out.root = tag
            out.fields = {k: _xml_number(v) for k, v in attrib.items()}
        elif parent in ("map", "group") and tag in _LAYERS:
            out.layers += 1
            name = attrib.get("name", "")
            _numbers(self.where, f"layer {name!r}", _LAYER_NUMBERS, attrib, _xml_number)
            if tag == "layer":
                width, height = attrib.get("width"), attrib.get("height")
                out.tile_layers.append(_TileLayer(name, _xml_number(width), _xml_number(height)))
            self.group = name if tag == "objectgroup" else ""
            _stop_early(self.where, out)
        elif tag == "data" and parent == "layer" and out.tile_layers:
            layer = out.tile_layers[-1]
            layer.encoding = attrib.get("encoding", "")
            layer.compression = attrib.get("compression", "")
            self.text = [] if layer.encoding else None
        elif tag == "tile" and parent == "data" and out.tile_layers:
            out.tile_layers[-1].values += 1
        elif tag == "object":
            out.objects += 1
            if parent == "objectgroup" and self.group.lower() == "npcs":
                out.npcs += 1
            what = f"object {attrib.get('id', '?')}"
            _numbers(self.where, what, _OBJECT_NUMBERS, attrib, _xml_number)
            if attrib.get("template"):
                out.templates.append(attrib["template"])
            _stop_early(self.where, out)
        elif tag == "tileset" and attrib.get("source"):
            out.tilesets.append(attrib["source"])

    def end(self, tag: str) -> None:
        """Leave a tag; a layer's data is kept (base64) or counted (CSV)."""
        self.stack.pop()
        if tag == "data" and self.text is not None:
            layer, text = self.outline.tile_layers[-1], "".join(self.text)
            if layer.encoding == "csv":
                layer.values = text.count(",") + 1 if text.strip() else 0
            else:
                layer.data = text
            self.text = None

    def data(self, text: str) -> None:
        """Text: kept only inside a layer's data."""
        if self.text is not None:
            self.text.append(text)

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        """A DOCTYPE could declare entities that expand to gigabytes: Tiled writes none."""
        raise MapError(f"{self.where} has a DOCTYPE, which Tiled never writes; save it in Tiled")

    def close(self) -> None:
        """The end of the file."""


def _json_outline(where: str, doc: Any) -> Outline:
    if not isinstance(doc, dict):
        raise ValueError("not a Tiled map (not a JSON object)")
    out = Outline(fields=doc)
    for tileset in [*_list(doc.get("tilesets")), doc.get("tileset")]:
        if isinstance(tileset, dict) and isinstance(tileset.get("source"), str):
            out.tilesets.append(tileset["source"])
    todo = list(reversed(_list(doc.get("layers"))))
    while todo:
        layer = todo.pop()
        if not isinstance(layer, dict) or not isinstance(layer.get("name", ""), str):
            raise ValueError("a layer is not a JSON object with a name")
        out.layers += 1
        name = layer.get("name", "")
        _numbers(where, f"layer {name!r}", _LAYER_NUMBERS, layer)
        if layer.get("type") == "tilelayer":
            data = layer.get("data")
            out.tile_layers.append(
                _TileLayer(
                    name,
                    layer.get("width"),
                    layer.get("height"),
                    str(layer.get("encoding") or ""),
                    str(layer.get("compression") or ""),
                    data if isinstance(data, str) else "",
                    len(data) if isinstance(data, list) else 0,
                )
            )
        for obj in _list(layer.get("objects")):
            if not isinstance(obj, dict) or not isinstance(obj.get("name", ""), str):
                raise ValueError(f"an object of layer {name!r} is not a JSON object with a name")
            out.objects += 1
            if name.lower() == "npcs":
                out.npcs += 1
            _numbers(where, f"object {obj.get('id', '?')}", _OBJECT_NUMBERS, obj)
            if isinstance(obj.get("template"), str):
                out.templates.append(obj["template"])
            _stop_early(where, out)
        todo.extend(reversed(_list(layer.get("layers"))))
        _stop_early(where, out)
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _stop_early(where: str, out: Outline) -> None:
    """Counts past their bounds end the read at once."""
    for count, most, what in (
        (out.layers, MAX_LAYERS, "layers"),
        (out.objects, MAX_OBJECTS, "objects"),
        (out.npcs, MAX_NPCS, "NPCs (objects in the npcs layer)"),
    ):
        if count > most:
            raise MapError(f"{where} has more than {most:,} {what}; a map may have at most that")


def _whole(path: Path, what: str, value: Any, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= most:
        given = "is missing" if value is None else f"is {value!r}"
        raise MapError(f"map {path}: {what} {given}; it must be a whole number from 1 to {most:,}")
    return value


def _check_outline(path: Path, out: Outline) -> None:
    fields = out.fields
    if fields.get("infinite") in (True, 1):
        raise MapError(f"map {path} is infinite; save it as a fixed-size map in Tiled")
    width = _whole(path, "the map's width", fields.get("width"), MAX_LAYER_TILES)
    height = _whole(path, "the map's height", fields.get("height"), MAX_LAYER_TILES)
    _whole(path, "the tile width", fields.get("tilewidth"), MAX_TILE_PX)
    _whole(path, "the tile height", fields.get("tileheight"), MAX_TILE_PX)
    _check_tiles(path, "the map", width, height)
    total = 0
    for layer in out.tile_layers:
        what = f"layer {layer.name!r}"
        w = _whole(path, f"the width of {what}", layer.width, MAX_LAYER_TILES)
        h = _whole(path, f"the height of {what}", layer.height, MAX_LAYER_TILES)
        _check_tiles(path, what, w, h)
        total += w * h
        if total > MAX_TILES:
            raise MapError(
                f"map {path}: its tile layers hold more than {MAX_TILES:,} tiles together; "
                "use fewer or smaller layers"
            )
        if _tiles_in(path, layer, w * h) > w * h:
            raise MapError(
                f"map {path}: {what} holds more than its {w}x{h} tiles; save it again in Tiled"
            )


def _check_tiles(path: Path, what: str, width: int, height: int) -> None:
    if width * height > MAX_LAYER_TILES:
        raise MapError(
            f"map {path}: {what} is {width}x{height} tiles; a map may have at most "
            f"{MAX_LAYER_TILES:,} tiles a layer (1000x1000)"
        )


def _tiles_in(path: Path, layer: _TileLayer, most: int) -> int:
    """How many tiles a layer's data holds, counting no further than one past `most`:
    compressed data is unpacked only that far, every gzip member counted (pytiled_parser
    unpacks them all)."""
    if layer.encoding != "base64":
        return layer.values
    if layer.compression not in ("", "zlib", "gzip"):
        raise MapError(
            f"map {path}: layer {layer.name!r} is {layer.compression}-compressed; save it "
            "as CSV or zlib"
        )
    try:
        packed = base64.b64decode(layer.data)
        if not layer.compression:
            return len(packed) // 4
        size, limit = 0, most * 4 + 4
        while packed and size <= limit:
            unpack = zlib.decompressobj(47)  # zlib or gzip, as the header says
            size += len(unpack.decompress(packed, limit + 1 - size))
            packed = unpack.unused_data if unpack.eof else b""
    except (binascii.Error, zlib.error) as exc:
        raise MapError(f"cannot read map {path}: layer {layer.name!r}: {exc}") from None
    return size // 4
