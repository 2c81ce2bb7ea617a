"""Where the game keeps its files, and the one rule every slot and NPC id must obey.

Ids become directory names inside the save slot, so they are validated against
`[a-z0-9_-]{1,64}` before any path is built: no id can escape the slot directory.

Every path inside a slot comes from `slot_path` (and the named helpers built on it), with
the names of the slot's layout below (`saves/README.md` documents the format):

    <saves>/<slot>/world.json, meta.json, thumbnail.png, world_summary.txt
    <saves>/<slot>/news.json, board.json, feelings.json
    <saves>/<slot>/npcs/<npc_id>/session/events.jsonl, state.json
    <saves>/<slot>/npcs/<npc_id>/memory/summary.txt
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from game import APP_NAME
from game.errors import GameError

__all__ = [
    "APP_NAME",
    "BOARD_FILE",
    "DEFAULT_SLOT",
    "EVENTS_FILE",
    "FEELINGS_FILE",
    "HOME_MAP_ID",
    "MEMORY_DIR",
    "META_FILE",
    "NEWS_FILE",
    "NPCS_DIR",
    "SESSION_DIR",
    "STATE_FILE",
    "SUMMARY_FILE",
    "THUMBNAIL_FILE",
    "WORLD_FILE",
    "WORLD_SUMMARY_FILE",
    "InvalidId",
    "default_slot",
    "npc_events_file",
    "npc_memory_file",
    "npc_path",
    "npc_session_dir",
    "npc_state_file",
    "saves_dir",
    "slot_dir",
    "slot_path",
    "slug_id",
    "user_cache_dir",
    "user_config_dir",
    "user_data_dir",
    "validate_id",
]

SAVES_ENV = "NPC_VILLAGE_SAVES_DIR"
ID_RULE = "[a-z0-9_-]{1,64}"
_ID_RE = re.compile(r"[a-z0-9_-]{1,64}")
HOME_MAP_ID = "village"  # the map the game ships (maps/village.tmx)
DEFAULT_SLOT = "default"  # the home map's slot when none is named

# The layout of a slot: the only names `slot_path` is given.
WORLD_FILE = "world.json"
META_FILE = "meta.json"
THUMBNAIL_FILE = "thumbnail.png"
WORLD_SUMMARY_FILE = "world_summary.txt"
NEWS_FILE = "news.json"  # the village's news: who knows what, from whom
BOARD_FILE = "board.json"  # the boards and their posts
FEELINGS_FILE = "feelings.json"  # how each NPC feels about the others
NPCS_DIR = "npcs"
SESSION_DIR = "session"
EVENTS_FILE = "events.jsonl"
STATE_FILE = "state.json"
MEMORY_DIR = "memory"
SUMMARY_FILE = "summary.txt"


class InvalidId(GameError, ValueError):
    """An id that does not match `[a-z0-9_-]{1,64}`."""

    def __init__(self, value: object, what: str = "id") -> None:
        self.value = value
        self.what = what
        super().__init__(
            f"invalid {what} {value!r}: it must match {ID_RULE} "
            "(1 to 64 lowercase letters, digits, '_' or '-')"
        )


def validate_id(value: str, what: str = "id") -> str:
    """Return `value` if it is a valid id, else raise `InvalidId` naming it and the rule."""
    if not isinstance(value, str) or _ID_RE.fullmatch(value) is None:
        raise InvalidId(value, what)
    return value


def slug_id(text: str, fallback: str, length: int = 64) -> str:
    """`text` made into a valid id (lowercase, runs of other characters as one '-', at most
    `length`), or `fallback` when nothing of it is left."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-")[:length].strip("-")
    return slug or fallback


def default_slot(map_id: str) -> str:
    """The slot a map plays in when no `--slot` is given: `default` for the home map (so
    its saves load as they always did), else the map's id made into a slot id."""
    if map_id == HOME_MAP_ID:
        return DEFAULT_SLOT
    slot = slug_id(map_id, "map")
    return f"map-{slot}"[:64] if slot == DEFAULT_SLOT else slot


def user_data_dir() -> Path:
    """The per-user data directory (saves live under it)."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def user_config_dir() -> Path:
    """The per-user configuration directory (config.toml)."""
    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def user_cache_dir() -> Path:
    """The per-user cache directory (downloaded models, caches)."""
    return platformdirs.user_cache_path(APP_NAME, appauthor=False)


def saves_dir(override: Path | None = None) -> Path:
    """The saves root: `override`, else `$NPC_VILLAGE_SAVES_DIR`, else `user_data_dir()/saves`."""
    if override is not None:
        return Path(override)
    env = os.environ.get(SAVES_ENV)
    if env:
        return Path(env).expanduser()
    return user_data_dir() / "saves"


def slot_path(saves: Path, slot: str, *parts: str) -> Path:
    """A path inside save slot `slot` (validated): `<saves>/<slot>/<parts...>`.

    Every path inside a slot is built here. `parts` are names of the layout above; an
    NPC's id goes through `npc_path`, which validates it.
    """
    return Path(saves).joinpath(validate_id(slot, "slot id"), *parts)


def slot_dir(saves: Path, slot: str) -> Path:
    """The directory of save slot `slot` (validated)."""
    return slot_path(saves, slot)


def npc_path(saves: Path, slot: str, npc_id: str, *parts: str) -> Path:
    """A path inside one NPC's directory of a slot: `<slot>/npcs/<npc_id>/<parts...>`."""
    validate_id(slot, "slot id")  # the slot is checked first, as everywhere
    return slot_path(saves, slot, NPCS_DIR, validate_id(npc_id, "NPC id"), *parts)


def npc_session_dir(saves: Path, slot: str, npc_id: str) -> Path:
    """The session directory of one NPC in one slot (both ids validated)."""
    return npc_path(saves, slot, npc_id, SESSION_DIR)


def npc_events_file(saves: Path, slot: str, npc_id: str) -> Path:
    """One NPC's append-only event log in a slot."""
    return npc_path(saves, slot, npc_id, SESSION_DIR, EVENTS_FILE)


def npc_state_file(saves: Path, slot: str, npc_id: str) -> Path:
    """One NPC's `state.json` (a cache of a fold over its log) in a slot."""
    return npc_path(saves, slot, npc_id, SESSION_DIR, STATE_FILE)


def npc_memory_file(saves: Path, slot: str, npc_id: str) -> Path:
    """One NPC's remembered summary in a slot (`memory/summary.txt`)."""
    return npc_path(saves, slot, npc_id, MEMORY_DIR, SUMMARY_FILE)
