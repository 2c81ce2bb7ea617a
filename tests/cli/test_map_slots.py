"""Each map plays in a slot of its own when none is named: the village keeps `default`,
a maker's map plays first try, and a slot named on the wrong map says which map it needs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.paths import default_slot

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]
TINY = ROOT / "maps" / "tiny.tmx"


def run(saves: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUN, *args, "--saves-dir", str(saves)],
        capture_output=True, text=True, timeout=120, cwd=saves,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("map_id", "slot"),
    [
        ("village", "default"),
        ("tiny", "tiny"),
        ("My Map", "my-map"),
        ("Ünïcode map!", "n-code-map"),
        ("default", "map-default"),
        ("数字", "map"),
        ("x" * 90, "x" * 64),
    ],
)
def test_the_default_slot_of_a_map(map_id: str, slot: str) -> None:
    assert default_slot(map_id) == slot


def test_a_second_map_plays_after_the_village_without_a_slot(tmp_path: Path) -> None:
    headless = ["--headless", "--frames", "1", "--provider", "scripted"]
    first = run(tmp_path, *headless)
    assert first.returncode == 0, first.stderr
    mine = tmp_path / "my_map.tmx"
    mine.write_text(TINY.read_text().replace("../assets", str(ROOT / "assets")))
    second = run(tmp_path, *headless, "--map", str(mine))
    assert second.returncode == 0, second.stderr
    chat = run(tmp_path, "chat", "tobin", "Hello!", "--provider", "scripted", "--map", str(mine))
    assert chat.returncode == 0, chat.stderr
    metas = {
        p.parent.name: json.loads(p.read_text())["map_id"] for p in tmp_path.glob("*/meta.json")
    }
    assert metas == {"default": "village", "my_map": "my_map"}
    assert (tmp_path / "my_map" / "npcs" / "tobin" / "session" / "events.jsonl").is_file()


def test_a_slot_of_another_map_names_the_file_it_was_saved_with(tmp_path: Path) -> None:
    elsewhere = tmp_path / "maps of mine"
    elsewhere.mkdir()
    mine = elsewhere / "meadow.tmx"
    mine.write_text(TINY.read_text().replace("../assets", str(ROOT / "assets")))
    made = run(tmp_path, "--headless", "--frames", "1", "--provider", "scripted", "--map",
               str(mine), "--slot", "mine")  # fmt: skip
    assert made.returncode == 0, made.stderr
    for args in (
        ["--headless", "--frames", "1", "--provider", "scripted", "--slot", "mine"],
        ["chat", "pip", "hi", "--provider", "scripted", "--slot", "mine"],
    ):
        out = run(tmp_path, *args)
        assert out.returncode == 2, out.stderr
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and "saved on map 'meadow', not 'village'" in lines[0]
        assert f"--map {mine}" in lines[0]
