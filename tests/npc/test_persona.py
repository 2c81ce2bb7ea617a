"""The persona-driven scripted brain plays a model with the same skills."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from game.agent.events import ToolUse
from game.agent.loop import Final, Trigger
from game.agent.providers.base import Message, ProviderRequest
from game.npc.persona import (
    MAX_PLAN,
    NEAR_PHRASE,
    PersonaProvider,
    next_action,
    plan_for,
    situation_of,
)
from game.world.commands import Say
from game.world.perception import perceive

from .conftest import Life


def _perceived(life: Life, npc_id: str) -> str:
    """What the NPC perceives now, as its turn would read it."""
    return perceive(life.world, npc_id).render()


def calls_of(life: Life, npc_id: str) -> list[tuple[str, dict[str, object]]]:
    """The skill calls an NPC made, from its session log."""
    events = life.runtime.store("test").read(npc_id)
    return [(e.name, json.loads(e.arguments)) for e in events if isinstance(e, ToolUse)]


async def turn(life: Life, npc_id: str, trigger: Trigger) -> Final:
    fut = asyncio.ensure_future(life.runtime.run_turn("test", npc_id, trigger))
    await life.run(until=fut.done)
    outcome = fut.result()
    assert isinstance(outcome, Final), outcome
    return outcome


async def test_the_plan_is_the_same_at_every_step_of_a_turn(tmp_path: Path) -> None:
    life = Life(tmp_path)
    life.world.player.place((2, 33))
    for i in range(12):  # many idle turns of many NPCs: whatever their plans, they hold
        for npc_id in life.world.npcs:
            trigger = Trigger(kind="idle", text=f"A quiet moment ({i}).", perception=None)
            trigger.perception = _perceived(life, npc_id)
            before = len(calls_of(life, npc_id))
            await turn(life, npc_id, trigger)
            made = calls_of(life, npc_id)[before:]
            assert 0 < len(made) <= MAX_PLAN + 1
    kinds = {name for npc in life.world.npcs for name, _ in calls_of(life, npc)}
    assert {"move", "emote", "look"} <= kinds, kinds
    await life.close()


async def test_player_near_waves_then_greets_the_player(tmp_path: Path) -> None:
    life = Life(tmp_path)
    life.world.player.place((17, 19))  # not near enough for the brain to greet on its own
    perception = _perceived(life, "pip")
    near = Trigger(kind="player_near", text=f"Traveller {NEAR_PHRASE}.", perception=perception)
    await turn(life, "pip", near)
    pip = life.world.npcs["pip"]
    assert calls_of(life, "pip") == [
        ("emote", {"name": "wave"}),
        ("say", {"text": pip.greeting, "target": "player"}),
    ]
    # The next time the player says hello, Pip does not greet all over again.
    await turn(life, "pip", Trigger.player("hello", _perceived(life, "pip")))
    says = [args for name, args in calls_of(life, "pip") if name == "say"]
    assert len(says) == 2 and says[-1]["text"] != pip.greeting
    await life.close()


async def test_heard_answers_the_speaker_by_name(tmp_path: Path) -> None:
    life = Life(tmp_path)
    text = 'Elder Maren said to you: "Tobin, is the bread ready?"'
    await turn(life, "tobin", Trigger(kind="heard", text=text, source="maren"))
    says = [args for name, args in calls_of(life, "tobin") if name == "say"]
    assert says and says[0]["target"] == "Elder Maren"
    await life.close()


async def test_a_failed_move_is_corrected_then_given_up(tmp_path: Path) -> None:
    def request() -> ProviderRequest:
        messages = [Message(role="user", content="[world] A quiet moment.")]
        return ProviderRequest(
            system="You are Wren.\n\n- home: dock",
            messages=messages,
            tools=[],
            metadata={
                "npc_id": "wren",
                "name": "Wren",
                "persona": "A quiet fisher.",
                "trigger": "idle",
                "trigger_text": "A quiet moment.",
                "perception": "You are at the dock in Hollowbrook. Nobody is near.",
            },
        )

    first = request()
    plan = plan_for(situation_of(first))
    # Find a seed whose first action is a directed move (the plan depends on the text).
    text = 0
    while not (plan and plan[0][0] == "move" and "direction" in plan[0][1]):
        text += 1
        first.metadata["trigger_text"] = f"A quiet moment {text}."
        plan = plan_for(situation_of(first))
    moves = [plan[0]]
    assert next_action(first) == moves[0]
    first.messages.append(Message(role="assistant", content=""))
    first.messages.append(Message(role="tool", content="blocked at (40, 26)", is_error=True))
    retry = next_action(first)
    assert retry is not None and retry[0] == "move"
    opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}
    assert retry[1]["direction"] == opposite[str(moves[0][1]["direction"])]
    first.messages.append(Message(role="assistant", content=""))
    first.messages.append(Message(role="tool", content="blocked again", is_error=True))
    assert next_action(first) == ("emote", {"name": "shake_head"})
    first.messages.append(Message(role="assistant", content=""))
    first.messages.append(Message(role="tool", content="you shake head"))
    assert next_action(first) is None  # the turn ends


async def test_an_npc_asks_the_player_and_reacts_to_the_pick(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    world.player.place((21, 19))
    await turn(life, "pip", Trigger.player("I am new here", _perceived(life, "pip")))
    # Talk on until Pip puts a question (the persona asks now and then, not always).
    for i in range(12):
        fut = asyncio.ensure_future(
            life.runtime.run_turn(
                "test", "pip", Trigger.player(f"Tell me more {i}", _perceived(life, "pip"))
            )
        )
        await life.run(until=lambda: fut.done() or world.ask is not None)  # noqa: B023
        if world.ask is not None:
            break
        assert fut.done()
    assert world.ask is not None, "Pip never asked anything"
    assert world.ask.options[0] == "Yes, let's go!"
    world.answer_ask(0)
    await life.run(until=fut.done)
    assert calls_of(life, "pip")[-1] == (
        "say",
        {"text": "Yes! I'll get my wooden sword!", "target": "player"},
    )
    await life.close()


async def test_the_same_request_gives_the_same_stream() -> None:
    provider = PersonaProvider(delay_s=0)
    request = ProviderRequest(
        system="You are Tobin.",
        messages=[Message(role="user", content='Player says: """What do you do?"""')],
        metadata={"npc_id": "tobin", "name": "Tobin", "persona": "A cheerful baker."},
    )
    first = [e async for e in provider.stream(request)]
    second = [e async for e in provider.stream(request)]
    assert first == second
    assert "".join(getattr(e, "text", "") for e in first).startswith("I'm Tobin.")


async def test_npcs_chat_to_each_other_on_their_own(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    world.player.place((2, 33))
    world.post(Say("cassius", "Pip! Come see this shiny pebble from the mountains!"))
    await life.run(12)
    pip_lines = life.said_by("pip")
    assert pip_lines and pip_lines[0].target_id == "cassius"
    await life.close()
