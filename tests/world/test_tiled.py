from __future__ import annotations

from pathlib import Path

import pytest

from game.world.tiled import MapError, load_map

MAPS = Path(__file__).resolve().parents[2] / "maps"


@pytest.mark.parametrize("name", ["village.tmx", "village.tmj"])
def test_village_loads_in_both_formats(name: str) -> None:
    data = load_map(MAPS / name)
    assert (data.width, data.height) >= (40, 30)
    assert data.name == "Hollowbrook"
    assert len(data.npcs) >= 3
    for npc in data.npcs:
        assert npc.name and npc.persona and npc.greeting and npc.sprite
        assert npc.tile not in data.blocked
    assert data.player_spawn not in data.blocked
    assert {"forge", "bakery", "well"} <= set(data.places)
    assert data.blocked, "walls and water must block"


def test_both_formats_agree() -> None:
    tmx, tmj = load_map(MAPS / "village.tmx"), load_map(MAPS / "village.tmj")
    assert tmx.blocked == tmj.blocked
    assert tmx.npcs == tmj.npcs
    assert tmx.places == tmj.places
    assert tmx.player_spawn == tmj.player_spawn


def test_water_and_houses_block_and_paths_do_not() -> None:
    data = load_map(MAPS / "village.tmx")
    pond = data.places["pond"]
    assert pond.center in data.blocked
    assert data.places["well"].center in data.blocked
    assert data.places["plaza"].contains(data.player_spawn)
    # The map border is closed.
    assert all((x, 0) in data.blocked for x in range(data.width))


def test_map_without_npcs_layer_loads_empty() -> None:
    data = load_map(MAPS / "broken" / "no_npcs.tmx")
    assert data.npcs == []


def test_map_without_spawn_names_what_is_missing() -> None:
    with pytest.raises(MapError, match="no player_spawn"):
        load_map(MAPS / "broken" / "no_spawn.tmx")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="not found"):
        load_map(tmp_path / "nowhere.tmx")


@pytest.mark.parametrize("content", ["<map><layer", "not xml at all", ""])
def test_broken_file_is_one_clear_error(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "bad.tmx"
    bad.write_text(content)
    with pytest.raises(MapError) as info:
        load_map(bad)
    assert str(bad) in str(info.value)
    assert "\n" not in str(info.value)


def test_broken_json_map(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tmj"
    bad.write_text('{"width": 3')
    with pytest.raises(MapError, match="cannot read map"):
        load_map(bad)


def test_npc_missing_properties_is_named(tmp_path: Path) -> None:
    text = (MAPS / "tiny.tmx").read_text().replace('name="greeting"', 'name="greetingx"')
    src = tmp_path / "tiny.tmx"
    src.write_text(text.replace("../assets", str(MAPS.parent / "assets")))
    with pytest.raises(MapError, match="lacks greeting"):
        load_map(src)
