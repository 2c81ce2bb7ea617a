"""Lanes: one serial lane per NPC, priorities, idle coalescing and a global limit.

- A lane runs one job at a time for its NPC; queued jobs run highest priority first
  (then oldest first), so a player-facing turn overtakes idle chatter.
- A job of a coalescing kind (an idle tick) submitted while one of the same kind is
  queued replaces its payload and shares its future; each lane holds at most
  `max_queue` jobs (the lowest-priority oldest one is dropped), so queues stay bounded.
- `PriorityLimiter` bounds concurrent provider calls across all lanes; waiting callers
  are served highest priority first.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = ["Lanes", "PriorityLimiter"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class PriorityLimiter:
    """A semaphore whose waiters are woken highest priority first (FIFO within a priority)."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"the concurrency limit must be at least 1, got {limit}")
        self.limit = limit
        self.in_use = 0
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        """How many callers wait for a slot."""
        return len(self._waiters)

    async def acquire(self, priority: int = 0) -> None:
        """Wait for a slot."""
        if self.in_use < self.limit and not self._waiters:
            self.in_use += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (-priority, next(self._order), future)
        heapq.heappush(self._waiters, entry)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # the slot was handed over just as we were cancelled
            elif entry in self._waiters:  # release() may have dropped it already
                self._waiters.remove(entry)
                heapq.heapify(self._waiters)
            raise

    def release(self) -> None:
        """Give a slot back (to the most urgent waiter, if any)."""
        while self._waiters:
            _, _, future = heapq.heappop(self._waiters)
            if not future.done():
                future.set_result(None)  # the slot passes on; in_use is unchanged
                return
        self.in_use -= 1

    @asynccontextmanager
    async def slot(self, priority: int = 0) -> AsyncIterator[None]:
        """Hold a slot for the duration of the block."""
        await self.acquire(priority)
        try:
            yield
        finally:
            self.release()


@dataclass(order=True)
class _Job(Generic[T]):
    sort_key: tuple[int, int]
    kind: str = field(compare=False)
    payload: Any = field(compare=False)
    future: asyncio.Future[T] = field(compare=False)


@dataclass
class _Lane(Generic[T]):
    queue: list[_Job[T]] = field(default_factory=list)
    running: _Job[T] | None = None
    worker: asyncio.Task[None] | None = None


class Lanes(Generic[T]):
    """Per-key serial queues of jobs, run by `run(key, payload)`."""

    def __init__(
        self,
        run: Callable[[str, Any], Awaitable[T]],
        *,
        max_queue: int = 16,
        coalesce_kinds: Collection[str] = ("idle",),
        dropped: Callable[[Any, str], T] | None = None,
    ) -> None:
        self._run = run
        self.max_queue = max(1, max_queue)
        self.coalesce_kinds = frozenset(coalesce_kinds)
        self._dropped = dropped
        self._lanes: dict[str, _Lane[T]] = {}
        self._order = itertools.count()

    def submit(self, key: str, payload: Any, *, priority: int, kind: str) -> asyncio.Future[T]:
        """Queue a job on `key`'s lane; must be called on the event loop's thread."""
        loop = asyncio.get_running_loop()
        lane = self._lanes.setdefault(key, _Lane())
        if kind in self.coalesce_kinds:
            for job in lane.queue:
                if job.kind == kind and not job.future.done():
                    job.payload = payload  # the newer tick sees the fresher world
                    return job.future
        job = _Job((-priority, next(self._order)), kind, payload, loop.create_future())
        heapq.heappush(lane.queue, job)
        if len(lane.queue) > self.max_queue:
            self._drop_one(lane)
        if lane.worker is None:
            lane.worker = loop.create_task(self._work(key, lane), name=f"lane:{key}")
        return job.future

    def depth(self, key: str) -> int:
        """Jobs waiting on `key`'s lane (not counting the running one)."""
        lane = self._lanes.get(key)
        return 0 if lane is None else sum(1 for job in lane.queue if not job.future.done())

    def busy(self, key: str) -> bool:
        """True while a job of `key`'s lane runs."""
        lane = self._lanes.get(key)
        return lane is not None and lane.running is not None

    def clear(self, key: str | None = None, reason: str = "cleared") -> int:
        """Drop queued (not running) jobs of one lane or of all; return how many."""
        count = 0
        for lane_key, lane in self._lanes.items():
            if key is None or lane_key == key:
                while lane.queue:
                    count += self._resolve_dropped(heapq.heappop(lane.queue), reason)
        return count

    async def aclose(self) -> None:
        """Drop queued jobs and wait for the running ones to finish."""
        self.clear(reason="closed")
        workers = [lane.worker for lane in self._lanes.values() if lane.worker is not None]
        if workers:
            await asyncio.gather(*workers, return_exceptions=True)

    def _drop_one(self, lane: _Lane[T]) -> None:
        # The lowest-priority, oldest job is the largest sort key's priority, smallest order.
        victim = max(lane.queue, key=lambda job: (job.sort_key[0], -job.sort_key[1]))
        lane.queue.remove(victim)
        heapq.heapify(lane.queue)
        self._resolve_dropped(victim, "dropped: the lane is full")

    def _resolve_dropped(self, job: _Job[T], reason: str) -> int:
        if job.future.done():
            return 0
        if self._dropped is not None:
            job.future.set_result(self._dropped(job.payload, reason))
        else:
            job.future.cancel()
        return 1

    async def _work(self, key: str, lane: _Lane[T]) -> None:
        try:
            while lane.queue:
                job = heapq.heappop(lane.queue)
                if job.future.done():
                    continue  # the submitter gave up on it
                lane.running = job
                try:
                    result = await self._run(key, job.payload)
                except asyncio.CancelledError:
                    job.future.cancel()
                    raise
                except BaseException as exc:  # any failure goes to the submitter, not lost
                    if not job.future.done():
                        job.future.set_exception(exc)
                else:
                    if not job.future.done():
                        job.future.set_result(result)
                finally:
                    lane.running = None
        finally:
            lane.worker = None
