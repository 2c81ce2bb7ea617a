from __future__ import annotations

from pathlib import Path

import pytest

from game.limits import MAX_NPC_PROPERTIES, MAX_NPC_PROPERTY_CHARS, NPC_TEXT_CHARS
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
    assert data.warnings == ["map no_npcs.tmx: no object layer named npcs; it plays without NPCs"]


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


def tiny_with_npcs(tmp_path: Path, objects: str, name: str = "hamlet.tmx") -> Path:
    """tiny.tmx with its npcs layer holding `objects` (Tiled <object> elements)."""
    text = (MAPS / "tiny.tmx").read_text().replace("../assets", str(MAPS.parent / "assets"))
    start = text.index('<objectgroup id="5" name="npcs">')
    end = text.index("</objectgroup>", start)
    text = text[:start] + f'<objectgroup id="5" name="npcs">{objects}' + text[end:]
    path = tmp_path / name
    path.write_text(text)
    return path


def npc(obj_id: int, x: int, y: int, label: str = "", **props: str) -> str:
    """An NPC point object named `label` on tile (x, y), with custom properties."""
    rows = "".join(f'<property name="{k}" value="{v}"/>' for k, v in props.items())
    return (
        f'<object id="{obj_id}" name="{label}" x="{x * 32 + 16}" y="{y * 32 + 16}">'
        f"<properties>{rows}</properties><point/></object>"
    )


SHEETS = ("baker", "child", "elder", "fisher", "merchant", "smith")


def test_an_npc_needs_only_a_place_and_a_name(tmp_path: Path) -> None:
    path = tiny_with_npcs(
        tmp_path,
        npc(10, 3, 4, "Hilda")
        + npc(11, 4, 4, "Olaf", sprite="dragon", persona="Olaf fishes.", greeting="Hej.")
        + npc(12, 5, 4, "ignored", name="Hilda"),  # the name property wins
    )
    data = load_map(path, sheets=SHEETS)
    hilda, olaf, other = data.npcs
    assert (hilda.npc_id, hilda.name, hilda.greeting) == ("hilda", "Hilda", "")
    assert "Hilda" in hilda.persona and hilda.sprite in SHEETS
    assert (other.npc_id, other.name) == ("hilda-2", "Hilda")
    assert olaf.sprite in SHEETS and olaf.persona == "Olaf fishes."
    assert load_map(path, sheets=SHEETS).npcs == data.npcs  # the same sheet every run
    assert len(data.warnings) == 3  # one line an NPC
    first = data.warnings[0]
    assert first.startswith("map hamlet.tmx: NPC 'Hilda' has no id, persona, greeting, sprite")
    assert "using id 'hilda'" in first and "custom properties" in first
    assert "sprite 'dragon' that is not in assets/characters" in data.warnings[1]


def test_an_npc_on_a_blocked_tile_starts_on_the_nearest_walkable_one(tmp_path: Path) -> None:
    data = load_map(tiny_with_npcs(tmp_path, npc(10, 2, 2, "Wall")))  # (2, 2) is house wall
    (wall,) = data.npcs
    assert wall.tile not in data.blocked
    assert abs(wall.tile[0] - 2) + abs(wall.tile[1] - 2) == 1
    assert "blocked tile (2, 2)" in data.warnings[0] and f"{wall.tile}" in data.warnings[0]


@pytest.mark.parametrize(
    ("objects", "expected"),
    [
        (
            npc(10, 3, 4, "A", id="same") + npc(11, 4, 4, "B", id="same"),
            "NPC object 10 ('A') and NPC object 11 ('B') share the id 'same'",
        ),
        (npc(10, 30, 4, "Far"), "NPC 'Far' at (30, 4) lies outside the 10x8 map"),
        (npc(10, 3, 4), "NPC object 10 in layer npcs has no name"),
        (npc(10, 3, 4, "Bad", id="Not Ok"), "NPC id 'Not Ok' must be"),
    ],
)  # fmt: skip
def test_what_cannot_play_is_one_line_naming_it(
    tmp_path: Path, objects: str, expected: str
) -> None:
    with pytest.raises(MapError) as info:
        load_map(tiny_with_npcs(tmp_path, objects))
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_zlib_compressed_base64_layers_read_as_csv_ones(tmp_path: Path) -> None:
    import base64
    import re
    import struct
    import zlib

    text = (MAPS / "tiny.tmx").read_text().replace("../assets", str(MAPS.parent / "assets"))

    def packed(found: re.Match[str]) -> str:
        gids = [int(g) for g in found.group(1).replace("\n", "").split(",")]
        raw = zlib.compress(struct.pack(f"<{len(gids)}I", *gids))
        return f'<data encoding="base64" compression="zlib">{base64.b64encode(raw).decode()}</data>'

    compressed = re.sub(r'<data encoding="csv">(.*?)</data>', packed, text, flags=re.S)
    assert "csv" not in compressed
    (tmp_path / "packed.tmx").write_text(compressed)
    plain, packed_map = load_map(MAPS / "tiny.tmx"), load_map(tmp_path / "packed.tmx")
    assert packed_map.blocked == plain.blocked and packed_map.npcs == plain.npcs


def test_a_maps_words_reach_the_game_without_control_characters(tmp_path: Path) -> None:
    import json

    from .crowd import crowd_map, prop

    data = crowd_map(2)
    npcs = data["layers"][3]["objects"]
    npcs[0]["name"] = "Vil\x1b]0;pwned\x07la"
    npcs[0]["properties"] = [
        prop("persona", "Keeps bees.\x1b[2J Likes\r quiet\x00."),
        prop("greeting", "Hi\x9b31m!"),
    ]
    data["layers"][2]["objects"][0]["name"] = "gr\x1b[Heen"
    path = tmp_path / "words.tmj"
    path.write_text(json.dumps(data))
    npc = load_map(path).npcs[0]
    place = next(iter(load_map(path).places.values()))
    shown = [npc.name, npc.persona, npc.greeting, place.name, place.description]
    assert shown[:4] == ["Vil]0;pwnedla", "Keeps bees.[2J Likes quiet.", "Hi31m!", "gr[Heen"]
    assert not [ch for text in shown for ch in text if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0]


# --- an NPC's text within its bounds ---------------------------------------------------

MB = 1024 * 1024


@pytest.mark.parametrize("prop", ["persona", "greeting", "wares", "plan", "home", "my_notes"])
def test_a_long_npc_property_is_cut_with_one_line_naming_it(tmp_path: Path, prop: str) -> None:
    bound = NPC_TEXT_CHARS.get(prop, MAX_NPC_PROPERTY_CHARS)
    long = "honey cakes and " * (MB // 16)
    path = tiny_with_npcs(tmp_path, npc(10, 3, 4, "Olaf", id="olaf", **{prop: long}))
    data = load_map(path, sheets=SHEETS)
    [olaf] = data.npcs
    kept = {"persona": olaf.persona, "greeting": olaf.greeting}.get(prop, olaf.properties[prop])
    assert kept == long[:bound]
    lines = [w for w in data.warnings if "only the first" in w]
    assert lines == [
        f"map hamlet.tmx: NPC 'Olaf': its {prop} has {len(long):,} characters; "
        f"only the first {bound:,} are kept"
    ]


@pytest.mark.parametrize("where", ["object name", "name property"])
def test_a_long_npc_name_is_cut(tmp_path: Path, where: str) -> None:
    long = "Olaf " + "the Very Long " * 80_000
    obj = npc(10, 3, 4, long) if where == "object name" else npc(10, 3, 4, "x", name=long)
    data = load_map(tiny_with_npcs(tmp_path, obj), sheets=SHEETS)
    [olaf] = data.npcs
    bound = NPC_TEXT_CHARS["name"]
    assert olaf.name == long[:bound].strip() and olaf.properties["name"] == olaf.name
    assert olaf.npc_id == "olaf-the-very-long-the-very-long-the-ver" and olaf.name in olaf.persona
    [line] = [w for w in data.warnings if "its name" in w]
    assert line.endswith(f"its name has {len(long) - 1:,} characters; only the first 40 are kept")
    assert max(len(w) for w in data.warnings) < 400


def test_an_npc_with_countless_properties_keeps_the_ones_the_game_reads(tmp_path: Path) -> None:
    many = {f"p{i}": "x" for i in range(200)}
    odd = {"n" * 65: "named too long"}
    obj = npc(10, 3, 4, "Olaf", **many, **odd, persona="Olaf fishes.", wares="eels")
    data = load_map(tiny_with_npcs(tmp_path, obj), sheets=SHEETS)
    [olaf] = data.npcs
    assert olaf.persona == "Olaf fishes." and olaf.properties["wares"] == "eels"
    assert len(olaf.properties) <= MAX_NPC_PROPERTIES + 2  # id and sprite made up
    assert "n" * 65 not in olaf.properties
    [line] = [w for w in data.warnings if "left out" in w]
    assert f"past the {MAX_NPC_PROPERTIES} kept" in line and len(line) < 400


def test_npc_text_at_its_bounds_is_kept_whole(tmp_path: Path) -> None:
    given = {prop: "y" * bound for prop, bound in NPC_TEXT_CHARS.items() if prop != "plan"}
    given["name"] = "Olaf" + "y" * (NPC_TEXT_CHARS["name"] - 4)
    given["description"] = "d" * MAX_NPC_PROPERTY_CHARS
    data = load_map(tiny_with_npcs(tmp_path, npc(10, 3, 4, "x", **given)), sheets=SHEETS)
    [olaf] = data.npcs
    assert (olaf.name, olaf.persona, olaf.greeting) == (
        given["name"],
        given["persona"],
        given["greeting"],
    )
    assert olaf.properties["wares"] == given["wares"]
    assert olaf.properties["description"] == given["description"]
    assert not [w for w in data.warnings if "characters" in w]
