"""What an NPC thinks of a neighbour, however its persona words the feeling: "finds Ivo
the carter slow", "admires Ivo, who never misses a market", "is wary of Ivo's temper",
"says Ivo's ropes are the strongest in the valley". The view is the NPC's, in the first
person ("I find that one slow"), never the persona's third person cut loose ("Finds Ivo
the carter slow")."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts

from .test_place_use import PLACES
from .test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    ("ivo", "Ivo", "Ivo drives the carrier's cart to the market town twice a week.", {}),
    ("lene", "Lene", "Lene plaits straw hats. She finds Ivo the carter slow and tells him so.", {}),
    ("rufus", "Rufus", "Rufus mends nets. He admires Ivo, who never misses a market day.", {}),
    ("sieg", "Sieg", "Sieg keeps pigs. He is wary of Ivo's temper.", {}),
]

# The persona's own verb, said by the NPC of itself: what each must say, in some form.
VIEWS = {"lene": "I find", "rufus": "I admire", "sieg": "wary of"}


@pytest.fixture(scope="module")
def carts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("carts"), "carts", PEOPLE, PLACES))


@pytest.mark.parametrize("line", ["What do you think of Ivo?", "What's your opinion of Ivo?"])
@pytest.mark.parametrize("asker", sorted(VIEWS))
def test_a_view_of_a_neighbour_is_said_in_the_first_person(
    carts: dict[str, VillagerFacts], asker: str, line: str
) -> None:
    text, _ = reply(carts[asker], line)
    assert VIEWS[asker].lower() in text.lower(), text
    for third in ("Finds ", "Admires ", "Is wary", "him so", "who never", "that one,"):
        assert third not in text, text
