"""Where the game keeps its files, and the one rule every slot and NPC id must obey.

Ids become directory names inside the save slot, so they are validated against
`[a-z0-9_-]{1,64}` before any path is built: no id can escape the slot directory.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from game import APP_NAME

__all__ = [
    "APP_NAME",
    "InvalidId",
    "npc_session_dir",
    "saves_dir",
    "slot_dir",
    "user_cache_dir",
    "user_config_dir",
    "user_data_dir",
    "validate_id",
]

SAVES_ENV = "NPC_VILLAGE_SAVES_DIR"
ID_RULE = "[a-z0-9_-]{1,64}"
_ID_RE = re.compile(r"[a-z0-9_-]{1,64}")


class InvalidId(ValueError):
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


def slot_dir(saves: Path, slot: str) -> Path:
    """The directory of save slot `slot` (validated)."""
    return Path(saves) / validate_id(slot, "slot id")


def npc_session_dir(saves: Path, slot: str, npc_id: str) -> Path:
    """The session directory of one NPC in one slot (both ids validated)."""
    return slot_dir(saves, slot) / "npcs" / validate_id(npc_id, "NPC id") / "session"
