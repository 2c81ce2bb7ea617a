"""The zips of `saves export` and `saves import`: where an export may write, an import zip
opened with its members counted first, and its checked members unpacked into a slot.

An export never writes into the saves folder (a slot's own file, a lock: a zip written
over them would destroy what it exports) and never over what is not a regular file (a
device, a FIFO, a folder, a link); `--force` only replaces a regular file.

An import zip's members are counted from its end record (the last bytes of the file, the
zip64 one too) before zipfile parses its list of members: a zip of 100,000 members is
refused in one line after reading 64 KB, and one whose end record understates them is
refused once its list is parsed (bounded in bytes), before anything is unpacked.

Unpacking goes into a fresh folder of its own (whatever was planted under its name is
removed first, never followed), then becomes the slot by renames.
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from game.atomic import fsync_dir
from game.files import mb, os_reason
from game.limits import MAX_IMPORT_INDEX_BYTES, MAX_IMPORT_MEMBERS
from game.paths import EVENTS_FILE, kind_of, remove_tree
from game.save.errors import ArchiveError, SaveError, SlotExists
from game.save.format import REJECTED_SUFFIX, describe_error
from game.save.salvage import LogCopy, copy_log

__all__ = ["check_target", "discard", "open_zip", "too_many", "unpack"]

_CHUNK = 1024 * 1024


def check_target(saves: Path, archive: Path, *, force: bool) -> None:
    """An export writes a new file, or with `force` replaces a regular one: never a file of
    the saves folder (a slot's own, a lock), through a link, or a device, FIFO or folder."""
    # realpath follows every link of the path (the archive's own too), and never raises.
    real = Path(os.path.realpath(archive))
    if real.is_relative_to(os.path.realpath(saves)):
        raise SaveError(
            f"refusing to export into the saves folder {saves} ({archive}): "
            "write the zip somewhere else"
        )
    try:
        mode: int | None = os.lstat(archive).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise SaveError(f"cannot write {archive}: {os_reason(exc)}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise SaveError(
            f"{archive} is {kind_of(mode)}, not a file: give the name of a zip file to write "
            "(--force only replaces a regular file)"
        )
    if mode is not None and not force:
        raise SlotExists(f"{archive} exists; use --force to overwrite it")


@contextlib.contextmanager
def open_zip(archive: Path) -> Iterator[zipfile.ZipFile]:
    """The zip at `archive`, refused before zipfile parses its list of members when it
    lists more members than a slot holds (or takes more bytes than such a list would)."""
    try:
        fd = os.open(archive, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SaveError(f"no such archive: {archive}") from None
    except OSError as exc:
        raise ArchiveError(f"cannot read {archive}: {os_reason(exc)}") from None
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ArchiveError(f"{archive} is not a zip archive (it is {kind_of(mode)})")
        try:
            _count_members(file)
            zf = zipfile.ZipFile(file)
        except (zipfile.BadZipFile, OSError) as exc:
            raise ArchiveError(f"{archive} is not a zip archive ({describe_error(exc)})") from None
        with zf:
            yield zf


def too_many(members: int | None) -> ArchiveError:
    """The refusal of a zip of more members than a slot holds (`None`: counted no further)."""
    said = "more members than" if members is None else f"{members:,} members, more than"
    return ArchiveError(
        f"refusing the archive: it has {said} the {MAX_IMPORT_MEMBERS:,} a slot holds "
        "(a few files for each NPC)"
    )


_END = struct.Struct("<4s4H2LH")  # the end record: its members and the list's size at 10, 12
_END64_LOCATOR = struct.Struct("<4sLQL")  # just before it in a zip64
_END64 = struct.Struct("<4sQ2H2L4Q")  # just before that: members at 32, the list's size at 40
_ENTRY = struct.Struct("<4s6H3L5H2L")  # a member in the list, then its name, extra, comment


def _count_members(file: IO[bytes]) -> None:
    """ArchiveError if the zip lists more members than a slot holds: the count its end
    record declares, then the entries of its list walked as zipfile will walk them (so a
    record that understates them is caught too), never past the bound."""
    end = _end_record(file)
    if end is None:
        return  # no end record: zipfile says what is wrong
    declared, index_bytes, index_at = end
    if declared > MAX_IMPORT_MEMBERS:
        raise too_many(declared)
    if index_bytes > MAX_IMPORT_INDEX_BYTES:
        raise ArchiveError(
            f"refusing the archive: its list of members takes {mb(index_bytes)}, more than "
            f"the {mb(MAX_IMPORT_INDEX_BYTES)} a slot's would"
        )
    if index_at < 0:
        return
    file.seek(index_at)
    index = file.read(index_bytes)
    at = members = 0
    while at < len(index) and members <= MAX_IMPORT_MEMBERS:
        if len(index) - at < _ENTRY.size:
            return  # a torn list: zipfile says so
        name, extra, comment = _ENTRY.unpack_from(index, at)[10:13]
        at += _ENTRY.size + name + extra + comment
        members += 1
    if members > MAX_IMPORT_MEMBERS:
        raise too_many(None)


def _end_record(file: IO[bytes]) -> tuple[int, int, int] | None:
    """(members, bytes of their list, where the list starts) as the zip's end record (or
    its zip64 one) says, found as zipfile finds it; None where there is none."""
    size = file.seek(0, os.SEEK_END)
    start = max(0, size - _END.size - 0xFFFF)  # the record and the longest comment
    file.seek(start)
    tail = file.read(size - start)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _END.size:
        return None
    end_at = start + at
    *_, members, index_bytes, _, _ = _END.unpack_from(tail, at)
    zip64_at = end_at - _END64_LOCATOR.size - _END64.size
    if zip64_at >= 0:
        file.seek(zip64_at)
        raw = file.read(_END64.size + _END64_LOCATOR.size)
        if raw[_END64.size : _END64.size + 4] == b"PK\x06\x07" and raw[:4] == b"PK\x06\x06":
            *_, members, index_bytes, _ = _END64.unpack_from(raw)
            end_at = zip64_at
    return members, index_bytes, end_at - index_bytes


def unpack(
    zf: zipfile.ZipFile,
    files: dict[str, zipfile.ZipInfo],
    saves: Path,
    target: Path,
    archive: Path,
) -> dict[str, LogCopy]:
    """Unpack checked members beside the target, then swap it in; each step named so a kill
    is undone or finished at the next start (see `game.save.tidy`). Returns what of each
    NPC's log was set aside (lines nested too deep for any reader), by NPC."""
    pid = os.getpid()
    tmp = saves / f".import-{target.name}-{pid}"
    ready = saves / f".ready-{target.name}-{pid}"
    aside: dict[str, LogCopy] = {}
    try:
        remove_tree(tmp)  # leftovers, or whatever was planted under these names
        remove_tree(ready)
        saves.mkdir(parents=True, exist_ok=True)
        tmp.mkdir()  # a fresh real folder: nothing below it is anyone else's
        for rel, info in files.items():
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(dest, "xb") as out:
                chunks = _chunks(src, info.file_size, rel)
                if rel.endswith(f"/{EVENTS_FILE}"):  # streamed: a log may be a gigabyte
                    copied = copy_log(chunks, out, dest.with_name(EVENTS_FILE + REJECTED_SUFFIX))
                    if copied.aside or copied.dropped:
                        aside[rel.split("/")[1]] = copied
                else:
                    for chunk in chunks:
                        out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
        fsync_dir(tmp)
        os.replace(tmp, ready)  # whole now
        _swap_in(ready, target)
        return aside
    except zipfile.BadZipFile as exc:
        discard(tmp)
        raise ArchiveError(f"{archive} is damaged ({describe_error(exc)})") from None
    except OSError as exc:
        discard(tmp)
        discard(ready)
        raise SaveError(f"could not import into {saves}: {os_reason(exc)}") from None


def discard(path: Path) -> None:
    """Remove what an import or a copy left (never through a link), come what may."""
    with contextlib.suppress(OSError):
        remove_tree(path)


def _chunks(src: IO[bytes], size: int, rel: str) -> Iterator[bytes]:
    """A member's bytes, never more than it declared (a header that lies is a damaged zip)."""
    left = size
    while chunk := src.read(min(_CHUNK, left + 1)):
        left -= len(chunk)
        if left < 0:
            raise zipfile.BadZipFile(f"{rel} holds more than it declares")
        yield chunk


def _swap_in(ready: Path, target: Path) -> None:
    """Put the unpacked slot in place, replacing an existing one only once it is complete."""
    if os.path.lexists(target):
        trash = target.with_name(f".trash-{target.name}-{os.getpid()}")
        os.replace(target, trash)
        try:
            os.replace(ready, target)
        except OSError:
            os.replace(trash, target)  # put the old slot back
            raise
        fsync_dir(target.parent)
        discard(trash)
    else:
        os.replace(ready, target)
    fsync_dir(target.parent)
