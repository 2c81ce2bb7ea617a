"""`--script` files a hand or a tool got wrong: each mistake is one line naming the script,
the line and the fix (exit 2), never a traceback or a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT


def play(script: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "--headless", "--frames", "1",
         "--provider", "scripted", "--script", str(script), "--saves-dir", str(tmp / "saves")],
        capture_output=True, text=True, timeout=120, cwd=tmp,
    )  # fmt: skip


def one_line(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        (b"# fine\n5 press E\n64 type caf\xe9 au lait\n", 3, "not UTF-8"),
        ("1 press E\n\u00b2 press E\n".encode(), 2, "frame"),  # superscript two: isdigit()
        ("\u0663 press E\n".encode(), 1, "frame"),  # Arabic-Indic three: isdigit()
        ("5 hold RIGHT \u00b2\n".encode(), 1, "number of frames"),
        (b"10000001 press E\n", 1, "10000000"),
        (b"5 hold RIGHT 10000001\n", 1, "10000000"),
        (b"9" * 5000 + b" press E\n", 1, "10000000"),  # past int()'s digit limit
    ],
    ids=["latin-1", "superscript", "arabic-indic", "count", "big", "long", "huge"],
)
def test_a_bad_line_names_the_script_the_line_and_the_fix(
    tmp_path: Path, body: bytes, line: int, expected: str
) -> None:
    script = tmp_path / "keys.txt"
    script.write_bytes(body)
    message = one_line(play(script, tmp_path))
    assert f"script {script} line {line}: " in message and expected in message


def test_ascii_frames_up_to_the_bound_still_play(tmp_path: Path) -> None:
    from game.ui.key_script import ScriptStep, parse_script

    script = tmp_path / "keys.txt"
    script.write_text("0 press E\n10000000 hold RIGHT 10000000\n7 type \u00b2 \u0663 é\n")
    assert parse_script(script) == [
        ScriptStep(0, "press", "E"),
        ScriptStep(10_000_000, "hold", "RIGHT", 10_000_000),
        ScriptStep(7, "type", "\u00b2 \u0663 é"),
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_script_is_refused_instead_of_hanging(tmp_path: Path) -> None:
    script = tmp_path / "keys.fifo"
    os.mkfifo(script)
    message = one_line(play(script, tmp_path))
    assert str(script) in message and "not a regular file" in message


@pytest.mark.parametrize("kind", ["directory", "huge"])
def test_a_directory_or_a_huge_script_is_refused(tmp_path: Path, kind: str) -> None:
    from game.errors import UsageError
    from game.ui.key_script import parse_script

    script = tmp_path / "keys"
    if kind == "directory":
        script.mkdir()
    else:
        script.write_bytes(b"# padding\n" * 110_000)
    with pytest.raises(UsageError) as info:
        parse_script(script)
    message = str(info.value)
    assert "\n" not in message and str(script) in message and "1.0 MB" in message
