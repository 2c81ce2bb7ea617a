"""The JSONL session store: order, seq across reloads, torn lines, derived state."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from game.agent.events import (
    CUT_MARK,
    AssistantMessage,
    ResultEvent,
    SummaryEvent,
    UserMessage,
    WorldObservation,
)
from game.agent.providers.base import ToolCall
from game.agent.store import SessionStore
from game.limits import MAX_EVENT_BYTES
from game.paths import InvalidId


def _events_file(saves: Path, slot: str = "s1", npc: str = "mira") -> Path:
    return saves / slot / "npcs" / npc / "session" / "events.jsonl"


def _fill(store: SessionStore, npc: str, count: int) -> None:
    for i in range(count):
        store.append(npc, UserMessage(text=f"m{i}"))


def test_append_assigns_increasing_seq_and_reads_back_in_order(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    first = store.append("mira", UserMessage(text="a"))
    second = store.append("mira", WorldObservation(kind="idle", text="b"))
    assert (first.seq, second.seq) == (1, 2)
    assert first.ts > 0
    assert [e.text for e in store.read("mira")] == ["a", "b"]  # type: ignore[attr-defined]


def test_seq_survives_restarts_and_is_per_npc(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    _fill(store, "mira", 3)
    _fill(store, "bram", 1)
    store.close()
    again = SessionStore(saves, "s1")
    assert again.append("mira", UserMessage(text="after")).seq == 4
    assert again.append("bram", UserMessage(text="after")).seq == 2
    again.close()
    third = SessionStore(saves, "s1")
    seqs = [e.seq for e in third.read("mira")]
    assert seqs == [1, 2, 3, 4]


def test_appends_are_buffered_until_flush(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    store.append("mira", UserMessage(text="a"))
    path = _events_file(saves)
    assert not path.exists() or path.read_text() == ""
    store.flush_npc("mira")
    assert json.loads(path.read_text())["text"] == "a"


def test_a_torn_last_line_is_dropped_with_a_warning(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SessionStore(saves, "s1")
    _fill(store, "mira", 3)
    store.close()
    path = _events_file(saves)
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"type": "user.message", "seq": 4, "ts": 1.0, "te')  # the crash
    with caplog.at_level(logging.WARNING, logger="game.agent.store"):
        again = SessionStore(saves, "s1")
        events = again.read("mira")
    assert [e.seq for e in events] == [1, 2, 3]
    assert any("torn" in r.getMessage() for r in caplog.records)
    # The next event continues cleanly after the last good line.
    assert again.append("mira", UserMessage(text="next")).seq == 4
    again.close()
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    assert all(json.loads(line)["seq"] == n for n, line in enumerate(lines, start=1))


def test_an_unparseable_complete_last_line_is_kept_and_skipped(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    _fill(store, "mira", 2)
    store.close()
    path = _events_file(saves)
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"type": "user.mess\n')
    again = SessionStore(saves, "s1")
    assert [e.seq for e in again.read("mira")] == [1, 2]
    assert again.next_seq("mira") == 3
    assert path.read_text().endswith('{"type": "user.mess\n')  # complete: never removed


def test_a_bad_line_in_the_middle_is_skipped_not_fatal(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SessionStore(saves, "s1")
    _fill(store, "mira", 2)
    store.close()
    path = _events_file(saves)
    lines = path.read_text().splitlines()
    path.write_text(lines[0] + "\nnot json\n" + lines[1] + "\n")
    with caplog.at_level(logging.WARNING, logger="game.agent.store"):
        events = SessionStore(saves, "s1").read("mira")
    assert [e.seq for e in events] == [1, 2]
    assert any("unreadable" in r.getMessage() for r in caplog.records)


def test_state_is_rebuilt_from_the_log_when_missing(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    store.append("mira", UserMessage(text="a", run_id="r1"))
    store.append("mira", ResultEvent(run_id="r1", outcome="final", tokens_in=100, tokens_out=7))
    store.append("mira", ResultEvent(run_id="r2", outcome="failed", estimated=True, tokens_in=5))
    store.flush(fsync=True)
    state_path = _events_file(saves).with_name("state.json")
    written = json.loads(state_path.read_text())
    assert written["next_seq"] == 4
    assert written["tokens_in"] == 105
    store.close()
    state_path.unlink()
    state = SessionStore(saves, "s1").state("mira")
    assert (state.next_seq, state.turns, state.tokens_in, state.tokens_out) == (4, 2, 105, 7)
    assert state.estimated_turns == 1
    assert state.last_run_id == "r2"
    assert state.last_outcome == "failed"


@pytest.mark.parametrize("content", ["{not json", '{"next_seq": 99}', '{"next_seq": "x"}'])
def test_state_is_rebuilt_when_wrong_or_corrupt(saves: Path, content: str) -> None:
    store = SessionStore(saves, "s1")
    _fill(store, "mira", 5)
    store.close()
    _events_file(saves).with_name("state.json").write_text(content)
    again = SessionStore(saves, "s1")
    assert again.state("mira").next_seq == 6
    assert again.append("mira", UserMessage(text="x")).seq == 6


def test_invalid_ids_are_refused_and_nothing_is_created(saves: Path) -> None:
    with pytest.raises(InvalidId):
        SessionStore(saves, "../evil")
    store = SessionStore(saves, "s1")
    for bad in ("../bram", "Mira", "a/b", ""):
        with pytest.raises(InvalidId):
            store.append(bad, UserMessage(text="x"))
    store.flush()
    assert not saves.exists() or not any(saves.rglob("*.jsonl"))


def test_npc_ids_lists_flushed_and_pending_sessions(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    store.append("mira", UserMessage(text="a"))
    store.flush()
    fresh = SessionStore(saves, "s1")
    fresh.append("bram", UserMessage(text="b"))
    assert fresh.npc_ids() == ["bram", "mira"]


def test_recent_is_bounded_and_the_same_after_a_reload(saves: Path) -> None:
    store = SessionStore(saves, "s1", cache_events=10)
    _fill(store, "mira", 35)
    live = [e.seq for e in store.recent("mira")]
    assert live == list(range(26, 36))
    store.close()
    reloaded = SessionStore(saves, "s1", cache_events=10)
    assert [e.seq for e in reloaded.recent("mira")] == live
    assert len(reloaded.read("mira")) == 35


def test_the_newest_summary_is_tracked_even_outside_the_cache(saves: Path) -> None:
    store = SessionStore(saves, "s1", cache_events=4)
    _fill(store, "mira", 3)
    store.append("mira", SummaryEvent(text="old", upto_seq=3))
    store.append("mira", SummaryEvent(text="newer", upto_seq=4))
    _fill(store, "mira", 10)
    summary = store.summary("mira")
    assert summary is not None and summary.text == "newer"
    store.close()
    reloaded = SessionStore(saves, "s1", cache_events=4)
    summary = reloaded.summary("mira")
    assert summary is not None and (summary.text, summary.seq) == ("newer", 5)


def test_appending_an_already_stamped_event_copies_it(saves: Path) -> None:
    store = SessionStore(saves, "s1")
    original = store.append("mira", AssistantMessage(text="hi"))
    copied = store.append("bram", original)
    assert copied is not original
    assert (original.seq, copied.seq) == (1, 1)
    assert store.append("bram", original).seq == 2


def test_a_write_that_fails_half_way_leaves_no_torn_line(
    saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    store = SessionStore(saves, "s1")
    _fill(store, "mira", 2)
    store.flush_npc("mira")
    _fill(store, "mira", 3)
    real_write = os.write
    calls = {"n": 0}

    def half_then_full(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, bytes(data[: len(data) // 2]))  # a partial write...
        raise OSError(errno.ENOSPC, "No space left on device")  # ...then the disk is full

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(OSError):
        store.flush_npc("mira")
    monkeypatch.setattr(os, "write", real_write)
    store.flush_npc("mira")  # the disk has room again: the buffered events go out whole
    lines = _events_file(saves).read_text().splitlines()
    assert [json.loads(line)["text"] for line in lines] == ["m0", "m1", "m0", "m1", "m2"]


def test_an_event_too_long_for_a_line_is_cut_to_fit_not_skipped(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """What a model sent may be megabytes: the log keeps its start, marked cut, in a line
    its reader takes, so the turn is remembered and no seq is skipped."""
    huge = "Grüße " * 500_000  # 3.5 MB of UTF-8
    store = SessionStore(saves, "s1")
    store.append("mira", UserMessage(text="hi"))
    with caplog.at_level(logging.WARNING, logger="game.agent.store"):
        message = store.append(
            "mira",
            AssistantMessage(
                text=huge, tool_calls=[ToolCall(id="c1", name="say", arguments=huge)] * 3
            ),
        )
        result = store.append("mira", ResultEvent(outcome="final", text=huge, tokens_out=9))
    assert [r.getMessage().count("cut") for r in caplog.records] == [1, 1]
    assert isinstance(message, AssistantMessage) and message.text.endswith(CUT_MARK)
    store.close()
    lines = _events_file(saves).read_bytes().splitlines()
    assert len(lines) == 3 and all(len(line) <= MAX_EVENT_BYTES for line in lines)
    again = SessionStore(saves, "s1")
    events = again.read("mira")
    assert [e.seq for e in events] == [1, 2, 3] == [1, message.seq, result.seq]
    kept = events[1]
    assert isinstance(kept, AssistantMessage) and kept == message  # memory is what is on disk
    assert kept.text.startswith("Grüße Grüße") and kept.text.endswith(CUT_MARK)
    assert [c.id for c in kept.tool_calls] == ["c1"] * 3
    assert all(c.arguments.endswith(CUT_MARK) for c in kept.tool_calls)
    last = events[2]
    assert isinstance(last, ResultEvent) and last.tokens_out == 9 and last.text.endswith(CUT_MARK)
    assert again.state("mira").tokens_out == 9


def test_an_event_of_countless_small_parts_is_shortened_to_fit(saves: Path) -> None:
    calls = [ToolCall(id=f"c{i}", name="look", arguments="{}") for i in range(30_000)]
    store = SessionStore(saves, "s1")
    store.append("mira", AssistantMessage(text="Look!", tool_calls=calls))
    store.close()
    [line] = _events_file(saves).read_bytes().splitlines()
    assert len(line) <= MAX_EVENT_BYTES
    [event] = SessionStore(saves, "s1").read("mira")
    assert isinstance(event, AssistantMessage) and event.text == "Look!"
    assert 64 <= len(event.tool_calls) < 30_000
    assert [c.id for c in event.tool_calls] == [f"c{i}" for i in range(len(event.tool_calls))]


@pytest.mark.parametrize("size", [MAX_EVENT_BYTES - 200, MAX_EVENT_BYTES + 200])
def test_the_bound_of_a_line_is_exact(saves: Path, size: int) -> None:
    store = SessionStore(saves, "s1")
    bare = len(UserMessage(text="", seq=1, ts=1.5).model_dump_json())
    event = store.append("mira", UserMessage(text="x" * (size - bare), ts=1.5))
    store.close()
    [line] = _events_file(saves).read_bytes().splitlines()
    assert len(line) == min(size, len(line)) <= MAX_EVENT_BYTES
    assert isinstance(event, UserMessage)
    assert event.text.endswith(CUT_MARK) == (size > MAX_EVENT_BYTES)
    assert [e.seq for e in SessionStore(saves, "s1").read("mira")] == [1]
