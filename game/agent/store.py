"""The JSONL session store: one per save slot, one append-only log per NPC.

Layout: `<saves>/<slot>/npcs/<npc_id>/session/events.jsonl` plus `state.json`, a cache of
a fold over the log (`next_seq`, token meter, last turn) that is rebuilt from the log when
missing or wrong. Appends are stamped (`seq`, `ts`) and buffered in memory. The runtime
writes an NPC's events at the end of every turn (`flush_npc`); `flush()` also writes
`state.json` (the save system calls `flush(fsync=True)`; `close()` flushes too).

Memory stays bounded however long a session grows: per NPC the store keeps the newest
`cache_events` parsed events and the newest `summary`, which is all replay reads, so
replay never re-reads the file; `read()` returns the whole log from disk. Reading the
file is `game.agent.logfile`'s: bounded memory, a torn last line mended, no complete line
ever removed, and each line it cannot read skipped with one warning.

The store never writes a line its reader would skip: an event whose line would pass
`MAX_EVENT_BYTES` has its longest texts cut (marked " [cut]") before it is written. Nor
does it give a seq twice: the next one follows the newest seq in the log, read from a
skipped line too, or from `state.json` when the newest lines carry none it can read.

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

from pydantic import TypeAdapter

from game.agent.errors import LogNotWritten
from game.agent.events import EventBase, ResultEvent, SummaryEvent, fit_line, parse_event
from game.agent.logfile import LogEnd, load_events, load_tail, repair_tail
from game.atomic import write_atomic
from game.files import read_capped
from game.limits import MAX_EVENT_BYTES
from game.paths import (
    EVENTS_FILE,
    NPCS_DIR,
    SESSION_DIR,
    UnsafePath,
    check_inside,
    npc_events_file,
    npc_session_dir,
    npc_state_file,
    slot_dir,
    slot_path,
    validate_id,
)
from game.safe_json import check_depth

__all__ = ["CACHE_EVENTS", "PUBLISHED", "SessionState", "SessionStore"]

log = logging.getLogger(__name__)

# Buffered lines per NPC before an append writes them out on its own.
AUTO_FLUSH_LINES = 512
# Parsed events kept in memory per NPC: far more than any sensible history window.
CACHE_EVENTS = 256
MAX_STATE_BYTES = 64 * 1024  # state.json is a few hundred bytes
# Marks a log record of a failure that is also published on the debug bus, so the one who
# runs the turn tells the player (the `chat` command says it in one line, not twice).
PUBLISHED = {"published": True}


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
        """Parse `state.json` (a ValueError: pydantic.ValidationError, or JsonTooDeep)."""
        check_depth(data)
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
        "warned",
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
        self.warned: set[int] = set()  # byte offsets of the lines skipped with a warning


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
            fitted, line = fit_line(event, MAX_EVENT_BYTES)
            if fitted is not event:
                log.warning(
                    "%s: the %s event of seq %d was cut to fit a line of the log (%d bytes)",
                    npc.events_path,
                    event.type,
                    event.seq,
                    MAX_EVENT_BYTES,
                )
                event = fitted
            npc.pending.append(line + "\n")
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

    def read(self, npc_id: str, *, last: int | None = None) -> list[EventBase]:
        """The log of one NPC from disk, in `seq` order: whole, or its `last` events (read
        from the end, in memory bounded by `last` however long the log)."""
        with self._lock:
            npc = self._log(npc_id)
            self._write_pending(npc, fsync=False)
            if not npc.events_path.exists():
                return []
            if last is not None:
                return load_tail(npc.events_path, last, warned=npc.warned)[0]
            return load_events(npc.events_path, warned=npc.warned)

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
            try:
                npc = self._open(npc_id)
            except (LogNotWritten, UnsafePath):
                raise
            except OSError as exc:  # the disk refused the log (a file in its way, no access)
                where = exc.filename or str(npc_events_file(self.saves_dir, self.slot, npc_id))
                raise LogNotWritten(exc.errno, exc.strerror or str(exc), where) from exc
            self._logs[npc_id] = npc
        return npc

    def _open(self, npc_id: str) -> _NpcLog:
        npc = _NpcLog(self.saves_dir, self.slot, npc_id, SessionState())
        # UnsafePath (an OSError) before anything is read, mended or written through a link.
        check_inside(self.saves_dir, npc.events_path, npc.state_path)
        events_path = npc.events_path
        end = repair_tail(events_path) if events_path.exists() else LogEnd(None, False)
        state = _load_state(npc.state_path)
        npc.state = state or SessionState()
        expected_next = 1 if end.seq is None else end.seq + 1
        if end.unsure and state is not None and state.next_seq > expected_next:
            # The newest lines carry no seq to read; state.json, written after them, does.
            expected_next = state.next_seq
        if state is None or state.next_seq != expected_next:
            if state is not None:
                log.warning(
                    "%s disagrees with the log (next_seq %d, the log says %d): rebuilding it",
                    npc.state_path,
                    state.next_seq,
                    expected_next,
                )
            rebuilt = SessionState()
            if end.seq is not None:
                for event in load_events(events_path, warned=npc.warned):
                    rebuilt.apply(event)
                # Never reuse a seq, even one of a line skipped, or of gaps or disorder.
                rebuilt.next_seq = max(rebuilt.next_seq, expected_next)
            npc.state = rebuilt
            npc.state_dirty = end.seq is not None
        return npc

    def _tail(self, npc: _NpcLog) -> list[EventBase]:
        if npc.tail is None:
            unwritten = list(npc.pending)
            try:
                self._write_pending(npc, fsync=False)
                unwritten = []
            except OSError as exc:  # kept buffered: the turn's flush fails and says so
                log.warning("could not write %s: %s", npc.events_path, exc, extra=PUBLISHED)
            tail, summary = load_tail(npc.events_path, self.cache_events, warned=npc.warned)
            for line in unwritten:
                event = parse_event(line)
                tail.append(event)
                summary = event if isinstance(event, SummaryEvent) else summary
            npc.tail, npc.summary = tail, summary
        return npc.tail

    def _write_pending(self, npc: _NpcLog, *, fsync: bool, state: bool = False) -> None:
        if (npc.pending or (state and npc.state_dirty)) and not npc.dir_ready:
            npc.dir.mkdir(parents=True, exist_ok=True)
            npc.dir_ready = True
        if npc.pending:
            try:
                _append_bytes(npc.events_path, "".join(npc.pending).encode("utf-8"), fsync=fsync)
            except OSError as exc:  # os.write names no file: name the log that was refused
                raise LogNotWritten(exc.errno, exc.strerror, str(npc.events_path)) from exc
            npc.pending.clear()
        # state.json is only a cache of the log (checked against its tail on open), so it is
        # written at checkpoints, not per turn: a replacing write costs milliseconds on ext4.
        if state and npc.state_dirty:
            write_atomic(npc.state_path, npc.state.to_json().encode("utf-8"), fsync=fsync)
            npc.state_dirty = False


def _load_state(path: Path) -> SessionState | None:
    try:
        return SessionState.from_json(read_capped(path, MAX_STATE_BYTES))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
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
