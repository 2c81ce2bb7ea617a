"""The llama.cpp worker process: `python -m game.agent.providers.local.worker`.

It owns the `Llama` object, the grammars, the sampler and the per-character KV states,
and speaks the typed line protocol of `local.protocol` on its stdin and stdout. Anything
native code prints goes to stderr: the protocol keeps a private copy of the original
stdout. One thread reads stdin (so a cancel lands while a request runs), one serves
requests: a chat request (`engine`) or a script job (`player`).

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
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, BinaryIO

from pydantic import BaseModel

from game.agent.providers.base import ProviderError, ProviderEvent, ProviderRequest, Usage
from game.agent.providers.errors import ProviderFailure
from game.agent.providers.local.model import LocalModelError
from game.agent.providers.local.protocol import (
    FAULT_ENV,
    PREEMPTED,
    Cancel,
    End,
    Event,
    Failed,
    JobStats,
    Probe,
    ProbeTimes,
    Progress,
    Ready,
    Run,
    Start,
    Yield,
    encode,
    settings_named,
    to_worker,
)
from game.agent.providers.local.script import ScriptJob
from game.safe_json import load_json

PHASES = ("load", "decode", "stream")
_RUN_AT_START = re.compile(rb'\{\s*"op"\s*:\s*"run"\s*,\s*"id"\s*:\s*([0-9]{1,18})\s*[,}]')


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

    def __call__(self, message: BaseModel) -> None:
        data = encode(message)
        with self._lock:
            self._out.write(data)
            self._out.flush()


class WorkerJob:
    """One request being served: the engine emits into it, the reader may cancel it.
    `request` is a chat request; `script` a script job (then `request` is an empty one)."""

    def __init__(
        self,
        job_id: int,
        request: ProviderRequest,
        send: Sender,
        fault: Fault | None,
        script: ScriptJob | None = None,
        key: str | None = None,
    ) -> None:
        self.id = job_id
        self.request = request
        self.script = script
        self.key = key
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
            self.send(Event(id=self.id, event=event))
            if isinstance(event, Usage):
                return
            self._events += 1
        if self._events == 1 and self.fault is not None and self.fault.phase == "stream":
            self.fault.fire()

    def finish(self) -> None:
        if self.preempted:
            self.stats.outcome = PREEMPTED
        self.send(End(id=self.id, stats=self.stats.worker_part()))


def _serve(engine: Any, job: WorkerJob) -> None:
    stats = job.stats
    stats.npc_id = job.key
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


def _refuse(line: bytes, send: Sender) -> None:
    """A `run` line that is not a valid request still ends, with a parse error, so the
    game never waits for it."""
    request_id = _run_id(line)
    if request_id is not None:
        error = ProviderError(kind="parse", message="the worker got a request it cannot read")
        send(Event(id=request_id, event=error))
        send(End(id=request_id, stats=JobStats(None, 0, request_id).worker_part()))


def _run_id(line: bytes) -> int | None:
    """The id of a `run` line (None for any other line), read from the line's start, as
    the game writes it, when the rest cannot be read (nested too deep, cut short)."""
    try:
        data = load_json(line)
    except ValueError:
        found = _RUN_AT_START.match(line)
        return int(found.group(1)) if found is not None else None
    if isinstance(data, dict) and data.get("op") == "run":
        request_id = data.get("id")
        if isinstance(request_id, int) and not isinstance(request_id, bool):
            return request_id
    return None


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
    # Ctrl-C, and the hang-up of a closed terminal, reach the whole process group; the game
    # ends this process by closing its stdin, after its own shutdown (which saves).
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):  # Windows has no SIGHUP
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    first = to_worker(sys.stdin.buffer.readline())
    if not isinstance(first, Start):
        send(Failed(message="the worker got no start line"))
        return 2
    config = first.config
    settings = settings_named(config.settings)
    fault = Fault.from_env(settings.name)
    if fault is not None and fault.phase == "load":
        fault.fire()
    from game.agent.providers.local.worker.engine import load_engine

    def report(fraction: float, message: str) -> None:
        send(Progress(fraction=fraction, message=message))

    try:
        engine = load_engine(config, settings, report)
    except LocalModelError as exc:
        send(Failed(message=str(exc)))
        return 0
    if fault is not None and fault.phase == "decode":
        real_eval = engine.llm.eval

        def faulting_eval(tokens: Any) -> Any:
            fault.fire()
            return real_eval(tokens)

        engine.llm.eval = faulting_eval
    if config.probe:
        send(Progress(fraction=0.95, message=f"probing {settings.name}", probing=True))
        send(ProbeTimes.model_validate(engine.probe()))
    engine.warm()  # the scripts' prefix, if an earlier run kept its KV cache on disk
    send(Ready(template=engine.template is not None))

    jobs: queue.SimpleQueue[WorkerJob | str | None] = queue.SimpleQueue()
    running: dict[int, WorkerJob] = {}

    def serve_all() -> None:
        while (job := jobs.get()) is not None:
            if job == "probe":
                send(ProbeTimes.model_validate(engine.probe()))
                continue
            assert isinstance(job, WorkerJob)
            _serve(engine, job)
            running.pop(job.id, None)

    server = threading.Thread(target=serve_all, name="llama-serve")
    server.start()
    try:
        for line in sys.stdin.buffer:
            message = to_worker(line)
            if isinstance(message, Run):
                job = WorkerJob(
                    message.id,
                    message.request or ProviderRequest(system="", messages=[]),
                    send,
                    fault,
                    message.script,
                    message.key,
                )
                running[message.id] = job
                jobs.put(job)
            elif isinstance(message, Probe):
                jobs.put("probe")
            elif isinstance(message, Cancel | Yield):
                job_or_none = running.get(message.id)
                if job_or_none is not None and isinstance(message, Cancel):
                    job_or_none.cancel()
                elif job_or_none is not None:
                    job_or_none.preempt()
            elif message is None:
                _refuse(line, send)
    finally:
        for job in list(running.values()):
            job.cancel()
        jobs.put(None)
        server.join()
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
