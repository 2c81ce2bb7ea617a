"""A slot as a zip: `saves export` writes the files of the slot's layout that travel, and
`saves import` checks every member of a zip before anything is unpacked.

An import takes only the files the layout exports (`game.save.layout`), each within its
size bound; the archive's meta.json, world.json and life files must be readable by this
game. Both hold the slot's lock while they work; every failure is a `SaveError` with a
one-line message.
"""

from __future__ import annotations

import contextlib
import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

from game.files import mb, os_reason
from game.limits import MAX_IMPORT_BYTES, MAX_REJECTED_BYTES
from game.paths import NPCS_DIR, UnsafePath, slot_dir, validate_id
from game.safe_json import load_json
from game.save import layout
from game.save.archive import check_target, open_zip, unpack
from game.save.errors import ArchiveError, SaveError, SlotExists, SlotNotFound, TooLarge
from game.save.format import (
    REJECTED_SUFFIX,
    SlotMeta,
    check_format,
    describe_error,
    migrate,
    name_few,
)
from game.save.layout import bound_of, life_parts, slot_file, slot_files
from game.save.life_format import parse_life
from game.save.lock import holding
from game.save.salvage import LogCopy
from game.save.slot_io import parse_world
from game.save.tidy import exporting

__all__ = ["export_slot", "import_slot"]


def _exported(rel: str) -> bool:
    """Whether a path in a slot is a file an export writes (and an import takes)."""
    file = slot_file(rel)
    return file is not None and file.exported


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
    if nested and all(_exported(n) for n, _ in entries):
        nested, top = False, None  # a flat archive whose only folder is npcs/
    for name, info in entries:
        rel = name.split("/", 1)[1] if nested else name
        if not _exported(rel):
            raise ArchiveError(
                f"refusing the archive: {name!r} is not a save file (a slot holds {_held()})"
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


def _held() -> str:
    """The files an import takes, in a few words: "meta.json, ... and npcs/<id>/..."."""
    names = [f.path for f in layout.SLOT_FILES if f.exported and not f.per_npc]
    if any(f.exported and f.per_npc for f in layout.SLOT_FILES):
        names.append(f"{NPCS_DIR}/<id>/...")
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def _check_files(zf: zipfile.ZipFile, files: dict[str, zipfile.ZipInfo]) -> None:
    """The archive's meta.json and world.json must be readable by this game (every number
    finite and in range), so an import never brings in a slot that cannot be played; a
    news, board or feelings file of a newer format is refused too (a damaged one loads as
    an empty part, with a warning; a bad record costs that record)."""
    for file, model in life_parts():
        info = files.get(file.path)
        if info is None:
            continue
        # Within its bound (checked when planned); a damaged one is played as an empty
        # part, with a warning, like a slot on disk: only FormatTooNew refuses it.
        with contextlib.suppress(ValueError, OSError, zipfile.BadZipFile):
            parse_life(file.path, model, zf.read(info))

    for file in layout.SLOT_FILES:
        info = files.get(file.path)
        if info is None or file.reader not in ("meta", "world"):
            continue
        try:
            raw = zf.read(info)  # within its bound: checked when planned
            if file.reader == "world":
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
            raise ArchiveError(
                f"the archive's {file.path} is damaged ({describe_error(exc)})"
            ) from None


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
