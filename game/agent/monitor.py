"""What the inspector shows: recent bus events and turn timings per NPC.

`TurnMonitor` subscribes to the runtime's `DebugBus` on the agent thread and keeps small
bounded records; the game thread reads snapshots. Appends to a deque and replacing whole
values are atomic in CPython, so readers never see a half-written record.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.agent.bus import BusEvent, DebugBus

if TYPE_CHECKING:
    from game.agent.loop import AgentRuntime

KEEP_EVENTS = 40
KEEP_TURNS = 10


@dataclass
class TurnTiming:
    """How one turn went: when it started, its first token, its end and outcome."""

    run_id: str
    trigger: str
    started: float
    first_token_s: float | None = None
    duration_s: float | None = None
    outcome: str | None = None


@dataclass
class NpcRecord:
    """Bounded history of one NPC's turns for the inspector."""

    events: deque[BusEvent] = field(default_factory=lambda: deque(maxlen=KEEP_EVENTS))
    turns: deque[TurnTiming] = field(default_factory=lambda: deque(maxlen=KEEP_TURNS))
    last_context: dict[str, Any] = field(default_factory=dict)


class TurnMonitor:
    """Collects bus events per NPC; safe to read from the game thread."""

    def __init__(self, bus: DebugBus, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self.records: dict[str, NpcRecord] = {}
        self._unsubscribe = bus.subscribe(self._on_event)

    def close(self) -> None:
        """Stop listening."""
        self._unsubscribe()

    def record(self, npc_id: str) -> NpcRecord:
        """The record of one NPC (empty until it takes a turn)."""
        rec = self.records.get(npc_id)
        if rec is None:
            rec = self.records[npc_id] = NpcRecord()
        return rec

    def _on_event(self, event: BusEvent) -> None:
        rec = self.record(event.npc_id)
        now = self.clock()
        if event.kind == "turn_started":
            rec.turns.append(TurnTiming(event.run_id, str(event.data.get("trigger", "")), now))
            rec.last_context = dict(event.data)
        turn = rec.turns[-1] if rec.turns and rec.turns[-1].run_id == event.run_id else None
        if event.kind == "delta":
            if turn is not None and turn.first_token_s is None:
                turn.first_token_s = now - turn.started
            return  # deltas are too many to list; the bubble shows them
        if event.kind == "turn_finished" and turn is not None:
            turn.duration_s = now - turn.started
            turn.outcome = str(event.data.get("kind", ""))
        rec.events.append(event)

    def recent(self, npc_id: str) -> list[BusEvent]:
        """The NPC's latest events, oldest first (a copy)."""
        return list(self.record(npc_id).events)

    def timings(self, npc_id: str) -> list[TurnTiming]:
        """The NPC's latest turns, oldest first (a copy)."""
        return list(self.record(npc_id).turns)


@dataclass(frozen=True)
class Snapshot:
    """One NPC's state for the inspector, gathered on the agent thread."""

    npc_id: str
    provider: str
    model: str
    state: str
    queue_depth: int
    tokens_in: int
    tokens_out: int
    turns: int
    context: str | None = None  # the exact system prompt and messages, when asked


def take_snapshot(runtime: AgentRuntime, slot: str, npc_id: str, *, with_context: bool) -> Snapshot:
    """Read an NPC's status, meter and (optionally) next provider input; agent thread only."""
    status = runtime.status(npc_id)
    state = runtime.store(slot).state(npc_id)
    context = None
    if with_context:
        request = runtime.build_request(slot, npc_id)
        lines = ["[system]", request.system]
        for message in request.messages:
            calls = "".join(f"\n  -> {c.name}({c.arguments})" for c in message.tool_calls)
            lines.append(f"[{message.role}] {message.content}{calls}")
        context = "\n".join(lines)
    provider = runtime.provider
    return Snapshot(
        npc_id=npc_id,
        provider=provider.name,
        model=provider.model,
        state=status.state,
        queue_depth=status.queue_depth,
        tokens_in=state.tokens_in,
        tokens_out=state.tokens_out,
        turns=state.turns,
        context=context,
    )
