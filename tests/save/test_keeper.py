"""Save, quit, relaunch: the world comes back and every NPC carries on from its log."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from game.agent.providers.fake import FakeProvider, reply
from game.save.errors import FormatTooNew, MapMismatch
from game.save.format import FORMAT_VERSION
from game.save.slot_io import read_slot
from game.save.world_state import snapshot_world
from game.village import Village

from .conftest import TINY, on_agents, talk

OpenVillage = Callable[..., Village]


def all_text(request: object) -> str:
    messages = getattr(request, "messages", [])
    return "\n".join(m.content for m in messages)


def test_after_a_restart_the_npc_remembers_what_the_player_said(
    open_village: OpenVillage, saves: Path
) -> None:
    first = FakeProvider([reply("A red key? I will keep my eyes open, Ada.")])
    village = open_village("s1", first)
    talk(village, "tobin", "My name is Ada and I lost a red key by the well.")
    tobin = village.world.npcs["tobin"]
    spot = village.world.grid.nearest_walkable((tobin.tile[0] + 3, tobin.tile[1]))
    assert spot is not None
    tobin.place(spot, "left")
    village.world.player.place(village.world.map.player_spawn, "up")
    village.world.clock = 321.5
    village.close()  # autosave on quit

    second = FakeProvider([reply("You lost a red key by the well, Ada.")])
    again = open_village("s1", second)
    assert again.world.npcs["tobin"].tile == spot
    assert again.world.npcs["tobin"].facing == "left"
    assert again.world.player.facing == "up"
    assert again.world.clock == pytest.approx(321.5)
    talk(again, "tobin", "What did I tell you before?")
    sent = all_text(second.calls[0])
    assert "lost a red key by the well" in sent
    assert "I will keep my eyes open, Ada." in sent
    assert "What did I tell you before?" in sent
    meta = json.loads((saves / "s1" / "meta.json").read_text())
    assert meta["format"] == FORMAT_VERSION and meta["play_time_s"] == pytest.approx(321.5)


def test_a_save_covers_every_event_and_keeps_the_previous_world(
    open_village: OpenVillage, saves: Path
) -> None:
    village = open_village("s1")
    talk(village, "tobin", "Hello!")
    first = village.save().result(timeout=10)
    assert first.ok, first.message
    assert first.sessions["tobin"] == village.runtime.store("s1").next_seq("tobin") - 1
    village.world.player.place(village.world.map.player_spawn, "right")
    second = village.save(thumbnail=b"\x89PNG\r\n\x1a\nfake").result(timeout=10)
    assert second.ok
    slot = saves / "s1"
    current = json.loads((slot / "world.json").read_text())
    backup = json.loads((slot / "world.json.bak").read_text())
    assert current["player"]["facing"] == "right" and backup["player"]["facing"] != "right"
    assert (slot / "thumbnail.png").read_bytes().startswith(b"\x89PNG")
    assert not list(slot.glob("*.tmp"))


def test_save_takes_a_snapshot_and_returns_at_once(open_village: OpenVillage) -> None:
    village = open_village("s1")
    state = snapshot_world(village.world)
    assert set(state.npcs) == set(village.world.npcs)
    assert state.map_id == "village"
    fut = village.save()
    village.world.player.place((1, 1))  # the world moves on; the save has its snapshot
    assert fut.result(timeout=10).ok


def test_loading_another_slot_restores_it_and_switches_the_agents(
    open_village: OpenVillage, saves: Path
) -> None:
    village = open_village("a", FakeProvider([reply("Noted, blue door.")] * 3))
    talk(village, "tobin", "Remember the blue door.")
    saved_tile = village.world.player.tile
    assert village.save().result(timeout=10).ok
    as_new = village.saves.save_as_new().result(timeout=10)  # type: ignore[union-attr]
    assert as_new.ok and village.slot == as_new.slot == "save-1"
    assert village.runtime.slot == "save-1"
    copied = read_slot(saves, "save-1")
    assert copied.world is not None and copied.world.player.tile == saved_tile
    assert (saves / "save-1" / "npcs" / "tobin" / "session" / "events.jsonl").is_file()

    village.world.player.place(village.world.map.player_spawn)
    result = village.saves.load("a")  # type: ignore[union-attr]
    assert result.ok, result.message
    assert village.slot == "a" and village.runtime.slot == "a"
    assert village.world.player.tile == saved_tile
    request = on_agents(village, lambda: village.runtime.build_request("a", "tobin"))
    assert "Remember the blue door." in all_text(request)


def test_a_save_right_after_a_save_as_goes_to_the_new_slot(
    open_village: OpenVillage, saves: Path
) -> None:
    village = open_village("a")
    keeper = village.saves
    assert keeper is not None
    as_new = keeper.save_as_new()
    quick = keeper.save()  # asked before the save-as is done
    assert as_new.result(timeout=10).ok and quick.result(timeout=10).slot == "save-1"
    assert village.slot == keeper.slot == village.runtime.slot == "save-1"
    assert keeper.name == "save-1"


def test_a_failed_save_as_stays_on_the_slot_in_play(open_village: OpenVillage, saves: Path) -> None:
    village = open_village("a")
    keeper = village.saves
    assert keeper is not None
    (saves / "taken").mkdir()
    failed = keeper.save(slot="taken").result(timeout=10)
    assert not failed.ok and "could not save as 'taken'" in failed.message
    assert village.slot == keeper.slot == "a" and keeper.name == "a"
    assert keeper.save().result(timeout=10).slot == "a"


def test_load_failures_are_one_line_and_change_nothing(
    open_village: OpenVillage, saves: Path
) -> None:
    village = open_village("s1")
    assert village.save().result(timeout=10).ok
    other = open_village("other", map_path=TINY)
    assert other.save().result(timeout=10).ok
    newer = saves / "newer"
    newer.mkdir()
    (newer / "meta.json").write_text(json.dumps({"format": 99, "name": "from the future"}))
    before = village.world.player.tile
    keeper = village.saves
    assert keeper is not None
    for slot, words in (
        ("other", "was saved on map 'tiny'"),
        ("newer", "newer version of the game"),
        ("nothing", "no slot named 'nothing'"),
        ("../x", "invalid slot name"),
    ):
        result = keeper.load(slot)
        assert not result.ok and words in result.message, result.message
        assert "\n" not in result.message
        assert keeper.notice() == result.message
    assert village.slot == "s1" and village.world.player.tile == before
    village.world.step(1 / 60)  # the game keeps running


def test_open_refuses_a_newer_format_or_another_map(open_village: OpenVillage, saves: Path) -> None:
    open_village("tiny", map_path=TINY).close()
    with pytest.raises(MapMismatch, match="saved on map 'tiny'"):
        open_village("tiny")
    (saves / "future").mkdir()
    newer = FORMAT_VERSION + 1
    (saves / "future" / "meta.json").write_text(json.dumps({"format": newer}))
    with pytest.raises(
        FormatTooNew, match=rf"format {newer}; this game reads formats up to {FORMAT_VERSION}"
    ):
        open_village("future")


def test_npcs_missing_from_the_save_spawn_and_unknown_ones_are_skipped(
    open_village: OpenVillage, saves: Path
) -> None:
    village = open_village("s1")
    assert village.save().result(timeout=10).ok
    village.close()
    path = saves / "s1" / "world.json"
    world = json.loads(path.read_text())
    del world["npcs"]["tobin"]
    world["npcs"]["ghost"] = {"tile": [3, 3], "facing": "up"}
    world["npcs"]["brenna"]["tile"] = [0, 0]  # the map's wall
    path.write_text(json.dumps(world))
    again = open_village("s1")
    spawns = {s.npc_id: s.tile for s in again.world.map.npcs}
    assert again.world.npcs["tobin"].tile == spawns["tobin"]
    assert again.world.npcs["brenna"].tile == spawns["brenna"]
    notice = again.notice() or ""
    assert "cannot be walked on" in notice or "ghost" in notice


def test_summaries_on_disk_reach_the_prompt(open_village: OpenVillage, saves: Path) -> None:
    slot = saves / "s1"
    (slot / "npcs" / "tobin" / "memory").mkdir(parents=True)
    (slot / "world_summary.txt").write_text("A storm flooded the bridge last night.")
    (slot / "npcs" / "tobin" / "memory" / "summary.txt").write_bytes(
        b"You owe the miller three loaves.\xff"
    )
    village = open_village("s1")
    request = on_agents(village, lambda: village.runtime.build_request("s1", "tobin"))
    system = request.system  # type: ignore[attr-defined]
    assert "A storm flooded the bridge last night." in system
    assert "You owe the miller three loaves." in system
    other = on_agents(village, lambda: village.runtime.build_request("s1", "brenna"))
    assert "three loaves" not in other.system  # type: ignore[attr-defined]


def test_autosave_runs_on_the_game_clock(open_village: OpenVillage) -> None:
    village = open_village("s1")
    keeper = village.saves
    assert keeper is not None
    keeper.autosave_s = 2.0
    assert not keeper.autosave_due(1.5)
    assert keeper.autosave_due(0.6)
    assert not keeper.autosave_due(0.1)  # the timer started again
    keeper.autosave_s = 0
    assert not keeper.autosave_due(1000.0)  # 0 turns autosave off


def test_a_full_disk_fails_the_save_with_one_line_and_the_game_goes_on(
    open_village: OpenVillage, saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep = open_village("keep")
    assert keep.save().result(timeout=10).ok
    keep.close()
    kept = {p: p.read_bytes() for p in (saves / "keep").rglob("*") if p.is_file()}
    village = open_village("s1")
    talk(village, "tobin", "Hi!")
    assert village.save().result(timeout=10).ok
    world_before = (saves / "s1" / "world.json").read_bytes()
    real_write = os.write

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    talk(village, "tobin", "Are you there?")  # the turn's own flush fails: logged, no crash
    result = village.save().result(timeout=10)
    monkeypatch.setattr(os, "write", real_write)
    assert not result.ok
    assert "disk is full" in result.message and "\n" not in result.message
    assert village.notice() == result.message
    assert (saves / "s1" / "world.json").read_bytes() == world_before
    assert not list((saves / "s1").glob("*.tmp"))
    assert {p: p.read_bytes() for p in (saves / "keep").rglob("*") if p.is_file()} == kept
    village.world.step(1 / 60)
    # Space again: the buffered events are written by the next save.
    again = village.save().result(timeout=10)
    assert again.ok, again.message
    events = (saves / "s1" / "npcs" / "tobin" / "session" / "events.jsonl").read_text()
    assert "Are you there?" in events


def test_a_read_only_saves_dir_fails_with_one_line(
    open_village: OpenVillage, saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    village = open_village("s1")
    assert village.save().result(timeout=10).ok
    slot = saves / "s1"
    if os.geteuid() == 0:
        # root writes through chmod: simulate what a read-only directory does instead.
        real_open = os.open

        def refuse(path: object, flags: int, *args: object, **kwargs: object) -> int:
            if flags & (os.O_WRONLY | os.O_RDWR) and str(path).startswith(str(saves)):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "open", refuse)
    else:
        slot.chmod(0o500)
    try:
        result = village.save().result(timeout=10)
    finally:
        slot.chmod(0o755)
    assert not result.ok
    assert "permission denied" in result.message and "\n" not in result.message
    village.world.step(1 / 60)
