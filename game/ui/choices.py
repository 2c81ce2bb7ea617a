"""The answer panel: an NPC's question to the player, its options as buttons and keys 1-4.

The `ask` skill puts a `PendingAsk` on the world; the panel shows it while it is pending
and hands the player's pick back with `World.answer_ask`, which resolves the skill.
"""

from __future__ import annotations

import textwrap
from functools import partial

import arcade
import arcade.gui

from game.ui.theme import ACCENT, ASK_PANEL, bottom_panel, button
from game.world.speech import PendingAsk
from game.world.world import World

KEYS = {
    arcade.key.KEY_1: 0,
    arcade.key.KEY_2: 1,
    arcade.key.KEY_3: 2,
    arcade.key.KEY_4: 3,
    arcade.key.NUM_1: 0,
    arcade.key.NUM_2: 1,
    arcade.key.NUM_3: 2,
    arcade.key.NUM_4: 3,
}
WIDTH = 760


class AskPanel:
    """Shows the world's pending question; a click or a number key answers it."""

    def __init__(self, world: World, ui: arcade.gui.UIManager, align_y: float = 120) -> None:
        self.world = world
        self.shown: PendingAsk | None = None
        self.title = arcade.gui.UILabel(text="", font_size=12, text_color=ACCENT, width=WIDTH)
        # Multiline without a width: the label fits its longest line; we break the lines.
        self.question = arcade.gui.UILabel(
            text=" ", font_size=13, text_color=arcade.color.WHITE, multiline=True
        )
        self.row = arcade.gui.UIBoxLayout(vertical=False, space_between=8)
        self.help = arcade.gui.UILabel(
            text="Click an answer or press its number",
            font_size=10,
            text_color=arcade.color.LIGHT_GRAY,
        )
        self.anchor = bottom_panel(
            ui,
            (self.title, self.question, self.row, self.help),
            space_between=8,
            align_y=align_y,
            color=ASK_PANEL,
        )
        self.buttons: list[arcade.gui.UIFlatButton] = []

    @property
    def visible(self) -> bool:
        """Whether a question is on screen."""
        return self.shown is not None

    def sync(self) -> bool:
        """Per frame: follow the world's pending question; True when one just appeared."""
        ask = self.world.ask
        if ask is self.shown:
            return False
        self.shown = ask
        self.anchor.visible = ask is not None
        if ask is None:
            return False
        self.title.text = f"{ask.npc_name} asks you"
        self.question.text = textwrap.fill(ask.question, 70)
        self.question.fit_content()
        self.row.clear()
        self.buttons = []
        for index, option in enumerate(ask.options):
            answer = button(
                f"{index + 1}. {option}",
                partial(self.pick, index),
                width=min(360, 40 + 9 * len(option)),
                height=34,
            )
            self.row.add(answer)
            self.buttons.append(answer)
        return True

    def pick(self, index: int) -> bool:
        """Answer with option `index` (0-based); False if there is nothing to answer."""
        if self.world.ask is None or self.world.ask is not self.shown:
            return False
        ok = self.world.answer_ask(index).ok
        if ok:
            self.sync()
        return ok

    def on_key_press(self, symbol: int) -> bool:
        """Keys 1-4 pick an answer while a question is shown."""
        if self.shown is None or symbol not in KEYS:
            return False
        return self.pick(KEYS[symbol])
