"""The pause menu and the load list, and the keys that open them (F5, F9, Esc).

Both are `arcade.gui.UIView`s drawn over the frozen game: the world does not step while
a menu is open. Saving never waits for the disk: the menu shows "Saving..." and then the
one-line result; loading waits (it is a menu action) and shows a one-line error if the
slot cannot be loaded, while the game keeps running either way.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

import arcade
import arcade.gui

from game.files import check_regular
from game.limits import MAX_THUMBNAIL_PIXELS
from game.paths import THUMBNAIL_FILE
from game.save.catalog import SlotInfo
from game.save.cli import format_date, format_play_time
from game.save.keeper import LoadResult
from game.save.layout import bound_of
from game.save.slot_io import SaveResult
from game.save.thumbnail import Frame
from game.text import clean_line
from game.ui.settings_view import SettingsView
from game.ui.theme import ERROR, HEADING, HEADING_SIZE, MUTED, PANEL, STATUS_SIZE, button

__all__ = [
    "LoadListView",
    "PauseView",
    "SaveControls",
    "SlotSource",
    "capture_frame",
    "on_menu_key",
    "open_load_list",
    "open_pause_menu",
    "quick_save",
    "thumbnail_texture",
]

log = logging.getLogger(__name__)

DIM = (10, 10, 18, 170)
THUMB_W, THUMB_H = 160, 90
TEXT_W = 440
PAGE_SIZE = 4


class SlotSource(Protocol):
    """What the load list needs: the slot in play, the slots, and a way to load one."""

    @property
    def slot(self) -> str:
        """The slot in play (the list marks it)."""
        ...

    def load(self, slot: str) -> LoadResult:
        """Load a slot now."""
        ...

    def list_slots(self) -> list[SlotInfo]:
        """Every slot, newest first."""
        ...


class SaveControls(SlotSource, Protocol):
    """What the menus need from the save system (`game.save.keeper.SlotKeeper`)."""

    name: str

    def save(
        self,
        thumbnail: Frame | bytes | None = None,
        *,
        slot: str | None = None,
        name: str | None = None,
        auto: bool = False,
    ) -> concurrent.futures.Future[SaveResult]:
        """Save to the current slot (or `slot`); returns at once."""
        ...

    def save_as_new(
        self, thumbnail: Frame | bytes | None = None
    ) -> concurrent.futures.Future[SaveResult]:
        """Save into a new slot and keep playing there."""
        ...

    def autosave_due(self, dt: float) -> bool:
        """True when an autosave should run now."""
        ...


# --- keys on the play screen -----------------------------------------------------------


def capture_frame(view: arcade.View | None = None) -> Frame | None:
    """Draw `view` once and read the frame's pixels (bytes only: the rest is off-thread)."""
    try:
        window = arcade.get_window()
        if view is not None:
            view.on_draw()
        width, height = window.get_framebuffer_size()
        data = window.ctx.screen.read(viewport=(0, 0, width, height), components=3)
    except Exception as exc:  # no thumbnail is better than no save
        log.warning("could not capture a thumbnail: %s", exc)
        return None
    return Frame(bytes(data), width, height, "RGB", flipped=True)


def quick_save(
    view: arcade.View, saves: SaveControls, *, auto: bool = False
) -> concurrent.futures.Future[SaveResult]:
    """F5 (and autosave): save to the current slot with a thumbnail of the play screen."""
    return saves.save(capture_frame(view), auto=auto)


def open_pause_menu(view: arcade.View, saves: SaveControls) -> PauseView:
    """Esc: pause the game and show the menu (the play screen is captured first)."""
    frame = capture_frame(view)
    menu = PauseView(view, saves, frame)
    view.window.show_view(menu)
    return menu


def open_load_list(view: arcade.View, saves: SaveControls) -> LoadListView:
    """F9: show the load list over the paused game."""
    menu = LoadListView(view, saves)
    view.window.show_view(menu)
    return menu


def on_menu_key(view: arcade.View, saves: SaveControls, symbol: int) -> bool | None:
    """Handle F5, F9 and Esc on the play screen; None for any other key."""
    if symbol == arcade.key.F5:
        quick_save(view, saves)
        return True
    if symbol == arcade.key.F9:
        open_load_list(view, saves)
        return True
    if symbol == arcade.key.ESCAPE:
        open_pause_menu(view, saves)
        return True
    return None


# --- shared pieces ---------------------------------------------------------------------


def thumbnail_texture(path: Path | None) -> arcade.Texture | None:
    """A texture of a slot's thumbnail (None if missing or not a readable image)."""
    if path is None:
        return None
    try:
        from PIL import Image

        stat = path.stat()
        check_regular(path, bound_of(THUMBNAIL_FILE))
        with Image.open(path) as image:
            if image.width * image.height > MAX_THUMBNAIL_PIXELS:  # read from the header
                raise ValueError(f"{image.width}x{image.height} is too large for a thumbnail")
            image.load()
            rgba = image.convert("RGBA")
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        log.info("no thumbnail from %s: %s", path, exc)
        return None
    # Keyed by file time and size: a newer save of the same slot gets a new texture.
    return arcade.Texture(rgba, hash=f"thumb:{path}:{stat.st_mtime_ns}:{stat.st_size}")


class _MenuView(arcade.gui.UIView):
    """A UIView drawn over the frozen play screen."""

    def __init__(self, game: arcade.View) -> None:
        super().__init__()
        self.game = game
        self.overlay_camera = arcade.Camera2D()
        self.status = arcade.gui.UILabel(
            text="", font_size=STATUS_SIZE, text_color=MUTED, width=520
        )

    def on_draw_before_ui(self) -> None:
        """The game as it was, dimmed."""
        self.game.on_draw()
        with self.overlay_camera.activate():
            arcade.draw_lrbt_rectangle_filled(0, self.window.width, 0, self.window.height, DIM)

    def tell(self, message: str, *, error: bool = False) -> None:
        """Show one line under the menu (a slot's warning in it made one safe line)."""
        self.status.text = clean_line(message)
        self.status.update_font(font_color=ERROR if error else MUTED)


# --- the pause menu --------------------------------------------------------------------


class PauseView(_MenuView):
    """Resume, Save, Save as new slot, Load, Settings, Quit."""

    def __init__(
        self,
        game: arcade.View,
        saves: SaveControls,
        frame: Frame | None = None,
        *,
        on_quit: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(game)
        self.saves = saves
        self.frame = frame
        self.on_quit = on_quit
        self.pending: concurrent.futures.Future[SaveResult] | None = None
        self.title = arcade.gui.UILabel(
            text="Paused", font_size=HEADING_SIZE, text_color=HEADING, bold=True, align="center"
        )
        self.slot_label = arcade.gui.UILabel(text="", font_size=11, text_color=MUTED)
        self.buttons = {
            "resume": button("Resume", self.resume),
            "save": button("Save", self.save),
            "save_as": button("Save as new slot", self.save_as),
            "load": button("Load", self.load),
            "settings": button("Settings", self.settings),
            "quit": button("Quit", self.quit),
        }
        box = arcade.gui.UIBoxLayout(vertical=True, space_between=10)
        box.add(self.title)
        box.add(self.slot_label)
        for each in self.buttons.values():
            box.add(each)
        box.add(self.status)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box.with_padding(all=20).with_background(color=PANEL))
        self.ui.add(anchor)
        self._show_slot()

    def _show_slot(self) -> None:
        self.slot_label.text = f"Slot: {clean_line(self.saves.name)} ({self.saves.slot})"

    def resume(self) -> None:
        """Back to the game."""
        self.window.show_view(self.game)

    def save(self) -> None:
        """Save to the current slot."""
        self.pending = self.saves.save(self.frame)
        self.tell("Saving…")

    def save_as(self) -> None:
        """Save into a new slot and play on there."""
        self.pending = self.saves.save_as_new(self.frame)
        self.tell("Saving…")
        self._show_slot()

    def load(self) -> None:
        """Open the load list."""
        self.window.show_view(LoadListView(self.game, self.saves, back=self))

    def settings(self) -> None:
        """Open the settings screen; Back returns to this menu."""
        self.window.show_view(SettingsView(back=lambda: self.window.show_view(self)))

    def quit(self) -> None:
        """Save (the game saves again on close, with this thumbnail kept) and quit."""
        self.pending = self.saves.save(self.frame, auto=True)
        if self.on_quit is not None:
            self.on_quit()
        else:
            self.window.close()

    def on_update(self, delta_time: float) -> None:
        """Show how the save went once it has."""
        pending = self.pending
        if pending is not None and pending.done():
            self.pending = None
            try:
                result = pending.result()
            except Exception as exc:
                self.tell(f"could not save: {exc}", error=True)
            else:
                self.tell(result.message, error=not result.ok)
            self._show_slot()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Esc resumes."""
        if symbol == arcade.key.ESCAPE:
            self.resume()
            return True
        return None


# --- the load list ---------------------------------------------------------------------


class LoadListView(_MenuView):
    """Every slot with its name, date, play time and thumbnail; pick one to load."""

    def __init__(
        self,
        game: arcade.View,
        saves: SlotSource,
        *,
        back: arcade.View | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        super().__init__(game)
        self.saves = saves
        self.back_to = back
        self.page_size = max(1, page_size)
        self.page = 0
        self.slots: list[SlotInfo] = saves.list_slots()
        self.load_buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self.rows: dict[str, arcade.gui.UILabel] = {}
        self.textures: dict[str, arcade.Texture] = {}
        self._build()

    @property
    def pages(self) -> int:
        """How many pages the list has."""
        return max(1, -(-len(self.slots) // self.page_size))

    def _build(self) -> None:
        self.ui.clear()
        # Fresh widgets each time: arcade's bindings must not outlive the old layout.
        text, color = self.status.text, self.status.font_color
        self.status = arcade.gui.UILabel(
            text=text, font_size=STATUS_SIZE, text_color=color, width=520
        )
        self.load_buttons.clear()
        self.rows.clear()
        box = arcade.gui.UIBoxLayout(vertical=True, space_between=10, align="left")
        box.add(arcade.gui.UILabel(text="Load a save", font_size=20, text_color=HEADING, bold=True))
        if not self.slots:
            box.add(arcade.gui.UILabel(text="No saves yet.", font_size=12, text_color=MUTED))
        start = self.page * self.page_size
        for info in self.slots[start : start + self.page_size]:
            box.add(self._row(info))
        nav = arcade.gui.UIBoxLayout(vertical=False, space_between=8)
        if self.page > 0:
            nav.add(button("< Newer", self.previous_page, width=110))
        if self.page + 1 < self.pages:
            nav.add(button("Older >", self.next_page, width=110))
        nav.add(button("Back", self.back, width=110))
        box.add(nav)
        box.add(self.status)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box.with_padding(all=20).with_background(color=PANEL))
        self.ui.add(anchor)

    def _row(self, info: SlotInfo) -> arcade.gui.UIWidget:
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=12, align="center")
        texture = self.textures.get(info.slot) or thumbnail_texture(info.thumbnail)
        if texture is not None:
            self.textures[info.slot] = texture
            row.add(arcade.gui.UIImage(texture=texture, width=THUMB_W, height=THUMB_H))
        else:
            row.add(arcade.gui.UISpace(width=THUMB_W, height=THUMB_H, color=(45, 45, 60, 255)))
        text = arcade.gui.UIBoxLayout(vertical=True, space_between=2, align="left")
        current = " (current)" if info.slot == self.saves.slot else ""
        text.add(
            arcade.gui.UILabel(
                text=_clip(f"{clean_line(info.name)}{current}", 40),
                font_size=13,
                text_color=HEADING,
                bold=True,
                width=TEXT_W,
            )
        )
        details = (
            f"{format_date(info.updated)}  ·  played {format_play_time(info.play_time_s)}"
            f"  ·  {info.npc_count} NPCs"
        )
        problem = info.error or (info.warnings[0] if info.warnings else None)
        line = arcade.gui.UILabel(
            text=details if problem is None else _clip(clean_line(problem), 58),
            font_size=10,
            text_color=MUTED if problem is None else ERROR,
            width=TEXT_W,
        )
        self.rows[info.slot] = line
        text.add(line)
        # A fixed-width column keeps the Load buttons in one line whatever the text.
        column = arcade.gui.UIAnchorLayout(width=TEXT_W, height=THUMB_H, size_hint=None)
        column.add(text, anchor_x="left", anchor_y="center")
        row.add(column)
        load = button("Load", partial(self.load, info.slot), width=90)
        load.disabled = not info.loadable
        self.load_buttons[info.slot] = load
        row.add(load)
        return row

    def load(self, slot: str) -> LoadResult:
        """Load a slot; back to the game if it worked, else say why in one line."""
        self.tell(f"Loading {slot}…")
        result = self.saves.load(slot)
        if result.ok and self.window.current_view is self:
            self.window.show_view(self.game)
        else:
            self.tell(result.message, error=True)
        return result

    def next_page(self) -> None:
        """Older saves."""
        if self.page + 1 < self.pages:
            self.page += 1
            self._build()

    def previous_page(self) -> None:
        """Newer saves."""
        if self.page > 0:
            self.page -= 1
            self._build()

    def back(self) -> None:
        """Back to where the list was opened from."""
        self.window.show_view(self.back_to or self.game)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Esc goes back."""
        if symbol == arcade.key.ESCAPE:
            self.back()
            return True
        return None


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
