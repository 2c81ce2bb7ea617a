"""The title screen (New game, Continue, Load, Settings, Quit) and the name prompt."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

import arcade
import arcade.gui

from game.ui.line_input import LineInput
from game.ui.settings_view import SettingsView
from game.ui.sprites import drawn_layers
from game.ui.theme import ERROR, HEADING, MUTED, PANEL, STATUS_SIZE, button

MAX_NAME = 24


class Launcher(Protocol):
    """What the title screen needs from the game: start or resume a village."""

    def new_game(self, player_name: str) -> None:
        """Create a new slot for this player and show the play screen."""

    def continue_game(self) -> None:
        """Resume the most recently played slot."""

    def load_game(self, title: arcade.View) -> None:
        """Show the list of slots to load from."""

    def latest_slot(self) -> str | None:
        """The slot Continue would open, if any."""


class TitleView(arcade.gui.UIView):
    """New game, Continue (latest slot), Load, Settings, Quit."""

    def __init__(self, launcher: Launcher, map_path: Path, village_name: str) -> None:
        super().__init__()
        self.launcher = launcher
        self.background_color = arcade.types.Color(28, 44, 36)
        # The village itself, seen from above, behind the menu.
        tilemap = arcade.load_tilemap(map_path, scaling=1.0)
        self.layers = drawn_layers(tilemap)
        self.map_size = (tilemap.width * tilemap.tile_width, tilemap.height * tilemap.tile_height)
        self.camera = arcade.Camera2D()
        latest = launcher.latest_slot()
        continue_text = f"Continue ({latest})" if latest else "Continue"
        large = partial(button, width=260, height=42)  # a size up from the menus' buttons
        self.buttons = {
            "new": large("New game", self.new_game),
            "continue": large(continue_text, self.resume),
            "load": large("Load", lambda: launcher.load_game(self)),
            "settings": large("Settings", self.settings),
            "quit": large("Quit", arcade.exit),
        }
        self.buttons["continue"].disabled = latest is None
        self.status = arcade.gui.UILabel(
            text="", font_size=STATUS_SIZE, text_color=ERROR, width=420
        )
        box = arcade.gui.UIBoxLayout(vertical=True, space_between=10)
        box.add(arcade.gui.UILabel(text=village_name, font_size=40, text_color=HEADING, bold=True))
        box.add(
            arcade.gui.UILabel(
                text="a village whose people think for themselves", font_size=13, text_color=MUTED
            )
        )
        box.add(arcade.gui.UISpace(height=16))
        for each in self.buttons.values():
            box.add(each)
        box.add(self.status)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box.with_padding(all=28).with_background(color=PANEL))
        self.add_widget(anchor)

    def on_draw_before_ui(self) -> None:
        """The whole village, zoomed to fill the screen and dimmed."""
        w, h = self.window.width, self.window.height
        map_w, map_h = self.map_size
        self.camera.zoom = max(w / map_w, h / map_h)
        self.camera.position = (map_w / 2, map_h / 2)
        with self.camera.activate():
            for layer in self.layers:
                layer.draw(pixelated=True)
        arcade.draw_lrbt_rectangle_filled(0, w, 0, h, (10, 14, 20, 120))

    def new_game(self) -> None:
        """Ask for the player's name first."""
        self.window.show_view(NameView(self.launcher, back=lambda: self.window.show_view(self)))

    def resume(self) -> None:
        """Continue the latest slot; one line if that fails."""
        self.run(self.launcher.continue_game)

    def settings(self) -> None:
        """Open the settings screen; Back returns here."""
        self.window.show_view(SettingsView(back=lambda: self.window.show_view(self)))

    def run(self, action: Callable[[], object]) -> None:
        """Run a launcher action; an expected failure becomes one line on screen."""
        try:
            action()
        except Exception as exc:  # the title screen must survive a broken slot or map
            self.status.text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class NameView(arcade.gui.UIView):
    """A new game asks for the player's name; NPCs know it."""

    def __init__(self, launcher: Launcher, back: Callable[[], None]) -> None:
        super().__init__()
        self.launcher = launcher
        self.back = back
        self.background_color = arcade.types.Color(28, 44, 36)
        self.name_input = LineInput(width=320, height=36, font_size=14)
        self.status = arcade.gui.UILabel(
            text="", font_size=STATUS_SIZE, text_color=ERROR, width=360
        )
        box = arcade.gui.UIBoxLayout(vertical=True, space_between=10)
        box.add(
            arcade.gui.UILabel(
                text="What is your name, traveller?", font_size=18, text_color=HEADING
            )
        )
        box.add(self.name_input)
        box.add(
            arcade.gui.UILabel(text="Enter: begin    Esc: back", font_size=10, text_color=MUTED)
        )
        box.add(self.status)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box.with_padding(all=24).with_background(color=PANEL))
        self.add_widget(anchor)

    def on_show_view(self) -> None:
        """Focus the name field."""
        super().on_show_view()
        self.name_input.activate()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Enter begins the game, Esc goes back."""
        if symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER):
            self.begin()
            return True
        if symbol == arcade.key.ESCAPE:
            self.back()
            return True
        return None

    def begin(self) -> None:
        """Start a new game with the typed name (cleaned; a default when empty)."""
        name = " ".join(self.name_input.text.split())[:MAX_NAME] or "Traveller"
        try:
            self.launcher.new_game(name)
        except Exception as exc:  # e.g. a full disk: say so, stay here
            self.status.text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
