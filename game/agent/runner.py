"""The tool runner: validate, ask the gate, execute with a timeout, record; never raises.

Every way a call can go wrong (unknown tool, invalid JSON, failed validation, denial, an
exception, a timeout) becomes a `ToolResult(is_error=True)` the model can read and
correct. Only cancellation propagates, after the interrupted calls got a result. A call
that could not even be run, its tool unknown or its arguments malformed, says so as a fact
too: its result's `data` is `{REJECTED: UNKNOWN_TOOL}` or `{REJECTED: BAD_ARGUMENTS}`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import pydantic_core
from pydantic import BaseModel, ValidationError

from game.agent.events import EventBase, PermissionDecisionEvent, ToolResultEvent, ToolUse
from game.agent.permissions import PermissionGate
from game.agent.providers.base import ToolCall
from game.agent.tools import Tool, ToolContext, ToolRegistry, ToolResult

__all__ = ["BAD_ARGUMENTS", "REJECTED", "UNKNOWN_TOOL", "Recorder", "ToolRunner", "rejected"]

log = logging.getLogger(__name__)

Recorder = Callable[[EventBase], Any]
INTERRUPTED = "Interrupted: the turn was cancelled before this call finished."
REJECTED = "rejected"  # the `data` key of a call that could not be run, and why
UNKNOWN_TOOL = "unknown_tool"
BAD_ARGUMENTS = "arguments"  # they did not parse as a JSON object, or did not validate


def rejected(data: dict[str, str] | None) -> str | None:
    """Why a call could not be run (`UNKNOWN_TOOL`, `BAD_ARGUMENTS`), from its result's
    data; None for a call that ran (whether or not it succeeded)."""
    return (data or {}).get(REJECTED)


class ToolRunner:
    """Runs the model's tool calls against a registry, through a permission gate."""

    def __init__(
        self,
        registry: ToolRegistry,
        gate: PermissionGate | None = None,
        *,
        max_result_chars: int = 8000,
    ) -> None:
        self.registry = registry
        self.gate = gate if gate is not None else PermissionGate()
        self.max_result_chars = max_result_chars

    async def run(self, call: ToolCall, ctx: ToolContext, record: Recorder) -> ToolResult:
        """Run one call, recording `tool.use`, `permission.decision` and `tool.result`."""
        results = await self.run_all([call], lambda _call: ctx, record)
        return results[0]

    async def run_all(
        self,
        calls: Sequence[ToolCall],
        context_for: Callable[[ToolCall], ToolContext],
        record: Recorder,
        *,
        on_result: Callable[[ToolCall, ToolResult], None] | None = None,
    ) -> list[ToolResult]:
        """Run calls in order; consecutive calls to parallel-safe tools run concurrently."""
        results: list[ToolResult | None] = [None] * len(calls)
        try:
            for group in self._groups(calls):
                for index in group:
                    call = calls[index]
                    record(ToolUse(call_id=call.id, name=call.name, arguments=call.arguments))
                if len(group) == 1:
                    outcomes = [await self._execute(calls[group[0]], context_for, record)]
                else:
                    # Concurrent, but results are recorded in the model's order.
                    outcomes = list(
                        await asyncio.gather(
                            *(self._execute(calls[i], context_for, None) for i in group)
                        )
                    )
                for index, (result, decision, duration) in zip(group, outcomes, strict=True):
                    call = calls[index]
                    if decision is not None and len(group) > 1:
                        record(decision)
                    record(
                        ToolResultEvent(
                            call_id=call.id,
                            name=call.name,
                            content=result.content,
                            is_error=result.is_error,
                            duration_ms=round(duration * 1000, 3),
                            data=result.data,
                        )
                    )
                    results[index] = result
                    if on_result is not None:
                        try:
                            on_result(call, result)
                        except Exception:
                            log.exception("on_result callback failed")
        except asyncio.CancelledError:
            for index, call in enumerate(calls):
                if results[index] is None:
                    record(
                        ToolResultEvent(
                            call_id=call.id, name=call.name, content=INTERRUPTED, is_error=True
                        )
                    )
            raise
        return [r for r in results if r is not None]

    def _groups(self, calls: Sequence[ToolCall]) -> list[list[int]]:
        """Indices of calls to run together: runs of parallel-safe tools, else one by one."""
        groups: list[list[int]] = []
        previous_safe = False
        for index, call in enumerate(calls):
            tool = self.registry.get(call.name)
            safe = tool is not None and tool.parallel_safe
            if safe and previous_safe:
                groups[-1].append(index)
            else:
                groups.append([index])
            previous_safe = safe
        return groups

    async def _execute(
        self,
        call: ToolCall,
        context_for: Callable[[ToolCall], ToolContext],
        record: Recorder | None,
    ) -> tuple[ToolResult, PermissionDecisionEvent | None, float]:
        """Validate, gate and run one call; return (result, decision event, seconds)."""
        started = time.perf_counter()
        tool = self.registry.get(call.name)
        if tool is None:
            known = ", ".join(self.registry.names()) or "none"
            message = f"Unknown tool {call.name!r}. Available tools: {known}."
            return _error(message, UNKNOWN_TOOL), None, 0.0
        parsed = _parse_arguments(tool, call.arguments)
        if isinstance(parsed, ToolResult):
            return parsed, None, 0.0
        raw, args = parsed
        ctx = context_for(call)
        decision = await self.gate.check(ctx.npc_id, tool.name, raw, slot=ctx.slot)
        event = PermissionDecisionEvent(
            call_id=call.id,
            tool=tool.name,
            allowed=decision.allowed,
            reason=decision.reason,
            asked=decision.asked,
        )
        if record is not None:
            record(event)
        if not decision.allowed:
            result = _error(f"Permission denied for {tool.name!r}: {decision.reason}.")
            return result, event, time.perf_counter() - started
        result = await self._invoke(tool, ctx, args)
        return self._capped(result), event, time.perf_counter() - started

    async def _invoke(self, tool: Tool[Any], ctx: ToolContext, args: BaseModel) -> ToolResult:
        try:
            async with asyncio.timeout(tool.timeout_s) as deadline:
                value = await tool.handler(ctx, args)
        except TimeoutError:
            if deadline.expired():
                return _error(f"Tool {tool.name!r} timed out after {tool.timeout_s:g} s.")
            return _error(f"Tool {tool.name!r} failed: TimeoutError.")
        except Exception as exc:
            log.warning("tool %r raised for %s", tool.name, ctx.npc_id, exc_info=True)
            return _error(f"Tool {tool.name!r} failed: {type(exc).__name__}: {exc}")
        if isinstance(value, ToolResult):
            return value
        if isinstance(value, str):
            return ToolResult(content=value)
        if isinstance(value, BaseModel):
            return ToolResult(content=value.model_dump_json())
        return ToolResult(content=str(value))

    def _capped(self, result: ToolResult) -> ToolResult:
        if len(result.content) <= self.max_result_chars:
            return result
        cut = result.content[: self.max_result_chars]
        return result.model_copy(update={"content": cut + " [truncated]"})


def _parse_arguments(
    tool: Tool[Any], arguments: str
) -> tuple[dict[str, Any], BaseModel] | ToolResult:
    text = arguments.strip() or "{}"
    try:
        raw = pydantic_core.from_json(text)
    except ValueError as exc:
        return _error(
            f"Invalid JSON arguments for {tool.name!r}: {exc}. Call it again with a JSON object.",
            BAD_ARGUMENTS,
        )
    if not isinstance(raw, dict):
        return _error(
            f"Arguments for {tool.name!r} must be a JSON object, got {text[:80]}.", BAD_ARGUMENTS
        )
    try:
        return raw, tool.args_model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(arguments)'}: {err['msg']}"
            for err in exc.errors(include_url=False)
        )
        return _error(
            f"Invalid arguments for {tool.name!r}: {problems}. Fix them and call the tool again.",
            BAD_ARGUMENTS,
        )


def _error(message: str, rejected_as: str | None = None) -> ToolResult:
    data = {REJECTED: rejected_as} if rejected_as is not None else None
    return ToolResult(content=message, is_error=True, data=data)
