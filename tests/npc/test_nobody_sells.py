"""A thing asked for that nobody on the map sells or makes is said to be had nowhere here,
not answered as a question the NPC will not take."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts

from .test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    ("ida", "Ida", "Ida cuts hair and shaves chins in her shop by the ford.", {}),
    ("olaf", "Olaf", "Olaf cuts reeds in the reed beds and sells them for thatch.", {}),
    ("pell", "Pell", "Pell keeps the ford and talks of nothing but the weather.", {}),
]
PLACES = [
    ("reed_beds", "Wet ground where the reeds are cut each autumn."),
    ("barber_shop", "A narrow shop with a striped pole and a high chair."),
    ("ford", "A shallow crossing with stepping stones."),
]


@pytest.fixture(scope="module")
def reeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("reeds"), "reeds", PEOPLE, PLACES))


@pytest.mark.parametrize("line", ["Where can I buy a sword?", "Where could I get a hat?"])
def test_a_thing_nobody_has_is_had_nowhere_here(reeds: dict[str, VillagerFacts], line: str) -> None:
    text, walks = reply(reeds["pell"], line)
    assert "nobody" in text.lower() or "not here" in text.lower(), text
    assert not walks and "reed" not in text.lower() and "Ida" not in text, text
