"""The JSONL session store: one per save slot, one append-only log per NPC.

Layout: `<saves>/<slot>/npcs/<npc_id>/session/events.jsonl` plus `state.json`, a cache of
a fold over the log (`next_seq`, token meter, last turn) that is rebuilt from the log when
missing or wrong. Appends are stamped (`seq`, `ts`) and buffered in memory. The runtime
writes an NPC's events at the end of every turn (`flush_npc`); `flush()` also writes
`state.json` (the save system calls `flush(fsync=True)`; `close()` flushes too).

Memory stays bounded however long a session grows: per NPC the store keeps the newest
`cache_events` parsed events and the newest `summary`, which is all replay reads, so
replay never re-reads the file; `read()` returns the whole log from disk.

The store does blocking disk I/O on the calling thread: call it from the agent thread,
never from the game thread.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from pydantic import TypeAdapter, ValidationError

from game.agent.events import EventBase, ResultEvent, SummaryEvent, parse_event
from game.atomic import write_atomic
from game.paths import (
    EVENTS_FILE,
    NPCS_DIR,
    SESSION_DIR,
    npc_events_file,
    npc_session_dir,
    npc_state_file,
    slot_dir,
    slot_path,
    validate_id,
)

__all__ = ["CACHE_EVENTS", "SessionState", "SessionStore"]

log = logging.getLogger(__name__)

# Buffered lines per NPC before an append writes them out on its own.
AUTO_FLUSH_LINES = 512
# Parsed events kept in memory per NPC: far more than any sensible history window.
CACHE_EVENTS = 256
_TAIL_CHUNK = 64 * 1024
_SUMMARY_MARK = b'"type":"summary"'


@dataclass(slots=True)
class SessionState:
    """What `state.json` holds: a fold over the event log."""

    next_seq: int = 1
    events: int = 0
    turns: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    estimated_turns: int = 0
    last_run_id: str | None = None
    last_outcome: str | None = None
    last_ts: float = 0.0

    def apply(self, event: EventBase) -> None:
        """Fold one event into the state."""
        self.next_seq = event.seq + 1
        self.events += 1
        self.last_ts = event.ts
        if event.run_id is not None:
            self.last_run_id = event.run_id
        if event.type == "result":
            assert isinstance(event, ResultEvent)
            self.turns += 1
            self.tokens_in += event.tokens_in
            self.tokens_out += event.tokens_out
            self.estimated_turns += int(event.estimated)
            self.last_outcome = event.outcome

    def to_json(self) -> str:
        """The `state.json` text."""
        return _STATE_ADAPTER.dump_json(self, indent=1).decode()

    @classmethod
    def from_json(cls, data: str | bytes) -> SessionState:
        """Parse `state.json` (raises pydantic.ValidationError)."""
        return _STATE_ADAPTER.validate_json(data)


_STATE_ADAPTER: TypeAdapter[SessionState] = TypeAdapter(SessionState)


class _NpcLog:
    """One NPC's log: paths, state, buffered lines and the cached tail of parsed events."""

    __slots__ = (
        "dir",
        "dir_ready",
        "events_path",
        "pending",
        "state",
        "state_dirty",
        "state_path",
        "summary",
        "tail",
    )

    def __init__(self, saves: Path, slot: str, npc_id: str, state: SessionState) -> None:
        self.dir = npc_session_dir(saves, slot, npc_id)
        self.dir_ready = False
        self.events_path = npc_events_file(saves, slot, npc_id)
        self.state_path = npc_state_file(saves, slot, npc_id)
        self.state = state
        self.state_dirty = False
        self.pending: list[str] = []
        # The newest parsed events (None until first needed) and the newest summary.
        self.tail: list[EventBase] | None = None
        self.summary: SummaryEvent | None = None


class SessionStore:
    """Append-only JSONL logs of every NPC in one save slot."""

    def __init__(self, saves_dir: Path, slot: str, *, cache_events: int = CACHE_EVENTS) -> None:
        self.saves_dir = Path(saves_dir)
        self.slot = validate_id(slot, "slot id")
        self.slot_path = slot_dir(self.saves_dir, slot)
        self.cache_events = max(1, cache_events)
        self._logs: dict[str, _NpcLog] = {}
        self._lock = threading.RLock()

    # --- public API --------------------------------------------------------------------

    def append(self, npc_id: str, event: EventBase) -> EventBase:
        """Stamp `event` in place with the next `seq` (and `ts` if unset), buffer it, return it."""
        with self._lock:
            npc = self._log(npc_id)
            if event.seq >= 0:
                # Already stamped (e.g. copied from another log): leave the original intact.
                event = event.model_copy(deep=True)
            event.seq = npc.state.next_seq
            if not event.ts:
                event.ts = time.time()
            npc.pending.append(event.model_dump_json() + "\n")
            npc.state.apply(event)
            npc.state_dirty = True
            if npc.tail is not None:
                npc.tail.append(event)
                if len(npc.tail) >= 2 * self.cache_events:
                    del npc.tail[: -self.cache_events]
            if event.type == "summary":
                assert isinstance(event, SummaryEvent)
                npc.summary = event
            if len(npc.pending) >= AUTO_FLUSH_LINES:
                try:
                    self._write_pending(npc, fsync=False)
                except OSError as exc:  # keep the lines buffered; the next flush retries
                    log.warning("could not write %s: %s", npc.events_path, exc)
            return event

    def read(self, npc_id: str) -> list[EventBase]:
        """The whole log of one NPC from disk, in `seq` order (a torn last line is dropped)."""
        with self._lock:
            npc = self._log(npc_id)
            self._write_pending(npc, fsync=False)
            return _load_events(npc.events_path) if npc.events_path.exists() else []

    def recent(self, npc_id: str) -> list[EventBase]:
        """The newest `cache_events` events (replay's input), from memory."""
        with self._lock:
            return self._tail(self._log(npc_id))[-self.cache_events :]

    def summary(self, npc_id: str) -> SummaryEvent | None:
        """The newest `summary` event of the NPC, if any."""
        with self._lock:
            npc = self._log(npc_id)
            self._tail(npc)
            return npc.summary

    def next_seq(self, npc_id: str) -> int:
        """The seq the NPC's next event will get (1 for an empty log)."""
        with self._lock:
            return self._log(npc_id).state.next_seq

    def state(self, npc_id: str) -> SessionState:
        """A copy of the NPC's session state (next_seq, token meter, last turn)."""
        with self._lock:
            return replace(self._log(npc_id).state)

    def npc_ids(self) -> list[str]:
        """Every NPC with a session in this slot (on disk or not yet flushed), sorted."""
        with self._lock:
            found = set(self._logs)
            npcs = slot_path(self.saves_dir, self.slot, NPCS_DIR)
            if npcs.is_dir():
                for child in npcs.iterdir():
                    # A child's name is not an id yet: this path is the layout's, by hand.
                    if (child / SESSION_DIR / EVENTS_FILE).is_file():
                        try:
                            found.add(validate_id(child.name, "NPC id"))
                        except ValueError:
                            log.warning("ignoring a session with an invalid id: %s", child)
            return sorted(found)

    def flush(self, fsync: bool = False) -> None:
        """Write buffered events and changed `state.json` files (fsync them if asked)."""
        with self._lock:
            for npc in self._logs.values():
                self._write_pending(npc, fsync=fsync, state=True)

    def flush_npc(self, npc_id: str) -> None:
        """Write one NPC's buffered events (cheap: no fsync, `state.json` left for `flush`)."""
        with self._lock:
            npc = self._logs.get(npc_id)
            if npc is not None:
                self._write_pending(npc, fsync=False)

    def close(self) -> None:
        """Flush everything and drop the caches (the store may be used again afterwards)."""
        with self._lock:
            self.flush()
            self._logs.clear()

    # --- internals ---------------------------------------------------------------------

    def _log(self, npc_id: str) -> _NpcLog:
        npc = self._logs.get(npc_id)
        if npc is None:
            npc = self._open(npc_id)
            self._logs[npc_id] = npc
        return npc

    def _open(self, npc_id: str) -> _NpcLog:
        npc = _NpcLog(self.saves_dir, self.slot, npc_id, SessionState())
        events_path = npc.events_path
        last_seq = _repair_tail(events_path) if events_path.exists() else None
        state = _load_state(npc.state_path)
        npc.state = state or SessionState()
        expected_next = 1 if last_seq is None else last_seq + 1
        if state is None or state.next_seq != expected_next:
            if state is not None:
                log.warning(
                    "%s disagrees with the log (next_seq %d, the log says %d): rebuilding it",
                    npc.state_path,
                    state.next_seq,
                    expected_next,
                )
            rebuilt = SessionState()
            if last_seq is not None:
                for event in _load_events(events_path):
                    rebuilt.apply(event)
                # Never reuse a seq, even if the log had gaps or disorder.
                rebuilt.next_seq = max(rebuilt.next_seq, expected_next)
            npc.state = rebuilt
            npc.state_dirty = last_seq is not None
        return npc

    def _tail(self, npc: _NpcLog) -> list[EventBase]:
        if npc.tail is None:
            self._write_pending(npc, fsync=False)
            npc.tail, npc.summary = _load_tail(npc.events_path, self.cache_events)
        return npc.tail

    def _write_pending(self, npc: _NpcLog, *, fsync: bool, state: bool = False) -> None:
        if (npc.pending or (state and npc.state_dirty)) and not npc.dir_ready:
            npc.dir.mkdir(parents=True, exist_ok=True)
            npc.dir_ready = True
        if npc.pending:
            _append_bytes(npc.events_path, "".join(npc.pending).encode("utf-8"), fsync=fsync)
            npc.pending.clear()
        # state.json is only a cache of the log (checked against its tail on open), so it is
        # written at checkpoints, not per turn: a replacing write costs milliseconds on ext4.
        if state and npc.state_dirty:
            write_atomic(npc.state_path, npc.state.to_json().encode("utf-8"), fsync=fsync)
            npc.state_dirty = False


def _parse_line(path: Path, number: int, line: bytes) -> EventBase | None:
    try:
        return parse_event(line)
    except ValidationError as exc:
        log.warning("%s:%d: skipping an unreadable event: %s", path, number, _first_error(exc))
        return None


def _load_events(path: Path) -> list[EventBase]:
    """Parse a whole log; unreadable or out-of-order lines are skipped with a warning."""
    events: list[EventBase] = []
    last_seq = 0
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        event = _parse_line(path, number, line)
        if event is None:
            continue
        if event.seq <= last_seq:
            log.warning("%s:%d: skipping an event whose seq is not increasing", path, number)
            continue
        last_seq = event.seq
        events.append(event)
    return events


def _load_tail(path: Path, count: int) -> tuple[list[EventBase], SummaryEvent | None]:
    """Parse only the newest `count` events of a log, and find its newest summary."""
    if not path.exists():
        return [], None
    lines = path.read_bytes().splitlines()
    tail: list[EventBase] = []
    index = len(lines)
    while index > 0 and len(tail) < count:
        index -= 1
        if lines[index].strip():
            event = _parse_line(path, index + 1, lines[index])
            if event is not None and (not tail or event.seq < tail[-1].seq):
                tail.append(event)
    tail.reverse()
    summary = next((e for e in reversed(tail) if isinstance(e, SummaryEvent)), None)
    while summary is None and index > 0:
        index -= 1
        if _SUMMARY_MARK in lines[index]:
            found = _parse_line(path, index + 1, lines[index])
            if isinstance(found, SummaryEvent):
                summary = found
    return tail, summary


def _repair_tail(path: Path) -> int | None:
    """Drop a torn or unreadable last line (truncating the file); return the last seq."""
    with open(path, "r+b") as f:
        end = f.seek(0, os.SEEK_END)
        while end > 0:
            start, line, terminated = _last_line(f, end)
            if terminated and not line.strip():
                end = start  # a blank line is harmless: look at the one before it
                continue
            reason = "no newline at the end"
            if terminated:
                try:
                    return parse_event(line).seq
                except ValidationError as exc:
                    reason = _first_error(exc)
            log.warning(
                "%s: dropping a torn last line at byte %d (%s): %r", path, start, reason, line[:80]
            )
            f.truncate(start)
            end = start
        return None


def _last_line(f: BinaryIO, end: int) -> tuple[int, bytes, bool]:
    """Return (offset, bytes without newline, ends with newline) of the last line of f[:end]."""
    f.seek(end - 1)
    terminated = f.read(1) == b"\n"
    body_end = end - 1 if terminated else end
    chunk = _TAIL_CHUNK
    while True:
        begin = max(0, body_end - chunk)
        f.seek(begin)
        block = f.read(body_end - begin)
        cut = block.rfind(b"\n")
        if cut >= 0:
            return begin + cut + 1, block[cut + 1 :], terminated
        if begin == 0:
            return 0, block, terminated
        chunk *= 2


def _load_state(path: Path) -> SessionState | None:
    try:
        return SessionState.from_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValidationError, ValueError) as exc:
        log.warning("%s is unreadable (%s): rebuilding it from the log", path, exc)
        return None


_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)


def _append_bytes(path: Path, data: bytes, *, fsync: bool) -> None:
    # os-level calls: a buffered file object costs three times as much per turn.
    fd = os.open(path, _APPEND_FLAGS, 0o644)
    try:
        start = os.fstat(fd).st_size
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            # Cut a half-written buffer off again, so a retry does not leave a torn
            # line in the middle of the log.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
            raise
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return str(exc)
    first = errors[0]
    return f"{first.get('type')}: {first.get('msg')}"
