"""Every provider a player can choose, in one table: how it is built, its API key, its
default model, its own host, and what it can do.

`select_provider` builds the provider a setting names from its entry; the command line,
the config and the settings screen read the names; the runtime reads what a provider
can do from its `capabilities` (a provider takes them from its entry here), never by
probing it. A remote entry names its wire format's class, imported when one is built (so
the command line starts without httpx). `local` and `scripted` are built by the factories
the game hands to `select_provider` (`make_local`, `make_scripted`): the scripted brain is
game content, in game/npc, which the agent package never imports.

`auto` is no entry but the choice among them (see `select`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "AUTO",
    "PROVIDER_NAMES",
    "REGISTRY",
    "REMOTE_PROVIDERS",
    "Capabilities",
    "ProviderSpec",
    "known_provider",
]


@dataclass(frozen=True)
class Capabilities:
    """What a provider does beyond streaming; the runtime asks these, never the provider."""

    serial: bool = False  # answers one request at a time: the game paces idle thinking to it
    can_prime: bool = False  # `prime` reads an NPC's context ahead of its turn
    needs_loading: bool = False  # `load` prepares the model before its first answer
    remote: bool = False  # answers from a remote API (a key, a base URL; it writes summaries)


@dataclass(frozen=True)
class ProviderSpec:
    """One provider a player can choose: the facts every other module reads from here."""

    capabilities: Capabilities
    label: str  # how a notice names it ("OpenAI unreachable")
    # A remote wire format's provider class, "module.Class" under game.agent.providers;
    # built as `Class(client, api_key=..., model=..., base_url=...)` (`SSEProvider`'s).
    wire: str = ""
    api: str = ""  # what the selection's reason calls that wire format
    key_env: str = ""  # the API key's environment variable
    key_field: str = ""  # the API key's `Settings` field
    default_model: str = ""  # "": none, the player names one
    base_url: str = ""  # the provider's own host: a key sent elsewhere is told


_REMOTE = Capabilities(remote=True)
_OPENAI = {"key_env": "OPENAI_API_KEY", "key_field": "openai_api_key"}  # both OpenAI wires

REGISTRY: dict[str, ProviderSpec] = {
    "local": ProviderSpec(Capabilities(serial=True, can_prime=True, needs_loading=True), "local"),
    "openai": ProviderSpec(
        _REMOTE,
        "OpenAI",
        wire="openai_responses.OpenAIResponsesProvider",
        api="OpenAI Responses API",
        **_OPENAI,
        default_model="gpt-4o-mini",
        base_url="https://api.openai.com/v1",
    ),
    "openai-chat": ProviderSpec(  # no default model: a server at a base URL picks its own
        _REMOTE,
        "The model server",
        wire="openai_chat.OpenAIChatProvider",
        api="chat completions",
        **_OPENAI,
        base_url="https://api.openai.com/v1",
    ),
    "anthropic": ProviderSpec(
        _REMOTE,
        "Anthropic",
        wire="anthropic.AnthropicProvider",
        api="Anthropic Messages API",
        key_env="ANTHROPIC_API_KEY",
        key_field="anthropic_api_key",
        default_model="claude-3-5-haiku-latest",
        base_url="https://api.anthropic.com",
    ),
    "scripted": ProviderSpec(Capabilities(), "scripted"),
}

AUTO = "auto"
PROVIDER_NAMES: tuple[str, ...] = (AUTO, *REGISTRY)  # the CLI's, the config's, the screen's
REMOTE_PROVIDERS: frozenset[str] = frozenset(
    name for name, spec in REGISTRY.items() if spec.capabilities.remote
)


def known_provider(name: str) -> str:
    """`name` when a player may choose it (the config's check), else a ValueError."""
    if name not in PROVIDER_NAMES:
        raise ValueError("must be one of " + ", ".join(PROVIDER_NAMES))
    return name
