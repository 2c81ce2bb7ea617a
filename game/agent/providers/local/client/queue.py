"""The local provider's queue: the requests waiting for the worker, higher priority first
and first come first within one priority, and the one the worker is serving.

Its condition `cv` guards the queue, the running job and what the provider keeps beside
them (its worker): the caller's loop puts jobs in, the supervisor thread takes them out.
A more urgent request asks the running one to give way (`outranked`) when it has shown
nothing yet; the job that gave way is put back (`put`), ahead of later ones of its
priority, as its sequence number is older.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading

from game.agent.providers.base import ProviderRequest
from game.agent.providers.local.client.job import Job

__all__ = ["JobQueue"]


class JobQueue:
    """Jobs by priority (higher first), FIFO within one; the running one; pause and close."""

    def __init__(self) -> None:
        self.cv = threading.Condition()
        self._heap: list[tuple[int, int, Job]] = []
        self._seq = itertools.count()
        self.paused = False
        self.closing = False
        self.current: Job | None = None  # the job the worker is serving

    def job(
        self,
        request: ProviderRequest | None,
        loop: asyncio.AbstractEventLoop,
        priority: int,
        kind: str,
    ) -> Job:
        """A new job, numbered in the order jobs are made."""
        return Job(request, loop, priority, next(self._seq), kind)

    def put(self, job: Job) -> bool:
        """Queue `job` by its priority and number (under `cv`); False once closing."""
        if self.closing:
            return False
        heapq.heappush(self._heap, (-job.stats.priority, job.stats.seq, job))
        self.cv.notify()
        return True

    def take(self) -> Job | None:
        """Wait for the next job, which becomes `current`; None once closing."""
        with self.cv:
            while not self.closing and (self.paused or not self._heap):
                self.cv.wait()
            if self.closing:
                return None
            _, _, job = heapq.heappop(self._heap)
            self.current = job
            return job

    def done(self) -> None:
        """The worker is done with the current job."""
        with self.cv:
            self.current = None

    def outranked(self, priority: int) -> Job | None:
        """The running job, when a request of `priority` should make it give way: a stream
        less urgent that has sent no event yet and was not asked already (under `cv`)."""
        current = self.current
        if (
            current is None
            or current.kind != "stream"
            or current.yielding
            or priority <= current.stats.priority
            or current.stats.first_event_s is not None
        ):
            return None
        return current

    def pause(self) -> None:
        """Let the running job finish but hand out no other until `resume()`."""
        with self.cv:
            self.paused = True

    def resume(self) -> None:
        """Hand out queued jobs again."""
        with self.cv:
            self.paused = False
            self.cv.notify_all()

    def pending(self) -> int:
        """How many jobs wait (the running one excluded)."""
        with self.cv:
            return len(self._heap)

    def close(self) -> list[Job]:
        """Hand out no more jobs (under `cv`): the queued ones, taken out, for their callers
        to be told; the running one cancelled."""
        self.closing = True
        queued = [job for _, _, job in self._heap]
        self._heap.clear()
        if self.current is not None:
            self.current.cancel()
        self.cv.notify_all()
        return queued
