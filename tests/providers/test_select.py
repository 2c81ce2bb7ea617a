"""Provider selection from settings, and the fallback circuit breaker."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from provider_kit import make_request

from game.agent.providers.anthropic import AnthropicProvider
from game.agent.providers.base import (
    Done,
    ErrorKind,
    Provider,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
)
from game.agent.providers.fallback import FallbackProvider
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.providers.openai_responses import OpenAIResponsesProvider
from game.config import ConfigError, Settings, load_settings
from game.providers import select_provider

KEY = "sk-proj-selectselectselect0123456789"
AKEY = "sk-ant-api03-selectselectselect0123"


class Fake(Provider):
    """A provider whose every call plays the next list of events (or raises)."""

    def __init__(self, name: str, *steps: list[Any] | Exception) -> None:
        self.name = name
        self.model = f"{name}-model"
        self.steps = list(steps)
        self.calls = 0
        self.closed = False

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        self.calls += 1
        step = self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        if isinstance(step, Exception):
            raise step
        for event in step:
            yield event

    async def aclose(self) -> None:
        self.closed = True


OK = [TextDelta(text="hi"), Done()]
SCRIPTED_OK = [TextDelta(text="*waves*"), Done()]


def fail(kind: ErrorKind) -> list[Any]:
    return [ProviderError(kind=kind, message=f"primary {kind}")]


def settings(tmp_path: Path, explicit: dict[str, Any] | None = None, **env: str) -> Settings:
    env = {"NPC_VILLAGE_CONFIG_DIR": str(tmp_path), **env}
    return load_settings(explicit, env=env, cwd=tmp_path)


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


def choose(s: Settings, client: httpx.AsyncClient, local: bool = False):
    return select_provider(
        s,
        client,
        local_available=lambda: local,
        make_local=lambda _s: Fake("local", OK),
        make_scripted=lambda _s: Fake("scripted", OK),
    )


# --- selection ----------------------------------------------------------------------------------


async def test_auto_prefers_openai_key_from_environment(tmp_path: Path, client) -> None:
    sel = choose(settings(tmp_path, OPENAI_API_KEY=KEY, ANTHROPIC_API_KEY=AKEY), client, True)
    assert isinstance(sel.provider, OpenAIResponsesProvider)
    assert sel.provider.model == "gpt-4o-mini"
    assert sel.reason.startswith("auto: OPENAI_API_KEY found in the environment")
    assert KEY not in sel.reason and KEY not in repr(sel)


async def test_auto_uses_anthropic_key_from_dotenv(tmp_path: Path, client) -> None:
    (tmp_path / ".env").write_text(f"ANTHROPIC_API_KEY={AKEY}\n")
    sel = choose(settings(tmp_path), client, True)
    assert isinstance(sel.provider, AnthropicProvider)
    assert sel.provider.model == "claude-3-5-haiku-latest"
    assert "ANTHROPIC_API_KEY found in .env" in sel.reason


async def test_auto_key_in_config_file(tmp_path: Path, client) -> None:
    (tmp_path / "config.toml").write_text(f'openai_api_key = "{KEY}"\nmodel = "gpt-4.1"\n')
    sel = choose(settings(tmp_path), client)
    assert isinstance(sel.provider, OpenAIResponsesProvider) and sel.provider.model == "gpt-4.1"
    assert "openai_api_key found in" in sel.reason


async def test_auto_base_url_only_means_a_compatible_server(tmp_path: Path, client) -> None:
    sel = choose(settings(tmp_path, NPC_VILLAGE_BASE_URL="http://127.0.0.1:8080/v1"), client)
    assert isinstance(sel.provider, OpenAIChatProvider)
    assert sel.provider.base_url == "http://127.0.0.1:8080/v1"


async def test_auto_local_then_scripted(tmp_path: Path, client, monkeypatch) -> None:
    monkeypatch.setenv("NPC_VILLAGE_CACHE_DIR", str(tmp_path / "cache"))  # nothing downloaded
    s = settings(tmp_path)
    local = choose(s, client, local=True)
    assert local.provider.name == "local" and "local model installed" in local.reason
    assert local.reason.endswith("; bundled model (no catalogue model downloaded)")
    scripted = choose(s, client, local=False)
    assert scripted.provider.name == "scripted"
    assert scripted.reason == "auto: no API key and no local model; scripted NPC behaviour"


async def test_explicit_choice_beats_keys(tmp_path: Path, client) -> None:
    s = settings(tmp_path, {"provider": "scripted"}, OPENAI_API_KEY=KEY)
    sel = choose(s, client)
    assert sel.provider.name == "scripted" and "command line" not in sel.reason
    assert sel.reason.startswith("provider 'scripted' chosen (cli)")


@pytest.mark.parametrize(
    ("provider", "message"),
    [
        ("openai", "openai needs an API key: set OPENAI_API_KEY or add openai_api_key to "),
        ("anthropic", "anthropic needs an API key: set ANTHROPIC_API_KEY or add anthropic_api_key"),
        ("openai-chat", "openai-chat needs a model"),
        ("local", "the local model is not installed"),
    ],
)
async def test_explicit_provider_that_cannot_work(
    tmp_path: Path,
    client: httpx.AsyncClient,
    provider: str,
    message: str,
) -> None:
    s = settings(tmp_path, {"provider": provider})
    with pytest.raises(ConfigError) as info:
        choose(s, client)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)
    if provider == "openai":
        assert str(tmp_path / "config.toml") in str(info.value)


async def test_openai_chat_with_model_needs_key_only_for_openai(tmp_path: Path, client) -> None:
    with pytest.raises(ConfigError, match="openai-chat needs an API key"):
        choose(settings(tmp_path, {"provider": "openai-chat", "model": "gpt-4o"}), client)
    s = settings(tmp_path, {"provider": "openai-chat", "model": "gpt-4o"}, OPENAI_API_KEY=KEY)
    sel = choose(s, client)
    assert isinstance(sel.provider, OpenAIChatProvider) and sel.provider.model == "gpt-4o"
    s = settings(tmp_path, {"provider": "openai-chat", "base_url": "http://localhost:11434/v1"})
    sel = choose(s, client)
    assert isinstance(sel.provider, OpenAIChatProvider) and sel.provider.model == "default"


async def test_explicit_openai_through_a_proxy_needs_no_key(tmp_path: Path, client) -> None:
    s = settings(tmp_path, {"provider": "openai", "base_url": "http://proxy.local/v1"})
    sel = choose(s, client)
    assert isinstance(sel.provider, OpenAIResponsesProvider)
    assert sel.provider.base_url == "http://proxy.local/v1"


# --- fallback / circuit breaker ---------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def run(provider: Provider) -> list[Any]:
    return [e async for e in provider.stream(make_request())]


async def test_early_failure_is_served_by_fallback_immediately() -> None:
    primary = Fake("openai", fail("transport"))
    fallback = Fake("scripted", SCRIPTED_OK)
    fp = FallbackProvider(primary, fallback, clock=Clock())
    assert await run(fp) == SCRIPTED_OK
    assert (primary.calls, fallback.calls) == (1, 1)
    assert fp.notice is None  # one failure does not open the circuit
    assert fp.fallbacks == 1


async def test_primary_exception_is_served_by_fallback() -> None:
    primary = Fake("openai", RuntimeError("bug"))
    fallback = Fake("scripted", SCRIPTED_OK)
    assert await run(FallbackProvider(primary, fallback)) == SCRIPTED_OK


async def test_late_failure_is_passed_through() -> None:
    primary = Fake("openai", [TextDelta(text="Hel"), *fail("transport")])
    fallback = Fake("scripted", SCRIPTED_OK)
    events = await run(FallbackProvider(primary, fallback))
    assert events[0] == TextDelta(text="Hel") and isinstance(events[1], ProviderError)
    assert fallback.calls == 0


async def test_circuit_opens_after_repeated_failures_and_half_opens() -> None:
    clock = Clock()
    primary = Fake("openai", fail("timeout"), fail("auth"), fail("transport"), OK)
    fallback = Fake("scripted", SCRIPTED_OK)
    fp = FallbackProvider(primary, fallback, failures_to_open=3, reset_after_s=60, clock=clock)
    for _ in range(3):
        assert await run(fp) == SCRIPTED_OK
    assert primary.calls == 3 and fp.breaker.state == "open"
    assert fp.fallbacks == 3
    assert fp.notice == "OpenAI unreachable — NPCs use scripted behaviour; retrying in 60 s"

    clock.now += 20
    assert await run(fp) == SCRIPTED_OK
    assert primary.calls == 3  # open: the primary is not even asked
    assert fp.fallbacks == 4
    assert dict(fp.fallback_causes) == {"timeout": 1, "auth": 1, "transport": 1, "open": 1}
    assert fp.notice is not None and fp.notice.endswith("retrying in 40 s")

    clock.now += 40  # half-open: one probe goes to the primary, which now works
    assert fp.breaker.state == "half-open"
    assert await run(fp) == OK
    assert primary.calls == 4 and fp.breaker.state == "closed" and fp.notice is None
    assert fp.fallbacks == 4  # the primary answered


async def test_failed_probe_reopens_for_another_period() -> None:
    clock = Clock()
    primary = Fake("anthropic", fail("auth"))
    fallback = Fake("scripted", SCRIPTED_OK)
    fp = FallbackProvider(primary, fallback, failures_to_open=2, reset_after_s=30, clock=clock)
    await run(fp)
    await run(fp)
    assert fp.breaker.state == "open"
    assert (
        fp.notice
        == "Anthropic rejected the API key — NPCs use scripted behaviour; retrying in 30 s"
    )
    clock.now += 30
    await run(fp)  # the probe fails
    assert primary.calls == 3 and fp.breaker.state == "open"
    assert fp.breaker.seconds_until_retry() == 30


async def test_other_error_kinds_fall_back_but_do_not_open_the_circuit() -> None:
    primary = Fake("openai", fail("context_overflow"))
    fallback = Fake("scripted", SCRIPTED_OK)
    fp = FallbackProvider(primary, fallback, failures_to_open=1, clock=Clock())
    for _ in range(3):
        assert await run(fp) == SCRIPTED_OK
    assert primary.calls == 3 and fp.breaker.state == "closed"


async def test_success_resets_the_failure_count() -> None:
    primary = Fake("openai", fail("transport"), fail("transport"), OK, fail("transport"), OK)
    fallback = Fake("scripted", SCRIPTED_OK)
    fp = FallbackProvider(primary, fallback, failures_to_open=3, clock=Clock())
    for _ in range(5):
        await run(fp)
    assert fp.breaker.state == "closed" and fp.breaker.failures == 0


async def test_only_one_probe_at_a_time_when_half_open() -> None:
    clock = Clock()
    primary = Fake("openai", fail("transport"), OK)
    fallback = Fake("scripted", SCRIPTED_OK)
    fp = FallbackProvider(primary, fallback, failures_to_open=1, reset_after_s=5, clock=clock)
    await run(fp)
    clock.now += 5
    probe = fp.stream(make_request()).__aiter__()
    assert await probe.__anext__() == TextDelta(text="hi")  # probe in flight
    assert await run(fp) == SCRIPTED_OK  # a second request meanwhile goes to the fallback
    assert [e async for e in probe] == [Done()]
    assert fp.breaker.state == "closed"


async def test_aclose_closes_both() -> None:
    primary, fallback = Fake("openai", OK), Fake("scripted", OK)
    await FallbackProvider(primary, fallback).aclose()
    assert primary.closed and fallback.closed
