"""Reading a file the player or a map maker handed us, with a bound checked first.

A save, a zip, a map or a config file can be anything: a FIFO that never ends, a device,
a file of gigabytes. `read_capped` opens without blocking, refuses what is not a regular
file, checks the size before reading, and never reads more than the bound, so a small
mistake or a hostile file costs one line, never the game's memory or a hang.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from game.errors import GameError
from game.limits import MAX_SUMMARY_CHARS, SLOT_FILE_BYTES

__all__ = [
    "BadFile",
    "check_regular",
    "mb",
    "os_reason",
    "read_capped",
    "read_json_object",
    "read_summary",
]

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class BadFile(GameError, ValueError):
    """A file that is not a regular file, or is larger than the game reads."""


def os_reason(exc: OSError) -> str:
    """A short reason for an OSError ("the disk is full ...", "permission denied")."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full (no space left on device)"
    if exc.errno == errno.EFBIG:
        return "the file is too large for this disk or account (file too large)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    return (exc.strerror or type(exc).__name__).lower()


def mb(size: int) -> str:
    """A size for a message: "3.2 MB", "512 KB"."""
    if size >= 1024 * 1024:
        return f"{size / 2**20:.1f} MB"
    return f"{max(1, size // 1024)} KB"


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in a file the game wrote itself (a stamp, a cache), or None when it
    is missing, unreadable, not JSON or not an object: a bad one counts as none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def check_regular(path: Path, limit: int) -> int:
    """The size of `path` if it is a regular file of at most `limit` bytes, else BadFile.

    OSError (missing, unreadable) passes through for the caller to word.
    """
    info = os.stat(path)
    _check(path, info, limit)
    return info.st_size


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; BadFile otherwise.

    Opens without blocking (a FIFO cannot hang it) and reads at most `limit` + 1 bytes
    however the file grows meanwhile. OSError (missing, unreadable) passes through.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        _check(Path(path), os.fstat(fd), limit)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise BadFile(f"{path} grew past {mb(limit)} while being read")
    return data


def read_summary(path: Path) -> tuple[str, str | None]:
    """A world or NPC summary as a prompt takes it, and why any of it was left out.

    The one reader of `world_summary.txt` and `memory/summary.txt`, for play, `chat`,
    `eval` and `doctor` alike: the file's bound (`SLOT_FILE_BYTES`) checked first, a FIFO
    or a device refused without blocking, the text cut to `MAX_SUMMARY_CHARS`. A missing
    file is ("", None); one that cannot be used is ("", the reason), never an exception.
    """
    limit = SLOT_FILE_BYTES.get(path.name, SLOT_FILE_BYTES["summary.txt"])
    try:
        raw = read_capped(path, limit)
    except FileNotFoundError:
        return "", None
    except BadFile as exc:
        return "", f"left out: {exc}"
    except OSError as exc:
        return "", f"left out: {path}: {os_reason(exc)}"
    text = raw.decode("utf-8", errors="replace").strip()
    if len(text) > MAX_SUMMARY_CHARS:
        cut = f"{path} is long; only its first {MAX_SUMMARY_CHARS} characters are used"
        return text[:MAX_SUMMARY_CHARS], cut
    return text, None


def _check(path: Path, info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise BadFile(f"{path} is {kind}")
    if info.st_size > limit:
        raise BadFile(f"{path} is {mb(info.st_size)}, more than the {mb(limit)} the game reads")
