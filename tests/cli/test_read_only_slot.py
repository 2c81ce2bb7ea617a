"""A slot that cannot be written (its folder, an NPC's folder or log made read-only, under
a saves dir that can be) is refused in one line before anything is played or asked of a
model: `chat` and the game alike, exit 2, nothing changed, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .powers import without_root_powers

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]
SLOT = "ro"


def run(saves: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUN, *args, "--provider", "scripted", "--saves-dir", str(saves), "--slot", SLOT],
        capture_output=True, text=True, timeout=120, cwd=saves.parent,
        preexec_fn=without_root_powers,
    )  # fmt: skip


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` and its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def saves(tmp_path: Path) -> Iterator[Path]:
    """A saves dir holding slot `ro`, played once (tobin has a log); made writable again
    after the test, so it can be removed."""
    saves = tmp_path / "saves"
    made = subprocess.run(
        [*RUN, "chat", "tobin", "Hello", "--provider", "scripted", "--saves-dir", str(saves),
         "--slot", SLOT],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    yield saves
    for path in [saves, *saves.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)


def _read_only(path: Path) -> None:
    path.chmod(0o555 if path.is_dir() else 0o444)


def whole_slot(slot: Path) -> Path:
    for path in [*slot.rglob("*"), slot]:  # the folders last: their files first
        _read_only(path)
    return slot


def the_log(slot: Path) -> Path:
    log = slot / "npcs" / "tobin" / "session" / "events.jsonl"
    _read_only(log)
    return log


def the_session(slot: Path) -> Path:
    session = slot / "npcs" / "tobin" / "session"
    _read_only(session)
    return session


def the_npcs(slot: Path) -> Path:
    _read_only(slot / "npcs")
    return slot / "npcs"


@pytest.mark.parametrize("make", [whole_slot, the_log, the_session, the_npcs])
def test_chat_on_a_slot_it_cannot_write_is_one_line(
    saves: Path, make: Callable[[Path], Path]
) -> None:
    named = make(saves / SLOT)
    before = tree(saves / SLOT)
    out = run(saves, "chat", "tobin", "What do you bake?")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""  # no model was asked
    assert out.stderr.splitlines() == [
        f"error: cannot write slot {SLOT!r}: permission denied ({named}): make it writable, "
        "or choose another slot with --slot"
    ]
    assert tree(saves / SLOT) == before


def test_chat_on_an_empty_read_only_slot_folder_is_one_line(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    (saves / SLOT).mkdir(parents=True)
    _read_only(saves / SLOT)
    try:
        out = run(saves, "chat", "tobin", "Hello")
    finally:
        (saves / SLOT).chmod(0o755)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and f"cannot write slot {SLOT!r}: permission denied" in lines[0]
    assert not any((saves / SLOT).iterdir())


def test_play_on_a_slot_it_cannot_write_is_one_line_before_it_starts(saves: Path) -> None:
    named = whole_slot(saves / SLOT)
    before = tree(saves / SLOT)
    out = run(saves, "--headless", "--frames", "30")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: cannot write slot {SLOT!r}")
    assert f"({named})" in lines[0]
    assert tree(saves / SLOT) == before  # no save on quit was tried, nothing half-written


def test_a_slot_that_can_be_written_still_plays(saves: Path) -> None:
    # The check is no obstacle for a slot an ordinary user owns (files 0644, folders 0755).
    for path in [*(saves / SLOT).rglob("*"), saves / SLOT]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    out = run(saves, "chat", "tobin", "And tomorrow?")
    assert out.returncode == 0, out.stderr
    assert os.path.getsize(saves / SLOT / "npcs" / "tobin" / "session" / "events.jsonl") > 0
