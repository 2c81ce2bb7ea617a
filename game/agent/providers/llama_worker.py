"""The llama.cpp worker process: `python -m game.agent.providers.llama_worker`.

It owns the `Llama` object, the grammars, the sampler and the per-NPC KV states, and
speaks the line protocol of `llama_protocol` on its stdin and stdout. Anything native
code prints goes to stderr: the protocol keeps a private copy of the original stdout.
One thread reads stdin (so a cancel lands while a request runs), one serves requests.

The fault hook, for tests: `NPC_VILLAGE_LLAMA_FAULT` holds comma-separated
`PHASE[:SIGNAL][@SETTINGS]` entries, read only here. PHASE is `load` (before the model
loads), `decode` (the first decode, the probe's or a request's) or `stream` (right after
a request's first event); SIGNAL defaults to SIGSEGV, and HANG stops answering instead
(native code stuck in a loop); SETTINGS limits the fault to one rung of the ladder
(`decode@default` is a CPU whose AMX code faults).
"""

from __future__ import annotations

import faulthandler
import os
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, BinaryIO

from pydantic import ValidationError

from game.agent.providers.base import ProviderError, ProviderEvent, ProviderRequest, Usage
from game.agent.providers.errors import ProviderFailure
from game.agent.providers.llama_protocol import (
    FAULT_ENV,
    PREEMPTED,
    JobStats,
    WorkerConfig,
    decode,
    encode,
    settings_named,
)
from game.agent.providers.local_model import LocalModelError

PHASES = ("load", "decode", "stream")


@dataclass(frozen=True)
class Fault:
    """Where the worker kills itself, and with which signal (the test hook)."""

    phase: str
    signum: int  # 0: hang

    @classmethod
    def from_env(cls, settings: str) -> Fault | None:
        """The first entry of `$NPC_VILLAGE_LLAMA_FAULT` that applies to this rung."""
        for entry in os.environ.get(FAULT_ENV, "").split(","):
            spec, _, rung = entry.strip().partition("@")
            phase, _, name = spec.partition(":")
            if phase not in PHASES or (rung and rung != settings):
                continue
            signum = 0 if name == "HANG" else getattr(signal, name or "SIGSEGV", None)
            if isinstance(signum, int):
                return cls(phase, signum)
        return None

    def fire(self) -> None:
        """Die by the signal, as native code that faults does (or hang, as stuck code does)."""
        sys.stderr.flush()
        while self.signum == 0:
            time.sleep(3600)
        os.kill(os.getpid(), self.signum)
        time.sleep(10)  # a signal that does not kill (it should): never carry on
        os._exit(70)


class Sender:
    """Writes protocol lines to the private copy of stdout, one whole line at a time."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._lock = threading.Lock()

    def __call__(self, message: dict[str, Any]) -> None:
        data = encode(message)
        with self._lock:
            self._out.write(data)
            self._out.flush()


class WorkerJob:
    """One request being served: the engine emits into it, the reader may cancel it."""

    def __init__(
        self, job_id: int, request: ProviderRequest, send: Sender, fault: Fault | None
    ) -> None:
        self.id = job_id
        self.request = request
        self.send = send
        self.fault = fault
        self.cancelled = threading.Event()
        self.submitted = time.perf_counter()
        self.stats = JobStats(npc_id=None, priority=0, seq=job_id)
        self.preempted = False  # gave way to a more urgent request before its first event
        self._events = 0
        self._lock = threading.Lock()  # emit and preempt: no event slips out after a yield

    def cancel(self) -> None:
        if not self.cancelled.is_set():
            self.stats.tokens_at_cancel = self.stats.output_tokens
            self.cancelled.set()

    def preempt(self) -> bool:
        """Stop here for a more urgent request, if nothing reached the game yet: the game
        queues this one again and it runs later from the start. False once it spoke."""
        with self._lock:
            if self._events:
                return False
            self.preempted = True
        self.cancel()
        return True

    def emit(self, event: ProviderEvent) -> None:
        with self._lock:
            if self.preempted:
                return
            self.send({"t": "ev", "id": self.id, "e": event.model_dump(mode="json")})
            if isinstance(event, Usage):
                return
            self._events += 1
        if self._events == 1 and self.fault is not None and self.fault.phase == "stream":
            self.fault.fire()

    def finish(self) -> None:
        if self.preempted:
            self.stats.outcome = PREEMPTED
        self.send({"t": "end", "id": self.id, "stats": self.stats.worker_part()})


def _serve(engine: Any, job: WorkerJob) -> None:
    stats = job.stats
    stats.npc_id = job.request.npc_id or None
    try:
        if job.cancelled.is_set():
            stats.outcome = "cancelled before start"
            return
        engine.run(job)
    except ProviderFailure as failure:
        stats.outcome = f"error: {failure.kind}"
        job.emit(failure.to_event())
    except Exception as exc:  # never let one request end the worker: report it
        stats.outcome = "error: internal"
        job.emit(ProviderError(kind="transport", message=f"local model failed: {exc!r}"))
    finally:
        job.finish()


def _private_stdout() -> BinaryIO:
    """A copy of stdout for the protocol; fd 1 (and `print`) go to stderr from now on."""
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, "wb", buffering=0)


def main() -> int:
    """Run the worker until its stdin ends."""
    send = Sender(_private_stdout())
    faulthandler.enable(file=sys.stderr)  # a native crash leaves its stack in the game's log
    # Ctrl-C in a terminal reaches the whole process group; the game ends this process
    # by closing its stdin, after its own shutdown, not by the keyboard.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    first = decode(sys.stdin.buffer.readline())
    if first is None or first.get("op") != "start":
        send({"t": "failed", "message": "the worker got no start line"})
        return 2
    config = WorkerConfig.from_json(first)
    settings = settings_named(config.settings)
    fault = Fault.from_env(settings.name)
    if fault is not None and fault.phase == "load":
        fault.fire()
    from game.agent.providers.llama_engine import load_engine

    def report(fraction: float, message: str) -> None:
        send({"t": "progress", "f": fraction, "m": message})

    try:
        engine = load_engine(config, settings, report)
    except LocalModelError as exc:
        send({"t": "failed", "message": str(exc)})
        return 0
    if fault is not None and fault.phase == "decode":
        real_eval = engine.llm.eval

        def faulting_eval(tokens: Any) -> Any:
            fault.fire()
            return real_eval(tokens)

        engine.llm.eval = faulting_eval
    if config.probe:
        send({"t": "progress", "f": 0.95, "m": f"probing {settings.name}", "phase": "probe"})
        send({"t": "probe", **engine.probe()})
    engine.warm()  # the example block, if an earlier run kept it on disk
    send({"t": "ready", "template": engine.template is not None})

    jobs: queue.SimpleQueue[WorkerJob | str | None] = queue.SimpleQueue()
    running: dict[int, WorkerJob] = {}

    def serve_all() -> None:
        while (job := jobs.get()) is not None:
            if job == "probe":
                send({"t": "probe", **engine.probe()})
                continue
            assert isinstance(job, WorkerJob)
            _serve(engine, job)
            running.pop(job.id, None)

    server = threading.Thread(target=serve_all, name="llama-serve")
    server.start()
    try:
        for line in sys.stdin.buffer:
            message = decode(line)
            if message is None:
                continue
            if message.get("op") == "run":
                job_id = int(message["id"])
                try:
                    request = ProviderRequest.model_validate(message["request"])
                except ValidationError as exc:
                    bad = WorkerJob(job_id, ProviderRequest(system="", messages=[]), send, None)
                    bad.emit(ProviderError(kind="parse", message=f"bad request: {exc}"[:300]))
                    bad.finish()
                    continue
                job = WorkerJob(job_id, request, send, fault)
                running[job_id] = job
                jobs.put(job)
            elif message.get("op") == "probe":
                jobs.put("probe")
            elif message.get("op") == "cancel":
                job_or_none = running.get(int(message["id"]))
                if job_or_none is not None:
                    job_or_none.cancel()
            elif message.get("op") == "yield":
                job_or_none = running.get(int(message["id"]))
                if job_or_none is not None:
                    job_or_none.preempt()
    finally:
        for job in list(running.values()):
            job.cancel()
        jobs.put(None)
        server.join()
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
