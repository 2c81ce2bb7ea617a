"""Work cut short is put right at the next start: no slot is lost, no temp file stays.

Each step of an import, a delete, a "save as" and an export has a name on disk, so after
a kill at any point the next start (`tidy_saves`, run by every command that opens the
saves) knows what was under way and finishes or undoes it:

    .import-<slot>-<pid>    an import unpacking: incomplete, removed
    .ready-<slot>-<pid>     an import unpacked whole, not yet in place: removed (said
                            once if the slot is missing: import it again)
    .trash-<slot>-<pid>     the old slot an import moved aside: put back if the slot is
                            missing, else removed (the new slot is in place)
    .deleted-<slot>-<pid>   a slot being deleted: removed
    .copy-<slot>            a "save as" copying logs: removed
    <slot>/**/*.tmp         an atomic write cut short (the old file is intact): removed
    .exports/<note>         an export's zip being written beside its target: the zip is
                            removed if it is still the file the note names, then the note

A leftover is touched only while its slot's lock is free, so the work of a process that
still runs is never undone under it.

The saves folder may be shared, so a leftover proves nothing: a folder becomes a slot only
through an import's checks (a `.ready-` folder is never put in place, and a `.trash-`
folder only if it is a real folder holding no link), nothing is removed through a link
(`game.paths.remove_tree`), and an export's note removes only a temp file of the game's
naming on the device and inode it was made on, never a file it merely names.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from game.atomic import fsync_dir, replacing
from game.paths import check_inside, check_tree, make_dir, open_inside, remove_tree
from game.save.errors import SaveError
from game.save.lock import SlotLock

__all__ = ["EXPORTS_DIR", "exporting", "tidy_saves"]

log = logging.getLogger(__name__)

EXPORTS_DIR = ".exports"
_LEFTOVER = re.compile(
    r"\.(import|ready|trash|deleted)-([a-z0-9_-]{1,64})-\d+|\.copy-([a-z0-9_-]{1,64})"
)
_ORDER = {"trash": 0, "ready": 1, "import": 2, "deleted": 3, "copy": 4}
_TMP = re.compile(r".+\.[A-Za-z0-9_]+\.tmp")  # atomic.replacing's temp names
_NOTE_SUFFIX = ".export"
_NOTE = re.compile(r"tmp[A-Za-z0-9_]+\.export")  # an export's note: mkstemp's name


def tidy_saves(saves: Path) -> list[str]:
    """Finish or undo what a killed process left in `saves`; one line per repair made."""
    saves = Path(saves)
    try:
        entries = sorted(saves.iterdir())
    except OSError:
        return []  # no saves yet (or unreadable: the command itself will say so)
    notes: list[str] = []
    leftovers: list[tuple[int, str, str, Path]] = []
    for entry in entries:
        match = _LEFTOVER.fullmatch(entry.name)
        if match is not None:
            kind = match.group(1) or "copy"
            slot = match.group(2) or match.group(3)
            leftovers.append((_ORDER[kind], kind, slot, entry))
    for _, kind, slot, entry in sorted(leftovers):
        with _free(saves, slot) as free:
            if free and os.path.lexists(entry):
                note = _settle(saves, kind, slot, entry)
                if note:
                    notes.append(note)
    for entry in entries:
        if not entry.name.startswith(".") and _real_dir(entry):
            _drop_temps(saves, entry)
    _drop_exports(saves)
    for note in notes:
        log.warning("%s", note)
    return notes


def _settle(saves: Path, kind: str, slot: str, entry: Path) -> str | None:
    target = saves / slot
    missing = not os.path.lexists(target)
    if kind == "trash" and missing and _real_dir(entry):  # an import moves folders only
        try:
            check_tree(entry)  # a real folder, no link in it: the slot it was
        except OSError as exc:
            return f"slot {slot!r}: an import was cut short; the old slot was not put back: {exc}"
        os.replace(entry, target)
        fsync_dir(saves)
        return f"slot {slot!r}: an import was cut short; restored the slot as it was before"
    with contextlib.suppress(OSError):
        remove_tree(entry)
    if kind == "ready" and missing:
        return f"slot {slot!r}: an import was cut short before it was done; import it again"
    return None


def _real_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _drop_temps(saves: Path, slot_dir: Path) -> None:
    temps = [p for p in slot_dir.rglob("*.tmp") if _TMP.fullmatch(p.name) and p.is_file()]
    if not temps:
        return
    with _free(saves, slot_dir.name) as free:
        if free:
            for tmp in temps:
                with contextlib.suppress(OSError):
                    tmp.unlink()


@contextlib.contextmanager
def _free(saves: Path, slot: str) -> Iterator[bool]:
    """Whether nobody holds the slot's lock (held by us for the block when free)."""
    try:
        lock = SlotLock(saves, slot, "a tidy-up", whole=False).acquire()
    except (SaveError, ValueError):
        yield False
        return
    try:
        yield True
    finally:
        lock.release()


# --- exports: a zip is written beside its target, wherever that is ---------------------


@contextlib.contextmanager
def exporting(saves: Path, archive: Path) -> Iterator[Path]:
    """A temp path beside `archive` that becomes it on a clean exit (as `replacing`), noted
    in `<saves>/.exports/` while it is written, so a kill leaves nothing behind for long.
    UnsafePath if `.exports` is a link."""
    with replacing(archive) as tmp:
        journal = make_dir(saves, Path(saves) / EXPORTS_DIR)
        fd, name = tempfile.mkstemp(dir=journal, suffix=_NOTE_SUFFIX)
        try:
            _lock_fd(fd)
            made = os.lstat(tmp)
            note = f"{made.st_dev} {made.st_ino} ".encode() + os.fsencode(str(tmp.absolute()))
            os.write(fd, note)
            yield tmp
        finally:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(name)


def _drop_exports(saves: Path) -> None:
    journal = saves / EXPORTS_DIR
    try:
        check_inside(saves, journal)  # a link named .exports is never looked into
        entries = list(journal.iterdir())
    except OSError:
        return
    for entry in entries:
        if not _NOTE.fullmatch(entry.name):
            continue  # not a note of an export: not ours to remove
        try:
            fd = open_inside(saves, entry, os.O_RDWR)
        except OSError:
            continue
        try:
            if not _lock_fd(fd, wait=False):
                continue  # its export still runs
            _drop_export_temp(os.read(fd, 4096))
            with contextlib.suppress(OSError):
                entry.unlink()
        finally:
            os.close(fd)


def _drop_export_temp(note: bytes) -> None:
    """Remove the temp zip a note names if it is still the one the export made: a regular
    file named as temps are, on the device and inode noted (a planted note that names
    any other file removes nothing)."""
    try:
        dev, ino, raw = note.split(b" ", 2)
        tmp = Path(os.fsdecode(raw))
        made = (int(dev), int(ino))
        info = os.lstat(tmp)
    except (ValueError, OSError):
        return
    if (
        tmp.is_absolute()
        and _TMP.fullmatch(tmp.name)
        and stat.S_ISREG(info.st_mode)
        and (info.st_dev, info.st_ino) == made
    ):
        with contextlib.suppress(OSError):
            tmp.unlink()


def _lock_fd(fd: int, *, wait: bool = True) -> bool:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: exports are tidied by their name only
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True
