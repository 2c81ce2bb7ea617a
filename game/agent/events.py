"""Session events: everything that happens to an NPC, as one pydantic discriminated union.

An NPC's whole life is an append-only log of these events (one JSON line each). Every
event carries `seq` (strictly increasing per NPC, assigned by the store), `ts` (unix time,
assigned by the store when left at 0) and `run_id` (the turn it belongs to, if any).
The provider input is always rebuilt from the log, so the log alone is enough to resume.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny, TypeAdapter, ValidationError

from game.agent.facts import Facts
from game.agent.providers.base import ToolCall
from game.safe_json import check_depth

__all__ = [
    "CUT_MARK",
    "EVENT_ADAPTER",
    "EVENT_TYPES",
    "TRIGGER_PRIORITY",
    "AssistantDelta",
    "AssistantMessage",
    "ErrorEvent",
    "Event",
    "EventBase",
    "OutcomeKind",
    "PermissionDecisionEvent",
    "ResultEvent",
    "SummaryEvent",
    "SystemInit",
    "ToolResultEvent",
    "ToolUse",
    "UserMessage",
    "WorldObservation",
    "dump_event",
    "fit_line",
    "parse_event",
]

# Marks a text the log cut to keep its line within `MAX_EVENT_BYTES`.
CUT_MARK = " [cut]"
# Texts and lists this short are never cut: an event's tags, literals and pairs stay whole.
_KEEP = 64

# How urgent each kind of trigger is: a player-facing turn overtakes idle chatter.
TRIGGER_PRIORITY: dict[str, int] = {
    "player_message": 100,
    "heard": 60,
    "player_near": 50,
    "news": 30,
    "idle": 0,
}


class EventBase(BaseModel):
    """Fields common to every event; `seq` and `ts` are stamped by the store."""

    model_config = ConfigDict(allow_inf_nan=False)  # a NaN or infinite number: unreadable

    type: str  # each event class narrows it to its literal tag
    seq: int = -1
    ts: float = 0.0
    run_id: str | None = None


class SystemInit(EventBase):
    """The session began (or the NPC's definition changed): who the NPC is."""

    type: Literal["system.init"] = "system.init"
    npc_id: str
    name: str = ""
    persona: str = ""
    tools: list[str] = Field(default_factory=list)
    format: int = 1


class UserMessage(EventBase):
    """What the player typed to this NPC, with the NPC's perception at that moment (as text
    for models, and as facts: None in logs written before facts were kept)."""

    type: Literal["user.message"] = "user.message"
    text: str
    perception: str | None = None
    speaker: str | None = None  # the player's name, if known
    sensed: SerializeAsAny[Facts] | None = None  # the game's facts, written whole


class WorldObservation(EventBase):
    """Something the NPC noticed in the world (heard speech, player near, idle tick...).

    `text` is written for models; the facts (`speaker`, `said`, `sensed`) are for the
    providers that plan, and are None in logs written before facts were kept.
    """

    type: Literal["world.observation"] = "world.observation"
    kind: str
    text: str
    perception: str | None = None
    source: str | None = None
    speaker: str | None = None  # who spoke, for heard speech
    said: str | None = None  # what they said, word for word
    sensed: SerializeAsAny[Facts] | None = None  # the game's facts, written whole


class AssistantDelta(EventBase):
    """A (coalesced) piece of streamed assistant text; never replayed."""

    type: Literal["assistant.delta"] = "assistant.delta"
    step: int = 0
    text: str


class AssistantMessage(EventBase):
    """One complete model response: its full text and the tool calls it made."""

    type: Literal["assistant.message"] = "assistant.message"
    step: int = 0
    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    interrupted: bool = False


class ToolUse(EventBase):
    """The runner is about to handle a tool call (raw arguments as the model wrote them)."""

    type: Literal["tool.use"] = "tool.use"
    call_id: str
    name: str
    arguments: str = "{}"


class ToolResultEvent(EventBase):
    """What a tool call returned (or why it failed), as the model will read it."""

    type: Literal["tool.result"] = "tool.result"
    call_id: str
    name: str
    content: str
    is_error: bool = False
    duration_ms: float = 0.0
    # The result as facts (the player's pick of an ask); left out of the line when empty.
    data: dict[str, str] | None = Field(default=None, exclude_if=lambda v: v is None)


class PermissionDecisionEvent(EventBase):
    """The gate's answer for one tool call."""

    type: Literal["permission.decision"] = "permission.decision"
    call_id: str
    tool: str
    allowed: bool
    reason: str
    asked: bool = False


OutcomeKind = Literal["final", "max_steps", "cancelled", "failed"]


class ResultEvent(EventBase):
    """How a turn ended, with the tokens it used (`estimated` when the provider gave none)."""

    type: Literal["result"] = "result"
    outcome: OutcomeKind
    text: str = ""
    steps: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    estimated: bool = False
    error: str | None = None


class ErrorEvent(EventBase):
    """A failure inside a turn (provider error, exception, timeout)."""

    type: Literal["error"] = "error"
    kind: str
    message: str
    step: int = 0


class SummaryEvent(EventBase):
    """A summary of every event with `seq <= upto_seq`; replay starts after it."""

    type: Literal["summary"] = "summary"
    text: str
    upto_seq: int


Event = Annotated[
    SystemInit
    | UserMessage
    | WorldObservation
    | AssistantDelta
    | AssistantMessage
    | ToolUse
    | ToolResultEvent
    | PermissionDecisionEvent
    | ResultEvent
    | ErrorEvent
    | SummaryEvent,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
EVENT_TYPES: tuple[str, ...] = (
    "system.init",
    "user.message",
    "world.observation",
    "assistant.delta",
    "assistant.message",
    "tool.use",
    "tool.result",
    "permission.decision",
    "result",
    "error",
    "summary",
)


def parse_event(line: str | bytes) -> Event:
    """Parse one JSON line into its event class.

    A ValueError when it is not one: pydantic.ValidationError, or JsonTooDeep for a line
    nested deeper than any event (measured before pydantic reads it).
    """
    check_depth(line)
    return EVENT_ADAPTER.validate_json(line)


def dump_event(event: EventBase) -> str:
    """Serialise one event as a single JSON line (no trailing newline)."""
    return event.model_dump_json()


def fit_line(event: EventBase, limit: int) -> tuple[EventBase, str]:
    """The event and its JSON line of at most `limit` bytes: as it is when it fits, else
    with its longest texts cut (each marked with CUT_MARK) and its longest lists shortened
    just enough. An event that cannot be cut to fit becomes an `error` event saying so."""
    line = event.model_dump_json()
    if len(line) <= limit // 4 or len(line.encode("utf-8")) <= limit:
        return event, line
    data = event.model_dump(mode="json")
    inner: dict[int, int] = {}
    high = _longest(data, inner)
    while high >= 0:
        # The largest cap whose dump fits, measured with the json module (fast, the same
        # bytes but for rare float spellings); then checked as the event writes itself.
        low, cap = 0, -1
        while low <= high:
            mid = (low + high) // 2
            if len(_dumps(_capped(data, mid, inner))) <= limit:
                cap, low = mid, mid + 1
            else:
                high = mid - 1
        if cap < 0:
            break
        try:
            fitted: EventBase = EVENT_ADAPTER.validate_python(_capped(data, cap, inner))
        except ValidationError:
            break
        fitted_line = fitted.model_dump_json()
        if len(fitted_line.encode("utf-8")) <= limit:
            return fitted, fitted_line
        high = cap - 1 - cap // 100
    size = len(line.encode("utf-8"))
    stand_in = ErrorEvent(
        kind="too_long",
        message=f"a {event.type} event of {size} bytes could not be kept",
        seq=event.seq,
        ts=event.ts,
        run_id=event.run_id,
    )
    return stand_in, stand_in.model_dump_json()


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _longest(value: Any, inner: dict[int, int]) -> int:
    """The length of the longest text or list in a dumped event; `inner` gets, by id, the
    longest within each list and map (its own length left out)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict | list):
        parts = value.values() if isinstance(value, dict) else value
    else:
        return 0
    most = max((_longest(v, inner) for v in parts), default=0)
    inner[id(value)] = most
    return max(most, len(value))


def _capped(value: Any, cap: int, inner: dict[int, int]) -> Any:
    """A dumped event with texts past `cap` characters cut and marked, lists and maps past
    `cap` items shortened (never below `_KEEP`); what is within it is kept as it is."""
    cap = max(cap, _KEEP)
    if isinstance(value, str):
        return value if len(value) <= cap else value[:cap] + CUT_MARK
    if isinstance(value, list):
        if inner.get(id(value), 0) <= cap:
            return value[:cap]
        return [_capped(v, cap, inner) for v in value[:cap]]
    if isinstance(value, dict):
        if inner.get(id(value), 0) <= cap:
            return value if len(value) <= cap else dict(list(value.items())[:cap])
        return {k: _capped(v, cap, inner) for k, v in list(value.items())[:cap]}
    return value
