"""Text from outside (a model, a server, a file) made safe to show: no control characters.

A hostile server, a prompt-injected NPC or a save from a shared folder must not reach the
player's terminal or the screen with clear-screen, set-title or clipboard (OSC 52)
escapes, a carriage return or a NUL. `clean_text` keeps tab and newline and drops every
other C0 control (carriage return too), DEL and the C1 controls; ordinary Unicode, emoji
included, passes untouched. `clean_line` is for what must stay one line (a slot's name, a
path, a warning): whole escape sequences go, not only their ESC, every line or paragraph
break and tab becomes a space, and the marks that reorder text (bidi overrides) go too.
"""

from __future__ import annotations

import re

__all__ = ["clean_line", "clean_text"]

_KEPT = {ord("\t"), ord("\n")}
_DROP: dict[int, None] = {
    code: None for code in (*range(0x20), *range(0x7F, 0xA0)) if code not in _KEPT
}
# ECMA-48 sequences, by their 7-bit (ESC ...) or 8-bit (C1) introducer: a control
# sequence (CSI) up to its final byte; a string (OSC, DCS, SOS, PM, APC) up to its
# terminator or the end of the text; any other escape with its one final byte.
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]).*?(?:\x07|\x1b\\|\x9c|\Z)"
    r"|\x1b[ -/]*[0-~]?",
    re.DOTALL,
)
_BREAKS = re.compile(r"[\t\n\v\f\r\x1c-\x1e\x85\u2028\u2029]+")
_LINE_DROP: dict[int, None] = {
    **_DROP,
    **{ord("\t"): None, ord("\n"): None},
    # Bidi embeddings, overrides and isolates: they can make a line read backwards.
    **{code: None for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
}


def clean_text(text: str) -> str:
    """The text without control characters, but for tab and newline."""
    return text.translate(_DROP)


def clean_line(text: str) -> str:
    """The text as one safe line: no escape sequence, no control character, no line break
    (each run of breaks and tabs is one space)."""
    return _BREAKS.sub(" ", _ESCAPE.sub("", text)).translate(_LINE_DROP)
