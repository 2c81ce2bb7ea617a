"""`emote`: a gesture (`game.gestures` declares them: wave, nod, shake_head, ...)."""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, create_model

from game.agent.tools import ToolContext, ToolResult
from game.gestures import GESTURES, gesture_names
from game.npc.skills.base import Skill, Targets, do
from game.world.commands import Emote


def emote_args() -> type[BaseModel]:
    """The argument model: one of the gestures declared now."""
    return _model_for(gesture_names())


@cache
def _model_for(names: tuple[str, ...]) -> type[BaseModel]:
    """The argument model for these gestures (one per set of names, so calls compare)."""
    return create_model(
        "EmoteArgs",
        __doc__="Show a feeling with a gesture.",
        name=(Literal[names], ...),  # type: ignore[arg-type]
    )


def _description() -> str:
    names = gesture_names()
    return f"Gesture: {', '.join(names[:-1])} or {names[-1]}."


async def emote(ctx: ToolContext, args: Any) -> ToolResult:
    """Show an emote icon above the head."""
    return await do(ctx, Emote(ctx.npc_id, args.name))


def _does(args: dict[str, Any]) -> str:
    gesture = GESTURES.get(str(args.get("name")))
    return gesture.does if gesture is not None else ""


def _offers(targets: Targets) -> list[dict[str, Any]]:
    return [{"name": name} for name in gesture_names()]


SKILL = Skill(
    "emote",
    _description,
    emote_args,
    emote,
    timeout_s=5.0,
    does=_does,
    offers=_offers,
    acts=True,
    judged=frozenset({"name"}),
)
