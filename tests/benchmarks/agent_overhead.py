"""Agent runtime overhead: prints one JSON line.

- step_overhead_us: wall time per loop step with a zero-latency provider (events built
  in advance), tool execution and the JSONL appends included (target <= 200); the
  fastest of several rounds, since a busy machine only ever adds time (step_cpu_us: the
  same in process CPU time).
- append_events_per_s: SessionStore.append throughput, flush included (target >= 20000);
  the best of three rounds.
- peak_mb_200_sessions: peak RSS of a fresh interpreter that loads 200 NPC sessions of
  1,000 events each and builds every NPC's next request (target <= 200).

Run: python tests/benchmarks/agent_overhead.py
"""

from __future__ import annotations

import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic import BaseModel

from game.agent.context import NpcProfile
from game.agent.events import (
    AssistantMessage,
    EventBase,
    PermissionDecisionEvent,
    ResultEvent,
    ToolResultEvent,
    ToolUse,
    UserMessage,
)
from game.agent.loop import AgentRuntime
from game.agent.providers.base import Provider, ProviderEvent, ProviderRequest, ToolCall
from game.agent.providers.fake import step, text, tool_call, usage
from game.agent.store import SessionStore
from game.agent.tools import Tool, ToolContext, ToolRegistry
from game.agent.trigger import Trigger

PERCEPTION = (
    "You are at the well (12, 7), facing east. Mira the baker is 3 tiles east. The player "
    "is 2 tiles north, facing you. It is a sunny morning; the market is busy."
)
SAY_TEXT = "Good morning to you! The bread is fresh today, and the well water is cold."


class SayArgs(BaseModel):
    """Arguments of the benchmark's `say`."""

    text: str


async def _say(ctx: ToolContext, args: SayArgs) -> str:
    return "You said it."


def _registry() -> ToolRegistry:
    return ToolRegistry(
        [
            Tool(
                "say",
                "Say something aloud.",
                SayArgs,
                _say,
                stream_field="text",
                on_stream=lambda ctx, new: None,
            )
        ]
    )


class ZeroLatencyProvider(Provider):
    """Alternates a `say` tool call and a text answer, from events built once."""

    name = "zero-latency"
    model = "none"

    def __init__(self) -> None:
        self.calls = 0
        self._tool_step = step(
            tool_call("say", {"text": SAY_TEXT}, id="call_say", chunks=6), usage(600, 30)
        )
        self._text_step = step(text("Anything else I can do for you?", chunks=6), usage(640, 9))

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """Yield the next prebuilt response."""
        self.calls += 1
        events = self._tool_step if self.calls % 2 else self._text_step
        for event in events:
            yield event  # type: ignore[misc]

    async def aclose(self) -> None:
        """Nothing to release."""


async def _step_overhead(root: Path, turns: int = 200, rounds: int = 7) -> tuple[float, float]:
    provider = ZeroLatencyProvider()
    runtime = AgentRuntime(root, provider=provider, registry=_registry())
    runtime.register_npc(NpcProfile(npc_id="mira", name="Mira", persona="A cheerful baker."))
    for i in range(100):  # warm up: a realistic history and warm caches
        await runtime.run_turn("bench", "mira", Trigger.player(f"Hello {i}", PERCEPTION))
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(rounds):
        calls_before = provider.calls
        started, started_cpu = time.perf_counter(), time.process_time()
        for i in range(turns):
            await runtime.run_turn("bench", "mira", Trigger.player(f"Hi {i}", PERCEPTION))
        steps = provider.calls - calls_before
        wall.append((time.perf_counter() - started) / steps * 1e6)
        cpu.append((time.process_time() - started_cpu) / steps * 1e6)
    await runtime.aclose()
    # The fastest round: other processes on a shared machine only ever add time.
    return min(wall), min(cpu)


def _session_events(count: int) -> list[EventBase]:
    """A realistic mix: trigger, tool call, permission, result, answer, turn result."""
    events: list[EventBase] = []
    turn = 0
    while len(events) < count:
        run_id = f"r{turn:012x}"
        call = ToolCall(id=f"call_{turn}", name="say", arguments=json.dumps({"text": SAY_TEXT}))
        events += [
            UserMessage(run_id=run_id, text=f"Hello there, number {turn}!", perception=PERCEPTION),
            AssistantMessage(run_id=run_id, step=1, tool_calls=[call]),
            ToolUse(run_id=run_id, call_id=call.id, name="say", arguments=call.arguments),
            PermissionDecisionEvent(
                run_id=run_id, call_id=call.id, tool="say", allowed=True, reason="allowed"
            ),
            ToolResultEvent(run_id=run_id, call_id=call.id, name="say", content="You said it."),
            AssistantMessage(run_id=run_id, step=2, text="Anything else I can do for you?"),
            ResultEvent(run_id=run_id, outcome="final", text="Anything else?", steps=2),
        ]
        turn += 1
    return events[:count]


def _append_throughput(root: Path, count: int = 20_000, npcs: int = 10, rounds: int = 3) -> float:
    best = 0.0
    for round_ in range(rounds):
        store = SessionStore(root, f"append-{round_}")
        events = _session_events(count)
        started = time.perf_counter()
        for index, event in enumerate(events):
            store.append(f"npc-{index % npcs}", event)
        store.flush()
        best = max(best, count / (time.perf_counter() - started))
        store.close()
    return best


def _write_sessions(root: Path, sessions: int = 200, events: int = 1000) -> None:
    store = SessionStore(root, "many")
    for n in range(sessions):
        npc_id = f"npc-{n:03d}"
        for event in _session_events(events):
            store.append(npc_id, event)
        store.flush()
    store.close()


def _measure_load(root: Path) -> dict[str, float]:
    """Runs in a fresh interpreter: load every session and build every next request."""
    started = time.perf_counter()
    runtime = AgentRuntime(root, provider=ZeroLatencyProvider(), registry=_registry())
    store = runtime.store("many")
    loaded = 0
    for npc_id in store.npc_ids():
        runtime.register_npc(NpcProfile(npc_id=npc_id, name=npc_id, persona="A villager."))
        loaded += store.state(npc_id).events
        runtime.build_request("many", npc_id)
    return {
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load_s": time.perf_counter() - started,
        "events": loaded,
    }


def main() -> None:
    """Run the three measurements and print one JSON line."""
    if len(sys.argv) == 3 and sys.argv[1] == "--measure-load":
        print(json.dumps(_measure_load(Path(sys.argv[2]))))
        return
    with tempfile.TemporaryDirectory(prefix="agent-bench-") as tmp:
        root = Path(tmp)
        step_us, step_cpu_us = asyncio.run(_step_overhead(root))
        appends = _append_throughput(root)
        _write_sessions(root)
        child = subprocess.run(
            [sys.executable, __file__, "--measure-load", str(root)],
            check=True,
            capture_output=True,
            text=True,
        )
        load = json.loads(child.stdout.strip().splitlines()[-1])
    print(
        json.dumps(
            {
                "step_overhead_us": round(step_us, 1),
                "step_cpu_us": round(step_cpu_us, 1),
                "append_events_per_s": round(appends),
                "peak_mb_200_sessions": round(load["peak_mb"], 1),
                "load_s_200_sessions": round(load["load_s"], 3),
                "events_loaded": load["events"],
            }
        )
    )


if __name__ == "__main__":
    main()
