"""The files of a slot, declared once: `SLOT_FILES`, which every save path iterates.

Each row says where the file sits in the slot, its size bound (`game.limits`), who reads
it and with which model, whether it travels in an export and an import, whether a "save
as" copies it (else the save after the copy writes it) and whether a save keeps the
previous one (`.bak`). Export, the checks of an import, "save as", `read_slot`,
`write_slot`, the bound checked before any read and the slot's table in
`saves/README.md` (`tests/save/test_layout.py`) all come from here: a new file is a row
below, its bound in `game.limits` and its reader.

What a save sets aside (`<file>.damaged`, `<file>.rejected`, `game.save.salvage`) is not a
slot file: it is never exported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from game.limits import SLOT_FILE_BYTES
from game.paths import (
    BOARD_FILE,
    EVENTS_FILE,
    FEELINGS_FILE,
    MEMORY_DIR,
    META_FILE,
    NEWS_FILE,
    NPCS_DIR,
    SESSION_DIR,
    STATE_FILE,
    SUMMARY_FILE,
    THUMBNAIL_FILE,
    WORLD_FILE,
    WORLD_SUMMARY_FILE,
)
from game.save.format import BACKUP_SUFFIX, SavedWorld, SlotMeta
from game.save.life_format import LifeModel, SavedBoards, SavedFeelings, SavedNews

__all__ = [
    "NPC_PART",
    "SLOT_FILES",
    "Reader",
    "SlotFile",
    "bound_of",
    "life_parts",
    "slot_file",
    "slot_files",
]

NPC_PART = "<npc_id>"  # stands for an NPC's id in a path below
_ID = "[a-z0-9_-]{1,64}"  # game.paths.ID_RULE

# Who reads a file: `read_slot` (meta, world, life, text: a summary), the load list
# (image), an NPC's session store (log, cache).
Reader = Literal["meta", "world", "life", "text", "image", "log", "cache"]


@dataclass(frozen=True)
class SlotFile:
    """One file a slot may hold."""

    path: str  # in the slot, '/'-separated; NPC_PART for an NPC's id
    reader: Reader
    about: str  # what it holds, as the slot's table in saves/README.md says
    model: type[BaseModel] | None = None  # the model a JSON file is read into
    exported: bool = True  # export writes it into the zip, import takes it
    copied: bool = False  # "save as" copies it (else the save after the copy writes it)
    backup: bool = False  # a save keeps the previous one as `<path>.bak`

    @property
    def name(self) -> str:
        """The file's own name (what `game.limits.SLOT_FILE_BYTES` bounds)."""
        return self.path.rsplit("/", 1)[-1]

    @property
    def bound(self) -> int:
        """The most bytes the game reads of it (checked before reading)."""
        return SLOT_FILE_BYTES[self.name]

    @property
    def per_npc(self) -> bool:
        """Whether each NPC has one (below `npcs/<npc_id>/`)."""
        return NPC_PART in self.path


def _npc(*parts: str) -> str:
    return "/".join((NPCS_DIR, NPC_PART, *parts))


SLOT_FILES: tuple[SlotFile, ...] = (
    SlotFile(
        META_FILE, "meta", "what the load list shows (format version, dates, play time)", SlotMeta
    ),
    SlotFile(
        WORLD_FILE,
        "world",
        "the world: map id, clock, time of day, player and NPC tiles",
        SavedWorld,
        backup=True,
    ),
    SlotFile(
        NEWS_FILE, "life", "the village's news: who knows what, from whom (format 2)", SavedNews
    ),
    SlotFile(BOARD_FILE, "life", "the boards and their posts (format 2)", SavedBoards),
    SlotFile(
        FEELINGS_FILE,
        "life",
        "how each NPC feels about the player and the others (format 2)",
        SavedFeelings,
    ),
    SlotFile(THUMBNAIL_FILE, "image", "256x144 picture of the screen when it was saved"),
    SlotFile(
        WORLD_SUMMARY_FILE, "text", "optional: injected into every NPC's context", copied=True
    ),
    SlotFile(
        _npc(SESSION_DIR, EVENTS_FILE),
        "log",
        "the NPC's session: append-only, the truth",
        copied=True,
    ),
    SlotFile(
        _npc(SESSION_DIR, STATE_FILE),
        "cache",
        "a cache of a fold over the log (rebuilt when wrong)",
        copied=True,
    ),
    SlotFile(
        _npc(MEMORY_DIR, SUMMARY_FILE),
        "text",
        "optional: injected into that NPC's context",
        copied=True,
    ),
)


@cache
def _pattern(file: SlotFile) -> re.Pattern[str]:
    """What the relative paths of `file` look like (its `.bak` too)."""
    path = re.escape(file.path).replace(re.escape(NPC_PART), _ID)
    return re.compile(path + (f"(?:{re.escape(BACKUP_SUFFIX)})?" if file.backup else ""))


def slot_file(rel: str) -> SlotFile | None:
    """The row of a file by its path in the slot ('/'-separated), or None: not a slot file."""
    for file in SLOT_FILES:
        if _pattern(file).fullmatch(rel):
            return file
    return None


def bound_of(rel: str) -> int:
    """The size bound of a slot file by its path in the slot (`world.json.bak` is a world);
    KeyError for a path that is no slot file."""
    file = slot_file(rel)
    if file is None:
        raise KeyError(rel)
    return file.bound


def life_parts() -> list[tuple[SlotFile, type[LifeModel]]]:
    """The files of the village's life (news, boards, feelings), each with its model."""
    parts: list[tuple[SlotFile, type[LifeModel]]] = []
    for file in SLOT_FILES:
        if file.reader != "life":
            continue
        if file.model is None or not issubclass(file.model, LifeModel):
            raise TypeError(f"{file.path}: the model of a life file is a LifeModel")
        parts.append((file, file.model))
    return parts


def slot_files(path: Path, *, which: Callable[[SlotFile], bool] | None = None) -> list[str]:
    """The save files of a slot directory (relative, '/'-separated): those `which` picks of
    the slot's layout, by default those an export writes; anything else is left."""
    files: list[str] = []
    for file in sorted(path.rglob("*")):
        rel = file.relative_to(path).as_posix()
        if not file.is_file() or file.is_symlink():
            continue
        kind = slot_file(rel)
        if kind is not None and (kind.exported if which is None else which(kind)):
            files.append(rel)
    return files
