"""The test fake provider itself (`FakeProvider`)."""

from __future__ import annotations

import asyncio
import json

import pytest

from game.agent.providers.base import (
    Done,
    Provider,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
)
from game.agent.providers.fake import (
    FakeProvider,
    Pause,
    UnexpectedCall,
    reply,
    step,
    text,
    tool_call,
)

REQUEST = ProviderRequest(system="s", messages=[])


async def collect(provider: FakeProvider, request: ProviderRequest = REQUEST) -> list[object]:
    return [event async for event in provider.stream(request)]


def test_it_is_a_provider() -> None:
    assert isinstance(FakeProvider([]), Provider)


def test_builders_split_text_and_arguments() -> None:
    parts = text("Hello world", chunks=4)
    assert all(isinstance(p, TextDelta) for p in parts)
    assert "".join(p.text for p in parts) == "Hello world"  # type: ignore[union-attr]
    assert len(parts) == 4
    call = tool_call("say", {"text": "hi"}, id="c1", chunks=3)
    assert isinstance(call[0], ToolCallStart) and isinstance(call[-1], ToolCallDone)
    deltas = [e.delta for e in call if isinstance(e, ToolCallArgsDelta)]
    assert len(deltas) == 3 and json.loads("".join(deltas)) == {"text": "hi"}
    assert isinstance(reply("x")[-1], Done)
    assert step(text("a"), step())[-1] == Done()
    assert len(step(text("a"), step())) == 2


async def test_steps_play_in_order_and_calls_are_recorded() -> None:
    provider = FakeProvider([reply("one"), lambda request: reply(request.system)])
    first = await collect(provider)
    second = await collect(provider, ProviderRequest(system="echo", messages=[]))
    assert "".join(e.text for e in first if isinstance(e, TextDelta)) == "one"
    assert "".join(e.text for e in second if isinstance(e, TextDelta)) == "echo"
    assert [c.system for c in provider.calls] == ["s", "echo"]
    provider.assert_exhausted()


async def test_an_extra_call_fails_loudly_with_the_request() -> None:
    provider = FakeProvider([reply("only")])
    await collect(provider)
    with pytest.raises(UnexpectedCall, match="unexpected provider call #2") as caught:
        await collect(provider, ProviderRequest(system="the request", messages=[]))
    assert "the request" in str(caught.value)
    assert not isinstance(caught.value, Exception)  # no `except Exception` swallows it


async def test_unplayed_steps_fail_assert_exhausted() -> None:
    with pytest.raises(AssertionError, match=r"1 step\(s\) of the fake"):
        FakeProvider([reply("never")]).assert_exhausted()


async def test_a_pause_holds_the_stream_until_released() -> None:
    pause = Pause()
    provider = FakeProvider([step(text("a", 1), pause, text("b", 1))])
    seen: list[object] = []

    async def consume() -> None:
        async for event in provider.stream(REQUEST):
            seen.append(event)

    task = asyncio.create_task(consume())
    await pause.wait()
    assert seen == [TextDelta(text="a")]
    pause.release()
    await task
    assert seen == [TextDelta(text="a"), TextDelta(text="b"), Done()]
