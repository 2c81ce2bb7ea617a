"""`look`: look around, or at a named place or person."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from game.agent.tools import ToolContext, ToolResult
from game.npc.skills.base import Skill, Targets, do, pretty
from game.world.commands import Look


class LookArgs(BaseModel):
    """Look around, or at something."""

    at: str | None = Field(None, description="A place or person to look at (optional).")


async def look(ctx: ToolContext, args: LookArgs) -> ToolResult:
    """Perceive the surroundings, or describe a named place or person."""
    return await do(ctx, Look(ctx.npc_id, args.at))


def _does(args: dict[str, Any]) -> str:
    at = args.get("at")
    return f"looks at {pretty(str(at))}" if at else "looks around"


def _offers(targets: Targets) -> list[dict[str, Any]]:
    return [{"at": arg} for _, arg in targets]


SKILL = Skill(
    "look",
    "Look around you, or at a named place or person.",
    lambda: LookArgs,
    look,
    timeout_s=5.0,
    does=_does,
    offers=_offers,
    judged=frozenset({"at"}),
)
