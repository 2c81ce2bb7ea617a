"""Asked the time of day, an NPC answers from the hour it sensed; asked when it gets dark,
from the day's dusk and night, on a village no map of the game has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import SensedFacts
from game.npc.known import villager_facts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import MOODS
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.world.tiled import load_map
from game.world.world import World
from tests.npc.test_sheet import PEOPLE, write_map


@pytest.mark.parametrize(
    ("said", "sub"),
    [
        ("Is it still morning? I slept like a stone.", ""),
        ("What time is it?", ""),
        ("Is it getting late?", ""),
        ("When does it get dark up here this time of year?", "dark"),
        ("When does the sun set?", "dark"),
    ],
)
def test_a_time_question_is_read_as_one(tmp_path: Path, said: str, sub: str) -> None:
    world = World(load_map(write_map(tmp_path, PEOPLE)))
    intent = read_intent(said, villager_facts(world, "dagny"))
    assert (intent.kind, intent.sub) == (Kind.TIME, sub)


@pytest.mark.parametrize(
    "said", ["Will you come down to the square later on?", "I had a late breakfast."]
)
def test_other_lines_with_time_words_are_not(tmp_path: Path, said: str) -> None:
    world = World(load_map(write_map(tmp_path, PEOPLE)))
    assert read_intent(said, villager_facts(world, "dagny")).kind is not Kind.TIME


def _answer(tmp_path: Path, npc_id: str, said: str, hour: float | None) -> str:
    world = World(load_map(write_map(tmp_path, PEOPLE)))
    talk = PlayerLine(npc=villager_facts(world, npc_id), said=said, sensed=SensedFacts(hour=hour))
    return " ".join(s.text for s in map(said_by, answer(talk)) if s is not None)


@pytest.mark.parametrize(
    ("hour", "words"),
    [(9.5, "morning"), (12.5, "midday"), (15.0, "afternoon"), (19.0, "dusk"), (2.0, "night")],
)
def test_the_time_of_day_comes_from_the_hour_sensed(
    tmp_path: Path, hour: float, words: str
) -> None:
    for npc_id, *_ in PEOPLE[:6]:
        line = _answer(tmp_path, npc_id, "What time is it?", hour)
        assert words in line.lower(), (npc_id, line)


def test_when_it_gets_dark_is_the_days_dusk_and_night(tmp_path: Path) -> None:
    for npc_id, *_ in PEOPLE[:6]:
        line = _answer(tmp_path, npc_id, "When does it get dark around here?", 10.0)
        assert "ten" in line or "six" in line, (npc_id, line)


def test_when_it_gets_dark_says_the_hour_as_a_player_reads_it(tmp_path: Path) -> None:
    """Every mood's line says dusk as a clock hour ("six o'clock") and names the dark,
    never a bare "six" that reads as six of something."""
    for npc_id, *_ in PEOPLE:
        line = _answer(tmp_path, npc_id, "When does it get dark up here this time of year?", 9.0)
        assert "six o'clock" in line.lower(), (npc_id, line)
        assert re.search(r"\b(?:dark|dusk|night)\b", line, re.I), (npc_id, line)
    for mood in MOODS.values():
        for line in line_table("time_dark", mood):
            assert "{dusk}" in line.lower(), (mood.name, line)  # the hour is always said
