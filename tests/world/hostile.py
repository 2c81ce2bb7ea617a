"""Hostile and clumsy maps, written into a folder: wrong types, sizes past the bounds,
files that are not files, images that are not images. Each `Case` builds one and says
what its one error line must contain; `test_map_bounds.py` loads them, and
`tests/cli/test_bad_maps.py` plays them through `run_game.py`."""

from __future__ import annotations

import base64
import gzip
import json
import os
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
TILES = ROOT / "assets" / "tiles"
TOO_BIG = 33 * 1024 * 1024  # past the 32 MiB bound of a map's files (a sparse file)


@dataclass(frozen=True)
class Case:
    """One bad map: `build(folder)` writes it and returns its path; its error line holds
    `expect`. `images`: only the game's loader (`load_game_map`) refuses it."""

    id: str
    build: Callable[[Path], Path]
    expect: str
    images: bool = False


def tiny_json() -> dict[str, Any]:
    """tiny.tmj, its tileset named by absolute path."""
    doc: dict[str, Any] = json.loads((MAPS / "tiny.tmj").read_text())
    doc["tilesets"][0]["source"] = str(TILES / "village_tiles.tsj")
    return doc


def tiny_xml() -> str:
    """tiny.tmx, its tileset named by absolute path."""
    return (MAPS / "tiny.tmx").read_text().replace("../assets", str(ROOT / "assets"))


def tmj(change: Callable[[dict[str, Any]], object]) -> Callable[[Path], Path]:
    """A builder of tiny.tmj as `change` leaves it."""

    def build(folder: Path) -> Path:
        doc = tiny_json()
        change(doc)
        path = folder / "bad.tmj"
        path.write_text(json.dumps(doc))
        return path

    return build


def tmx(old: str, new: str, count: int = 1) -> Callable[[Path], Path]:
    """A builder of tiny.tmx with `old` replaced by `new` (`count` times)."""

    def build(folder: Path) -> Path:
        text = tiny_xml()
        assert old in text, old
        path = folder / "bad.tmx"
        path.write_text(text.replace(old, new, count))
        return path

    return build


def layer(doc: dict[str, Any], name: str) -> dict[str, Any]:
    """A layer of a JSON map by name."""
    return next(x for x in doc["layers"] if x["name"] == name)


def obj(doc: dict[str, Any], layer_name: str) -> dict[str, Any]:
    """The first object of a JSON map's object layer."""
    return layer(doc, layer_name)["objects"][0]


def packed(tiles: int, compression: str = "zlib", members: int = 1) -> str:
    """`tiles` zero tiles as Tiled's base64 data: zlib, or gzip in `members` equal parts
    (one part packed once, then repeated: a few KB a member however much it unpacks to)."""
    if compression == "zlib":
        return base64.b64encode(zlib.compress(bytes(4 * tiles))).decode()
    return base64.b64encode(gzip.compress(bytes(4 * (tiles // members))) * members).decode()


def data_of(entry: dict[str, Any], tiles: int, compression: str = "zlib", members: int = 1) -> None:
    """Make a JSON tile layer hold `tiles` zero tiles, base64 and compressed."""
    entry.update(
        encoding="base64", compression=compression, data=packed(tiles, compression, members)
    )


def resized(doc: dict[str, Any], width: int, height: int) -> None:
    """The map and every tile layer declared `width` x `height` (their data as it is)."""
    doc.update(width=width, height=height)
    for entry in doc["layers"]:
        if entry["type"] == "tilelayer":
            entry.update(width=width, height=height)


def big_layers(count: int, width: int, height: int) -> Callable[[dict[str, Any]], None]:
    """A change: the map `width` x `height` with `count` full, zlib-packed tile layers."""

    def change(doc: dict[str, Any]) -> None:
        resized(doc, width, height)
        ground = layer(doc, "ground")
        doc["layers"] = [{**ground, "id": 100 + i, "name": f"ground{i}"} for i in range(count)] + [
            x for x in doc["layers"] if x["type"] != "tilelayer"
        ]
        for entry in doc["layers"][:count]:
            data_of(entry, width * height)

    return change


def many(kind: str, count: int) -> Callable[[dict[str, Any]], None]:
    """A change: `count` more layers, objects in places, or NPCs."""

    def change(doc: dict[str, Any]) -> None:
        if kind == "layers":
            empty = {**layer(doc, "spawns"), "objects": []}
            doc["layers"] += [{**empty, "id": 100 + i, "name": f"extra{i}"} for i in range(count)]
            return
        into = layer(doc, "npcs" if kind == "npcs" else "places")
        first = into["objects"][0]
        into["objects"] = [
            {**first, "id": 100 + i, "properties": [], "name": f"thing{i}"} for i in range(count)
        ]

    return change


def file_ref(where: str, target: Callable[[Path], Path]) -> Callable[[Path], Path]:
    """A builder of a map whose tileset (`where="tileset"`), an object's template
    (`"template"`) or whose template's tileset (`"template tileset"`) is `target(folder)`."""

    def build(folder: Path) -> Path:
        doc = tiny_json()
        aimed = str(target(folder))
        if where == "tileset":
            doc["tilesets"][0]["source"] = aimed
        else:
            template = {"type": "template", "object": {"name": "x", "point": True}}
            if where == "template tileset":
                template["tileset"] = {"firstgid": 1000, "source": aimed}
                aimed = str(folder / "made.tj")
                (folder / "made.tj").write_text(json.dumps(template))
            obj(doc, "places")["template"] = aimed
        path = folder / "bad.tmj"
        path.write_text(json.dumps(doc))
        return path

    return build


def dev_zero(folder: Path) -> Path:
    """/dev/zero: endless zeros."""
    return Path("/dev/zero")


def fifo(folder: Path) -> Path:
    """A FIFO nobody writes to: reading it would wait for ever."""
    path = folder / "pipe.tsj"
    os.mkfifo(path)
    return path


def huge(folder: Path) -> Path:
    """A sparse file past the bound of a map's files."""
    path = folder / "huge.tsj"
    with path.open("wb") as file:
        file.truncate(TOO_BIG)
    return path


def missing(folder: Path) -> Path:
    """A file that is not there."""
    return folder / "nowhere.tsj"


def directory(folder: Path) -> Path:
    """A folder where a file should be."""
    (folder / "adir").mkdir()
    return folder / "adir"


def image_map(image: Callable[[Path], Path], *, per_tile: bool = False) -> Callable[[Path], Path]:
    """A builder of tiny.tmj drawn from a tileset whose sheet (or, `per_tile`, one tile's
    own image, as in an image-collection tileset) is `image(folder)`."""

    def build(folder: Path) -> Path:
        sheet = json.loads((TILES / "village_tiles.tsj").read_text())
        sheet["image"] = str(TILES / "village_tiles.png")
        if per_tile:
            extra = {"id": 0, "image": str(image(folder)), "imagewidth": 32, "imageheight": 32}
            collection = {**sheet, "name": "props", "tiles": [extra], "tilecount": 1}
            collection.pop("image")
            (folder / "props.tsj").write_text(json.dumps(collection))
        else:
            sheet["image"] = str(image(folder))
        (folder / "sheet.tsj").write_text(json.dumps(sheet))
        doc = tiny_json()
        doc["tilesets"] = [{"firstgid": 1, "source": str(folder / "sheet.tsj")}]
        if per_tile:
            doc["tilesets"].append({"firstgid": 200, "source": str(folder / "props.tsj")})
        path = folder / "bad.tmj"
        path.write_text(json.dumps(doc))
        return path

    return build


def text_png(folder: Path) -> Path:
    """A text file named like a PNG."""
    path = folder / "tiles.png"
    path.write_text("these are not tiles\n")
    return path


def truncated_png(folder: Path) -> Path:
    """The village's sheet cut in half."""
    path = folder / "half.png"
    data = (TILES / "village_tiles.png").read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def png(width: int, height: int) -> Callable[[Path], Path]:
    """A real one-bit PNG of `width` x `height` pixels (small on disk, however large)."""

    def make(folder: Path) -> Path:
        path = folder / f"sheet{width}x{height}.png"
        Image.new("1", (width, height)).save(path)
        return path

    return make


def billion_laughs(folder: Path) -> Path:
    """tiny.tmx behind a DOCTYPE whose entities would expand to gigabytes."""
    levels = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10 if i else "lol"}">' for i in range(10))
    text = tiny_xml().replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE map [{levels}]>',
    )
    text = text.replace('value="Tinybrook"', 'value="&l9;"')
    path = folder / "bad.tmx"
    path.write_text(text)
    return path


def nested_json(folder: Path) -> Path:
    """A map that is a million nested and empty JSON arrays."""
    path = folder / "bad.tmj"
    path.write_text("[" + "[]," * 1_100_000 + "[]]")
    return path


def ground(data: str) -> Callable[[Path], Path]:
    """A builder of tiny.tmx whose ground layer (it declares 10x8) holds `data`, the
    <data> element as Tiled would write it."""

    def build(folder: Path) -> Path:
        text = tiny_xml()
        start = text.index("<data", text.index('name="ground"'))
        end = text.index("</data>", start) + len("</data>")
        path = folder / "bad.tmx"
        path.write_text(text[:start] + data + text[end:])
        return path

    return build


def csv(values: int) -> str:
    """A CSV layer's data of `values` tiles."""
    return f'<data encoding="csv">{",".join(["1"] * values)}</data>'


def base64_data(tiles: int, compression: str = "") -> str:
    """A base64 layer's data of `tiles` tiles, zlib-compressed or not."""
    if compression:
        return f'<data encoding="base64" compression="zlib">{packed(tiles)}</data>'
    raw = base64.b64encode(struct.pack(f"<{tiles}I", *[1] * tiles)).decode()
    return f'<data encoding="base64">{raw}</data>'


def npc_id(value: str) -> Callable[[dict[str, Any]], None]:
    """A change: the NPC's id property is `value`."""

    def change(doc: dict[str, Any]) -> None:
        props = obj(doc, "npcs")["properties"]
        next(p for p in props if p["name"] == "id")["value"] = value

    return change


TYPES = [
    Case("tmj-width-text", tmj(lambda d: d.update(width="abc")), "map's width is 'abc'"),
    Case("tmj-height-zero", tmj(lambda d: d.update(height=0)), "map's height is 0"),
    Case("tmj-width-half", tmj(lambda d: d.update(width=9.5)), "map's width is 9.5"),
    Case("tmj-width-true", tmj(lambda d: d.update(width=True)), "map's width is True"),
    Case("tmj-width-missing", tmj(lambda d: d.pop("width")), "map's width is missing"),
    Case("tmj-tile-width-zero", tmj(lambda d: d.update(tilewidth=0)), "tile width is 0"),
    Case("tmj-tile-height-minus", tmj(lambda d: d.update(tileheight=-32)), "tile height is -32"),
    Case(
        "tmj-tile-width-huge", tmj(lambda d: d.update(tilewidth=10**9)), "tile width is 1000000000"
    ),
    Case(
        "tmj-layer-width-text",
        tmj(lambda d: layer(d, "decor").update(width="10")),
        "width of layer 'decor' is '10'",
    ),
    Case(
        "tmj-layer-height-null",
        tmj(lambda d: layer(d, "ground").update(height=None)),
        "height of layer 'ground' is missing",
    ),
    Case(
        "tmj-layer-x-text",
        tmj(lambda d: layer(d, "collision").update(x="left")),
        "the x of layer 'collision' must be a number",
    ),
    Case(
        "tmj-object-x-text",
        tmj(lambda d: obj(d, "spawns").update(x="abc")),
        "the x of object 5 must be a number, not 'abc'",
    ),
    Case(
        "tmj-object-width-list",
        tmj(lambda d: obj(d, "places").update(width=[])),
        "the width of object 1 must be a number",
    ),
    Case(
        "tmj-object-y-infinite",
        tmj(lambda d: obj(d, "npcs").update(y=float("inf"))),
        "the y of object 4 must be a number",
    ),
    Case(
        "tmj-layer-name-number", tmj(lambda d: layer(d, "decor").update(name=5)), "cannot read map"
    ),
    Case("tmj-not-an-object", tmj(lambda d: d.clear()), "map's width is missing"),
    Case(
        "tmj-layer-data-text",
        tmj(lambda d: layer(d, "decor").update(data="abc")),
        "a value of the wrong kind",
    ),
    Case(
        "tmj-layer-data-holds-text",
        tmj(lambda d: layer(d, "collision")["data"].__setitem__(3, "wall")),
        "a value of the wrong kind",
    ),
    Case(
        "tmx-width-text",
        tmx('width="10" height="8" tilewidth', 'width="abc" height="8" tilewidth'),
        "map's width is 'abc'",
    ),
    Case("tmx-tile-width-zero", tmx('tilewidth="32"', 'tilewidth="0"'), "tile width is 0"),
    Case("tmx-tile-height-minus", tmx('tileheight="32"', 'tileheight="-1"'), "tile height is -1"),
    Case(
        "tmx-layer-height-text",
        tmx('name="decor" width="10" height="8"', 'name="decor" width="10" height="eight"'),
        "height of layer 'decor' is 'eight'",
    ),
    Case("tmx-object-x-text", tmx('x="80" y="176"', 'x="eighty" y="176"'), "the x of object 5"),
    Case("tmx-object-x-inf", tmx('x="80" y="176"', 'x="1e999" y="176"'), "the x of object 5"),
    Case("tmx-a-tileset-not-a-map", lambda f: TILES / "village_tiles.tsx", "not a Tiled map"),
]
IDS = [
    Case(f"npc-id-{i}", tmj(npc_id(value)), "NPC id")
    for i, value in enumerate(["tobin\n", "tobin\r\n", "Tobin", "to bin", "t" * 65, "tobin\n\n"])
]
SIZES = [
    Case("tmj-map-100000-square", tmj(lambda d: resized(d, 100_000, 100_000)), "100000x100000"),
    Case("tmj-map-1001x1000", tmj(big_layers(1, 1001, 1000)), "1001x1000 tiles"),
    Case("tmj-map-1x1000001", tmj(lambda d: resized(d, 1, 1_000_001)), "map's height is 1000001"),
    Case(
        "tmj-zlib-layer-past-its-size",
        tmj(lambda d: data_of(layer(d, "ground"), 100_000)),
        "layer 'ground' holds more than its 10x8 tiles",
    ),
    Case(
        "tmj-zlib-100000-square-in-a-small-file",
        tmj(lambda d: (resized(d, 100_000, 100_000), data_of(layer(d, "ground"), 1_000_000))),
        "100000x100000",
    ),
    Case(
        "tmj-gzip-second-member-bomb",
        tmj(lambda d: data_of(layer(d, "ground"), 160, "gzip", members=2)),
        "holds more than its 10x8 tiles",
    ),
    Case(
        "tmj-array-past-its-size",
        tmj(lambda d: layer(d, "decor").update(data=[1] * 81)),
        "layer 'decor' holds more than its 10x8 tiles",
    ),
    Case(
        "tmj-zstd",
        tmj(lambda d: layer(d, "decor").update(encoding="base64", compression="zstd", data="")),
        "zstd-compressed",
    ),
    Case("tmj-five-full-layers", tmj(big_layers(5, 1000, 1000)), "more than 4,000,000 tiles"),
    Case(
        "tmj-gzip-bomb-4-gib",
        tmj(lambda d: data_of(layer(d, "ground"), 2**30, "gzip", members=1024)),
        "layer 'ground' holds more than its 10x8 tiles",
    ),
    Case("tmx-zlib-past-its-size", ground(base64_data(500_000, "zlib")), "more than its 10x8"),
    Case("tmx-csv-past-its-size", ground(csv(5000)), "more than its 10x8 tiles"),
    Case("tmx-base64-past-its-size", ground(base64_data(81)), "more than its 10x8 tiles"),
    Case(
        "tmx-map-100000-square",
        tmx('width="10" height="8" tilewidth', 'width="100000" height="100000" tilewidth'),
        "100000x100000",
    ),
    Case("tmx-infinite", tmx('infinite="0"', 'infinite="1"'), "is infinite"),
    Case("tmj-infinite", tmj(lambda d: d.update(infinite=True)), "is infinite"),
    Case("tmx-billion-laughs", billion_laughs, "DOCTYPE"),
    Case("tmj-nested-arrays", nested_json, "more than 1,000,000 JSON objects and arrays"),
    Case("tmj-65-layers", tmj(many("layers", 59)), "more than 64 layers"),
    Case("tmj-10001-objects", tmj(many("objects", 10_001)), "more than 10,000 objects"),
    Case("tmj-1001-npcs", tmj(many("npcs", 1001)), "more than 1,000 NPCs"),
]
FILES = [
    Case("map-is-dev-zero", lambda f: Path("/dev/zero"), "/dev/zero is not a regular file"),
    Case("map-is-a-fifo", fifo, "is not a regular file"),
    Case("map-is-a-folder", directory, "is a directory"),
    Case("map-is-huge", huge, "more than the 32.0 MB"),
    Case("tileset-dev-zero", file_ref("tileset", dev_zero), "tileset /dev/zero is not a regular"),
    Case("tileset-fifo", file_ref("tileset", fifo), "pipe.tsj is not a regular file"),
    Case("tileset-huge", file_ref("tileset", huge), "more than the 32.0 MB"),
    Case("tileset-missing", file_ref("tileset", missing), "tileset not found"),
    Case(
        "template-dev-zero", file_ref("template", dev_zero), "template /dev/zero is not a regular"
    ),
    Case("template-huge", file_ref("template", huge), "more than the 32.0 MB"),
    Case(
        "template-tileset-dev-zero",
        file_ref("template tileset", dev_zero),
        "/dev/zero is not a regular",
    ),
    Case("template-tileset-fifo", file_ref("template tileset", fifo), "is not a regular file"),
]
IMAGES = [
    Case("image-is-text", image_map(text_png), "is not an image", images=True),
    Case("image-missing", image_map(missing), "image not found", images=True),
    Case("image-dev-zero", image_map(dev_zero), "/dev/zero is not a regular file", images=True),
    Case("image-folder", image_map(directory), "is a directory", images=True),
    Case("image-huge-file", image_map(huge), "more than the 32.0 MB", images=True),
    Case("image-truncated", image_map(truncated_png), "is not an image", images=True),
    Case("image-9000-wide", image_map(png(9000, 8)), "is 9000x8 pixels", images=True),
    Case("image-10000x9000", image_map(png(10_000, 9_000)), "too many pixels", images=True),
    Case("image-20000x10000", image_map(png(20_000, 10_000)), "too many pixels", images=True),
    Case("tile-image-is-text", image_map(text_png, per_tile=True), "is not an image", images=True),
]
CASES = TYPES + IDS + SIZES + FILES + IMAGES
