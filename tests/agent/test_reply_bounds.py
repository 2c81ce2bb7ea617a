"""A model that does not stop: what it sends is cut at its bound where the stream is read
(any provider), the stream is closed, the cut is one warning line, and the bubble, the
tools and the log get no more than the bound. A summary it writes is read to its bound."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Literal

import pytest

from game.agent.events import AssistantMessage, ToolResultEvent, UserMessage
from game.agent.loop import AgentRuntime
from game.agent.memory import Compactor
from game.agent.outcomes import TurnOutcome
from game.agent.providers.base import (
    Provider,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
)
from game.agent.providers.fake import FakeProvider, reply, step, text, tool_call
from game.agent.trigger import Trigger
from game.limits import MAX_REPLY_CHARS, MAX_TOOL_ARGS_CHARS, MAX_TOOL_CALLS, MAX_TOOL_NAME_CHARS

from .helpers import MIRA, Spoken, make_registry

HI = Trigger.player("Hello!")
LA = "la " * 100  # 300 characters a chunk
Runaway = Literal["text", "say", "done", "calls", "name"]


class Endless(Provider):
    """A model that never stops, in one of the ways a stream can go on."""

    name = "endless"
    model = "endless"

    def __init__(self, how: Runaway) -> None:
        self.how = how
        self.requests = 0
        self.sent = 0  # events streamed
        self.closed = False  # the stream was closed by its reader

    async def stream(self, request: ProviderRequest) -> AsyncGenerator[ProviderEvent, None]:
        self.requests += 1
        try:
            async for event in self._events():
                self.sent += 1
                yield event
        finally:
            self.closed = True

    async def _events(self) -> AsyncGenerator[ProviderEvent, None]:
        if self.how == "name":
            yield ToolCallStart(index=0, id="c1", name="say" * 1000)
        if self.how == "done":  # arguments only at the end, all at once
            args = json.dumps({"text": LA * 1000})
            yield ToolCallStart(index=0, id="c1", name="say")
            yield ToolCallDone(index=0, id="c1", name="say", arguments=args)
        if self.how == "say":
            yield ToolCallStart(index=0, id="c1", name="say")
            yield ToolCallArgsDelta(index=0, delta='{"text": "')
        index = 0
        while True:
            if self.how == "calls":
                yield ToolCallStart(index=index, id=f"c{index}", name="look")
                yield ToolCallDone(index=index, id=f"c{index}", name="look", arguments="{}")
                index += 1
            elif self.how == "say":
                yield ToolCallArgsDelta(index=0, delta=LA)
            else:
                yield TextDelta(text=LA)
            await asyncio.sleep(0)


async def _turn(
    saves: Path, provider: Provider, spoken: Spoken | None = None
) -> tuple[AgentRuntime, list[str], TurnOutcome]:
    bubble: list[str] = []
    runtime = AgentRuntime(
        saves,
        provider=provider,
        registry=make_registry(spoken),
        on_text_delta=lambda npc_id, run_id, delta: bubble.append(delta),
    )
    runtime.register_npc(MIRA)
    async with asyncio.timeout(30):
        outcome = await runtime.run_turn(runtime.slot, "mira", HI)
    return runtime, bubble, outcome


def _cuts(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "cut there" in r.getMessage()]


async def test_endless_text_is_cut_at_the_bound_and_the_stream_closed(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    provider = Endless("text")
    with caplog.at_level(logging.WARNING):
        runtime, bubble, outcome = await _turn(saves, provider)
    assert provider.closed and provider.requests == 1
    assert len("".join(bubble)) == MAX_REPLY_CHARS
    assert outcome.kind == "final" and outcome.text == "".join(bubble)
    assert _cuts(caplog) == [f"mira: the model's reply passed {MAX_REPLY_CHARS} characters of "
                             "text; it is cut there"]  # fmt: skip
    [message] = [
        e for e in runtime.store(runtime.slot).read("mira") if e.type == "assistant.message"
    ]
    assert isinstance(message, AssistantMessage) and message.text == "".join(bubble)
    await runtime.aclose()


@pytest.mark.parametrize("how", ["say", "done"])
async def test_an_endless_say_is_cut_closed_and_said_once(
    saves: Path, caplog: pytest.LogCaptureFixture, how: Runaway
) -> None:
    provider = Endless(how)
    spoken = Spoken()
    with caplog.at_level(logging.WARNING):
        runtime, bubble, outcome = await _turn(saves, provider, spoken)
    assert provider.closed and provider.requests == 1  # a runaway reply is not asked again
    assert bubble == []  # no plain text: the say's words went to its tool
    [(said, streamed)] = spoken.said
    assert said == streamed == "".join(spoken.streamed)
    assert said.startswith("la la") and len(said) == MAX_TOOL_ARGS_CHARS - len('{"text": "')
    assert len(_cuts(caplog)) == 1 and outcome.kind == "final"
    events = runtime.store(runtime.slot).read("mira")
    [message] = [e for e in events if isinstance(e, AssistantMessage)]
    assert json.loads(message.tool_calls[0].arguments) == {"text": said}
    await runtime.aclose()


async def test_endless_calls_stop_at_their_bound(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    provider = Endless("calls")
    with caplog.at_level(logging.WARNING):
        runtime, _, outcome = await _turn(saves, provider)
    assert provider.closed and provider.requests == 1 and outcome.kind == "final"
    events = runtime.store(runtime.slot).read("mira")
    assert len([e for e in events if isinstance(e, ToolResultEvent)]) == MAX_TOOL_CALLS
    assert _cuts(caplog) == [f"mira: the model's reply passed {MAX_TOOL_CALLS} tool calls; "
                             "it is cut there"]  # fmt: skip
    await runtime.aclose()


async def test_a_tool_name_past_its_bound_is_cut(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    provider = Endless("name")
    with caplog.at_level(logging.WARNING):
        runtime, _, outcome = await _turn(saves, provider)
    assert provider.closed and provider.sent == 1 and outcome.kind == "final"
    assert str(MAX_TOOL_NAME_CHARS) in _cuts(caplog)[0]
    events = runtime.store(runtime.slot).read("mira")
    assert not [e for e in events if isinstance(e, ToolResultEvent)]
    await runtime.aclose()


async def test_the_text_bound_is_the_whole_turns(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = "a" * 3000, "b" * 3000
    provider = FakeProvider([step(text(first), tool_call("look", {})), reply(second, chunks=1)])
    with caplog.at_level(logging.WARNING):
        runtime, bubble, outcome = await _turn(saves, provider)
    assert "".join(bubble) == first + "b" * (MAX_REPLY_CHARS - 3000)
    assert outcome.text == "b" * (MAX_REPLY_CHARS - 3000)
    assert len(_cuts(caplog)) == 1 and len(provider.calls) == 2
    await runtime.aclose()


async def test_a_reply_within_its_bounds_is_whole(
    saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    words = "x" * MAX_REPLY_CHARS
    args = {"text": "y" * (MAX_TOOL_ARGS_CHARS - len('{"text": ""}'))}
    provider = FakeProvider([step(tool_call("say", args, chunks=7)), reply(words, chunks=9)])
    spoken = Spoken()
    with caplog.at_level(logging.WARNING):
        runtime, bubble, outcome = await _turn(saves, provider, spoken)
    assert "".join(bubble) == words and spoken.said[0][0] == args["text"]
    assert _cuts(caplog) == [] and outcome.kind == "final"
    await runtime.aclose()


async def test_an_endless_summary_is_read_to_its_bound(saves: Path) -> None:
    runtime = AgentRuntime(saves, provider=FakeProvider(), registry=make_registry())
    runtime.register_npc(MIRA)
    store = runtime.store(runtime.slot)
    for i in range(30):
        store.append("mira", UserMessage(text=f"fact {i}: " + "bread " * 60))
        store.append("mira", AssistantMessage(text=f"answer {i}"))
    writer = Endless("text")
    compactor = Compactor(runtime, budget_tokens=1000, keep_tokens=400, summarizer=writer)
    async with asyncio.timeout(30):
        event = await compactor.maybe_compact(runtime.slot, "mira")
    assert event is not None and event.text.startswith("la la")
    assert len(event.text) <= compactor.max_chars and writer.closed
    await runtime.aclose()
