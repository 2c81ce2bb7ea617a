"""How the game picks and wraps providers: fallback, per-trigger models, notices."""

from __future__ import annotations

import socket

from game.agent.facts import NpcFacts, TriggerFacts
from game.agent.memory import summarizer_for
from game.agent.providers.base import Done, Message, ProviderRequest, TextDelta
from game.agent.providers.fake import FakeProvider, reply
from game.agent.providers.fallback import FallbackProvider
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.providers.registry import Capabilities
from game.agent.trigger import Trigger
from game.config import Settings
from game.village import Providers, open_providers

REMOTE = Capabilities(remote=True)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when we return: connections refused


def request() -> ProviderRequest:
    return ProviderRequest(
        system="You are Tobin.",
        messages=[Message(role="user", content='Player says: """hello"""')],
        npc=NpcFacts(
            npc_id="tobin", name="Tobin", persona="A cheerful baker.", greeting="Morning, friend!"
        ),
        trigger=TriggerFacts(kind="player_message", text="hello", source="player", said="hello"),
    )


async def test_unreachable_server_falls_back_to_scripted_at_once() -> None:
    settings = Settings(provider="openai-chat", base_url=f"http://127.0.0.1:{closed_port()}/v1")
    providers = await open_providers(settings)
    try:
        assert isinstance(providers.provider, FallbackProvider)
        assert providers.provider is providers.fallback
        assert isinstance(providers.primary, OpenAIChatProvider)  # the model, unwrapped
        assert providers.fallback.primary is providers.primary
        # Summaries are the model's own: the scripted fallback never writes one.
        assert summarizer_for(providers.primary) is providers.primary
        assert "chat completions" in providers.reason
        events = [e async for e in providers.provider.stream(request())]
        text = "".join(e.text for e in events if isinstance(e, TextDelta))
        assert text == "Morning, friend!"  # the persona brain answered in character
        assert isinstance(events[-1], Done)
    finally:
        await providers.aclose()


async def test_scripted_is_not_wrapped() -> None:
    providers = await open_providers(Settings(provider="scripted"))
    assert providers.provider.name == "scripted"
    assert providers.fallback is None and providers.provider is providers.primary
    assert not isinstance(providers.provider, FallbackProvider)
    assert summarizer_for(providers.primary) is None
    await providers.aclose()


async def test_a_model_per_trigger_kind() -> None:
    fake = FakeProvider([reply("a"), reply("b")], name="openai", capabilities=REMOTE)
    providers = Providers(fake, "test")
    settings = Settings(model="big", models_by_trigger={"idle": "small"})
    pick = providers.provider_for(settings)
    assert pick is not None
    for trigger in (Trigger(kind="idle", text="tick"), Trigger.player("hi")):
        async for _ in pick(trigger).stream(request()):
            pass
    assert [c.model for c in fake.calls] == ["small", None]  # None: the provider's own model
