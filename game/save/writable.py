"""Whether a slot can be written, asked before play or a turn begins.

A slot folder that someone made read-only (or that sits on a read-only file system) is
refused in one line before anything is played or asked of a model, instead of being
found out by the save on quit, after the play, or by a turn whose log cannot be kept.
What exists is checked: the slot's folder (else the folder it would be made in), its
`npcs` folder, each NPC's folder with its `session` and `memory` folders, and each log,
which is appended to in place. Everything else is written by replacing, which needs only
its folder.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from game.limits import MAX_MAP_NPCS
from game.paths import EVENTS_FILE, MEMORY_DIR, NPCS_DIR, SESSION_DIR, slot_dir
from game.save.errors import SaveError

__all__ = ["check_writable"]


def check_writable(saves: Path, slot: str) -> None:
    """A SaveError, one line, naming the first folder or log of `slot` the game could not
    write; None when all of them can be."""
    root = slot_dir(saves, slot)
    if not root.is_dir():  # a new slot: made in the nearest folder that exists
        _check(saves, slot, _nearest(root), folder=True)
        return
    _check(saves, slot, root, folder=True)
    npcs = root / NPCS_DIR
    if not npcs.is_dir():
        return
    _check(saves, slot, npcs, folder=True)
    with os.scandir(npcs) as entries:
        # No map has more NPCs: entries past them are never written either.
        for entry in itertools.islice(entries, MAX_MAP_NPCS):
            if not entry.is_dir(follow_symlinks=False):
                continue
            npc = Path(entry.path)
            _check(saves, slot, npc, folder=True)
            for sub in (SESSION_DIR, MEMORY_DIR):
                if (npc / sub).is_dir():
                    _check(saves, slot, npc / sub, folder=True)
            events = npc / SESSION_DIR / EVENTS_FILE
            if events.is_file():
                _check(saves, slot, events, folder=False)


def _nearest(path: Path) -> Path:
    """The nearest folder of `path`'s parents that exists."""
    for parent in path.parents:
        if parent.is_dir():
            return parent
    return Path(path.anchor or ".")


def _check(saves: Path, slot: str, path: Path, *, folder: bool) -> None:
    mode = os.W_OK | os.X_OK if folder else os.W_OK
    if os.access(path, mode):
        return
    reason = "permission denied"
    if hasattr(os, "statvfs") and os.statvfs(path).f_flag & os.ST_RDONLY:
        reason = "the file system is read-only"
    raise SaveError(
        f"cannot write slot {slot!r}: {reason} ({path}): make it writable, "
        "or choose another slot with --slot"
    )
