"""What a turn comes to, as typed values: the next step within a turn, the outcome of the
whole turn, and the activity the inspector shows meanwhile.

A step streams one model response, which is `Answer` (no tool calls: the turn ends),
`RunTools` (run them, then ask again) or `StepFailed` (the provider failed). Every turn
ends in exactly one `TurnOutcome`: `Final`, `MaxSteps`, `Cancelled` or `Failed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from game.agent.providers.base import ProviderError, ToolCall

__all__ = [
    "Answer",
    "Cancelled",
    "Failed",
    "Final",
    "MaxSteps",
    "NextStep",
    "NpcActivity",
    "NpcStatus",
    "RunTools",
    "StepFailed",
    "TurnOutcome",
]

NpcActivity = Literal["idle", "queued", "thinking", "streaming", "acting"]


# --- the next step within a turn -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """The model answered without tool calls: the turn ends `Final` with `text`."""

    text: str


@dataclass(frozen=True, slots=True)
class RunTools:
    """The model called tools: run them, then ask the model again."""

    text: str
    calls: list[ToolCall]


@dataclass(frozen=True, slots=True)
class StepFailed:
    """The provider failed mid-step: the turn ends `Failed`."""

    error: ProviderError


NextStep = Answer | RunTools | StepFailed


# --- how a turn ended ------------------------------------------------------------------


class _OutcomeBase(BaseModel):
    run_id: str
    npc_id: str = ""
    text: str = ""
    steps: int = 0


class Final(_OutcomeBase):
    """The model answered without tool calls; `text` is what the NPC says."""

    kind: Literal["final"] = "final"


class MaxSteps(_OutcomeBase):
    """The turn hit `max_steps` while the model still called tools."""

    kind: Literal["max_steps"] = "max_steps"


class Cancelled(_OutcomeBase):
    """The turn was cancelled (or dropped from a full queue); partial text is kept."""

    kind: Literal["cancelled"] = "cancelled"
    reason: str = "cancelled"


class Failed(_OutcomeBase):
    """The turn failed: provider error, timeout, or an unexpected exception."""

    kind: Literal["failed"] = "failed"
    error: str
    error_kind: str = "error"


TurnOutcome = Final | MaxSteps | Cancelled | Failed


@dataclass(frozen=True)
class NpcStatus:
    """What the inspector shows for one NPC."""

    state: NpcActivity
    queue_depth: int
    run_id: str | None = None
    step: int = 0
