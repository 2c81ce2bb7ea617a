"""`run_game.py doctor`: which provider, why, and how fast."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.village import Loading

ROOT = Path(__file__).resolve().parents[2]


def doctor(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "doctor", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp,
    )


def test_doctor_scripted(tmp_path: Path) -> None:
    out = doctor(tmp_path, "--provider", "scripted")
    assert out.returncode == 0, out.stderr
    assert "provider: scripted" in out.stdout
    assert "why: provider 'scripted' chosen" in out.stdout
    assert "time to first token:" in out.stdout


@pytest.mark.model
def test_doctor_local_model_loads_and_is_timed(tmp_path: Path) -> None:
    out = doctor(tmp_path, "--provider", "local")
    assert out.returncode == 0, out.stderr
    assert "provider: local" in out.stdout
    assert "model loaded in" in out.stdout
    assert "tokens per second:" in out.stdout
    assert "%" in out.stderr  # the text progress bar


def test_loading_progress_becomes_a_notice_until_ready() -> None:
    seen: list[float] = []
    loading = Loading(lambda f, m: seen.append(f))
    loading.update(0.45, "assembling the model")
    assert loading.state == (0.45, "assembling the model")
    loading.update(1.0, "ready")
    assert loading.state is None and seen == [0.45, 1.0]
