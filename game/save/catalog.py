"""Managing slots as a whole: list, inspect, delete, and copy for "save as" (export and
import: `game.save.transfer`).

Used by the `saves` sub-command and the in-game load list. Every failure is a
`SaveError` with a one-line message; a damaged slot still lists (with its problem), and
one bad slot never hides or harms the others.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path

from game.agent.store import SessionStore
from game.atomic import fsync_dir
from game.files import os_reason, read_capped
from game.paths import (
    META_FILE,
    NPCS_DIR,
    THUMBNAIL_FILE,
    UnsafePath,
    check_inside,
    check_tree,
    npc_events_file,
    slot_dir,
    slot_path,
    validate_id,
)
from game.safe_json import load_json
from game.save.archive import discard
from game.save.errors import SaveError, SlotExists, SlotNotFound
from game.save.layout import bound_of, slot_files
from game.save.lock import holding
from game.save.slot_io import read_slot

__all__ = [
    "SlotInfo",
    "copy_npc_files",
    "count_events",
    "delete_slot",
    "list_slots",
    "new_slot_id",
    "npc_event_counts",
    "slot_info",
]

_CHUNK = 1024 * 1024


@dataclass
class SlotInfo:
    """One slot as the load list and `saves list` show it; `error` if it cannot be loaded."""

    slot: str
    path: Path
    name: str = ""
    created: float = 0.0
    updated: float = 0.0
    play_time_s: float = 0.0
    npc_count: int = 0
    format: int | None = None
    map_id: str = ""
    player_name: str = ""
    thumbnail: Path | None = None
    warnings: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def loadable(self) -> bool:
        """Whether the game can load this slot."""
        return self.error is None


def slot_info(saves: Path, slot: str) -> SlotInfo:
    """What is known about one existing slot (SlotNotFound if there is none)."""
    path = slot_dir(saves, validate_id(slot, "slot name"))
    if not (path.is_dir() or path.is_symlink()):
        raise SlotNotFound(f"no slot named {slot!r} in {saves}")
    return _unsafe_info(Path(saves), slot) or _info(Path(saves), slot)


def _unsafe_info(saves: Path, slot: str) -> SlotInfo | None:
    """A slot that is, or holds, a link, FIFO or device, listed as such and never read
    (None for a slot that is only real folders and regular files)."""
    path = slot_dir(saves, slot)
    try:
        check_tree(path)
    except UnsafePath as exc:
        info = SlotInfo(slot, path, name=slot, error=str(exc))
        with contextlib.suppress(OSError):
            info.updated = path.lstat().st_mtime
        return info
    except OSError:
        return None  # unreadable: reading it says so
    return None


def _info(saves: Path, slot: str) -> SlotInfo:
    path = slot_dir(saves, slot)
    info = SlotInfo(slot, path, name=slot)
    try:
        data = read_slot(saves, slot)
    except SaveError as exc:
        info.error = str(exc)
        info.format = _declared_format(slot_path(saves, slot, META_FILE))
        with contextlib.suppress(OSError):
            info.updated = path.stat().st_mtime
        return info
    meta = data.meta
    info.name = meta.name or slot
    info.created, info.updated = meta.created, meta.updated
    info.play_time_s = meta.play_time_s
    info.map_id = meta.map_id
    info.player_name = meta.player_name
    info.format = 0 if data.migrated_from == 0 else meta.format
    sessions = _session_ids(saves, slot)
    info.npc_count = meta.npc_count or len(sessions)
    if not info.updated:
        with contextlib.suppress(OSError):
            info.updated = path.stat().st_mtime
    thumb = slot_path(saves, slot, THUMBNAIL_FILE)
    info.thumbnail = thumb if thumb.is_file() else None
    info.warnings = list(data.warnings)
    return info


def _declared_format(meta_path: Path) -> int | None:
    try:
        value = load_json(read_capped(meta_path, bound_of(META_FILE))).get("format")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, int) else None


def list_slots(saves: Path) -> list[SlotInfo]:
    """Every slot under `saves`, most recently saved first (damaged ones included)."""
    saves = Path(saves)
    try:
        children = list(saves.iterdir())
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise SaveError(f"cannot read the saves directory {saves}: {os_reason(exc)}") from None
    infos: list[SlotInfo] = []
    for child in children:
        try:
            validate_id(child.name, "slot name")
            mode = child.lstat().st_mode
        except (ValueError, OSError):
            continue  # not a slot: temp dirs, stray files, other programs' things
        if stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
            infos.append(_unsafe_info(saves, child.name) or _info(saves, child.name))
    infos.sort(key=lambda i: (-i.updated, i.slot))
    return infos


def _session_ids(saves: Path, slot: str) -> list[str]:
    npcs = slot_path(saves, slot, NPCS_DIR)
    found: list[str] = []
    with contextlib.suppress(OSError):
        for child in sorted(npcs.iterdir()):
            try:
                validate_id(child.name, "NPC id")
            except ValueError:
                continue
            events = npc_events_file(saves, slot, child.name)
            with contextlib.suppress(OSError):
                check_inside(saves, events)  # counted only through real folders
                if events.is_file():
                    found.append(child.name)
    return found


def count_events(path: Path) -> int:
    """Complete lines of a JSONL file, counted in chunks (any size, little memory)."""
    count = 0
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            count += chunk.count(b"\n")
    return count


def npc_event_counts(saves: Path, slot: str) -> dict[str, int]:
    """Events in each NPC's log of a slot (-1 where a log cannot be read)."""
    validate_id(slot, "slot name")
    counts: dict[str, int] = {}
    for npc_id in _session_ids(saves, slot):
        try:
            counts[npc_id] = count_events(npc_events_file(saves, slot, npc_id))
        except OSError:
            counts[npc_id] = -1
    return counts


def new_slot_id(saves: Path, prefix: str = "save") -> str:
    """The first free slot id `prefix-N`."""
    n = 1
    while os.path.lexists(slot_dir(saves, validate_id(f"{prefix}-{n}", "slot name"))):
        n += 1
    return f"{prefix}-{n}"


def delete_slot(saves: Path, slot: str) -> None:
    """Delete a slot and everything in it (SlotNotFound, or SaveError if the disk refuses)."""
    path = slot_dir(saves, validate_id(slot, "slot name"))
    if not path.exists() and not path.is_symlink():
        raise SlotNotFound(f"no slot named {slot!r} in {saves}")
    if path.is_symlink() or not path.is_dir():
        raise SaveError(f"{path} is not a save slot (not a directory): delete it by hand")
    trash = path.with_name(f".deleted-{slot}-{os.getpid()}")
    with holding(saves, slot, "saves delete", whole=False):
        try:
            # Rename first: a delete cut short never leaves half a slot that looks loadable
            # (and the next start removes the rest).
            os.replace(path, trash)
            shutil.rmtree(trash)  # removes the links in it, never what they point to
        except OSError as exc:
            raise SaveError(f"could not delete slot {slot!r}: {os_reason(exc)}") from None


def copy_npc_files(saves: Path, source: str, target: str, store: SessionStore) -> None:
    """Copy a slot's NPC logs and summaries into a new slot (a save writes the rest),
    after flushing the source's `store`. SlotExists if the target is there already."""
    store.flush(fsync=True)
    src = slot_dir(saves, source)
    dst = slot_dir(saves, target)
    if os.path.lexists(dst):
        raise SlotExists(f"slot {target!r} exists already")
    tmp = dst.with_name(f".copy-{target}")
    discard(tmp)
    try:
        tmp.mkdir(parents=True)
        # What is not copied, the save after the copy writes itself.
        for rel in slot_files(src, which=lambda f: f.copied) if src.is_dir() else []:
            out = tmp / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / rel, out)
        tmp.rename(dst)
    except BaseException:
        discard(tmp)
        raise
    fsync_dir(dst.parent)
