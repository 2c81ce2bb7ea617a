"""The load list and the pause menu show what a slot from a shared folder says (its name,
its problem) as one clean line: no escape, no line break that could break the layout."""

from __future__ import annotations

from pathlib import Path

from game.save.catalog import SlotInfo
from game.save.keeper import LoadResult

HOSTILE = "Evil\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\r\nName\u2028two\tthree\u202e"
CONTROL = set(map(chr, [*range(0x20), *range(0x7F, 0xA0)])) | {"\u2028", "\u202e"}


class Source:
    """A slot source whose slots say hostile things."""

    name = HOSTILE
    slot = "mine"

    def list_slots(self) -> list[SlotInfo]:
        return [
            SlotInfo("mine", Path("mine"), name=HOSTILE),
            SlotInfo("bad", Path("bad"), name="bad", error=f"damaged: {HOSTILE}"),
        ]

    def load(self, slot: str) -> LoadResult:
        return LoadResult(False, slot, f"could not load: {HOSTILE}")


def label_texts(view: object) -> list[str]:
    import arcade.gui

    return [
        w.text
        for w in view.ui.walk_widgets()  # type: ignore[attr-defined]
        if isinstance(w, arcade.gui.UILabel)
    ]


def test_a_hostile_slot_name_is_one_clean_line_in_the_load_list(window) -> None:
    import arcade

    from game.ui.menus import LoadListView, PauseView

    game = arcade.View()
    menu = LoadListView(game, Source())
    window.show_view(menu)
    menu.load("bad")  # the one-line result under the list
    menu.on_draw()
    pause = PauseView(game, Source())  # type: ignore[arg-type]
    window.show_view(pause)
    pause.on_draw()
    texts = label_texts(menu) + label_texts(pause)
    assert any(t.startswith("Evil Name two three") for t in texts), texts
    assert any("damaged: Evil Name" in t for t in texts), texts
    assert any(t.startswith("could not load: Evil Name") for t in texts), texts
    assert "Slot: Evil Name two three (mine)" in texts
    for text in texts:
        assert not CONTROL & set(text), repr(text)
    window.show_view(arcade.View())
