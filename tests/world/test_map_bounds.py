"""Hostile and clumsy maps end in one `MapError` line naming the file (and the bound),
before anything reads them whole; maps at the bounds still load."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from game.assets import load_game_map
from game.world import tiled_check
from game.world.tiled import MapError, load_map
from tests.world import hostile
from tests.world.hostile import CASES, Case


def one_line(case: Case, path: Path, load: Callable[[Path], object] = load_map) -> str:
    """The one line `load(path)` fails with, checked to say what `case` expects and to
    name the map."""
    with pytest.raises(MapError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert case.expect in message, message
    assert str(path) in message, "the map is named"
    return message


@pytest.mark.parametrize("case", [c for c in CASES if not c.images], ids=lambda c: c.id)
def test_a_bad_map_is_one_line_naming_it(case: Case, tmp_path: Path) -> None:
    one_line(case, case.build(tmp_path))


@pytest.mark.parametrize("case", [c for c in CASES if c.images], ids=lambda c: c.id)
def test_a_map_whose_image_is_bad_is_one_line_before_any_window(case: Case, tmp_path: Path) -> None:
    path = case.build(tmp_path)
    assert load_map(path).images  # the world names the images; the game's loader reads them
    assert "image" in one_line(case, path, load_game_map)


def test_the_bounds_are_named_in_their_errors(tmp_path: Path) -> None:
    messages = []
    for case in CASES:
        if case.id in ("tmj-map-1001x1000", "tmj-1001-npcs", "map-is-huge", "tmj-65-layers"):
            (tmp_path / case.id).mkdir()
            messages.append(one_line(case, case.build(tmp_path / case.id)))
    for bound in ("1,000,000 tiles a layer", "1,000 NPCs", "32.0 MB", "64 layers"):
        assert any(bound in m for m in messages), bound


def test_the_images_a_map_draws_from_are_collected(tmp_path: Path) -> None:
    data = load_map(hostile.MAPS / "village.tmx")
    assert data.images == [hostile.TILES / "village_tiles.png"]
    tile_image = hostile.png(32, 32)(tmp_path)
    collection = hostile.image_map(lambda folder: tile_image, per_tile=True)(tmp_path)
    assert load_game_map(collection).images == [hostile.TILES / "village_tiles.png", tile_image]


def test_maps_at_the_bounds_still_load(tmp_path: Path) -> None:
    doc = hostile.tiny_json()
    hostile.big_layers(1, 1000, 1000)(doc)  # 1,000,000 tiles: a layer's whole bound
    hostile.many("layers", tiled_check.MAX_LAYERS - len(doc["layers"]))(doc)  # 64 layers
    (tmp_path / "big.tmj").write_text(json.dumps(doc))
    data = load_map(tmp_path / "big.tmj")
    assert (data.width, data.height) == (1000, 1000) and len(data.tile_layers) == 1


def test_a_500_by_500_map_with_a_thousand_npcs_loads(tmp_path: Path) -> None:
    from tests.world.crowd import crowd_map

    doc = crowd_map(tiled_check.MAX_NPCS, size=(500, 500))
    (tmp_path / "wide.tmj").write_text(json.dumps(doc))
    data = load_game_map(tmp_path / "wide.tmj")
    assert (data.width, data.height, len(data.npcs)) == (500, 500, 1000)
