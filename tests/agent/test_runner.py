"""The tool runner: every failure becomes a result the model can read; nothing raises."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel

from game.agent.events import EventBase, PermissionDecisionEvent, ToolResultEvent, ToolUse
from game.agent.permissions import PermissionGate
from game.agent.providers.base import ToolCall
from game.agent.runner import BAD_ARGUMENTS, UNKNOWN_TOOL, ToolRunner, rejected
from game.agent.tools import Tool, ToolContext, ToolRegistry, ToolResult


class MoveArgs(BaseModel):
    """Arguments of `move`."""

    x: int
    y: int


class Recorder:
    """Collects recorded events."""

    def __init__(self) -> None:
        self.events: list[EventBase] = []

    def __call__(self, event: EventBase) -> EventBase:
        self.events.append(event)
        return event

    def types(self) -> list[str]:
        return [e.type for e in self.events]


def ctx_for(call: ToolCall) -> ToolContext:
    return ToolContext(npc_id="mira", slot="s1", run_id="r1", call_id=call.id)


def registry_with(handler: Any, *, timeout_s: float = 5.0, name: str = "move") -> ToolRegistry:
    return ToolRegistry([Tool(name, "Walk.", MoveArgs, handler, timeout_s=timeout_s)])


async def _arrived(ctx: ToolContext, args: MoveArgs) -> str:
    return f"Arrived at ({args.x}, {args.y})."


async def run_one(runner: ToolRunner, name: str, arguments: str) -> tuple[ToolResult, Recorder]:
    record = Recorder()
    result = await runner.run(
        ToolCall(id="c1", name=name, arguments=arguments),
        ctx_for(ToolCall(id="c1", name=name)),
        record,
    )
    return result, record


async def test_a_good_call_runs_and_is_recorded() -> None:
    result, record = await run_one(ToolRunner(registry_with(_arrived)), "move", '{"x": 1, "y": 2}')
    assert result == ToolResult(content="Arrived at (1, 2).")
    assert record.types() == ["tool.use", "permission.decision", "tool.result"]
    use, decision, done = record.events
    assert isinstance(use, ToolUse) and use.arguments == '{"x": 1, "y": 2}'
    assert isinstance(decision, PermissionDecisionEvent) and decision.allowed
    assert isinstance(done, ToolResultEvent) and done.content == "Arrived at (1, 2)."


async def test_a_handler_may_return_a_tool_result() -> None:
    async def blocked(ctx: ToolContext, args: MoveArgs) -> ToolResult:
        return ToolResult(content="blocked at (3, 4)", is_error=True)

    result, _ = await run_one(ToolRunner(registry_with(blocked)), "move", '{"x": 3, "y": 4}')
    assert result.is_error and result.content == "blocked at (3, 4)"


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("fly", "{}", "Unknown tool 'fly'. Available tools: move."),
        ("move", '{"x": 1,', "Invalid JSON arguments for 'move'"),
        ("move", "[1, 2]", "must be a JSON object"),
        ("move", '{"x": "far"}', "Invalid arguments for 'move': x: Input should be a valid"),
    ],
)
async def test_bad_calls_become_readable_error_results(
    name: str, arguments: str, expected: str
) -> None:
    result, record = await run_one(ToolRunner(registry_with(_arrived)), name, arguments)
    assert result.is_error
    assert expected in result.content
    assert record.types() == ["tool.use", "tool.result"]
    # Why the call could not run is a fact too, so no reader parses the message.
    assert rejected(result.data) == (UNKNOWN_TOOL if name == "fly" else BAD_ARGUMENTS)


async def test_a_call_that_ran_and_failed_is_not_rejected() -> None:
    async def blocked(ctx: ToolContext, args: MoveArgs) -> ToolResult:
        return ToolResult(content="blocked at (3, 4)", is_error=True)

    result, _ = await run_one(ToolRunner(registry_with(blocked)), "move", '{"x": 3, "y": 4}')
    assert result.is_error and rejected(result.data) is None


async def test_missing_fields_are_listed() -> None:
    result, _ = await run_one(ToolRunner(registry_with(_arrived)), "move", "")
    assert "x: Field required" in result.content and "y: Field required" in result.content


async def test_an_exception_becomes_a_result() -> None:
    async def boom(ctx: ToolContext, args: MoveArgs) -> str:
        raise KeyError("no such tile")

    result, record = await run_one(ToolRunner(registry_with(boom)), "move", '{"x": 1, "y": 1}')
    assert result.is_error
    assert "Tool 'move' failed: KeyError" in result.content
    assert record.types()[-1] == "tool.result"


async def test_a_timeout_becomes_a_result() -> None:
    never = asyncio.Event()

    async def stuck(ctx: ToolContext, args: MoveArgs) -> str:
        await never.wait()
        return "unreachable"

    runner = ToolRunner(registry_with(stuck, timeout_s=0.01))
    result, _ = await run_one(runner, "move", '{"x": 1, "y": 1}')
    assert result.is_error and "timed out after 0.01 s" in result.content


async def test_a_denial_becomes_a_result_and_the_handler_never_runs() -> None:
    ran = False

    async def handler(ctx: ToolContext, args: MoveArgs) -> str:
        nonlocal ran
        ran = True
        return "moved"

    gate = PermissionGate({"move": "deny"})
    result, record = await run_one(
        ToolRunner(registry_with(handler), gate), "move", '{"x": 1, "y": 1}'
    )
    assert not ran
    assert result.is_error and "Permission denied for 'move'" in result.content
    decision = record.events[1]
    assert isinstance(decision, PermissionDecisionEvent) and not decision.allowed


async def test_ask_goes_through_the_approver_with_the_arguments() -> None:
    asked: list[tuple[str, str, dict[str, Any]]] = []

    async def approver(npc_id: str, tool: str, args: dict[str, Any]) -> bool:
        asked.append((npc_id, tool, args))
        return True

    gate = PermissionGate({"move": "confirm"}, approver=approver)
    result, record = await run_one(
        ToolRunner(registry_with(_arrived), gate), "move", '{"x": 5, "y": 6}'
    )
    assert not result.is_error
    assert asked == [("mira", "move", {"x": 5, "y": 6})]
    decision = record.events[1]
    assert isinstance(decision, PermissionDecisionEvent) and decision.asked


async def test_long_results_are_capped() -> None:
    async def chatty(ctx: ToolContext, args: MoveArgs) -> str:
        return "x" * 50

    runner = ToolRunner(registry_with(chatty), max_result_chars=10)
    result, _ = await run_one(runner, "move", '{"x": 1, "y": 1}')
    assert result.content == "x" * 10 + " [truncated]"


async def test_parallel_safe_calls_run_concurrently_and_record_in_order() -> None:
    started = {"a": asyncio.Event(), "b": asyncio.Event()}

    class LookArgs(BaseModel):
        """Arguments of `look`."""

        target: str

    async def look(ctx: ToolContext, args: LookArgs) -> str:
        started[args.target].set()
        other = "b" if args.target == "a" else "a"
        await started[other].wait()  # deadlocks (and times out) if run one after the other
        return f"saw {args.target}"

    registry = ToolRegistry(
        [Tool("look", "Look.", LookArgs, look, parallel_safe=True, timeout_s=2.0)]
    )
    record = Recorder()
    calls = [
        ToolCall(id="c1", name="look", arguments='{"target": "a"}'),
        ToolCall(id="c2", name="look", arguments='{"target": "b"}'),
    ]
    results = await ToolRunner(registry).run_all(calls, ctx_for, record)
    assert [r.content for r in results] == ["saw a", "saw b"]
    assert record.types() == [
        "tool.use",
        "tool.use",
        "permission.decision",
        "tool.result",
        "permission.decision",
        "tool.result",
    ]
    done = [e for e in record.events if isinstance(e, ToolResultEvent)]
    assert [e.call_id for e in done] == ["c1", "c2"]


async def test_other_calls_run_one_after_another_in_order() -> None:
    order: list[str] = []

    async def move(ctx: ToolContext, args: MoveArgs) -> str:
        order.append(f"start {args.x}")
        await asyncio.sleep(0)
        order.append(f"end {args.x}")
        return "ok"

    calls = [ToolCall(id=f"c{i}", name="move", arguments=f'{{"x": {i}, "y": 0}}') for i in range(3)]
    await ToolRunner(registry_with(move)).run_all(calls, ctx_for, Recorder())
    assert order == ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]


async def test_cancellation_records_results_for_every_unfinished_call() -> None:
    entered = asyncio.Event()

    async def stuck(ctx: ToolContext, args: MoveArgs) -> str:
        entered.set()
        await asyncio.Event().wait()
        return "unreachable"

    record = Recorder()
    calls = [ToolCall(id=f"c{i}", name="move", arguments='{"x": 1, "y": 1}') for i in range(2)]
    task = asyncio.create_task(ToolRunner(registry_with(stuck)).run_all(calls, ctx_for, record))
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    results = [e for e in record.events if isinstance(e, ToolResultEvent)]
    assert [(e.call_id, e.is_error) for e in results] == [("c0", True), ("c1", True)]
    assert all("Interrupted" in e.content for e in results)
