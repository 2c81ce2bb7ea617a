"""Which rung of the settings ladder the local model's worker runs on, and what crashes did.

Before the first use on a machine the rungs (`local.protocol.LADDER`) are probed in order
until two work, and the faster is kept in the probe cache (`local.client.probe`); later starts
read it back. A worker that dies steps one rung down; a native fault (SIGSEGV, SIGILL,
SIGBUS, SIGFPE) is remembered in the cache, anything else (an OOM kill) holds for this
session only. After `CRASHES_TO_GIVE_UP` crashes within `CRASH_WINDOW_S` the ladder gives
up, and `notice` says how to fix the build. Starting a worker is the provider's part
(`local.client.provider`): it is handed in as a function.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from game.agent.providers.local.client.probe import Choice, ProbeCache
from game.agent.providers.local.client.process import Crash, WorkerDied, WorkerProcess
from game.agent.providers.local.model import ProgressCallback
from game.agent.providers.local.protocol import LADDER, LlamaSettings, ProbeTimes, settings_named
from game.errors import GameError

__all__ = [
    "CRASHES_TO_GIVE_UP",
    "CRASH_WINDOW_S",
    "FIX_BUILD",
    "Ladder",
    "LoadFailed",
    "StartWorker",
    "monotonic",
]

CRASHES_TO_GIVE_UP = 3
CRASH_WINDOW_S = 600.0
NOTICE_MIN_S = 8.0  # a crash notice stays at least this long, so a player can read it
FIX_BUILD = (
    'CMAKE_ARGS="-DGGML_NATIVE=OFF" pip install --force-reinstall --no-cache-dir llama-cpp-python'
)
NATIVE_FAULTS = frozenset({"SIGSEGV", "SIGILL", "SIGBUS", "SIGFPE"})
_FASTER = 0.8  # a later rung is chosen over an earlier one only if its probe took < 80 %

# Start a worker on a rung (probing it or not); the worker and its probe figures once ready.
StartWorker = Callable[
    [LlamaSettings, bool, ProgressCallback], tuple[WorkerProcess, ProbeTimes | None]
]

log = logging.getLogger("game.agent.providers.local.client.provider")


class LoadFailed(GameError):
    """The model cannot be loaded at all (a missing or bad file): no rung will help."""


class Ladder:
    """The settings in use and why, the crashes so far, and the line a player sees."""

    def __init__(self, probe_cache: ProbeCache) -> None:
        self.probe_cache = probe_cache
        self.key = ""  # the probe record's key, once the model is known
        self.choice: Choice | None = None  # the settings in use, and why
        self.probed_now = False  # the choice was probed in this session, not read back
        self.crashes: list[Crash] = []
        self.gave_up = False
        self.served_since_crash = True  # a request ended well since the last crash
        self._notice: str | None = None
        self._notice_until = 0.0

    @property
    def notice(self) -> str | None:
        """One line for the screen after a crash (or after giving up), else None."""
        if self._notice is None:
            return None
        if self.gave_up or not self.served_since_crash:
            return self._notice
        return self._notice if time.monotonic() < self._notice_until else None

    def settings_name(self) -> str:
        """The rung in use (the first before anything was chosen)."""
        return self.choice.settings if self.choice is not None else LADDER[0].name

    def settings_report(self) -> str | None:
        """Which llama.cpp settings are in use and why (None before the first load)."""
        choice = self.choice
        if choice is None:
            return None
        rung = settings_named(choice.settings)
        tried = "; ".join(f"{name}: {what}" for name, what in choice.tried.items())
        return (
            f"{rung.name} ({rung.description}): {choice.reason}"
            + (f" [{tried}]" if tried else "")
            + ("; probed just now" if self.probed_now else f"; probed {choice.describe()}")
            + f", kept in {self.probe_cache.path}"
        )

    def crash_line(self) -> str | None:
        """One line about the crashes a player would see (None if there were none)."""
        if self.gave_up:
            last = self.crashes[-1]
            return (
                f"the local model crashed {len(self.crashes)} times ({last.how}, last during "
                f"{last.phase} on {last.settings} settings); fix the build: {FIX_BUILD}"
            )
        serving = [c for c in self.crashes if not c.probing]
        if not serving:
            return None
        last = serving[-1]
        times = "once" if len(serving) == 1 else f"{len(serving)} times"
        return (
            f"the local model crashed {times} ({last.how} during {last.phase}); "
            f"it restarts with {self.settings_name()} settings"
        )

    def start(self, start: StartWorker, report: ProgressCallback) -> WorkerProcess:
        """A worker on the remembered rung, or on the rung a probe picks if none is."""
        if self.choice is None:
            self.choice = self.probe_cache.get(self.key)
        if self.choice is None:
            return self._probe(start, report)
        return self._start_on_ladder(start, report)

    def _probe(self, start: StartWorker, report: ProgressCallback) -> WorkerProcess:
        """Start the rungs in order until two work; keep the faster (the first unless clearly not).

        Both are timed once more, alternately, once both are up: a game busy starting its
        window must not make the rung probed first look slow.
        """
        tried: dict[str, str] = {}
        working: list[tuple[WorkerProcess, LlamaSettings, float]] = []
        for index, rung in enumerate(LADDER):
            if working and index > 1:
                break  # the last rung is only for builds whose first two crash
            try:
                worker, figures = start(rung, True, report)
            except WorkerDied as died:
                self.crashed(died.crash)
                tried[rung.name] = f"crashed ({died.crash.how}) during {died.crash.phase}"
                if self.gave_up:
                    break
                continue
            working.append((worker, rung, figures.seconds if figures else 0.0))
            tried[rung.name] = _speeds(figures)
            if len(working) == 2:
                break
        if not working:
            raise LoadFailed(self.crash_line() or "the local model crashed with every setting")
        if len(working) == 2:
            working = [self._timed_again(w, rung, s, tried) for w, rung, s in working]
        worker, rung, seconds = working[0]
        if len(working) == 2 and working[1][2] < seconds * _FASTER:
            worker, rung, seconds = working[1]
        for other, _, _ in working:
            if other is not worker:
                other.stop()
        first = LADDER[0].name
        if rung.name == first:
            reason = "the fastest setting works"
        elif tried.get(first, "").startswith("crashed"):
            reason = f"{first} {tried[first]} in the probe"
        else:
            reason = f"faster than {first} in the probe"
        self.probed_now = True
        self.choice = Choice(self.key, rung.name, reason, tried)
        self.probe_cache.put(self.choice)
        log.info("local model settings: %s", self.settings_report())
        return worker

    def _timed_again(
        self, worker: WorkerProcess, rung: LlamaSettings, seconds: float, tried: dict[str, str]
    ) -> tuple[WorkerProcess, LlamaSettings, float]:
        """One more timing of a working rung; its best time."""
        try:
            figures = worker.probe()
        except WorkerDied as died:  # it worked once: say so, and keep the first timing
            self.crashed(died.crash)
            return worker, rung, float("inf")
        if figures.seconds < seconds:
            seconds = figures.seconds
            tried[rung.name] = _speeds(figures)
        return worker, rung, seconds

    def _start_on_ladder(self, start: StartWorker, report: ProgressCallback) -> WorkerProcess:
        """Start on the chosen rung; a crash steps down the ladder until one works."""
        while True:
            rung = settings_named(self.settings_name())
            try:
                worker, _ = start(rung, False, report)
                return worker
            except WorkerDied as died:
                self.crashed(died.crash)
                if self.gave_up:
                    raise LoadFailed(self.crash_line() or str(died)) from died

    def crashed(self, crash: Crash) -> None:
        """Count a crash, step down the ladder, remember it, and say so."""
        self.crashes.append(crash)
        log.warning(
            "the local model crashed (%s) during %s on %s settings%s",
            crash.how,
            crash.phase,
            crash.settings,
            " (probing)" if crash.probing else "",
        )
        if crash.stderr:
            log.info("the worker's last words: %s", crash.stderr)
        now = time.monotonic()
        recent = [c for c in self.crashes if now - c.at <= CRASH_WINDOW_S]
        names = [rung.name for rung in LADDER]
        index = names.index(crash.settings) if crash.settings in names else 0
        if len(recent) >= CRASHES_TO_GIVE_UP:
            self.gave_up = True
            self._notice = (
                f"The local model crashed {len(recent)} times ({crash.how}); NPCs use scripted "
                f"behaviour. Fix the build: {FIX_BUILD}"
            )
            return
        lower = LADDER[min(index + 1, len(LADDER) - 1)]
        if crash.probing:
            return  # the probe goes on down the ladder itself, and no player saw anything
        choice = self.choice
        if crash.how in NATIVE_FAULTS:
            # A fault of the build's own code happens again: later starts skip that rung.
            # Anything else (an OOM kill) steps down for this session only.
            self.choice = Choice(
                self.key,
                lower.name,
                f"{crash.settings} crashed ({crash.how}) during {crash.phase}",
                dict(choice.tried) if choice is not None else {},
            )
            self.probe_cache.put(self.choice)
        elif choice is not None:
            self.choice = Choice(choice.key, lower.name, f"{crash.settings} died ({crash.how})")
        self._notice = (
            f"The local model crashed ({crash.how}) and is restarting with {lower.name} "
            "settings; NPCs use scripted behaviour meanwhile"
        )
        self._notice_until = now + NOTICE_MIN_S
        self.served_since_crash = False


def _speeds(figures: ProbeTimes | None) -> str:
    """A probe's figures as people read them."""
    if figures is None:
        return "not timed"
    return (
        f"{figures.seconds:.2f} s: {figures.prefill_tok_s} tok/s prompt, "
        f"{figures.gen_tok_s} tok/s generating"
    )


def monotonic(report: ProgressCallback | None) -> ProgressCallback:
    """Progress that never goes back (the probe loads the model more than once)."""
    last = [0.0]

    def forward(fraction: float, message: str) -> None:
        last[0] = max(last[0], min(fraction, 1.0))
        if report is not None:
            report(last[0], message)

    return forward
