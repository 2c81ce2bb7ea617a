"""The agent thread: one asyncio loop beside the game thread, and the mailbox across.

`Mailbox` is the one way across between the frames and the agents, both directions:

- game thread -> agents: `post(fn, *args)` puts a call in a thread-safe queue;
- agents -> game thread: skills put commands into `World.submit` (the world's own
  inbox) and await the returned future through `outcome(fut)`;
- `pump()`, on the agent loop, runs the calls posted, hands on the outcomes the world
  finished and does the periodic work registered with `on_pump` (the path planner).

The game runs `Mailbox.run()` on the agent thread, which pumps every 20 ms; tests and the
`chat` command step the world and call `pump()` themselves. Nothing here writes to the
loop's wake-up pipe from inside a frame: `call_soon_threadsafe` (and
`asyncio.wrap_future`, which uses it) would hand the GIL to the agent thread in the
middle of the game thread's update.

`AgentThread.submit(coro)` remains for the occasional coroutine with a result to hand
back (building the runtime, saves and loads, history, the inspector's snapshots):
rare, not once a frame.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import queue
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from game.world.commands import Outcome

log = logging.getLogger(__name__)
T = TypeVar("T")
PUMP_EVERY_S = 0.02
# A world future and the waiter a skill awaits in its place.
_Awaited = tuple[concurrent.futures.Future[Outcome], asyncio.Future[Outcome]]


def _hand_on(fut: concurrent.futures.Future[Outcome], waiter: asyncio.Future[Outcome]) -> bool:
    """Copy a finished world future into its waiter; whether the pair is done with."""
    if waiter.done():  # the skill was cancelled: the world need not answer any more
        fut.cancel()
        return True
    if not fut.done():
        return False
    if fut.cancelled():
        waiter.cancel()
    elif (exc := fut.exception()) is not None:
        waiter.set_exception(exc)
    else:
        waiter.set_result(fut.result())
    return True


class Mailbox:
    """The one way across between the game thread and the agent loop, both directions.

    Any thread may `post`; `outcome`, `pump`, `run` and `stop` belong to the agent loop.
    Posting costs the frame a queue put and nothing else: the agent loop finds the call
    when it pumps, at most `PUMP_EVERY_S` later.
    """

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...]]] = (
            queue.SimpleQueue()
        )
        # World outcomes a pump hands to the skills awaiting them (see `outcome`).
        self._awaiting: list[_Awaited] = []
        # Periodic work: (what each pump does, what is done at stop); see `on_pump`.
        self._work: list[tuple[Callable[[], object], Callable[[], object] | None]] = []
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # no more pumps: outcomes go by the world's own callback

    # --- game thread -> agents ------------------------------------------------------------

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Have `fn(*args)` called on the agent loop at its next pump (from any thread)."""
        self._calls.put((fn, args))

    def queued(self) -> int:
        """How many posted calls wait for a pump."""
        return self._calls.qsize()

    # --- agents -> game thread ------------------------------------------------------------

    def outcome(self, fut: concurrent.futures.Future[Outcome]) -> asyncio.Future[Outcome]:
        """Await what the world made of a command (on the agent loop).

        The world resolves `fut` inside the game thread's frame; a pump finds it done and
        resolves the awaitable. Cancelling the awaitable cancels `fut`, so the world need
        not answer any more.
        """
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Outcome] = loop.create_future()
        if self._stopped:
            fut.add_done_callback(_later(loop, waiter))
        else:
            self._awaiting.append((fut, waiter))
        return waiter

    # --- the agent loop's side ------------------------------------------------------------

    def on_pump(
        self, work: Callable[[], object], *, at_stop: Callable[[], object] | None = None
    ) -> None:
        """Do `work` at every pump (a budgeted piece of it), and `at_stop` when it stops."""
        self._work.append((work, at_stop))

    def pump(self) -> None:
        """Run every posted call, do the periodic work, hand on finished outcomes."""
        calls = self._calls
        while True:
            try:
                fn, args = calls.get_nowait()
            except queue.Empty:
                break
            try:
                fn(*args)
            except Exception:
                log.exception("agent call %r failed", fn)
        for work, _ in self._work:
            work()
        if self._awaiting:
            self._awaiting = [pair for pair in self._awaiting if not _hand_on(*pair)]

    async def run(self, every_s: float = PUMP_EVERY_S) -> None:
        """Pump every `every_s` on the agent loop until cancelled or `stop`ped."""
        self._task = asyncio.current_task()
        self._stopped = False
        try:
            while True:
                self.pump()
                await asyncio.sleep(every_s)
        finally:
            self._task = None
            self._let_go()

    def stop(self) -> None:
        """Stop `run` (on the agent loop). The outcomes still awaited, and any awaited
        later, are handed on by the world's own callback from now on: nothing waits for a
        pump that no longer comes."""
        if self._task is not None:
            self._task.cancel()
        self._let_go()

    def _let_go(self) -> None:
        self._stopped = True
        for _, at_stop in self._work:
            if at_stop is not None:
                at_stop()
        loop = asyncio.get_running_loop()
        for fut, waiter in self._awaiting:
            fut.add_done_callback(_later(loop, waiter))
        self._awaiting = []


def _later(
    loop: asyncio.AbstractEventLoop, waiter: asyncio.Future[Outcome]
) -> Callable[[concurrent.futures.Future[Outcome]], None]:
    """A done-callback that hands a world future on to its waiter on `loop`."""

    def done(fut: concurrent.futures.Future[Outcome]) -> None:
        if not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(_hand_on, fut, waiter)

    return done


class AgentThread:
    """Runs one asyncio loop on a daemon thread; stops cleanly and never hangs the game."""

    def __init__(self, name: str = "agents") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = threading.Event()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._started.set)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    def start(self) -> AgentThread:
        """Start the loop and wait until it runs."""
        self._thread.start()
        self._started.wait(timeout=5)
        return self

    @property
    def running(self) -> bool:
        """Whether the loop thread is alive."""
        return self._thread.is_alive()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run a coroutine on the agent loop; returns a thread-safe future."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(
        self, shutdown: Callable[[], Awaitable[None]] | None = None, timeout: float = 5.0
    ) -> None:
        """Run `shutdown` (flush stores, close providers), cancel what is left, join."""
        if not self._thread.is_alive():
            return

        async def _finish() -> None:
            if shutdown is not None:
                try:
                    await asyncio.wait_for(shutdown(), timeout)
                except Exception:  # shutting down: log, never raise into the window
                    log.exception("agent shutdown failed")
            current = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not current]
            for task in tasks:
                task.cancel()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 1.0)

        fut = asyncio.run_coroutine_threadsafe(_finish(), self.loop)
        with contextlib.suppress(Exception):
            fut.result(timeout + 2)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout + 2)
        if self._thread.is_alive():
            log.warning("agent thread did not stop within %.0f s; leaving it (daemon)", timeout)
