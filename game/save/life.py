"""The village's life in a slot: `news.json`, `board.json` and `feelings.json`.

What the villagers know and from whom (`NewsBook`), what stands on the boards
(`Blackboard`) and how each NPC feels about the others (`Feelings`) are world data; a save
keeps them in three files of the slot (format 2 on), each a JSON object with a `format`.

- `snapshot_life(world)` copies them on the game thread (cheap: dicts and lists of frozen
  records are copied, never the records), since the world moves on while the disk write
  happens off the game thread;
- `life_files(life)` turns a copy into the files' bytes (off the game thread; the models
  and the record-by-record reader are `game.save.life_format`'s);
- `read_life(saves, slot, warnings)` reads them back: a missing file (an older slot) is an
  empty part, one that cannot be read at all (not JSON, nested too deep, over its size
  bound) an empty part and one warning line, and a record that does not read (a news
  item of an unknown kind, a post past its length, a feeling past 1) costs that record,
  with one warning line for the file; only a file of a newer format is refused
  (`FormatTooNew`), like the rest of such a slot;
- `set_aside(path, left_out)` runs before a save replaces a file: what it could not read
  is kept (`<file>.rejected`, `<file>.damaged`; see `game.save.salvage`);
- `apply_life(world, life)` puts them in the world (game thread). The map decides where
  its notice boards stand: the saved posts of a board no longer on the map are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from game.files import mb, os_reason, read_capped
from game.paths import slot_path
from game.save.errors import SaveError
from game.save.format import (
    DAMAGED_SUFFIX,
    FORMAT_VERSION,
    REJECTED_SUFFIX,
    describe_error,
    name_few,
)
from game.save.layout import bound_of, life_parts
from game.save.life_format import (
    LifeModel,
    SavedBoards,
    SavedFeelings,
    SavedNews,
    model_of,
    parse_life,
)
from game.save.salvage import Rejected, Salvage, keep_damaged, keep_rejected, rejected_note
from game.world.board import PUBLIC, Board, Post
from game.world.feelings import Feeling
from game.world.news import Heard, News, NewsBook, Pass

if TYPE_CHECKING:
    from game.world.world import World

__all__ = [
    "Life",
    "LifeFile",
    "apply_life",
    "life_files",
    "read_life",
    "set_aside",
    "snapshot_life",
]

# --- the world's data, copied ----------------------------------------------------------


@dataclass
class Life:
    """The village's life, as world data: a copy the world no longer changes."""

    news: NewsBook = field(default_factory=NewsBook)
    boards: dict[str, Board] = field(default_factory=dict)
    feelings: dict[str, dict[str, Feeling]] = field(default_factory=dict)


def _copy(news: NewsBook, boards: dict[str, Board], of: dict[str, dict[str, Feeling]]) -> Life:
    # News, Heard, Pass and Post are frozen: only the containers are copied.
    return Life(
        NewsBook(
            dict(news.news),
            {npc_id: dict(known) for npc_id, known in news.known.items()},
            {pair: set(ids) for pair, ids in news.told.items()},
            list(news.passes),
        ),
        {
            board_id: Board(b.board_id, b.participants, b.name, b.tile, list(b.posts), b.count)
            for board_id, b in boards.items()
        },
        {
            npc_id: {
                other: Feeling(f.value, f.reason, f.name, f.changes, f.clock)
                for other, f in feelings.items()
            }
            for npc_id, feelings in of.items()
        },
    )


def snapshot_life(world: World) -> Life:
    """The news, boards and feelings of the world now, copied (game thread; cheap)."""
    return _copy(world.news, world.board.boards, world.feelings.of)


# --- writing (off the game thread) -----------------------------------------------------


def _fields(record: Any, **changes: Any) -> dict[str, Any]:
    # A record's fields as a dict (the models ignore the ones they do not keep).
    return {**vars(record), **changes}


def _news_data(book: NewsBook) -> dict[str, Any]:
    return {
        "news": {news_id: _fields(n) for news_id, n in book.news.items()},
        "known": {
            npc_id: {news_id: _fields(h) for news_id, h in known.items()}
            for npc_id, known in book.known.items()
        },
        "told": {pair: sorted(ids) for pair, ids in book.told.items()},
        "passes": [_fields(p) for p in book.passes],
    }


def _boards_data(boards: dict[str, Board]) -> dict[str, Any]:
    return {
        "boards": {
            board_id: _fields(
                b, participants=sorted(b.participants), posts=[_fields(p) for p in b.posts]
            )
            for board_id, b in boards.items()
        }
    }


def _feelings_data(of: dict[str, dict[str, Feeling]]) -> dict[str, Any]:
    return {
        "of": {
            npc_id: {other: _fields(f) for other, f in feelings.items()}
            for npc_id, feelings in of.items()
        }
    }


@dataclass
class LifeFile:
    """One file of the village's life as a save writes it, and the records it leaves out
    (data this game could not read back: set aside in `<name>.rejected`)."""

    name: str
    model: type[LifeModel]
    data: bytes
    rejected: list[Rejected] = field(default_factory=list)


def life_files(life: Life) -> tuple[list[LifeFile], list[str]]:
    """The files of a copy of the village's life (each life file of the slot's layout), and
    a warning for each that cannot be written as this game reads it (that file is left as
    it was; never a failed save).

    A record the next load would refuse is left out of its file, not the file."""
    data_of: dict[type[LifeModel], dict[str, Any]] = {
        SavedNews: _news_data(life.news),
        SavedBoards: _boards_data(life.boards),
        SavedFeelings: _feelings_data(life.feelings),
    }
    files: list[LifeFile] = []
    warnings: list[str] = []
    for file, model in life_parts():
        saved, salvage = model_of(model, {**data_of[model], "format": FORMAT_VERSION})
        raw = saved.to_bytes()
        if len(raw) > file.bound:  # never write what the next load would refuse
            warnings.append(
                f"{file.name} was not saved ({mb(len(raw))}, more than the "
                f"{mb(file.bound)} the game reads)"
            )
            continue
        files.append(LifeFile(file.path, model, raw, salvage.rejected))
    return files, warnings


def set_aside(
    path: Path, model: type[LifeModel], left_out: list[Rejected], *, fsync: bool = True
) -> str | None:
    """Before a save replaces a life file, keep what it could not read: the file's records
    that do not read and `left_out` (those the save leaves out) go to `<file>.rejected`;
    a file that cannot be read at all is renamed `<file>.damaged`. A one-line note of
    what was kept, or None. Raises OSError (the save then fails, nothing replaced)."""
    notes: list[str] = []
    salvage = Salvage()
    try:
        _, salvage = parse_life(path.name, model, read_capped(path, bound_of(path.name)))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, ValidationError, SaveError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else describe_error(exc)
        kept = keep_damaged(path)
        notes.append(f"{path.name} could not be read ({reason}): kept as {kept.name}")
    salvage.rejected.extend(left_out)
    if salvage.rejected:
        kept = keep_rejected(path, salvage.rejected, fsync=fsync)
        notes.append(f"{rejected_note(path.name, salvage.rejected)} set aside in {kept.name}")
    return "; ".join(notes) or None


# --- reading (off the game thread) -----------------------------------------------------


def _news_of(saved: SavedNews) -> NewsBook:
    news = {
        news_id: News(
            news_id,
            n.kind,
            n.origin,
            n.origin_name,
            n.subject,
            n.place,
            n.when,
            n.hour,
            n.key,
            n.clock,
        )
        for news_id, n in saved.news.items()
    }
    known = {
        npc_id: {
            news_id: Heard(news_id, h.source, h.source_name, h.clock, h.place, h.how)
            for news_id, h in heard.items()
            if news_id in news
        }
        for npc_id, heard in saved.known.items()
    }
    return NewsBook(
        news,
        {npc_id: k for npc_id, k in known.items() if k},
        {pair: set(ids) for pair, ids in saved.told.items()},
        [Pass(p.news_id, p.source, p.to, p.clock, p.hour, p.place, p.how) for p in saved.passes],
    )


def _boards_of(saved: SavedBoards) -> dict[str, Board]:
    boards: dict[str, Board] = {}
    for board_id, b in saved.boards.items():
        posts = sorted(
            (
                Post(p.index, p.author, p.author_name, p.clock, p.hour, p.about, p.text)
                for p in b.posts
            ),
            key=lambda p: p.index,
        )
        count = max(b.count, posts[-1].index + 1 if posts else 0)  # the next index is new
        tile = (b.tile[0], b.tile[1]) if b.tile is not None else None
        boards[board_id] = Board(board_id, frozenset(b.participants), b.name, tile, posts, count)
    return boards


def _feelings_of(saved: SavedFeelings) -> dict[str, dict[str, Feeling]]:
    return {
        npc_id: {
            other: Feeling(f.value, f.reason, f.name, f.changes, f.clock)
            for other, f in feelings.items()
        }
        for npc_id, feelings in saved.of.items()
    }


def _read(path: Path, model: type[LifeModel], slot: str, warnings: list[str]) -> LifeModel | None:
    try:
        saved, salvage = parse_life(path.name, model, read_capped(path, bound_of(path.name)))
    except FileNotFoundError:
        return None  # an older slot, or nothing happened yet: empty
    except (OSError, ValueError, ValidationError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else describe_error(exc)
        warnings.append(
            f"slot {slot!r}: {path.name} is damaged ({reason}); the village starts without "
            f"it (the next save keeps it as {path.name}{DAMAGED_SUFFIX})"
        )
        return None
    if salvage.rejected:
        note = rejected_note(path.name, salvage.rejected, salvage.kept)
        warnings.append(
            f"slot {slot!r}: {note} could not be read: left out (the next save keeps them "
            f"in {path.name}{REJECTED_SUFFIX})"
        )
    return saved


def read_life(saves: Path, slot: str, warnings: list[str]) -> Life:
    """The village's life of a slot (each life file of the slot's layout); each file that
    cannot be read is an empty part and a warning. Raises FormatTooNew if a newer game
    wrote one."""
    life = Life()
    for file, model in life_parts():
        saved = _read(slot_path(saves, slot, file.path), model, slot, warnings)
        if isinstance(saved, SavedNews):
            life.news = _news_of(saved)
        elif isinstance(saved, SavedBoards):
            life.boards = _boards_of(saved)
        elif isinstance(saved, SavedFeelings):
            life.feelings = _feelings_of(saved)
    return life


# --- into the world (game thread) ------------------------------------------------------


def apply_life(world: World, life: Life) -> list[str]:
    """Put the village's life of a save in the world (game thread); one-line warnings.

    The map's notice boards stay where the map puts them, with their saved posts; a saved
    notice board the map no longer has is skipped. The objects stay the same (whoever
    holds `world.news` keeps it): only their contents are replaced.
    """
    warnings: list[str] = []
    copy = _copy(life.news, life.boards, life.feelings)
    book = world.news
    book.news, book.known = copy.news.news, copy.news.known
    book.told, book.passes = copy.news.told, copy.news.passes
    world.feelings.of = copy.feelings
    blackboard = world.board
    boards: dict[str, Board] = {}
    for board_id, tile in world.notice_boards.items():
        old = blackboard.boards.get(board_id)
        boards[board_id] = Board(board_id, frozenset({PUBLIC}), old.name if old else board_id, tile)
    gone: list[tuple[str, int]] = []  # notice boards of the save the map does not have
    for board_id, saved in copy.boards.items():
        here = boards.get(board_id)
        if here is not None:
            here.posts, here.count = saved.posts, saved.count
        elif saved.tile is not None:
            gone.append((board_id, len(saved.posts)))
        else:
            boards[board_id] = saved
    if len(gone) == 1:
        warnings.append(
            f"the notice board {gone[0][0]!r} is in the save but not on this map: "
            f"its {gone[0][1]} posts are skipped"
        )
    elif gone:
        warnings.append(
            f"{len(gone):,} notice boards in the save are not on this map "
            f"({name_few([b for b, _ in gone], 'boards')}): their "
            f"{sum(n for _, n in gone):,} posts are skipped"
        )
    blackboard.boards.clear()
    blackboard.boards.update(boards)
    return warnings
