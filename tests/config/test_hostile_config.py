"""Config files that are not what they seem: a FIFO, a directory, a huge file, inf and nan."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.config import ConfigError, Settings, load_settings, update_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A config dir and a separate working dir, both empty."""
    (tmp_path / "cfg").mkdir()
    (tmp_path / "work").mkdir()
    return tmp_path


def load(home: Path) -> Settings:
    return load_settings(env={"NPC_VILLAGE_CONFIG_DIR": str(home / "cfg")}, cwd=home / "work")


def one_line(info: pytest.ExceptionInfo[ConfigError]) -> str:
    message = str(info.value)
    assert "\n" not in message and info.value.__cause__ is None
    return message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("where", ["cfg/config.toml", "work/.env"])
def test_a_fifo_is_refused_in_one_line_instead_of_hanging(home: Path, where: str) -> None:
    fifo = home / where
    os.mkfifo(fifo)
    env = {**os.environ, "NPC_VILLAGE_CONFIG_DIR": str(home / "cfg")}
    out = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "chat", "tobin", "hi",
         "--provider", "scripted", "--saves-dir", str(home / "saves")],
        capture_output=True, text=True, timeout=60, cwd=home / "work", env=env,
    )  # fmt: skip
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert str(fifo) in lines[0] and "not a regular file" in lines[0]
    assert not out.stdout


@pytest.mark.parametrize("where", ["cfg/config.toml", "work/.env"])
def test_a_directory_is_refused(home: Path, where: str) -> None:
    (home / where).mkdir()
    with pytest.raises(ConfigError) as info:
        load(home)
    message = one_line(info)
    assert str(home / where) in message and "directory" in message


@pytest.mark.parametrize("where", ["cfg/config.toml", "work/.env"])
def test_a_file_over_a_megabyte_is_refused_unread(home: Path, where: str) -> None:
    (home / where).write_bytes(b"# padding\n" * 110_000)
    with pytest.raises(ConfigError) as info:
        load(home)
    message = one_line(info)
    assert str(home / where) in message and "1.0 MB" in message


def test_a_file_not_in_utf8_names_the_file_and_the_fix(home: Path) -> None:
    (home / "work" / ".env").write_bytes(b"NPC_VILLAGE_MODEL=caf\xe9\n")
    with pytest.raises(ConfigError) as info:
        load(home)
    message = one_line(info)
    assert str(home / "work" / ".env") in message and "UTF-8" in message


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("turn_timeout_s = inf", "turn_timeout_s"),
        ("text_speed = nan", "text_speed"),
        ("autosave_minutes = -inf", "autosave_minutes"),
        ("volume = nan", "volume"),
    ],
)
def test_numbers_must_be_finite(home: Path, line: str, field: str) -> None:
    path = home / "cfg" / "config.toml"
    path.write_text(line + "\n")
    with pytest.raises(ConfigError) as info:
        load(home)
    message = one_line(info)
    assert message.startswith(f"{path}: {field}: ") and "finite" in message
    with pytest.raises(ConfigError, match="finite"):
        update_config({field: float(line.split("= ")[1])}, path.with_name("other.toml"))
