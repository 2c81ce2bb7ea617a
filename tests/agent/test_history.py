from __future__ import annotations

import json

from game.agent.events import (
    AssistantMessage,
    ToolResultEvent,
    ToolUse,
    UserMessage,
    WorldObservation,
)
from game.agent.history import Line, conversation
from game.agent.providers.base import ToolCall

SPOKEN = {"say": "text"}  # the speaking tool, as a registry names it


def say(run: str, call: str, text: str) -> ToolUse:
    return ToolUse(
        seq=0, ts=0, run_id=run, call_id=call, name="say", arguments=json.dumps({"text": text})
    )


def test_player_lines_and_replies_in_order() -> None:
    events = [
        UserMessage(seq=1, ts=0, run_id="r1", text="Hello"),
        say("r1", "c1", "Morning!"),
        ToolResultEvent(seq=3, ts=0, run_id="r1", call_id="c1", name="say", content="ok"),
        WorldObservation(seq=4, ts=0, run_id="r2", kind="idle", text="tick"),
        say("r2", "c2", "Lovely weather."),  # idle chatter: not part of the talk
        UserMessage(seq=6, ts=0, run_id="r3", text="Any bread?"),
        AssistantMessage(seq=7, ts=0, run_id="r3", text="Fresh loaves, tw", interrupted=True),
        UserMessage(seq=8, ts=0, run_id="r4", text="And now?"),
        AssistantMessage(seq=9, ts=0, run_id="r4", text="Plain answer."),
        AssistantMessage(
            seq=10, ts=0, run_id="r4", text="thinking", tool_calls=[ToolCall(id="x", name="look")]
        ),
        say("r4", "c5", "Oops"),
        ToolResultEvent(
            seq=12, ts=0, run_id="r4", call_id="c5", name="say", content="no", is_error=True
        ),
    ]
    assert conversation(events, SPOKEN) == [
        Line("player", "Hello"),
        Line("npc", "Morning!"),
        Line("player", "Any bread?"),
        Line("npc", "Fresh loaves, tw", interrupted=True),
        Line("player", "And now?"),
        Line("npc", "Plain answer."),
    ]


def test_limit_keeps_the_newest() -> None:
    events = [UserMessage(seq=i, ts=0, run_id=f"r{i}", text=str(i)) for i in range(100)]
    lines = conversation(events, SPOKEN, limit=10)
    assert [line.text for line in lines] == [str(i) for i in range(90, 100)]
