"""SIGTERM and SIGHUP (a shutdown, a log-out, a closed terminal) end the game as Ctrl-C
does: it leaves its loop, saves the slot, and then dies by the signal, so whatever started
it sees how it ended (143 and 129 in a shell). Each is sent to a real running game, and the
slot is read afterwards."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from game.agent.store import SessionStore
from game.save.lock import lock_path
from game.save.slot_io import SlotData, read_slot

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]
STOPS = [signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]
SLOT = "kept"
# From the spawn on the plaza, walk right to Pip and greet it: what the turn writes to
# Pip's log tells the test the player has walked and talked.
TALK = """\
5 hold RIGHT 46
60 press E
64 type good day to you
70 press ENTER
"""
HOUR = 13.0  # --hour: a time of day the play starts at, seen in the slot afterwards
MINUTES_FROM_8AM = (HOUR - 8) * 60  # how world.json keeps the time of day
SPAWN = (17, 19)  # the village's player_spawn tile


def start(tmp: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """A real game on the village in slot `kept`, running until it is stopped."""
    return subprocess.Popen(
        [*RUN, *args, "--provider", "scripted", "--slot", SLOT, "--hour", str(HOUR),
         "--saves-dir", str(tmp / "saves")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp,
        env=env if env is not None else dict(os.environ),
    )  # fmt: skip


def until(proc: subprocess.Popen[str], done: Callable[[], bool], what: str) -> None:
    """Poll `done` until it holds; fail (with the game's stderr) if the game ends first."""
    deadline = time.monotonic() + 90
    while not done():
        if proc.poll() is not None:
            raise AssertionError(f"the game ended before {what}: {proc.communicate()[1]}")
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"no {what} within 90 s")
        time.sleep(0.02)


def holds_lock(tmp: Path, proc: subprocess.Popen[str]) -> Callable[[], bool]:
    """Whether the game has opened the slot (its lock names the game's pid)."""
    path = lock_path(tmp / "saves", SLOT)
    return lambda: path.is_file() and path.read_text().startswith(f"{proc.pid} ")


def said_to_pip(tmp: Path, line: str) -> Callable[[], bool]:
    """Whether Pip's log holds the player's `line` (written at the end of the turn)."""
    log = tmp / "saves" / SLOT / "npcs" / "pip" / "session" / "events.jsonl"
    return lambda: log.is_file() and line.encode() in log.read_bytes()


def stopped_by(proc: subprocess.Popen[str], sig: int) -> tuple[float, str]:
    """Send `sig`, wait for the game to end; (seconds it took, its stderr)."""
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()  # a game left running would slow every test after this one
        proc.communicate()
        raise
    return time.monotonic() - sent, err


def loaded(tmp: Path) -> SlotData:
    """The slot as the game loads it: whole, no warnings."""
    data = read_slot(tmp / "saves", SLOT)
    assert data.exists and data.world is not None, "nothing was saved"
    assert data.warnings == [] and not data.from_backup
    return data


@pytest.mark.parametrize(
    ("sig", "code"),
    [
        *(pytest.param(s, -s, id=s.name) for s in STOPS),
        pytest.param(signal.SIGINT, 130, id="SIGINT"),  # Ctrl-C ends with 130, as before
    ],
)
def test_a_signal_saves_the_play_then_ends_the_game_by_that_signal(
    tmp_path: Path, sig: int, code: int
) -> None:
    (tmp_path / "talk.txt").write_text(TALK)
    proc = start(
        tmp_path, "--headless", "--frames", "100000000", "--script", str(tmp_path / "talk.txt")
    )
    until(proc, said_to_pip(tmp_path, "good day to you"), "talk with Pip")
    assert not (tmp_path / "saves" / SLOT / "world.json").exists()  # the play is in memory only
    seconds, err = stopped_by(proc, sig)
    assert proc.returncode == code, err  # the parent sees the signal: 128 + sig in a shell
    assert "Traceback" not in err and err.strip() == "", err
    if sig != signal.SIGINT:  # Ctrl-C still closes the window first, which takes a while
        assert seconds < 5, f"the game took {seconds:.1f} s to save and end"
    world = loaded(tmp_path).world
    assert world is not None
    assert world.player.tile != SPAWN and world.player.facing == "right"  # walked to Pip
    assert MINUTES_FROM_8AM <= world.time_minutes < MINUTES_FROM_8AM + 60
    assert world.clock > 70 / 60  # the frames of the walk and the talk went by
    assert world.sessions.get("pip", 0) >= 2  # the talk's log lines are covered by the save


def test_more_signals_during_the_save_change_nothing(tmp_path: Path) -> None:
    proc = start(tmp_path, "--headless", "--frames", "100000000")
    until(proc, holds_lock(tmp_path, proc), "slot opened")
    sent = 0
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:  # a signal every few ms
        proc.send_signal(STOPS[sent % len(STOPS)])
        sent += 1
        time.sleep(0.005)
    _, err = proc.communicate(timeout=60)
    assert sent > 10, "the game ended before the save could be interrupted"
    assert -proc.returncode in STOPS, err  # by one of them (the first one noted), once
    assert "Traceback" not in err, err
    world = loaded(tmp_path).world
    assert world is not None and MINUTES_FROM_8AM <= world.time_minutes < MINUTES_FROM_8AM + 60
    assert not list((tmp_path / "saves" / SLOT).rglob("*.tmp"))  # no half-written file left


async def test_a_signal_mid_reply_keeps_what_was_said_and_ends_by_it(tmp_path: Path) -> None:
    from tests.providers.provider_kit import Reply, SSEServer, chat_chunk

    start_say = {"index": 0, "id": "call_0", "type": "function", "function": {"name": "say"}}
    half_said = {"index": 0, "function": {"arguments": '{"text": "Fresh bread, sti'}}
    server = SSEServer()
    server.replies = [  # a model that starts to say something, then stalls
        Reply(
            body=[
                chat_chunk({"role": "assistant", "content": None}),
                chat_chunk({"tool_calls": [start_say]}),
                chat_chunk({"tool_calls": [half_said]}),
            ],
            then="hold",
        )
    ]
    await server.start()
    try:
        proc = await asyncio.create_subprocess_exec(
            *RUN, "chat", "tobin", "Good morning!", "--provider", "openai-chat",
            "--base-url", f"{server.url}/v1", "--model", "m", "--saves-dir", str(tmp_path),
            "--slot", SLOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None
        shown = b""
        while b"Fresh bread" not in shown:
            piece = await asyncio.wait_for(proc.stdout.read(256), timeout=60)
            assert piece, "chat ended before the reply began"
            shown += piece
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    finally:
        await server.stop()
    assert proc.returncode == -signal.SIGTERM, err.decode()
    assert b"Traceback" not in err, err.decode()
    events = SessionStore(tmp_path, SLOT).read("tobin")  # the turn was written down
    assert [e.text for e in events if e.type == "user.message"] == ["Good morning!"]
    said = [e for e in events if e.type == "assistant.message"]
    assert [e.text for e in said] == ["Fresh bread, sti"] and said[0].interrupted
    assert events[-1].type == "result" and events[-1].outcome == "cancelled"
    assert (shown + out).decode() == "Fresh bread, sti\n"  # the line it was on ended


def children(pid: int) -> list[int]:
    """The processes `pid` started that still run (Linux: from /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.model
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads children from /proc")
def test_a_signal_while_the_local_model_works_stops_its_process_first(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*RUN, "chat", "tobin", "Good morning!", "--provider", "local", "--saves-dir",
         str(tmp_path), "--slot", SLOT],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    workers: list[int] = []

    def started() -> bool:
        workers[:] = children(proc.pid)
        return bool(workers)

    until(proc, started, "local model process")
    _, err = stopped_by(proc, signal.SIGTERM)  # while it loads the model
    assert proc.returncode == -signal.SIGTERM, err
    assert "Traceback" not in err, err
    # The game stopped it before ending: no worker is left to finish on its own.
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    events = SessionStore(tmp_path, SLOT).read("tobin")
    assert [e.text for e in events if e.type == "user.message"] == ["Good morning!"]
