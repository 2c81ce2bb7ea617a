"""The test fake: a provider that plays back the steps a test gives it and records every request.

Each `stream()` call consumes the next step; a call beyond the last step raises
`UnexpectedCall` carrying the request, which no `except Exception` of the code under
test catches, so the test fails loudly. A step is a list of provider events (build them with
`text`, `tool_call`, `usage`, `done`, `error`, `step`), or a callable that returns one
from the request. Put a `Pause` (or a plain `asyncio.Event`) in a step to hold the
stream there until the test releases it (cancellation tests without sleeps).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncGenerator, Callable, Iterable, Sequence
from typing import Any, Union

from game.agent.providers.base import (
    Done,
    ErrorKind,
    Provider,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.providers.registry import Capabilities

__all__ = [
    "FakeProvider",
    "Pause",
    "Step",
    "UnexpectedCall",
    "done",
    "error",
    "reply",
    "step",
    "text",
    "tool_call",
    "usage",
]

_call_ids = itertools.count(1)


class UnexpectedCall(BaseException):
    """The provider was called more often than it has steps.

    Like pytest's own outcome exceptions it is no `Exception`: the agent loop turns every
    error into a `Failed` outcome, and this one must fail the test instead.
    """


class Pause:
    """A point in a step where the stream waits until `release()`; `reached` is set there."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self._released = asyncio.Event()

    def release(self) -> None:
        """Let the stream continue."""
        self._released.set()

    async def wait(self) -> None:
        """Wait until the stream reaches this point."""
        await self.reached.wait()


StepItem = Union[ProviderEvent, Pause, asyncio.Event]  # noqa: UP007 (a runtime alias)
Step = Sequence[StepItem] | Callable[[ProviderRequest], Sequence[StepItem]]


class FakeProvider(Provider):
    """A deterministic provider for tests: plays back steps, records `calls`.

    `capabilities` are what it claims (none by default); its `prime` and `load` do nothing.
    """

    def __init__(
        self,
        steps: Iterable[Step] = (),
        *,
        name: str = "fake",
        model: str = "fake",
        delay_s: float = 0.0,
        capabilities: Capabilities | None = None,
    ) -> None:
        self.name = name
        self.model = model
        if capabilities is not None:
            self.capabilities = capabilities
        self.delay_s = delay_s
        self.steps: list[Step] = list(steps)
        self.calls: list[ProviderRequest] = []
        self.closed = False
        self._next = 0

    @property
    def remaining(self) -> int:
        """Steps not yet played."""
        return len(self.steps) - self._next

    def add(self, *steps: Step) -> None:
        """Append steps to play."""
        self.steps.extend(steps)

    def assert_exhausted(self) -> None:
        """Fail unless every step was played."""
        if self.remaining:
            raise AssertionError(f"{self.remaining} step(s) of the fake were never requested")

    async def stream(self, request: ProviderRequest) -> AsyncGenerator[ProviderEvent, None]:
        """Play the next step."""
        self.calls.append(request)
        if self._next >= len(self.steps):
            raise UnexpectedCall(
                f"{self.name}: unexpected provider call #{len(self.calls)} "
                f"(the fake has {len(self.steps)} step(s)); request: {request!r}"
            )
        planned = self.steps[self._next]
        self._next += 1
        items = planned(request) if callable(planned) else planned
        for item in items:
            if isinstance(item, Pause):
                item.reached.set()
                await item._released.wait()
                continue
            if isinstance(item, asyncio.Event):
                await item.wait()  # a plain gate the test sets
                continue
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            yield item

    async def aclose(self) -> None:
        """Nothing to release."""
        self.closed = True


# --- step builders ---------------------------------------------------------------------


def _chunks(value: str, parts: int) -> list[str]:
    if not value:
        return []
    parts = max(1, min(parts, len(value)))
    size, extra = divmod(len(value), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (1 if i < extra else 0)
        out.append(value[start:end])
        start = end
    return out


def text(value: str, chunks: int = 3) -> list[ProviderEvent]:
    """Assistant text split into `chunks` TextDeltas."""
    return [TextDelta(text=piece) for piece in _chunks(value, chunks)]


def tool_call(
    name: str,
    args: dict[str, Any] | str | None = None,
    *,
    id: str | None = None,
    index: int = 0,
    chunks: int = 3,
) -> list[ProviderEvent]:
    """A tool call: start, its JSON arguments in `chunks` fragments, done."""
    arguments = args if isinstance(args, str) else json.dumps(args or {})
    call_id = id if id is not None else f"call_{next(_call_ids)}"
    events: list[ProviderEvent] = [ToolCallStart(index=index, id=call_id, name=name)]
    events += [ToolCallArgsDelta(index=index, delta=p) for p in _chunks(arguments, chunks)]
    events.append(ToolCallDone(index=index, id=call_id, name=name, arguments=arguments))
    return events


def usage(input_tokens: int = 0, output_tokens: int = 0, cached_tokens: int = 0) -> Usage:
    """A usage report."""
    return Usage(
        input_tokens=input_tokens, output_tokens=output_tokens, cached_tokens=cached_tokens
    )


def done(stop_reason: str = "stop") -> Done:
    """The normal end of a response."""
    return Done(stop_reason=stop_reason)


def error(
    kind: ErrorKind = "http",
    message: str = "fake failure",
    *,
    status: int | None = None,
    retry_after: float | None = None,
) -> ProviderError:
    """A provider failure."""
    return ProviderError(kind=kind, message=message, status=status, retry_after=retry_after)


def step(*parts: StepItem | Sequence[StepItem], end: bool = True) -> list[StepItem]:
    """Flatten events and event lists into one step, ending it with `done()` unless `end=False`."""
    items: list[StepItem] = []
    for part in parts:
        if isinstance(part, Sequence):
            items.extend(part)
        else:
            items.append(part)
    if end and not (items and isinstance(items[-1], Done | ProviderError)):
        items.append(done())
    return items


def reply(value: str, chunks: int = 3) -> list[StepItem]:
    """A whole text answer: the text, then done."""
    return step(text(value, chunks))
