"""Yes/no questions about what an NPC fears and believes are answered as its sheet holds
(a no to a fear it does not have, with the one it has; a no to what it doubts), a favourite
its persona names is said, and a villager who keeps time to the minute says the time so."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.scripted.itself import precise_when
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PLACES = [
    ("belfry", "A narrow belfry of grey stone above the lane."),
    ("orchard", "An old orchard of crooked pear trees."),
]
PEOPLE = [
    (
        "garrow",
        "Garrow",
        "Garrow rings the bells in the belfry, always on time to the minute. He is scared of "
        "nothing but lightning. He does not believe in curses. His favourite season is autumn. "
        "He envies Sefa.",
        {},
    ),
    (
        "sefa",
        "Sefa",
        "Sefa tends the pear orchard. She is terrified of hailstorms and believes the pears "
        "can hear her sing.",
        {},
    ),
]
NO = re.compile(r"\b(?:no|not|don't|nope)\b", re.I)


@pytest.fixture(scope="module")
def lane(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("yesno"), "yesno", PEOPLE, PLACES))


def test_a_fear_it_has_not_is_a_no_naming_the_one_it_has(lane: dict[str, VillagerFacts]) -> None:
    said, _ = reply(lane["garrow"], "Are you afraid of dogs?")
    assert NO.search(said) and "lightning" in said.lower(), said
    said, _ = reply(lane["garrow"], "Are you scared of lightning?")
    assert "lightning" in said.lower() and not said.lower().startswith("no"), said


def test_a_fear_is_found_by_a_word_it_is_made_with(lane: dict[str, VillagerFacts]) -> None:
    said, _ = reply(lane["sefa"], "Are you afraid of storms?")
    assert "hailstorm" in said.lower(), said


def test_what_it_does_not_believe_is_a_no(lane: dict[str, VillagerFacts]) -> None:
    said, _ = reply(lane["garrow"], "Do you believe in curses?")
    assert NO.search(said) and "curses" in said.lower(), said


def test_a_favourite_its_persona_names_is_said(lane: dict[str, VillagerFacts]) -> None:
    said, _ = reply(lane["garrow"], "What's your favourite season?")
    assert "autumn" in said.lower(), said


def test_one_who_keeps_time_says_it_to_the_minute(lane: dict[str, VillagerFacts]) -> None:
    def at(npc_id: str, hour: float) -> str:
        talk = PlayerLine(npc=lane[npc_id], said="What time is it?", sensed=SensedFacts(hour=hour))
        return " ".join(s.text for s in map(said_by, answer(talk)) if s is not None)

    said = at("garrow", 9 + 17 / 60)
    assert "seventeen minutes past nine" in said, said
    assert "minutes" not in at("sefa", 9 + 17 / 60)  # no clock in her: a part of the day
    assert precise_when("punctual", 9.75) == "a quarter to ten"
    assert precise_when("punctual", 12 + 58 / 60) == "two minutes to one"


def test_a_feeling_toward_someone_is_said_in_the_first_person(
    lane: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(lane["garrow"], "What do you think of Sefa?")
    assert "I envy" in said and "Envies" not in said, said
