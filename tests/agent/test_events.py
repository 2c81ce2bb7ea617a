"""The event union: exact type tags and lossless round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from game.agent.events import (
    CUT_MARK,
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
    fit_line,
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


# --- fit_line: an event always fits its line, and reads back as what was kept -----------

_texts = st.text(st.characters(codec="utf-8"), max_size=5000)


@settings(max_examples=60, deadline=None)
@given(
    text=_texts,
    arguments=st.lists(_texts, max_size=6),
    limit=st.integers(min_value=4000, max_value=12000),
)
def test_a_fitted_line_is_within_its_limit_and_reads_back(
    text: str, arguments: list[str], limit: int
) -> None:
    calls = [ToolCall(id=f"c{i}", name="say", arguments=a) for i, a in enumerate(arguments)]
    event = AssistantMessage(text=text, tool_calls=calls, seq=7, ts=1.5, run_id="r1")
    fitted, line = fit_line(event, limit)
    assert len(line.encode("utf-8")) <= limit
    assert parse_event(line) == fitted and fitted.seq == 7 and fitted.run_id == "r1"
    if len(event.model_dump_json().encode("utf-8")) <= limit:
        assert fitted is event
    else:
        assert isinstance(fitted, AssistantMessage)
        kept = [fitted.text, *(c.arguments for c in fitted.tool_calls)]
        whole = [text, *arguments]
        for cut, full in zip(kept, whole, strict=False):
            assert cut == full or (
                cut.endswith(CUT_MARK) and full.startswith(cut.removesuffix(CUT_MARK))
            )
