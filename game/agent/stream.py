"""One model response as it streams: text deltas recorded and handed on, tool calls put
together, streamed tool arguments handed to their tools, tokens metered.

A `StepStream` reads one provider stream and says what comes next as a typed `NextStep`.
Text deltas are coalesced into `assistant.delta` events (at most one per
`delta_interval_s`) and handed to `on_text_delta` and the debug bus at once; a tool with a
`stream_field` gets the new characters of that argument (a `say` shows while it is
written). What reached the player so far is kept, so a response cut off can be recorded.

A response is bounded where it is read, whatever the provider (`game.limits`, "what a
model sends back"): text past the turn's `MAX_REPLY_CHARS`, arguments past
`MAX_TOOL_ARGS_CHARS`, calls past `MAX_TOOL_CALLS`, a name or id past
`MAX_TOOL_NAME_CHARS` are cut there and the stream closed, with one warning line; the
arguments of a call cut short are closed as the JSON object they began.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import pydantic_core

from game.agent.bus import DebugBus
from game.agent.events import AssistantDelta, EventBase
from game.agent.outcomes import Answer, NextStep, NpcActivity, RunTools, StepFailed
from game.agent.providers.base import (
    Provider,
    ProviderError,
    ProviderRequest,
    ProviderStream,
    TextDelta,
    ToolCall,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.tools import Tool, ToolContext, ToolRegistry
from game.limits import MAX_REPLY_CHARS, MAX_TOOL_ARGS_CHARS, MAX_TOOL_CALLS, MAX_TOOL_NAME_CHARS
from game.tokens import estimate_tokens

__all__ = ["StepStream", "StreamOwner", "TokenMeter"]

log = logging.getLogger(__name__)


class StreamOwner(Protocol):
    """The turn a stream belongs to: who it is, what it is doing, where it records."""

    npc_id: str
    run_id: str
    activity: NpcActivity

    def record(self, event: EventBase) -> EventBase:
        """Append an event of the turn to the NPC's log."""
        ...

    def new_context(self, call_id: str) -> ToolContext:
        """A fresh tool context for one call of the turn."""
        ...


@dataclass
class TokenMeter:
    """The tokens of a turn so far (`estimated` once a response came without usage)."""

    tokens_in: int = 0
    tokens_out: int = 0
    estimated: bool = False


class _PendingCall:
    """A tool call being streamed: id, name, arguments so far, what was streamed."""

    __slots__ = ("arguments", "ctx", "cut", "id", "name", "tool")

    def __init__(self, call_id: str, name: str, tool: Tool[Any] | None) -> None:
        self.id = call_id
        self.name = name
        self.tool = tool
        self.arguments = ""
        self.ctx: ToolContext | None = None
        self.cut = False  # its arguments passed their bound and were cut


class StepStream:
    """One step's response: read it with `read`, then see `parts`, `spoken`, `contexts`."""

    def __init__(
        self,
        owner: StreamOwner,
        step: int,
        *,
        registry: ToolRegistry,
        bus: DebugBus,
        meter: TokenMeter,
        delta_interval_s: float,
        on_text_delta: Callable[[str, str, str], None] | None,
        text_room: int = MAX_REPLY_CHARS,
    ) -> None:
        self.owner = owner
        self.step = step
        self.registry = registry
        self.bus = bus
        self.meter = meter
        self.delta_interval_s = delta_interval_s
        self.on_text_delta = on_text_delta
        self.parts: list[str] = []  # the text streamed so far
        self.spoken: list[str] = []  # streamed tool-argument text the player already saw (a say)
        self.contexts: dict[str, ToolContext] = {}  # call id -> context that streamed it
        self.text_room = text_room  # characters of text the turn may still say
        self.cut: str | None = None  # the bound the response passed, if it was cut
        self._deltas: list[str] = []
        self._delta_flushed = time.monotonic()

    def partial(self) -> str:
        """What of the response reached the player: plain text, and any say streamed."""
        return " ".join(p for p in ("".join(self.parts), "".join(self.spoken)) if p)

    async def read(self, provider: Provider, request: ProviderRequest) -> NextStep:
        """Stream one response: record deltas, stream tool arguments, meter usage."""
        pending: dict[int, _PendingCall] = {}
        usage_seen = False
        error: ProviderError | None = None
        stream: ProviderStream = provider.stream(request)
        try:
            async for event in stream:
                if isinstance(event, TextDelta):
                    text = event.text
                    if len(text) > self.text_room:
                        text = text[: max(self.text_room, 0)]
                        self._cut(f"{MAX_REPLY_CHARS} characters of text")
                    if text:
                        self.text_room -= len(text)
                        self._on_text(text)
                    if self.cut is not None:
                        break
                elif isinstance(event, ToolCallArgsDelta):
                    call = pending.get(event.index)
                    if call is not None:
                        self._add_arguments(call, event.delta)
                        if self.cut is not None:
                            break
                elif isinstance(event, ToolCallStart):
                    self.owner.activity = "streaming"
                    if not self._may_call(pending, event.index, event.id, event.name):
                        break
                    pending[event.index] = _PendingCall(
                        event.id, event.name, self.registry.get(event.name)
                    )
                elif isinstance(event, ToolCallDone):
                    call = pending.get(event.index)
                    if call is None or call.name != event.name:
                        if not self._may_call(pending, event.index, event.id, event.name):
                            break
                        call = pending[event.index] = _PendingCall(
                            event.id, event.name, self.registry.get(event.name)
                        )
                    elif len(event.id) > MAX_TOOL_NAME_CHARS:
                        self._cut(f"a tool call id of {MAX_TOOL_NAME_CHARS} characters")
                        break
                    call.id = event.id
                    if len(event.arguments) > MAX_TOOL_ARGS_CHARS:
                        call.arguments = ""
                        self._add_arguments(call, event.arguments)
                        break
                    call.arguments = event.arguments
                elif isinstance(event, Usage):
                    usage_seen = True
                    self.meter.tokens_in += event.input_tokens
                    self.meter.tokens_out += event.output_tokens
                elif isinstance(event, ProviderError):
                    error = event
                    break
                else:  # Done
                    break
        finally:
            await stream.aclose()
        # Deltas still buffered are not recorded: the assistant.message that follows (or
        # the interrupted one) holds the whole text.
        calls = [
            ToolCall(
                id=c.id or f"call_{self.step}_{i}",
                name=c.name,
                arguments=(_closed(c.arguments) if c.cut else c.arguments) or "{}",
            )
            for i, c in sorted(pending.items())
        ]
        self.contexts = {c.id: c.ctx for c in pending.values() if c.ctx is not None}
        if not usage_seen:
            self.meter.estimated = True
            self.meter.tokens_in += request.options.estimated_input_tokens
            self.meter.tokens_out += estimate_tokens("".join(self.parts)) + sum(
                estimate_tokens(c.arguments) for c in calls
            )
        if error is not None:
            return StepFailed(error)
        text = "".join(self.parts)
        return RunTools(text, calls) if calls else Answer(text)

    def _cut(self, bound: str) -> None:
        """Say, once, that the response passed a bound and is cut there."""
        if self.cut is None:
            self.cut = bound
            log.warning(
                "%s: the model's reply passed %s; it is cut there", self.owner.npc_id, bound
            )

    def _may_call(
        self, pending: dict[int, _PendingCall], index: int, call_id: str, name: str
    ) -> bool:
        """Whether a new tool call is within bounds (else the response is cut)."""
        if len(call_id) > MAX_TOOL_NAME_CHARS or len(name) > MAX_TOOL_NAME_CHARS:
            self._cut(f"a tool call name or id of {MAX_TOOL_NAME_CHARS} characters")
        elif index not in pending and len(pending) >= MAX_TOOL_CALLS:
            self._cut(f"{MAX_TOOL_CALLS} tool calls")
        return self.cut is None

    def _add_arguments(self, call: _PendingCall, delta: str) -> None:
        """Add a piece of a call's arguments, up to their bound."""
        room = MAX_TOOL_ARGS_CHARS - len(call.arguments)
        if len(delta) > room:
            delta = delta[: max(room, 0)]
            call.cut = True
            self._cut(f"{MAX_TOOL_ARGS_CHARS} characters of a tool call's arguments")
        call.arguments += delta
        if delta and call.tool is not None and call.tool.stream_field is not None:
            self._stream_argument(call)

    def _on_text(self, text: str) -> None:
        owner = self.owner
        owner.activity = "streaming"
        self.parts.append(text)
        self._deltas.append(text)
        now = time.monotonic()
        if now - self._delta_flushed >= self.delta_interval_s:
            owner.record(AssistantDelta(step=self.step, text="".join(self._deltas)))
            self._deltas = []
            self._delta_flushed = now
        if self.on_text_delta is not None:
            try:
                self.on_text_delta(owner.npc_id, owner.run_id, text)
            except Exception:
                log.exception("on_text_delta failed for %s", owner.npc_id)
        if self.bus.active:
            self.bus.publish("delta", owner.npc_id, owner.run_id, {"text": text, "step": self.step})

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
            ctx = call.ctx = self.owner.new_context(call.id)
        already = ctx.streamed_text
        if len(value) <= len(already) or not value.startswith(already):
            return
        ctx.streamed_text = value
        new = value[len(already) :]
        self.spoken.append(new)
        if tool.on_stream is not None:
            try:
                tool.on_stream(ctx, new)
            except Exception:
                log.exception("on_stream of %r failed for %s", tool.name, self.owner.npc_id)
        if self.bus.active:
            self.bus.publish(
                "delta",
                self.owner.npc_id,
                self.owner.run_id,
                {"text": new, "step": self.step, "tool": tool.name},
            )


def _closed(arguments: str) -> str:
    """The JSON arguments of a call cut short, closed as the object they began (as they
    are, when they began none: the runner then says they are not JSON)."""
    try:
        value = pydantic_core.from_json(arguments, allow_partial="trailing-strings")
    except ValueError:
        return arguments
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else arguments
