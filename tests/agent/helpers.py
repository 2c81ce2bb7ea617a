"""Shared pieces of the agent tests: NPC profiles and a small tool set."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pydantic import BaseModel, Field

from game.agent.context import NpcProfile
from game.agent.tools import Tool, ToolContext, ToolRegistry

MIRA = NpcProfile(npc_id="mira", name="Mira", persona="A cheerful baker.", greeting="Hello!")
BRAM = NpcProfile(npc_id="bram", name="Bram", persona="A grumpy smith.")


class SayArgs(BaseModel):
    """Arguments of `say`."""

    text: str = Field(description="What to say aloud.")


class LookArgs(BaseModel):
    """Arguments of `look`."""

    target: str = "around"


class Spoken:
    """Collects what the `say` tool streamed and said."""

    def __init__(self) -> None:
        self.streamed: list[str] = []
        self.said: list[tuple[str, str]] = []  # (text, streamed_text at execution)


def make_registry(spoken: Spoken | None = None) -> ToolRegistry:
    """`say` (streams its text) and `look` (parallel-safe)."""
    spoken = spoken if spoken is not None else Spoken()

    async def say(ctx: ToolContext, args: SayArgs) -> str:
        spoken.said.append((args.text, ctx.streamed_text))
        return "You said it."

    async def look(ctx: ToolContext, args: LookArgs) -> str:
        return f"You see {args.target}."

    def on_stream(ctx: ToolContext, new: str) -> None:
        spoken.streamed.append(new)

    return ToolRegistry(
        [
            Tool(
                "say",
                "Say something aloud.",
                SayArgs,
                say,
                stream_field="text",
                on_stream=on_stream,
            ),
            Tool("look", "Look at something.", LookArgs, look, parallel_safe=True),
        ]
    )


async def until(predicate: Callable[[], bool], *, rounds: int = 200) -> None:
    """Let other tasks run until `predicate` holds (yields to the loop; no timers)."""
    for _ in range(rounds):
        if predicate():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never became true")
