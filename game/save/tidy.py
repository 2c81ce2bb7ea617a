"""Work cut short is put right at the next start: no slot is lost, no temp file stays.

Each step of an import, a delete, a "save as" and an export has a name on disk, so after
a kill at any point the next start (`tidy_saves`, run by every command that opens the
saves) knows what was under way and finishes or undoes it:

    .import-<slot>-<pid>    an import unpacking: incomplete, removed
    .ready-<slot>-<pid>     an import unpacked whole, not yet in place: put in place if
                            the slot is missing (and no old slot waits), else removed
    .trash-<slot>-<pid>     the old slot an import moved aside: put back if the slot is
                            missing, else removed (the new slot is in place)
    .deleted-<slot>-<pid>   a slot being deleted: removed
    .copy-<slot>            a "save as" copying logs: removed
    <slot>/**/*.tmp         an atomic write cut short (the old file is intact): removed
    .exports/<entry>        an export's zip being written beside its target: removed

A leftover is touched only while its slot's lock is free, so the work of a process that
still runs is never undone under it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from game.atomic import fsync_dir, replacing
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
            if free and entry.exists():
                note = _settle(saves, kind, slot, entry)
                if note:
                    notes.append(note)
    for entry in entries:
        if entry.is_dir() and not entry.name.startswith("."):
            _drop_temps(saves, entry)
    _drop_exports(saves)
    for note in notes:
        log.warning("%s", note)
    return notes


def _settle(saves: Path, kind: str, slot: str, entry: Path) -> str | None:
    target = saves / slot
    if kind in ("trash", "ready") and not target.exists():
        os.replace(entry, target)
        fsync_dir(saves)
        which = "the slot as it was before" if kind == "trash" else "the imported slot"
        return f"slot {slot!r}: an import was cut short; restored {which}"
    shutil.rmtree(entry, ignore_errors=True)
    return None


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
        lock = SlotLock(saves, slot, "a tidy-up").acquire()
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
    in `<saves>/.exports/` while it is written, so a kill leaves nothing behind for long."""
    journal = Path(saves) / EXPORTS_DIR
    with replacing(archive) as tmp:
        journal.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=journal, suffix=".export")
        try:
            _lock_fd(fd)
            os.write(fd, os.fsencode(str(tmp.absolute())))
            yield tmp
        finally:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(name)


def _drop_exports(saves: Path) -> None:
    journal = saves / EXPORTS_DIR
    try:
        entries = list(journal.iterdir())
    except OSError:
        return
    for entry in entries:
        try:
            fd = os.open(entry, os.O_RDWR)
        except OSError:
            continue
        try:
            if not _lock_fd(fd, wait=False):
                continue  # its export still runs
            tmp = Path(os.fsdecode(os.read(fd, 4096)))
            if _TMP.fullmatch(tmp.name):
                with contextlib.suppress(OSError):
                    tmp.unlink()
            with contextlib.suppress(OSError):
                entry.unlink()
        finally:
            os.close(fd)


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
