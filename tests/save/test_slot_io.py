"""One slot on disk: atomic writes, repairs, migrations and refusals."""

from __future__ import annotations

import errno
import json
import logging
import os
from pathlib import Path

import pytest

from game.agent.events import UserMessage
from game.agent.store import SessionStore
from game.atomic import write_atomic
from game.save.catalog import count_events, list_slots
from game.save.errors import FormatTooNew, SaveError
from game.save.format import FORMAT_VERSION, PlayerState, SavedWorld, SlotMeta, migrate
from game.save.slot_io import read_slot, write_slot
from game.save.thumbnail import Frame, encode_png, png_size


def world(clock: float = 1.0, facing: str = "down") -> SavedWorld:
    return SavedWorld(
        map_id="village",
        clock=clock,
        player=PlayerState(tile=(4, 5), facing=facing, name="Ada"),  # type: ignore[arg-type]
        npcs={},
    )


def saved(saves: Path, slot: str = "s1", clock: float = 1.0) -> Path:
    result = write_slot(saves, slot, world(clock))
    assert result.ok, result.message
    return saves / slot


def test_write_then_read_round_trips(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    store.append("tobin", UserMessage(text="hi"))
    store.append("tobin", UserMessage(text="again"))
    result = write_slot(saves, "s1", world(7.5), store=store, name="My game")
    assert result.ok and result.sessions == {"tobin": 2}
    data = read_slot(saves, "s1")
    assert data.exists and not data.warnings and not data.from_backup
    assert data.world is not None and data.world.player.tile == (4, 5)
    assert data.world.sessions == {"tobin": 2}
    assert data.meta.name == "My game" and data.meta.play_time_s == 7.5
    assert data.meta.format == FORMAT_VERSION and data.meta.player_name == "Ada"
    created = data.meta.created
    write_slot(saves, "s1", world(9.0))
    again = read_slot(saves, "s1")
    assert again.meta.created == created and again.meta.name == "My game"
    assert again.meta.updated >= created


def test_a_missing_slot_reads_as_a_fresh_one(saves: Path) -> None:
    data = read_slot(saves, "new")
    assert not data.exists and data.world is None and data.meta.name == "new"


@pytest.mark.parametrize("bad", ["../x", "/abs", "", "x" * 65, "Upper", "a/b"])
def test_slot_names_are_validated(saves: Path, bad: str) -> None:
    with pytest.raises(ValueError, match="invalid slot name"):
        read_slot(saves, bad)
    result = write_slot(saves, bad, world())
    assert not result.ok and "invalid slot name" in result.message
    assert list(saves.iterdir()) == []


def test_a_broken_world_json_falls_back_to_the_backup(saves: Path) -> None:
    slot = saved(saves, clock=1.0)
    write_slot(saves, "s1", world(2.0))
    (slot / "world.json").write_bytes(b'{"format": 1, "map_id": "vil')
    data = read_slot(saves, "s1")
    assert data.from_backup and data.world is not None and data.world.clock == 1.0
    assert len(data.warnings) == 1
    assert data.warnings[0].startswith("slot 's1': world.json is damaged (not valid JSON")
    assert "loaded the previous save (world.json.bak)" in data.warnings[0]
    # The damaged file never replaces the good backup, and is kept beside it.
    assert write_slot(saves, "s1", world(3.0)).ok
    assert json.loads((slot / "world.json.bak").read_text())["clock"] == 1.0
    assert (slot / "world.json.damaged").read_bytes() == b'{"format": 1, "map_id": "vil'


def test_a_missing_world_json_falls_back_to_the_backup(saves: Path) -> None:
    slot = saved(saves, clock=1.0)
    write_slot(saves, "s1", world(2.0))
    # What a kill between the two renames of a save leaves behind.
    (slot / "world.json").unlink()
    data = read_slot(saves, "s1")
    assert data.from_backup and data.world is not None and data.world.clock == 1.0
    assert "world.json is missing" in data.warnings[0]


def test_both_world_files_broken_means_map_positions(saves: Path) -> None:
    slot = saved(saves)
    (slot / "world.json").write_text("garbage")
    (slot / "world.json.bak").write_text("[1, 2]")
    data = read_slot(saves, "s1")
    assert data.world is None
    assert "everyone starts at their map position" in data.warnings[0]


@pytest.mark.parametrize(
    "content", [b"", b'{"format": 1, "name": "x"', b"\x00\xff\xfe", b"[]", b'{"format": "one"}']
)
def test_a_damaged_meta_json_is_a_warning(saves: Path, content: bytes) -> None:
    slot = saved(saves, clock=5.0)
    (slot / "meta.json").write_bytes(content)
    data = read_slot(saves, "s1")
    assert data.world is not None and data.meta.play_time_s == 5.0
    assert len(data.warnings) == 1 and "meta.json is damaged" in data.warnings[0]
    assert "\n" not in data.warnings[0]
    info = list_slots(saves)[0]
    assert info.loadable and info.warnings
    assert write_slot(saves, "s1", world()).ok  # the next save rewrites it
    assert not read_slot(saves, "s1").warnings


def test_newer_formats_are_refused_with_a_clear_message(saves: Path) -> None:
    slot = saved(saves)
    raw = json.loads((slot / "meta.json").read_text())
    (slot / "meta.json").write_text(json.dumps({**raw, "format": FORMAT_VERSION + 1}))
    with pytest.raises(FormatTooNew, match="newer version of the game"):
        read_slot(saves, "s1")
    (slot / "meta.json").write_text(json.dumps(raw))
    w = json.loads((slot / "world.json").read_text())
    (slot / "world.json").write_text(json.dumps({**w, "format": FORMAT_VERSION + 1}))
    with pytest.raises(FormatTooNew):
        read_slot(saves, "s1")
    infos = list_slots(saves)
    assert infos[0].error is not None and "newer" in infos[0].error


def test_a_first_version_slot_is_migrated(saves: Path) -> None:
    store = SessionStore(saves, "old")
    store.append("tobin", UserMessage(text="from the first version"))
    store.close()
    data = read_slot(saves, "old")
    assert data.migrated_from == 0 and data.world is None and not data.warnings
    assert migrate("meta", {"name": "x"}) == ({"name": "x", "format": FORMAT_VERSION}, 0)
    assert list_slots(saves)[0].format == 0


def test_garbage_in_a_slot_is_ignored(saves: Path) -> None:
    slot = saved(saves)
    (slot / "notes.txt").write_text("hello")
    (slot / "npcs" / "Bad Name").mkdir(parents=True)
    (slot / "npcs" / "tobin" / "session").mkdir(parents=True)
    (slot / "npcs" / "tobin" / "session" / "events.jsonl").write_bytes(b"\x00garbage\n")
    (slot / "world_summary.txt").write_bytes(os.urandom(64) + b"x" * 20000)
    (saves / "Not A Slot").mkdir()
    (saves / "stray.txt").write_text("x")
    data = read_slot(saves, "s1")
    assert data.world is not None
    assert any("ignoring 'Bad Name'" in w for w in data.warnings)
    assert any("world_summary.txt is long" in w for w in data.warnings)
    assert len(data.world_summary) <= 8000
    assert [i.slot for i in list_slots(saves)] == ["s1"]


def test_a_huge_events_file_loads_with_a_warning(saves: Path) -> None:
    slot = saved(saves)
    path = slot / "npcs" / "tobin" / "session" / "events.jsonl"
    path.parent.mkdir(parents=True)
    line = UserMessage(text="x" * 200, seq=1, ts=1.0).model_dump_json().encode() + b"\n"
    with open(path, "wb") as f:
        for seq in range(1, 20001):
            f.write(line.replace(b'"seq":1', b'"seq":%d' % seq))
    data = read_slot(saves, "s1", large_log_bytes=1024 * 1024)
    assert any("session log is" in w and "may be slow" in w for w in data.warnings)
    assert count_events(path) == 20000
    store = SessionStore(saves, "s1")
    assert store.next_seq("tobin") == 20001 and len(store.recent("tobin")) == 256


def test_a_failed_atomic_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.json"
    write_atomic(path, b"old")

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        write_atomic(path, b"new", backup=True)
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


def test_save_failure_is_a_value_not_an_exception(
    saves: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    saved(saves)

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with caplog.at_level(logging.ERROR):
        result = write_slot(saves, "s1", world(9.0))
    assert not result.ok
    assert result.message.startswith("could not save slot 's1': the disk is full")
    assert read_slot(saves, "s1").world.clock == 1.0  # type: ignore[union-attr]


def test_a_save_into_a_file_path_is_refused(saves: Path) -> None:
    (saves / "s1").write_text("not a dir")
    with pytest.raises(SaveError, match="is not a save slot"):
        read_slot(saves, "s1")
    assert not write_slot(saves, "s1", world()).ok


def test_thumbnails_are_scaled_pngs() -> None:
    frame = Frame(bytes(range(256)) * (1280 * 720 * 3 // 256), 1280, 720)
    png = encode_png(frame)
    assert png_size(png) == (256, 144)
    assert png_size(b"not a png") is None


def test_meta_model_ignores_unknown_fields() -> None:
    meta = SlotMeta.model_validate({"format": 1, "name": "x", "added_later": True})
    assert meta.name == "x"
