"""A base URL from anywhere (flag, environment, .env, config.toml) is checked: a bad one is
one line naming where it came from and what a good one looks like, exit 2, never a
traceback. And a config.toml nested past what the parser can recurse into is one line too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.config import ConfigError, load_settings
from game.urls import in_clear_text, is_loopback, url_problem

ROOT = Path(__file__).resolve().parents[2]
GOOD = "give one like https://api.example.com/v1, or http://127.0.0.1:8080/v1 for a local server"


def run_chat(home: Path, *flags: str | bytes, env: dict[str, str | bytes] | None = None) -> str:
    """`run_game.py chat tobin hi` as a player runs it; the one line it ends with."""
    environment: dict[str, str | bytes] = {**os.environ}
    environment.pop("NPC_VILLAGE_BASE_URL", None)
    environment.update({"NPC_VILLAGE_CONFIG_DIR": str(home / "cfg"), **(env or {})})
    args: list[str | bytes] = [sys.executable, str(ROOT / "run_game.py"), "chat", "tobin", "hi"]
    args += ["--provider", "scripted", "--saves-dir", str(home / "saves"), *flags]
    done = subprocess.run(args, capture_output=True, timeout=60, cwd=home / "work", env=environment)
    err = done.stderr.decode("utf-8")  # strict: what the game prints is UTF-8 text
    assert done.returncode == 2, err
    assert "Traceback" not in err and not done.stdout, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "\r" not in lines[0] and "\x1b" not in lines[0]
    assert not (home / "saves").exists()  # refused before anything was made
    return lines[0]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "work").mkdir()
    return tmp_path


@pytest.mark.parametrize(
    ("url", "shown", "problem"),
    [
        (b"http://caf\xe9.example/v1", r"'http://caf\udce9.example/v1'",
         "has a byte that is not UTF-8 text"),
        (b"http://[::1", "'http://[::1'", "is not a URL"),
        (b"http://127.0.0.1:99999/v1", "'http://127.0.0.1:99999/v1'",
         "has a port that is not a number from 1 to 65535"),
        (b"http://127.0.0.1:8080/v1\r\nX-Evil: 1", r"'http://127.0.0.1:8080/v1\r\nX-Evil: 1'",
         "has a space or a control character"),
        (b"ftp://x", "'ftp://x'", "does not start with http:// or https://"),
        (b"http://", "'http://'", "names no host"),
        (b"not a url", "'not a url'", "has a space or a control character"),
        (b"https://user:hunter2@host.example:0/v1", "'https://host.example:0/v1'",
         "has a port that is not a number from 1 to 65535"),
    ],
)  # fmt: skip
def test_a_bad_base_url_flag_is_one_line_exit_2(
    home: Path, url: bytes, shown: str, problem: str
) -> None:
    line = run_chat(home, b"--base-url", url)
    assert line == f"error: command line: base_url: {shown} {problem}: {GOOD}", line
    assert "hunter2" not in line  # a password in the URL is never shown


def test_a_bad_base_url_from_the_environment_names_the_variable(home: Path) -> None:
    line = run_chat(home, env={"NPC_VILLAGE_BASE_URL": b"http://\xff\xfe/v1"})
    assert line.startswith("error: environment (NPC_VILLAGE_BASE_URL): base_url: ")
    assert "not UTF-8" in line and GOOD in line
    line = run_chat(home, env={"NPC_VILLAGE_BASE_URL": "http://[::1"})
    assert line.startswith("error: environment (NPC_VILLAGE_BASE_URL): base_url: 'http://[::1'")


def test_a_bad_base_url_in_dotenv_names_the_file(home: Path) -> None:
    dotenv = home / "work" / ".env"
    dotenv.write_bytes(b"NPC_VILLAGE_BASE_URL=http://caf\xe9.example/v1\n")
    line = run_chat(home)
    assert str(dotenv) in line and "not UTF-8" in line  # the whole file is refused
    dotenv.write_text("NPC_VILLAGE_BASE_URL=http://127.0.0.1:65536/v1\n")
    line = run_chat(home)
    assert line.startswith(f"error: {dotenv} (NPC_VILLAGE_BASE_URL): base_url: ")
    assert "port that is not a number" in line


def test_a_bad_base_url_in_config_toml_names_the_file(home: Path) -> None:
    config = home / "cfg" / "config.toml"
    config.write_text('base_url = "gopher://old.example"\n')
    line = run_chat(home)
    assert line == (
        f"error: {config}: base_url: 'gopher://old.example' does not start with http:// or "
        f"https://: {GOOD}"
    )


@pytest.mark.parametrize(
    "url",
    [
        "https://api.openai.com/v1",
        "http://127.0.0.1:8080/v1",
        "http://localhost:11434/v1",
        "http://[::1]:9/v1",
        "https://user:pw@proxy.example/v1",
        "http://h:1/v1#frag",
        "https://ünïcode.example/v1",
    ],
)
def test_good_base_urls_pass_from_every_source(home: Path, url: str) -> None:
    assert url_problem(url) is None
    env = {"NPC_VILLAGE_CONFIG_DIR": str(home / "cfg")}
    assert load_settings({"base_url": url}, env=env, cwd=home / "work").base_url == url
    assert load_settings(env={**env, "NPC_VILLAGE_BASE_URL": url}, cwd=home).base_url == url


def test_loopback_and_clear_text() -> None:
    for host in ("localhost", "LOCALHOST.", "127.0.0.1", "127.8.9.10", "::1"):
        assert is_loopback(host), host
    for host in ("api.openai.com", "10.0.0.1", "localhost.example", "", None, "::ffff:8.8.8.8"):
        assert not is_loopback(host), host
    assert in_clear_text("http://api.openai.com/v1")
    assert in_clear_text("http://192.168.1.5:8080/v1")
    assert not in_clear_text("https://api.openai.com/v1")
    assert not in_clear_text("http://127.0.0.1:8080/v1")
    assert not in_clear_text("http://[::1]:8080/v1")


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 100_000 + "]" * 100_000,
        "a = " + "{b = " * 100_000 + "}" * 100_000,
        "a = " + "[{b = " * 50_000 + "}]" * 50_000,
    ],
    ids=["arrays", "inline-tables", "both"],
)
def test_a_config_nested_past_the_parser_is_one_line(home: Path, text: str) -> None:
    config = home / "cfg" / "config.toml"
    config.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_settings(env={"NPC_VILLAGE_CONFIG_DIR": str(home / "cfg")}, cwd=home / "work")
    message = str(info.value)
    assert message.startswith(f"{config}: not valid TOML: arrays or tables nested too deep")
    assert "\n" not in message and info.value.__cause__ is None


def test_a_config_nested_past_the_parser_stops_the_game_in_one_line(home: Path) -> None:
    (home / "cfg" / "config.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000)
    line = run_chat(home)
    assert "nested too deep" in line and "config.toml" in line
