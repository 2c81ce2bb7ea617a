"""Every hostile or clumsy map of `tests/world/hostile.py`, played as a player would:
`run_game.py --headless --frames 1 --provider scripted --map BAD`. Each must end in one
line on stderr naming the map, exit code 2, and no traceback.

The runs go four at a time (a run that fails early is a third of a second of imports),
each under a memory cap and a timeout, so a map that would hang the game or eat the
memory fails its test instead of the machine.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.world.hostile import CASES, Case

ROOT = Path(__file__).resolve().parents[2]
MEMORY_KB = 3 * 1024 * 1024  # the cap on each run's address space
TIMEOUT_S = 60


def play(case: Case, folder: Path) -> tuple[Path, subprocess.CompletedProcess[str] | None]:
    """Build the case's map in `folder` and play it; None if it did not end in time."""
    folder.mkdir()
    path = case.build(folder)
    command = [
        sys.executable,
        str(ROOT / "run_game.py"),
        "--headless",
        "--frames",
        "1",
        "--provider",
        "scripted",
        "--map",
        str(path),
        "--saves-dir",
        str(folder / "saves"),
    ]
    try:
        return path, subprocess.run(
            ["/bin/sh", "-c", f'ulimit -v {MEMORY_KB} && exec "$@"', "sh", *command],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            cwd=folder,
        )
    except subprocess.TimeoutExpired:
        return path, None


@pytest.fixture(scope="module")
def played(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, tuple[Path, subprocess.CompletedProcess[str] | None]]]:
    base = tmp_path_factory.mktemp("bad_maps")
    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = {case.id: pool.submit(play, case, base / case.id) for case in CASES}
        yield {case_id: run.result() for case_id, run in runs.items()}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_bad_map_is_one_line_and_exit_2(
    case: Case, played: dict[str, tuple[Path, subprocess.CompletedProcess[str] | None]]
) -> None:
    path, out = played[case.id]
    assert out is not None, f"the game did not end within {TIMEOUT_S} s"
    assert "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("error: ") and case.expect in lines[0], lines[0]
    assert str(path) in lines[0], "the map is named"
    assert out.returncode == 2
