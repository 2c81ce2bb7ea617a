"""The game's side of one llama.cpp worker process: start it, talk to it, see it die.

`WorkerProcess` starts `python -m game.agent.providers.local.worker` with the `game` package
importable wherever the game runs from, writes protocol lines to its stdin, reads them from
its stdout, and drains its stderr into the log (keeping the last lines). When its output
ends, `read` raises `WorkerDied` with a `Crash`: how it ended (a signal name, or "hung,
killed" when the watchdog ended it), on which rung, and doing what.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import game
from game.agent.providers.local.protocol import (
    Failed,
    FromWorker,
    Probe,
    ProbeTimes,
    Progress,
    Ready,
    Start,
    ToWorker,
    WorkerConfig,
    encode,
    from_worker,
)
from game.errors import GameError

__all__ = ["Crash", "WorkerDied", "WorkerProcess", "last_words", "signal_name"]

log = logging.getLogger("game.agent.providers.local.client.provider")


def signal_name(returncode: int | None) -> str:
    """How a worker ended, as people read it: `SIGSEGV`, or `exit code 3`."""
    if returncode is not None and returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return f"exit code {returncode}"


@dataclass
class Crash:
    """One death of the worker: how, when, on which rung, and doing what."""

    how: str  # "SIGSEGV", "SIGKILL", "exit code 1"
    settings: str
    phase: str  # "load", "the first decode", "a reply"
    at: float  # time.monotonic()
    probing: bool = False  # while the probe tried this rung (expected on some machines)
    stderr: str = ""  # the worker's last lines on stderr


class WorkerDied(GameError):
    """The worker process ended while it was loading, probing or serving."""

    def __init__(self, crash: Crash) -> None:
        super().__init__(f"the local model crashed ({crash.how}) during {crash.phase}")
        self.crash = crash


class WorkerProcess:
    """One worker process and the two ends of its pipes (used by the supervisor thread)."""

    def __init__(self, config: WorkerConfig) -> None:
        self.settings = config.settings
        env = dict(os.environ)
        root = str(Path(game.__file__).resolve().parents[1])  # `game` importable from anywhere
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        # Scoring allocates and frees megabyte rows all the time; glibc's moving mmap
        # threshold would soon keep them in the heap, whose freed pages it does not give
        # back, and the worker's memory would creep up over hours. A fixed threshold maps
        # and unmaps them; fewer arenas keep the two threads from holding a heap each.
        env.setdefault("MALLOC_MMAP_THRESHOLD_", str(256 * 1024))
        env.setdefault("MALLOC_ARENA_MAX", "2")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "game.agent.providers.local.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.probing = config.probe
        self.template = False  # the model has a chat template (the worker says when ready)
        self.serving: int | None = None  # the request it works on
        self.hung = False
        self.stderr: deque[str] = deque(maxlen=20)
        self._write_lock = threading.Lock()
        self._drainer = threading.Thread(target=self._drain, name="llama-stderr", daemon=True)
        self._drainer.start()
        self.send(Start(config=config))

    def _drain(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        for raw in stream:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self.stderr.append(line)
                log.debug("worker: %s", line)

    def send(self, message: ToWorker) -> bool:
        """Write one message; False when the worker is gone."""
        stdin: IO[bytes] | None = self.proc.stdin
        try:
            with self._write_lock:
                assert stdin is not None
                stdin.write(encode(message))
                stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def read(self, phase: str) -> FromWorker:
        """The next message; WorkerDied when the worker's output ended."""
        stdout = self.proc.stdout
        assert stdout is not None
        while line := stdout.readline():
            message = from_worker(line)
            if message is not None:
                return message
        raise WorkerDied(self.death(phase))

    def handshake(
        self, report: Callable[[float, str], None]
    ) -> tuple[str | None, ProbeTimes | None]:
        """Read the worker's loading until it is ready: why it failed (None when it did
        not) and its probe figures (None when it did not probe). WorkerDied if it died."""
        figures: ProbeTimes | None = None
        phase = "load"
        while True:
            message = self.read(phase)
            if isinstance(message, Progress):
                report(message.fraction, message.message)
                if message.probing:
                    phase = "the first decode"
            elif isinstance(message, ProbeTimes):
                figures = message
            elif isinstance(message, Failed):
                return message.message, figures
            elif isinstance(message, Ready):
                self.probing = False  # from now on a crash is one a player sees
                self.template = message.template
                return None, figures

    def probe(self) -> ProbeTimes:
        """Time the probe's work again (the worker must be idle); its figures."""
        if not self.send(Probe()):
            raise WorkerDied(self.death("the probe"))
        while True:
            message = self.read("the probe")
            if isinstance(message, ProbeTimes):
                return message

    def kill_if_serving(self, seq: int) -> None:
        """Cancelled long ago and still at it: stuck in native code. The read sees it die."""
        if self.serving == seq:
            self.hung = True
            self.proc.kill()

    def death(self, phase: str) -> Crash:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._drainer.join(timeout=1)  # its last lines say where it died
        tail = last_words(list(self.stderr))
        how = "hung, killed" if self.hung else signal_name(code)
        return Crash(how, self.settings, phase, time.monotonic(), self.probing, tail)

    def stop(self, timeout: float = 5.0) -> None:
        """Close its stdin (it frees the model and exits); kill it if it does not."""
        try:
            with self._write_lock:
                if self.proc.stdin is not None:
                    self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()


def last_words(lines: list[str]) -> str:
    """What a dying worker said: Python's fatal error line and where it was, if it said so."""
    for i, line in enumerate(lines):
        if line.startswith("Fatal Python error"):
            where = next((x.strip() for x in lines[i + 1 :] if x.lstrip().startswith("File")), "")
            return f"{line}; {where}" if where else line
    return " | ".join(lines[-3:])
