"""Crash-safe file writes: temp file, fsync, rename, fsync the directory.

A reader never sees half a file: either the old bytes or the new ones. With `backup=True`
the replaced file is kept as `<name>.bak` (only if it was readable), so a damaged file can
fall back to the previous good one. A failed write removes its temp file and leaves the
old file untouched.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["fsync_dir", "write_atomic"]

_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)


def write_atomic(
    path: Path,
    data: bytes,
    *,
    fsync: bool = True,
    backup: bool = False,
    valid: Callable[[bytes], bool] | None = None,
) -> None:
    """Replace `path` with `data` atomically; keep the old file as `.bak` if asked.

    `valid(old_bytes)` decides whether the current file deserves to become the backup:
    a damaged file never overwrites a good backup. Raises OSError (the old file stays).
    """
    tmp = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(tmp, _FLAGS, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if backup and path.exists() and _worth_keeping(path, valid):
            # Between these two renames only the backup exists: readers fall back to it.
            os.replace(path, path.with_name(path.name + ".bak"))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if fsync:
        fsync_dir(path.parent)


def _worth_keeping(path: Path, valid: Callable[[bytes], bool] | None) -> bool:
    if valid is None:
        return True
    try:
        return valid(path.read_bytes())
    except OSError:
        return False


def fsync_dir(path: Path) -> None:
    """Make renames in a directory durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
