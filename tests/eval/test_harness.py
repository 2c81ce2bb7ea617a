"""The harness `chat` and `eval` share: one turn of an NPC, reported call by call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.agent.providers.fake import FakeProvider, step, text, tool_call
from game.agent.store import SessionStore
from game.errors import UsageError
from game.harness import Pace, Talk
from game.npc.persona import PersonaProvider
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
