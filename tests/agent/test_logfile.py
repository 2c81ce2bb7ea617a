"""Reading an NPC's log: only a torn last line is ever mended; every complete line stays,
readers skip what they cannot read, and memory stays bounded whatever the file holds."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.agent import logfile
from game.agent.events import UserMessage
from game.agent.logfile import MAX_EVENT_BYTES, load_tail
from game.agent.store import SessionStore
from game.paths import npc_events_file

ROOT = Path(__file__).resolve().parents[2]


def _log(saves: Path, n: int = 3) -> Path:
    store = SessionStore(saves, "s1")
    for i in range(n):
        store.append("mira", UserMessage(text=f"line {i}"))
    store.close()
    return npc_events_file(saves, "s1", "mira")


NEWER = [
    # a newer game's event types, and lines this game cannot read at all
    '{"type": "news.heard", "seq": 4, "ts": 1.0, "about": "the mill"}',
    '{"type": "user.message", "seq": 4, "ts": 1e999, "text": "an infinite time"}',
    '{"type": "board.post", "seq": 9, "ts": 2.0}',
    "not json at all",
    '{"seq": "4"}',
]


@pytest.mark.parametrize("line", NEWER)
def test_a_complete_last_line_that_cannot_be_read_is_kept(tmp_path: Path, line: str) -> None:
    path = _log(tmp_path)
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
    before = path.read_bytes()
    store = SessionStore(tmp_path, "s1")
    assert [e.seq for e in store.read("mira")] == [1, 2, 3]  # skipped when read...
    assert path.read_bytes() == before  # ...never removed
    carried = json.loads(line).get("seq") if line.startswith("{") else None
    expected = carried + 1 if isinstance(carried, int) else 4
    assert store.append("mira", UserMessage(text="next")).seq == expected  # never a seq twice
    store.close()
    assert path.read_bytes().startswith(before)


def test_a_whole_event_that_lost_its_newline_is_completed_not_dropped(tmp_path: Path) -> None:
    path = _log(tmp_path)
    with open(path, "a", encoding="utf-8") as f:
        f.write(UserMessage(text="almost", seq=4, ts=1.0).model_dump_json())  # no newline
    store = SessionStore(tmp_path, "s1")
    assert [e.text for e in store.read("mira") if isinstance(e, UserMessage)][-1] == "almost"
    assert store.append("mira", UserMessage(text="next")).seq == 5
    store.close()
    assert len(path.read_text().splitlines()) == 5


@pytest.mark.parametrize("cut", [1, 17, 60])
def test_a_torn_last_line_is_cut_at_any_length(tmp_path: Path, cut: int) -> None:
    path = _log(tmp_path)
    whole = UserMessage(text="x" * 100, seq=4, ts=1.0).model_dump_json()
    with open(path, "a", encoding="utf-8") as f:
        f.write(whole[:cut])
    store = SessionStore(tmp_path, "s1")
    assert store.next_seq("mira") == 4
    store.close()
    assert path.read_bytes().endswith(b"\n") and len(path.read_text().splitlines()) == 3


def test_over_long_lines_are_skipped_unread(tmp_path: Path) -> None:
    path = _log(tmp_path, 2)
    with open(path, "ab") as f:
        f.write(b'{"type": "user.message", "text": "' + b"y" * (MAX_EVENT_BYTES + 5) + b'"}\n')
        f.write(UserMessage(text="after", seq=3, ts=1.0).model_dump_json().encode() + b"\n")
    store = SessionStore(tmp_path, "s1")
    assert [e.seq for e in store.read("mira")] == [1, 2, 3]
    assert [e.seq for e in store.recent("mira")] == [1, 2, 3]
    assert store.append("mira", UserMessage(text="next")).seq == 4


def test_the_tail_is_read_from_the_end(tmp_path: Path) -> None:
    path = _log(tmp_path, 2000)
    tail, summary = load_tail(path, 5)
    assert [e.seq for e in tail] == [1996, 1997, 1998, 1999, 2000]
    assert summary is None


def test_a_huge_log_opens_in_little_memory(tmp_path: Path) -> None:
    """A 3 GB log (sparse: no disk used) of one endless line opens, and the NPC's next
    turn is appended after it, in a process limited to far less memory than the file."""
    path = _log(tmp_path, 2)
    with open(path, "r+b") as f:
        f.truncate(3 * 1024**3)  # zeros: one torn line of 3 GB
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))\n"
        "from pathlib import Path\n"
        "from game.agent.events import UserMessage\n"
        "from game.agent.store import SessionStore\n"
        "store = SessionStore(Path(sys.argv[1]), 's1')\n"
        "print(len(store.recent('mira')), store.append('mira', UserMessage(text='n')).seq)\n"
        "store.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["2", "3"]


# --- any mix of lines: read the same forwards and back, at any chunk size ---------------

_MAX = 400  # MAX_EVENT_BYTES, made small so over-long lines are cheap
_KINDS = st.lists(
    st.one_of(
        st.tuples(st.just("event"), st.integers(min_value=0, max_value=500)),  # text length
        st.just(("deep", 0)),  # nested past the JSON bound
        st.just(("garbage", 0)),  # no seq to read
        st.just(("blank", 0)),
    ),
    max_size=25,
)


@settings(max_examples=80, deadline=None)
@given(kinds=_KINDS, chunk=st.integers(min_value=1, max_value=300), count=st.integers(1, 30))
def test_any_mix_of_lines_reads_the_same_forwards_and_back(
    kinds: list[tuple[str, int]], chunk: int, count: int
) -> None:
    lines: list[str] = []
    readable: list[int] = []
    last_seq, unsure = None, False
    for seq, (kind, size) in enumerate(kinds, start=1):
        if kind == "event":
            line = UserMessage(text="é" * size, seq=seq, ts=1.0).model_dump_json()
            if len(line.encode()) <= _MAX:
                readable.append(seq)
        elif kind == "deep":
            nested = "[" * 70 + "]" * 70
            line = f'{{"type":"user.message","seq":{seq},"ts":1.0,"text":{nested}}}'
        else:
            line = "not json {[" if kind == "garbage" else ""
        lines.append(line)
        if kind in ("event", "deep"):
            last_seq, unsure = seq, False
        elif kind == "garbage":
            unsure = True
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(logfile, "MAX_EVENT_BYTES", _MAX)
        patch.setattr(logfile, "_CHUNK", chunk)
        path = Path(folder) / "events.jsonl"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        assert [e.seq for e in logfile.load_events(path)] == readable
        tail, _ = logfile.load_tail(path, count)
        assert [e.seq for e in tail] == readable[-count:]
        assert logfile.repair_tail(path) == (last_seq, unsure)
