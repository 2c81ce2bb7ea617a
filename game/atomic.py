"""The one crash-safe file writer: a temporary file beside the target, fsync, rename, fsync
of the directory.

A reader never sees half a file: either the old bytes or the new ones. A failed write
removes its temporary file and leaves the old file untouched.

- `write_atomic(path, data)` writes bytes held in memory. With `backup=True` the replaced
  file is kept as `<name>.bak` (only if it was readable), so a damaged file can fall back
  to the previous good one; with `damaged=True` a replaced file that was not readable is
  kept as `<name>.damaged` rather than destroyed. Whether it was readable is read within
  a size bound (`limit`): a file of gigabytes is never read whole to decide.
- `replacing(path)` hands out the temporary path for a writer that streams (a model file
  assembled from chunks) or that is given a path by a library (llama.cpp saving a KV
  state); the target is replaced when the `with` block ends without an exception.

Temporary names are unique (`<name>.<random>.tmp`), so two processes writing one file
(two games sharing a config or a model cache) never write into each other's file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from game.files import read_capped

__all__ = ["fsync_dir", "replacing", "write_atomic"]


@contextlib.contextmanager
def replacing(path: Path, *, fsync: bool = True, mode: int = 0o644) -> Iterator[Path]:
    """A fresh temporary path beside `path`; on a clean exit it becomes `path` (fsynced
    first when `fsync`), on an exception it is removed and `path` is left as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f"{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, mode)
        if fsync:
            _fsync_file(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if fsync:
        fsync_dir(path.parent)


def write_atomic(
    path: Path,
    data: bytes,
    *,
    fsync: bool = True,
    backup: bool = False,
    valid: Callable[[bytes], bool] | None = None,
    limit: int | None = None,
    damaged: bool = False,
    mode: int = 0o644,
) -> None:
    """Replace `path` with `data` atomically; keep the old file as `.bak` if asked.

    `valid(old_bytes)` decides whether the current file deserves to become the backup:
    a damaged file never overwrites a good backup. An old file over `limit` bytes is not
    read and not valid. With `damaged`, an old file that is not valid is renamed to
    `.damaged` instead of being replaced. Raises OSError (the old file stays).
    """
    with replacing(path, fsync=fsync, mode=mode) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_BINARY", 0))
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        if (backup or damaged) and os.path.lexists(path):
            good = _worth_keeping(path, valid, limit)
            # Between these two renames only the backup exists: readers fall back to it.
            if good and backup:
                os.replace(path, path.with_name(path.name + ".bak"))
            elif not good and damaged:
                os.replace(path, path.with_name(path.name + ".damaged"))


def _worth_keeping(path: Path, valid: Callable[[bytes], bool] | None, limit: int | None) -> bool:
    if valid is None:
        return True
    try:
        return valid(path.read_bytes() if limit is None else read_capped(path, limit))
    except (OSError, ValueError):  # unreadable, not a regular file, over its bound
        return False


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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
