"""The event union: exact type tags and lossless round trips."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from game.agent.events import (
    EVENT_TYPES,
    AssistantDelta,
    AssistantMessage,
    ErrorEvent,
    EventBase,
    PermissionDecisionEvent,
    ResultEvent,
    SummaryEvent,
    SystemInit,
    ToolResultEvent,
    ToolUse,
    UserMessage,
    WorldObservation,
    dump_event,
    parse_event,
)
from game.agent.providers.base import ToolCall

SAMPLES: list[EventBase] = [
    SystemInit(npc_id="mira", name="Mira", persona="A baker.", tools=["say"]),
    UserMessage(text="hello", perception="You see the well."),
    WorldObservation(kind="heard", text="Bram says hi", source="bram"),
    AssistantDelta(step=1, text="Hel"),
    AssistantMessage(step=1, text="Hi", tool_calls=[ToolCall(id="c1", name="say", arguments="{}")]),
    ToolUse(call_id="c1", name="say", arguments='{"text": "hi"}'),
    ToolResultEvent(call_id="c1", name="say", content="ok", is_error=False, duration_ms=1.5),
    PermissionDecisionEvent(call_id="c1", tool="say", allowed=True, reason="allowed"),
    ResultEvent(outcome="final", text="Hi", steps=1, tokens_in=10, tokens_out=2),
    ErrorEvent(kind="timeout", message="too slow"),
    SummaryEvent(text="Met the player.", upto_seq=7),
]


def test_the_type_tags_are_exactly_the_documented_ones() -> None:
    assert [e.type for e in SAMPLES] == list(EVENT_TYPES)
    assert set(EVENT_TYPES) == {
        "system.init", "user.message", "world.observation", "assistant.delta",
        "assistant.message", "tool.use", "tool.result", "permission.decision", "result",
        "error", "summary",
    }  # fmt: skip


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_round_trip(event: EventBase) -> None:
    event = event.model_copy(update={"seq": 3, "ts": 12.5, "run_id": "r1"})
    line = dump_event(event)
    assert "\n" not in line
    back = parse_event(line)
    assert type(back) is type(event)
    assert back == event


def test_unknown_type_is_a_validation_error() -> None:
    with pytest.raises(ValidationError):
        parse_event('{"type": "nope", "seq": 1, "ts": 0}')
