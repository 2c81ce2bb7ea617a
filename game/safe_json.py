"""JSON from anywhere the game did not just write, bounded in depth before it is parsed.

Python's parser, pydantic's and the encoder all recurse: 100,000 nested arrays in a slot
file, a log line, a provider's stream or a config make a RecursionError that no
`except ValueError` catches, and a value parsed at a depth just under the interpreter's
limit breaks whoever walks it next (a save, a dump). So `load_json` measures the nesting
first, without recursing, and refuses anything deeper than `MAX_JSON_DEPTH` as
`JsonTooDeep`, a ValueError: every caller that already words a damaged file or a bad
response as one line words this one too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from game.errors import GameError
from game.limits import MAX_JSON_DEPTH

__all__ = ["JsonTooDeep", "check_depth", "load_json"]

# A JSON string, with its escapes (the unrolled loop: linear, no backtracking).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


class JsonTooDeep(GameError, ValueError):
    """JSON nested deeper than the game reads."""


def check_depth(data: str | bytes, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise JsonTooDeep if `data` nests arrays and objects deeper than `limit`.

    Brackets inside strings do not count. Cheap when the text holds few brackets at all.
    """
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return
    depth = 0
    for mark in _BRACKETS.finditer(_STRING.sub(b'""', raw)):
        if mark.group() in (b"[", b"{"):
            depth += 1
            if depth > limit:
                raise JsonTooDeep(f"JSON nested more than {limit} levels deep")
        else:
            depth -= 1


def load_json(data: str | bytes | bytearray, limit: int = MAX_JSON_DEPTH) -> Any:
    """`json.loads`, refusing JSON deeper than `limit` (JsonTooDeep, a ValueError).

    Every other failure is json's own ValueError (JSONDecodeError, UnicodeDecodeError), so
    `except ValueError` covers all of them.
    """
    if isinstance(data, bytearray):
        data = bytes(data)
    check_depth(data, limit)
    try:
        return json.loads(data)
    except RecursionError:  # only past the interpreter's own depth, which `limit` is under
        raise JsonTooDeep(f"JSON nested more than {limit} levels deep") from None
