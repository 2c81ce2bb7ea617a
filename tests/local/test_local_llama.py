"""The local provider end to end, on the real bundled Gemma 3 270M model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from game.agent.providers.base import (
    Done,
    Message,
    Provider,
    ProviderError,
    ProviderEvent,
    RequestOptions,
    TextDelta,
    ToolCall,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.providers.local.client.provider import JobStats, default_threads
from game.agent.providers.local.model import local_available
from game.village import local_provider

from .conftest import npc_request, remembered, require_local_extra, skill_specs, validate_call


async def collect(provider: Any, request: Any) -> tuple[list[ProviderEvent], JobStats]:
    stream = provider.stream(request)
    events = [event async for event in stream]
    stats = await stream.wait_finished()
    assert stats is not None
    return events, stats


def only_call(events: list[ProviderEvent]) -> ToolCallDone:
    assert isinstance(events[-1], Done), events[-3:]
    done = [e for e in events if isinstance(e, ToolCallDone)]
    assert len(done) == 1, events
    return done[0]


def test_local_available_and_threads(model_path: Path, tmp_path: Path) -> None:
    assert local_available()
    assert local_available(model_path)
    assert not local_available(tmp_path / "missing.gguf")
    assert default_threads() >= 1


async def test_model_loads_with_progress(provider: Any, progress_log: list[Any]) -> None:
    assert await provider.load() is None
    assert provider.model == "gemma-3-270m-q4_k_m.gguf"
    fractions = [f for f, _ in progress_log]
    assert fractions and fractions[-1] == 1.0
    assert fractions == sorted(fractions)
    assert any("loading" in m for _, m in progress_log)


@pytest.mark.parametrize("skill", [spec.name for spec in skill_specs()])
async def test_forced_skill_call_validates(provider: Any, skill: str) -> None:
    # One tool only: the grammar must produce a call to it, with valid arguments.
    request = npc_request("Please do something now.", skill_specs(skill), temperature=1.0)
    events, _ = await collect(provider, request)
    call = only_call(events)
    assert call.name == skill
    validate_call(skill, call.arguments)


@pytest.mark.parametrize(
    "line",
    [
        "Hello Mara! What are you baking today?",
        "Can you walk up the lane with me?",
        "You look sad. Are you alright?",
        "Wait here a moment, please.",
    ],
)
async def test_any_skill_call_parses_and_validates(provider: Any, line: str) -> None:
    events, stats = await collect(provider, npc_request(line, temperature=0.9))
    assert isinstance(events[-1], Done), events[-3:]
    calls = [e for e in events if isinstance(e, ToolCallDone)]
    assert 1 <= len(calls) <= 2  # a walk or a wait comes with its line, in one answer
    for call in calls:
        validate_call(call.name, call.arguments)
    starts = [e for e in events if isinstance(e, ToolCallStart)]
    assert [(s.name, s.id) for s in starts] == [(c.name, c.id) for c in calls]
    usage = [e for e in events if isinstance(e, Usage)]
    assert len(usage) == 1
    assert usage[0].input_tokens == stats.prompt_tokens > 100
    assert usage[0].output_tokens == stats.output_tokens > 0


async def test_say_streams_argument_deltas(provider: Any) -> None:
    request = npc_request("Tell me about your bread.", skill_specs("say"), temperature=0.7)
    events, _ = await collect(provider, request)
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "ToolCallStart"
    done_at = kinds.index("ToolCallDone")
    deltas = [e for e in events[:done_at] if isinstance(e, ToolCallArgsDelta)]
    assert len(deltas) >= 2
    call = only_call(events)
    # The deltas are the arguments object itself, not the {"name": ...} wrapper.
    assert "".join(d.delta for d in deltas) == call.arguments
    assert call.arguments.startswith("{")
    assert json.loads(call.arguments)["text"]


async def test_plain_text_without_tools(provider: Any) -> None:
    events, stats = await collect(provider, npc_request("Good morning!", [], temperature=0.7))
    assert isinstance(events[-1], Done)
    assert not [e for e in events if isinstance(e, ToolCallStart | ToolCallDone)]
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text.strip()
    assert "\n" not in text
    assert stats.output_tokens <= 256


async def test_cancel_stops_within_one_token(provider: Any) -> None:
    request = npc_request(
        "Tell me the whole history of the village, in detail.",
        [],
        temperature=0.8,
        max_output_tokens=300,
        options=RequestOptions(stop=[]),  # no stop at a newline: it would run to 300 tokens
    )
    stream = provider.stream(request)
    seen = 0
    async for event in stream:
        if isinstance(event, TextDelta):
            seen += 1
            if seen == 3:
                await stream.aclose()
    stats = await stream.wait_finished()
    assert stats is not None
    assert stats.tokens_at_cancel is not None
    assert stats.tokens_after_cancel <= 1, stats
    assert stats.output_tokens < 100
    assert stats.outcome == "cancelled"


async def test_cancelled_task_cancels_generation(provider: Any) -> None:
    no_stop = RequestOptions(stop=[])
    request = npc_request("Sing me a long song.", [], max_output_tokens=300, options=no_stop)
    stream = provider.stream(request)
    first = asyncio.Event()

    async def consume() -> None:
        async for event in stream:
            if isinstance(event, TextDelta):
                first.set()

    task = asyncio.create_task(consume())
    await first.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    stats = await stream.wait_finished()
    assert stats is not None and stats.outcome == "cancelled"
    assert stats.tokens_after_cancel <= 1


async def test_priority_order_of_the_queue(provider: Any) -> None:
    await provider.load()
    provider.pause()
    try:
        low1 = provider.stream(npc_request("Hi", [], priority=0, max_output_tokens=2))
        low2 = provider.stream(npc_request("Hey", [], priority=0, max_output_tokens=2))
        high = provider.stream(npc_request("Hello", [], priority=100, max_output_tokens=2))
        mid = provider.stream(npc_request("Yo", [], priority=50, max_output_tokens=2))
        assert provider.pending() == 4
    finally:
        provider.resume()

    async def drain(stream: Any) -> JobStats:
        _ = [e async for e in stream]
        stats = await stream.wait_finished()
        assert stats is not None
        return stats

    results = await asyncio.gather(*(drain(s) for s in (low1, low2, high, mid)))
    order = [r.start_index for r in results]
    assert None not in order
    low1_at, low2_at, high_at, mid_at = (int(i or 0) for i in order)
    # high (100) first, then mid (50), then the two lows in the order they came (FIFO).
    assert high_at < mid_at < low1_at < low2_at


async def test_a_more_urgent_request_goes_first_and_the_other_runs_again_whole(
    provider: Any,
) -> None:
    await provider.load()
    low = provider.stream(npc_request("What do you sell here?", npc_id="mara", priority=0))
    low_events = asyncio.ensure_future(collect_stream(low))
    for _ in range(5000):  # until the worker has it (it sends nothing before its prefill)
        if low.stats is not None and low.stats.start_index is not None:
            break
        await asyncio.sleep(0.001)
    high = provider.stream(npc_request("Hello there!", [], npc_id="bram", priority=100))
    high_events, high_stats = await collect_stream(high)
    events, low_stats = await low_events
    assert isinstance(high_events[-1], Done) and isinstance(events[-1], Done)
    assert low_stats.start_index > high_stats.start_index  # it ran again after the urgent one
    assert len([e for e in events if isinstance(e, Done)]) == 1  # one whole answer, no scraps
    gave_way = [s for s in provider.stats if s.seq == low_stats.seq and s.outcome == "preempted"]
    assert len(gave_way) == 1


async def collect_stream(stream: Any) -> tuple[list[ProviderEvent], JobStats]:
    events = [event async for event in stream]
    stats = await stream.wait_finished()
    assert stats is not None
    return events, stats


async def test_prefix_reuse_per_npc(provider: Any) -> None:
    first = npc_request("How is the bread today, Mara?", skill_specs("say"), npc_id="mara")
    events, stats1 = await collect(provider, first)
    call = only_call(events)
    history = [
        *first.messages,
        Message(
            role="assistant",
            tool_calls=[ToolCall(id=call.id, name="say", arguments=call.arguments)],
        ),
        Message(role="tool", tool_call_id=call.id, name="say", content="ok"),
    ]
    # Another NPC takes a turn in between and replaces the live KV cache.
    await collect(provider, npc_request("Hello Bram.", [], npc_id="bram", name="Bram"))
    second = npc_request("How much is a loaf?", skill_specs("say"), npc_id="mara", history=history)
    _, stats2 = await collect(provider, second)
    assert stats2.restored_state
    assert stats2.prompt_tokens > stats1.prompt_tokens
    new_tokens = stats2.prompt_tokens - stats2.reused_tokens
    assert new_tokens < 60, stats2
    assert stats2.reused_tokens >= stats1.prompt_tokens - 40  # its own lines and note differ


async def test_context_overflow_is_an_error_event(provider: Any) -> None:
    request = npc_request("Hi", [])
    request.system = "The village is old and the river is wide. " * 600
    events, _ = await collect(provider, request)
    assert len(events) == 1
    assert isinstance(events[0], ProviderError) and events[0].kind == "context_overflow"


async def test_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    require_local_extra()
    missing = tmp_path / "nope.gguf"
    p = local_provider(missing)
    try:
        events, stats = await collect(p, npc_request("Hi"))
        assert len(events) == 1 and isinstance(events[0], ProviderError)
        assert events[0].kind == "transport"
        assert "not found" in events[0].message and str(missing) in events[0].message
        assert "\n" not in events[0].message
        assert stats.outcome == "error: transport"
        # The next request gets the same error quickly; nothing crashed.
        again, _ = await collect(p, npc_request("Hi again"))
        assert isinstance(again[0], ProviderError)
        assert await p.load() is not None
    finally:
        await p.aclose()
    assert not p._thread.is_alive()


@pytest.mark.model  # the worker starts, and refuses the file
async def test_not_a_gguf_is_a_clear_error(tmp_path: Path) -> None:
    require_local_extra()
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"this is not a model" * 100)
    p = local_provider(bad)
    try:
        error = await p.load()
        assert error is not None and error.kind == "transport"
        assert "cannot load local model" in error.message
    finally:
        await p.aclose()


async def test_aclose_ends_queued_requests(model_path: Path, tmp_path: Path) -> None:
    p = local_provider(model_path, probe_cache=tmp_path / "probe.json")
    p.pause()
    stream = p.stream(npc_request("Hi", []))
    await p.aclose()
    events = [e async for e in stream]
    assert len(events) == 1 and isinstance(events[0], ProviderError)
    assert not p._thread.is_alive()
    late, _ = await collect(p, npc_request("Hi", []))
    assert isinstance(late[0], ProviderError)


GEMMA_TEMPLATE = (
    "{{ bos_token }}{% if messages[0]['role'] == 'system' %}"
    "{% set first = messages[0]['content'] + '\\n\\n' %}{% set loop_messages = messages[1:] %}"
    "{% else %}{% set first = '' %}{% set loop_messages = messages %}{% endif %}"
    "{% for message in loop_messages %}"
    "{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}"
    "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
    "{% endif %}{% set role = 'model' if message['role'] == 'assistant' else message['role'] %}"
    "{{ '<start_of_turn>' + role + '\\n' + (first if loop.first else '') "
    "+ message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<start_of_turn>model\\n' }}{% endif %}"
)


async def test_chat_template_mode(model_path: Path, tmp_path: Path, working_rung: str) -> None:
    probe = remembered(tmp_path / "probe.json", model_path, working_rung)
    p = local_provider(
        model_path, prompt_format="chat", chat_template=GEMMA_TEMPLATE, probe_cache=probe
    )
    try:
        history = [
            Message(role="user", content='Player says: """Hi"""'),
            Message(
                role="assistant",
                tool_calls=[ToolCall(id="c1", name="say", arguments='{"text": "Hello!"}')],
            ),
            Message(role="tool", tool_call_id="c1", name="say", content="ok"),
        ]
        events, stats = await collect(p, npc_request("Where is the well?", history=history))
        assert isinstance(events[-1], Done), events[-1]
        calls = [e for e in events if isinstance(e, ToolCallDone)]
        # After a tool result the model may also end its turn without a call.
        for call in calls:
            validate_call(call.name, call.arguments)
        assert stats.prompt_tokens > 50
        text_events, _ = await collect(p, npc_request("Hi!", []))
        assert isinstance(text_events[-1], Done)
    finally:
        await p.aclose()


async def test_turn_ends_after_acting(provider: Any) -> None:
    history = [
        Message(role="user", content='Player says: """Hi"""'),
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="c1", name="say", arguments='{"text": "Hello, dear!"}')],
        ),
        Message(role="tool", tool_call_id="c1", name="say", content="ok"),
    ]
    request = npc_request("Hello!", history=history, temperature=0.0)
    call = only_call((await collect(provider, request))[0])
    assert call.name == "say"
    acted = [
        Message(
            role="assistant", tool_calls=[ToolCall(**call.model_dump(exclude={"type", "index"}))]
        ),
        Message(role="tool", tool_call_id=call.id, name="say", content="ok"),
    ]
    after = request.model_copy(update={"messages": [*request.messages, *acted]})
    # After a tool result the grammar also offers {"name": "done"}; greedy decoding takes it.
    events, stats = await collect(provider, after)
    assert not [e for e in events if isinstance(e, ToolCallStart)], events
    assert isinstance(events[-1], Done) and events[-1].stop_reason == "end_turn"
    assert stats.prompt_tokens - stats.reused_tokens < 40  # only the reply and result are new


def test_is_a_provider(model_path: Path) -> None:
    p: Provider = local_provider(model_path)
    try:
        assert isinstance(p, Provider)
        assert p.name == "local" and p.model == model_path.name
        assert isinstance(p.stream(npc_request("Hi")), AsyncIterator)  # no loop: not queued
    finally:
        asyncio.run(p.aclose())


async def test_the_example_block_is_computed_once_and_read_back_by_the_next_worker(
    model_path: Path, tmp_path: Path, working_rung: str
) -> None:
    probe = remembered(tmp_path / "probe.json", model_path, working_rung)
    prefix_dir = tmp_path / "prefix"

    async def first_turn() -> JobStats:
        p = local_provider(model_path, probe_cache=probe, seed=7)
        try:
            events, stats = await collect(p, npc_request("What do you sell here?", npc_id="mara"))
            assert isinstance(events[-1], Done), events[-3:]
            return stats
        finally:
            await p.aclose()

    computed = await first_turn()
    (saved,) = prefix_dir.glob("script-prefix-*.kv")
    written = saved.stat().st_mtime_ns
    # The first prompt resumed from the example block the worker prefilled at start.
    assert computed.reused_tokens > 500, computed

    again = await first_turn()
    assert saved.stat().st_mtime_ns == written  # read back, not computed and saved again
    assert again.reused_tokens == computed.reused_tokens

    saved.write_bytes(b"not a KV cache")  # a damaged file is computed again and replaced
    repaired = await first_turn()
    assert repaired.reused_tokens == computed.reused_tokens
    assert saved.stat().st_size > 1_000_000
    assert list(prefix_dir.iterdir()) == [saved]  # no temporary file left behind


async def test_a_walk_asked_for_is_answered_first_then_walked_in_one_answer(provider: Any) -> None:
    events, _ = await collect(provider, npc_request("Come with me, please.", npc_id="mara"))
    starts = [e for e in events if isinstance(e, ToolCallStart)]
    assert [(s.name, s.index) for s in starts] == [("say", 0), ("move", 1)], events
    done = {e.name: e for e in events if isinstance(e, ToolCallDone)}
    assert json.loads(done["move"].arguments) == {"to": "player"}
    assert json.loads(done["say"].arguments)["text"]


async def test_a_primed_npc_reads_only_the_line_when_it_comes(provider: Any) -> None:
    """While the player types, the NPC's document is read; the answer reads only the line."""
    await provider.load()
    provider.prime(npc_request("", npc_id="tobin", name="Tobin"))
    events, stats = await collect(
        provider, npc_request("Where is the well?", npc_id="tobin", name="Tobin")
    )
    assert isinstance(events[-1], Done), events[-3:]
    primed = [s for s in provider.stats if s.npc_id == "tobin" and s.outcome == "primed"]
    assert len(primed) == 1 and primed[0].prompt_tokens > 500
    assert primed[0].start_index < stats.start_index  # queued first, at the turn's priority
    assert stats.reused_tokens >= primed[0].prompt_tokens - 1
    assert stats.prompt_tokens - stats.reused_tokens < 30, stats  # the line, and the name


async def test_priming_what_the_script_cannot_play_reads_nothing(provider: Any) -> None:
    request = npc_request("", npc_id="una", name="Una", tools=[])  # no say skill: no script
    provider.prime(request)
    events, _ = await collect(provider, npc_request("Hi", tools=[], npc_id="una", name="Una"))
    assert isinstance(events[-1], Done)
    primed = [s for s in provider.stats if s.npc_id == "una" and s.outcome == "primed"]
    assert len(primed) == 1 and primed[0].prompt_tokens == 0


async def test_a_fact_line_starts_with_the_fact_and_the_model_goes_on(provider: Any) -> None:
    """Asked who a villager is, the line starts with what the facts say, shown at once."""
    from game.npc.facts import PersonFact

    request = npc_request("Who is Brenna?", npc_id="mara")
    npc = request.npc
    assert npc is not None
    brenna = PersonFact(npc_id="brenna", name="Brenna", role="The village blacksmith.", home="")
    request = request.model_copy(update={"npc": npc.model_copy(update={"people": [brenna]})})
    events, _ = await collect(provider, request)
    call = only_call(events)
    text = json.loads(call.arguments)["text"]
    deltas = [e.delta for e in events if isinstance(e, ToolCallArgsDelta)]
    assert "blacksmith" in deltas[1].lower(), deltas  # the lead is the first thing shown
    assert text.startswith(json.loads(f'"{deltas[1]}"')), (text, deltas)


async def test_a_side_opened_mid_sentence_is_finished_by_the_model(provider: Any) -> None:
    """Asked a yes/no question its persona decides, the line opens with the side's first
    words and the model says the rest: more than the opener, on one line."""
    request = npc_request("Is there really a dragon past the river?", npc_id="pip", name="Pip")
    npc = request.npc
    assert npc is not None
    persona = "Pip is a curious child. Pip is certain a dragon lives past the river."
    request = request.model_copy(update={"npc": npc.model_copy(update={"persona": persona})})
    events, _ = await collect(provider, request)
    text = json.loads(only_call(events).arguments)["text"]
    assert text.startswith("I'm certain"), text
    assert len(text.split()) >= 4 and "\n" not in text, text
