"""The blackboard: boards that characters post to and read, each post with its source.

`ensure_board(participants)` gives the board those participants share (made on first
use; a notice board of the map is a board whose participants are everyone, `PUBLIC`);
`post(board_id, ...)` adds a message; `read(board_id, since_index)` gives the messages
from an index on, so a reader keeps its own place; `my_boards(npc_id)` the boards an NPC
may read. Each `Post` carries who posted it, when (the game clock and the hour), what it
is about (a news id, or "" for a plain note) and its text. Pure data, saved with the slot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from game.world.errors import BoardError

__all__ = ["MAX_POSTS", "MAX_TEXT", "PUBLIC", "Blackboard", "Board", "BoardError", "Post"]

PUBLIC = "*"  # the participant that means everyone: a notice board in the world
MAX_POSTS = 200  # the newest posts a board keeps (a reader's index still counts on)
MAX_TEXT = 300


@dataclass(frozen=True)
class Post:
    """One message on a board."""

    index: int  # its place on the board: 0, 1, 2...
    author: str  # the id of who posted it ("player" for the player)
    author_name: str
    clock: float  # game seconds when posted
    hour: float  # the time of day when posted
    about: str  # what it is about: a news id, or "" for a plain note
    text: str


@dataclass
class Board:
    """One board: who may use it, its posts (the newest `MAX_POSTS`)."""

    board_id: str
    participants: frozenset[str]
    name: str = ""  # a notice board's name on the map
    tile: tuple[int, int] | None = None  # where it stands, for a notice board
    posts: list[Post] = field(default_factory=list)
    count: int = 0  # posts ever made: the next post's index

    def open_to(self, npc_id: str) -> bool:
        """Whether `npc_id` may read and post here."""
        return PUBLIC in self.participants or npc_id in self.participants


class Blackboard:
    """Every board of the world, by id."""

    def __init__(self) -> None:
        self.boards: dict[str, Board] = {}

    def ensure_board(
        self,
        participants: Iterable[str],
        *,
        board_id: str | None = None,
        name: str = "",
        tile: tuple[int, int] | None = None,
    ) -> str:
        """The id of the board these participants share, made if there is none yet."""
        members = frozenset(participants)
        if not members:
            raise BoardError("a board needs at least one participant")
        digest = hashlib.sha256("\n".join(sorted(members)).encode()).hexdigest()
        key = board_id or f"b-{digest[:12]}"
        board = self.boards.get(key)
        if board is None:
            self.boards[key] = Board(key, members, name, tile)
        elif board.participants != members:
            raise BoardError(f"board {key!r} has other participants")
        return key

    def board(self, board_id: str) -> Board:
        """A board by id (BoardError if there is none)."""
        board = self.boards.get(board_id)
        if board is None:
            raise BoardError(f"no board {board_id!r}")
        return board

    def post(
        self,
        board_id: str,
        author: str,
        text: str,
        *,
        author_name: str = "",
        about: str = "",
        clock: float = 0.0,
        hour: float = 0.0,
    ) -> Post:
        """Add a message; its author must be a participant."""
        board = self.board(board_id)
        if not board.open_to(author):
            raise BoardError(f"{author!r} may not post to board {board_id!r}")
        text = " ".join(text.split())[:MAX_TEXT]
        if not text:
            raise BoardError("a post needs some text")
        post = Post(board.count, author, author_name or author, clock, hour, about, text)
        board.count += 1
        board.posts.append(post)
        if len(board.posts) > MAX_POSTS:
            del board.posts[: len(board.posts) - MAX_POSTS]
        return post

    def read(self, board_id: str, since_index: int = 0) -> list[Post]:
        """The posts from `since_index` on, oldest first (older ones dropped are gone)."""
        return [p for p in self.board(board_id).posts if p.index >= since_index]

    def my_boards(self, npc_id: str) -> list[str]:
        """The boards `npc_id` may read and post to."""
        return [b.board_id for b in self.boards.values() if b.open_to(npc_id)]

    def about(self, board_id: str, about: str) -> bool:
        """Whether a board holds a post about `about` (a news id)."""
        return any(p.about == about for p in self.board(board_id).posts)
