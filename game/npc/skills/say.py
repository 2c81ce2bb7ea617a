"""`say`: speak out loud; the text streams into the bubble while the model writes it."""

from __future__ import annotations

from pydantic import BaseModel, Field

from game.agent.tools import ToolContext, ToolResult
from game.npc.skills.base import MAX_SAY, Skill, do, world_of
from game.world.commands import Say, SpeechDelta


class SayArgs(BaseModel):
    """Say something out loud."""

    text: str = Field(..., min_length=1, max_length=MAX_SAY, description="What to say.")
    target: str | None = Field(None, description="Who you speak to, by name (optional).")


def _stream(ctx: ToolContext, delta: str) -> None:
    world_of(ctx).post(SpeechDelta(ctx.npc_id, delta))


async def say(ctx: ToolContext, args: SayArgs) -> ToolResult:
    """Speak: the bubble already grew while the text streamed; this finishes it."""
    result = await do(ctx, Say(ctx.npc_id, args.text, args.target))
    if result.is_error:
        return result
    # "said to Pip" / "said, but nobody was near enough to hear"
    return ToolResult(content=f"you {result.content}: {args.text}")


SKILL = Skill(
    "say",
    "Say something out loud (at most 200 characters) to someone nearby.",
    lambda: SayArgs,
    say,
    timeout_s=15.0,
    speech="text",
    on_stream=_stream,
)
