"""The persona-driven scripted brain plays a model with the same skills."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from game.agent.events import ToolUse
from game.agent.facts import TriggerFacts
from game.agent.outcomes import Final
from game.agent.providers.base import Message, ProviderRequest
from game.agent.trigger import Trigger
from game.npc.cues import Sensed
from game.npc.facts import SeenFact, SensedFacts, VillagerFacts
from game.npc.scripted.persona import (
    MAX_PLAN,
    PersonaProvider,
    next_action,
    plan_for,
    situation_of,
)
from game.tokens import estimate_tokens
from game.world.commands import Say
from game.world.perception import DEFAULT_BUDGET, sense

from .conftest import Life, shown, shown_all


def _perceived(life: Life, npc_id: str) -> tuple[str, SensedFacts]:
    """What the NPC perceives now, as its turn would read it: the text and the facts."""
    sensed = Sensed(sense(life.world, npc_id), DEFAULT_BUDGET, estimate_tokens)
    return sensed.text(), sensed.facts()


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
            perception, sensed = _perceived(life, npc_id)
            trigger = Trigger(
                kind="idle", text=f"A quiet moment ({i}).", perception=perception, sensed=sensed
            )
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
    perception, sensed = _perceived(life, "pip")
    near = Trigger(
        kind="player_near",
        text="Traveller comes up to you.",
        source="player",
        perception=perception,
        sensed=sensed,
    )
    await turn(life, "pip", near)
    pip = life.world.npcs["pip"]
    assert calls_of(life, "pip") == [
        ("emote", {"name": "wave"}),
        ("say", {"text": pip.greeting, "target": "player"}),
    ]
    # The next time the player says hello, Pip does not greet all over again.
    await turn(life, "pip", Trigger.player("hello", *_perceived(life, "pip")))
    says = [args for name, args in calls_of(life, "pip") if name == "say"]
    assert len(says) == 2 and says[-1]["text"] != pip.greeting
    await life.close()


async def test_heard_answers_the_speaker_by_name(tmp_path: Path) -> None:
    life = Life(tmp_path)
    heard = Trigger(
        kind="heard",
        text="A line for the models: the brain reads who spoke from the facts.",
        source="maren",
        speaker="Elder Maren",
        said="Tobin, is the bread ready?",
    )
    await turn(life, "tobin", heard)
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
            npc=VillagerFacts(npc_id="wren", name="Wren", persona="A quiet fisher."),
            trigger=TriggerFacts(
                kind="idle",
                text="A quiet moment.",
                perception="You are at the dock in Hollowbrook. Nobody is near.",
                sensed=SensedFacts(place="dock", map_name="Hollowbrook"),
            ),
        )

    first = request()
    plan = shown_all(plan_for(situation_of(first)))
    # Find a seed whose first action is a directed move (the plan depends on the text).
    text = 0
    while not (plan and plan[0][0] == "move" and "direction" in plan[0][1]):
        text += 1
        assert first.trigger is not None
        first.trigger.text = f"A quiet moment {text}."
        plan = shown_all(plan_for(situation_of(first)))
    moves = [plan[0]]
    assert shown(next_action(first)) == moves[0]
    first.messages.append(Message(role="assistant", content=""))
    first.messages.append(Message(role="tool", content="blocked at (40, 26)", is_error=True))
    retry = shown(next_action(first))
    assert retry is not None and retry[0] == "move"
    opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}
    assert retry[1]["direction"] == opposite[str(moves[0][1]["direction"])]
    first.messages.append(Message(role="assistant", content=""))
    first.messages.append(Message(role="tool", content="blocked again", is_error=True))
    assert shown(next_action(first)) == ("emote", {"name": "shake_head"})
    first.messages.append(Message(role="assistant", content=""))
    first.messages.append(Message(role="tool", content="you shake head"))
    assert next_action(first) is None  # the turn ends


async def test_an_npc_asks_the_player_and_reacts_to_the_pick(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    world.player.place((21, 19))
    await turn(life, "pip", Trigger.player("I am new here", *_perceived(life, "pip")))
    # Talk on until Pip puts a question (the persona asks now and then, not always).
    for i in range(12):
        fut = asyncio.ensure_future(
            life.runtime.run_turn(
                "test", "pip", Trigger.player(f"Tell me more {i}", *_perceived(life, "pip"))
            )
        )
        await life.run(until=lambda: fut.done() or world.ask is not None)  # noqa: B023
        if world.ask is not None:
            break
        assert fut.done()
    assert world.ask is not None, "Pip never asked anything"
    # The question is about what Pip's sheet holds (a belief), the reaction Pip's mood's.
    assert world.ask.question == "Do you believe a dragon lives past the river?"
    assert world.ask.options[0] == "Yes!"
    world.answer_ask(0)
    await life.run(until=fut.done)
    assert calls_of(life, "pip")[-1] == (
        "say",
        {"text": "I knew it! I knew you'd see it too!", "target": "player"},
    )
    # The pick reached the brain as a fact in the log, not as prose it unpicked.
    asked = [e for e in life.runtime.store("test").read("pip") if getattr(e, "name", "") == "ask"]
    assert asked[-1].data == {"choice": "Yes!"}
    await life.close()


async def test_the_same_request_gives_the_same_stream() -> None:
    provider = PersonaProvider(delay_s=0)
    trigger = TriggerFacts(kind="player_message", text="What do you do?", said="What do you do?")
    request = ProviderRequest(
        system="You are Tobin.",
        messages=[Message(role="user", content="What do you do?", trigger=trigger)],
        npc=VillagerFacts(npc_id="tobin", name="Tobin", persona="A cheerful baker."),
        trigger=trigger,
    )
    first = [e async for e in provider.stream(request)]
    second = [e async for e in provider.stream(request)]
    assert first == second
    assert "I'm a cheerful baker" in "".join(getattr(e, "text", "") for e in first)


async def test_npcs_chat_to_each_other_on_their_own(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    world.player.place((2, 33))
    world.post(Say("cassius", "Pip! Come see this shiny pebble from the mountains!"))
    await life.run(12)
    pip_lines = life.said_by("pip")
    assert pip_lines and pip_lines[0].target_id == "cassius"
    await life.close()


# The prose written for models says other things than the facts: the brain reads the facts.
MISLEADING = (
    "You are at the forge. Tobin is one tile to the east.\nNearby: Tobin, one tile east, idle"
)


def _idle(text: str, sensed: SensedFacts, *, home: str = "") -> ProviderRequest:
    """An idle request whose facts say `sensed`, whatever its prose says."""
    return ProviderRequest(
        system="You are Brenna.",
        messages=[Message(role="user", content=f"[world] What you perceive now:\n{MISLEADING}")],
        npc=VillagerFacts(npc_id="brenna", name="Brenna", persona="A gruff smith.", home=home),
        trigger=TriggerFacts(kind="idle", text=text, perception=MISLEADING, sensed=sensed),
    )


def test_an_idle_line_names_someone_nearby_from_the_facts() -> None:
    pip = SeenFact(entity_id="pip", name="Pip", distance=2, direction="east", activity="idle")
    named = []
    for i in range(200):  # the idle lines that name someone come now and then
        plan = shown_all(
            plan_for(situation_of(_idle(f"A quiet moment {i}.", SensedFacts(nearby=[pip]))))
        )
        named += [args for name, args in plan if name == "say" and "target" in args]
    assert named and all(args["target"] == "Pip" for args in named)
    assert all("Pip" in str(args["text"]) for args in named)
    # Nobody nearby in the facts: nobody is named, whatever the prose says.
    for i in range(200):
        plan = shown_all(plan_for(situation_of(_idle(f"A quiet moment {i}.", SensedFacts()))))
        assert not [args for name, args in plan if name == "say" and "target" in args]


def test_at_home_is_read_from_the_sensed_place() -> None:
    def moves_home(place: str) -> int:
        sensed = SensedFacts(place=place)
        plans = [
            shown_all(plan_for(situation_of(_idle(f"A quiet moment {i}.", sensed, home="forge"))))
            for i in range(60)
        ]
        return sum(1 for plan in plans if ("move", {"to": "forge"}) in plan)

    assert moves_home("plaza") > 0  # the prose says the forge; the facts say the plaza
    assert moves_home("forge") == 0
