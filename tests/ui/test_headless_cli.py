"""The command line as a player runs it: --help, errors, and a headless screenshot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from .conftest import ROOT
from .pixels import bubble_pixels, locate, own_colours

SCRIPT = """\
# From the spawn on the plaza, walk right to Pip, press E, say hello, Enter.
5 hold RIGHT 46
60 press E
64 type hello there!
70 press ENTER
"""


def run(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), *args, "--saves-dir", str(tmp / "saves")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp,
    )


def test_help_lists_every_option(tmp_path: Path) -> None:
    out = run("--help", tmp=tmp_path)
    assert out.returncode == 0
    for option in (
        "--map",
        "--slot",
        "--provider",
        "--headless",
        "--frames",
        "--screenshot",
        "--script",
        "--saves-dir",
        "chat",
    ):
        assert option in out.stdout


def test_unavailable_provider_says_so(tmp_path: Path) -> None:
    out = run("--headless", "--frames", "1", "--provider", "openai", tmp=tmp_path)
    assert out.returncode == 2
    assert "not available" in out.stderr or "API key" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("map_arg", "expected"),
    [
        ("missing.tmx", "not found"),
        ("broken/no_spawn.tmx", "no player_spawn"),
        ("broken.tmx", "cannot read map"),
    ],
)
def test_bad_map_is_one_line_exit_2(tmp_path: Path, map_arg: str, expected: str) -> None:
    (tmp_path / "broken.tmx").write_text("<map")
    path = ROOT / "maps" / map_arg if map_arg.startswith("broken/") else tmp_path / map_arg
    out = run("--headless", "--frames", "1", "--map", str(path), tmp=tmp_path)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and str(path.name) in lines[0]


def test_a_map_with_sketchy_npcs_plays_and_says_what_to_add_once(tmp_path: Path) -> None:
    from tests.world.test_tiled import npc, tiny_with_npcs

    path = tiny_with_npcs(tmp_path, npc(10, 3, 4, "Hilda") + npc(11, 5, 4, "Olaf", sprite="dragon"))
    shot = tmp_path / "shot.png"
    out = run(
        "--headless", "--frames", "30", "--provider", "scripted", "--map", str(path),
        "--screenshot", str(shot), tmp=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert shot.is_file() and "Traceback" not in out.stderr
    warned = [line for line in out.stderr.splitlines() if "hamlet.tmx: NPC" in line]
    assert len(warned) == 2, out.stderr  # one line an NPC, though the map is read twice
    assert "'Hilda' has no id, persona, greeting, sprite" in warned[0]
    assert "'dragon' that is not in assets/characters" in warned[1]


def test_bad_slot_and_script_are_one_line(tmp_path: Path) -> None:
    for bad in ("../x", ""):
        out = run("--headless", "--frames", "1", "--slot", bad, tmp=tmp_path)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert "a-z" in out.stderr  # the rule, as for every other bad name
    (tmp_path / "bad.txt").write_text("10 jump E\n")
    out = run("--headless", "--frames", "1", "--script", str(tmp_path / "bad.txt"), tmp=tmp_path)
    assert out.returncode == 2 and "unknown action" in out.stderr


def test_headless_screenshot_shows_player_and_streamed_bubble(tmp_path: Path) -> None:
    script = tmp_path / "talk.txt"
    script.write_text(SCRIPT)
    shot = tmp_path / "shot.png"
    out = run(
        "--headless",
        "--frames",
        "200",
        "--provider",
        "scripted",
        "--script",
        str(script),
        "--hour",
        "13",  # Pip's plan has it on the plaza, where it stands, in the midday light
        "--screenshot",
        str(shot),
        tmp=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    img = Image.open(shot).convert("RGB")
    assert img.size == (1280, 720)
    assert len(img.getcolors(1 << 20) or []) > 200, "the frame is (nearly) one flat colour"

    n_player, px, py = locate(img, own_colours("player"))
    assert n_player >= 40, "the player sprite is not drawn"
    n_pip, nx, ny = locate(img, own_colours("child"))
    assert n_pip >= 40, "Pip is not drawn"
    assert abs(nx - px) <= 40 and abs(ny - py) <= 10, "the player did not walk next to Pip"

    # A speech bubble (cream fill with dark text) sits above Pip's head.
    box = (nx - 160, ny - 180, nx + 160, ny - 16)
    cream, ink = bubble_pixels(img.crop(box))
    assert cream > 2500, f"no bubble above Pip ({cream} cream pixels)"
    assert ink > 80, f"the bubble holds no text ({ink} ink pixels)"


def test_no_display_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("ARCADE_HEADLESS", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = ":999"  # an X display that does not exist, on any machine
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "run_game.py"),
            "--provider",
            "scripted",
            "--saves-dir",
            str(tmp_path / "saves"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot open the game window" in lines[0]
