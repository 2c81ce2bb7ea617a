"""The game as a package: the wheel carries the village and its art, and plays installed.

The wheel is built offline from this checkout (`--no-build-isolation`, with the dev
extra's setuptools and wheel), then installed with `--no-deps` into a fresh venv made with
`--system-site-packages`; the venv sees this environment's installed libraries through a
`.pth` line, never this checkout, so nothing is downloaded and nothing of the source tree
is used. The installed `npc-village` then plays headless from an empty directory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(out), "-q"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("npc_village-*.whl")
    return path


def test_the_wheel_carries_the_maps_and_the_art(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for wanted in (
        "game/cli.py",
        "game/eval/scenarios/village/greetings.json",
        "game/eval/scenarios/village/held_out/places.json",
        "game/data/maps/village.tmx",
        "game/data/maps/village.tmj",
        "game/data/assets/tiles/village_tiles.tsx",
        "game/data/assets/tiles/village_tiles.png",
        "game/data/assets/characters/baker.png",
        "game/data/assets/emotes/wave.png",
    ):
        assert wanted in names, wanted
    sheets = {p.name for p in (ROOT / "assets" / "characters").glob("*.png")}
    assert {n.rsplit("/", 1)[1] for n in names if "/characters/" in n} == sheets
    assert not [n for n in names if "/broken/" in n]  # the test maps of bad files stay home


def test_the_installed_game_plays_from_an_empty_directory(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
        check=True, timeout=120,
    )  # fmt: skip
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # This environment's libraries (arcade, pydantic, ...), after the venv's own.
    Path(site, "libraries.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "-q", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run(
        [str(python), "-c", "import game.assets as a; print(a.__file__); print(a.DEFAULT_MAP)"],
        capture_output=True, text=True, cwd=empty, env=env, check=True,
    ).stdout.split()  # fmt: skip
    assert all(Path(p).is_relative_to(venv) for p in where), where  # not this checkout
    shot = empty / "out.png"
    played = subprocess.run(
        [str(venv / "bin" / "npc-village"), "--headless", "--frames", "30", "--provider",
         "scripted", "--saves-dir", str(tmp_path / "saves"), "--screenshot", str(shot)],
        capture_output=True, text=True, cwd=empty, env=env, timeout=300,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert shot.is_file() and shot.stat().st_size > 10_000
    assert "Traceback" not in played.stderr and "WARNING" not in played.stderr
