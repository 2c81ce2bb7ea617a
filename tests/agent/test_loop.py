"""The agent loop: one turn from a trigger to exactly one typed outcome."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from game.agent.bus import BusEvent, DebugBus
from game.agent.context import ContextBuilder
from game.agent.errors import UnknownNpc
from game.agent.events import (
    AssistantMessage,
    ErrorEvent,
    ResultEvent,
    SummaryEvent,
    ToolResultEvent,
)
from game.agent.outcomes import Cancelled, Failed, Final, MaxSteps
from game.agent.permissions import PermissionGate
from game.agent.providers.base import Provider, ProviderEvent, ProviderRequest, TextDelta
from game.agent.providers.fake import (
    FakeProvider,
    Pause,
    UnexpectedCall,
    error,
    reply,
    step,
    text,
    tool_call,
    usage,
)
from game.agent.render import INTERRUPTED_MARK
from game.agent.tools import Tool, ToolContext
from game.agent.trigger import Trigger
from game.paths import InvalidId

from .conftest import RuntimeFactory
from .helpers import MIRA, Spoken, make_registry, until

HI = Trigger.player("Hello!", perception="The player stands before you.")


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


def without_run_id(request: ProviderRequest) -> ProviderRequest:
    options = request.options.model_copy(update={"run_id": None})
    return request.model_copy(update={"options": options})


# --- outcomes ---------------------------------------------------------------------------


async def test_a_plain_answer_is_final_and_streams_to_the_bubble(
    make_runtime: RuntimeFactory,
) -> None:
    bubble: list[tuple[str, str, str]] = []
    rt = make_runtime(
        [reply("Hello there, traveller!")], on_text_delta=lambda *args: bubble.append(args)
    )
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Final)
    assert (outcome.text, outcome.steps, outcome.npc_id) == ("Hello there, traveller!", 1, "mira")
    assert len(bubble) == 3
    assert "".join(t for _, _, t in bubble) == "Hello there, traveller!"
    assert {(npc, run) for npc, run, _ in bubble} == {("mira", outcome.run_id)}
    events = rt.store("s1").read("mira")
    assert types(events) == ["system.init", "user.message", "assistant.message", "result"]
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert {e.run_id for e in events} == {outcome.run_id}
    request = rt.provider.calls[0]  # type: ignore[attr-defined]
    assert request.messages[-1].content.endswith('Player says: """Hello!"""')
    assert "The player stands before you." in request.messages[-1].content
    assert request.npc_id == "mira" and request.options.step == 1


async def test_tool_calls_run_and_their_results_go_back_to_the_model(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime([step(tool_call("look", {"target": "well"}, id="c1")), reply("Nice.")])
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Final) and outcome.steps == 2
    assert types(rt.store("s1").read("mira")) == [
        "system.init",
        "user.message",
        "assistant.message",
        "tool.use",
        "permission.decision",
        "tool.result",
        "assistant.message",
        "result",
    ]
    second = rt.provider.calls[1]  # type: ignore[attr-defined]
    call, result = second.messages[-2:]
    assert call.role == "assistant" and call.tool_calls[0].id == "c1"
    assert result.role == "tool" and result.tool_call_id == "c1"
    assert result.content == "You see well."


async def test_a_bad_tool_call_is_a_result_the_model_corrects(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime(
        [
            step(tool_call("fly", {}, id="c1")),
            step(tool_call("look", '{"target": ', id="c2")),
            step(tool_call("look", {"target": "sky"}, id="c3")),
            reply("Done."),
        ]
    )
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Final) and outcome.steps == 4
    results = [e for e in rt.store("s1").read("mira") if isinstance(e, ToolResultEvent)]
    assert [(r.call_id, r.is_error) for r in results] == [
        ("c1", True),
        ("c2", True),
        ("c3", False),
    ]
    assert "Unknown tool 'fly'" in results[0].content
    assert "Invalid JSON" in results[1].content


async def test_max_steps_stops_a_model_that_keeps_calling_tools(
    make_runtime: RuntimeFactory,
) -> None:
    steps = [step(text(f"Step {n}."), tool_call("look", {}, id=f"c{n}")) for n in range(3)]
    rt = make_runtime(steps, max_steps=3)
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, MaxSteps)
    assert (outcome.steps, outcome.text) == (3, "Step 2.")
    rt.provider.assert_exhausted()  # type: ignore[attr-defined]
    result = rt.store("s1").read("mira")[-1]
    assert isinstance(result, ResultEvent) and result.outcome == "max_steps"


async def test_a_provider_error_fails_the_turn_and_keeps_the_partial_text(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime([step(text("Well, I"), error("rate_limited", "slow down", retry_after=2))])
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Failed)
    assert outcome.error_kind == "rate_limited" and "slow down" in outcome.error
    assert outcome.text == "Well, I"
    events = rt.store("s1").read("mira")
    assert types(events)[-3:] == ["assistant.message", "error", "result"]
    partial = events[-3]
    assert isinstance(partial, AssistantMessage) and partial.interrupted
    assert isinstance(events[-2], ErrorEvent) and events[-2].kind == "rate_limited"


async def test_a_provider_that_raises_fails_the_turn(make_runtime: RuntimeFactory) -> None:
    def broken(request: ProviderRequest) -> list[Any]:
        raise ConnectionError("socket closed")

    rt = make_runtime([broken])
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Failed)
    assert outcome.error_kind == "exception" and "socket closed" in outcome.error


async def test_a_provider_that_breaks_mid_stream_keeps_the_partial_text(
    make_runtime: RuntimeFactory,
) -> None:
    class Breaking(Provider):
        name, model = "breaking", "none"

        async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
            yield TextDelta(text="I was about to")
            raise ConnectionResetError("peer went away")

        async def aclose(self) -> None:
            pass

    rt = make_runtime([], provider_for=lambda trigger: Breaking())
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Failed) and outcome.text == "I was about to"
    partial = rt.store("s1").read("mira")[-2]
    assert isinstance(partial, AssistantMessage) and partial.interrupted


async def test_an_unexpected_provider_call_fails_the_test_loudly(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime([])
    with pytest.raises(UnexpectedCall, match="unexpected provider call #1"):
        await rt.run_turn("s1", "mira", HI)


async def test_unknown_npcs_and_bad_slots_are_refused(make_runtime: RuntimeFactory) -> None:
    rt = make_runtime([])
    with pytest.raises(UnknownNpc, match="nobody"):
        await rt.run_turn("s1", "nobody", HI)
    with pytest.raises(InvalidId):
        await rt.run_turn("../s1", "mira", HI)
    with pytest.raises(UnknownNpc):
        rt.submit("s1", "nobody", HI)


# --- cancellation and time limits ---------------------------------------------------------


async def test_cancel_mid_stream_keeps_the_partial_text_marked_interrupted(
    make_runtime: RuntimeFactory,
) -> None:
    pause = Pause()
    rt = make_runtime([step(text("Well, I was"), pause, text(" going to say"))])
    task = asyncio.create_task(rt.run_turn("s1", "mira", HI))
    await pause.wait()
    assert rt.status("mira").state == "streaming"
    assert rt.cancel("mira")
    outcome = await task
    assert isinstance(outcome, Cancelled)
    assert (outcome.text, outcome.reason) == ("Well, I was", "cancelled")
    events = rt.store("s1").read("mira")
    partial = events[-2]
    assert isinstance(partial, AssistantMessage)
    assert (partial.text, partial.interrupted) == ("Well, I was", True)
    assert isinstance(events[-1], ResultEvent) and events[-1].outcome == "cancelled"
    assert rt.status("mira").state == "idle"
    # The next turn sees the interruption.
    rt.provider.add(reply("Sorry."))  # type: ignore[attr-defined]
    await rt.run_turn("s1", "mira", Trigger.player("Go on"))
    replayed = rt.provider.calls[-1].messages  # type: ignore[attr-defined]
    assert replayed[-2].content == f"Well, I was {INTERRUPTED_MARK}"


async def test_cancel_while_a_say_streams_keeps_what_was_said(
    make_runtime: RuntimeFactory,
) -> None:
    spoken = Spoken()
    pause = Pause()
    call = tool_call("say", {"text": "Fresh bread, still warm!"}, chunks=6)
    rt = make_runtime([step(*call[:4], pause, *call[4:])], registry=make_registry(spoken))
    task = asyncio.create_task(rt.run_turn("s1", "mira", HI))
    await pause.wait()
    heard = "".join(spoken.streamed)
    assert heard and "Fresh bread, still warm!".startswith(heard)
    assert rt.cancel("mira")
    outcome = await task
    assert isinstance(outcome, Cancelled) and outcome.text == heard
    partial = rt.store("s1").read("mira")[-2]
    assert isinstance(partial, AssistantMessage)
    assert (partial.text, partial.interrupted) == (heard, True)


async def test_cancel_during_a_tool_gives_the_call_a_result(
    make_runtime: RuntimeFactory,
) -> None:
    entered = asyncio.Event()

    class NoArgs(BaseModel):
        """No arguments."""

    async def forever(ctx: ToolContext, args: NoArgs) -> str:
        entered.set()
        await asyncio.Event().wait()
        return "unreachable"

    registry = make_registry()
    registry.register(Tool("wait", "Wait.", NoArgs, forever))
    rt = make_runtime([step(tool_call("wait", {}, id="w1"))], registry=registry)
    task = asyncio.create_task(rt.run_turn("s1", "mira", HI))
    await entered.wait()
    assert rt.status("mira").state == "acting"
    rt.cancel("mira")
    outcome = await task
    assert isinstance(outcome, Cancelled)
    result = next(e for e in rt.store("s1").read("mira") if isinstance(e, ToolResultEvent))
    assert result.call_id == "w1" and result.is_error and "Interrupted" in result.content
    messages = rt.build_request("s1", "mira").messages
    assert messages[-1].role == "tool" and messages[-1].tool_call_id == "w1"


async def test_cancel_without_a_running_turn_is_false(make_runtime: RuntimeFactory) -> None:
    assert not make_runtime([]).cancel("mira")


async def test_a_turn_over_its_time_limit_fails_with_the_partial_text(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime([step(text("Hmm, let me"), Pause())], turn_timeout_s=0.05)
    async with asyncio.timeout(5):  # the test's own limit, far above the turn's
        outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Failed)
    assert outcome.error_kind == "timeout" and outcome.text == "Hmm, let me"
    assert types(rt.store("s1").read("mira"))[-3:] == ["assistant.message", "error", "result"]


async def test_cancelling_the_caller_ends_the_turn_cleanly(make_runtime: RuntimeFactory) -> None:
    pause = Pause()
    rt = make_runtime([step(text("Hi"), pause)])
    task = asyncio.create_task(rt.run_turn("s1", "mira", HI))
    await pause.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    last = rt.store("s1").read("mira")[-1]
    assert isinstance(last, ResultEvent) and last.outcome == "cancelled"


async def test_aclose_cancels_running_turns_and_flushes(
    make_runtime: RuntimeFactory, saves: Path
) -> None:
    pause = Pause()
    rt = make_runtime([step(text("Bye"), pause)])
    future = rt.submit("s1", "mira", HI)
    await pause.wait()
    await rt.aclose()
    outcome = future.result()
    assert isinstance(outcome, Cancelled) and outcome.reason == "shutdown"
    lines = (saves / "s1" / "npcs" / "mira" / "session" / "events.jsonl").read_text()
    assert '"outcome":"cancelled"' in lines
    assert (saves / "s1" / "npcs" / "mira" / "session" / "state.json").exists()


# --- the current slot ---------------------------------------------------------------------


async def test_switch_slot_ends_the_old_slots_turns_before_it_switches(
    make_runtime: RuntimeFactory, saves: Path
) -> None:
    pause = Pause()
    rt = make_runtime([step(text("Half a"), pause)], slot="s1")
    assert rt.slot == "s1"
    running = rt.submit(rt.slot, "mira", HI)
    await pause.wait()
    queued = rt.submit(rt.slot, "mira", Trigger(kind="idle", text="tick"))
    seen: list[tuple[str, str]] = []

    async def prepare() -> None:
        seen.append((rt.slot, rt.status("mira").state))

    await rt.switch_slot("s2", prepare=prepare)
    assert seen == [("s1", "idle")]  # `prepare` runs on a quiet old slot, before the switch
    assert rt.slot == "s2"
    first, second = running.result(), queued.result()
    assert isinstance(first, Cancelled) and first.reason == "cancelled"
    assert isinstance(second, Cancelled) and second.reason == "slot change"
    assert (saves / "s1" / "npcs" / "mira" / "session" / "state.json").exists()  # flushed


async def test_a_failed_switch_keeps_the_slot(make_runtime: RuntimeFactory) -> None:
    rt = make_runtime([])
    assert rt.slot == "default"

    async def refuse() -> None:
        raise OSError("no space left on device")

    with pytest.raises(OSError):
        await rt.switch_slot("s2", prepare=refuse)
    assert rt.slot == "default"
    with pytest.raises(InvalidId):
        await rt.switch_slot("../s2")
    assert rt.slot == "default"


# --- replay -------------------------------------------------------------------------------


def _steps() -> list[Any]:
    return [
        step(tool_call("look", {"target": "well"}, id="c1"), usage(100, 10)),
        reply("A fine well."),
        reply("Goodbye."),
    ]


async def test_replay_after_a_restart_sends_the_same_input_as_the_live_turn(
    make_runtime: RuntimeFactory, tmp_path: Path
) -> None:
    second = Trigger(kind="heard", text="Bram says: bye!", perception="Bram waves.")
    live = make_runtime(_steps(), saves_dir=tmp_path / "a")
    await live.run_turn("s1", "mira", HI)
    await live.run_turn("s1", "mira", second)

    before = make_runtime(_steps()[:2], saves_dir=tmp_path / "b")
    await before.run_turn("s1", "mira", HI)
    await before.aclose()
    after = make_runtime(_steps()[2:], saves_dir=tmp_path / "b")
    log = live.store("s1").read("mira")
    before_second = next(i for i, e in enumerate(log) if e.type == "world.observation")
    assert after.build_request("s1", "mira") == live.context.build(
        MIRA, log[:before_second], live.registry.specs()
    )
    await after.run_turn("s1", "mira", second)
    live_calls = live.provider.calls  # type: ignore[attr-defined]
    replayed = after.provider.calls[0]  # type: ignore[attr-defined]
    assert without_run_id(replayed) == without_run_id(live_calls[2])


async def test_each_step_request_is_the_replay_of_the_log_so_far(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime(_steps()[:2])
    await rt.run_turn("s1", "mira", HI)
    events = rt.store("s1").read("mira")
    step_two = next(
        i for i, e in enumerate(events) if isinstance(e, AssistantMessage) and e.step == 2
    )
    rebuilt = ContextBuilder().build(MIRA, events[:step_two], rt.registry.specs())
    live = rt.provider.calls[1]  # type: ignore[attr-defined]
    assert (live.system, live.messages, live.tools) == (
        rebuilt.system,
        rebuilt.messages,
        rebuilt.tools,
    )


# --- tools through the gate, streaming of tool arguments ----------------------------------


async def test_an_ask_tool_goes_through_the_player_once(make_runtime: RuntimeFactory) -> None:
    given: list[str] = []
    asked: list[tuple[str, str, dict[str, Any]]] = []

    class GiveArgs(BaseModel):
        """What to give."""

        item: str

    async def give(ctx: ToolContext, args: GiveArgs) -> str:
        given.append(args.item)
        return f"Gave {args.item}."

    async def player(npc_id: str, tool: str, args: dict[str, Any]) -> bool:
        asked.append((npc_id, tool, args))
        return False

    registry = make_registry()
    registry.register(Tool("give_item", "Give an item.", GiveArgs, give))
    rt = make_runtime(
        [
            step(tool_call("give_item", {"item": "bread"}, id="g1")),
            reply("Never mind."),
            step(tool_call("give_item", {"item": "cake"}, id="g2")),
            reply("Oh well."),
        ],
        registry=registry,
        gate=PermissionGate({"give_item": "confirm"}, approver=player),
    )
    await rt.run_turn("s1", "mira", HI)
    await rt.run_turn("s1", "mira", HI)
    assert given == []
    assert asked == [("mira", "give_item", {"item": "bread"})]
    denial = rt.provider.calls[1].messages[-1]  # type: ignore[attr-defined]
    assert denial.role == "tool" and denial.is_error and "Permission denied" in denial.content
    decisions = [e for e in rt.store("s1").read("mira") if e.type == "permission.decision"]
    assert [(d.allowed, d.asked) for d in decisions] == [(False, True), (False, False)]  # type: ignore[attr-defined]


async def test_a_streamed_argument_reaches_the_world_while_it_is_generated(
    make_runtime: RuntimeFactory,
) -> None:
    spoken = Spoken()
    rt = make_runtime(
        [step(tool_call("say", {"text": "Fresh bread, still warm!"}, chunks=8)), step()],
        registry=make_registry(spoken),
    )
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Final) and outcome.text == ""
    assert len(spoken.streamed) > 2
    assert "".join(spoken.streamed) == "Fresh bread, still warm!"
    assert spoken.said == [("Fresh bread, still warm!", "Fresh bread, still warm!")]


async def test_parallel_calls_of_one_response_are_recorded_in_order(
    make_runtime: RuntimeFactory,
) -> None:
    rt = make_runtime(
        [
            step(
                tool_call("look", {"target": "a"}, id="a", index=0),
                tool_call("look", {"target": "b"}, id="b", index=1),
            ),
            reply("Both."),
        ]
    )
    await rt.run_turn("s1", "mira", HI)
    tools = rt.provider.calls[1].messages[-2:]  # type: ignore[attr-defined]
    assert [(m.tool_call_id, m.content) for m in tools] == [
        ("a", "You see a."),
        ("b", "You see b."),
    ]


# --- metering, deltas, the bus -----------------------------------------------------------


async def test_tokens_are_metered_from_usage_or_estimated(make_runtime: RuntimeFactory) -> None:
    rt = make_runtime(
        [
            step(tool_call("look", {}), usage(100, 20)),
            step(text("Hi."), usage(150, 5)),
            reply("No usage here."),
        ]
    )
    await rt.run_turn("s1", "mira", HI)
    state = rt.store("s1").state("mira")
    assert (state.tokens_in, state.tokens_out, state.estimated_turns) == (250, 25, 0)
    await rt.run_turn("s1", "mira", HI)
    state = rt.store("s1").state("mira")
    assert state.tokens_in > 250 and state.tokens_out > 25
    assert (state.turns, state.estimated_turns) == (2, 1)
    last = rt.store("s1").read("mira")[-1]
    assert isinstance(last, ResultEvent) and last.estimated


@pytest.mark.parametrize(("interval", "expected"), [(0.0, 3), (60.0, 0)])
async def test_deltas_are_coalesced_in_the_log(
    make_runtime: RuntimeFactory, interval: float, expected: int
) -> None:
    rt = make_runtime([reply("One two three.")], delta_interval_s=interval)
    await rt.run_turn("s1", "mira", HI)
    events = rt.store("s1").read("mira")
    assert types(events).count("assistant.delta") == expected
    message = next(e for e in events if isinstance(e, AssistantMessage))
    assert message.text == "One two three."


async def test_the_debug_bus_sees_the_whole_turn(make_runtime: RuntimeFactory) -> None:
    bus = DebugBus()
    seen: list[BusEvent] = []
    unsubscribe = bus.subscribe(seen.append)
    rt = make_runtime([step(tool_call("look", {}, id="c1")), reply("Hi!")], bus=bus)
    outcome = await rt.run_turn("s1", "mira", HI)
    kinds = [e.kind for e in seen]
    assert kinds[0] == "turn_started" and kinds[-1] == "turn_finished"
    assert kinds.index("tool_call") < kinds.index("tool_result") < kinds.index("delta")
    assert {(e.npc_id, e.run_id) for e in seen} == {("mira", outcome.run_id)}
    assert seen[-1].data["kind"] == "final"
    unsubscribe()
    rt.provider.add(step(error("auth", "bad key")))  # type: ignore[attr-defined]
    await rt.run_turn("s1", "mira", HI)
    assert len(seen) == len(kinds)


async def test_the_bus_reports_failures(make_runtime: RuntimeFactory) -> None:
    seen: list[BusEvent] = []
    bus = DebugBus()
    bus.subscribe(seen.append)
    bus.subscribe(lambda event: 1 / 0)  # a broken subscriber is only logged
    rt = make_runtime([step(error("auth", "bad key"))], bus=bus)
    await rt.run_turn("s1", "mira", HI)
    errors = [e for e in seen if e.kind == "error"]
    assert errors and errors[0].data == {"kind": "auth", "message": "auth: bad key"}


# --- one NPC at a time; lanes, priorities, the global limit ---------------------------------


async def test_turns_of_one_npc_never_overlap(make_runtime: RuntimeFactory) -> None:
    pause = Pause()
    rt = make_runtime([step(text("First"), pause), reply("Second")])
    first = asyncio.create_task(rt.run_turn("s1", "mira", HI))
    await pause.wait()
    second = asyncio.create_task(rt.run_turn("s1", "mira", Trigger.player("Again")))
    await asyncio.sleep(0)  # let it reach the NPC's lock
    assert len(rt.provider.calls) == 1  # type: ignore[attr-defined]
    pause.release()
    assert isinstance(await first, Final) and isinstance(await second, Final)
    results = [e for e in rt.store("s1").read("mira") if isinstance(e, ResultEvent)]
    assert [r.text for r in results] == ["First", "Second"]


async def test_player_turns_overtake_queued_idle_ticks_which_coalesce(
    make_runtime: RuntimeFactory,
) -> None:
    pause = Pause()
    answered: list[str] = []

    def answer(request: ProviderRequest) -> list[Any]:
        assert request.trigger is not None
        answered.append(request.trigger.text)
        return reply("ok")

    rt = make_runtime([step(pause), answer, answer])
    first = rt.submit("s1", "mira", Trigger(kind="idle", text="tick 1"))
    await pause.wait()
    idle_a = rt.submit("s1", "mira", Trigger(kind="idle", text="tick 2"))
    idle_b = rt.submit("s1", "mira", Trigger(kind="idle", text="tick 3"))
    player = rt.submit("s1", "mira", Trigger.player("Hello?"))
    assert idle_a is idle_b
    status = rt.status("mira")
    assert (status.state, status.queue_depth) == ("thinking", 2)
    pause.release()
    await asyncio.gather(first, idle_a, player)
    assert answered == ["Hello?", "tick 3"]
    assert rt.status("mira").state == "idle"


async def test_the_global_limit_bounds_concurrent_provider_calls(
    make_runtime: RuntimeFactory,
) -> None:
    pauses = {"mira": Pause(), "bram": Pause(), "cora": Pause()}

    def held(request: ProviderRequest) -> list[Any]:
        return step(pauses[str(request.npc_id)], text("ok"))

    rt = make_runtime([held, held, held], max_concurrent=2)
    rt.register_npc(MIRA.model_copy(update={"npc_id": "cora", "name": "Cora"}))
    futures = [rt.submit("s1", npc, HI) for npc in ("mira", "bram", "cora")]
    await pauses["mira"].wait()
    await pauses["bram"].wait()
    await until(lambda: rt.limiter.waiting == 1)
    assert rt.limiter.in_use == 2
    assert not pauses["cora"].reached.is_set()
    assert rt.status("cora").state == "thinking"
    pauses["mira"].release()
    await pauses["cora"].wait()
    pauses["bram"].release()
    pauses["cora"].release()
    outcomes = await asyncio.gather(*futures)
    assert all(isinstance(o, Final) for o in outcomes)
    assert rt.limiter.in_use == 0


async def test_a_player_turn_gets_the_next_provider_slot(make_runtime: RuntimeFactory) -> None:
    pause = Pause()
    order: list[str] = []

    def first(request: ProviderRequest) -> list[Any]:
        order.append(str(request.npc_id))
        return step(pause, text("ok"))

    def later(request: ProviderRequest) -> list[Any]:
        order.append(str(request.npc_id))
        return reply("ok")

    rt = make_runtime([first, later, later], max_concurrent=1)
    rt.register_npc(MIRA.model_copy(update={"npc_id": "cora", "name": "Cora"}))
    idle = Trigger(kind="idle", text="tick")
    futures = [rt.submit("s1", "mira", idle)]
    await pause.wait()
    futures.append(rt.submit("s1", "bram", idle))
    await until(lambda: rt.limiter.waiting == 1)
    futures.append(rt.submit("s1", "cora", Trigger.player("Hi Cora")))
    await until(lambda: rt.limiter.waiting == 2)
    pause.release()
    await asyncio.gather(*futures)
    assert order == ["mira", "cora", "bram"]


async def test_summaries_bound_the_replayed_history(make_runtime: RuntimeFactory) -> None:
    rt = make_runtime([reply("Hello."), reply("Again.")])
    await rt.run_turn("s1", "mira", HI)
    store = rt.store("s1")  # as the compactor writes one, between turns
    upto = store.next_seq("mira") - 1
    store.append("mira", SummaryEvent(text="You met the player at the well.", upto_seq=upto))
    await rt.run_turn("s1", "mira", Trigger.player("Remember me?"))
    request = rt.provider.calls[1]  # type: ignore[attr-defined]
    assert "You met the player at the well." in request.system
    assert len(request.messages) == 1
    assert request.messages[0].content.endswith('"""Remember me?"""')


async def test_world_and_npc_summaries_come_from_the_slot(
    make_runtime: RuntimeFactory, saves: Path
) -> None:
    (saves / "s1" / "npcs" / "mira" / "memory").mkdir(parents=True)
    (saves / "s1" / "world_summary.txt").write_text("Harvest festival today.")
    (saves / "s1" / "npcs" / "mira" / "memory" / "summary.txt").write_text("Likes the player.")
    rt = make_runtime([reply("Hi.")])
    await rt.run_turn("s1", "mira", HI)
    system = rt.provider.calls[0].system  # type: ignore[attr-defined]
    assert "Harvest festival today." in system and "Likes the player." in system


async def test_a_provider_per_trigger(make_runtime: RuntimeFactory) -> None:
    player_brain = FakeProvider([reply("For you, anything.")], name="remote")
    idle_brain = FakeProvider([reply("Hum hum.")], name="local")
    rt = make_runtime(
        idle_brain,
        provider_for=lambda t: player_brain if t.kind == "player_message" else idle_brain,
    )
    assert (await rt.run_turn("s1", "mira", HI)).text == "For you, anything."
    idle = await rt.run_turn("s1", "mira", Trigger(kind="idle", text="tick"))
    assert idle.text == "Hum hum."


async def test_a_turn_given_its_own_provider_is_answered_by_it(
    make_runtime: RuntimeFactory,
) -> None:
    stand_in = FakeProvider([reply("I'm here, I'm here.")], name="scripted")
    rt = make_runtime([reply("The model's line.")])
    idle = Trigger(kind="idle", text="tick")
    first = rt.submit("s1", "mira", idle)
    # Queued behind another idle tick, it is not merged into it: it keeps its provider.
    taken_over = rt.submit("s1", "mira", idle, provider=stand_in)
    assert first is not taken_over
    assert (await first).text == "The model's line."
    assert (await taken_over).text == "I'm here, I'm here."
    assert len(rt.provider.calls) == 1 and len(stand_in.calls) == 1  # type: ignore[attr-defined]


async def test_a_log_the_disk_refuses_to_open_fails_the_turn_in_one_line(
    make_runtime: RuntimeFactory, saves: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A file where the NPC's session folder should be: the log cannot even be opened.
    blocked = saves / "s1" / "npcs" / "mira" / "session"
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")
    rt = make_runtime([reply("Hello!")])
    outcome = await rt.run_turn("s1", "mira", HI)
    assert isinstance(outcome, Failed) and outcome.error_kind == "store", outcome
    assert "session" in outcome.error
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert blocked.read_text() == "not a folder"
