"""The agent thread: one asyncio loop beside the game thread, and the ways across.

Game thread -> agents: `call_soon(fn, ...)` and `submit(coro)`, both thread-safe.
Agents -> game thread: skills put commands into `World.submit` (a thread-safe inbox)
and await the returned future; the world resolves it in its next step.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


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

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call a plain function on the agent loop, from any thread."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn, *args)

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
