"""One writer per slot: a second process waits its turn (`chat`) or is refused (the game,
`saves import` and `delete`), and the lock dies with the process that held it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from game.agent.store import SessionStore
from game.save.errors import SlotBusy
from game.save.lock import SlotLock, lock_path
from game.village import Village

from .conftest import ROOT, VILLAGE

RUN = [sys.executable, str(ROOT / "run_game.py")]


def _chat(saves: Path, npc: str, line: str, slot: str = "busy") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*RUN, "chat", npc, line, "--provider", "scripted", "--saves-dir", str(saves),
         "--slot", slot],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=saves,
    )  # fmt: skip


@pytest.mark.parametrize("npc", ["tobin", "pip"])
def test_chats_at_once_on_one_slot_keep_every_line_and_every_seq(saves: Path, npc: str) -> None:
    lines: list[str] = []
    for round_ in range(3):
        batch = [f"round {round_} line {i}: hello there" for i in range(3)]
        procs = [_chat(saves, npc, line) for line in batch]  # all three start together
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            assert out.strip(), "the NPC answered nothing"
        lines += batch
    events = SessionStore(saves, "busy").read(npc)
    seqs = [e.seq for e in events]
    assert seqs == list(range(1, len(seqs) + 1)), "a seq repeats or one is missing"
    said = [e.text for e in events if e.type == "user.message"]
    assert sorted(said) == sorted(lines)  # every player line kept, none twice
    replies = [e for e in events if e.type == "tool.use" and e.name == "say"]
    assert len(replies) >= len(lines)  # and every answer


def test_a_second_chat_waits_for_the_holder_and_says_so(saves: Path) -> None:
    lock = SlotLock(saves, "busy", "the game").acquire()
    proc = _chat(saves, "tobin", "hello")
    assert proc.stderr is not None
    first = proc.stderr.readline()  # written while it waits: the lock is ours
    assert "waiting for slot 'busy'" in first and f"pid {os.getpid()}" in first, first
    assert proc.poll() is None
    lock.release()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert [e.text for e in SessionStore(saves, "busy").read("tobin") if e.type == "user.message"]


def test_the_running_game_holds_its_slot(saves: Path) -> None:
    village = Village.open(VILLAGE, slot="held", saves_dir=saves)
    try:
        assert village.saves is not None and village.saves.save().result(timeout=20).ok
        with pytest.raises(SlotBusy, match="in use by another process"):
            SlotLock(saves, "held", "test").acquire()
        for args in (
            ["--headless", "--frames", "1", "--provider", "scripted", "--slot", "held"],
            ["saves", "delete", "held", "--yes"],
        ):
            out = subprocess.run(
                [*RUN, *args, "--saves-dir", str(saves)],
                capture_output=True, text=True, timeout=60, cwd=saves,
            )  # fmt: skip
            assert out.returncode == 2, out.stderr
            lines = out.stderr.strip().splitlines()
            assert len(lines) == 1 and "slot 'held' is in use by another process" in lines[0]
            assert f"pid {os.getpid()}, the game" in lines[0]
    finally:
        village.close()
    SlotLock(saves, "held", "test").acquire().release()  # free once the game closed


def test_a_load_moves_the_lock_to_the_new_slot(saves: Path) -> None:
    village = Village.open(VILLAGE, slot="first", saves_dir=saves)
    try:
        assert village.saves is not None
        assert village.saves.save().result(timeout=20).ok
        other = Village.open(VILLAGE, slot="second", saves_dir=saves)
        other.close()
        assert village.saves.load("second").ok
        SlotLock(saves, "first", "test").acquire().release()  # let go
        with pytest.raises(SlotBusy):
            SlotLock(saves, "second", "test").acquire()  # taken
        busy = SlotLock(saves, "first", "another game").acquire()
        try:
            result = village.saves.load("first")
            assert not result.ok and "in use by another process" in result.message
            assert village.slot == "second"  # still playing where it was
        finally:
            busy.release()
    finally:
        village.close()


def test_the_lock_dies_with_its_process(saves: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; from game.save.lock import SlotLock; "
         "SlotLock(Path(sys.argv[1]), 'gone', 'a holder').acquire(); print('held', flush=True); "
         "time.sleep(600)", str(saves)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(SlotBusy, match="a holder"):
        SlotLock(saves, "gone", "test").acquire()
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    SlotLock(saves, "gone", "test").acquire().release()  # no pid file to clean: it is free
    assert lock_path(saves, "gone").is_file()
