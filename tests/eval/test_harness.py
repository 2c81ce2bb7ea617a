"""The harness `chat` and `eval` share: one turn of an NPC, reported call by call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.agent.providers.fake import FakeProvider, step, text, tool_call
from game.agent.render import trigger_facts
from game.agent.store import SessionStore
from game.errors import UsageError
from game.eval.scenarios import Scenario
from game.eval.suite import run_scenario
from game.harness import Pace, Talk
from game.npc.facts import sensed_of
from game.npc.scripted.moods import CHEERFUL
from game.npc.scripted.persona import PersonaProvider
from game.world.entities import PLAYER_ID
from game.world.news import Heard, News
from game.world.tiled import load_map
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
QUICK = Pace(steps=20, sleep_s=0.001)  # a test's world runs far ahead of the clock


def talk(tmp: Path, provider: object, **kw: object) -> Talk:
    world = World(load_map(VILLAGE))
    return Talk(world, tmp, slot="t", provider=provider, pace=QUICK, **kw)  # type: ignore[arg-type]


def observations(tmp: Path, npc_id: str) -> list[Any]:
    return [e for e in SessionStore(tmp, "t").read(npc_id) if e.type == "world.observation"]


async def test_a_player_line_is_reported_call_by_call_face_to_face(tmp_path: Path) -> None:
    fake = FakeProvider(
        [
            step(tool_call("emote", {"name": "wave"})),
            step(tool_call("say", {"text": "Morning! Fresh buns today."}, chunks=4)),
            step(text("Come again.")),
        ]
    )
    streamed: list[str] = []
    t = talk(tmp_path, fake, on_say=lambda call_id, delta: streamed.append(delta))
    report = await t.player_line("tobin", "Good morning!")
    await t.aclose()
    assert [c.name for c in report.calls] == ["emote", "say"]
    assert report.calls[0].args() == {"name": "wave"} and report.calls[0].result
    assert report.said == ["Morning! Fresh buns today.", "Come again."]
    assert "".join(streamed) == "Morning! Fresh buns today."
    assert report.parse_failures == 0 and report.outcome == "final"
    assert report.first_letter_s is not None and 0 < report.first_letter_s <= report.wall_s
    (nx, ny), (px, py) = report.npc_tile, report.player_tile
    assert abs(nx - px) + abs(ny - py) == 1  # the player stood face to face
    events = SessionStore(tmp_path, "t").read("tobin")
    asked = [e for e in events if e.type == "user.message"]
    assert asked[0].text == "Good morning!" and asked[0].sensed is not None


async def test_calls_that_could_not_run_are_parse_failures(tmp_path: Path) -> None:
    fake = FakeProvider(
        [
            step(tool_call("say", '{"text": "Hel'), tool_call("dance", {}, index=1)),
            step(tool_call("emote", {"name": "bow"})),
            step(),
        ]
    )
    t = talk(tmp_path, fake)
    report = await t.player_line("pip", "Hi!")
    await t.aclose()
    assert [c.rejected for c in report.calls] == ["arguments", "unknown_tool", "arguments"]
    assert report.parse_failures == 3
    assert report.said == []  # a say that could not run said nothing


async def test_a_turn_that_fails_on_parsing_counts_once(tmp_path: Path) -> None:
    from game.agent.providers.fake import error

    t = talk(tmp_path, FakeProvider([[error("parse", "bad output")]]))
    report = await t.player_line("pip", "Hi!")
    await t.aclose()
    assert report.outcome == "failed" and report.parse_failures == 1
    assert report.first_letter_s is None


async def test_an_overheard_line_is_the_games_heard_trigger(tmp_path: Path) -> None:
    t = talk(tmp_path, PersonaProvider(delay_s=0))
    t.world.stand_player_by("wren")
    report = await t.overheard("wren", "pip", "Wren caught a fish this big yesterday!")
    await t.aclose()
    assert report.kind == "heard" and report.said
    pip, wren = t.world.npcs["pip"], t.world.npcs["wren"]
    assert t.world.distance(pip, wren) <= 1.5  # the speaker stood by to say it
    observed = observations(tmp_path, "wren")
    assert observed[0].kind == "heard" and observed[0].speaker == "Pip"
    assert observed[0].said == "Wren caught a fish this big yesterday!"


async def test_a_line_that_does_not_name_the_npc_is_not_overheard(tmp_path: Path) -> None:
    t = talk(tmp_path, FakeProvider())
    with pytest.raises(UsageError, match="would not take"):
        await t.overheard("wren", "pip", "What a nice day.")
    with pytest.raises(UsageError, match="no NPC 'nobody'"):
        await t.player_line("nobody", "hi")
    await t.aclose()


async def test_an_idle_tick(tmp_path: Path) -> None:
    t = talk(tmp_path, FakeProvider([step(tool_call("emote", {"name": "think"})), step()]))
    report = await t.idle("maren")
    await t.aclose()
    assert report.kind == "idle" and [c.name for c in report.calls] == ["emote"]
    observed = observations(tmp_path, "maren")
    assert observed[0].kind == "idle"


async def test_the_player_answers_an_npcs_question_when_asked_to(tmp_path: Path) -> None:
    question = {"question": "Bread or buns?", "options": ["Bread", "Buns"]}
    fake = FakeProvider([step(tool_call("ask", question)), step()])
    t = talk(tmp_path, fake, answer_asks=True)
    report = await t.player_line("tobin", "What do you have?")
    await t.aclose()
    assert report.answered == ["Bread"]
    assert report.calls[0].result is not None and "Bread" in report.calls[0].result
    assert report.said == ["Bread or buns?"]


async def test_a_turn_senses_the_day_as_in_the_game_and_what_it_is_told_is_kept(
    tmp_path: Path,
) -> None:
    t = talk(tmp_path, PersonaProvider(delay_s=0))
    world = t.world
    world.day.set_hour(15.25)
    world.news.add(News("n-cat", "lost", "wren", "Wren", "a grey cat", "dock", key="cat"))
    world.news.learn("tobin", Heard("n-cat", "wren", "Wren", 0.0, "dock", "told"))
    told = await t.player_line("tobin", "Thank you! I lost my ring at the well.")
    asked = await t.player_line("tobin", "Any news?")
    await t.aclose()
    assert "ring" in told.said[0]
    ring = next(n for n, _ in world.news.known_by("tobin") if n.key == "ring")
    heard = world.news.knows("tobin", ring.news_id)
    assert heard is not None and (heard.source, heard.how) == (PLAYER_ID, "told")
    feeling = world.feelings.about("tobin", PLAYER_ID)
    assert feeling is not None and feeling.reason == "thanked you"
    (answer,) = asked.said  # the news it knows, newest first, each with its source
    assert answer.startswith("You told me you lost a ring at the well. And Wren"), answer
    assert "grey cat at the dock" in answer
    sensed = [
        sensed_of(trigger_facts(e))
        for e in SessionStore(tmp_path, "t").read("tobin")
        if e.type == "user.message"
    ]
    assert sensed[0] is not None and sensed[0].hour == 15.25  # the hour the world shows
    assert sensed[-1] is not None
    assert [n.key for n in sensed[-1].news] == ["ring", "cat"]  # newest first
    assert sensed[-1].feelings[0].reason == "thanked you"


async def test_a_sleeping_npc_wakes_grumbling_once_as_in_the_game(tmp_path: Path) -> None:
    t = talk(tmp_path, PersonaProvider(delay_s=0))
    t.world.day.set_hour(23)  # Tobin sleeps in his bakery, where he stands
    first = await t.player_line("tobin", "Where is the well?")
    again = await t.player_line("tobin", "And the forge?")  # up while the player talks
    await t.aclose()
    assert first.said[0].startswith(CHEERFUL.grumbles), first.said
    assert not again.said[0].startswith(CHEERFUL.grumbles), again.said
    assert not t.world.npcs["tobin"].asleep


async def test_an_eval_scenario_plays_at_the_hour_its_world_shows(tmp_path: Path) -> None:
    scenario = Scenario.model_validate(
        {"id": "night", "npc": "tobin", "category": "places", "lines": ["Where is the well?"]}
    )
    world = World(load_map(VILLAGE))
    world.day.set_hour(21.5)
    run = await run_scenario(scenario, world, tmp_path, provider=PersonaProvider(delay_s=0))
    assert run.last is not None and run.last.said[0].startswith(CHEERFUL.grumbles)
    day = World(load_map(VILLAGE))  # 8 am: the baker is up
    morning = await run_scenario(
        scenario.model_copy(update={"id": "day"}),
        day,
        tmp_path,
        provider=PersonaProvider(delay_s=0),
    )
    assert morning.last is not None, morning
    said = morning.last.said[0]
    assert said.startswith("The well?") and not said.startswith("Mmh?"), said


async def test_a_scenario_of_an_hour_plays_then_and_wakes_whoever_sleeps(tmp_path: Path) -> None:
    late = {"npc": "tobin", "category": "greeting", "lines": ["Hello?", "Still there?"]}
    scenario = Scenario.model_validate({"id": "late", "hour": 23.25, **late})
    run = await run_scenario(
        scenario, World(load_map(VILLAGE)), tmp_path, provider=PersonaProvider(delay_s=0)
    )
    first, second = (turn.said[0] for turn in run.turns)
    assert first.startswith(CHEERFUL.grumbles), first  # woken by the first line, at 11 pm
    assert not second.startswith(CHEERFUL.grumbles), second  # and up for the second
    noon = Scenario.model_validate({"id": "noon", "hour": 12.0, **late})
    world = World(load_map(VILLAGE))
    day = await run_scenario(noon, world, tmp_path, provider=PersonaProvider(delay_s=0))
    assert round(world.day.hour) == 12 and not any(
        t.said[0].startswith(CHEERFUL.grumbles) for t in day.turns
    ), day
