"""Reading one NPC's `events.jsonl`, forwards or from its end, in bounded memory.

The log is the truth of an NPC's life, and it may hold what this game cannot read: a line
a newer game wrote, a line damaged on disk, a line of gigabytes, a line nested past any
parser. None of these is ever deleted. Only a torn last line (one with no newline: a write
cut short) is repaired at open: completed if what it holds is a whole event, else cut off.
Readers skip what they cannot read, with one warning per line however often it is read
(the caller keeps the `warned` offsets), and never hold more than one line of
`MAX_EVENT_BYTES` (plus the events asked for) in memory, however large the file.

A skipped line still counts for the seqs: `repair_tail` reads the seq at the start of any
line, the over-long and the unreadable too, so a seq the log holds is never given again.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

from pydantic import ValidationError

from game.agent.events import EventBase, SummaryEvent, parse_event
from game.limits import MAX_EVENT_BYTES
from game.safe_json import load_json

__all__ = [
    "MAX_EVENT_BYTES",
    "LogEnd",
    "load_events",
    "load_tail",
    "repair_tail",
]

log = logging.getLogger("game.agent.store")

_CHUNK = 64 * 1024
_SUMMARY_MARK = b'"type":"summary"'
# How the game starts every line it writes: the seq is read from it without parsing the
# rest, which may be too long or too deep to parse.
_HEAD_BYTES = 256
_SEQ_AT_START = re.compile(
    rb'\{\s*"type"\s*:\s*"[^"\\]{1,64}"\s*,\s*"seq"\s*:\s*([0-9]{1,18})\s*[,}]'
)


class LogEnd(NamedTuple):
    """What the end of a log says about its seqs."""

    seq: int | None  # the newest seq a line carries (None: no line carries one)
    unsure: bool  # a line newer than it carries no seq that can be read


def _warn_once(path: Path, at: int, warned: set[int] | None, what: str, *args: object) -> None:
    """Warn about the line at byte `at`, unless `warned` says it was already."""
    if warned is not None:
        if at in warned:
            return
        warned.add(at)
    log.warning("%s: skipping " + what + " at byte %d", path, *args, at)


def _parse_line(path: Path, at: int, line: bytes, warned: set[int] | None) -> EventBase | None:
    try:
        return parse_event(line)
    except ValueError as exc:
        _warn_once(path, at, warned, "an unreadable event (%s)", _reason(exc))
        return None


def _lines(f: BinaryIO) -> Iterator[tuple[int, bytes | None]]:
    """Each non-empty line with its byte offset, from the start; an over-long line as None
    (its bytes passed over, never held whole)."""
    pos = 0
    while line := f.readline(MAX_EVENT_BYTES + 2):
        start = pos
        pos += len(line)
        body = line[:-1] if line.endswith(b"\n") else line
        if len(body) > MAX_EVENT_BYTES:
            while line and not line.endswith(b"\n"):
                line = f.readline(_CHUNK)
                pos += len(line)
            yield start, None
        elif body.strip():
            yield start, body.rstrip(b"\r")


def _lines_back(
    f: BinaryIO, end: int, only: bytes | None = None
) -> Iterator[tuple[int, bytes | None]]:
    """Each non-empty line of f[:end] with its byte offset, newest first; an over-long line
    as None, without being read whole. `only`: just the lines holding these bytes (a chunk
    without them is passed over whole, and over-long lines are not reported)."""
    pos = end
    head = b""  # the start of the newest line not yet whole (its beginning lies before pos)
    skipping = False  # inside an over-long line: drop bytes until its start
    while pos > 0:
        step = min(_CHUNK, pos)
        pos -= step
        f.seek(pos)
        block = f.read(step)
        if skipping:
            cut = block.rfind(b"\n")
            if cut < 0:
                continue
            skipping = False
            if only is None:
                yield pos + cut + 1, None
            joined = block[:cut]  # what ends at the newline before the long line
        else:
            joined = block + head
        parts = joined.split(b"\n")
        head = parts[0]
        if only is None or only in joined:
            stop = pos + len(joined)  # where the last part ends
            for part in reversed(parts[1:]):
                start = stop - len(part)
                stop = start - 1
                if len(part) > MAX_EVENT_BYTES:
                    if only is None:
                        yield start, None
                elif part.strip() and (only is None or only in part):
                    yield start, part.rstrip(b"\r")
        if len(head) > MAX_EVENT_BYTES:
            head, skipping = b"", True
    if skipping:
        if only is None:
            yield 0, None
    elif head.strip() and (only is None or only in head):
        yield 0, head.rstrip(b"\r")


def load_events(path: Path, *, warned: set[int] | None = None) -> list[EventBase]:
    """Parse a whole log; unreadable or out-of-order lines are skipped with a warning."""
    events: list[EventBase] = []
    last_seq = 0
    with open(path, "rb") as f:
        for at, line in _lines(f):
            if line is None:
                _warn_once(path, at, warned, "a line over %d bytes", MAX_EVENT_BYTES)
                continue
            event = _parse_line(path, at, line, warned)
            if event is None:
                continue
            if event.seq <= last_seq:
                _warn_once(path, at, warned, "an event whose seq is not increasing")
                continue
            last_seq = event.seq
            events.append(event)
    return events


def load_tail(
    path: Path, count: int, *, warned: set[int] | None = None
) -> tuple[list[EventBase], SummaryEvent | None]:
    """Parse only the newest `count` events of a log, and find its newest summary."""
    if not path.exists():
        return [], None
    tail: list[EventBase] = []
    summary: SummaryEvent | None = None
    with open(path, "rb") as f:
        unread = f.seek(0, os.SEEK_END)  # where the lines not read yet end
        for at, line in _lines_back(f, unread):
            unread = at
            if line is None:
                _warn_once(path, at, warned, "a line over %d bytes", MAX_EVENT_BYTES)
                continue
            event = _parse_line(path, at, line, warned)
            if event is not None and (not tail or event.seq < tail[-1].seq):
                tail.append(event)
                if summary is None and isinstance(event, SummaryEvent):
                    summary = event
                if len(tail) >= count:
                    break
        if summary is None:
            # Further back, only the lines that may be a summary are read.
            for at, line in _lines_back(f, unread, only=_SUMMARY_MARK):
                assert line is not None  # over-long lines are not reported with `only`
                found = _parse_line(path, at, line, warned)
                if isinstance(found, SummaryEvent):
                    summary = found
                    break
    tail.reverse()
    return tail, summary


def repair_tail(path: Path) -> LogEnd:
    """Mend a torn last line and say the newest seq in the log.

    A last line with no newline was cut short by a crash: it is completed when it holds a
    whole event, else cut off (with a warning). A complete line is never removed, even one
    this game cannot read (a newer game's event, an over-long or too deep one): the seq
    that follows is read from the start of the newest line that carries one, so no seq is
    ever given twice. Newer lines without a seq make the end `unsure`.
    """
    with open(path, "r+b") as f:
        end = f.seek(0, os.SEEK_END)
        if end == 0:
            return LogEnd(None, False)
        f.seek(end - 1)
        if f.read(1) != b"\n":
            start = _line_start(f, end)
            f.seek(start)
            line = f.read(end - start) if end - start <= MAX_EVENT_BYTES else b""
            try:
                parse_event(line)
            except ValueError as exc:
                log.warning(
                    "%s: dropping a torn last line at byte %d (%s): %r",
                    path,
                    start,
                    _reason(exc),
                    line[:80],
                )
                f.truncate(start)
                end = start
            else:
                log.warning("%s: completing a last line that lost its newline", path)
                f.seek(end)
                f.write(b"\n")
                end += 1
        unsure = False
        for at, found in _lines_back(f, end):
            seq = _seq_of(f, at, found)
            if seq is not None:
                return LogEnd(seq, unsure)
            unsure = True
    return LogEnd(None, unsure)


def _line_start(f: BinaryIO, end: int) -> int:
    """The offset where the line that ends at `end` begins."""
    pos = end
    while pos > 0:
        step = min(_CHUNK, pos)
        pos -= step
        f.seek(pos)
        cut = f.read(step).rfind(b"\n")
        if cut >= 0:
            return pos + cut + 1
    return 0


def _seq_of(f: BinaryIO, at: int, line: bytes | None) -> int | None:
    """The seq the line at byte `at` carries (None: `line` is over-long), read from its
    start as the game writes it, else as plain JSON (the event itself may be unreadable)."""
    if line is None:
        f.seek(at)
        head = f.read(_HEAD_BYTES)
    else:
        head = line[:_HEAD_BYTES]
    found = _SEQ_AT_START.match(head)
    if found is not None:
        seq = int(found.group(1))
        return seq if seq > 0 else None
    if line is None:
        return None
    try:
        data = load_json(line)
    except ValueError:
        return None
    carried = data.get("seq") if isinstance(data, dict) else None
    if isinstance(carried, int) and not isinstance(carried, bool) and carried > 0:
        return carried
    return None


def _reason(exc: ValueError) -> str:
    """A parse failure in a few words: the first of a pydantic error's, else its text."""
    if isinstance(exc, ValidationError):
        errors = exc.errors()
        if errors:
            first = errors[0]
            return f"{first.get('type')}: {first.get('msg')}"
    return str(exc)
