"""The agent loop: one NPC turn, from a trigger to exactly one typed outcome.

`AgentRuntime.run_turn` ensures `system.init`, appends the trigger, then loops up to
`max_steps`: replay the log into a provider request, stream the answer (recording
coalesced deltas), run the tool calls, and stop when the model answers without tool
calls. Every turn ends in `Final`, `MaxSteps`, `Cancelled` or `Failed`, recorded as a
`result` event. `submit` runs turns through the lanes (per-NPC serial queues with
priorities and idle coalescing); a global limiter bounds concurrent provider calls.

The runtime owns the current save slot (`slot`): turns are written there, and only
`switch_slot` changes it, after the old slot's turns are over, so no turn straddles two
slots. It also runs the compactor of the current slot (`start_compaction`).

The runtime lives on the agent thread's event loop; nothing here blocks a frame. Any
thread may read `slot` (one attribute, replaced in one assignment); everything else is
the agent loop's.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pydantic_core
from pydantic import BaseModel, model_validator

from game.agent.bus import BusKind, DebugBus
from game.agent.context import ContextBuilder, NpcProfile, estimate_tokens
from game.agent.errors import RuntimeClosed, UnknownNpc
from game.agent.events import (
    TRIGGER_PRIORITY,
    AssistantDelta,
    AssistantMessage,
    ErrorEvent,
    EventBase,
    ResultEvent,
    SummaryEvent,
    SystemInit,
    UserMessage,
    WorldObservation,
)
from game.agent.facts import SensedFacts
from game.agent.lanes import Lanes, PriorityLimiter
from game.agent.memory import Compactor
from game.agent.permissions import PermissionGate
from game.agent.providers.base import (
    Provider,
    ProviderError,
    ProviderRequest,
    ToolCall,
)
from game.agent.runner import ToolRunner
from game.agent.store import SessionStore
from game.agent.tools import Tool, ToolContext, ToolRegistry, ToolResult
from game.paths import WORLD_SUMMARY_FILE, npc_memory_file, slot_path, validate_id

__all__ = [
    "AgentRuntime",
    "Cancelled",
    "Failed",
    "Final",
    "MaxSteps",
    "NpcActivity",
    "NpcStatus",
    "Trigger",
    "TriggerKind",
    "TurnOutcome",
]

log = logging.getLogger(__name__)

SETTLE_S = 5.0  # how long a slot switch waits for the old slot's turns to end

TriggerKind = Literal["player_message", "heard", "player_near", "idle", "arrived", "observation"]
NpcActivity = Literal["idle", "queued", "thinking", "streaming", "acting"]


class Trigger(BaseModel):
    """Why an NPC thinks now: the player spoke, it heard something, an idle tick...

    `text` and `perception` are written for models; `speaker`, `said` and `sensed` are the
    same facts as data, for the providers that plan (see `game.agent.facts`).
    """

    kind: TriggerKind
    text: str
    perception: str | None = None
    source: str | None = None
    priority: int = -1  # < 0: the kind's default (player_message highest)
    speaker: str | None = None  # who spoke (a heard line; the player's name)
    said: str | None = None  # what they said, word for word
    sensed: SensedFacts | None = None

    @model_validator(mode="after")
    def _default_priority(self) -> Trigger:
        if self.priority < 0:
            self.priority = TRIGGER_PRIORITY[self.kind]
        return self

    @classmethod
    def player(
        cls, text: str, perception: str | None = None, sensed: SensedFacts | None = None
    ) -> Trigger:
        """What the player typed to this NPC."""
        return cls(
            kind="player_message",
            text=text,
            perception=perception,
            source="player",
            said=text,
            sensed=sensed,
        )

    def to_event(self) -> UserMessage | WorldObservation:
        """The event that records this trigger in the log (the text is what was said)."""
        if self.kind == "player_message":
            return UserMessage(
                text=self.text, perception=self.perception, speaker=self.speaker, sensed=self.sensed
            )
        return WorldObservation(
            kind=self.kind,
            text=self.text,
            perception=self.perception,
            source=self.source,
            speaker=self.speaker,
            said=self.said,
            sensed=self.sensed,
        )


class _OutcomeBase(BaseModel):
    run_id: str
    npc_id: str = ""
    text: str = ""
    steps: int = 0


class Final(_OutcomeBase):
    """The model answered without tool calls; `text` is what the NPC says."""

    kind: Literal["final"] = "final"


class MaxSteps(_OutcomeBase):
    """The turn hit `max_steps` while the model still called tools."""

    kind: Literal["max_steps"] = "max_steps"


class Cancelled(_OutcomeBase):
    """The turn was cancelled (or dropped from a full queue); partial text is kept."""

    kind: Literal["cancelled"] = "cancelled"
    reason: str = "cancelled"


class Failed(_OutcomeBase):
    """The turn failed: provider error, timeout, or an unexpected exception."""

    kind: Literal["failed"] = "failed"
    error: str
    error_kind: str = "error"


TurnOutcome = Final | MaxSteps | Cancelled | Failed


@dataclass(frozen=True)
class NpcStatus:
    """What the inspector shows for one NPC."""

    state: NpcActivity
    queue_depth: int
    run_id: str | None = None
    step: int = 0


class AgentRuntime:
    """Runs NPC turns: the tool loop, the lanes, the stores and the debug bus."""

    def __init__(
        self,
        saves_dir: Path,
        *,
        slot: str = "default",
        provider: Provider,
        registry: ToolRegistry,
        gate: PermissionGate | None = None,
        context: ContextBuilder | None = None,
        max_steps: int = 8,
        turn_timeout_s: float = 60.0,
        max_concurrent: int = 4,
        bus: DebugBus | None = None,
        provider_for: Callable[[Trigger], Provider] | None = None,
        on_text_delta: Callable[[str, str, str], None] | None = None,
        max_queue: int = 16,
        delta_interval_s: float = 0.05,
    ) -> None:
        self.saves_dir = Path(saves_dir)
        self._slot = validate_id(slot, "slot id")
        self.provider = provider
        self.registry = registry
        self.gate = gate if gate is not None else PermissionGate()
        self.runner = ToolRunner(registry, self.gate)
        self.context = context if context is not None else ContextBuilder()
        self.max_steps = max(1, max_steps)
        self.turn_timeout_s = turn_timeout_s
        self.bus = bus if bus is not None else DebugBus()
        self.provider_for = provider_for
        self.on_text_delta = on_text_delta
        self.delta_interval_s = delta_interval_s
        self.limiter = PriorityLimiter(max_concurrent)
        self.lanes: Lanes[TurnOutcome] = Lanes(
            self._run_job, max_queue=max_queue, dropped=self._dropped
        )
        self._npcs: dict[str, tuple[NpcProfile, Any]] = {}
        self._stores: dict[str, SessionStore] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._turns: dict[str, _Turn] = {}
        self._world_summaries: dict[str, str] = {}
        self._npc_summaries: dict[tuple[str, str], str] = {}
        self._closed = False
        self.compactor: Compactor | None = None
        self._detach_compactor: Callable[[], None] | None = None

    # --- setup -------------------------------------------------------------------------

    def register_npc(self, profile: NpcProfile, deps: Any = None) -> None:
        """Make an NPC known; `deps` reaches its tools as `ToolContext.deps`."""
        validate_id(profile.npc_id, "NPC id")
        self._npcs[profile.npc_id] = (profile, deps)

    @property
    def slot(self) -> str:
        """The current save slot: where NPC turns are written.

        Only `switch_slot` changes it, on the agent loop. Any thread may read it: a reader
        elsewhere sees the old slot or the new one, and the new one only once the switch
        is done.
        """
        return self._slot

    async def switch_slot(
        self,
        slot: str,
        *,
        prepare: Callable[[], Awaitable[object]] | None = None,
        settle_s: float = SETTLE_S,
    ) -> None:
        """Make `slot` the current slot (on the agent loop); no turn straddles two slots.

        Queued turns are dropped and running ones cancelled, and the switch waits (at most
        `settle_s`) until they are over. Then `prepare` runs (a "save as" copies the old
        slot's logs into the new one), the old slot's store is flushed, and `slot` becomes
        current: turns and the compactor write there from now on. If `prepare` raises,
        the runtime stays on the old slot and the error propagates.
        """
        slot = validate_id(slot, "slot id")
        await self._settle(settle_s)
        if prepare is not None:
            await prepare()
        try:
            self.store(self._slot).flush()
        except OSError as exc:
            log.warning("could not flush the session store of slot %s: %s", self._slot, exc)
        self._slot = slot

    def start_compaction(self, summarizer: Provider | None = None) -> Compactor:
        """Compact each NPC's history in the current slot after its turns (agent loop)."""
        if self.compactor is None:
            self.compactor = Compactor(self, summarizer=summarizer)
            self._detach_compactor = self.compactor.attach()
        return self.compactor

    def stop_compaction(self) -> None:
        """Start no more compactions (those running finish)."""
        if self._detach_compactor is not None:
            self._detach_compactor()
            self._detach_compactor = None

    def profile(self, npc_id: str) -> NpcProfile:
        """The registered profile of an NPC (UnknownNpc if none)."""
        return self._entry(npc_id)[0]

    def store(self, slot: str) -> SessionStore:
        """The session store of a save slot (one per slot, created on first use)."""
        store = self._stores.get(slot)
        if store is None:
            store = self._stores[slot] = SessionStore(self.saves_dir, slot)
        return store

    def set_world_summary(self, slot: str, text: str) -> None:
        """Replace the world summary injected into every NPC's prompt in `slot`."""
        self._world_summaries[slot] = text

    def set_npc_summary(self, slot: str, npc_id: str, text: str) -> None:
        """Replace one NPC's remembered summary in `slot`."""
        self._npc_summaries[(slot, npc_id)] = text

    # --- turns -------------------------------------------------------------------------

    async def run_turn(self, slot: str, npc_id: str, trigger: Trigger) -> TurnOutcome:
        """Run one turn now on the caller's loop (after the NPC's running turn, if any)."""
        self._check(slot, npc_id)
        async with self._lock(npc_id):
            if self._closed:
                raise RuntimeClosed("the agent runtime is closed")
            return await self._run_locked(slot, npc_id, trigger)

    def submit(self, slot: str, npc_id: str, trigger: Trigger) -> asyncio.Future[TurnOutcome]:
        """Queue a turn on the NPC's lane (call on the agent loop's thread)."""
        self._check(slot, npc_id)
        if self._closed:
            raise RuntimeClosed("the agent runtime is closed")
        return self.lanes.submit(
            npc_id, (slot, trigger), priority=trigger.priority, kind=trigger.kind
        )

    async def append_summary(self, slot: str, npc_id: str, text: str) -> EventBase:
        """Record a summary of the NPC's history so far; replay starts after it."""
        self._check(slot, npc_id)
        async with self._lock(npc_id):  # between turns, never inside one
            store = self.store(slot)
            event = store.append(
                npc_id, SummaryEvent(text=text, upto_seq=store.next_seq(npc_id) - 1)
            )
            store.flush_npc(npc_id)
            return event

    def cancel(self, npc_id: str) -> bool:
        """Cancel the NPC's running turn (it ends `Cancelled`, partial text kept)."""
        turn = self._turns.get(npc_id)
        if turn is None or turn.task is None or turn.task.done():
            return False
        turn.stop("cancelled")
        return True

    def build_request(self, slot: str, npc_id: str) -> ProviderRequest:
        """What the NPC's next step would send, replayed from its log."""
        profile = self._entry(npc_id)[0]
        store = self.store(slot)
        return self.context.build(
            profile,
            store.recent(npc_id),
            self.registry.specs(),
            world_summary=self._world_summary(slot),
            npc_summary=self._npc_summary(slot, npc_id),
            summary=store.summary(npc_id),
        )

    def status(self, npc_id: str) -> NpcStatus:
        """The NPC's activity for the inspector."""
        depth = self.lanes.depth(npc_id)
        turn = self._turns.get(npc_id)
        if turn is not None:
            return NpcStatus(turn.activity, depth, turn.run_id, turn.step)
        return NpcStatus("queued" if depth else "idle", depth)

    async def aclose(self) -> None:
        """Drop queued turns, cancel running ones, flush every store."""
        self._closed = True
        self.stop_compaction()
        self.lanes.clear(reason="closed")
        for turn in list(self._turns.values()):
            turn.stop("shutdown")
        await self.lanes.aclose()
        running = [t.task for t in self._turns.values() if t.task is not None]
        if running:
            await asyncio.wait(running)
        for store in self._stores.values():
            try:
                store.close()
            except OSError:
                log.exception("could not flush the session store of slot %s", store.slot)

    # --- internals ---------------------------------------------------------------------

    def _entry(self, npc_id: str) -> tuple[NpcProfile, Any]:
        entry = self._npcs.get(npc_id)
        if entry is None:
            raise UnknownNpc(f"no NPC {npc_id!r} is registered with the agent runtime")
        return entry

    async def _settle(self, settle_s: float) -> None:
        """Drop queued turns, stop running ones, and wait (a little) until all are over."""
        npc_ids = list(self._npcs)
        self.lanes.clear(reason="slot change")
        for npc_id in npc_ids:
            self.cancel(npc_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settle_s
        while loop.time() < deadline and any(
            self.lanes.busy(n) or self.status(n).state != "idle" for n in npc_ids
        ):
            await asyncio.sleep(0.01)

    def _lock(self, npc_id: str) -> asyncio.Lock:
        lock = self._locks.get(npc_id)
        if lock is None:
            lock = self._locks[npc_id] = asyncio.Lock()
        return lock

    def _check(self, slot: str, npc_id: str) -> None:
        validate_id(slot, "slot id")
        self._entry(npc_id)

    def _world_summary(self, slot: str) -> str:
        text = self._world_summaries.get(slot)
        if text is None:
            path = slot_path(self.saves_dir, slot, WORLD_SUMMARY_FILE)
            text = self._world_summaries[slot] = _read_optional(path)
        return text

    def _npc_summary(self, slot: str, npc_id: str) -> str:
        """memory/summary.txt (or what set_npc_summary gave), then the newest summary event."""
        text = self._npc_summaries.get((slot, npc_id))
        if text is None:
            path = npc_memory_file(self.saves_dir, slot, npc_id)
            text = self._npc_summaries[(slot, npc_id)] = _read_optional(path).strip()
        event = self.store(slot).summary(npc_id)
        if event is not None and event.text.strip():
            return f"{text}\n\n{event.text.strip()}" if text else event.text.strip()
        return text

    async def _run_job(self, npc_id: str, payload: tuple[str, Trigger]) -> TurnOutcome:
        slot, trigger = payload
        return await self.run_turn(slot, npc_id, trigger)

    def _dropped(self, payload: tuple[str, Trigger], reason: str) -> TurnOutcome:
        return Cancelled(run_id="", reason=reason)

    async def _run_locked(self, slot: str, npc_id: str, trigger: Trigger) -> TurnOutcome:
        profile, deps = self._entry(npc_id)
        turn = _Turn(self, slot, profile, deps, trigger)
        self._turns[npc_id] = turn
        task = asyncio.get_running_loop().create_task(turn.run(), name=f"turn:{npc_id}")
        turn.task = task
        try:
            done, _ = await asyncio.wait({task}, timeout=self.turn_timeout_s)
            if not done:
                turn.stop("timeout")
                await asyncio.wait({task})
        except asyncio.CancelledError:
            # Our caller was cancelled: end the turn cleanly, then let the cancel through.
            turn.stop("aborted")
            await asyncio.wait({task})
            raise
        finally:
            if self._turns.get(npc_id) is turn:
                del self._turns[npc_id]
        return task.result()


class _PendingCall:
    """A tool call being streamed: id, name, arguments so far, what was streamed."""

    __slots__ = ("arguments", "ctx", "id", "name", "tool")

    def __init__(self, call_id: str, name: str, tool: Tool[Any] | None) -> None:
        self.id = call_id
        self.name = name
        self.tool = tool
        self.arguments = ""
        self.ctx: ToolContext | None = None


class _Turn:
    """One turn of one NPC: the state the loop, the cancellation and the inspector share."""

    def __init__(
        self,
        runtime: AgentRuntime,
        slot: str,
        profile: NpcProfile,
        deps: Any,
        trigger: Trigger,
    ) -> None:
        self.rt = runtime
        self.slot = slot
        self.profile = profile
        self.npc_id = profile.npc_id
        self.deps = deps
        self.trigger = trigger
        self.run_id = "r" + uuid.uuid4().hex[:12]
        self.store = runtime.store(slot)
        self.task: asyncio.Task[TurnOutcome] | None = None
        self.stop_reason: str | None = None
        self.activity: NpcActivity = "thinking"
        self.step = 0
        self.text = ""  # the newest complete assistant text
        self.parts: list[str] = []  # the text of the step being streamed
        self.spoken: list[str] = []  # streamed say text of that step
        self.in_stream = False
        self.tokens_in = 0
        self.tokens_out = 0
        self.estimated = False
        self._deltas: list[str] = []
        self._delta_flushed = 0.0
        self._contexts: dict[str, ToolContext] = {}  # call id -> context that streamed it

    def stop(self, reason: str) -> None:
        """Cancel the turn for `reason` (cancelled, timeout, aborted, shutdown)."""
        if self.stop_reason is None:
            self.stop_reason = reason
        if self.task is not None:
            self.task.cancel()

    def record(self, event: EventBase) -> EventBase:
        """Append an event of this turn to the NPC's log."""
        event.run_id = self.run_id
        return self.store.append(self.npc_id, event)

    def publish(self, kind: BusKind, data: dict[str, Any]) -> None:
        """Tell the debug bus."""
        self.rt.bus.publish(kind, self.npc_id, self.run_id, data)

    async def run(self) -> TurnOutcome:
        """The whole turn; never raises except for test-fake assertions."""
        try:
            return await self._loop()
        except asyncio.CancelledError:
            return self._interrupted()
        except AssertionError:
            raise  # a FakeProvider saw an unexpected call: fail the test loudly
        except Exception as exc:
            log.exception("turn %s of %s failed", self.run_id, self.npc_id)
            self._keep_partial()
            return self._fail(f"{type(exc).__name__}: {exc}", "exception")

    async def _loop(self) -> TurnOutcome:
        rt = self.rt
        if self.store.next_seq(self.npc_id) == 1:
            self.record(
                SystemInit(
                    npc_id=self.npc_id,
                    name=self.profile.name,
                    persona=self.profile.persona,
                    tools=rt.registry.names(),
                )
            )
        trigger = self.record(self.trigger.to_event())
        self.publish(
            "turn_started",
            {
                "slot": self.slot,
                "trigger": self.trigger.kind,
                "text": self.trigger.text,
                "priority": self.trigger.priority,
                "seq": trigger.seq,
            },
        )
        provider = rt.provider_for(self.trigger) if rt.provider_for else rt.provider
        specs = rt.registry.specs()
        for step in range(1, rt.max_steps + 1):
            self.step = step
            request = rt.context.build(
                self.profile,
                self.store.recent(self.npc_id),
                specs,
                world_summary=rt._world_summary(self.slot),
                npc_summary=rt._npc_summary(self.slot, self.npc_id),
                summary=self.store.summary(self.npc_id),  # known to the store: no scan
            )
            request.metadata["step"] = step
            request.metadata["run_id"] = self.run_id
            self.activity = "thinking"
            async with rt.limiter.slot(self.trigger.priority):
                calls, error = await self._stream(provider, request)
            self.activity = "acting"
            if error is not None:
                self._keep_partial()
                self.record(ErrorEvent(kind=error.kind, message=error.message, step=step))
                return self._fail(f"{error.kind}: {error.message}", error.kind)
            text = "".join(self.parts)
            self.record(AssistantMessage(step=step, text=text, tool_calls=calls))
            self.in_stream = False
            self.text = text
            if not calls:
                return self._finish(
                    Final(run_id=self.run_id, npc_id=self.npc_id, text=text, steps=step)
                )
            for call in calls:
                self.publish(
                    "tool_call",
                    {"id": call.id, "name": call.name, "arguments": call.arguments, "step": step},
                )
            await rt.runner.run_all(
                calls, self._context_for, self.record, on_result=self._on_result
            )
        return self._finish(
            MaxSteps(run_id=self.run_id, npc_id=self.npc_id, text=self.text, steps=rt.max_steps)
        )

    async def _stream(
        self, provider: Provider, request: ProviderRequest
    ) -> tuple[list[ToolCall], ProviderError | None]:
        """Stream one response: record deltas, stream tool arguments, meter usage."""
        self.parts = []
        self.spoken = []  # streamed tool-argument text the player already saw (a `say`)
        self.in_stream = True
        self._deltas = []
        self._delta_flushed = time.monotonic()
        pending: dict[int, _PendingCall] = {}
        usage_seen = False
        error: ProviderError | None = None
        stream: AsyncIterator[Any] = provider.stream(request)
        try:
            async for event in stream:
                kind = event.type
                if kind == "text_delta":
                    self._on_text(event.text)
                elif kind == "tool_call_args_delta":
                    call = pending.get(event.index)
                    if call is not None:
                        call.arguments += event.delta
                        if call.tool is not None and call.tool.stream_field is not None:
                            self._stream_argument(call)
                elif kind == "tool_call_start":
                    self.activity = "streaming"
                    pending[event.index] = _PendingCall(
                        event.id, event.name, self.rt.registry.get(event.name)
                    )
                elif kind == "tool_call_done":
                    call = pending.get(event.index)
                    if call is None or call.name != event.name:
                        call = pending[event.index] = _PendingCall(
                            event.id, event.name, self.rt.registry.get(event.name)
                        )
                    call.id = event.id
                    call.arguments = event.arguments
                elif kind == "usage":
                    usage_seen = True
                    self.tokens_in += event.input_tokens
                    self.tokens_out += event.output_tokens
                elif kind == "done":
                    break
                elif kind == "provider_error":
                    error = event
                    break
        finally:
            aclose = getattr(stream, "aclose", None)
            if aclose is not None:
                await aclose()
        # Deltas still buffered are not recorded: the assistant.message that follows (or
        # the interrupted one) holds the whole text.
        calls = [
            ToolCall(id=c.id or f"call_{self.step}_{i}", name=c.name, arguments=c.arguments or "{}")
            for i, c in sorted(pending.items())
        ]
        self._contexts = {c.id: c.ctx for c in pending.values() if c.ctx is not None}
        if not usage_seen:
            self.estimated = True
            self.tokens_in += int(request.metadata.get("estimated_input_tokens", 0))
            self.tokens_out += estimate_tokens("".join(self.parts)) + sum(
                estimate_tokens(c.arguments) for c in calls
            )
        return calls, error

    def _on_text(self, text: str) -> None:
        self.activity = "streaming"
        self.parts.append(text)
        self._deltas.append(text)
        now = time.monotonic()
        if now - self._delta_flushed >= self.rt.delta_interval_s:
            self._flush_deltas(now)
        if self.rt.on_text_delta is not None:
            try:
                self.rt.on_text_delta(self.npc_id, self.run_id, text)
            except Exception:
                log.exception("on_text_delta failed for %s", self.npc_id)
        if self.rt.bus.active:
            self.publish("delta", {"text": text, "step": self.step})

    def _flush_deltas(self, now: float | None = None) -> None:
        self.record(AssistantDelta(step=self.step, text="".join(self._deltas)))
        self._deltas = []
        self._delta_flushed = time.monotonic() if now is None else now

    def _stream_argument(self, call: _PendingCall) -> None:
        """Hand the new characters of the streamed argument to the tool's `on_stream`."""
        tool = call.tool
        assert tool is not None and tool.stream_field is not None
        try:
            partial = pydantic_core.from_json(call.arguments, allow_partial="trailing-strings")
        except ValueError:
            return
        value = partial.get(tool.stream_field) if isinstance(partial, dict) else None
        if not isinstance(value, str):
            return
        ctx = call.ctx
        if ctx is None:
            ctx = call.ctx = self._new_context(call.id)
        already = ctx.streamed_text
        if len(value) <= len(already) or not value.startswith(already):
            return
        ctx.streamed_text = value
        self.spoken.append(value[len(already) :])
        if tool.on_stream is not None:
            try:
                tool.on_stream(ctx, value[len(already) :])
            except Exception:
                log.exception("on_stream of %r failed for %s", tool.name, self.npc_id)
        if self.rt.bus.active:
            self.publish(
                "delta", {"text": value[len(already) :], "step": self.step, "tool": tool.name}
            )

    def _new_context(self, call_id: str) -> ToolContext:
        return ToolContext(
            npc_id=self.npc_id, slot=self.slot, run_id=self.run_id, call_id=call_id, deps=self.deps
        )

    def _context_for(self, call: ToolCall) -> ToolContext:
        # Reuse the context that streamed this call's argument, so streamed_text carries over.
        ctx = self._contexts.get(call.id)
        return ctx if ctx is not None else self._new_context(call.id)

    def _on_result(self, call: ToolCall, result: ToolResult) -> None:
        self.publish(
            "tool_result",
            {
                "id": call.id,
                "name": call.name,
                "content": result.content,
                "is_error": result.is_error,
                "data": result.data,
                "step": self.step,
            },
        )

    def _finish(self, outcome: TurnOutcome) -> TurnOutcome:
        self.record(
            ResultEvent(
                outcome=outcome.kind,
                text=outcome.text,
                steps=outcome.steps,
                tokens_in=self.tokens_in,
                tokens_out=self.tokens_out,
                estimated=self.estimated,
                error=outcome.error if isinstance(outcome, Failed) else None,
            )
        )
        try:
            self.store.flush_npc(self.npc_id)
        except OSError as exc:
            log.error("could not write the session of %s: %s", self.npc_id, exc)
            self.publish("error", {"kind": "store", "message": str(exc)})
        if isinstance(outcome, Failed):
            self.publish("error", {"kind": outcome.error_kind, "message": outcome.error})
        self.activity = "idle"
        if self.rt.bus.active:
            self.publish("turn_finished", outcome.model_dump())
        return outcome

    def _fail(self, message: str, kind: str) -> TurnOutcome:
        return self._finish(
            Failed(
                run_id=self.run_id,
                npc_id=self.npc_id,
                text=self.text,
                steps=self.step,
                error=message,
                error_kind=kind,
            )
        )

    def _keep_partial(self) -> None:
        """Record the text of a response that was cut off, marked interrupted."""
        if self.in_stream:
            self.in_stream = False
            # What reached the player: plain text, and any say that was still streaming.
            partial = " ".join(p for p in ("".join(self.parts), "".join(self.spoken)) if p)
            if partial:
                self.record(AssistantMessage(step=self.step, text=partial, interrupted=True))
                self.text = partial

    def _interrupted(self) -> TurnOutcome:
        """Record what the interrupted turn had said so far, and how it ended."""
        self._keep_partial()
        reason = self.stop_reason or "cancelled"
        if reason == "timeout":
            message = f"the turn took longer than {self.rt.turn_timeout_s:g} s"
            self.record(ErrorEvent(kind="timeout", message=message, step=self.step))
            return self._fail(message, "timeout")
        return self._finish(
            Cancelled(
                run_id=self.run_id,
                npc_id=self.npc_id,
                text=self.text,
                steps=self.step,
                reason=reason,
            )
        )


def _read_optional(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("could not read %s: %s", path, exc)
        return ""
