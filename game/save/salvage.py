"""What a save cannot read is set aside, never lost: a bad record costs that record, and a
file that cannot be read at all is kept beside the others before a save replaces it.

- `Salvage` walks a file's JSON record by record: what validates is kept; what does not
  (a wrong type, a text past its bound, the records past a count bound) becomes a
  `Rejected`, with where it was and why;
- `keep_rejected(path, rejected)` adds those to `<file>.rejected` (one JSON object a line,
  the newest `MAX_REJECTED_BYTES` kept), replaced atomically;
- `keep_damaged(path)` renames a file that cannot be read at all to `<file>.damaged`;
- `copy_log(chunks, out, aside)` copies an NPC log (an import), setting aside each line
  nested deeper than any event: no reader could parse it, and the log must stay
  readable and appendable.

Only a save calls `keep_rejected` and `keep_damaged` (it holds the slot's lock), just
before it replaces the file; a load only reads and warns. Set-aside files are not slot
files: an export leaves them out and an import refuses them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from game.atomic import write_atomic
from game.files import read_capped
from game.limits import MAX_EVENT_BYTES, MAX_ID_CHARS, MAX_JSON_DEPTH, MAX_REJECTED_BYTES
from game.safe_json import JsonTooDeep, check_depth
from game.save.format import DAMAGED_SUFFIX, REJECTED_SUFFIX, describe_error

__all__ = [
    "LogCopy",
    "Rejected",
    "Salvage",
    "copy_log",
    "keep_damaged",
    "keep_rejected",
    "rejected_note",
]

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
_SAME: Any = object()  # `Salvage.valid`: the record set aside is the value checked
_WHERE_KEY = 64  # characters of a key named in `where`


@dataclass(frozen=True)
class Rejected:
    """One record set aside: where it was in its file, why, and the record as found."""

    where: str
    reason: str
    record: Any

    def line(self) -> bytes:
        """Its line in a `.rejected` file."""
        data = {"where": self.where, "reason": self.reason, "record": self.record}
        text = json.dumps(data, ensure_ascii=False, default=repr)
        # U+0085, U+2028, U+2029 end a line for str.splitlines(): escaped, one record a line
        text = (
            text.replace("\x85", "\\u0085")
            .replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029")
        )
        return text.encode("utf-8") + b"\n"


@dataclass
class Salvage:
    """Reads records one at a time: `kept` counts those that read, `rejected` the rest."""

    kept: int = 0
    rejected: list[Rejected] = field(default_factory=list)

    def reject(self, where: str, reason: str, record: Any) -> None:
        """Set one record aside."""
        self.rejected.append(Rejected(where, reason, record))

    def entries(
        self, value: Any, where: str, limit: int, key_chars: int = MAX_ID_CHARS
    ) -> Iterator[tuple[str, Any, str]]:
        """(key, value, where) of a JSON object's entries within its count and key bounds
        (None: none); the rest are set aside."""
        if value is None:
            return
        if not isinstance(value, dict):
            self.reject(where, f"expected an object, got {_kind(value)}", value)
            return
        for n, (key, item) in enumerate(value.items()):
            at = f"{where}[{json.dumps(key[:_WHERE_KEY])}]"
            if n >= limit:
                self.reject(at, f"past the first {limit:,} entries", item)
            elif len(key) > key_chars:
                self.reject(at, f"a key longer than {key_chars} characters", item)
            else:
                yield key, item, at

    def items(self, value: Any, where: str, limit: int) -> Iterator[tuple[Any, str]]:
        """(value, where) of the newest `limit` items of a JSON array (oldest first; None:
        none); the older ones are set aside."""
        if value is None:
            return
        if not isinstance(value, list):
            self.reject(where, f"expected an array, got {_kind(value)}", value)
            return
        first = len(value) - limit
        for i, item in enumerate(value):
            if i < first:
                self.reject(f"{where}[{i}]", f"older than the newest {limit:,}", item)
            else:
                yield item, f"{where}[{i}]"

    def valid(self, model: type[M], value: Any, where: str, *, record: Any = _SAME) -> M | None:
        """`value` as a `model`, or None with `record` (`value` unless given) set aside."""
        try:
            checked = model.model_validate(value)
        except ValidationError as exc:
            self.reject(where, describe_error(exc), value if record is _SAME else record)
            return None
        self.kept += 1
        return checked

    def value(self, adapter: TypeAdapter[T], value: Any, where: str) -> T | None:
        """`value` checked by a type adapter, or None with it set aside."""
        try:
            checked = adapter.validate_python(value)
        except ValidationError as exc:
            self.reject(where, describe_error(exc), value)
            return None
        self.kept += 1
        return checked


_KINDS: dict[type, str] = {dict: "an object", list: "an array", str: "a string"}


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), "a value")


def rejected_note(name: str, rejected: list[Rejected], kept: int | None = None) -> str:
    """'2 of 5 records of news.json (news["x"]: kind: ...)': how many, and the first."""
    of = f" of {kept + len(rejected):,}" if kept is not None else ""
    noun = "record" if len(rejected) == 1 and not of else "records"
    first = rejected[0]
    return f"{len(rejected):,}{of} {noun} of {name} ({first.where}: {first.reason})"


def keep_rejected(path: Path, rejected: list[Rejected], *, fsync: bool = True) -> Path:
    """Add records to `<path>.rejected`: a record already there is not repeated (it moves
    to the end), and past `MAX_REJECTED_BYTES` the oldest go. Replaced atomically;
    raises OSError."""
    target = path.with_name(path.name + REJECTED_SUFFIX)
    try:
        old = read_capped(target, MAX_REJECTED_BYTES).splitlines(keepends=True)
    except (OSError, ValueError):  # none yet (or not one this game wrote: replaced)
        old = []
    new = list(dict.fromkeys(record.line() for record in rejected))
    again = set(new)
    lines = [line for line in old if line not in again] + new  # a line set aside again is new
    size = sum(len(line) for line in lines)
    start = 0
    while size > MAX_REJECTED_BYTES and start < len(lines):
        size -= len(lines[start])
        start += 1
    if lines[start:] != old:
        write_atomic(target, b"".join(lines[start:]), fsync=fsync)
    return target


def keep_damaged(path: Path) -> Path:
    """Rename a file that cannot be read to `<path>.damaged` (replacing an older one), so
    the save that follows does not destroy it. Raises OSError."""
    target = path.with_name(path.name + DAMAGED_SUFFIX)
    os.replace(path, target)
    return target


# --- NPC logs --------------------------------------------------------------------------
# A line can nest no deeper than its count of brackets: the brackets and newlines of a
# block, kept alone (a C-speed translate), show at once the few lines worth measuring,
# so a log of a gigabyte is checked in about as long as it takes to unpack.
_DELETE = bytes(b for b in range(256) if b not in b"[]{}\n")


@dataclass
class LogCopy:
    """What `copy_log` set aside: lines kept in the aside file, and lines past its bound."""

    aside: int = 0
    dropped: int = 0
    aside_bytes: int = 0


def copy_log(chunks: Iterable[bytes], out: IO[bytes], aside: Path) -> LogCopy:
    """Copy an NPC log, leaving out each line nested deeper than `MAX_JSON_DEPTH`; those go
    to `aside` (created only if one is found; at most `MAX_REJECTED_BYTES`, the rest are
    dropped and counted). A line over `MAX_EVENT_BYTES` is copied as it is: readers skip
    it unread. Raises OSError."""
    done = LogCopy()
    carry = b""  # the start of a line not ended yet (at most MAX_EVENT_BYTES)
    long = False  # inside a line past MAX_EVENT_BYTES: copied until its end
    for chunk in chunks:
        if long:
            end = chunk.find(b"\n") + 1
            if not end:
                out.write(chunk)
                continue
            out.write(chunk[:end])
            chunk, long = chunk[end:], False
        data = carry + chunk if carry else chunk
        end = data.rfind(b"\n") + 1
        out.write(_shallow(data[:end], aside, done))
        carry = data[end:]
        if len(carry) > MAX_EVENT_BYTES:
            out.write(carry)
            carry, long = b"", True
    if carry:  # a last line with no newline (a torn tail: the store repairs it)
        out.write(_shallow(carry, aside, done))
    return done


def _shallow(block: bytes, aside: Path, done: LogCopy) -> bytes:
    """`block` (whole lines) without its lines nested too deep, which are set aside."""
    skeleton = block.translate(None, _DELETE).split(b"\n")
    candidates = [i for i, marks in enumerate(skeleton) if len(marks) > MAX_JSON_DEPTH]
    if not candidates:
        return block
    lines = block.split(b"\n")
    deep: list[int] = []
    for index in candidates:
        try:
            check_depth(lines[index])
        except JsonTooDeep:
            deep.append(index)
    if not deep:
        return block
    for index in deep:
        line = lines[index] + b"\n"
        if done.aside_bytes + len(line) > MAX_REJECTED_BYTES:
            done.dropped += 1
            continue
        with open(aside, "ab") as f:
            f.write(line)
        done.aside += 1
        done.aside_bytes += len(line)
    gone = set(deep)
    return b"\n".join(line for i, line in enumerate(lines) if i not in gone)
