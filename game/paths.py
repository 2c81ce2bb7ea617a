"""Where the game keeps its files, and the one rule every slot and NPC id must obey.

Ids become directory names inside the save slot, so they are validated against
`[a-z0-9_-]{1,64}` before any path is built: no id can escape the slot directory.

Every path inside a slot comes from `slot_path` (and the named helpers built on it), with
the names of the slot's layout below (`saves/README.md` documents the format):

    <saves>/<slot>/world.json, meta.json, thumbnail.png, world_summary.txt
    <saves>/<slot>/news.json, board.json, feelings.json
    <saves>/<slot>/npcs/<npc_id>/session/events.jsonl, state.json
    <saves>/<slot>/npcs/<npc_id>/memory/summary.txt

The saves folder may be shared (a synced folder, a download, another account's), so
nothing in it is trusted: the game follows no symbolic link below it and opens no FIFO or
device there. `check_inside` and `check_tree` refuse such a path with `UnsafePath`;
`make_dir`, `open_inside` and `remove_tree` create, open and remove without following one.
The saves folder itself may be a link: it is the player's choice, not the folder's.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
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
    "UnsafePath",
    "check_inside",
    "check_tree",
    "default_slot",
    "kind_of",
    "make_dir",
    "npc_events_file",
    "npc_memory_file",
    "npc_path",
    "npc_session_dir",
    "npc_state_file",
    "open_inside",
    "remove_tree",
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


# --- no link followed below the saves folder --------------------------------------------

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class UnsafePath(GameError, OSError):
    """A path below the saves folder that is a symbolic link, or not a regular file or
    folder (an OSError too: every writer of a slot already words a refused write)."""


def kind_of(mode: int) -> str:
    """What a file of `mode` (from lstat) is, for a message: "a symbolic link", "a FIFO"..."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file"


def _refusal(path: Path, mode: int) -> UnsafePath:
    if stat.S_ISLNK(mode):
        return UnsafePath(
            f"{path} is a symbolic link: the game follows no link in a saves folder; remove it"
        )
    kind = kind_of(mode)
    if kind == "a file":
        kind = "a file where a folder belongs"
    return UnsafePath(f"{path} is {kind}, not a save file or folder: remove it")


def check_inside(root: Path, *paths: Path) -> None:
    """UnsafePath unless every existing part of each path below `root` is a real folder
    (the last one may be a regular file): a link there is never followed."""
    for path in paths:
        here = Path(root)
        parts = Path(path).relative_to(root).parts
        for i, part in enumerate(parts):
            here = here / part
            try:
                mode = os.lstat(here).st_mode
            except FileNotFoundError:
                break  # the rest is made by whoever writes it
            if not (stat.S_ISDIR(mode) or (i == len(parts) - 1 and stat.S_ISREG(mode))):
                raise _refusal(here, mode)


def check_tree(folder: Path) -> None:
    """UnsafePath if `folder` (below the saves folder) or anything in it is a symbolic link
    or neither a regular file nor a folder; a missing folder is fine."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(mode):
        raise _refusal(Path(folder), mode)
    stack = [Path(folder)]
    while stack:  # no recursion: a folder nested a million deep costs no stack
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif not entry.is_file(follow_symlinks=False):
                    raise _refusal(Path(entry.path), entry.stat(follow_symlinks=False).st_mode)


def make_dir(root: Path, path: Path) -> Path:
    """`path` below `root` as a real folder, made if missing (and `root` too); UnsafePath
    if a part of it is a link or a file."""
    Path(root).mkdir(parents=True, exist_ok=True)
    check_inside(root, path)
    path.mkdir(parents=True, exist_ok=True)
    check_inside(root, path)  # a link to a folder passes mkdir(exist_ok=True)
    return path


def open_inside(root: Path, path: Path, flags: int, mode: int = 0o644) -> int:
    """A descriptor of the regular file `path` below `root`, opened (with `flags`) without
    following a link and without blocking on a FIFO; UnsafePath for anything else."""
    check_inside(root, path)
    try:
        fd = os.open(path, flags | _NOFOLLOW | _NONBLOCK, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _refusal(path, stat.S_IFLNK) from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise _refusal(path, info.st_mode)
    return fd


def remove_tree(path: Path) -> None:
    """Remove a folder with all it holds, or a file or link itself: never what a link points
    to (`shutil.rmtree` removes the links inside a folder, not their targets). OSError if
    the disk refuses; a missing path is fine."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)
