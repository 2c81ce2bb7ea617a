"""The Settings screen's Models page: the catalogue, and Download, Use, Delete, Cancel.

A download runs on `game.models.Downloads`' own thread; the page only reads its `state`
each frame, so nothing here waits for the network and the village plays on. The window
keeps one `Downloads` (`downloads_of`): leaving the page does not stop a download, and
closing the game cancels it (`close_downloads`). Use writes config.toml, which the game
reads when it starts, so the chosen model takes effect the next time the game starts.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from functools import partial
from pathlib import Path

import arcade
import arcade.gui

from game.config import ConfigError, Settings, config_path, load_settings
from game.errors import GameError
from game.models import (
    Downloads,
    DownloadState,
    ModelRow,
    catalogue_rows,
    remove_model,
    use_model,
)
from game.ui.theme import (
    ACCENT,
    ERROR,
    HEADING,
    HEADING_SIZE,
    INK,
    MUTED,
    PANEL,
    STATUS_SIZE,
    button,
)

__all__ = ["ModelsPage", "ProgressBar", "close_downloads", "downloads_of", "one_line"]

# (heading, width) of each text column; the buttons come after them.
COLUMNS = (
    ("Name", 130),
    ("Params", 56),
    ("Size", 74),
    ("Licence", 84),
    ("Downloaded", 96),
    ("Speed here", 220),
    ("Good for", 260),
)
BUTTONS_W = 166
ROW_H = 34
CELL_SIZE = 11
LINE_CHARS = 160  # a status line is one line: longer text is cut
TRACK = arcade.types.Color(52, 50, 66)
INTRO = (
    "Stronger minds for the NPCs, downloaded from the Hugging Face Hub and timed on this "
    "machine. The village plays on while one downloads."
)
NEXT_START = "A model chosen with Use takes effect the next time the game starts."

_DOWNLOADS: weakref.WeakKeyDictionary[arcade.Window, Downloads] = weakref.WeakKeyDictionary()


def downloads_of(window: arcade.Window) -> Downloads:
    """The window's one `Downloads`, made the first time it is asked for."""
    found = _DOWNLOADS.get(window)
    if found is None:
        found = _DOWNLOADS[window] = Downloads()
    return found


def close_downloads(window: arcade.Window, timeout: float = 5.0) -> None:
    """Closing the game: cancel the window's download (what came is kept for the next)."""
    found = _DOWNLOADS.pop(window, None)
    if found is not None and found.running:
        found.cancel()
        found.join(timeout)


def one_line(text: object, limit: int = LINE_CHARS) -> str:
    """The first line of `text` (a message or an exception), cut to `limit` characters."""
    lines = [line for line in str(text).splitlines() if line.strip()]
    if not lines:
        return type(text).__name__ if isinstance(text, BaseException) else ""
    line = " ".join(lines[0].split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


class ProgressBar(arcade.gui.UIWidget):
    """A bar filled to `fraction` (0 to 1)."""

    def __init__(self, *, width: float, height: float) -> None:
        super().__init__(width=width, height=height)
        self._fraction = 0.0

    @property
    def fraction(self) -> float:
        """How full the bar is, 0 to 1."""
        return self._fraction

    @fraction.setter
    def fraction(self, value: float) -> None:
        value = min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0
        if value != self._fraction:
            self._fraction = value
            self.trigger_render()

    def do_render(self, surface: arcade.gui.Surface) -> None:
        """The track, the filled part, an outline."""
        self.prepare_render(surface)
        w, h = self.content_width, self.content_height
        arcade.draw_lbwh_rectangle_filled(0, 0, w, h, TRACK)
        if self._fraction > 0:
            arcade.draw_lbwh_rectangle_filled(0, 0, w * self._fraction, h, ACCENT)
        arcade.draw_lbwh_rectangle_outline(0, 0, w, h, MUTED, 1)


def _label(
    text: str,
    width: float,
    *,
    color: arcade.types.Color = INK,
    size: float = CELL_SIZE,
    bold: bool = False,
    multiline: bool = False,
    height: float | None = None,
) -> arcade.gui.UILabel:
    # size_hint None: the layout keeps the size given, so the columns line up; a label
    # whose text comes later is given its height (an empty one measures none).
    return arcade.gui.UILabel(
        text=text,
        width=width,
        height=height,
        font_size=size,
        text_color=color,
        bold=bold,
        multiline=multiline,
        size_hint=None,
    )


def _button(text: str, action: Callable[[], object], width: int) -> arcade.gui.UIFlatButton:
    return button(text, action, width=width, height=30)


class ModelsPage(arcade.gui.UIView):
    """The catalogue's models; download, use or delete one. `back` leaves the page."""

    def __init__(
        self,
        back: Callable[[], None],
        config_file: Path | None = None,
        downloads: Downloads | None = None,
    ) -> None:
        super().__init__()
        self.back = back
        self.config_file = config_file or config_path()
        self.downloads = downloads if downloads is not None else downloads_of(self.window)
        self.background_color = arcade.types.Color(16, 18, 26)
        self.changed = False  # Use or Delete wrote config.toml (Settings reloads it)
        self.settings = Settings()  # config.toml as the table last read it
        self.rows: list[ModelRow] = []
        self.download_buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self.use_buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self.delete_buttons: dict[str, arcade.gui.UIFlatButton] = {}
        self._state: DownloadState | None = None  # the state the page shows
        self._told: DownloadState | None = None  # the finished state whose outcome was told
        self._running = False
        self._build()

    # --- layout -----------------------------------------------------------------------

    def _build(self) -> None:
        full = sum(w for _, w in COLUMNS) + BUTTONS_W + 10 * len(COLUMNS)
        self.table = arcade.gui.UIBoxLayout(vertical=True, space_between=4, align="left")
        self.bar = ProgressBar(width=560, height=16)
        self.bar_label = _label("", 260, height=20)
        self.percent = _label("", 50, height=20)
        self.cancel_button = _button("Cancel", self.cancel, 96)
        self.message = _label("", full, color=MUTED, size=10, height=18)
        self.status = _label("", full, color=MUTED, size=STATUS_SIZE, height=20)
        progress = arcade.gui.UIBoxLayout(vertical=False, space_between=10, align="center")
        for widget in (self.bar_label, self.bar, self.percent, self.cancel_button):
            progress.add(widget)
        footer = arcade.gui.UIBoxLayout(vertical=False, space_between=16, align="center")
        self.back_button = _button("Back", lambda: self.back(), 120)
        footer.add(self.back_button)
        footer.add(_label(NEXT_START, 600, color=MUTED, size=10))
        box = arcade.gui.UIBoxLayout(vertical=True, space_between=8, align="left")
        box.add(arcade.gui.UILabel(text="Models", font_size=HEADING_SIZE, text_color=HEADING))
        box.add(_label(INTRO, full, color=MUTED, size=10))
        box.add(self.table)
        box.add(arcade.gui.UISpace(height=4))
        box.add(progress)
        box.add(self.message)
        box.add(self.status)
        box.add(footer)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box.with_padding(all=18).with_background(color=PANEL))
        self.add_widget(anchor)
        self._fill_table()

    def _settings(self) -> Settings:
        """What config.toml holds (not what the environment adds on top of it)."""
        try:
            return load_settings(config_file=self.config_file, env={}, cwd=self.config_file.parent)
        except ConfigError as exc:
            self.tell(one_line(exc), error=True)
            return Settings()

    def _fill_table(self) -> None:
        """The header and one row per catalogue model, as the disk has them now."""
        self._running = self.downloads.running
        self.settings = self._settings()
        try:
            self.rows = catalogue_rows(self.settings)
        except (GameError, OSError) as exc:
            self.rows = []
            self.tell(one_line(exc), error=True)
        self.table.clear()
        self.download_buttons.clear()
        self.use_buttons.clear()
        self.delete_buttons.clear()
        head = arcade.gui.UIBoxLayout(vertical=False, space_between=10)
        for text, width in COLUMNS:
            head.add(_label(text, width, color=MUTED, size=10, bold=True))
        self.table.add(head)
        for row in self.rows:
            self.table.add(self._row(row))
        self._show(self.downloads.state)

    def _row(self, row: ModelRow) -> arcade.gui.UIWidget:
        m = row.model
        state = self.downloads.state
        fetching = self._running and state is not None and state.name == m.name
        have = row.path is not None
        if fetching:
            status = "downloading"
        else:
            status = ("yes" if have else "no") + (" · in use" if row.in_use else "")
        mark = ACCENT if row.in_use or fetching else INK
        cells = (
            _label(m.name, COLUMNS[0][1], color=mark, bold=row.in_use),
            _label(m.params, COLUMNS[1][1]),
            _label(row.size_text, COLUMNS[2][1]),
            _label(m.licence, COLUMNS[3][1]),
            _label(status, COLUMNS[4][1], color=mark),
            _label(row.speed_text, COLUMNS[5][1], color=INK if row.speed else MUTED, size=10),
            _label(m.good_for, COLUMNS[6][1], color=MUTED, size=10, multiline=True),
        )
        line = arcade.gui.UIBoxLayout(vertical=False, space_between=10, align="center")
        for cell in cells:
            line.add(cell)
        actions = arcade.gui.UIBoxLayout(vertical=False, space_between=8)
        if have:
            use = _button("Use", partial(self.use, m.name), 70)
            use.disabled = row.in_use
            delete = _button("Delete", partial(self.delete, m.name), 86)
            delete.disabled = fetching
            self.use_buttons[m.name], self.delete_buttons[m.name] = use, delete
            actions.add(use)
            actions.add(delete)
        else:
            fetch = _button("Download", partial(self.download, m.name), 110)
            fetch.disabled = self._running
            self.download_buttons[m.name] = fetch
            actions.add(fetch)
        # A fixed-width column keeps the buttons lined up whatever each row holds.
        column = arcade.gui.UIAnchorLayout(width=BUTTONS_W, height=ROW_H, size_hint=None)
        column.add(actions, anchor_x="left", anchor_y="center")
        line.add(column)
        return line

    def _show(self, state: DownloadState | None) -> None:
        """The download area for `state`; a finished download's outcome told once."""
        self._state = state
        under_way = state is not None and not state.done
        for widget in (self.bar, self.percent, self.cancel_button):
            widget.visible = under_way
        if state is None or not under_way:
            self.bar_label.text = ""
            self.message.text = ""
        else:
            self.bar.fraction = state.fraction
            self.percent.text = f"{min(1.0, max(0.0, state.fraction)):.0%}"
            self.bar_label.text = one_line(f"Downloading {state.name}", 40)
            self.message.text = one_line(state.message)
        if state is not None and state.done and state is not self._told:
            self._told = state
            if state.error is not None:
                self.tell(f"{state.name}: {one_line(state.error)}", error=True)
            else:
                self.tell(one_line(state.message or f"{state.name}: finished"))

    # --- each frame -------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        """Read the download's state (never wait for it); redraw what changed."""
        state, running = self.downloads.state, self.downloads.running
        if running != self._running:
            self._fill_table()  # Download buttons on or off, a new model on the disk
        elif state is not self._state:
            self._show(state)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Esc goes back."""
        if symbol == arcade.key.ESCAPE:
            self.back()
            return True
        return None

    # --- actions ----------------------------------------------------------------------

    def tell(self, message: str, *, error: bool = False) -> None:
        """Show one line on the page."""
        self.status.text = one_line(message)
        self.status.update_font(font_color=ERROR if error else MUTED)

    def download(self, name: str) -> None:
        """Begin downloading `name` (then it is timed here); a refusal is one line."""
        failed = self.downloads.start(name)
        if failed is not None:
            self._told = self.downloads.state  # start() may leave the same line as a state
            self.tell(f"{name}: {one_line(failed)}", error=True)
            return
        self.cancel_button.disabled = False
        self.tell(f"downloading {name}; you can leave this page, the download goes on")
        self._fill_table()

    def cancel(self) -> None:
        """Stop the download; the next Download resumes it."""
        state = self.downloads.state
        if state is not None and not state.done:
            self.downloads.cancel()
            self.cancel_button.disabled = True
            self.tell("cancelling…")

    def use(self, name: str) -> None:
        """Make `name` the NPCs' model in config.toml."""
        try:
            _, line = use_model(name, self.config_file)
        except (GameError, OSError) as exc:
            self.tell(one_line(exc), error=True)
            return
        self.changed = True
        self._fill_table()
        self.tell(f"{line}; it takes effect the next time the game starts")

    def delete(self, name: str) -> None:
        """Delete the downloaded `name` (the settings go back to auto if it was in use)."""
        try:
            line = remove_model(name, self.settings, self.config_file)
        except (GameError, OSError) as exc:
            self.tell(one_line(exc), error=True)
            return
        self.changed = True
        self._fill_table()
        self.tell(line)

    def visible_text(self) -> list[str]:
        """Every string the page shows (tests)."""
        texts: list[str] = []
        for widget in self.ui.walk_widgets():
            text = getattr(widget, "text", None)
            if isinstance(text, str) and widget.visible:
                texts.append(text)
        return texts
