"""`move`: walk a few tiles in a direction, or to a named place, person or the player."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from game.agent.tools import ToolContext, ToolResult
from game.npc.skills.base import Skill, Targets, do, pretty
from game.world.commands import GoTo, MoveSteps


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


async def move(ctx: ToolContext, args: MoveArgs) -> ToolResult:
    """Walk; the result comes on arrival, or with the reason it was impossible."""
    if args.direction is not None:
        return await do(ctx, MoveSteps(ctx.npc_id, args.direction, args.steps))
    # The world resolves the name on its own thread: places, people, free tiles beside them.
    return await do(ctx, GoTo(ctx.npc_id, args.to or ""))


def _does(args: dict[str, Any]) -> str:
    to = args.get("to")
    if not to:
        return ""
    return f"walks to {'you' if to == 'player' else pretty(str(to))}"


def _offers(targets: Targets) -> list[dict[str, Any]]:
    return [{"to": arg} for _, arg in targets]


SKILL = Skill(
    "move",
    "Walk a few tiles (direction + steps 1-5) or to a place or person (to).",
    lambda: MoveArgs,
    move,
    timeout_s=30.0,
    does=_does,
    offers=_offers,
    takes_time=True,
    acts=True,
    judged=frozenset({"to", "direction"}),
)
