"""A one-line text field that takes what the keyboard types, never the keys' own characters.

pyglet delivers a key twice: the key press, then its text. Return comes as the text "\r"
after the press that sends the line (and Tab as "\t"), so a plain `UIInputText` started
the next line with a box glyph. `LineInput` keeps printable text only.
"""

from __future__ import annotations

import arcade.gui
from arcade.gui import UIEvent, UITextInputEvent
from pyglet.event import EVENT_HANDLED

__all__ = ["LineInput"]


class LineInput(arcade.gui.UIInputText):
    """`UIInputText` for one line of typed text: control characters never enter it."""

    def on_event(self, event: UIEvent) -> bool | None:
        if isinstance(event, UITextInputEvent):
            text = "".join(ch for ch in event.text if ch.isprintable())
            if not text:
                return EVENT_HANDLED if self.active else None
            if text != event.text:
                event = UITextInputEvent(event.source, text)
        return super().on_event(event)
