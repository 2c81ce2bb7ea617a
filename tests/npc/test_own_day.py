"""Asked where it is at a time of day ("where do you have your lunch?"), a villager says
the stop of its day's plan then; asked what it has, its wares: on a village of our own."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("ropewalk", "A long shed where the rope is twisted."),
    ("alehouse", "A low alehouse by the water."),
    ("cottage", "A small cottage with a blue door."),
]
PEOPLE: list[Person] = [
    (
        "hale",
        "Hale",
        "Hale makes rope at the ropewalk and sells hemp rope and twine. He is cheerful.",
        {
            "work": "ropewalk",
            "home": "cottage",
            "wares": "hemp rope and twine",
            "plan": "6 work, 12 alehouse, 13 work, 18 home, 22 sleep",
        },
    ),
]


@pytest.fixture(scope="module")
def quay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("quay"), "quay", PEOPLE, PLACES))


def _line(npc: VillagerFacts, said: str) -> str:
    plan = answer(PlayerLine(npc=npc, said=said, earlier=["hi"], turn=1))
    return " ".join(s.text for s in map(said_by, plan) if s is not None)


@pytest.mark.parametrize(
    ("said", "where"),
    [
        ("where do u usually have ur lunch", "alehouse"),
        ("Where do you eat at midday?", "alehouse"),
        ("where are you of an evening?", "cottage"),
        ("where do you go in the afternoon?", "ropewalk"),
        ("So where are you at noon, then?", "alehouse"),
    ],
)
def test_where_it_is_at_a_time_of_day_is_its_plan(
    quay: dict[str, VillagerFacts], said: str, where: str
) -> None:
    assert where in _line(quay["hale"], said).lower(), said


@pytest.mark.parametrize(
    "said", ["whatve u got", "saw your notice, what have you got?", "whatcha got"]
)
def test_what_it_has_is_its_wares(quay: dict[str, VillagerFacts], said: str) -> None:
    assert "rope" in _line(quay["hale"], said).lower(), said
