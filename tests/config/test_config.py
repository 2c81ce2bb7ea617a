"""Settings: precedence of the sources, errors in one line, saving, secrecy."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest
from pydantic import SecretStr

from game.config import (
    ConfigError,
    Settings,
    config_path,
    load_settings,
    parse_dotenv,
    redact,
    save_settings,
    update_config,
)

KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789WXYZ"
AKEY = "sk-ant-api03-ZYXWVUTSRQPONMLKJIHGFEDCBA987654321"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A config dir and a separate working dir, both empty."""
    (tmp_path / "cfg").mkdir()
    (tmp_path / "work").mkdir()
    return tmp_path


def load(home: Path, explicit=None, env=None) -> Settings:
    env = {"NPC_VILLAGE_CONFIG_DIR": str(home / "cfg"), **(env or {})}
    return load_settings(explicit, env=env, cwd=home / "work")


def write_toml(home: Path, text: str) -> Path:
    path = home / "cfg" / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_any_source(home: Path) -> None:
    s = load(home)
    assert s == Settings()
    assert (s.provider, s.max_concurrent, s.volume, s.text_speed) == ("auto", 4, 0.0, 1.0)
    assert s.source_of("provider") is None


def test_config_path_override_and_default() -> None:
    assert config_path({"NPC_VILLAGE_CONFIG_DIR": "/x/y"}) == Path("/x/y/config.toml")
    default = config_path({})
    assert default.name == "config.toml" and "npc-village" in str(default)


def test_precedence_explicit_over_env_over_dotenv_over_toml(home: Path) -> None:
    write_toml(
        home,
        'provider = "anthropic"\nmodel = "from-toml"\nbase_url = "http://toml"\n'
        'openai_api_key = "sk-toml-000000000000000000"\nvolume = 0.3\n'
        '[models_by_trigger]\nidle = "gpt-4o-mini"\n',
    )
    (home / "work" / ".env").write_text(
        "NPC_VILLAGE_MODEL=from-dotenv\nNPC_VILLAGE_BASE_URL=http://dotenv\n"
        "OPENAI_API_KEY=sk-dotenv-0000000000000000\n"
    )
    env = {"NPC_VILLAGE_BASE_URL": "http://env", "OPENAI_API_KEY": KEY, "NPC_VILLAGE_MODEL": ""}
    s = load(home, explicit={"base_url": "http://cli", "model": None}, env=env)
    assert s.provider == "anthropic" and s.source_of("provider") == "config.toml"
    assert s.model == "from-dotenv" and s.source_of("model") == ".env"  # empty env ignored
    assert s.base_url == "http://cli" and s.source_of("base_url") == "cli"
    assert s.openai_api_key is not None and s.openai_api_key.get_secret_value() == KEY
    assert s.source_of("openai_api_key") == "env"
    assert s.volume == 0.3 and s.models_by_trigger == {"idle": "gpt-4o-mini"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bad = = toml", "not valid TOML"),
        ('provider = "gpt"', "provider: must be one of auto, local, openai"),
        ("max_concurrent = 0", "max_concurrent: Input should be greater than or equal to 1"),
        ('modle = "x"', "modle: unknown setting"),
        ('volume = "loud"', "volume:"),
    ],
)
def test_broken_toml_is_one_clear_line(home: Path, text: str, expected: str) -> None:
    path = write_toml(home, text)
    with pytest.raises(ConfigError) as info:
        load(home)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path)) and expected in message
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_bad_environment_value_names_the_variable(home: Path) -> None:
    with pytest.raises(ConfigError, match=r"^environment \(NPC_VILLAGE_PROVIDER\): provider"):
        load(home, env={"NPC_VILLAGE_PROVIDER": "gemini"})


def test_bad_cli_value_names_the_command_line(home: Path) -> None:
    with pytest.raises(ConfigError, match=r"^command line: max_concurrent"):
        load(home, explicit={"max_concurrent": -1})


def test_dotenv_parser() -> None:
    text = (
        "# comment\n"
        "export OPENAI_API_KEY='sk-single # not a comment'\n"
        'ANTHROPIC_API_KEY="sk-double \\"q\\"\\nline"\n'
        "NPC_VILLAGE_MODEL = gpt-4o # trailing comment\n"
        "NPC_VILLAGE_BASE_URL=http://h:1/v1#frag\n"
        "not a line\n"
        "=novalue\n"
        "EMPTY=\n"
    )
    assert parse_dotenv(text) == {
        "OPENAI_API_KEY": "sk-single # not a comment",
        "ANTHROPIC_API_KEY": 'sk-double "q"\nline',
        "NPC_VILLAGE_MODEL": "gpt-4o",
        "NPC_VILLAGE_BASE_URL": "http://h:1/v1#frag",
        "EMPTY": "",
    }


def test_save_load_round_trip(home: Path) -> None:
    path = home / "cfg" / "config.toml"
    original = Settings(
        provider="openai-chat",
        model='odd "model" \\ name\n',
        base_url="http://127.0.0.1:8080/v1",
        models_by_trigger={"idle": "small", "player spoke": "big"},
        openai_api_key=SecretStr(KEY),
        anthropic_api_key=SecretStr(AKEY),
        max_concurrent=2,
        turn_timeout_s=12.5,
        idle_chatter=False,
        text_speed=1.5,
        volume=0.25,
        player_name="Ünal ☕",
        autosave_minutes=0,
    )
    save_settings(original, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not list(path.parent.glob(".config-*"))  # no temp file left behind
    tomllib.loads(path.read_text(encoding="utf-8"))
    assert load(home).model_dump() == original.model_dump()


def test_save_never_copies_an_environment_key(home: Path) -> None:
    path = write_toml(home, 'anthropic_api_key = "sk-ant-from-file-0000000000"\n')
    s = load(home, env={"OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": AKEY})
    save_settings(s.model_copy(update={"volume": 0.5}), path)
    text = path.read_text(encoding="utf-8")
    assert KEY not in text and AKEY not in text
    assert "sk-ant-from-file-0000000000" in text  # the file's own key is kept
    assert load(home).volume == 0.5


def test_update_config_changes_only_given_fields(home: Path) -> None:
    path = write_toml(home, 'model = "gpt-4o"\nvolume = 0.1\n')
    s = update_config({"volume": 0.7, "model": None}, path)
    assert s.volume == 0.7 and s.model is None
    reread = tomllib.loads(path.read_text(encoding="utf-8"))
    assert reread["volume"] == 0.7 and "model" not in reread
    with pytest.raises(ConfigError, match="volume"):
        update_config({"volume": 3}, path)


def test_keys_never_in_repr_str_or_dump(home: Path) -> None:
    s = load(home, env={"OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": AKEY})
    for text in (repr(s), str(s), s.model_dump_json(), repr(s.model_dump())):
        assert KEY not in text and AKEY not in text


@pytest.mark.parametrize(
    ("secret", "expected"),
    [(KEY, "sk-…WXYZ"), (AKEY, "sk-…4321"), ("short-12", "…12"), ("abc", "…"), (None, "(not set)")],
)
def test_redact(secret: str | None, expected: str) -> None:
    assert redact(secret) == expected
    if secret:
        assert secret not in redact(secret)


def test_redact_accepts_secretstr(home: Path) -> None:
    s = load(home, env={"OPENAI_API_KEY": KEY})
    assert redact(s.openai_api_key) == "sk-…WXYZ"


def test_day_minutes_from_each_source(home: Path) -> None:
    assert load(home).day_minutes == 24.0  # a game hour a real minute
    write_toml(home, "day_minutes = 48\n")
    assert load(home).day_minutes == 48.0
    env = {"NPC_VILLAGE_DAY_MINUTES": "12.5"}
    assert load(home, env=env).day_minutes == 12.5
    s = load(home, explicit={"day_minutes": "6"}, env=env)
    assert s.day_minutes == 6.0 and s.source_of("day_minutes") == "cli"


@pytest.mark.parametrize(
    ("where", "value", "expected"),
    [
        ("config.toml", "0.5", "day_minutes: Input should be greater than or equal to 1"),
        ("config.toml", "10081", "day_minutes: Input should be less than or equal to 10080"),
        ("config.toml", "nan", "day_minutes: Input should be a finite number"),
        ("env", "soon", "environment (NPC_VILLAGE_DAY_MINUTES): day_minutes:"),
        ("cli", "0", "command line: day_minutes: Input should be greater than or equal to 1"),
        ("cli", "inf", "command line: day_minutes: Input should be a finite number"),
    ],
)
def test_bad_day_minutes_is_one_line(home: Path, where: str, value: str, expected: str) -> None:
    explicit, env = None, None
    if where == "config.toml":
        write_toml(home, f"day_minutes = {value}\n")
    elif where == "env":
        env = {"NPC_VILLAGE_DAY_MINUTES": value}
    else:
        explicit = {"day_minutes": value}
    with pytest.raises(ConfigError) as info:
        load(home, explicit=explicit, env=env)
    message = str(info.value)
    assert "\n" not in message and expected in message, message
