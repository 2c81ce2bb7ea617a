"""Lanes and the priority limiter, on their own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from game.agent.lanes import Lanes, PriorityLimiter

from .helpers import until


async def test_the_limiter_serves_waiters_by_priority_then_age() -> None:
    limiter = PriorityLimiter(1)
    await limiter.acquire()
    order: list[str] = []

    async def waiter(name: str, priority: int) -> None:
        async with limiter.slot(priority):
            order.append(name)

    tasks = [
        asyncio.create_task(waiter(name, priority))
        for name, priority in [("idle-1", 0), ("player", 100), ("idle-2", 0), ("heard", 60)]
    ]
    await until(lambda: limiter.waiting == 4)
    limiter.release()
    await asyncio.gather(*tasks)
    assert order == ["player", "heard", "idle-1", "idle-2"]
    assert limiter.in_use == 0


async def test_a_cancelled_waiter_leaves_the_queue() -> None:
    limiter = PriorityLimiter(1)
    await limiter.acquire()
    waiting = asyncio.create_task(limiter.acquire(5))
    await until(lambda: limiter.waiting == 1)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert limiter.waiting == 0
    limiter.release()
    assert limiter.in_use == 0
    with pytest.raises(ValueError):
        PriorityLimiter(0)


class Worker:
    """Runs lane jobs, holding each until released."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Any]] = []
        self.gates: dict[Any, asyncio.Event] = {}

    async def __call__(self, key: str, payload: Any) -> str:
        self.started.append((key, payload))
        gate = self.gates.setdefault(payload, asyncio.Event())
        await gate.wait()
        return f"done {payload}"

    def release(self, payload: Any) -> None:
        self.gates.setdefault(payload, asyncio.Event()).set()


async def test_one_job_at_a_time_per_lane_and_lanes_in_parallel() -> None:
    worker = Worker()
    lanes: Lanes[str] = Lanes(worker)
    a1 = lanes.submit("a", "a1", priority=0, kind="heard")
    a2 = lanes.submit("a", "a2", priority=0, kind="heard")
    b1 = lanes.submit("b", "b1", priority=0, kind="heard")
    await until(lambda: len(worker.started) == 2)
    assert worker.started == [("a", "a1"), ("b", "b1")]
    assert (lanes.busy("a"), lanes.depth("a"), lanes.depth("b")) == (True, 1, 0)
    worker.release("a1")
    assert await a1 == "done a1"
    await until(lambda: len(worker.started) == 3)
    for name in ("a2", "b1"):
        worker.release(name)
    assert [await a2, await b1] == ["done a2", "done b1"]
    assert not lanes.busy("a")


async def test_priority_order_and_idle_coalescing() -> None:
    worker = Worker()
    lanes: Lanes[str] = Lanes(worker)
    running = lanes.submit("a", "first", priority=0, kind="idle")
    await until(lambda: len(worker.started) == 1)
    idle_1 = lanes.submit("a", "idle-1", priority=0, kind="idle")
    heard = lanes.submit("a", "heard", priority=60, kind="heard")
    idle_2 = lanes.submit("a", "idle-2", priority=0, kind="idle")
    player = lanes.submit("a", "player", priority=100, kind="player_message")
    assert idle_1 is idle_2
    assert lanes.depth("a") == 3
    for name in ("first", "player", "heard", "idle-1", "idle-2"):
        worker.release(name)
    await asyncio.gather(running, idle_1, heard, player)
    assert [p for _, p in worker.started] == ["first", "player", "heard", "idle-2"]


async def test_a_full_lane_drops_its_lowest_priority_oldest_job() -> None:
    worker = Worker()
    dropped: list[tuple[Any, str]] = []

    def on_drop(payload: Any, reason: str) -> str:
        dropped.append((payload, reason))
        return f"dropped {payload}"

    lanes: Lanes[str] = Lanes(worker, max_queue=2, dropped=on_drop)
    lanes.submit("a", "running", priority=0, kind="heard")
    await until(lambda: len(worker.started) == 1)
    old = lanes.submit("a", "old", priority=10, kind="heard")
    lanes.submit("a", "new", priority=10, kind="heard")
    lanes.submit("a", "player", priority=100, kind="player_message")
    async with asyncio.timeout(5):  # a regression would leave it pending forever
        assert await old == "dropped old"
    assert dropped == [("old", "dropped: the lane is full")]
    assert lanes.depth("a") == 2


async def test_clear_and_aclose() -> None:
    worker = Worker()
    lanes: Lanes[str] = Lanes(worker)
    running = lanes.submit("a", "running", priority=0, kind="heard")
    await until(lambda: len(worker.started) == 1)
    queued = lanes.submit("a", "queued", priority=0, kind="heard")
    assert lanes.clear() == 1
    assert queued.cancelled()
    worker.release("running")
    await lanes.aclose()
    assert running.result() == "done running"


async def test_a_failing_job_reaches_its_submitter_and_the_lane_goes_on() -> None:
    async def flaky(key: str, payload: str) -> str:
        if payload == "bad":
            raise RuntimeError("boom")
        return payload

    lanes: Lanes[str] = Lanes(flaky)
    bad = lanes.submit("a", "bad", priority=0, kind="heard")
    good = lanes.submit("a", "good", priority=0, kind="heard")
    with pytest.raises(RuntimeError, match="boom"):
        await bad
    assert await good == "good"


async def test_a_waiter_cancelled_while_a_slot_is_released_leaves_cleanly() -> None:
    limiter = PriorityLimiter(1)
    await limiter.acquire()
    waiter = asyncio.create_task(limiter.acquire())
    await asyncio.sleep(0)  # the waiter is queued
    waiter.cancel()
    limiter.release()  # drops the cancelled waiter and frees the slot
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert limiter.in_use == 0
    await limiter.acquire()  # the slot is usable again
    assert limiter.in_use == 1
