"""When NPCs think: speech heard, the chatter cap, the player near, idle ticks, fallbacks.

Every test runs the real village map with the persona brain (`PersonaProvider`, or a
`FakeProvider` where the test needs a failing or silent model), stepping the game clock.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from game.agent.events import TRIGGER_PRIORITY, AssistantMessage
from game.agent.providers.base import ProviderRequest
from game.agent.providers.fake import FakeProvider, Pause, error, step, tool_call
from game.agent.providers.registry import Capabilities
from game.agent.trigger import Trigger
from game.npc.agents import first_sentence
from game.npc.brain import TALK_HOLD_S
from game.npc.cues import Cue, Sensed
from game.npc.facts import SensedFacts
from game.npc.known import villager_facts
from game.npc.pace import (
    MAX_PUT_OFF,
    ChatterSettings,
    IdlePace,
    IdleSettings,
    SpareTime,
    npcs_kept_thinking,
)
from game.npc.scripted.persona import PersonaProvider
from game.npc.skills import SAY
from game.tokens import estimate_tokens
from game.world.commands import GoTo, Look, MoveSteps, Say
from game.world.motion import PLAN_TIMEOUT_S
from game.world.perception import DEFAULT_BUDGET, perceive
from game.world.tiled import MapData
from game.world.world import World

from .conftest import Life, crowd


def between(life: Life, a: str, b: str) -> list[str]:
    """The lines two NPCs said to each other, in order."""
    return [
        f"{s.speaker_id}>{s.target_id}"
        for s in life.spoken
        if {s.speaker_id, s.target_id} == {a, b}
    ]


async def test_an_addressed_npc_answers_the_speaker(tmp_path: Path) -> None:
    life = Life(tmp_path, chatter=ChatterSettings(max_lines=2))
    life.world.post(Say("pip", "Cassius, what is in your cart today?", target="Cassius"))
    await life.run(until=lambda: bool(life.said_by("cassius")))
    answer = life.said_by("cassius")[0]
    assert answer.target_id == "pip", "Cassius answers the one who spoke to him"
    assert answer.text
    assert ("cassius", "heard") in life.brain.sent
    await life.close()


async def test_npcs_out_of_earshot_do_not_answer(tmp_path: Path) -> None:
    life = Life(tmp_path)
    life.world.post(Say("pip", "Brenna, can you fix my sword?", target="Brenna"))
    await life.run(5)
    assert life.said_by("brenna") == []
    assert not any(npc == "brenna" for npc, _ in life.brain.sent)
    await life.close()


async def test_chatter_cap_ends_npc_exchanges_and_cools_down(tmp_path: Path) -> None:
    chatter = ChatterSettings(max_lines=4, cooldown_s=30.0, gap_s=20.0)
    life = Life(tmp_path, chatter=chatter)
    life.world.post(Say("pip", "Cassius! Cassius! Is that a dragon scale?", target="Cassius"))
    await life.run(25)
    lines = between(life, "pip", "cassius")
    assert len(lines) == 4, f"the exchange was not capped at four lines: {lines}"
    assert lines == ["pip>cassius", "cassius>pip", "pip>cassius", "cassius>pip"]
    # During the cooldown a new line from Pip gets no answer...
    life.world.post(Say("pip", "Cassius, one more thing!", target="Cassius"))
    await life.run(8)
    assert len(between(life, "pip", "cassius")) == 5
    # ...after it, the two may talk again.
    await life.run(30)
    life.world.post(Say("pip", "Cassius, are you still there?", target="Cassius"))
    await life.run(until=lambda: len(between(life, "pip", "cassius")) >= 7, limit_s=20)
    assert between(life, "pip", "cassius")[5:7] == ["pip>cassius", "cassius>pip"]
    await life.close()


async def test_the_player_talking_comes_first_and_stops_a_walk(tmp_path: Path) -> None:
    provider = FakeProvider(
        [
            step(tool_call("move", {"to": "elder house"})),  # the idle turn: a long walk
            step(tool_call("say", {"text": "Rye and honey buns!"})),  # the answer
            step(),
        ]
    )
    life = Life(tmp_path, provider=provider)
    world = life.world
    tobin = world.npcs["tobin"]
    world.player.place((11, 17))
    life.brain.trigger("tobin", Trigger(kind="idle", text="A quiet moment."))
    await life.run(0.5)
    assert tobin.path, "Tobin should be walking"
    life.brain.player_talks("tobin", "Tobin, wait! What do you bake?")
    await life.run(until=lambda: bool(life.said_by("tobin")), limit_s=3)
    said = life.said_by("tobin")[-1]
    assert said.text == "Rye and honey buns!" and said.target_id == "player"
    assert not tobin.path, "Tobin stopped walking to answer the player"
    assert tobin.facing in ("left", "down")  # he turned to the player, at (11, 17)
    await life.close()


async def test_player_near_greets_once_per_cooldown(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    pip = world.npcs["pip"]
    world.player.place((20, 19))  # two tiles from Pip
    await life.run(until=lambda: bool(life.said_by("pip")), limit_s=10)
    greeting = life.said_by("pip")[0]
    assert greeting.text == pip.greeting and greeting.target_id == "player"
    assert pip.emote is not None and pip.emote.name == "wave"
    # Walk away and back within the cooldown: no second greeting.
    world.player.place((12, 19))
    await life.run(2)
    world.player.place((20, 19))
    await life.run(5)
    assert [k for n, k in life.brain.sent if n == "pip"].count("player_near") == 1
    # After the cooldown the player is greeted again (no longer a stranger).
    world.player.place((12, 19))
    await life.run(life.brain.greet_cooldown_s)
    world.player.place((20, 19))
    await life.run(until=lambda: len(life.said_by("pip")) >= 2, limit_s=10)
    assert life.said_by("pip")[1].text != pip.greeting
    await life.close()


async def test_passing_by_greets_nobody(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    world.player.place((20, 19))
    await life.run(0.2)  # shorter than the dwell
    world.player.place((12, 19))
    await life.run(3)
    assert life.brain.sent == []
    await life.close()


async def test_idle_ticks_run_on_the_game_clock(tmp_path: Path) -> None:
    life = Life(tmp_path, idle=IdleSettings(min_s=8, max_s=20))
    life.world.player.place((2, 33))  # far from everyone: no greetings
    await life.run(25)
    idle = [n for n, k in life.brain.sent if k == "idle"]
    assert set(idle) == set(life.world.npcs), "every NPC had an idle tick"
    # On screen, ticks come every 8-20 s: in 25 s at most 1 + 25 / 8 each.
    assert all(idle.count(n) <= 4 for n in set(idle))
    assert any(s for s in (life.world.npcs[n].tile for n in idle)), "NPCs act on their ticks"
    await life.close()


async def test_idle_life_is_deterministic(tmp_path: Path) -> None:
    async def run(tmp: Path) -> tuple[list[tuple[str, str]], dict[str, tuple[int, int]]]:
        life = Life(tmp, idle=IdleSettings(min_s=3, max_s=6))
        life.world.player.place((2, 33))
        await life.run(30)
        await life.close()
        return list(life.brain.sent), {n: e.tile for n, e in life.world.npcs.items()}

    first = await run(tmp_path / "a")
    second = await run(tmp_path / "b")
    assert first == second
    assert len(first[0]) > 20


async def test_idle_is_slower_off_screen_and_can_be_switched_off(tmp_path: Path) -> None:
    on = Life(tmp_path / "on", idle=IdleSettings(min_s=2, max_s=4))
    off_screen = Life(tmp_path / "off", idle=IdleSettings(min_s=2, max_s=4, offscreen_factor=3))
    off_screen.brain.on_screen = lambda ent: False
    none = Life(tmp_path / "none", idle=IdleSettings(enabled=False))
    for life in (on, off_screen, none):
        life.world.player.place((2, 33))
        await life.run(30)
        await life.close()
    count = [sum(1 for _, k in life.brain.sent if k == "idle") for life in (on, off_screen, none)]
    assert 0 < count[1] < 0.7 * count[0]
    assert count[2] == 0


async def test_a_failing_provider_falls_back_in_character(tmp_path: Path) -> None:
    provider = FakeProvider([step(error("http", "503 upstream"))])
    life = Life(tmp_path, provider=provider)
    life.world.player.place((21, 19))
    life.brain.player_talks("pip", "Who are you?")
    await life.run(until=lambda: bool(life.said_by("pip")), limit_s=5)
    said = life.said_by("pip")[0]
    assert "Pip" in said.text, said.text  # who it is, from the persona
    assert said.target_id == "player"
    assert life.agents.fallbacks == 1
    assert dict(life.agents.fallback_causes) == {"http": 1}
    assert (life.agents.turns_ended, life.agents.turns_answered) == (1, 0)
    await life.close()


async def test_a_silent_provider_falls_back_after_the_limit(tmp_path: Path) -> None:
    silent = Pause()  # never released: the model never says a word
    provider = FakeProvider([step(silent)])
    life = Life(tmp_path, provider=provider, slow_after_s=3.0)
    life.world.player.place((21, 19))
    life.brain.player_talks("pip", "Hello?")
    waited = await life.run(until=lambda: bool(life.said_by("pip")), limit_s=10)
    assert 3.0 <= waited <= 4.5, waited
    assert life.agents.fallbacks == 1
    assert dict(life.agents.fallback_causes) == {"timeout": 1}
    assert life.said_by("pip")[0].text  # in character, not frozen
    silent.release()
    await life.close()


async def test_perception_stays_within_budget_with_thirty_npcs_in_view(
    tmp_path: Path, village_map: MapData
) -> None:
    crowd(village_map, 30, (19, 17))
    life = Life(tmp_path, map_data=village_map)
    world = life.world
    world.player.place((19, 18))
    for i in range(8):
        world.post(Say(f"villager{i}", f"Line {i}: the weather is lovely and long today, " * 2))
    await life.run(0.1)
    for npc_id in world.npcs:
        p = perceive(world, npc_id)
        assert estimate_tokens(p.render()) <= DEFAULT_BUDGET, npc_id
        assert len(p.nearby) <= 5
    crowded = perceive(world, "villager0")
    assert crowded.nearby and crowded.heard, "the budget kept the nearest and the newest"
    await life.close()


async def test_triggers_cross_by_the_mailbox_and_run_when_it_is_pumped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    life = Life(tmp_path)
    wake_ups: list[object] = []
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(loop, "call_soon_threadsafe", lambda *args: wake_ups.append(args))
    started: list[str] = []
    start_turn = life.agents.start_turn

    def recorded(npc_id: str, trigger: Trigger | Cue, sensed: Sensed | None = None) -> object:
        started.append(npc_id)
        return start_turn(npc_id, trigger, sensed)

    monkeypatch.setattr(life.agents, "start_turn", recorded)
    life.world.player.place((21, 19))
    life.brain.player_talks("pip", "Who are you?")
    assert life.mailbox.queued() == 1 and started == [], "posted: nothing runs in the frame"
    life.mailbox.pump()
    assert life.mailbox.queued() == 0 and started == ["pip"]
    await life.run(until=lambda: bool(life.said_by("pip")), limit_s=5)
    assert "Pip" in life.said_by("pip")[0].text
    assert wake_ups == []
    await life.close()


async def test_outcomes_reach_the_skills_by_the_pump_not_by_a_wake_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wake-up written from the game thread would give up the GIL inside its frame.
    life = Life(tmp_path)
    wake_ups: list[object] = []
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(loop, "call_soon_threadsafe", lambda *args: wake_ups.append(args))
    waiter = life.mailbox.outcome(life.world.submit(MoveSteps("pip", "left", 1)))
    await life.run(until=waiter.done, limit_s=5)
    assert waiter.result().ok and "arrived" in waiter.result().message
    assert wake_ups == []
    await life.close()


async def test_outcomes_still_awaited_when_the_mailbox_stops_arrive_all_the_same(
    tmp_path: Path,
) -> None:
    life = Life(tmp_path)
    running = asyncio.ensure_future(life.mailbox.run(every_s=0))
    await asyncio.sleep(0)
    waiter = life.mailbox.outcome(life.world.submit(MoveSteps("pip", "left", 2)))
    life.mailbox.stop()
    later = life.mailbox.outcome(life.world.submit(MoveSteps("tobin", "left", 1)))
    for _ in range(300):  # the world steps on; nobody pumps any more
        if waiter.done() and later.done():
            break
        life.step()
        await asyncio.sleep(0)
    assert waiter.result().ok and later.result().ok
    assert running.cancelled()
    await life.close()


async def test_a_cancelled_skill_lets_go_of_its_world_future(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world_fut = life.world.submit(MoveSteps("pip", "left", 2))
    waiter = life.mailbox.outcome(world_fut)
    waiter.cancel()
    await life.run(until=world_fut.done, limit_s=5)
    assert world_fut.cancelled()
    await life.close()


async def test_the_pump_plans_the_paths_the_world_hands_out(tmp_path: Path) -> None:
    life = Life(tmp_path)
    life.world.plan_elsewhere()
    waiter = life.mailbox.outcome(life.world.submit(GoTo("pip", "well")))
    # Well before the world would give up on its planner and search by itself.
    await life.run(until=lambda: bool(life.world.npcs["pip"].path), limit_s=PLAN_TIMEOUT_S / 4)
    await life.run(until=waiter.done, limit_s=30)
    assert waiter.result().ok and "well" in waiter.result().message
    assert life.world.path_requests.empty()
    await life.close()


async def test_what_the_npc_sensed_is_written_up_on_the_agent_side_into_the_log(
    tmp_path: Path,
) -> None:
    from game.agent.events import UserMessage

    life = Life(tmp_path)
    counted: list[str] = []

    def count(text: str) -> int:  # the local model's tokenizer would run here
        counted.append(text)
        return estimate_tokens(text)

    life.brain.count_tokens = count
    life.world.player.place((21, 19))
    life.brain.player_talks("pip", "Who are you?")
    assert counted == [], "the game thread only took the facts"
    await life.run(until=lambda: bool(life.said_by("pip")), limit_s=5)
    asked = [e for e in life.runtime.store("test").read("pip") if isinstance(e, UserMessage)]
    assert asked and asked[0].perception is not None
    assert asked[0].perception.startswith("You are at") and "Traveller" in asked[0].perception
    assert counted, "the budget was kept when the turn started"
    # The same perception as facts, beside the text: who spoke, who is near, where.
    assert asked[0].sensed is not None and asked[0].speaker == "Traveller"
    sensed = SensedFacts.of(asked[0].sensed)
    assert sensed.nearby and sensed.nearby[0].name == "Traveller"
    assert all(seen.name in asked[0].perception for seen in sensed.nearby)
    place = life.world.map.place_at(life.world.npcs["pip"].tile)
    assert sensed.place == (place.name if place is not None else None)
    await life.close()


async def test_a_heard_line_crosses_as_facts(tmp_path: Path) -> None:
    from game.agent.events import WorldObservation

    life = Life(tmp_path, chatter=ChatterSettings(max_lines=2))
    life.world.post(Say("pip", "Cassius, what is in your cart today?", target="Cassius"))
    await life.run(until=lambda: bool(life.said_by("cassius")))
    heard = [
        e
        for e in life.runtime.store("test").read("cassius")
        if isinstance(e, WorldObservation) and e.kind == "heard"
    ]
    assert heard and (heard[0].source, heard[0].speaker) == ("pip", "Pip")
    assert heard[0].said == "Cassius, what is in your cart today?"
    assert heard[0].sensed is not None
    assert "Pip" in [s.name for s in SensedFacts.of(heard[0].sensed).nearby]
    await life.close()


async def test_the_fallback_answers_from_the_typed_trigger(tmp_path: Path) -> None:
    life = Life(tmp_path)
    heard = Trigger(
        kind="heard", text="(prose for models)", source="pip", speaker="Pip", said="Who are you?"
    )
    life.agents.fallback("cassius", heard)
    await life.run(until=lambda: bool(life.said_by("cassius")), limit_s=5)
    said = life.said_by("cassius")[0]
    assert "Pip" in said.text, said.text  # the speaker's name, from the facts, not the prose
    assert said.target_id == "pip"
    # The persona mind answered through the skills, in a turn of its own in the log.
    await life.run(until=lambda: not life.runtime.lanes.busy("cassius"), limit_s=5)
    calls = [
        call.name
        for event in life.runtime.store("test").recent("cassius")
        if isinstance(event, AssistantMessage)
        for call in event.tool_calls
    ]
    assert SAY.name in calls, calls
    assert life.agents.fallbacks == 1
    await life.close()


async def test_a_crowd_of_cues_is_sensed_and_sent_one_a_frame(tmp_path: Path) -> None:
    life = Life(tmp_path)
    # Stepped without a pump: the mailbox shows what crossed, frame by frame.
    for npc_id in ("pip", "tobin", "cassius"):
        life.brain.trigger(npc_id, Cue("idle", "A quiet moment."))
    assert life.mailbox.queued() == 0 and life.brain.busy("cassius")
    for frame in (1, 2, 3, 4):
        life.step()
        assert life.mailbox.queued() == min(frame, 3)
    await life.run(until=lambda: life.brain.in_flight == 0, limit_s=30)
    await life.close()


async def test_spare_time_takes_turns_between_world_commands_and_chores(
    tmp_path: Path,
) -> None:
    life = Life(tmp_path)
    life.brain.trigger("pip", Cue("idle", "A quiet moment."))
    life.brain.trigger("tobin", Cue("idle", "A quiet moment."))
    looks = [life.world.submit(Look("cassius")) for _ in range(2)]
    progress = []
    for _ in range(5):  # a frame with time to spare, every one: one costly piece each
        life.step()
        progress.append((sum(f.done() for f in looks), life.mailbox.queued()))
    # A look, a cue sensed and sent, a look, a cue; then nothing left but idle ticks.
    assert progress == [(1, 0), (1, 1), (2, 1), (2, 2), (2, 2)]
    await life.run(until=lambda: life.brain.in_flight == 0, limit_s=30)
    await life.close()


def test_a_busy_frame_puts_spare_work_off_but_never_long() -> None:
    spare = SpareTime()
    assert spare.ready(0.0003), "the first frame sets what is usual"
    assert not spare.ready(0.0009), "slower than usual: the work waits"
    assert spare.ready(0.0001), "a lighter frame takes it"
    busy = [spare.ready(0.001) for _ in range(MAX_PUT_OFF + 1)]
    assert busy == [False] * MAX_PUT_OFF + [True], "put off a few frames at most"


async def test_npcs_off_screen_come_to_life_over_their_slower_period(
    tmp_path: Path, village_map: MapData
) -> None:
    crowd(village_map, 8, (42, 10), radius=3)  # far east of the player's spawn
    idle = IdleSettings(min_s=2, max_s=4, offscreen_factor=3, first_min_s=1)
    life = Life(tmp_path, idle=idle, map_data=village_map)
    first = {npc_id: life.brain._state(npc_id).next_idle for npc_id in life.world.npcs}
    seen = {n for n, npc in life.world.npcs.items() if life.brain.on_screen(npc)}
    assert seen and len(seen) < len(first)
    assert all(1 <= first[n] <= 4 for n in seen)
    far = [first[n] for n in first if n not in seen]
    assert all(1 <= t <= 12 for t in far) and max(far) > 4
    await life.close()


def test_the_profile_knows_the_other_villagers_as_facts(village_map: MapData) -> None:
    world = World(village_map)
    facts = villager_facts(world, "tobin")
    villagers = {v.npc_id: v for v in facts.people}
    assert "tobin" not in villagers and set(villagers) == set(world.npcs) - {"tobin"}
    brenna = villagers["brenna"]
    assert brenna.name == "Brenna" and brenna.home == "forge"
    # One line: the first sentence of the persona, not the whole of it.
    assert brenna.role.startswith("Brenna is Hollowbrook's blacksmith")
    assert brenna.role.endswith(".") and brenna.role.count(". ") == 0
    # Where she is found by day: her work place (the garden), not her house.
    assert villagers["maren"].name == "Elder Maren" and villagers["maren"].home == "garden"


def test_first_sentence_keeps_abbreviations_whole() -> None:
    assert first_sentence("Ann is from St. Ives. She sews.") == "Ann is from St. Ives."
    assert first_sentence("No full stop at all") == "No full stop at all"
    assert first_sentence("Who?  Me.") == "Who?"


def test_idle_periods_stretch_when_turns_are_slow_and_never_shrink() -> None:
    pace = IdlePace(IdleSettings(max_in_flight=1, model_share=0.5))
    assert pace.period(10.0, npcs=6) == 10.0  # nothing measured yet
    for _ in range(5):
        pace.note(0.2)
    assert pace.period(10.0, npcs=6) == 10.0  # a fast model: the configured pace
    for _ in range(16):
        pace.note(3.0)
    # Six NPCs at 3 s a turn, half the model's time: a tick every 36 s each.
    assert pace.period(10.0, npcs=6) == pytest.approx(36.0)
    assert pace.may_start(0) and not pace.may_start(1)


async def test_a_serial_model_thinks_for_one_idle_npc_at_a_time(tmp_path: Path) -> None:
    idle = IdleSettings(min_s=2, max_s=4, max_in_flight=1)
    life = Life(tmp_path, provider=PersonaProvider(delay_s=0), idle=idle)
    life.world.player.place((2, 33))  # far from everyone: only idle ticks
    most = 0

    def watch() -> bool:
        nonlocal most
        most = max(most, life.brain.in_flight)
        return False

    await life.run(40, until=watch)
    await life.close()
    idle_turns = [n for n, k in life.brain.sent if k == "idle"]
    assert most == 1
    assert set(idle_turns) == set(life.world.npcs)  # held back a little, never stopped


def test_the_npcs_a_model_keeps_thinking_is_the_pace_read_backwards() -> None:
    settings = IdleSettings(max_in_flight=1, model_share=0.5)  # a mean period of 14 s
    assert npcs_kept_thinking(1.4, settings) == 5
    assert npcs_kept_thinking(1.4, settings, period_s=120) == 42
    pace = IdlePace(settings)
    for _ in range(16):
        pace.note(1.4)
    # Five NPCs at that speed keep the default pace; a sixth stretches it.
    assert pace.period(14.0, npcs=5) == 14.0
    assert pace.period(14.0, npcs=6) > 14.0


class ReadsAhead(PersonaProvider):
    """The persona brain, and a record of the requests it was given to read ahead."""

    capabilities = Capabilities(can_prime=True)

    def __init__(self) -> None:
        super().__init__(delay_s=0)
        self.primed: list[ProviderRequest] = []

    def prime(self, request: ProviderRequest) -> None:
        self.primed.append(request)


async def test_opening_the_talk_box_lets_the_model_read_the_npcs_context(tmp_path: Path) -> None:
    provider = ReadsAhead()
    life = Life(tmp_path, provider=provider)
    life.brain.player_talks("tobin", "Good morning!")
    await life.run(until=lambda: bool(life.said_by("tobin")))
    await life.run(until=lambda: not life.runtime.lanes.busy("tobin"))
    logged = len(life.runtime.store("test").recent("tobin"))
    life.brain.player_opens_talk("tobin")
    await life.run(until=lambda: bool(provider.primed))
    (request,) = provider.primed
    # The request the next player line will send, the line itself still being typed ...
    assert request.npc is not None and request.npc.npc_id == "tobin"
    assert request.trigger is not None and request.trigger.kind == "player_message"
    assert request.trigger.said == "" and request.trigger.sensed is not None
    assert request.options.priority == TRIGGER_PRIORITY["player_message"]
    assert any("Good morning!" in (m.content or "") for m in request.messages)
    # ... and nothing of it recorded: no turn ran, the log is as it was.
    assert len(life.runtime.store("test").recent("tobin")) == logged
    assert life.brain.sent.count(("tobin", "player_message")) == 1
    await life.close()


async def test_a_provider_that_cannot_read_ahead_is_left_alone(tmp_path: Path) -> None:
    life = Life(tmp_path)  # the persona brain: no prime
    assert not life.provider.capabilities.can_prime
    life.brain.player_opens_talk("tobin")
    await life.run(1)
    assert not life.runtime.prime("test", "tobin", Trigger(kind="player_message", text=""))
    assert life.runtime.store("test").recent("tobin") == []
    await life.close()


async def test_no_idle_turn_starts_while_the_player_types(tmp_path: Path) -> None:
    life = Life(tmp_path, idle=IdleSettings(min_s=2, max_s=4, first_min_s=0.5))
    life.brain.player_opens_talk("tobin")
    await life.run(20)  # every NPC would have thought several times by now
    assert not [kind for _, kind in life.brain.sent if kind == "idle"]
    life.brain.player_talks("tobin", "Nice weather.")  # the box stays open: still none
    await life.run(until=lambda: bool(life.said_by("tobin")))
    await life.run(10)
    assert not [kind for _, kind in life.brain.sent if kind == "idle"]
    life.brain.player_closes_talk()
    await life.run(until=lambda: any(kind == "idle" for _, kind in life.brain.sent))
    await life.close()


async def test_a_talk_box_left_open_holds_idle_thinking_only_for_a_while(tmp_path: Path) -> None:
    life = Life(tmp_path, idle=IdleSettings(min_s=2, max_s=4, first_min_s=0.5))
    life.brain.player_opens_talk("tobin")
    waited = await life.run(until=lambda: any(k == "idle" for _, k in life.brain.sent))
    assert TALK_HOLD_S <= waited < TALK_HOLD_S + 10
    await life.close()
