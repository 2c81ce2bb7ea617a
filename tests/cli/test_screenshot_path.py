"""`--screenshot` names a PNG file that can be written. A name that cannot be one (a folder,
a device, a pipe, a `.json` name, a file where a folder should be, a folder that cannot be
written) is one line and exit 2 before the game runs; a write that still fails after the
run (a full disk) is one line and exit 1, with the slot saved and no half PNG left."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from game.save.slot_io import read_slot

from .powers import without_root_powers

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files and limits")

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]


def play(tmp: Path, shot: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUN, "--headless", "--frames", "20", "--provider", "scripted", "--slot", "shots",
         "--saves-dir", str(tmp / "saves"), "--screenshot", str(shot)],
        capture_output=True, text=True, timeout=120, cwd=tmp, **kw,  # type: ignore[call-overload]
    )  # fmt: skip


def a_folder(tmp: Path) -> tuple[Path, str]:
    return tmp, "is a folder: give a file name in it"


def a_device(tmp: Path) -> tuple[Path, str]:
    return Path("/dev/full"), "is not a regular file (a device or a pipe)"


def a_device_named_png(tmp: Path) -> tuple[Path, str]:
    (tmp / "full.png").symlink_to("/dev/full")
    return tmp / "full.png", "is not a regular file (a device or a pipe)"


def a_pipe(tmp: Path) -> tuple[Path, str]:
    os.mkfifo(tmp / "pipe.png")
    return tmp / "pipe.png", "is not a regular file (a device or a pipe)"


def a_json_name(tmp: Path) -> tuple[Path, str]:
    return tmp / "shot.json", "the frame is saved as a PNG; give a name ending in .png"


def under_a_file(tmp: Path) -> tuple[Path, str]:
    (tmp / "notes.txt").write_text("not a folder")
    return tmp / "notes.txt" / "shots" / "shot.png", "notes.txt is not a folder"


@pytest.mark.parametrize(
    "bad", [a_folder, a_device, a_device_named_png, a_pipe, a_json_name, under_a_file]
)
def test_a_screenshot_name_that_cannot_be_written_is_refused_before_the_run(
    tmp_path: Path, bad: Callable[[Path], tuple[Path, str]]
) -> None:
    shot, expected = bad(tmp_path)
    out = play(tmp_path, shot)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert lines[0].startswith(f"error: --screenshot {shot}") and expected in lines[0]
    assert not (tmp_path / "saves" / "shots").exists()  # refused before the slot opened


def test_a_folder_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    try:
        out = play(tmp_path, locked / "shot.png", preexec_fn=without_root_powers)
    finally:
        locked.chmod(0o755)
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        f"error: --screenshot {locked / 'shot.png'}: cannot write in {locked}; "
        "choose a folder you can write to"
    ]
    assert not list(locked.iterdir())


def _full_disk_past(limit: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_screenshot_that_fails_to_write_after_the_run_is_one_line_and_the_game_saved(
    tmp_path: Path,
) -> None:
    shot = tmp_path / "new" / "shot.png"  # its folder is made
    # Files of up to 32 KB: the slot's, not the PNG of a 1280x720 frame (100 KB and more).
    out = play(tmp_path, shot, preexec_fn=_full_disk_past(32 * 1024))
    assert out.returncode == 1, out.stderr
    assert out.stderr.splitlines() == [
        f"error: could not save the screenshot {shot}: the file is too large for this disk "
        "or account (file too large) (the game itself was saved); free some space or choose "
        "another place"
    ]
    assert out.stdout == ""
    assert list(shot.parent.iterdir()) == []  # no half PNG, no temporary file
    data = read_slot(tmp_path / "saves", "shots")
    assert data.exists and data.world is not None and data.warnings == []


def test_a_screenshot_replaces_an_older_one_whole(tmp_path: Path) -> None:
    from PIL import Image

    shot = tmp_path / "shot.png"
    shot.write_bytes(b"an older screenshot")
    out = play(tmp_path, shot)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"screenshot saved to {shot}\n"
    assert Image.open(shot).size == (1280, 720)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
