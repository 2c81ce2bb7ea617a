"""The village's life in a slot: `news.json`, `board.json` and `feelings.json`.

What the villagers know and from whom (`NewsBook`), what stands on the boards
(`Blackboard`) and how each NPC feels about the others (`Feelings`) are world data; a save
keeps them in three files of the slot (format 2 on), each a JSON object with a `format`.

- `snapshot_life(world)` copies them on the game thread (cheap: dicts and lists of frozen
  records are copied, never the records), since the world moves on while the disk write
  happens off the game thread;
- `life_files(life)` turns a copy into the files' bytes (off the game thread);
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

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game.files import mb, os_reason, read_capped
from game.limits import (
    MAX_ID_CHARS,
    MAX_SAVED_IDS,
    MAX_SAVED_NEWS,
    MAX_SAVED_PASSES,
    MAX_SAVED_POSTS,
    MAX_TEXT_CHARS,
)
from game.paths import BOARD_FILE, FEELINGS_FILE, NEWS_FILE, slot_path
from game.safe_json import load_json
from game.save.errors import SaveError
from game.save.format import (
    DAMAGED_SUFFIX,
    FORMAT_VERSION,
    MAX_CLOCK_S,
    REJECTED_SUFFIX,
    Coord,
    Ident,
    Name,
    Short,
    bound_of,
    describe_error,
    migrate,
    name_few,
)
from game.save.salvage import Rejected, Salvage, keep_damaged, keep_rejected, rejected_note
from game.world.board import PUBLIC, Board, Post
from game.world.feelings import Feeling
from game.world.news import Heard, How, News, NewsBook, NewsKind, Pass

if TYPE_CHECKING:
    from game.world.world import World

__all__ = [
    "Life",
    "LifeFile",
    "SavedBoards",
    "SavedFeelings",
    "SavedNews",
    "apply_life",
    "life_files",
    "parse_life",
    "read_life",
    "set_aside",
    "snapshot_life",
]

# Bounds (`game.limits`, the slot section) well past what the world keeps: the records
# past them are set aside, not played; the size bound of each file (4 MB, `FILE_BOUNDS`)
# caps the memory of reading it first.
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Clock = Annotated[float, Field(ge=0.0, le=MAX_CLOCK_S)]
Hour = Annotated[float, Field(ge=0.0, le=24.0)]
_PAIR_CHARS = 2 * MAX_ID_CHARS + 1  # "npc>other"


class _Model(BaseModel):
    # As world.json: unknown fields are ignored, numbers are finite.
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)


class _File(_Model):
    format: int = FORMAT_VERSION

    def to_bytes(self) -> bytes:
        """The file's bytes."""
        return self.model_dump_json(indent=1).encode("utf-8") + b"\n"


# --- news.json -------------------------------------------------------------------------


class SavedNewsItem(_Model):
    """One piece of news (its id is its key in `news`)."""

    kind: NewsKind
    origin: Ident
    origin_name: Name = ""
    subject: Text
    place: Short = ""
    when: Short = ""
    hour: Hour | None = None
    key: Short = ""
    clock: Clock = 0.0


class SavedHeard(_Model):
    """How one character came to know a piece (its id is its key)."""

    source: Ident
    source_name: Name = ""
    clock: Clock = 0.0
    place: Short = ""
    how: How = "told"


class SavedPass(_Model):
    """One pass of a piece of news, for the record."""

    news_id: Ident
    source: Ident
    to: Ident
    clock: Clock = 0.0
    hour: Hour = 0.0
    place: Short = ""
    how: How = "told"


class SavedNews(_File):
    """What `news.json` holds: the `NewsBook`."""

    news: Annotated[dict[Ident, SavedNewsItem], Field(max_length=MAX_SAVED_NEWS)] = Field(
        default_factory=dict
    )
    known: Annotated[
        dict[Ident, Annotated[dict[Ident, SavedHeard], Field(max_length=MAX_SAVED_NEWS)]],
        Field(max_length=MAX_SAVED_IDS),
    ] = Field(default_factory=dict)
    # "npc>other" -> the news ids npc told other
    told: Annotated[
        dict[
            Annotated[str, Field(max_length=_PAIR_CHARS)],
            Annotated[list[Ident], Field(max_length=MAX_SAVED_NEWS)],
        ],
        Field(max_length=MAX_SAVED_IDS),
    ] = Field(default_factory=dict)
    passes: Annotated[list[SavedPass], Field(max_length=MAX_SAVED_PASSES)] = Field(
        default_factory=list
    )


# --- board.json ------------------------------------------------------------------------


class SavedPost(_Model):
    """One message on a board."""

    index: Annotated[int, Field(ge=0)]
    author: Ident
    author_name: Name = ""
    clock: Clock = 0.0
    hour: Hour = 0.0
    about: Ident = ""
    text: Text


class SavedBoard(_Model):
    """One board (its id is its key in `boards`)."""

    participants: Annotated[list[Ident], Field(min_length=1, max_length=MAX_SAVED_IDS)]
    name: Name = ""
    tile: tuple[Coord, Coord] | None = None  # a notice board's place on the map
    posts: Annotated[list[SavedPost], Field(max_length=MAX_SAVED_POSTS)] = Field(
        default_factory=list
    )
    count: Annotated[int, Field(ge=0)] = 0


class SavedBoards(_File):
    """What `board.json` holds: the `Blackboard`."""

    boards: Annotated[dict[Ident, SavedBoard], Field(max_length=MAX_SAVED_IDS)] = Field(
        default_factory=dict
    )


# --- feelings.json ---------------------------------------------------------------------


class SavedFeeling(_Model):
    """One NPC's feeling about one other."""

    value: Annotated[float, Field(ge=-1.0, le=1.0)] = 0.0
    reason: Short = ""
    name: Name = ""
    changes: Annotated[int, Field(ge=0)] = 0
    clock: Clock = 0.0


class SavedFeelings(_File):
    """What `feelings.json` holds: `Feelings.of`."""

    of: Annotated[
        dict[Ident, Annotated[dict[Ident, SavedFeeling], Field(max_length=MAX_SAVED_IDS)]],
        Field(max_length=MAX_SAVED_IDS),
    ] = Field(default_factory=dict)


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
    data: bytes
    rejected: list[Rejected] = field(default_factory=list)


def life_files(life: Life) -> tuple[list[LifeFile], list[str]]:
    """The files of a copy of the village's life, and a warning for each that cannot be
    written as this game reads it (that file is left as it was; never a failed save).

    A record the next load would refuse is left out of its file, not the file."""
    files: list[LifeFile] = []
    warnings: list[str] = []
    for name, data in (
        (NEWS_FILE, _news_data(life.news)),
        (BOARD_FILE, _boards_data(life.boards)),
        (FEELINGS_FILE, _feelings_data(life.feelings)),
    ):
        model, salvage = _model_of(name, {**data, "format": FORMAT_VERSION})
        raw = model.to_bytes()
        if len(raw) > bound_of(name):  # never write what the next load would refuse
            warnings.append(
                f"{name} was not saved ({mb(len(raw))}, more than the "
                f"{mb(bound_of(name))} the game reads)"
            )
            continue
        files.append(LifeFile(name, raw, salvage.rejected))
    return files, warnings


def set_aside(path: Path, left_out: list[Rejected], *, fsync: bool = True) -> str | None:
    """Before a save replaces a life file, keep what it could not read: the file's records
    that do not read and `left_out` (those the save leaves out) go to `<file>.rejected`;
    a file that cannot be read at all is renamed `<file>.damaged`. A one-line note of
    what was kept, or None. Raises OSError (the save then fails, nothing replaced)."""
    notes: list[str] = []
    salvage = Salvage()
    try:
        _, salvage = parse_life(path.name, read_capped(path, bound_of(path.name)))
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
# A file is read whole when it can be; when a record does not read (a piece of news, a
# heard, a told pair, a pass, a board, a post, a feeling), that record is left out, not
# the file.

_IDENT: TypeAdapter[str] = TypeAdapter(Ident)


def _salvage_news(raw: dict[str, Any], s: Salvage) -> SavedNews:
    news = {
        news_id: item
        for news_id, value, at in s.entries(raw.get("news"), "news", MAX_SAVED_NEWS)
        if (item := s.valid(SavedNewsItem, value, at)) is not None
    }
    known: dict[str, dict[str, SavedHeard]] = {}
    for npc_id, heard, at in s.entries(raw.get("known"), "known", MAX_SAVED_IDS):
        kept = {
            news_id: h
            for news_id, value, where in s.entries(heard, at, MAX_SAVED_NEWS)
            if (h := s.valid(SavedHeard, value, where)) is not None
        }
        if kept:
            known[npc_id] = kept
    told: dict[str, list[str]] = {}
    for pair, ids, at in s.entries(raw.get("told"), "told", MAX_SAVED_IDS, _PAIR_CHARS):
        kept_ids = [
            news_id
            for value, where in s.items(ids, at, MAX_SAVED_NEWS)
            if (news_id := s.value(_IDENT, value, where)) is not None
        ]
        if kept_ids:
            told[pair] = kept_ids
    passes = [
        p
        for value, at in s.items(raw.get("passes"), "passes", MAX_SAVED_PASSES)
        if (p := s.valid(SavedPass, value, at)) is not None
    ]
    return SavedNews(news=news, known=known, told=told, passes=passes)


def _salvage_boards(raw: dict[str, Any], s: Salvage) -> SavedBoards:
    boards: dict[str, SavedBoard] = {}
    for board_id, value, at in s.entries(raw.get("boards"), "boards", MAX_SAVED_IDS):
        # The board itself first (who may use it, where it stands), then each post.
        head = s.valid(
            SavedBoard, {**value, "posts": []} if isinstance(value, dict) else value, at,
            record=value,
        )  # fmt: skip
        if head is None:
            continue
        posts = [
            post
            for item, where in s.items(value.get("posts"), f"{at}.posts", MAX_SAVED_POSTS)
            if (post := s.valid(SavedPost, item, where)) is not None
        ]
        boards[board_id] = head.model_copy(update={"posts": posts})
    return SavedBoards(boards=boards)


def _salvage_feelings(raw: dict[str, Any], s: Salvage) -> SavedFeelings:
    of: dict[str, dict[str, SavedFeeling]] = {}
    for npc_id, feelings, at in s.entries(raw.get("of"), "of", MAX_SAVED_IDS):
        kept = {
            other: f
            for other, value, where in s.entries(feelings, at, MAX_SAVED_IDS)
            if (f := s.valid(SavedFeeling, value, where)) is not None
        }
        if kept:
            of[npc_id] = kept
    return SavedFeelings(of=of)


_WHOLE: dict[str, type[_File]] = {
    NEWS_FILE: SavedNews,
    BOARD_FILE: SavedBoards,
    FEELINGS_FILE: SavedFeelings,
}
_SALVAGE: dict[str, Callable[[dict[str, Any], Salvage], _File]] = {
    NEWS_FILE: _salvage_news,
    BOARD_FILE: _salvage_boards,
    FEELINGS_FILE: _salvage_feelings,
}


def _model_of(name: str, data: dict[str, Any]) -> tuple[_File, Salvage]:
    """A life file's model from its data (current format), record by record when the
    whole does not read; and what was left out."""
    salvage = Salvage()
    try:
        return _WHOLE[name].model_validate(data), salvage
    except ValidationError:
        return _SALVAGE[name](data, salvage), salvage


def parse_life(name: str, raw_bytes: bytes) -> tuple[_File, Salvage]:
    """The model of one life file (`news.json`, `board.json`, `feelings.json`), and its
    records that did not read (left out of the model).

    ValueError when the file cannot be read at all (not UTF-8 JSON, nested too deep, not
    an object, a bad format); FormatTooNew when a newer game wrote it.
    """
    raw = load_json(raw_bytes.decode("utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
    raw, _ = migrate(name.removesuffix(".json"), raw)
    return _model_of(name, raw)


def _news_of(saved: SavedNews) -> NewsBook:
    news = {
        news_id: News(
            news_id, n.kind, n.origin, n.origin_name, n.subject, n.place, n.when, n.hour,
            n.key, n.clock,
        )
        for news_id, n in saved.news.items()
    }  # fmt: skip
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


def _read(path: Path, slot: str, warnings: list[str]) -> _File | None:
    try:
        model, salvage = parse_life(path.name, read_capped(path, bound_of(path.name)))
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
    return model


def read_life(saves: Path, slot: str, warnings: list[str]) -> Life:
    """The village's life of a slot; each file that cannot be read is an empty part and a
    warning. Raises FormatTooNew if a newer game wrote one."""
    life = Life()
    news = _read(slot_path(saves, slot, NEWS_FILE), slot, warnings)
    if isinstance(news, SavedNews):
        life.news = _news_of(news)
    boards = _read(slot_path(saves, slot, BOARD_FILE), slot, warnings)
    if isinstance(boards, SavedBoards):
        life.boards = _boards_of(boards)
    feelings = _read(slot_path(saves, slot, FEELINGS_FILE), slot, warnings)
    if isinstance(feelings, SavedFeelings):
        life.feelings = _feelings_of(feelings)
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
