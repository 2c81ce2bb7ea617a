"""Format 2: a slot keeps the village's day (the time of day, news, boards, feelings), and
a slot of format 1 still loads, in the morning, with an empty village life."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.limits import SLOT_FILE_BYTES
from game.save import salvage
from game.save.errors import ArchiveError, FormatTooNew
from game.save.format import FORMAT_VERSION, migrate
from game.save.layout import slot_files
from game.save.life import Life, snapshot_life
from game.save.slot_io import read_slot, write_slot
from game.save.transfer import export_slot, import_slot
from game.save.world_state import restore_world, snapshot_world
from game.village import Village
from game.world.board import PUBLIC
from game.world.news import Heard, News
from game.world.tiled import load_map
from game.world.world import World

from .conftest import VILLAGE

DATA = Path(__file__).parent / "data"
LIFE = ("news.json", "board.json", "feelings.json")


def fresh_world() -> World:
    return World(load_map(VILLAGE))


def notice_board(world: World) -> str:
    assert world.notice_boards, "the village map has a notice board"
    return next(iter(world.notice_boards))


def live_a_day(world: World) -> None:
    """News told and passed on, a post on the map's board and one on a private board,
    feelings moved: what a day in the village leaves."""
    book = world.news
    key = book.add(News("n-key", "lost", "player", "Ada", "a red key", "well", key="key"))
    fair = book.add(
        News("n-fair", "event", "player", "Ada", "a harvest fair", "plaza", "tomorrow at noon",
             12.0, "fair", clock=3.0)
    )  # fmt: skip
    assert book.learn("tobin", Heard(key.news_id, "player", "Ada", 2.0, "bakery"), 21.0)
    assert book.learn("brenna", Heard(key.news_id, "tobin", "Tobin", 4.0, "forge"), 21.1)
    assert book.learn("brenna", Heard(fair.news_id, "tobin", "Tobin", 5.0, "forge", "earshot"))
    book.mark_told("tobin", "brenna", key.news_id)
    board = notice_board(world)
    world.board.post(board, "brenna", "Lost: a red key.", author_name="Brenna",
                     about=key.news_id, clock=6.0, hour=21.2)  # fmt: skip
    pair = world.board.ensure_board(("brenna", "tobin"))
    world.board.post(pair, "tobin", "The fair is tomorrow.", about=fair.news_id, clock=7.0)
    world.feelings.change("tobin", "player", 0.3, "told me her name", name="Ada", clock=2.0)
    world.feelings.change("brenna", "tobin", -0.2, "gossiped", name="Tobin", clock=4.0)


def same_life(a: World, b: World) -> None:
    assert b.news.news == a.news.news and b.news.passes == a.news.passes
    assert b.news.told == a.news.told
    for npc_id in ("tobin", "brenna", "maren"):
        assert b.news.known_by(npc_id) == a.news.known_by(npc_id)
    assert b.board.boards == a.board.boards
    assert b.feelings.of == a.feelings.of


def night_world() -> World:
    world = fresh_world()
    world.day.set_hour(21)
    live_a_day(world)
    return world


def saved_slot(saves: Path, slot: str = "s1") -> World:
    world = night_world()
    result = write_slot(saves, slot, snapshot_world(world), life=snapshot_life(world))
    assert result.ok and not result.warnings, result
    return world


# --- format 1 -> 2 ---------------------------------------------------------------------


def test_the_migration_adds_the_morning_to_world_json() -> None:
    world = {"format": 1, "map_id": "village", "player": {"tile": [1, 2]}}
    assert migrate("world", world) == ({**world, "format": 2, "time_minutes": 0.0}, 1)
    assert migrate("meta", {"format": 1, "name": "x"}) == ({"format": 2, "name": "x"}, 1)
    assert migrate("world", {"map_id": "v"})[0]["time_minutes"] == 0.0  # from format 0 too


def test_a_format_1_slot_loads_in_the_morning_and_saves_as_format_2(
    open_village: Callable[..., Village], saves: Path
) -> None:
    shutil.copytree(DATA / "golden_v1", saves / "old")
    assert json.loads((saves / "old" / "world.json").read_text())["format"] == 1
    data = read_slot(saves, "old")
    assert data.migrated_from == 1 and not data.warnings and not data.from_backup
    assert data.world is not None and data.world.time_minutes == 0.0
    assert data.life.news.news == {} and data.life.boards == {} and data.life.feelings == {}

    village = open_village("old")
    world = village.world
    assert world.day.hour == 8.0 and world.day.day == 1
    assert world.player.tile == (12, 16) and world.clock == 754.25
    assert not world.news.news and not world.news.known and not world.feelings.of
    assert all(not b.posts for b in world.board.boards.values())
    assert set(world.board.boards) == set(world.notice_boards)

    assert village.save().result(timeout=10).ok
    slot = saves / "old"
    assert json.loads((slot / "meta.json").read_text())["format"] == FORMAT_VERSION == 2
    saved = json.loads((slot / "world.json").read_text())
    assert saved["format"] == 2 and saved["time_minutes"] == 0.0
    for name in LIFE:
        assert json.loads((slot / name).read_text())["format"] == 2
    again = read_slot(saves, "old")
    assert again.migrated_from is None and not again.warnings


# --- save and load at night ------------------------------------------------------------


def test_a_night_in_the_village_saves_and_loads(
    open_village: Callable[..., Village], saves: Path
) -> None:
    village = open_village("night")
    world = village.world
    world.day.set_hour(21)
    live_a_day(world)
    assert village.save().result(timeout=10).ok
    for name in LIFE:
        assert (saves / "night" / name).is_file()

    loaded = fresh_world()
    data = restore_world(loaded, saves, "night")
    assert not data.warnings
    assert loaded.day.hour == pytest.approx(21.0) and loaded.day.text() == "Day 1, 9:00 pm"
    same_life(world, loaded)
    heard = loaded.news.known_by("brenna")
    assert [(n.news_id, h.source, h.how) for n, h in heard] == [
        ("n-fair", "tobin", "earshot"),
        ("n-key", "tobin", "told"),
    ]
    assert [(p.source, p.to) for p in loaded.news.passes] == [
        ("player", "tobin"),
        ("tobin", "brenna"),
        ("tobin", "brenna"),
    ]
    posts = loaded.board.read(notice_board(loaded))
    assert [(p.author, p.text, p.hour) for p in posts] == [("brenna", "Lost: a red key.", 21.2)]
    assert loaded.feelings.about("brenna", "tobin").value == -0.2  # type: ignore[union-attr]
    # The next post keeps counting on.
    assert loaded.board.post(notice_board(loaded), "maren", "Found: a glove.").index == 1


def test_a_load_puts_back_the_saved_day_over_the_one_in_play(
    open_village: Callable[..., Village], saves: Path
) -> None:
    village = open_village("a")
    keeper = village.saves
    assert keeper is not None
    world = village.world
    world.day.set_hour(21)
    live_a_day(world)
    expected = fresh_world()
    live_a_day(expected)
    assert keeper.save().result(timeout=10).ok
    assert keeper.save(slot="b").result(timeout=10).ok  # play on in "b"
    world.day.set_hour(6)
    world.news.add(News("n-new", "found", "player", "Ada", "a glove"))
    world.board.post(notice_board(world), "pip", "Found: a glove.")
    world.feelings.change("pip", "player", 0.5, "gave me a sweet", clock=9.0)
    result = keeper.load("a")
    assert result.ok and not result.warnings, result
    assert world.day.hour == pytest.approx(21.0)
    same_life(expected, world)


def test_the_snapshot_is_a_copy_the_world_cannot_change() -> None:
    world = fresh_world()
    live_a_day(world)
    life = snapshot_life(world)
    world.board.post(notice_board(world), "pip", "Found: a glove.")
    world.news.learn("maren", Heard("n-key", "brenna", "Brenna", 9.0))
    world.news.mark_told("brenna", "maren", "n-key")
    world.feelings.change("tobin", "player", 0.5, "brought flour", clock=9.0)
    assert len(life.boards[notice_board(world)].posts) == 1
    assert "maren" not in life.news.known and len(life.news.passes) == 3
    assert "brenna>maren" not in life.news.told
    assert life.feelings["tobin"]["player"].value == 0.3


# --- damage ----------------------------------------------------------------------------


DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(
    "content",
    [
        b"{broken",
        b"[]",
        b"\xff\xfe",
        b'{"format": 2, "news": ' + DEEP + b"}",
        DEEP,
        b'{"format": "two"}',
    ],
)
def test_a_news_file_that_cannot_be_read_is_one_warning_and_kept_by_the_next_save(
    saves: Path, content: bytes
) -> None:
    played = saved_slot(saves)
    (saves / "s1" / "news.json").write_bytes(content)
    loaded = fresh_world()
    data = restore_world(loaded, saves, "s1")
    assert len(data.warnings) == 1 and "news.json is damaged" in data.warnings[0]
    assert "news.json.damaged" in data.warnings[0] and "\n" not in data.warnings[0]
    assert not loaded.news.news and not loaded.news.known and not loaded.news.passes
    assert loaded.board.boards == played.board.boards
    assert loaded.feelings.of == played.feelings.of
    assert loaded.day.hour == pytest.approx(21.0)
    assert data.world is not None and data.world.player.tile == played.player.tile
    # The save that follows keeps the file it could not read, then writes the new one.
    result = write_slot(saves, "s1", snapshot_world(loaded), life=snapshot_life(loaded))
    assert result.ok and len(result.warnings) == 1, result
    assert "kept as news.json.damaged" in result.warnings[0]
    assert (saves / "s1" / "news.json.damaged").read_bytes() == content
    assert not read_slot(saves, "s1").warnings


def _bad_news_kind(files: dict[str, Any]) -> None:
    files["news.json"]["news"]["n-bad"] = {"kind": "gossip", "origin": "pip", "subject": "x"}


def _long_post(files: dict[str, Any]) -> None:
    posts = next(iter(files["board.json"]["boards"].values()))["posts"]
    posts.append({**posts[0], "index": 7, "text": "y" * 2001})


def _strong_feeling(files: dict[str, Any]) -> None:
    files["feelings.json"]["of"]["tobin"]["pip"] = {"value": 1.0000001, "reason": "x"}


def _bad_heard(files: dict[str, Any]) -> None:
    files["news.json"]["known"]["maren"] = {"n-key": {"source": "tobin", "how": "shouted"}}


def _nan_pass(files: dict[str, Any]) -> None:
    files["news.json"]["passes"].append({"news_id": "n", "source": "a", "to": "b", "hour": None})


def _board_of_nobody(files: dict[str, Any]) -> None:
    files["board.json"]["boards"]["b-empty"] = {"participants": [], "posts": []}


def _deep_record(files: dict[str, Any]) -> None:
    files["feelings.json"]["of"]["pip"] = {"tobin": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]}


@pytest.mark.parametrize(
    ("name", "spoil"),
    [
        ("news.json", _bad_news_kind),
        ("board.json", _long_post),
        ("feelings.json", _strong_feeling),
        ("news.json", _bad_heard),
        ("news.json", _nan_pass),
        ("board.json", _board_of_nobody),
        ("feelings.json", _deep_record),
    ],
)
def test_a_bad_record_costs_that_record_not_the_file(
    saves: Path, name: str, spoil: Callable[[dict[str, Any]], None]
) -> None:
    played = saved_slot(saves)
    slot = saves / "s1"
    files = {n: json.loads((slot / n).read_text()) for n in LIFE}
    spoil(files)
    (slot / name).write_text(json.dumps(files[name]))

    loaded = fresh_world()
    data = restore_world(loaded, saves, "s1")
    assert len(data.warnings) == 1, data.warnings
    warning = data.warnings[0]
    assert re.search(rf"1 of \d+ records of {re.escape(name)} \(", warning), warning
    assert f"{name}.rejected" in warning and "\n" not in warning
    same_life(played, loaded)  # every other record is there

    # The next save keeps the bad record aside, as it was, and writes the rest.
    result = write_slot(saves, "s1", snapshot_world(loaded), life=snapshot_life(loaded))
    assert result.ok and len(result.warnings) == 1 and f"{name}.rejected" in result.warnings[0]
    aside = [json.loads(line) for line in (slot / f"{name}.rejected").read_text().splitlines()]
    assert len(aside) == 1 and aside[0]["reason"]
    assert _found(aside[0]["record"], files[name])
    again = fresh_world()
    assert not restore_world(again, saves, "s1").warnings
    same_life(played, again)
    # Saved again: nothing is set aside twice.
    before = (slot / f"{name}.rejected").read_bytes()
    assert write_slot(saves, "s1", snapshot_world(again), life=snapshot_life(again)).ok
    assert (slot / f"{name}.rejected").read_bytes() == before


def _found(record: Any, tree: Any) -> bool:
    """Whether `record` is a value somewhere in the JSON `tree`."""
    if tree == record:
        return True
    children = tree.values() if isinstance(tree, dict) else tree if isinstance(tree, list) else []
    return any(_found(record, child) for child in children)


def test_a_record_the_game_cannot_save_is_set_aside_not_the_file(saves: Path) -> None:
    world = night_world()
    world.news.add(News("n-long", "wares", "pip", "Pip", "silk " * 1000, "market"))
    result = write_slot(saves, "s1", snapshot_world(world), life=snapshot_life(world))
    assert result.ok and len(result.warnings) == 1
    assert "1 record of news.json" in result.warnings[0]
    assert 'news["n-long"]' in result.warnings[0] and "news.json.rejected" in result.warnings[0]
    aside = json.loads((saves / "s1" / "news.json.rejected").read_text())
    assert aside["record"]["subject"] == "silk " * 1000
    data = read_slot(saves, "s1")
    assert not data.warnings
    assert set(data.life.news.news) == set(world.news.news) - {"n-long"}


def test_the_rejected_file_keeps_the_newest_records_within_its_bound(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(salvage, "MAX_REJECTED_BYTES", 5000)  # two records
    world = night_world()
    for i in range(12):
        world.news.add(News(f"n-long-{i}", "wares", "pip", "Pip", f"{i} " + "x" * 2001))
        assert write_slot(saves, "s1", snapshot_world(world), life=snapshot_life(world)).ok
    rejected = (saves / "s1" / "news.json.rejected").read_bytes()
    assert len(rejected) <= 5000
    kept = [json.loads(line)["where"] for line in rejected.splitlines()]
    assert kept == ['news["n-long-10"]', 'news["n-long-11"]']


def test_the_set_aside_files_do_not_travel_in_an_export(saves: Path, tmp_path: Path) -> None:
    saved_slot(saves)
    slot = saves / "s1"
    (slot / "news.json.rejected").write_text("{}\n")
    (slot / "board.json.damaged").write_text("{broken")
    (slot / "world.json.damaged").write_text("{broken")
    files = export_slot(saves, "s1", tmp_path / "s1.zip")
    assert not [f for f in files if f.endswith((".rejected", ".damaged"))]
    with zipfile.ZipFile(tmp_path / "planted.zip", "w") as zf:
        zf.writestr("s1/meta.json", (slot / "meta.json").read_bytes())
        zf.writestr("s1/news.json.rejected", "{}\n")
    with pytest.raises(ArchiveError, match=r"news\.json\.rejected' is not a save file"):
        import_slot(tmp_path / "other", tmp_path / "planted.zip")


def test_an_over_bound_board_file_is_never_read(saves: Path) -> None:
    played = saved_slot(saves)
    with open(saves / "s1" / "board.json", "r+b") as f:
        f.truncate(SLOT_FILE_BYTES["board.json"] + 1)  # sparse: 4 MB that cost nothing to write
    loaded = fresh_world()
    data = restore_world(loaded, saves, "s1")
    assert len(data.warnings) == 1 and "board.json is damaged" in data.warnings[0]
    assert "4.0 MB" in data.warnings[0]
    assert all(not b.posts for b in loaded.board.boards.values())
    assert set(loaded.board.boards) == set(loaded.notice_boards)
    same = (loaded.news.news, loaded.news.passes, loaded.feelings.of)
    assert same == (played.news.news, played.news.passes, played.feelings.of)


def test_a_life_file_of_a_newer_game_refuses_the_slot(saves: Path) -> None:
    saved_slot(saves)
    path = saves / "s1" / "feelings.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "format": FORMAT_VERSION + 1}))
    with pytest.raises(FormatTooNew, match=r"feelings\.json was saved by a newer version"):
        read_slot(saves, "s1")


def test_what_the_next_load_would_refuse_is_never_written(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_slot(saves)
    before = (saves / "s1" / "news.json").read_bytes()
    monkeypatch.setitem(SLOT_FILE_BYTES, "news.json", 100)
    world = night_world()
    result = write_slot(saves, "s1", snapshot_world(world), life=snapshot_life(world))
    assert result.ok and len(result.warnings) == 1
    assert "news.json was not saved" in result.warnings[0]
    assert (saves / "s1" / "news.json").read_bytes() == before


def test_a_save_without_a_life_leaves_its_files_alone(saves: Path) -> None:
    world = saved_slot(saves)
    before = {name: (saves / "s1" / name).read_bytes() for name in LIFE}
    assert write_slot(saves, "s1", snapshot_world(world)).ok
    assert {name: (saves / "s1" / name).read_bytes() for name in LIFE} == before
    assert read_slot(saves, "s1").life.feelings == snapshot_life(world).feelings


def test_a_saved_notice_board_the_map_lost_is_skipped_with_a_warning(saves: Path) -> None:
    world = saved_slot(saves)
    world.board.ensure_board((PUBLIC,), board_id="old_board", name="old_board", tile=(1, 1))
    world.board.post("old_board", "pip", "Gone.")
    assert write_slot(saves, "s1", snapshot_world(world), life=snapshot_life(world)).ok
    loaded = fresh_world()
    data = restore_world(loaded, saves, "s1")
    assert data.warnings == [
        "the notice board 'old_board' is in the save but not on this map: its 1 posts are skipped"
    ]
    assert "old_board" not in loaded.board.boards
    assert loaded.board.read(notice_board(loaded))[0].text == "Lost: a red key."


# --- export and import -----------------------------------------------------------------


def test_export_and_import_carry_the_village_life(saves: Path, tmp_path: Path) -> None:
    played = saved_slot(saves)
    archive = tmp_path / "s1.zip"
    files = export_slot(saves, "s1", archive)
    assert set(LIFE) <= set(files) and set(files) == set(slot_files(saves / "s1"))
    with zipfile.ZipFile(archive) as zf:
        assert {f"s1/{name}" for name in LIFE} <= set(zf.namelist())
    other = tmp_path / "other"
    slot, imported = import_slot(other, archive, "copy")
    assert slot == "copy" and set(LIFE) <= set(imported)
    for name in LIFE:
        assert (other / "copy" / name).read_bytes() == (saves / "s1" / name).read_bytes()
    loaded = fresh_world()
    assert not restore_world(loaded, other, "copy").warnings
    same_life(played, loaded)


def test_an_import_refuses_a_newer_life_file_and_takes_a_damaged_one(
    saves: Path, tmp_path: Path
) -> None:
    saved_slot(saves)
    meta = (saves / "s1" / "meta.json").read_bytes()
    newer = tmp_path / "newer.zip"
    with zipfile.ZipFile(newer, "w") as zf:
        zf.writestr("s1/meta.json", meta)
        zf.writestr("s1/board.json", json.dumps({"format": FORMAT_VERSION + 1}))
    with pytest.raises(FormatTooNew, match=r"board\.json"):
        import_slot(tmp_path / "a", newer)
    damaged = tmp_path / "damaged.zip"
    with zipfile.ZipFile(damaged, "w") as zf:
        zf.writestr("s1/meta.json", meta)
        zf.writestr("s1/board.json", b"{broken")
    assert import_slot(tmp_path / "b", damaged)[0] == "s1"
    data = read_slot(tmp_path / "b", "s1")
    assert [w for w in data.warnings if "board.json is damaged" in w]
    assert data.life == Life()
