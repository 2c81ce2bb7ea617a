"""A character at a board: which board it means, what it reads there, what it posts.

The skills `read_board` and `post_to_board` come here through the `ReadBoard` and
`PostToBoard` commands. A notice board (a board standing on the map) is used within
`BOARD_TILES` of it, as NPCs passing it use it (`game.npc.life.life`); a board of a few
participants is used from anywhere, by them. Reading a post about a piece of news is
hearing it from whoever posted it (`how="board"`). A post may carry a piece of news only
if the poster has heard it and the post says its key word, so a board never carries news
nobody told: a note about nothing heard is a plain note, and nobody learns news from it.
"""

from __future__ import annotations

import math

from game.world.board import BoardError, Post
from game.world.clock import clock_text
from game.world.entities import Npc
from game.world.outcomes import Impossible, Outcome, Success
from game.world.state import WorldState

__all__ = ["BOARD_TILES", "READ_AT_ONCE", "post_to", "read"]

BOARD_TILES = 3.0  # a notice board is read and posted to within this many tiles
READ_AT_ONCE = 6  # posts one read gives; the rest on the next read, from its index


def _words(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").split()).removeprefix("the ")


def _title(world: WorldState, board_id: str, npc_id: str) -> str:
    """A board as a character calls it: its name, else "board shared with Pip"."""
    board = world.board.board(board_id)
    if board.name:
        return _words(board.name)
    others = sorted(
        world.npcs[p].name for p in board.participants if p != npc_id and p in world.npcs
    )
    return f"board shared with {' and '.join(others)}" if others else f"board {board_id}"


def _where(world: WorldState, board_id: str) -> str:
    tile = world.notice_boards[board_id]
    place = world.map.place_at(tile)
    on = f" on the {place.name.replace('_', ' ')}" if place is not None else ""
    return f"the {_title(world, board_id, '')} stands at {tile}{on}"


def _board_for(world: WorldState, npc: Npc, name: str) -> str | Impossible:
    """The board an NPC means: by id or name, or else the notice board in reach, or else
    the first board of its own; Impossible (saying where the boards are) if none is open."""
    mine = world.board.my_boards(npc.entity_id)
    if name.strip():
        key = _words(name)
        named = [
            b for b in mine if key in (_words(b), _title(world, b, npc.entity_id).lower(), "board")
        ]
        if not named:
            names = ", ".join(
                _title(world, b, npc.entity_id) + ("" if world.board.board(b).name else f" ({b})")
                for b in mine
            )
            return Impossible(
                f"no board called {name!r} is open to you; your boards: {names or 'none'}"
            )
        nearest = world.notice_board_near(npc.tile, math.inf)
        board_id = nearest if nearest in named else named[0]
    else:
        board_id = world.notice_board_near(npc.tile, BOARD_TILES) or next(
            (b for b in mine if b not in world.notice_boards), ""
        )
        if not board_id:
            if not world.notice_boards:
                return Impossible("there is no board here")
            where = "; ".join(_where(world, b) for b in world.notice_boards)
            return Impossible(f"no board in reach; {where}; walk within {BOARD_TILES:g} tiles")
    if board_id in world.notice_boards:
        if math.dist(world.notice_boards[board_id], npc.tile) > BOARD_TILES:
            return Impossible(
                f"{_where(world, board_id)}; walk within {BOARD_TILES:g} tiles of it first"
            )
    return board_id


def _line(post: Post) -> str:
    return f"#{post.index} {clock_text(post.hour)}, {post.author_name}: {post.text}"


def read(world: WorldState, npc: Npc, name: str, since: int) -> Outcome:
    """An NPC reads a board from post `since` on; the news in what it reads is heard from
    the posters."""
    board_id = _board_for(world, npc, name)
    if isinstance(board_id, Impossible):
        return board_id
    board = world.board.board(board_id)
    title = _title(world, board_id, npc.entity_id)
    title = title[0].upper() + title[1:]
    posts = world.board.read(board_id, max(0, since))
    if not posts:
        if not board.count:
            return Success(f"{title}: it is empty.")
        return Success(f"{title}: nothing new since post #{since}; {board.count} posts in all.")
    shown = posts[:READ_AT_ONCE]
    for post in shown:
        if post.about and post.author != npc.entity_id:
            world.hear(npc.entity_id, post.about, post.author, post.author_name, "board")
    more = len(posts) - len(shown)
    rest = f"\n{more} more: read again with since={shown[-1].index + 1}." if more else ""
    return Success(f"{title}:\n" + "\n".join(_line(p) for p in shown) + rest)


def post_to(world: WorldState, npc: Npc, text: str, name: str, about: str) -> Outcome:
    """An NPC posts a note, carrying a piece of news it has heard if `about` names one."""
    board_id = _board_for(world, npc, name)
    if isinstance(board_id, Impossible):
        return board_id
    news_id = ""
    if about.strip():
        word = about.strip().lower()
        known = [n for n, _ in world.news.known_by(npc.entity_id)]
        match = [
            n for n in known if word in (n.news_id, n.key.lower()) or word in n.subject.lower()
        ]
        if not match:
            heard = ", ".join(sorted({n.key for n in known if n.key})) or "nothing yet"
            return Impossible(f"you have heard no news about {about!r}; you have heard: {heard}")
        news = match[0]
        if news.key and news.key.lower() not in text.lower():
            return Impossible(f"a post about that news must say {news.key!r}")
        news_id = news.news_id
    try:
        post = world.board.post(
            board_id,
            npc.entity_id,
            text,
            author_name=npc.name,
            about=news_id,
            clock=world.clock,
            hour=world.day.hour,
        )
    except BoardError as err:
        return Impossible(str(err))
    title = _title(world, board_id, npc.entity_id)
    return Success(f"posted to the {title} as #{post.index}")
