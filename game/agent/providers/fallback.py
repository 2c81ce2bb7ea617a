"""Falling back when the chosen provider fails.

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

import logging
import math
import time
from collections import Counter
from collections.abc import AsyncGenerator, Callable, Collection, Sequence
from typing import Literal

from game.agent.providers.base import (
    ErrorKind,
    Provider,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
    RequestTime,
)
from game.agent.providers.registry import REGISTRY

log = logging.getLogger("game.agent.providers")

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
