"""Reading an NPC's log: only a torn last line is ever mended; every complete line stays,
readers skip what they cannot read, and memory stays bounded whatever the file holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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
