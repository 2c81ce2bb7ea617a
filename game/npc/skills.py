"""The NPC skills: move, say, look, emote, wait and ask, as tools whose results the model reads.

Each skill turns its arguments into a world command, waits for the world to finish the
action, and returns what happened as text. An `Impossible` becomes an error result with
the reason, so the model can correct itself. Handlers run on the agent loop; the world is
only touched through its thread-safe inbox. `ToolContext.deps` is a `SkillDeps`: the
`World`, and how to await what it made of a command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from game.agent.tools import Tool, ToolContext, ToolRegistry, ToolResult
from game.world.commands import (
    Ask,
    Emote,
    GoTo,
    Look,
    MoveSteps,
    Outcome,
    Say,
    SpeechDelta,
    Wait,
    WorldCommand,
)
from game.world.world import World

MAX_SAY = 200


class MoveArgs(BaseModel):
    """Walk a few tiles in a direction, or to a named place, NPC or the player."""

    direction: Literal["up", "down", "left", "right"] | None = Field(
        None, description="Direction to walk (with steps)."
    )
    steps: int = Field(1, ge=1, le=5, description="Tiles to walk in that direction, 1-5.")
    to: str | None = Field(
        None, description="A place name (e.g. 'well'), a person's name, or 'player'."
    )

    @model_validator(mode="after")
    def _one_target(self) -> MoveArgs:
        if (self.direction is None) == (self.to is None):
            raise ValueError("give either `direction` (with `steps`) or `to`, not both")
        return self


class SayArgs(BaseModel):
    """Say something out loud."""

    text: str = Field(..., min_length=1, max_length=MAX_SAY, description="What to say.")
    target: str | None = Field(None, description="Who you speak to, by name (optional).")


class LookArgs(BaseModel):
    """Look around, or at something."""

    at: str | None = Field(None, description="A place or person to look at (optional).")


class EmoteArgs(BaseModel):
    """Show a feeling with a gesture."""

    name: Literal["wave", "nod", "shake_head", "laugh", "think"]


class AskArgs(BaseModel):
    """Ask the player a question with a few answers to pick from."""

    question: str = Field(..., min_length=1, max_length=MAX_SAY, description="The question.")
    options: list[str] = Field(
        ..., min_length=2, max_length=4, description="2 to 4 short answers the player can pick."
    )

    @model_validator(mode="after")
    def _short_options(self) -> AskArgs:
        self.options = [o.strip()[:60] for o in self.options]
        if any(not o for o in self.options):
            raise ValueError("every option needs some text")
        return self


class WaitArgs(BaseModel):
    """Wait a moment."""

    seconds: float = Field(2.0, ge=0.5, le=10.0, description="Seconds to wait, at most 10.")


@dataclass(frozen=True)
class SkillDeps:
    """What the skills of one NPC work on: the world, and a way to await its outcomes.

    `wait` is the mailbox's `outcome` (`game.bridge.Mailbox`): whoever steps the world
    pumps the mailbox too, so no world future is awaited behind a wake-up.
    """

    world: World
    wait: Callable[[Future[Outcome]], Awaitable[Outcome]]


def _deps(ctx: ToolContext) -> SkillDeps:
    deps = ctx.deps
    if not isinstance(deps, SkillDeps):
        raise TypeError("NPC skills need SkillDeps as the tool context's deps")
    return deps


def _world(ctx: ToolContext) -> World:
    return _deps(ctx).world


async def _do(ctx: ToolContext, command: WorldCommand) -> ToolResult:
    deps = _deps(ctx)
    outcome = await deps.wait(deps.world.submit(command))
    data = getattr(outcome, "data", None)
    return ToolResult(content=outcome.message, is_error=not outcome.ok, data=data)


async def move(ctx: ToolContext, args: MoveArgs) -> ToolResult:
    """Walk; the result comes on arrival, or with the reason it was impossible."""
    if args.direction is not None:
        return await _do(ctx, MoveSteps(ctx.npc_id, args.direction, args.steps))
    # The world resolves the name on its own thread: places, people, free tiles beside them.
    return await _do(ctx, GoTo(ctx.npc_id, args.to or ""))


def _stream_say(ctx: ToolContext, delta: str) -> None:
    _world(ctx).post(SpeechDelta(ctx.npc_id, delta))


async def say(ctx: ToolContext, args: SayArgs) -> ToolResult:
    """Speak: the bubble already grew while the text streamed; this finishes it."""
    result = await _do(ctx, Say(ctx.npc_id, args.text, args.target))
    if result.is_error:
        return result
    # "said to Pip" / "said, but nobody was near enough to hear"
    return ToolResult(content=f"you {result.content}: {args.text}")


async def look(ctx: ToolContext, args: LookArgs) -> ToolResult:
    """Perceive the surroundings, or describe a named place or person."""
    return await _do(ctx, Look(ctx.npc_id, args.at))


async def emote(ctx: ToolContext, args: EmoteArgs) -> ToolResult:
    """Show an emote icon above the head."""
    return await _do(ctx, Emote(ctx.npc_id, args.name))


async def ask(ctx: ToolContext, args: AskArgs) -> ToolResult:
    """Ask the player; the result is the player's pick, or why nobody answered."""
    return await _do(ctx, Ask(ctx.npc_id, args.question, tuple(args.options)))


async def wait(ctx: ToolContext, args: WaitArgs) -> ToolResult:
    """Wait on the game clock, so headless runs and play agree."""
    return await _do(ctx, Wait(ctx.npc_id, args.seconds))


def build_registry(*, with_ask: bool = True) -> ToolRegistry:
    """The five skills (and `ask`), ready for the agent runtime."""
    registry = ToolRegistry()
    registry.register(
        Tool(
            "move",
            "Walk a few tiles (direction + steps 1-5) or to a place or person (to).",
            MoveArgs,
            move,
            timeout_s=30.0,
        )
    )
    registry.register(
        Tool(
            "say",
            "Say something out loud (at most 200 characters) to someone nearby.",
            SayArgs,
            say,
            timeout_s=15.0,
            stream_field="text",
            on_stream=_stream_say,
        )
    )
    registry.register(
        Tool(
            "look",
            "Look around you, or at a named place or person.",
            LookArgs,
            look,
            timeout_s=5.0,
        )
    )
    registry.register(
        Tool(
            "emote",
            "Gesture: wave, nod, shake_head, laugh or think.",
            EmoteArgs,
            emote,
            timeout_s=5.0,
        )
    )
    registry.register(
        Tool(
            "wait",
            "Wait a few seconds (default 2, at most 10).",
            WaitArgs,
            wait,
            timeout_s=15.0,
        )
    )
    if with_ask:
        registry.register(
            Tool(
                "ask",
                "Ask the player a question with 2-4 answers to pick from; returns their pick.",
                AskArgs,
                ask,
                timeout_s=75.0,
            )
        )
    return registry
