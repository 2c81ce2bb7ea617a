"""A key goes only where the player meant it to: one `note:` line on stderr, before any
request, when an API key will be sent to a base URL off the provider's own host; and
never in clear text to a host off this machine unless the player allowed it."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from provider_kit import Reply, Seen, SSEServer, chat_chunk

from game.config import ConfigError, Settings, load_settings
from game.providers import key_destination, select_provider

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-proj-destinationdestination0123456789"
AKEY = "sk-ant-api03-destinationdestination0123"


def settings(tmp_path: Path, explicit: dict[str, Any] | None = None, **env: str) -> Settings:
    env = {"NPC_VILLAGE_CONFIG_DIR": str(tmp_path / "cfg"), **env}
    return load_settings(explicit, env=env, cwd=tmp_path)


def _answer(seen: Seen) -> Reply:
    return Reply(
        body=[chat_chunk({"content": "Morning!"}), chat_chunk({}, "stop"), b"data: [DONE]\n\n"]
    )


async def test_a_key_sent_to_a_base_url_from_dotenv_is_named_once(
    server: SSEServer, tmp_path: Path
) -> None:
    server.reply_for = _answer
    (tmp_path / ".env").write_text(f"NPC_VILLAGE_BASE_URL={server.url}/v1\n")
    env = {**os.environ, "OPENAI_API_KEY": KEY, "NPC_VILLAGE_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("NPC_VILLAGE_BASE_URL", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "run_game.py"), "chat", "tobin", "hi",
        "--provider", "openai-chat", "--saves-dir", str(tmp_path / "saves"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp_path, env=env,
    )  # fmt: skip
    out, err = (b.decode() for b in await asyncio.wait_for(proc.communicate(), timeout=60))
    assert proc.returncode == 0, err
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, err
    assert err.splitlines()[0] == notes[0]  # before anything else the run says
    note = notes[0]
    assert f"127.0.0.1:{server.port}" in note and ".env" in note
    assert "OPENAI_API_KEY" in note and "environment" in note
    assert KEY not in out and KEY not in err and KEY[-8:] not in err
    assert "Morning!" in out
    # The note told the truth: the key went there.
    assert server.requests and server.requests[0].headers["authorization"] == f"Bearer {KEY}"


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


async def test_the_official_host_by_the_flag_prints_nothing(
    tmp_path: Path, client: httpx.AsyncClient, capsys: pytest.CaptureFixture[str]
) -> None:
    for provider, url, var, key in [
        ("openai-chat", "https://api.openai.com/v1", "OPENAI_API_KEY", KEY),
        ("openai", "https://API.openai.com/v1/", "OPENAI_API_KEY", KEY),
        ("anthropic", "https://api.anthropic.com", "ANTHROPIC_API_KEY", AKEY),
    ]:
        s = settings(tmp_path, {"provider": provider, "base_url": url}, **{var: key})
        assert key_destination(s, provider) is None
        select_provider(s, client, make_scripted=lambda _s: None)  # type: ignore[arg-type,return-value]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("provider", "url", "env", "dotenv", "toml", "expected"),
    [
        # The example of the rule: a key of the environment, a base URL of ./.env.
        ("openai-chat", "https://evil.example:8443/v1", {"OPENAI_API_KEY": KEY}, "url", "",
         "OPENAI_API_KEY found in the environment will be sent to evil.example:8443 "
         "(NPC_VILLAGE_BASE_URL found in .env)"),
        # Anthropic's key to OpenAI's host is off its own host too.
        ("anthropic", "https://api.openai.com", {"ANTHROPIC_API_KEY": AKEY}, "", "url",
         "ANTHROPIC_API_KEY found in the environment will be sent to api.openai.com "
         "(base_url found in"),
        # A user name in the URL does not hide the host it names.
        ("openai", "https://api.openai.com@evil.example/v1", {}, "key", "url",
         "OPENAI_API_KEY found in .env will be sent to evil.example ("),
        ("openai", "http://[::1]:9/v1", {"OPENAI_API_KEY": KEY}, "", "url", "to [::1]:9 ("),
    ],
)  # fmt: skip
def test_a_key_off_its_own_host_is_named_with_both_sources(
    tmp_path: Path,
    provider: str,
    url: str,
    env: dict[str, str],
    dotenv: str,
    toml: str,
    expected: str,
) -> None:
    (tmp_path / "cfg").mkdir()
    lines = {"url": f"NPC_VILLAGE_BASE_URL={url}\n", "key": f"OPENAI_API_KEY={KEY}\n", "": ""}
    (tmp_path / ".env").write_text(lines[dotenv])
    if toml:
        (tmp_path / "cfg" / "config.toml").write_text(f'base_url = "{url}"\n')
    note = key_destination(settings(tmp_path, **env), provider)
    assert note is not None and note.startswith("note: ") and expected in note, note
    assert "\n" not in note and KEY not in note and AKEY not in note


def test_no_key_or_no_base_url_is_no_note(tmp_path: Path) -> None:
    no_key = settings(tmp_path, NPC_VILLAGE_BASE_URL="http://127.0.0.1:8080/v1")
    assert key_destination(no_key, "openai-chat") is None
    no_url = settings(tmp_path, OPENAI_API_KEY=KEY)
    assert key_destination(no_url, "openai") is None
    other_key = settings(tmp_path, NPC_VILLAGE_BASE_URL="http://x.example", OPENAI_API_KEY=KEY)
    assert key_destination(other_key, "anthropic") is None  # no Anthropic key to send


# --- never in clear text: a key over plain http off this machine is refused ----------------

INSECURE_HINT = "use https, or set allow_insecure_key = true in"


@pytest.mark.parametrize(
    ("provider", "url", "var", "key"),
    [
        ("openai", "http://api.openai.com/v1", "OPENAI_API_KEY", KEY),  # its own host, plain
        ("openai-chat", "http://api.example.com/v1", "OPENAI_API_KEY", KEY),
        ("anthropic", "http://api.anthropic.com", "ANTHROPIC_API_KEY", AKEY),
        ("openai-chat", "http://10.1.2.3:8080/v1", "OPENAI_API_KEY", KEY),
        ("openai", "HTTP://User:pw@Api.OpenAI.com/v1", "OPENAI_API_KEY", KEY),
    ],
)
async def test_a_key_over_plain_http_off_this_machine_is_refused(
    tmp_path: Path, client: httpx.AsyncClient, provider: str, url: str, var: str, key: str
) -> None:
    (tmp_path / ".env").write_text(f"NPC_VILLAGE_BASE_URL={url}\n")
    s = settings(tmp_path, {"provider": provider}, **{var: key})
    with pytest.raises(ConfigError) as info:
        select_provider(s, client, make_scripted=lambda _s: None)  # type: ignore[arg-type,return-value]
    line = str(info.value)
    assert line.startswith(f"refusing to send {var} in clear text to "), line
    assert "(NPC_VILLAGE_BASE_URL found in .env)" in line and INSECURE_HINT in line
    assert line.endswith("or pass --allow-insecure-key if you mean it")
    assert "\n" not in line and key not in line and ":pw@" not in line


async def test_auto_refuses_too_and_a_key_of_no_use_there_is_no_matter(
    tmp_path: Path, client: httpx.AsyncClient
) -> None:
    url = {"NPC_VILLAGE_BASE_URL": "http://models.example/v1"}
    with pytest.raises(ConfigError, match="refusing to send OPENAI_API_KEY in clear text"):
        select_provider(
            settings(tmp_path, OPENAI_API_KEY=KEY, **url),
            client,
            make_scripted=lambda _s: None,  # type: ignore[arg-type,return-value]
        )
    # No key: nothing secret travels, so a plain-http server is fine.
    sel = select_provider(settings(tmp_path, **url), client, make_scripted=lambda _s: None)  # type: ignore[arg-type,return-value]
    assert sel.provider.base_url == "http://models.example/v1"


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8080/v1", "http://localhost:11434/v1", "http://[::1]:8080/v1",
     "http://127.0.0.9/v1", "https://api.example.com/v1"],
)  # fmt: skip
async def test_loopback_http_and_https_keep_working(
    tmp_path: Path, client: httpx.AsyncClient, url: str
) -> None:
    s = settings(tmp_path, {"provider": "openai-chat", "base_url": url}, OPENAI_API_KEY=KEY)
    sel = select_provider(s, client, make_scripted=lambda _s: None)  # type: ignore[arg-type,return-value]
    assert sel.provider.base_url == url


async def test_only_the_flag_or_config_toml_allow_a_key_in_clear_text(
    tmp_path: Path, client: httpx.AsyncClient, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".env").write_text(
        "NPC_VILLAGE_BASE_URL=http://api.example.com/v1\nNPC_VILLAGE_ALLOW_INSECURE_KEY=1\n"
        "allow_insecure_key=true\n"
    )
    env = {"OPENAI_API_KEY": KEY, "NPC_VILLAGE_ALLOW_INSECURE_KEY": "1"}
    s = settings(tmp_path, {"provider": "openai-chat"}, **env)
    assert not s.allow_insecure_key  # neither a .env nor the environment can allow it
    with pytest.raises(ConfigError, match="refusing"):
        select_provider(s, client, make_scripted=lambda _s: None)  # type: ignore[arg-type,return-value]
    flagged = settings(tmp_path, {"provider": "openai-chat", "allow_insecure_key": True}, **env)
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.toml").write_text("allow_insecure_key = true\n")
    configured = settings(tmp_path, {"provider": "openai-chat"}, **env)
    for allowed in (flagged, configured):
        sel = select_provider(allowed, client, make_scripted=lambda _s: None)  # type: ignore[arg-type,return-value]
        assert sel.provider.base_url == "http://api.example.com/v1"
    assert "will be sent to api.example.com" in capsys.readouterr().err  # still told


async def test_the_refusal_from_the_command_line_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("NPC_VILLAGE_BASE_URL=http://npc-village.invalid/v1\n")
    env = {**os.environ, "OPENAI_API_KEY": KEY, "NPC_VILLAGE_CONFIG_DIR": str(tmp_path / "cfg")}
    env.pop("NPC_VILLAGE_BASE_URL", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "run_game.py"), "chat", "tobin", "hi",
        "--provider", "openai-chat", "--saves-dir", str(tmp_path / "saves"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp_path, env=env,
    )  # fmt: skip
    out, err = (b.decode() for b in await asyncio.wait_for(proc.communicate(), timeout=60))
    assert proc.returncode == 2, err
    assert err.splitlines() == [
        "error: refusing to send OPENAI_API_KEY in clear text to http://npc-village.invalid/v1 "
        f"(NPC_VILLAGE_BASE_URL found in .env): use https, or set allow_insecure_key = true in "
        f"{tmp_path / 'cfg' / 'config.toml'} or pass --allow-insecure-key if you mean it"
    ]
    assert not out and KEY not in err
