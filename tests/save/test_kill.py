"""SIGKILL a process that appends events and saves, 50 times, and reload after each kill.

Every reload must succeed; every event covered by the last completed save must be there
(seqs contiguous from 1); a torn last line is dropped with a warning; a world.json that is
missing or broken falls back to world.json.bak.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import random
import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from game.agent.events import UserMessage
from game.agent.store import SessionStore
from game.save.slot_io import read_slot

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork and SIGKILL"
)

ROOT = Path(__file__).resolve().parents[2]
HELPER = Path(__file__).with_name("killer.py")
NPCS = ("ada", "bo", "cy")
ROUNDS = 50
SLOT = "kill"


class Zygote:
    """The helper process and a thread that queues its output lines."""

    def __init__(self, saves: Path, stderr: Path) -> None:
        self.stderr = stderr
        with open(stderr, "wb") as err:  # the writer's own repair warnings land here
            self.proc = subprocess.Popen(
                [sys.executable, str(HELPER), str(saves), SLOT],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                cwd=ROOT,
            )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        line = self.lines.get(timeout=20)
        if line is None:
            tail = self.stderr.read_text(errors="replace")[-2000:]
            pytest.fail(f"the helper exited (code {self.proc.poll()}):\n{tail}")
        return line

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class Progress:
    """What the test knows from the writer's output: the newest completed save."""

    def __init__(self) -> None:
        self.saved_n = 0
        self.covered: dict[str, int] = {}

    def take(self, line: str) -> str:
        kind = line.split(" ", 1)[0]
        if kind == "saved":
            _, _, n, sessions = line.split(" ", 3)
            self.saved_n = int(n)
            self.covered = json.loads(sessions)
        elif kind == "failed":
            pytest.fail(f"a save failed in the writer: {line}")
        return kind


def events_path(saves: Path, npc: str) -> Path:
    return saves / SLOT / "npcs" / npc / "session" / "events.jsonl"


def verify(
    saves: Path, progress: Progress, caplog: pytest.LogCaptureFixture, stats: Counter[str]
) -> float:
    """Reload the slot as the game would; return the clock of the world that loaded."""
    torn = {}
    for npc in NPCS:
        path = events_path(saves, npc)
        raw = path.read_bytes() if path.exists() else b""
        torn[npc] = bool(raw) and not raw.endswith(b"\n")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        data = read_slot(saves, SLOT)
        store = SessionStore(saves, SLOT)
        logs = {npc: store.read(npc) for npc in NPCS}
    clock = 0.0
    if progress.saved_n:
        assert data.world is not None, data.warnings
        clock = data.world.clock
        # A save in flight may have completed its world.json before the kill; never less.
        assert clock >= progress.saved_n, (clock, progress.saved_n, data.warnings)
        assert data.world.player.name == "Kim"
        if data.from_backup:
            stats["bak"] += 1
            assert any("world.json.bak" in w for w in data.warnings)
    for npc, events in logs.items():
        seqs = [e.seq for e in events]
        assert seqs == list(range(1, len(seqs) + 1)), f"{npc}: seqs not contiguous"
        assert len(seqs) >= progress.covered.get(npc, 0), f"{npc}: a saved event is missing"
        assert all(isinstance(e, UserMessage) and e.text.startswith("r") for e in events)
        if torn[npc]:
            stats["torn"] += 1
            assert events_path(saves, npc).read_bytes().endswith(b"\n")
            assert any("torn" in r.getMessage() for r in caplog.records), f"{npc}: no warning"
    return clock


def tear_a_log(saves: Path, rng: random.Random) -> None:
    """Simulate a kill in the middle of an append: half a line at the end of a log."""
    path = events_path(saves, rng.choice(NPCS))
    with open(path, "ab") as f:
        f.write(b'{"type":"user.message","seq":999999,"text":"half a li')


def break_world_json(saves: Path, clock: float) -> None:
    """Simulate a world.json torn by a kill (as if it were written in place)."""
    world = saves / SLOT / "world.json"
    good = world.read_bytes()
    world.write_bytes(good[: len(good) // 2])
    data = read_slot(saves, SLOT)
    assert data.from_backup and data.world is not None
    assert data.world.clock < clock
    assert any("world.json is damaged" in w for w in data.warnings)
    world.write_bytes(good)


def test_sigkill_at_random_moments_never_loses_a_completed_save(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(6_2024)
    saves = tmp_path / "saves"
    zygote = Zygote(saves, tmp_path / "writer.log")
    progress = Progress()
    stats: Counter[str] = Counter()
    clock = 0.0
    try:
        assert zygote.line() == "ready"
        for round_ in range(ROUNDS):
            zygote.send(f"go {round_} {int(max(clock, progress.saved_n))}")
            want_saves, want_ticks = rng.randint(0, 3), rng.randint(1, 12)
            pid, saves_seen, ticks = 0, 0, 0
            while not pid or saves_seen < want_saves or ticks < want_ticks:
                line = zygote.line()
                kind = progress.take(line)
                if kind == "pid":
                    pid = int(line.split()[1])
                saves_seen += kind == "saved"
                ticks += kind == "tick"
            # The writer runs on while we read its lines: the kill lands anywhere in its cycle.
            os.kill(pid, signal.SIGKILL)
            zygote.send(f"reap {pid}")
            while not (line := zygote.line()).startswith(f"exited {pid} "):
                progress.take(line)
            stats["killed"] += int(line.split()[2]) != 0
            if round_ % 7 == 3:
                tear_a_log(saves, rng)
            clock = verify(saves, progress, caplog, stats)
            if round_ % 5 == 4 and progress.saved_n >= 2:
                break_world_json(saves, clock)
                stats["broken"] += 1
    finally:
        zygote.close()
    assert stats["killed"] == ROUNDS
    assert progress.saved_n >= ROUNDS // 2, "too few saves completed to mean anything"
    assert stats["broken"] >= 5
    assert stats["torn"] >= 7
    print(f"kill test: {dict(stats)}, {progress.saved_n} saves")
