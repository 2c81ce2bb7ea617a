"""Reading one NPC's `events.jsonl`, forwards or from its end, in bounded memory.

The log is the truth of an NPC's life, and it may hold what this game cannot read: a line
a newer game wrote, a line damaged on disk, a line of gigabytes. None of these is ever
deleted. Only a torn last line (one with no newline: a write cut short) is repaired at
open: completed if what it holds is a whole event, else cut off. Readers skip what they
cannot read, with a warning, and never hold more than one line of `MAX_EVENT_BYTES`
(plus the events asked for) in memory, however large the file.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pydantic import ValidationError

from game.agent.events import EventBase, SummaryEvent, parse_event
from game.limits import MAX_EVENT_BYTES

__all__ = [
    "MAX_EVENT_BYTES",
    "load_events",
    "load_tail",
    "repair_tail",
]

log = logging.getLogger("game.agent.store")

_CHUNK = 64 * 1024
_SUMMARY_MARK = b'"type":"summary"'


def _parse_line(path: Path, where: str, line: bytes) -> EventBase | None:
    try:
        return parse_event(line)
    except ValidationError as exc:
        log.warning("%s:%s: skipping an unreadable event: %s", path, where, _first_error(exc))
        return None


def _lines(f: BinaryIO, path: Path) -> Iterator[tuple[int, bytes]]:
    """Each non-empty line with its number, from the start; over-long lines skipped."""
    number = 0
    while line := f.readline(MAX_EVENT_BYTES + 1):
        number += 1
        if len(line) > MAX_EVENT_BYTES:
            while line and not line.endswith(b"\n"):
                line = f.readline(_CHUNK)
            log.warning("%s:%d: skipping a line over %d bytes", path, number, MAX_EVENT_BYTES)
            continue
        if line.strip():
            yield number, line.rstrip(b"\r\n")


def _lines_back(
    f: BinaryIO, path: Path, end: int, only: bytes | None = None
) -> Iterator[tuple[int, bytes]]:
    """Each non-empty line of f[:end] with its byte offset, newest first; over-long lines
    skipped without being read whole. `only`: just the lines holding these bytes (a chunk
    without them is passed over whole)."""
    pos = end
    head = b""  # the start of the newest line not yet whole (its beginning lies before pos)
    skipping = False  # inside an over-long line: drop bytes until its start
    while pos > 0:
        step = min(_CHUNK, pos)
        pos -= step
        f.seek(pos)
        block = f.read(step)
        joined = block if skipping else block + head
        parts = joined.split(b"\n")
        if skipping:
            if len(parts) == 1:
                continue
            parts.pop()  # the rest of the long line
            skipping = False
        head = parts[0]
        if only is None or only in joined:
            stop = pos + sum(len(part) + 1 for part in parts) - 1  # where the last part ends
            for part in reversed(parts[1:]):
                start = stop - len(part)
                stop = start - 1
                if len(part) > MAX_EVENT_BYTES:
                    log.warning(
                        "%s: skipping a line over %d bytes at byte %d", path, MAX_EVENT_BYTES, start
                    )
                elif part.strip() and (only is None or only in part):
                    yield start, part.rstrip(b"\r")
        if len(head) > MAX_EVENT_BYTES:
            log.warning(
                "%s: skipping a line over %d bytes before byte %d", path, MAX_EVENT_BYTES, pos
            )
            head, skipping = b"", True
    if head.strip() and not skipping and (only is None or only in head):
        yield 0, head.rstrip(b"\r")


def load_events(path: Path) -> list[EventBase]:
    """Parse a whole log; unreadable or out-of-order lines are skipped with a warning."""
    events: list[EventBase] = []
    last_seq = 0
    with open(path, "rb") as f:
        for number, line in _lines(f, path):
            event = _parse_line(path, str(number), line)
            if event is None:
                continue
            if event.seq <= last_seq:
                log.warning("%s:%d: skipping an event whose seq is not increasing", path, number)
                continue
            last_seq = event.seq
            events.append(event)
    return events


def load_tail(path: Path, count: int) -> tuple[list[EventBase], SummaryEvent | None]:
    """Parse only the newest `count` events of a log, and find its newest summary."""
    if not path.exists():
        return [], None
    tail: list[EventBase] = []
    summary: SummaryEvent | None = None
    with open(path, "rb") as f:
        unread = f.seek(0, os.SEEK_END)  # where the lines not read yet end
        for offset, line in _lines_back(f, path, unread):
            unread = offset
            event = _parse_line(path, f"byte {offset}", line)
            if event is not None and (not tail or event.seq < tail[-1].seq):
                tail.append(event)
                if summary is None and isinstance(event, SummaryEvent):
                    summary = event
                if len(tail) >= count:
                    break
        if summary is None:
            # Further back, only the lines that may be a summary are read.
            for at, line in _lines_back(f, path, unread, only=_SUMMARY_MARK):
                found = _parse_line(path, f"byte {at}", line)
                if isinstance(found, SummaryEvent):
                    summary = found
                    break
    tail.reverse()
    return tail, summary


def repair_tail(path: Path) -> int | None:
    """Mend a torn last line and return the newest seq in the log (None when it has none).

    A last line with no newline was cut short by a crash: it is completed when it holds a
    whole event, else cut off (with a warning). A complete line is never removed, even one
    this game cannot read (a newer game's event): the seq that follows is read from the
    newest line that carries one, so no seq is ever given twice.
    """
    with open(path, "r+b") as f:
        end = f.seek(0, os.SEEK_END)
        if end == 0:
            return None
        f.seek(end - 1)
        if f.read(1) != b"\n":
            start = _line_start(f, end)
            f.seek(start)
            line = f.read(end - start) if end - start <= MAX_EVENT_BYTES else b""
            try:
                parse_event(line)
            except ValidationError as exc:
                log.warning(
                    "%s: dropping a torn last line at byte %d (%s): %r",
                    path, start, _first_error(exc), line[:80],
                )  # fmt: skip
                f.truncate(start)
                end = start
            else:
                log.warning("%s: completing a last line that lost its newline", path)
                f.seek(end)
                f.write(b"\n")
                end += 1
        for _, line in _lines_back(f, path, end):
            seq = _seq_of(line)
            if seq is not None:
                return seq
    return None


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


def _seq_of(line: bytes) -> int | None:
    """The seq a line carries, read as plain JSON (the event itself may be unreadable)."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    seq = data.get("seq") if isinstance(data, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) and seq > 0 else None


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return str(exc)
    first = errors[0]
    return f"{first.get('type')}: {first.get('msg')}"
