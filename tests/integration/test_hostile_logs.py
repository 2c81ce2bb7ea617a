"""An NPC's log with lines no one can read (nested past any parser, longer than a line may
be, without a seq): each costs that line, with one warning, never the slot; the rest of
the log loads, turns go on, the slot saves and loads again, and no seq is given twice."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from game.agent.events import AssistantMessage, ToolUse, UserMessage
from game.agent.history import conversation
from game.agent.loop import AgentRuntime
from game.agent.memory import said_in
from game.agent.providers.base import ToolCall
from game.agent.providers.fake import FakeProvider, reply
from game.agent.store import SessionStore
from game.agent.trigger import Trigger
from game.limits import MAX_EVENT_BYTES
from game.paths import npc_events_file, npc_state_file
from game.save.format import PlayerState, SavedWorld
from game.save.slot_io import read_slot, write_slot
from tests.agent.helpers import MIRA, make_registry

SLOT = "s1"
DEEP = "[" * 100_000 + "]" * 100_000
WORLD = SavedWorld(map_id="village", clock=60.0, player=PlayerState(tile=(2, 2)))


def _start(saves: Path, count: int = 3) -> Path:
    """A slot saved with `count` lines of Mira's; the path of her log."""
    store = SessionStore(saves, SLOT)
    for i in range(count):
        store.append("mira", UserMessage(text=f"line {i}"))
    assert write_slot(saves, SLOT, WORLD, store=store, fsync=False).ok
    store.close()
    return npc_events_file(saves, SLOT, "mira")


def _append(path: Path, *lines: str | bytes) -> None:
    with open(path, "ab") as f:
        for line in lines:
            f.write((line.encode() if isinstance(line, str) else line) + b"\n")


def _line(seq: int, text: str = "after") -> str:
    return UserMessage(text=text, seq=seq, ts=1.0).model_dump_json()


def _skips(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "skipping" in r.getMessage()]


DEEP_LINES = {
    "a deep text": '{"type":"user.message","seq":4,"ts":1.0,"text":' + DEEP + "}",
    "a deep unknown field": '{"type":"user.message","seq":4,"ts":1.0,"text":"hi","x":' + DEEP + "}",
    "a deep tool call": '{"type":"assistant.message","seq":4,"ts":1.0,"tool_calls":'
    + "[" * 5000
    + "]" * 5000
    + "}",
    "a line just too deep": '{"type":"user.message","seq":4,"ts":1.0,"text":"hi","x":'
    + "[" * 70
    + "]" * 70
    + "}",
}


@pytest.mark.parametrize("last", [True, False], ids=["last line", "middle line"])
@pytest.mark.parametrize("deep", sorted(DEEP_LINES))
def test_a_deep_line_costs_that_line_not_the_slot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, deep: str, last: bool
) -> None:
    saves = tmp_path / "saves"
    path = _start(saves)
    deep_at = path.stat().st_size
    _append(path, DEEP_LINES[deep], *([] if last else [_line(5)]))
    on_disk = path.read_bytes()
    with caplog.at_level(logging.WARNING, logger="game.agent.store"):
        store = SessionStore(saves, SLOT)
        kept = [1, 2, 3] if last else [1, 2, 3, 5]
        assert [e.seq for e in store.recent("mira")] == kept
        assert [e.seq for e in store.read("mira")] == kept
        assert [e.seq for e in store.read("mira", last=10)] == kept
        event = store.append("mira", UserMessage(text="next"))
        assert event.seq == (5 if last else 6)  # seq 4 is the deep line's: never again
        result = write_slot(saves, SLOT, WORLD, store=store, fsync=False)
        assert result.ok, result.message
        assert result.sessions == {"mira": event.seq}
        store.close()
    skipped = _skips(caplog)
    assert len(skipped) == 1, skipped  # one warning however often the log was read
    assert "nested more than" in skipped[0] and f"at byte {deep_at}" in skipped[0]
    assert path.read_bytes().startswith(on_disk)  # the deep line is never removed
    slot = read_slot(saves, SLOT)
    assert slot.world is not None and slot.world.sessions == {"mira": event.seq}
    again = SessionStore(saves, SLOT)
    assert [e.seq for e in again.read("mira")] == [*kept, event.seq]


async def test_a_runtime_plays_on_after_a_deep_line_and_the_slot_saves(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    path = _start(saves)
    _append(path, DEEP_LINES["a deep text"])
    runtime = AgentRuntime(
        saves, slot=SLOT, provider=FakeProvider([reply("Fresh bread!")]), registry=make_registry()
    )
    runtime.register_npc(MIRA)
    outcome = await runtime.run_turn(SLOT, "mira", Trigger.player("Hello!"))
    assert outcome.kind == "final" and outcome.text == "Fresh bread!"
    store = runtime.store(SLOT)
    result = write_slot(saves, SLOT, WORLD, store=store, fsync=False)
    assert result.ok, result.message
    await runtime.aclose()
    events = SessionStore(saves, SLOT).read("mira")
    assert [e.seq for e in events][:3] == [1, 2, 3] and 4 not in [e.seq for e in events]
    assert events[-1].type == "result" and events[-1].seq == result.sessions["mira"]


# --- 5 (c): a line skipped on load never makes a seq be given twice ---------------------


def _long(seq: int | None) -> str:
    """A line longer than the log takes, as the game wrote such lines (its seq first), or
    with no seq near its start."""
    text = "y" * (MAX_EVENT_BYTES + 10)
    if seq is None:
        return '{"text":"' + text + '","type":"assistant.message","seq":4}'
    return _line(seq, text)


@pytest.mark.parametrize("state", ["kept", "missing", "stale"])
def test_a_skipped_lines_seq_is_never_reused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, state: str
) -> None:
    saves = tmp_path / "saves"
    path = _start(saves)
    _append(path, _long(4), DEEP_LINES["a deep text"].replace('"seq":4', '"seq":5'), _long(6))
    state_file = npc_state_file(saves, SLOT, "mira")
    if state == "missing":
        state_file.unlink()
    elif state == "kept":  # what the game that wrote them would have left
        state_file.write_text(json.dumps({"next_seq": 7, "events": 6}))
    with caplog.at_level(logging.WARNING, logger="game.agent.store"):
        store = SessionStore(saves, SLOT)
        assert [e.seq for e in store.read("mira")] == [1, 2, 3]
        assert store.append("mira", UserMessage(text="next")).seq == 7
        store.close()
    assert len(_skips(caplog)) == 3
    assert [e.seq for e in SessionStore(saves, SLOT).read("mira")] == [1, 2, 3, 7]


def test_without_a_seq_to_read_state_json_has_the_last_word(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    path = _start(saves)
    _append(path, _long(None))  # seq 4, but nowhere the reader looks
    npc_state_file(saves, SLOT, "mira").write_text(json.dumps({"next_seq": 5, "events": 4}))
    store = SessionStore(saves, SLOT)
    assert [e.seq for e in store.read("mira")] == [1, 2, 3]
    assert store.append("mira", UserMessage(text="next")).seq == 5


def test_deep_tool_arguments_in_a_log_are_read_as_none(tmp_path: Path) -> None:
    """A call whose arguments nest past any parser (a line that reads, its text does not):
    the talk panel's history and the memory's transcript leave the call out."""
    store = SessionStore(tmp_path, SLOT)
    call = ToolCall(id="c1", name="say", arguments=DEEP)
    store.append("mira", UserMessage(text="Hello?", run_id="r1"))
    store.append("mira", AssistantMessage(tool_calls=[call], run_id="r1"))
    store.append("mira", ToolUse(call_id="c1", name="say", arguments=DEEP, run_id="r1"))
    store.close()
    events = SessionStore(tmp_path, SLOT).read("mira")
    assert [line.text for line in conversation(events, {"say": "text"})] == ["Hello?"]
    message = events[1]
    assert isinstance(message, AssistantMessage)
    assert said_in(message, {"say": "text"}) == []
