"""The debug bus: who is thinking, what they stream, which tools they call.

Subscribers (the inspector, the `chat` CLI) are called synchronously on the agent
thread; a subscriber that feeds a UI must hand events over to its own thread.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["BusEvent", "BusKind", "DebugBus"]

log = logging.getLogger(__name__)

BusKind = Literal["turn_started", "delta", "tool_call", "tool_result", "turn_finished", "error"]


@dataclass(frozen=True, slots=True)
class BusEvent:
    """One thing that happened in a turn."""

    kind: BusKind
    npc_id: str
    run_id: str
    data: dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)


class DebugBus:
    """A tiny synchronous publish/subscribe hub."""

    def __init__(self) -> None:
        self._subscribers: list[Callable[[BusEvent], object]] = []

    @property
    def active(self) -> bool:
        """True when someone listens (publishers may skip building events otherwise)."""
        return bool(self._subscribers)

    def subscribe(self, callback: Callable[[BusEvent], object]) -> Callable[[], None]:
        """Call `callback` for every event; returns a function that unsubscribes it."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def publish(
        self, kind: BusKind, npc_id: str, run_id: str, data: dict[str, Any] | None = None
    ) -> None:
        """Send an event to every subscriber; a failing subscriber is logged and skipped."""
        if not self._subscribers:
            return
        event = BusEvent(kind, npc_id, run_id, data or {})
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:
                log.exception("debug bus subscriber %r failed on %s", callback, kind)
