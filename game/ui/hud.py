"""What the play screen draws over the map: where the player is and the time of day, a
notice (a save, a crash), the bar while a local model is prepared, and F1's help."""

from __future__ import annotations

from collections.abc import Callable

import arcade

from game.ui.night import Daylight
from game.ui.theme import ACCENT, INK, MONOSPACE, MUTED, PANEL
from game.world.world import World

HELP_TEXT = """Keys
Arrows / WASD   walk
E               talk to the NPC next to you, or read a notice board
Enter           send your line (an empty line shows the reply at once)
Esc             stop an NPC's reply, close the talk box or board, or pause
PgUp / PgDn     scroll the conversation or the board
1-4             answer an NPC's question
Space           show every bubble's text at once
F1              this help
F3              agent inspector (Tab: next NPC, C: its exact context)
F5              quick save
F9              load a save"""


class Hud:
    """The play screen's texts over the map, drawn in window coordinates."""

    def __init__(
        self,
        world: World,
        daylight: Daylight,
        notice: Callable[[], str | None] | None = None,
        progress: Callable[[], tuple[float, str] | None] | None = None,
    ) -> None:
        self.world = world
        self.daylight = daylight  # its clock sits above the place name
        self.notice = notice or (lambda: None)
        self.progress = progress or (lambda: None)  # a local model being prepared
        self.help_text = arcade.Text(
            HELP_TEXT,
            0,
            0,
            INK,
            12,
            width=560,
            multiline=True,
            anchor_y="top",
            font_name=MONOSPACE,
        )
        self.notice_text = arcade.Text("", 12, 0, ACCENT, 11, anchor_y="top")
        self.progress_text = arcade.Text("", 0, 0, INK, 11, anchor_x="center")
        self.f1_text = arcade.Text("F1: help", 0, 12, INK, 11, anchor_x="right")
        self.place_text = arcade.Text("", 12, 12, INK, 12)

    def draw(self, width: int, height: int) -> None:
        """The place and the clock, F1's reminder, the progress bar and the notice."""
        place = self.world.map.place_at(self.world.player.tile)
        self.place_text.text = f"{self.world.map.name}" + (f" · {place.name}" if place else "")
        self.place_text.draw()
        self.daylight.draw_clock()  # above the place name
        self.f1_text.draw()
        progress = self.progress()
        if progress is not None:
            self._draw_progress(width, height, *progress)
        notice = self.notice()
        if notice:
            text = self.notice_text
            text.text = notice
            text.y = height - 10
            top, text_w = text.y + 4, text.content_width
            # On a panel: a notice must read over roofs and grass alike.
            arcade.draw_lrbt_rectangle_filled(
                text.x - 6, text.x + text_w + 6, top - text.content_height - 6, top, PANEL
            )
            text.draw()

    def _draw_progress(self, width: int, height: int, fraction: float, what: str) -> None:
        """A bar at the top while the local model is prepared: the game plays on."""
        left, right, y = width / 2 - 200, width / 2 + 200, height - 40
        arcade.draw_lrbt_rectangle_filled(left - 8, right + 8, y - 8, y + 34, PANEL)
        arcade.draw_lrbt_rectangle_outline(left, right, y, y + 10, MUTED, 1)
        arcade.draw_lrbt_rectangle_filled(
            left, left + (right - left) * fraction, y, y + 10, (120, 200, 120)
        )
        self.progress_text.text = f"{what}  {int(fraction * 100)}%"
        self.progress_text.position = (width / 2, y + 14)
        self.progress_text.draw()

    def draw_help(self, width: int, height: int) -> None:
        """F1: the keys, on a panel in the middle of the window."""
        box_w, box_h = 600, self.help_text.content_height + 40
        left, bottom = (width - box_w) / 2, (height - box_h) / 2
        arcade.draw_lrbt_rectangle_filled(left, left + box_w, bottom, bottom + box_h, PANEL)
        self.help_text.position = (left + 20, bottom + box_h - 20)
        self.help_text.draw()
