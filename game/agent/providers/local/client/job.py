"""One request's way through the local provider: its job and the stream its caller reads.

The supervisor thread (`local.client.provider`) serves `Job`s one at a time (`run_on`: the
job sent to the worker, its events relayed until the worker ends it) and hands each event
to the job's caller with `call_soon_threadsafe`; `LocalStream` is the async iterator the
caller holds, and cancelling it cancels the job (the worker is told, and killed if it has
not ended the job `CANCEL_GRACE_S` later).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from game.agent.providers.base import Done, ProviderError, ProviderEvent, ProviderRequest, Usage
from game.agent.providers.local.client.process import WorkerDied, WorkerProcess
from game.agent.providers.local.protocol import Cancel, End, Event, JobStats, Run, Yield
from game.agent.providers.local.script import ScriptJob

__all__ = [
    "CANCEL_GRACE_S",
    "Chatwriter",
    "Job",
    "LocalStream",
    "Scriptwriter",
    "priority_of",
    "run_on",
    "work_for",
]

CANCEL_GRACE_S = 10.0  # a worker that has not ended a cancelled request by then is killed

# What plays a request as a script job for a base model (`game.npc.play.writer.script_job`,
# handed in by the game); None: not a script.
Scriptwriter = Callable[[ProviderRequest], ScriptJob | None]
# What a model with a chat template is asked for a request: the request with the notes its
# line needs, or None when the turn is over (`game.npc.play.writer.chat_request`, handed in).
Chatwriter = Callable[[ProviderRequest], ProviderRequest | None]


def work_for(
    request: ProviderRequest,
    seq: int,
    template: bool,
    scriptwriter: Scriptwriter | None,
    chatwriter: Chatwriter | None,
) -> Run:
    """What the worker is sent for a request: a script job when the model has no chat
    template and the scriptwriter plays it; else the request, as the chatwriter writes it
    for a model with a chat template (a finished script job once the turn is over)."""
    key = request.npc_id
    if not template and scriptwriter is not None:
        script = scriptwriter(request)
        if script is not None:
            return Run(id=seq, key=key, script=script)
    if template and chatwriter is not None:
        written = chatwriter(request)
        if written is None:
            return Run(
                id=seq,
                key=key,
                script=ScriptJob(key=key or "", prefix="", prompt="", finished=True),
            )
        request = written
    return Run(id=seq, key=key, request=request)


class Job:
    """One request on its way through the worker: where its events go, and its cancel flag."""

    def __init__(
        self,
        request: ProviderRequest | None,
        loop: asyncio.AbstractEventLoop,
        priority: int,
        seq: int,
        kind: str = "stream",
    ) -> None:
        self.request = request
        self.kind = kind
        self.loop = loop
        self.queue: asyncio.Queue[ProviderEvent] = asyncio.Queue()
        self.cancelled = threading.Event()
        self.finished = asyncio.Event()  # set on the caller's loop once the worker is done
        self.submitted = time.perf_counter()
        self.on_cancel: Callable[[], None] | None = None  # tells the worker, once it has it
        self.yielding = False  # asked to give way to a more urgent request
        npc = request.npc_id if request is not None else None
        self.stats = JobStats(npc_id=npc or None, priority=priority, seq=seq)

    def cancel(self) -> None:
        """Cancel the job (once) and tell the worker, if it has the job already."""
        if not self.cancelled.is_set():
            self.cancelled.set()
            if self.on_cancel is not None:
                self.on_cancel()

    def mark_finished(self) -> None:
        """Tell the caller's loop that the worker is done with the job."""
        try:
            self.loop.call_soon_threadsafe(self.finished.set)
        except RuntimeError:
            pass

    def emit(self, event: ProviderEvent) -> None:
        """Hand one event to the caller's loop (a closed loop cancels the job)."""
        if self.stats.first_event_s is None and not isinstance(event, Usage | Done):
            self.stats.first_event_s = time.perf_counter() - self.submitted
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, event)
        except RuntimeError:  # the caller's loop is closed: nobody listens any more
            self.cancel()


class LocalStream:
    """The async iterator `stream()` returns; enqueued at creation when a loop is running."""

    _job: Job | None = None  # class defaults: `__del__` reads them even after a failed init
    _finished = True

    def __init__(self, submit: Callable[[ProviderRequest], Job], request: ProviderRequest) -> None:
        self._submit = submit
        self._request = request
        self._finished = False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._job = submit(request)

    @property
    def stats(self) -> JobStats | None:
        """The figures of this request (filled in when the worker is done with it)."""
        return self._job.stats if self._job is not None else None

    def __aiter__(self) -> LocalStream:
        return self

    async def __anext__(self) -> ProviderEvent:
        if self._finished:
            raise StopAsyncIteration
        if self._job is None:
            self._job = self._submit(self._request)
        try:
            event = await self._job.queue.get()
        except asyncio.CancelledError:
            self._job.cancel()
            self._finished = True
            raise
        if isinstance(event, Done | ProviderError):
            self._finished = True
        return event

    async def wait_finished(self) -> JobStats | None:
        """Wait until the worker is completely done with this request; its final stats."""
        if self._job is None:
            return None
        await self._job.finished.wait()
        return self._job.stats

    def cancel(self) -> None:
        """Stop generation (within one token); no more events are delivered."""
        self._finished = True
        if self._job is not None:
            self._job.cancel()

    async def aclose(self) -> None:
        """Same as `cancel()`: the async-generator way to stop a stream."""
        self.cancel()

    def __del__(self) -> None:
        if self._job is not None and not self._finished:
            self._job.cancel()


def priority_of(request: ProviderRequest | None) -> int:
    """The request's `options.priority` (higher first); 0 for a load."""
    return request.options.priority if request is not None else 0


def run_on(
    worker: WorkerProcess,
    job: Job,
    scriptwriter: Scriptwriter | None,
    chatwriter: Chatwriter | None,
) -> None:
    """Send `job` to `worker` (as `work_for` writes it) and hand the worker's events to its
    caller until the worker ends it; WorkerDied when the worker dies on the way."""
    assert job.request is not None
    seq = job.stats.seq
    sent_at = time.perf_counter()
    worker.serving = seq
    if not worker.send(work_for(job.request, seq, worker.template, scriptwriter, chatwriter)):
        raise WorkerDied(worker.death("a reply"))
    if job.yielding:  # a more urgent request came while this one was being sent
        worker.send(Yield(id=seq))
    watchdog = threading.Timer(CANCEL_GRACE_S, worker.kill_if_serving, (seq,))
    watchdog.daemon = True

    def tell_worker() -> None:
        worker.send(Cancel(id=seq))
        watchdog.start()

    job.on_cancel = tell_worker
    if job.cancelled.is_set():  # cancelled between the check and the hook
        tell_worker()
    try:
        while True:
            message = worker.read("a reply")
            if isinstance(message, Event) and message.id == seq:
                job.emit(message.event)
            elif isinstance(message, End) and message.id == seq:
                job.stats.merge(message.stats, sent_at - job.submitted)
                return
    finally:
        worker.serving = None
        watchdog.cancel()
