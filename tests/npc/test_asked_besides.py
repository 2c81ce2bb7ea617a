"""A gesture or a look asked for with a question besides ("have a think: why would the
ale go sour?") is made, and the question answered from the sheet's belief on it, in
several phrasings, on a village of our own."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import EMOTE
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PLACES = [("brewhouse", "A brewhouse of dark timber that smells of malt.")]
PEOPLE: list[Person] = [
    (
        "odo",
        "Odo",
        "Odo brews ale in the brewhouse. He is cheerful, and he believes ale turns sour "
        "when thunder rolls over the roof.",
        {"work": "brewhouse"},
    ),
]


@pytest.fixture(scope="module")
def vale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("vale"), "vale", PEOPLE, PLACES))


@pytest.mark.parametrize(
    "said",
    [
        "have a think, why would ale go sour?",
        "Think about it: what makes the ale turn sour?",
        "hmm, have a ponder. why does ale sour?",
    ],
)
def test_a_question_besides_a_gesture_is_answered(
    vale: dict[str, VillagerFacts], said: str
) -> None:
    plan = answer(PlayerLine(npc=vale["odo"], said=said, earlier=["hi"], turn=1))
    emotes = [s for s in plan if getattr(s, "skill", None) is EMOTE]
    lines = " ".join(s.text for s in map(said_by, plan) if s is not None)
    assert emotes, plan
    assert re.search(r"\bsour", lines, re.I), (said, lines)  # its belief, not a canned line
