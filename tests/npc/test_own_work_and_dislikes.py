"""Questions about the NPC's own work, what it does not like and what it makes, on a map
whose place names hold common words ("the ironworks"): answered of the NPC, not of a place."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    (
        "hedda",
        "Hedda",
        "Hedda mends lanterns at the lamp shop and hates the smell of fish oil.",
        {"work": "lamp_shop"},
    ),
    ("bram", "Bram", "Bram pours iron at the ironworks.", {"work": "ironworks"}),
]
PLACES = [
    ("lamp_shop", "A narrow shop hung with lanterns."),
    ("ironworks", "Furnaces and moulds under a tin roof."),
]


@pytest.fixture(scope="module")
def village(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("lamps"), "lamps", PEOPLE, PLACES))


@pytest.mark.parametrize(
    "said", ["What is your work?", "Tell me about your work.", "What's your trade?"]
)
def test_its_work_asked_is_its_own_not_a_place_named_with_the_word(
    village: dict[str, VillagerFacts], said: str
) -> None:
    line, walks = reply(village["hedda"], said)
    assert "lantern" in line.lower() and "ironworks" not in line.lower() and not walks


def test_what_it_does_not_like_is_its_dislike(village: dict[str, VillagerFacts]) -> None:
    line, _ = reply(village["hedda"], "What don't you like?")
    assert "fish oil" in line.lower()


def test_a_maker_who_names_no_sales_sells_what_it_makes(village: dict[str, VillagerFacts]) -> None:
    line, _ = reply(village["bram"], "Can I buy some iron?")
    assert "iron" in line.lower() and "pour" not in line.lower() and "furnace" not in line.lower()
