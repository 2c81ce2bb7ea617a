"""`wait`: wait a moment, on the game clock (so headless runs and play agree)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from game.agent.tools import ToolContext, ToolResult
from game.npc.skills.base import Skill, Targets, do
from game.world.commands import Wait

OFFERED_S = 4.0  # how long the play script's `waits` waits


class WaitArgs(BaseModel):
    """Wait a moment."""

    seconds: float = Field(2.0, ge=0.5, le=10.0, description="Seconds to wait, at most 10.")


async def wait(ctx: ToolContext, args: WaitArgs) -> ToolResult:
    """Wait on the game clock."""
    return await do(ctx, Wait(ctx.npc_id, args.seconds))


def _offers(targets: Targets) -> list[dict[str, Any]]:
    return [{"seconds": OFFERED_S}]


SKILL = Skill(
    "wait",
    "Wait a few seconds (default 2, at most 10).",
    lambda: WaitArgs,
    wait,
    timeout_s=15.0,
    does=lambda args: "waits",
    offers=_offers,
    takes_time=True,
)
