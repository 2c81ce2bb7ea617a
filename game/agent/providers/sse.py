"""An incremental Server-Sent Events decoder over raw bytes.

Follows the WHATWG event-stream rules: lines end in CRLF, LF or CR; a blank line dispatches
the event; `data:` lines are joined with "\\n"; `event`, `id` and `retry` fields; comment lines
(`: keep-alive`) and unknown fields are ignored; a leading UTF-8 BOM is dropped; an event
without any `data` line is not dispatched; a partial event at end of stream is discarded.

Speed comes from working in bulk: chunks are appended to one byte buffer, the buffer is cut
at the last blank line, and everything before it is decoded from UTF-8 once (a cut at a
line break can never fall inside a character) and split into events with `str` methods.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import NamedTuple

_BOM = b"\xef\xbb\xbf"
# One block of the common shape; group 1 is the whole optional `event: X\n` line.
_SIMPLE = re.compile(r"(event: [^\n]*\n)?data: ([^\n]*)\n\n")
_new = tuple.__new__


class SSEEvent(NamedTuple):
    """One dispatched event: `event` is "" when the stream gave no `event:` field."""

    event: str
    data: str
    id: str = ""
    retry: int | None = None


class SSEDecoder:
    """Feed it byte chunks as they arrive; it returns the events each chunk completes."""

    __slots__ = ("_buf", "_last_id", "_retry", "_skip_lf", "_started")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._started = False  # whether the BOM check has been done
        self._skip_lf = False  # the previous chunk ended in CR: a leading LF belongs to it
        self._last_id = ""
        self._retry: int | None = None

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        """Add bytes; return the events whose terminating blank line is now complete."""
        if self._skip_lf:
            if not chunk:
                return []
            self._skip_lf = False
            if chunk[0] == 10:  # b"\n"
                chunk = chunk[1:]
        if b"\r" in chunk:
            if chunk[-1] == 13:  # b"\r": a CRLF may be split; swallow the LF next time
                self._skip_lf = True
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        buf = self._buf
        old_len = len(buf)
        buf += chunk  # a bytearray: appending is amortised O(1), even for huge events
        if not self._started:
            if len(buf) < 3 and _BOM.startswith(buf):
                return []
            self._started = True
            if buf.startswith(_BOM):
                del buf[:3]
                old_len = 0
        # Only the new bytes (plus one before them) can hold a new blank line.
        cut = buf.rfind(b"\n\n", max(old_len - 1, 0))
        if cut < 0:
            return []
        text = buf[: cut + 2].decode("utf-8", "replace")
        del buf[: cut + 2]
        return self._parse(text)

    def flush(self) -> list[SSEEvent]:
        """End of stream: a trailing event without its blank line is discarded."""
        self._buf.clear()
        self._skip_lf = False
        return []

    def _parse(self, text: str) -> list[SSEEvent]:
        """Events of `text`, which ends with the blank line of its last event."""
        # Fast path: when every block is `[event: X\n]data: Y` (what the model APIs send),
        # one C-level regex scan finds them all. The matches tile the text exactly iff
        # their lengths add up to its length; otherwise fall back to the general parser.
        found = _SIMPLE.findall(text)
        if sum(map(len, chain.from_iterable(found))) + 8 * len(found) == len(text):
            last_id, retry = self._last_id, self._retry
            return [_new(SSEEvent, (head[7:-1], data, last_id, retry)) for head, data in found]
        return self._parse_general(text[:-2])

    def _parse_general(self, text: str) -> list[SSEEvent]:
        events: list[SSEEvent] = []
        append = events.append
        for block in text.split("\n\n"):
            event = ""
            data: list[str] | None = None
            for line in block.split("\n"):
                if not line or line[0] == ":":
                    continue
                colon = line.find(":")
                if colon < 0:
                    field, value = line, ""
                else:
                    field = line[:colon]
                    value = line[colon + 1 :]
                    if value and value[0] == " ":
                        value = value[1:]
                if field == "data":
                    if data is None:
                        data = [value]
                    else:
                        data.append(value)
                elif field == "event":
                    event = value
                elif field == "id":
                    if "\0" not in value:
                        self._last_id = value
                elif field == "retry":
                    if value.isascii() and value.isdigit():
                        self._retry = int(value)
            if data is not None:
                append(SSEEvent(event, "\n".join(data), self._last_id, self._retry))
        return events
