"""Managing slots as a whole: list, inspect, delete, export to zip, import from zip.

Used by the `saves` sub-command and the in-game load list. Every failure is a
`SaveError` with a one-line message; a damaged slot still lists (with its problem), and
one bad slot never hides or harms the others.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from game.agent.store import SessionStore
from game.atomic import fsync_dir
from game.files import mb, os_reason, read_capped
from game.limits import MAX_IMPORT_BYTES, MAX_REJECTED_BYTES
from game.paths import (
    NPCS_DIR,
    UnsafePath,
    check_inside,
    check_tree,
    npc_events_file,
    slot_dir,
    slot_path,
    validate_id,
)
from game.safe_json import load_json
from game.save.archive import check_target, discard, open_zip, unpack
from game.save.errors import ArchiveError, SaveError, SlotExists, SlotNotFound, TooLarge
from game.save.format import (
    BACKUP_SUFFIX,
    LIFE_FILES,
    META_FILE,
    REJECTED_SUFFIX,
    SLOT_FILE_RE,
    THUMBNAIL_FILE,
    WORLD_FILE,
    SlotMeta,
    bound_of,
    check_format,
    describe_error,
    migrate,
    name_few,
)
from game.save.life_format import parse_life
from game.save.lock import holding
from game.save.salvage import LogCopy
from game.save.slot_io import parse_world, read_slot
from game.save.tidy import exporting

__all__ = [
    "MAX_IMPORT_BYTES",
    "SlotInfo",
    "copy_npc_files",
    "count_events",
    "delete_slot",
    "export_slot",
    "import_slot",
    "list_slots",
    "new_slot_id",
    "npc_event_counts",
    "slot_files",
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


def slot_files(path: Path) -> list[str]:
    """The save files of a slot directory (relative, '/'-separated); anything else is left."""
    files: list[str] = []
    for file in sorted(path.rglob("*")):
        rel = file.relative_to(path).as_posix()
        if file.is_file() and not file.is_symlink() and SLOT_FILE_RE.fullmatch(rel):
            files.append(rel)
    return files


def export_slot(saves: Path, slot: str, archive: Path, *, force: bool = False) -> list[str]:
    """Write a slot's files into a zip (members `<slot>/...`); returns what was written."""
    path = slot_dir(saves, validate_id(slot, "slot name"))
    if not path.is_dir():
        raise SlotNotFound(f"no slot named {slot!r} in {saves}")
    archive = Path(archive)
    check_target(Path(saves), archive, force=force)
    # No turn appends while the zip is written; a slot holding a link is refused.
    with holding(saves, slot, "saves export"):
        files = slot_files(path)
        try:
            with (
                exporting(saves, archive) as tmp,
                zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf,
            ):
                for rel in files:
                    zf.write(path / rel, f"{slot}/{rel}")
        except UnsafePath as exc:
            raise SaveError(f"could not write {archive}: {exc}") from None
        except OSError as exc:
            raise SaveError(f"could not write {archive}: {os_reason(exc)}") from None
    return files


def _member_path(name: str) -> str:
    """The member's path, or ArchiveError if it could land outside the slot."""
    if "\\" in name or "\x00" in name:
        raise ArchiveError(f"refusing the archive: member {name!r} has an unsafe name")
    pure = PurePosixPath(name)
    if pure.is_absolute() or (pure.parts and ":" in pure.parts[0]):
        raise ArchiveError(f"refusing the archive: member {name!r} has an absolute path")
    if any(part in ("..", "") for part in name.rstrip("/").split("/")):
        raise ArchiveError(
            f"refusing the archive: member {name!r} would be written outside the slot"
        )
    return name.rstrip("/")


def _plan_import(zf: zipfile.ZipFile, slot: str | None) -> tuple[str, dict[str, zipfile.ZipInfo]]:
    """Check every member; return the slot name and the files by relative path."""
    files: dict[str, zipfile.ZipInfo] = {}
    tops: set[str] = set()
    entries: list[tuple[str, zipfile.ZipInfo]] = []
    for info in zf.infolist():
        name = _member_path(info.filename)
        if stat.S_ISLNK(info.external_attr >> 16):
            raise ArchiveError(f"refusing the archive: member {name!r} is a symbolic link")
        if info.is_dir():
            continue
        entries.append((name, info))
        tops.add(name.split("/", 1)[0])
    if not entries:
        raise ArchiveError("the archive holds no save files")
    nested = len(tops) == 1 and all("/" in n for n, _ in entries)
    top = next(iter(tops)) if nested else None
    if nested and all(SLOT_FILE_RE.fullmatch(n) for n, _ in entries):
        nested, top = False, None  # a flat archive whose only folder is npcs/
    for name, info in entries:
        rel = name.split("/", 1)[1] if nested else name
        if not SLOT_FILE_RE.fullmatch(rel):
            raise ArchiveError(
                f"refusing the archive: {name!r} is not a save file (a slot holds meta.json, "
                "world.json, news.json, board.json, feelings.json, thumbnail.png, "
                "world_summary.txt and npcs/<id>/...)"
            )
        if rel in files:
            raise ArchiveError(f"refusing the archive: it holds {name!r} twice")
        if info.file_size > bound_of(rel):
            raise TooLarge(
                f"refusing the archive: {name!r} unpacks to {mb(info.file_size)}, more than "
                f"the {mb(bound_of(rel))} the game reads"
            )
        files[rel] = info
    if slot is None:
        if top is None:
            raise ArchiveError("the archive has no slot folder: give the slot name to import it as")
        try:
            slot = validate_id(top, "slot name")
        except ValueError:
            raise ArchiveError(
                f"the archive's folder {top!r} is not a valid slot name: give one to import it as"
            ) from None
    total = sum(info.file_size for info in files.values())
    if total > MAX_IMPORT_BYTES:
        raise ArchiveError(
            f"refusing the archive: it unpacks to {total / 2**30:.1f} GB "
            f"(more than {MAX_IMPORT_BYTES / 2**30:.0f} GB)"
        )
    return slot, files


def _check_files(zf: zipfile.ZipFile, files: dict[str, zipfile.ZipInfo]) -> None:
    """The archive's meta.json and world.json must be readable by this game (every number
    finite and in range), so an import never brings in a slot that cannot be played; a
    news, board or feelings file of a newer format is refused too (a damaged one loads as
    an empty part, with a warning; a bad record costs that record)."""
    for rel in LIFE_FILES:
        info = files.get(rel)
        if info is None:
            continue
        # Within its bound (checked when planned); a damaged one is played as an empty
        # part, with a warning, like a slot on disk: only FormatTooNew refuses it.
        with contextlib.suppress(ValueError, OSError, zipfile.BadZipFile):
            parse_life(rel, zf.read(info))

    for rel in (META_FILE, WORLD_FILE):
        info = files.get(rel)
        if info is None:
            continue
        try:
            raw = zf.read(info)  # within its bound: checked when planned
            if rel == WORLD_FILE:
                parse_world(raw)
                continue
            meta = load_json(raw.decode("utf-8"))
            if isinstance(meta, dict) and isinstance(meta.get("format"), int):
                check_format(meta["format"], "the archive")
                migrated, _ = migrate("meta", meta)
                SlotMeta.model_validate(migrated)
        except SaveError:
            raise
        except (ValueError, OSError, zipfile.BadZipFile) as exc:
            raise ArchiveError(f"the archive's {rel} is damaged ({describe_error(exc)})") from None


def import_slot(
    saves: Path,
    archive: Path,
    slot: str | None = None,
    *,
    force: bool = False,
    notes: list[str] | None = None,
) -> tuple[str, list[str]]:
    """Unpack a slot zip into `saves`; returns (slot name, files). Checks every member first.

    A line of an NPC log that no reader could parse (nested deeper than any event) is set
    aside beside the log, and one line said of it in `notes`."""
    saves = Path(saves)
    if slot is not None:
        slot = validate_id(slot, "slot name")
    with open_zip(Path(archive)) as zf:
        slot, files = _plan_import(zf, slot)
        _check_files(zf, files)
        target = slot_dir(saves, slot)
        if os.path.lexists(target) and not force:
            raise SlotExists(f"slot {slot!r} exists; use --force to replace it")
        # The old slot is replaced whole, so links in it are no matter (never followed).
        with holding(saves, slot, "saves import", whole=False):
            aside = unpack(zf, files, saves, target, archive)
    if aside and notes is not None:
        notes.append(_aside_note(aside))
    return slot, sorted(files)


def _aside_note(aside: dict[str, LogCopy]) -> str:
    lines = sum(c.aside + c.dropped for c in aside.values())
    dropped = sum(c.dropped for c in aside.values())
    past = f" ({dropped:,} past its {mb(MAX_REJECTED_BYTES)} bound dropped)" if dropped else ""
    what = "1 line" if lines == 1 else f"{lines:,} lines"
    return (
        f"the NPC log of {name_few(sorted(aside), 'NPCs')}: {what} nested too deep to read "
        f"set aside in events.jsonl{REJECTED_SUFFIX}{past}"
    )


# What the save after the copy writes itself.
_NOT_COPIED = frozenset(
    {WORLD_FILE, WORLD_FILE + BACKUP_SUFFIX, META_FILE, THUMBNAIL_FILE, *LIFE_FILES}
)


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
        for rel in slot_files(src) if src.is_dir() else []:
            if rel in _NOT_COPIED:
                continue
            out = tmp / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / rel, out)
        tmp.rename(dst)
    except BaseException:
        discard(tmp)
        raise
    fsync_dir(dst.parent)
