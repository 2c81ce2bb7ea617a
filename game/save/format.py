"""The save format: the models of `world.json` and `meta.json`, versions, migrations.

A slot is a directory (see `saves/README.md` in the repository for the full picture); the
files it may hold, and what each is, are declared once in `game.save.layout`. What a save
could not read is kept beside it as `<file>.damaged` or `<file>.rejected` (never exported).

`FORMAT_VERSION` grows when a file changes incompatibly. A slot of an older format is
migrated on load (in memory; the next save writes the current format); a slot of a newer
format is refused with a message that says so.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game.errors import GameError
from game.limits import (
    MAX_CLOCK_S,
    MAX_COORD,
    MAX_DAY_MINUTES,
    MAX_ID_CHARS,
    MAX_NAME_CHARS,
    MAX_PATH_CHARS,
    MAX_SAVED_IDS,
    MAX_SHORT_CHARS,
    MAX_UNIX_TIME,
    MAX_WARNINGS_NAMED,
)
from game.save.errors import FormatTooNew

__all__ = [
    "BACKUP_SUFFIX",
    "DAMAGED_SUFFIX",
    "FORMAT_VERSION",
    "MAX_CLOCK_S",
    "MAX_DAY_MINUTES",
    "REJECTED_SUFFIX",
    "Coord",
    "EntityState",
    "Facing",
    "Ident",
    "Name",
    "NpcState",
    "PlayerState",
    "SavedWorld",
    "Short",
    "SlotMeta",
    "check_format",
    "describe_error",
    "migrate",
    "name_few",
]

FORMAT_VERSION = 2
BACKUP_SUFFIX = ".bak"
# What a file the game could not read becomes before a save replaces it (never exported):
# `<file>.damaged` a whole file, `<file>.rejected` the records of one it read in part.
DAMAGED_SUFFIX = ".damaged"
REJECTED_SUFFIX = ".rejected"

# Every bound below is `game.limits`'s (the slot section).
Facing = Literal["up", "down", "left", "right"]
Coord = Annotated[int, Field(ge=-MAX_COORD, le=MAX_COORD)]
Seconds = Annotated[float, Field(ge=0.0, le=MAX_CLOCK_S)]
Minutes = Annotated[float, Field(ge=0.0, le=MAX_DAY_MINUTES)]
UnixTime = Annotated[float, Field(ge=0.0, le=MAX_UNIX_TIME)]
Ident = Annotated[str, Field(max_length=MAX_ID_CHARS)]  # an NPC, "player", a news or board id
Name = Annotated[str, Field(max_length=MAX_NAME_CHARS)]
Short = Annotated[str, Field(max_length=MAX_SHORT_CHARS)]  # a place, a when, a key, a map id
MapPath = Annotated[str, Field(max_length=MAX_PATH_CHARS)]


class _Model(BaseModel):
    # Unknown fields are ignored: a later game may add fields without a new format.
    # Numbers are finite: NaN and infinity mean a damaged file.
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)


class EntityState(_Model):
    """Where one character stands and which way it looks."""

    tile: tuple[Coord, Coord]
    facing: Facing = "down"


class PlayerState(EntityState):
    """The player: position, facing and name."""

    name: Name = "Traveller"


class NpcState(EntityState):
    """One NPC's position and facing."""


class SavedWorld(_Model):
    """What `world.json` holds: everything of the world a save restores."""

    format: int = FORMAT_VERSION
    map_id: Short
    map_file: MapPath = ""  # the map's path when saved, for "play it with --map ..."
    clock: Seconds = 0.0
    # The time of day: game minutes since 8 am of day 1 (`DayClock.minutes`; 0 is 8 am).
    # The length of a day is a setting, not saved.
    time_minutes: Minutes = 0.0
    player: PlayerState
    npcs: Annotated[dict[Ident, NpcState], Field(max_length=MAX_SAVED_IDS)] = Field(
        default_factory=dict
    )
    # The last seq of each NPC's log that this save covers (flushed and fsynced before).
    sessions: Annotated[
        dict[Ident, Annotated[int, Field(ge=0)]], Field(max_length=MAX_SAVED_IDS)
    ] = Field(default_factory=dict)
    saved_at: UnixTime = 0.0

    def to_bytes(self) -> bytes:
        """The `world.json` bytes."""
        return self.model_dump_json(indent=1).encode("utf-8") + b"\n"


class SlotMeta(_Model):
    """What `meta.json` holds: what the load list and `saves list` show."""

    format: int = FORMAT_VERSION
    name: Name = ""
    created: UnixTime = 0.0
    updated: UnixTime = 0.0
    play_time_s: Seconds = 0.0
    map_id: Short = ""
    map_file: MapPath = ""
    npc_count: Annotated[int, Field(ge=0)] = 0
    player_name: Name = ""
    game_version: Short = ""

    def to_bytes(self) -> bytes:
        """The `meta.json` bytes."""
        return self.model_dump_json(indent=1).encode("utf-8") + b"\n"

    @classmethod
    def fresh(cls, name: str, map_id: str = "", map_file: str = "") -> SlotMeta:
        """The meta of a slot that was never saved."""
        now = time.time()
        map_file = map_file if len(map_file) <= MAX_PATH_CHARS else ""  # only a hint
        return cls(name=name, created=now, updated=now, map_id=map_id, map_file=map_file)


def check_format(version: int, what: str) -> None:
    """Raise FormatTooNew if `version` is newer than this game reads."""
    if version > FORMAT_VERSION:
        raise FormatTooNew(
            f"{what} was saved by a newer version of the game (save format {version}; this "
            f"game reads formats up to {FORMAT_VERSION}): update the game to load it"
        )


def describe_error(exc: BaseException) -> str:
    """A short one-line reason for a parse failure."""
    if isinstance(exc, ValidationError):
        errors = exc.errors()
        if errors:
            first = errors[0]
            loc = ".".join(str(p) for p in first.get("loc", ())) or "value"
            return f"{loc}: {first.get('msg')}"
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def name_few(names: list[str], what: str) -> str:
    """Many names in one line: "'a', 'b', 'c' and 199,997 more NPCs" (`what` plural);
    each name cut to 40 characters."""
    shown = ", ".join(repr(n if len(n) <= 40 else n[:39] + "…") for n in names[:MAX_WARNINGS_NAMED])
    rest = len(names) - MAX_WARNINGS_NAMED
    return f"{shown} and {rest:,} more {what}" if rest > 0 else shown


# --- migrations ------------------------------------------------------------------------
# Each entry upgrades the parsed JSON of one file from version N to N + 1. Format 0 is a
# slot of the first playable version: NPC logs only, no meta.json and no world.json, so
# its migration only stamps the version (defaults fill the rest). Format 2 added the time
# of day to world.json and the files of the village's life (news.json, board.json,
# feelings.json: a slot of format 1 has none, which loads as an empty village life).

Migration = Callable[[str, dict[str, Any]], dict[str, Any]]


def _from_0(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "format": 1}


def _from_1(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    if kind == "world":
        # Clock 0 is 8 am: a slot saved before there was a time of day loads in the morning.
        return {**data, "format": 2, "time_minutes": 0.0}
    return {**data, "format": 2}


MIGRATIONS: dict[int, Migration] = {0: _from_0, 1: _from_1}


def migrate(kind: str, data: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """Upgrade the JSON of one file (`meta`, `world`, `news`, `board`, `feelings`) to the
    current format; (data, old version)."""
    version = data.get("format", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise _BadFormat(f"format: expected a whole number, got {version!r}")
    check_format(version, f"{kind}.json")
    old = version if version < FORMAT_VERSION else None
    while version < FORMAT_VERSION:
        data = MIGRATIONS[version](kind, data)
        version += 1
        data["format"] = version
    return data, old


class _BadFormat(GameError, ValueError):
    """A `format` field that is not a version number."""
