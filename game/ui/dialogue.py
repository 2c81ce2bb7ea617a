"""The talk panel: the conversation with one NPC, its reply streaming in, and the input.

The history until the panel opened comes from the NPC's session log (read on the agent
thread, handed over as a future); the lines since come from the world's speech log as
they are said, and the NPC's reply grows from its bubble while it streams. The player
may type the next line while the NPC still answers (turns queue in the NPC's lane).
"""

from __future__ import annotations

import concurrent.futures

import arcade
import arcade.gui

from game.agent.history import Line
from game.ui.line_input import LineInput
from game.ui.theme import HEADING, bottom_panel
from game.world.entities import PLAYER_ID, Npc
from game.world.world import World

WIDTH = 800
HELP = "Enter: send    Esc: stop the reply, then close    PgUp/PgDn: scroll"


class TalkPanel:
    """A bottom panel: title, scrollable history, input line, key help."""

    def __init__(self, ui: arcade.gui.UIManager, world: World, text_scale: float = 1.0) -> None:
        size = 12 * text_scale
        self.world = world
        self.npc: Npc | None = None
        self.earlier: list[Line] = []  # from the log, until the panel opened
        self.opened_at = 0.0  # game clock
        self.loading: concurrent.futures.Future[list[Line]] | None = None
        self._shown = ""
        self.title = arcade.gui.UILabel(text="", font_size=size, text_color=HEADING, width=WIDTH)
        self.history = arcade.gui.UITextArea(
            width=WIDTH,
            height=int(150 * text_scale),
            font_size=size - 1,
            text_color=arcade.color.WHITE,
            scroll_speed=18,
        )
        self.input = LineInput(
            width=WIDTH,
            height=int(34 * text_scale),
            font_size=size + 1,
            text_color=arcade.color.WHITE,
            caret_color=arcade.color.WHITE,
        )
        self.help = arcade.gui.UILabel(
            text=HELP, font_size=max(8, size - 2), text_color=arcade.color.LIGHT_GRAY
        )
        self.anchor = bottom_panel(
            ui, (self.title, self.history, self.input, self.help), space_between=6, align_y=16
        )

    @property
    def open(self) -> bool:
        """Whether the panel is showing."""
        return self.npc is not None

    def show(self, npc: Npc, history: concurrent.futures.Future[list[Line]] | None) -> None:
        """Open for an NPC; the history fills in when the future is done."""
        self.npc = npc
        self.earlier = []
        self.opened_at = self.world.clock
        self.loading = history
        self.title.text = f"Talking to {npc.name}"
        self.input.text = ""
        self.anchor.visible = True
        self._shown = ""
        self.refresh()

    def hide(self) -> None:
        """Close the panel (the NPC may go on talking)."""
        self.npc = None
        self.loading = None
        self.input.deactivate()
        self.anchor.visible = False

    def take_input(self) -> str:
        """The typed line (cleaned), and clear the field; "" when nothing was typed."""
        text = " ".join(self.input.text.replace("\r", " ").replace("\n", " ").split())
        self.input.text = ""
        return text

    def lines(self) -> list[Line]:
        """Earlier lines, then what the player and the NPC said since the panel opened."""
        assert self.npc is not None
        now = [
            Line("player" if s.speaker_id == PLAYER_ID else "npc", s.text, s.interrupted)
            for s in self.world.speech_log
            if s.time >= self.opened_at and s.speaker_id in (PLAYER_ID, self.npc.entity_id)
        ]
        return self.earlier + now

    def refresh(self) -> None:
        """Per frame: take the loaded history and the new lines; redraw if changed."""
        if self.npc is None:
            return
        if self.loading is not None and self.loading.done():
            self.earlier = self.loading.result() if self.loading.exception() is None else []
            self.loading = None
        bubble = self.npc.bubble
        live = bubble.text if bubble is not None and bubble.streaming else ""
        text = self.render(live)
        if text != self._shown:
            self._shown = text
            self.history.text = text
            self.scroll_to_end()

    def render(self, live: str = "") -> str:
        """The history as the panel shows it."""
        name = self.npc.name if self.npc else "NPC"
        out = ["(loading the conversation…)"] if self.loading is not None else []
        for line in self.lines():
            who = "You" if line.speaker == "player" else name
            out.append(f"{who}: {line.text}{' —' if line.interrupted else ''}")
        if live:
            out.append(f"{name}: {live}")
        elif self.npc is not None and self.npc.bubble is not None and self.npc.bubble.waiting:
            out.append(f"{name}: …")
        if not out:
            out.append(f"You have not spoken with {name} yet.")
        return "\n".join(out)

    def scroll_to_end(self) -> None:
        """Show the newest lines."""
        layout = self.history.layout
        layout.view_y = -max(0, layout.content_height - layout.height)
        self.history.trigger_full_render()

    def scroll(self, pages: int) -> None:
        """Page up (negative) or down (positive) through the history."""
        layout = self.history.layout
        lowest = -max(0, layout.content_height - layout.height)
        step = max(20, layout.height - 20)
        layout.view_y = int(min(0, max(lowest, layout.view_y - pages * step)))
        self.history.trigger_full_render()
