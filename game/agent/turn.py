"""One turn of one NPC, driven step by step from its trigger to exactly one outcome.

A turn ensures `system.init`, records its trigger, then loops up to `max_steps`: replay
the log into a provider request, stream the answer (`game.agent.stream`), and act on the
typed next step: run the tool calls and ask again, or stop (a response cut at one of its
bounds, `game.limits` "what a model sends back", is the last one asked for: its calls
run, and the turn ends). The outcome is recorded as a `result` event. A turn never
raises: a provider error, a timeout, a cancellation or an unexpected exception each end
it in its typed outcome, with any partial text kept.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any, Protocol

from game.agent.bus import BusKind, DebugBus
from game.agent.context import NpcProfile
from game.agent.errors import LogNotWritten
from game.agent.events import AssistantMessage, ErrorEvent, EventBase, ResultEvent, SystemInit
from game.agent.lanes import PriorityLimiter
from game.agent.outcomes import (
    Answer,
    Cancelled,
    Failed,
    Final,
    MaxSteps,
    NpcActivity,
    RunTools,
    StepFailed,
    TurnOutcome,
)
from game.agent.providers.base import Provider, ProviderRequest, ToolCall, ToolSpec
from game.agent.runner import ToolRunner
from game.agent.store import PUBLISHED, SessionStore
from game.agent.stream import StepStream, TokenMeter
from game.agent.tools import ToolContext, ToolRegistry, ToolResult
from game.agent.trigger import Trigger
from game.files import os_reason
from game.limits import MAX_REPLY_CHARS
from game.paths import UnsafePath

__all__ = ["Turn", "TurnHost"]

log = logging.getLogger(__name__)


class TurnHost(Protocol):
    """What a turn uses of the runtime that runs it (`game.agent.loop.AgentRuntime`)."""

    provider: Provider
    provider_for: Callable[[Trigger], Provider] | None
    registry: ToolRegistry
    runner: ToolRunner
    limiter: PriorityLimiter
    bus: DebugBus
    max_steps: int
    turn_timeout_s: float
    delta_interval_s: float
    on_text_delta: Callable[[str, str, str], None] | None

    def next_request(
        self, slot: str, profile: NpcProfile, tools: list[ToolSpec]
    ) -> ProviderRequest:
        """The provider input of the NPC's next step, replayed from its log."""
        ...


class Turn:
    """One turn of one NPC: the state the loop, the cancellation and the inspector share."""

    def __init__(
        self,
        host: TurnHost,
        store: SessionStore,
        slot: str,
        profile: NpcProfile,
        deps: Any,
        trigger: Trigger,
        provider: Provider | None = None,
    ) -> None:
        self.host = host
        self.provider = provider  # who answers this turn; None: the host's
        self.store = store
        self.slot = slot
        self.profile = profile
        self.npc_id = profile.npc_id
        self.deps = deps
        self.trigger = trigger
        self.run_id = "r" + uuid.uuid4().hex[:12]
        self.task: asyncio.Task[TurnOutcome] | None = None
        self.stop_reason: str | None = None
        self.activity: NpcActivity = "thinking"
        self.step = 0
        self.text = ""  # the newest complete assistant text
        self.meter = TokenMeter()
        self.stream: StepStream | None = None  # the newest step's response
        self.text_room = MAX_REPLY_CHARS  # characters of text the turn may still say
        self.in_stream = False  # its message is not recorded yet

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
        self.host.bus.publish(kind, self.npc_id, self.run_id, data)

    def new_context(self, call_id: str) -> ToolContext:
        """A fresh tool context for one call of this turn."""
        return ToolContext(
            npc_id=self.npc_id, slot=self.slot, run_id=self.run_id, call_id=call_id, deps=self.deps
        )

    async def run(self) -> TurnOutcome:
        """The whole turn; never raises."""
        try:
            return await self._loop()
        except asyncio.CancelledError:
            return self._interrupted()
        except (LogNotWritten, UnsafePath) as exc:  # the disk refused the log: not a bug
            message = _disk_reason(exc)
            log.error("turn %s of %s: %s", self.run_id, self.npc_id, message, extra=PUBLISHED)
            self.publish("error", {"kind": "store", "message": message})
            return self._fail(message, "store")
        except Exception as exc:
            log.exception("turn %s of %s failed", self.run_id, self.npc_id)
            self._keep_partial()
            return self._fail(f"{type(exc).__name__}: {exc}", "exception")

    async def _loop(self) -> TurnOutcome:
        host = self.host
        if self.store.next_seq(self.npc_id) == 1:
            self.record(
                SystemInit(
                    npc_id=self.npc_id,
                    name=self.profile.name,
                    persona=self.profile.persona,
                    tools=host.registry.names(),
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
        provider = self.provider
        if provider is None:
            provider = host.provider_for(self.trigger) if host.provider_for else host.provider
        specs = host.registry.specs()
        for step in range(1, host.max_steps + 1):
            self.step = step
            request = host.next_request(self.slot, self.profile, specs)
            request.options.step = step
            request.options.run_id = self.run_id
            self.activity = "thinking"
            async with host.limiter.slot(self.trigger.priority):
                self.stream = StepStream(
                    self,
                    step,
                    registry=host.registry,
                    bus=host.bus,
                    meter=self.meter,
                    delta_interval_s=host.delta_interval_s,
                    on_text_delta=host.on_text_delta,
                    text_room=self.text_room,
                )
                self.in_stream = True
                next_step = await self.stream.read(provider, request)
            self.text_room = self.stream.text_room
            self.activity = "acting"
            match next_step:
                case StepFailed(error=error):
                    self._keep_partial()
                    self.record(ErrorEvent(kind=error.kind, message=error.message, step=step))
                    return self._fail(f"{error.kind}: {error.message}", error.kind)
                case Answer(text=text):
                    self._answered(text, [])
                    return self._finish(
                        Final(run_id=self.run_id, npc_id=self.npc_id, text=text, steps=step)
                    )
                case RunTools(text=text, calls=calls):
                    self._answered(text, calls)
                    for call in calls:
                        self.publish(
                            "tool_call",
                            {
                                "id": call.id,
                                "name": call.name,
                                "arguments": call.arguments,
                                "step": step,
                            },
                        )
                    await host.runner.run_all(
                        calls, self._context_for, self.record, on_result=self._on_result
                    )
                    if self.stream.cut is not None:  # a runaway reply is not asked again
                        return self._finish(
                            Final(run_id=self.run_id, npc_id=self.npc_id, text=text, steps=step)
                        )
        return self._finish(
            MaxSteps(run_id=self.run_id, npc_id=self.npc_id, text=self.text, steps=host.max_steps)
        )

    def _answered(self, text: str, calls: list[ToolCall]) -> None:
        """Record the step's whole response."""
        self.record(AssistantMessage(step=self.step, text=text, tool_calls=calls))
        self.in_stream = False
        self.text = text

    def _context_for(self, call: ToolCall) -> ToolContext:
        # Reuse the context that streamed this call's argument, so streamed_text carries over.
        ctx = self.stream.contexts.get(call.id) if self.stream is not None else None
        return ctx if ctx is not None else self.new_context(call.id)

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
        meter = self.meter
        try:
            self.record(
                ResultEvent(
                    outcome=outcome.kind,
                    text=outcome.text,
                    steps=outcome.steps,
                    tokens_in=meter.tokens_in,
                    tokens_out=meter.tokens_out,
                    estimated=meter.estimated,
                    error=outcome.error if isinstance(outcome, Failed) else None,
                )
            )
            self.store.flush_npc(self.npc_id)
        except OSError as exc:
            message = _disk_reason(exc)
            if not (isinstance(outcome, Failed) and outcome.error == message):  # said once
                # Published on the bus too: whoever runs the turn tells the player (`chat`).
                log.error(
                    "could not write the session of %s: %s", self.npc_id, message, extra=PUBLISHED
                )
                self.publish("error", {"kind": "store", "message": message})
        if isinstance(outcome, Failed):
            self.publish("error", {"kind": outcome.error_kind, "message": outcome.error})
        self.activity = "idle"
        if self.host.bus.active:
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
        if self.in_stream and self.stream is not None:
            self.in_stream = False
            partial = self.stream.partial()
            if partial:
                self.record(AssistantMessage(step=self.step, text=partial, interrupted=True))
                self.text = partial

    def _interrupted(self) -> TurnOutcome:
        """Record what the interrupted turn had said so far, and how it ended."""
        self._keep_partial()
        reason = self.stop_reason or "cancelled"
        if reason == "timeout":
            message = f"the turn took longer than {self.host.turn_timeout_s:g} s"
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


def _disk_reason(exc: OSError) -> str:
    """Why the disk refused the log, and where, in a few words."""
    if isinstance(exc, UnsafePath):
        return str(exc)  # names the path and the fix itself
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{os_reason(exc)}{where}"
