"""The local provider: llama.cpp in a worker process of its own, so a crash costs one turn.

The game process keeps the queue and the worker process (`local.worker`) keeps the model.
Requests wait in a priority queue (`options.priority`, higher first, FIFO within a
priority); a supervisor thread sends them to the worker one at a time and pushes each
event it streams back to the caller's loop with `call_soon_threadsafe`. A request more
urgent than the running one makes it give way if it has sent no event yet (it runs again
right after, resuming its NPC's saved prefix): the player's line never waits behind an
idle NPC's thinking, and nothing already shown is cut. The game process
never runs llama.cpp nor the per-token sampling loop, so the game thread does not share
the GIL with sampling.

A worker that dies (SIGSEGV, SIGILL, SIGBUS in native code, an OOM kill) ends the request
in flight with a `crash` error, and is started again one rung down the settings ladder
(`local.protocol.LADDER`: llama.cpp's own buffers, then plain CPU buffers, then one thread
and small batches). After `local.client.ladder.CRASHES_TO_GIVE_UP` crashes within
`local.client.ladder.CRASH_WINDOW_S` the provider stops trying: every request fails at once (the
fallback brain answers) and `notice` says how to fix the build.

Before the first use on a machine, the worker probes: it decodes a prompt-sized batch and
a few tokens with each rung until one works (`local.client.probe`). The choice is remembered in
the user cache, so later starts skip the probe. Which rung runs, and what crashes did, is
kept by `local.client.ladder`; each request's job and stream are in `local.client.job`,
and the queue they wait in is `local.client.queue`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import threading
import time
from collections import deque
from pathlib import Path

from game.agent.providers.base import Done, Provider, ProviderError, ProviderRequest
from game.agent.providers.errors import CrashFailure, TransportFailure
from game.agent.providers.local.client.job import (
    Chatwriter,
    Job,
    LocalStream,
    Scriptwriter,
    priority_of,
    run_on,
)
from game.agent.providers.local.client.ladder import Ladder, LoadFailed, monotonic
from game.agent.providers.local.client.probe import PROBE_FILE, Choice, ProbeCache, probe_key
from game.agent.providers.local.client.process import Crash, WorkerDied, WorkerProcess
from game.agent.providers.local.client.queue import JobQueue
from game.agent.providers.local.hub import resolve_model_path
from game.agent.providers.local.model import (
    DEFAULT_MODEL_FILE,
    INSTALL_HINT,
    LocalModelError,
    ProgressCallback,
    cache_dir,
    llama_cpp_available,
    model_label,
)
from game.agent.providers.local.protocol import (
    PREEMPTED,
    JobStats,
    LlamaSettings,
    ProbeTimes,
    WorkerConfig,
    Yield,
)
from game.agent.providers.registry import REGISTRY

__all__ = [
    "DEFAULT_MODEL_NAME",
    "JobStats",
    "LocalLlamaProvider",
    "default_threads",
]

DEFAULT_MODEL_NAME = DEFAULT_MODEL_FILE
_STATE_BUDGET = 256 * 1024 * 1024


log = logging.getLogger(__name__)


def default_threads() -> int:
    """Threads for llama.cpp: all cores but one (at least one), so the window keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


class LocalLlamaProvider(Provider):
    """llama.cpp in a worker process; see the module docstring.

    The model is assembled (bundled GGUF) and loaded at the first request, or at
    `await load()`. `on_progress(fraction, message)` is called from the supervisor
    thread: 0-0.9 while the bundled model is assembled or verified, 0.9 while loading
    (0.95 while probing), 1.0 when ready. `stats` keeps the `JobStats` of recent requests.
    Read here and in the worker: `request.npc_id` (whose KV state) and the options
    `priority`, `tool_choice` and `stop` (default a newline), and `prime`. A model without
    a chat template plays what `scriptwriter` writes of a request (with `script_prefix`,
    the text every script opens with, read back at the worker's start); the rest, and
    everything on a model with a chat template, goes the chat path, as `chatwriter`
    writes it (the notes a line needs; the turn ended once it has spoken). `model_path`
    may also be a catalogue name or an hf:// address: the first load downloads it
    (`local.hub`), with progress.
    """

    name = "local"
    capabilities = REGISTRY["local"].capabilities  # serial, primes, loads

    def __init__(
        self,
        model_path: Path | str | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        on_progress: ProgressCallback | None = None,
        n_batch: int = 512,
        seed: int | None = None,
        state_cache_bytes: int = _STATE_BUDGET,
        prompt_format: str = "auto",
        chat_template: str | None = None,
        verbose: bool = False,
        probe_cache: Path | None = None,
        scriptwriter: Scriptwriter | None = None,
        script_prefix: str | None = None,
        chatwriter: Chatwriter | None = None,
    ) -> None:
        if prompt_format not in ("auto", "chat", "completion"):
            raise ValueError(f"prompt_format must be auto, chat or completion: {prompt_format!r}")
        self._model_ref = model_path  # a path, a catalogue name or an hf:// address
        self.model = model_label(model_path)
        self.n_ctx = n_ctx
        self.n_threads = n_threads if n_threads is not None else default_threads()
        self.n_batch = n_batch
        self.seed = seed if seed is not None else 0x5EED
        self.on_progress = on_progress
        self.state_cache_bytes = state_cache_bytes
        self.prompt_format = prompt_format
        self.chat_template = chat_template
        self.verbose = verbose
        self.scriptwriter = scriptwriter
        self.script_prefix = script_prefix
        self.chatwriter = chatwriter
        self.ladder = Ladder(ProbeCache(probe_cache or cache_dir() / PROBE_FILE))
        self._stats: deque[JobStats] = deque(maxlen=256)
        self._reading: list[Job] = []  # read-aheads not yet finished
        self.queue = JobQueue()
        self._cv = self.queue.cv  # guards the queue and the worker
        self._started = itertools.count()
        self._worker: WorkerProcess | None = None
        self._path: Path | None = None
        self._load_error: str | None = None
        self._thread = threading.Thread(target=self._run, name="local-llama", daemon=True)
        self._thread.start()

    # --- public API ---------------------------------------------------------------------

    def stream(self, request: ProviderRequest) -> LocalStream:
        """Stream the answer as events; the request is queued at once (by priority)."""
        return LocalStream(self._submit, request)

    def prime(self, request: ProviderRequest) -> None:
        """Read an NPC's context ahead of its turn (`AgentRuntime.prime`): queued at the
        turn's priority, answered with nothing; the turn after it resumes from it."""
        options = request.options.model_copy(update={"prime": True})
        job = self._submit(request.model_copy(update={"options": options}))
        self._reading = [j for j in self._reading if not j.finished.is_set()] + [job]

    async def primed(self) -> None:
        """Wait until every read-ahead asked so far has been read (or dropped)."""
        for job in list(self._reading):
            await job.finished.wait()

    async def load(self) -> ProviderError | None:
        """Assemble and load the model now (highest priority); the error, if it failed."""
        job = self._submit(None, kind="load", priority=1 << 30)
        event = await job.queue.get()
        return event if isinstance(event, ProviderError) else None

    def pause(self) -> None:
        """Let the running request finish but start no other until `resume()`."""
        self.queue.pause()

    def resume(self) -> None:
        """Start serving queued requests again."""
        self.queue.resume()

    def pending(self) -> int:
        """How many requests wait in the queue (the running one excluded)."""
        return self.queue.pending()

    @property
    def stats(self) -> deque[JobStats]:
        """The `JobStats` of recent requests (the newest 256), newest last."""
        return self._stats

    @property
    def choice(self) -> Choice | None:
        """The llama.cpp settings in use, and why (None before the first load)."""
        return self.ladder.choice

    @property
    def probed_now(self) -> bool:
        """True when the choice was probed by this provider, not read back from the cache."""
        return self.ladder.probed_now

    @property
    def crashes(self) -> list[Crash]:
        """Every crash of the worker so far, the probe's included."""
        return self.ladder.crashes

    @property
    def gave_up(self) -> bool:
        """True once the worker crashed too often: the session stays on the fallback."""
        return self.ladder.gave_up

    @property
    def notice(self) -> str | None:
        """One line for the screen after a crash (or after giving up), else None."""
        return self.ladder.notice

    def settings_report(self) -> str | None:
        """Which llama.cpp settings are in use and why (None before the first load)."""
        return self.ladder.settings_report()

    def crash_line(self) -> str | None:
        """One line about the crashes a player would see (None if there were none)."""
        return self.ladder.crash_line()

    def close(self) -> None:
        """Cancel everything, stop the worker process and the supervisor (blocking)."""
        with self._cv:
            queued = self.queue.close()
            worker = self._worker
        for job in queued:
            job.emit(ProviderError(kind="transport", message="the local model was closed"))
            job.cancel()
            job.mark_finished()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=10)
            if self._thread.is_alive() and worker is not None:
                worker.proc.kill()  # stuck in native code: the supervisor sees it die
                self._thread.join()

    async def aclose(self) -> None:
        """Cancel everything, stop the worker (joined) and free the model."""
        await asyncio.to_thread(self.close)

    # --- queue and supervisor -----------------------------------------------------------

    def _submit(
        self, request: ProviderRequest | None, *, kind: str = "stream", priority: int | None = None
    ) -> Job:
        loop = asyncio.get_running_loop()
        if priority is None:
            priority = priority_of(request)
        job = self.queue.job(request, loop, priority, kind)
        with self._cv:
            if not self.queue.put(job):
                job.emit(ProviderError(kind="transport", message="the local model was closed"))
                job.mark_finished()
                return job
            self._make_way(priority)
        return job

    def _make_way(self, priority: int) -> None:
        """A more urgent request came: the running one gives way if it has not spoken yet
        (it runs again right after). Under `_cv`."""
        current, worker = self.queue.outranked(priority), self._worker
        if current is None:
            return
        current.yielding = True
        if worker is not None and worker.serving == current.stats.seq:
            worker.send(Yield(id=current.stats.seq))

    def _requeue(self, job: Job) -> bool:
        """Put a request that gave way back in the queue, before later ones of its
        priority; False when it did not give way (or its caller cancelled it meanwhile)."""
        if job.stats.outcome != PREEMPTED or job.cancelled.is_set():
            return False
        job.yielding = False
        job.on_cancel = None
        job.stats = JobStats(
            npc_id=job.stats.npc_id, priority=job.stats.priority, seq=job.stats.seq
        )
        with self._cv:
            return self.queue.put(job)

    def _run(self) -> None:
        try:
            while (job := self.queue.take()) is not None:
                requeued = False
                try:
                    self._serve(job)
                    requeued = self._requeue(job)
                finally:
                    self.queue.done()
                    if not requeued:
                        job.mark_finished()
                if self._worker is None and self.ladder.crashes and self._restartable():
                    self._restart_after_crash()
        finally:
            with self._cv:
                worker, self._worker = self._worker, None
            if worker is not None:
                worker.stop()

    def _serve(self, job: Job) -> None:
        stats = job.stats
        stats.start_index = next(self._started)
        try:
            if job.cancelled.is_set():
                stats.cancelled, stats.outcome = True, "cancelled before start"
                return
            worker = self._ensure_worker()
            stats.settings = worker.settings
            if job.kind == "load":
                job.emit(Done(stop_reason="loaded"))
                stats.outcome = "loaded"
                return
            run_on(worker, job, self.scriptwriter, self.chatwriter)
            self.ladder.served_since_crash = True
        except LoadFailed as exc:
            failure = CrashFailure(str(exc)) if self.ladder.gave_up else TransportFailure(str(exc))
            stats.outcome = f"error: {failure.kind}"
            job.emit(failure.to_event())
        except WorkerDied as died:
            stats.outcome = "error: crash"
            self._crashed(died.crash)
            job.emit(CrashFailure(self.crash_line() or str(died)).to_event())
        except Exception as exc:  # the supervisor must outlive any one request
            log.exception("the local model's supervisor failed a request")
            stats.outcome = "error: internal"
            job.emit(TransportFailure(f"local model failed: {exc!r}").to_event())
        finally:
            stats.total_s = time.perf_counter() - job.submitted
            stats.cancelled = job.cancelled.is_set()
            if job.kind != "load":
                self._stats.append(stats)

    # --- starting the worker, crashes ----------------------------------------------------

    def worker_config(self, settings: LlamaSettings, probe: bool = False) -> WorkerConfig:
        """What a worker on `settings` loads, and how (after the model path is known)."""
        assert self._path is not None
        return WorkerConfig(
            model_path=str(self._path),
            settings=settings.name,
            n_ctx=self.n_ctx,
            n_threads=self.n_threads,
            n_batch=self.n_batch,
            seed=self.seed,
            state_cache_bytes=self.state_cache_bytes,
            prompt_format=self.prompt_format,
            chat_template=self.chat_template,
            verbose=self.verbose,
            probe=probe,
            # The example block's KV cache is kept beside the probe's record.
            prefix_dir=str(self.ladder.probe_cache.path.parent / "prefix"),
            script_prefix=self.script_prefix,
        )

    def _start(
        self, settings: LlamaSettings, probe: bool, report: ProgressCallback
    ) -> tuple[WorkerProcess, ProbeTimes | None]:
        """Start a worker on `settings`; it and its probe figures once it is ready."""
        try:
            worker = WorkerProcess(self.worker_config(settings, probe))
        except OSError as exc:
            raise LoadFailed(f"cannot start the local model's worker process: {exc}") from exc
        try:
            failed, figures = worker.handshake(report)
        except WorkerDied:
            worker.stop()
            raise
        if failed is not None:
            worker.stop()
            raise LoadFailed(failed)
        return worker, figures

    def _ensure_worker(self) -> WorkerProcess:
        if self._worker is not None:
            return self._worker
        if self.ladder.gave_up:
            raise LoadFailed(self.crash_line() or "the local model crashed")
        if self._load_error is not None:
            raise LoadFailed(self._load_error)
        # Progress is for the first load; a restart after a crash has the notice instead.
        report = monotonic(None if self.ladder.crashes else self.on_progress)
        try:
            if not llama_cpp_available():
                raise LocalModelError(f"llama-cpp-python is not installed: {INSTALL_HINT}")
            if self._path is None:  # once: the model and what the probe's record hangs on
                self._path = resolve_model_path(self._model_ref, lambda f, m: report(0.9 * f, m))
                self.model = self._path.name
                self.ladder.key = probe_key(self._path)
            worker = self.ladder.start(self._start, report)
        except LocalModelError as exc:
            self._load_error = str(exc)
            raise LoadFailed(self._load_error) from exc
        except LoadFailed as exc:
            self._load_error = str(exc)
            raise
        report(1.0, f"{self.model} loaded ({worker.settings} settings)")
        with self._cv:
            self._worker = worker
        return worker

    def _restartable(self) -> bool:
        return not (self.ladder.gave_up or self.queue.closing or self._load_error is not None)

    def _restart_after_crash(self) -> None:
        """Start the next worker now, so the next turn does not wait for it to load."""
        try:
            self._ensure_worker()
        except LoadFailed as exc:
            log.warning("%s", exc)

    def _crashed(self, crash: Crash) -> None:
        """Stop the worker that died, and let the ladder count the crash."""
        with self._cv:
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop(timeout=1)
        self.ladder.crashed(crash)
