"""The notice board panel: E beside a notice board of the map shows its posts, newest
first; E or Esc closes it. The game runs on underneath, and a post made while the panel
is open shows at once. Posts are what villagers (and models) wrote: shown cleaned."""

from __future__ import annotations

import arcade
import arcade.gui

from game.text import clean_text
from game.ui.theme import HEADING, MUTED, bottom_panel
from game.world.board import Board
from game.world.clock import clock_text
from game.world.world import World

WIDTH = 640
BOARD_REACH = 2.0  # tiles from the board's tile within which E reads it
HELP = "E or Esc: close    PgUp/PgDn: scroll"
EMPTY = "The board is empty."


def board_near(world: World, reach: float = BOARD_REACH) -> str | None:
    """The id of the nearest notice board within `reach` tiles of the player, if any."""
    return world.notice_board_near(world.player.tile, reach)


class BoardPanel:
    """A bottom panel: the board's name, what it is, its posts (scrollable), key help."""

    def __init__(self, ui: arcade.gui.UIManager, world: World, text_scale: float = 1.0) -> None:
        size = 12 * text_scale
        self.world = world
        self.board_id: str | None = None
        self._seen: tuple[int, int] | None = None  # (posts ever made, posts kept) shown
        self.title = arcade.gui.UILabel(text="", font_size=size, text_color=HEADING, width=WIDTH)
        self.about = arcade.gui.UILabel(
            text="", font_size=max(8, size - 2), text_color=MUTED, width=WIDTH
        )
        self.posts = arcade.gui.UITextArea(
            width=WIDTH,
            height=int(200 * text_scale),
            font_size=size - 1,
            text_color=arcade.color.WHITE,
            scroll_speed=18,
        )
        self.help = arcade.gui.UILabel(
            text=HELP, font_size=max(8, size - 2), text_color=arcade.color.LIGHT_GRAY
        )
        self.anchor = bottom_panel(
            ui, (self.title, self.about, self.posts, self.help), space_between=6, align_y=16
        )

    @property
    def open(self) -> bool:
        """Whether the panel is showing."""
        return self.board_id is not None

    def board(self) -> Board | None:
        """The board shown, if it still exists."""
        if self.board_id is None:
            return None
        return self.world.board.boards.get(self.board_id)

    def show(self, board_id: str) -> None:
        """Open on a board, at its newest post."""
        self.board_id = board_id
        board = self.board()
        name = clean_text(board.name if board is not None and board.name else board_id)
        name = name.replace("_", " ").strip()
        plain = name.lower() in ("", "board", "notice board")
        self.title.text = "Notice board" if plain else f"Notice board: {name}"
        spot = next((b for b in self.world.map.boards if b.name == board_id), None)
        self.about.text = clean_text(spot.description) if spot and spot.description else ""
        self._seen = None
        self.anchor.visible = True
        self.refresh()

    def hide(self) -> None:
        """Close the panel."""
        self.board_id = None
        self.anchor.visible = False

    def refresh(self) -> None:
        """Per frame while open: show the posts again when one was made or dropped."""
        board = self.board()
        if board is None:
            return
        seen = (board.count, len(board.posts))
        if seen != self._seen:
            self._seen = seen
            self.posts.text = self.render()
            layout = self.posts.layout
            layout.view_y = 0  # the newest post, at the top
            self.posts.trigger_full_render()

    def render(self) -> str:
        """The posts as the panel shows them, newest first."""
        board = self.board()
        if board is None or not board.posts:
            return EMPTY
        out = []
        for post in reversed(board.posts):
            who = clean_text(post.author_name or post.author)
            out.append(f"{clock_text(post.hour)}  {who}\n{clean_text(post.text)}")
        return "\n\n".join(out)

    def scroll(self, pages: int) -> None:
        """Page up (negative) or down (positive) through the posts."""
        layout = self.posts.layout
        lowest = -max(0, layout.content_height - layout.height)
        step = max(20, layout.height - 20)
        layout.view_y = int(min(0, max(lowest, layout.view_y - pages * step)))
        self.posts.trigger_full_render()
