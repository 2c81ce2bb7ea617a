"""The models of the village's life files (`news.json`, `board.json`, `feelings.json`),
and reading them record by record.

A file is read whole when it can be; when a record does not read (a piece of news, a
heard, a told pair, a pass, a board, a post, a feeling), that record is left out, not the
file, and named in the `Salvage` that comes back with the model. A save runs its own
data through the same reader, so it never writes a record its load would refuse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game.limits import (
    MAX_ID_CHARS,
    MAX_SAVED_IDS,
    MAX_SAVED_NEWS,
    MAX_SAVED_PASSES,
    MAX_SAVED_POSTS,
    MAX_TEXT_CHARS,
)
from game.safe_json import load_json
from game.save.format import FORMAT_VERSION, MAX_CLOCK_S, Coord, Ident, Name, Short, migrate
from game.save.salvage import Salvage
from game.world.news import How, NewsKind

__all__ = [
    "LifeModel",
    "SavedBoard",
    "SavedBoards",
    "SavedFeeling",
    "SavedFeelings",
    "SavedHeard",
    "SavedNews",
    "SavedNewsItem",
    "SavedPass",
    "SavedPost",
    "model_of",
    "parse_life",
]

# Bounds (`game.limits`, the slot section) well past what the world keeps: the records
# past them are set aside, not played; the size bound of each file (4 MB, `SLOT_FILE_BYTES`)
# caps the memory of reading it first.
Text = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
Clock = Annotated[float, Field(ge=0.0, le=MAX_CLOCK_S)]
Hour = Annotated[float, Field(ge=0.0, le=24.0)]
_PAIR_CHARS = 2 * MAX_ID_CHARS + 1  # "npc>other"


class _Model(BaseModel):
    # As world.json: unknown fields are ignored, numbers are finite.
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)


class LifeModel(_Model):
    """A life file: its format, and its bytes as a save writes them."""

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


class SavedNews(LifeModel):
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


class SavedBoards(LifeModel):
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


class SavedFeelings(LifeModel):
    """What `feelings.json` holds: `Feelings.of`."""

    of: Annotated[
        dict[Ident, Annotated[dict[Ident, SavedFeeling], Field(max_length=MAX_SAVED_IDS)]],
        Field(max_length=MAX_SAVED_IDS),
    ] = Field(default_factory=dict)


# --- reading, record by record ---------------------------------------------------------
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
            SavedBoard,
            {**value, "posts": []} if isinstance(value, dict) else value,
            at,
            record=value,
        )
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


# Each life file's record-by-record reader, by its model (`game.save.layout` says which
# file is read into which model).
_SALVAGE: dict[type[LifeModel], Callable[[dict[str, Any], Salvage], LifeModel]] = {
    SavedNews: _salvage_news,
    SavedBoards: _salvage_boards,
    SavedFeelings: _salvage_feelings,
}


def model_of(model: type[LifeModel], data: dict[str, Any]) -> tuple[LifeModel, Salvage]:
    """A life file's `model` from its data (current format), record by record when the
    whole does not read; and what was left out."""
    salvage = Salvage()
    try:
        return model.model_validate(data), salvage
    except ValidationError:
        return _SALVAGE[model](data, salvage), salvage


def parse_life(name: str, model: type[LifeModel], raw_bytes: bytes) -> tuple[LifeModel, Salvage]:
    """The `model` of the life file `name` (`news.json`, `board.json`, `feelings.json`),
    and its records that did not read (left out of the model).

    ValueError when the file cannot be read at all (not UTF-8 JSON, nested too deep, not
    an object, a bad format); FormatTooNew when a newer game wrote it.
    """
    raw = load_json(raw_bytes.decode("utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
    raw, _ = migrate(name.removesuffix(".json"), raw)
    return model_of(model, raw)
