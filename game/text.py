"""Text from outside (a model, a server, a file) made safe to show: no control characters.

A hostile server or a prompt-injected NPC must not reach the player's terminal or the
screen with clear-screen, set-title or clipboard (OSC 52) escapes, a carriage return or a
NUL. `clean_text` keeps tab and newline and drops every other C0 control (carriage return
too), DEL and the C1 controls; ordinary Unicode, emoji included, passes untouched.
"""

from __future__ import annotations

__all__ = ["clean_text"]

_KEPT = {ord("\t"), ord("\n")}
_DROP: dict[int, None] = {
    code: None for code in (*range(0x20), *range(0x7F, 0xA0)) if code not in _KEPT
}


def clean_text(text: str) -> str:
    """The text without control characters, but for tab and newline."""
    return text.translate(_DROP)
