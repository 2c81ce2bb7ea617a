"""The images a map draws from are bounded in total, not only one by one: six sheets of
8192x8192 (each within its own bound) would decode to gigabytes. The map is refused in
one MapError line naming the images and the bound, before any window opens."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from game.assets import load_game_map
from game.limits import MAX_IMAGE_PX, MAX_MAP_IMAGE_PIXELS
from game.world.errors import MapError
from tests.world.hostile import TILES, tiny_json

ROOT = Path(__file__).resolve().parents[2]


def _sheet_map(folder: Path, sides: list[int]) -> tuple[Path, list[Path]]:
    """tiny.tmj drawn from the village's tileset and one more tileset per side in `sides`,
    each a real square PNG of that side written by PIL (blank: small on disk)."""
    doc = tiny_json()
    village = json.loads((TILES / "village_tiles.tsj").read_text())
    village["image"] = str(TILES / "village_tiles.png")
    (folder / "village.tsj").write_text(json.dumps(village))
    doc["tilesets"] = [{"firstgid": 1, "source": str(folder / "village.tsj")}]
    images = []
    firstgid = 1000
    for i, side in enumerate(sides):
        image = folder / f"big{i}.png"
        Image.new("1", (side, side)).save(image)
        images.append(image)
        columns = side // 32
        sheet = {
            "name": f"big{i}", "image": str(image), "imagewidth": side, "imageheight": side,
            "tilewidth": 32, "tileheight": 32, "columns": columns,
            "tilecount": columns * columns, "margin": 0, "spacing": 0,
            "type": "tileset", "version": village.get("version", "1.10"),
            "tiledversion": village.get("tiledversion", "1.10.2"),
        }  # fmt: skip
        (folder / f"big{i}.tsj").write_text(json.dumps(sheet))
        doc["tilesets"].append({"firstgid": firstgid, "source": str(folder / f"big{i}.tsj")})
        firstgid += columns * columns
    path = folder / "sheets.tmj"
    path.write_text(json.dumps(doc))
    return path, images


def test_six_sheets_of_the_largest_side_are_one_line(tmp_path: Path) -> None:
    path, images = _sheet_map(tmp_path, [MAX_IMAGE_PX] * 6)
    with pytest.raises(MapError) as info:
        load_game_map(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    assert f"{MAX_MAP_IMAGE_PIXELS:,} pixels" in message  # the bound
    assert f"{6 * MAX_IMAGE_PX**2 + 256 * 384:,}" in message  # what they add up to
    assert images[0].name in message  # the images are named (the largest first)


def test_images_up_to_the_total_bound_load(tmp_path: Path) -> None:
    # The village's sheet and one more image with it, together just within the bound.
    side = int((MAX_MAP_IMAGE_PIXELS - 256 * 384) ** 0.5) // 32 * 32
    path, images = _sheet_map(tmp_path, [side])
    data = load_game_map(path)
    assert images[0] in data.images
    assert side * side + 256 * 384 <= MAX_MAP_IMAGE_PIXELS


def test_two_sheets_each_within_its_bound_are_refused_together(tmp_path: Path) -> None:
    # Two sheets of the largest side: each within its own bound, the two past the total.
    path, _ = _sheet_map(tmp_path, [MAX_IMAGE_PX, MAX_IMAGE_PX // 2])
    assert MAX_IMAGE_PX**2 <= MAX_MAP_IMAGE_PIXELS < MAX_IMAGE_PX**2 * 5 // 4 + 256 * 384
    with pytest.raises(MapError, match="in all"):
        load_game_map(path)


def test_the_game_refuses_such_a_map_in_one_line_before_any_window(tmp_path: Path) -> None:
    path, _ = _sheet_map(tmp_path, [MAX_IMAGE_PX] * 6)
    out = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "--headless", "--frames", "1",
         "--provider", "scripted", "--map", str(path), "--saves-dir", str(tmp_path / "saves")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.returncode == 2
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith(f"error: map {path}:") and "pixels in all" in line
    assert not (tmp_path / "saves").exists() or not any((tmp_path / "saves").iterdir())
