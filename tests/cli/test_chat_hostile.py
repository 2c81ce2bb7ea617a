"""`chat` against clumsy input: an argument that is not UTF-8, a saves dir that cannot be
written, a disk that fills up mid-turn (a model's terminal escapes: tests/providers).
Each ends in one line (exit 2 for bad input, 1 for a turn that failed), never a traceback."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from game.agent.store import SessionStore

from .powers import without_root_powers

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]


def test_a_message_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    for raw in (b"caf\xe9", b"\xff\xfe hello", b"ok \xc3"):
        out = subprocess.run(
            [*map(os.fsencode, RUN), b"chat", b"tobin", raw, b"--provider", b"scripted",
             b"--saves-dir", os.fsencode(tmp_path)],
            capture_output=True, timeout=60, cwd=tmp_path,
        )  # fmt: skip
        err = out.stderr.decode("utf-8", "replace")
        assert out.returncode == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "not UTF-8" in lines[0], err
    assert not any(tmp_path.iterdir())  # nothing was written


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_a_saves_dir_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    saves.chmod(0o555)
    try:
        out = subprocess.run(
            [*RUN, "chat", "tobin", "hi", "--provider", "scripted", "--saves-dir", str(saves)],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
            preexec_fn=without_root_powers,
        )  # fmt: skip
    finally:
        saves.chmod(0o755)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr
    assert f"cannot write to the saves directory {saves}" in lines[0]
    assert "--saves-dir" in lines[0]
    assert list(saves.iterdir()) == []


def _file_size_limit(limit: int) -> object:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_a_turn_that_cannot_be_written_fails_with_one_line(tmp_path: Path) -> None:
    def chat(line: str, **kw: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*RUN, "chat", "tobin", line, "--provider", "scripted", "--saves-dir",
             str(tmp_path), "--slot", "full"],
            capture_output=True, text=True, timeout=60, cwd=tmp_path, **kw,  # type: ignore[call-overload]
        )  # fmt: skip

    assert chat("Hello there").returncode == 0
    log = tmp_path / "full" / "npcs" / "tobin" / "session" / "events.jsonl"
    size = log.stat().st_size
    out = chat("What do you bake?", preexec_fn=_file_size_limit(size + 10))
    assert out.returncode == 1, out.stderr
    # Besides the tool calls chat always shows, one line says the turn was not kept.
    lines = [line for line in out.stderr.strip().splitlines() if not line.startswith("[say] ")]
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert lines[0].startswith("error: the turn was not kept in slot 'full'")
    assert "too large" in lines[0] and "events.jsonl" in lines[0]
    events = SessionStore(tmp_path, "full").read("tobin")  # the log is whole
    assert [e.text for e in events if e.type == "user.message"] == ["Hello there"]
    assert log.stat().st_size == size
