"""One writer per slot: an operating-system lock on `<saves>/.locks/<slot>.lock`.

Whatever writes a slot holds its lock for as long as it may write: the running game (its
slot, moved along by a load or a "save as"), `chat`, and `saves import` / `delete`. A
second process is refused with one line naming the holder, or (`chat`) waits its turn.
The lock is the kernel's (`flock`, or `msvcrt.locking` on Windows), held on an open file,
so it dies with its process: a killed game never leaves a slot locked. The file itself
only says who holds it (pid and what), for the message.

The locks live beside the slots, not in them, so locking a slot that was never saved
creates nothing inside the slot.

The saves folder may be shared, so a lock is never taken through a link: `.locks` must be
a real folder and the lock file a regular one, else one line says which to remove. A lock
that plays or exports a slot (`whole`, the default) also refuses a slot holding a link,
FIFO or device anywhere (`game.paths.check_tree`): nothing that holds the lock then reads
or writes outside the saves folder through the slot.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from game.paths import UnsafePath, check_tree, make_dir, open_inside, slot_dir, validate_id
from game.save.errors import SaveError, SlotBusy

__all__ = ["LOCKS_DIR", "SlotLock", "holding", "lock_path"]

LOCKS_DIR = ".locks"
_POLL_S = 0.05

# Why not the `filelock` package: its lock opened the file with O_TRUNC and followed a link
# (a planted `.locks/<slot>.lock` link truncated its target) until CVE-2025-68146 was fixed;
# the versions after refuse a link, but the guarantee would rest on a version floor of a
# package the base install does not otherwise need. It takes a path, so the holder's note
# would be a second open of that path, and tidy's export notes (locked on the descriptor
# they are written through) would stay as they are. The kernel lock below is a few lines.

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def lock_path(saves: Path, slot: str) -> Path:
    """The lock file of a slot (the slot id validated)."""
    return Path(saves) / LOCKS_DIR / f"{validate_id(slot, 'slot name')}.lock"


class SlotLock:
    """The lock of one slot, held by this process between `acquire` and `release`."""

    def __init__(self, saves: Path, slot: str, holder: str, *, whole: bool = True) -> None:
        self.saves = Path(saves)
        self.slot = validate_id(slot, "slot name")
        self.holder = holder  # what holds it, for the message: "the game", "chat"
        self.path = lock_path(saves, slot)
        # Check the slot's tree once held: False for what only removes or replaces a slot.
        self.whole = whole
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this process holds the lock now."""
        return self._fd is not None

    def acquire(
        self, *, wait_s: float = 0.0, on_wait: Callable[[str], None] | None = None
    ) -> SlotLock:
        """Take the lock, waiting at most `wait_s` for its holder; else SlotBusy, one line.

        `on_wait(who)` is called once when the lock is taken by someone else and we wait.
        A saves directory that cannot be written is a SaveError naming it.
        """
        if self._fd is not None:
            return self
        fd = self._open()
        deadline = time.monotonic() + wait_s
        told = False
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                who = _who(fd)
                os.close(fd)
                raise SlotBusy(
                    f"slot {self.slot!r} is in use by {who}: wait for it to finish or close it, "
                    "or choose another slot with --slot"
                )
            if on_wait is not None and not told:
                on_wait(_who(fd))
                told = True
            time.sleep(_POLL_S)
        if self.whole:
            try:
                check_tree(slot_dir(self.saves, self.slot))
            except OSError as exc:  # a folder it cannot look into may hide a link too
                _unlock(fd)
                os.close(fd)
                why = exc if isinstance(exc, UnsafePath) else f"{exc.filename}: {_reason(exc)}"
                raise SaveError(f"slot {self.slot!r} cannot be used: {why}") from None
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()} {self.holder}\n".encode())
        except OSError:
            pass  # the note is for messages only; the lock is what counts
        self._fd = fd
        return self

    def release(self) -> None:
        """Let the slot go (a no-op when not held)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            _unlock(fd)
        os.close(fd)

    def _open(self) -> int:
        try:
            make_dir(self.saves, self.path.parent)
            return open_inside(self.saves, self.path, os.O_RDWR | os.O_CREAT)
        except UnsafePath as exc:
            raise SaveError(f"cannot lock slot {self.slot!r}: {exc}") from None
        except OSError as exc:
            raise SaveError(
                f"cannot write to the saves directory {self.saves} ({_reason(exc)}): "
                "choose another with --saves-dir"
            ) from None

    def __enter__(self) -> SlotLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _reason(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()


def _who(fd: int) -> str:
    """Who holds a lock, from its note: "another process (pid 123, chat)"."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        note = os.read(fd, 200).decode("utf-8", "replace").split()
    except OSError:
        note = []
    if len(note) >= 2 and note[0].isdecimal():
        return f"another process (pid {note[0]}, {' '.join(note[1:])})"
    return "another process"


@contextlib.contextmanager
def holding(saves: Path, slot: str, holder: str, *, whole: bool = True) -> Iterator[SlotLock]:
    """Hold a slot's lock for a `with` block, refusing at once if another process has it
    (`whole`: as `SlotLock`)."""
    lock = SlotLock(saves, slot, holder, whole=whole).acquire()
    try:
        yield lock
    finally:
        lock.release()
