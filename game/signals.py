"""Signals that end a run as Ctrl-C does: SIGTERM and SIGHUP (a shutdown, a log-out, a
closed terminal).

While the game plays (`stop_requests`, Ctrl-C's SIGINT among them), a signal is only
written down: the frame loop sees it at the next frame and leaves, the village saves on
its way out (within its bound), and only then does the process die by the signal
(`die_by`), so whatever started it sees how it ended (143 and 129 in a shell; Ctrl-C
exits with 130, `end_by`). Signals that come while it saves change nothing. An asyncio
command (`run_stoppable`) is cancelled instead, so its clean-up runs (a turn's lines
flushed, the local model's process stopped) before the same end.

Windows has no SIGHUP, and its SIGTERM is never sent by the system: there, only the
signals it has are caught.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Coroutine, Iterator
from types import FrameType
from typing import Any, NoReturn

__all__ = ["STOP_SIGNALS", "StopRequest", "die_by", "end_by", "run_stoppable", "stop_requests"]

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class StopRequest:
    """The first stop signal that came (None: none yet); set by a handler, read by a loop."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def ask(self, signum: int, frame: FrameType | None = None) -> None:
        """A signal handler: note the first signal; the ones after it change nothing."""
        if self.signum is None:
            self.signum = signum


@contextlib.contextmanager
def stop_requests(also: tuple[signal.Signals, ...] = ()) -> Iterator[StopRequest]:
    """While inside, SIGTERM and SIGHUP (and the signals `also` names: Ctrl-C's, in play)
    are noted on the request instead of ending the process; the handlers before are put
    back after."""
    request = StopRequest()
    before: dict[signal.Signals, Any] = {}
    try:
        for sig in (*STOP_SIGNALS, *also):
            before[sig] = signal.signal(sig, request.ask)
    except ValueError:  # not the main thread: the signals keep their default
        pass
    try:
        yield request
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def run_stoppable(main: Coroutine[Any, Any, int]) -> int:
    """Run an asyncio command; SIGTERM or SIGHUP cancels it as Ctrl-C does (its `finally`
    clauses run), and the process then dies by that signal."""
    with stop_requests() as request:  # before and after the loop: noted, as in play

        async def stoppable() -> int:
            loop = asyncio.get_running_loop()
            task = asyncio.current_task()
            assert task is not None

            def stop(signum: int) -> None:
                if request.signum is None:  # once: later signals must not cut the clean-up
                    request.ask(signum)
                    task.cancel()

            added = []
            for sig in STOP_SIGNALS:
                with contextlib.suppress(NotImplementedError):  # none on Windows' loop
                    loop.add_signal_handler(sig, stop, sig)
                    added.append(sig)
            if request.signum is not None:  # it came while the loop started
                task.cancel()
            try:
                return await main
            finally:
                for sig in added:  # the loop would leave the default: keep noting them
                    loop.remove_signal_handler(sig)
                    signal.signal(sig, request.ask)

        try:
            code = asyncio.run(stoppable())
        except BaseException:  # the cancel itself, or what the clean-up ran into after it
            if request.signum is None:
                raise
            die_by(request.signum)
        if request.signum is not None:  # the command ended by itself once cancelled
            die_by(request.signum)
        return code


def end_by(signum: int) -> NoReturn:
    """End the process as `signum` asked: Ctrl-C with exit code 130, as it always has; any
    other stop signal by the signal itself (`die_by`)."""
    if signum == signal.SIGINT:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(128 + signum)
    die_by(signum)


def die_by(signum: int) -> NoReturn:
    """End the process by `signum` as its default action does (after flushing what was
    printed), so the parent sees the signal; 128 + signum where it cannot."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed terminal
            stream.flush()
    with contextlib.suppress(OSError, ValueError):
        for sig in (*STOP_SIGNALS, signal.SIGINT):  # the first signal is how it ends
            signal.signal(sig, signal.SIG_IGN)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    os._exit(128 + signum)
