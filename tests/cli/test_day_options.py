"""The play options of the time of day: `--day-minutes M` (real minutes a game day lasts,
a setting) and `--hour H` (the time of day play starts at); a bad value is one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from game.cli import build_parser, main, start_hour

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No config.toml, .env or day variable of the machine running the tests."""
    monkeypatch.setenv("NPC_VILLAGE_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.delenv("NPC_VILLAGE_DAY_MINUTES", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("prefix", [[], ["play"]])
def test_the_options_parse(prefix: list[str]) -> None:
    args = build_parser().parse_args([*prefix, "--day-minutes", "30", "--hour", "20.5"])
    assert args.day_minutes == "30" and start_hour(args.hour) == 20.5
    plain = build_parser().parse_args(prefix)
    assert plain.day_minutes is None and start_hour(plain.hour) is None


@pytest.mark.parametrize(("text", "hour"), [("0", 0.0), ("24", 24.0), (" 7.25 ", 7.25)])
def test_an_hour_of_the_day(text: str, hour: float) -> None:
    assert start_hour(text) == hour


@pytest.mark.parametrize("value", ["25", "-1", "nan", "inf", "noon", ""])
def test_a_bad_hour_is_one_line(isolated: Path, capsys, value: str) -> None:  # type: ignore[no-untyped-def]
    code = main(["--headless", "--hour", value, "--saves-dir", str(isolated / "saves")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: --hour {value!r} is no time of day: give an hour from 0 to 24")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("0", "greater than or equal to 1"),
        ("20000", "less than or equal to 10080"),
        ("nan", "finite number"),
        ("long", "valid number"),
    ],
)
def test_bad_day_minutes_is_one_line(isolated: Path, capsys, value: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    code = main(["--headless", "--day-minutes", value, "--saves-dir", str(isolated / "saves")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("error: command line: day_minutes: ") and expected in err


def test_a_headless_run_starts_at_the_hour(tmp_path: Path) -> None:
    """The same frame at noon and at 11 pm: the night's is darker."""
    brightness = {}
    for hour in ("12", "23"):
        shot = tmp_path / f"at-{hour}.png"
        run = subprocess.run(
            [sys.executable, str(ROOT / "run_game.py"), "--headless", "--frames", "2",
             "--provider", "scripted", "--hour", hour, "--day-minutes", "30",
             "--saves-dir", str(tmp_path / f"saves-{hour}"), "--screenshot", str(shot)],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        grey = Image.open(shot).convert("L").resize((64, 36))
        brightness[hour] = sum(grey.getdata()) / (64 * 36)
    assert brightness["23"] < 0.7 * brightness["12"], brightness
