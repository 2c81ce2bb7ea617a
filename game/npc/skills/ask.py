"""`ask`: ask the player a question with a few answers to pick from."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, Field, ValidationError, model_validator

from game.agent.tools import ToolContext, ToolResult
from game.npc.skills.base import MAX_SAY, Skill, do
from game.world.commands import Ask


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


class Picked(BaseModel):
    """What the player picked, as the world's outcome of an `Ask` gives it."""

    choice: str


def picked(data: Mapping[str, str] | None) -> str | None:
    """The answer the player picked, from an `ask` result's data (None: no pick)."""
    try:
        return Picked.model_validate(data).choice if data else None
    except ValidationError:
        return None


async def ask(ctx: ToolContext, args: AskArgs) -> ToolResult:
    """Ask the player; the result is the player's pick, or why nobody answered."""
    return await do(ctx, Ask(ctx.npc_id, args.question, tuple(args.options)))


SKILL = Skill(
    "ask",
    "Ask the player a question with 2-4 answers to pick from; returns their pick.",
    lambda: AskArgs,
    ask,
    timeout_s=75.0,
    speech="question",
    optional=True,
)
