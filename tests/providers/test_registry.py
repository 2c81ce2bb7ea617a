"""The provider registry: every entry builds its provider, and the capabilities it names are
what that provider really does; the settings, the CLI and the screen read its names."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from game.agent.facts import NpcFacts, TriggerFacts
from game.agent.providers.base import Message, Provider, ProviderError, ProviderRequest
from game.agent.providers.fallback import FallbackProvider
from game.agent.providers.local.client.provider import LocalLlamaProvider
from game.agent.providers.registry import (
    PROVIDER_NAMES,
    REGISTRY,
    REMOTE_PROVIDERS,
    Capabilities,
)
from game.config import ENV_VARS, KEY_FIELDS, ConfigError, Settings, load_settings
from game.npc.scripted.persona import PersonaProvider
from game.providers import select_provider
from game.village import WithModel


def request() -> ProviderRequest:
    return ProviderRequest(
        system="You are Tobin.",
        messages=[Message(role="user", content='Player says: """hello"""')],
        npc=NpcFacts(npc_id="tobin", name="Tobin", persona="A baker.", greeting="Morning!"),
        trigger=TriggerFacts(kind="player_message", text="hello", source="player", said="hello"),
    )


class Seen:
    """An HTTP transport that refuses every request (401: no retry) and keeps its URL."""

    def __init__(self) -> None:
        self.urls: list[httpx.URL] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.urls.append(request.url)
        return httpx.Response(401, json={"error": {"message": "no", "type": "auth"}})


@pytest.fixture
async def built(tmp_path: Path) -> AsyncIterator[tuple[dict[str, Provider], Seen]]:
    """Every registry entry built by `select_provider`, over a client that records URLs."""
    seen = Seen()
    made: dict[str, Provider] = {}
    async with httpx.AsyncClient(transport=httpx.MockTransport(seen)) as client:
        for name in REGISTRY:
            settings = Settings(
                provider=name, model="m", openai_api_key="sk-a", anthropic_api_key="sk-b"
            )
            made[name] = select_provider(
                settings,
                client,
                local_available=lambda: True,
                make_local=lambda _s: LocalLlamaProvider(probe_cache=tmp_path / "probe.json"),
                make_scripted=lambda _s: PersonaProvider(delay_s=0),
            ).provider
        try:
            yield made, seen
        finally:
            for provider in made.values():
                await provider.aclose()


async def test_each_entry_builds_its_provider_with_its_capabilities(
    built: tuple[dict[str, Provider], Seen],
) -> None:
    made, _ = built
    for name, provider in made.items():
        assert provider.name == name
        assert provider.capabilities == REGISTRY[name].capabilities, name


async def test_the_capabilities_are_what_each_provider_does(
    built: tuple[dict[str, Provider], Seen],
) -> None:
    made, seen = built
    for name, provider in made.items():
        caps = REGISTRY[name].capabilities
        # prime and load: only a provider that can overrides the base's do-nothing default
        assert (type(provider).prime is not Provider.prime) == caps.can_prime, name
        assert (type(provider).load is not Provider.load) == caps.needs_loading, name
        if caps.serial:  # one queue, served one at a time: while paused, all of it waits
            assert isinstance(provider, LocalLlamaProvider)
            provider.pause()
            provider.stream(request())
            provider.stream(request())
            assert provider.pending() == 2
        if caps.can_prime:  # a prime is queued like a request, at the turn's priority
            assert isinstance(provider, LocalLlamaProvider)
            provider.prime(request())
            assert provider.pending() == 3
            continue  # the local model answers in its own process: nothing over HTTP
        before = len(seen.urls)
        events = [event async for event in provider.stream(request())]
        asked = seen.urls[before:]
        if caps.remote:  # one request, to the entry's own host
            assert [url.host for url in asked] == [urlsplit(REGISTRY[name].base_url).hostname]
            assert isinstance(events[-1], ProviderError) and events[-1].kind == "auth"
        else:
            assert asked == [], name
            assert not isinstance(events[-1], ProviderError), name
    assert {name for name, spec in REGISTRY.items() if spec.capabilities.remote} == {
        "openai",
        "openai-chat",
        "anthropic",
    }
    assert REGISTRY["local"].capabilities == Capabilities(
        serial=True, can_prime=True, needs_loading=True
    )
    assert REGISTRY["scripted"].capabilities == Capabilities()


async def test_wrappers_pass_on_the_primarys_capabilities(tmp_path: Path) -> None:
    local = LocalLlamaProvider(probe_cache=tmp_path / "probe.json")
    try:
        fallback = FallbackProvider(local, PersonaProvider(delay_s=0))
        assert fallback.capabilities == local.capabilities
        assert WithModel(fallback, "other").capabilities == local.capabilities
        assert fallback.stats is local.stats and fallback.notice is None
    finally:
        await local.aclose()


def test_names_keys_and_hosts_come_from_the_registry(tmp_path: Path) -> None:
    assert PROVIDER_NAMES == ("auto", *REGISTRY)
    assert {n for n, s in REGISTRY.items() if s.capabilities.remote} == REMOTE_PROVIDERS
    for name, spec in REGISTRY.items():
        if spec.capabilities.remote:
            assert spec.wire and spec.key_env and spec.key_field and spec.base_url, name
            assert ENV_VARS[spec.key_env] == spec.key_field
            assert spec.key_field in KEY_FIELDS and spec.key_field in Settings.model_fields
        else:
            assert not (spec.wire or spec.key_env or spec.key_field or spec.base_url), name
    env = {"NPC_VILLAGE_CONFIG_DIR": str(tmp_path)}
    for name in PROVIDER_NAMES:
        assert load_settings({"provider": name}, env=env, cwd=tmp_path).provider == name
    with pytest.raises(ConfigError, match="must be one of auto, local, openai, openai-chat"):
        load_settings({"provider": "gemini"}, env=env, cwd=tmp_path)
