"""A refusal said with what it is refused on, a belief said whole, and an opinion said of
what someone does, and a dream asked of, in a village no map of the game has: the
condition is the answer ("Not on a feast day."), a claim cut before its verb says nothing,
and an opinion that names someone by their trade is not read back from the persona."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.claims import claim_phrases
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    (
        "rafe",
        "Rafe",
        "Rafe is the farrier. He refuses to shoe a horse for anyone who beats it. He thinks "
        "Mara the dyer talks too much and too loud.",
        {},
    ),
    (
        "mara",
        "Mara",
        "Mara dyes wool in great vats by the stream. She will not dye on a feast day. She "
        "believes the old oak can call the rain. She thinks a cask sealed in winter never "
        "sours.",
        {},
    ),
    (
        "jory",
        "Jory",
        "Jory keeps the stables, talks to every horse he meets and dreams of riding to the "
        "capital. He loves ripe pears.",
        {},
    ),
]
PLACES = [
    ("forge", "A farrier's forge with a hitching rail."),
    ("vats", "Dye vats steaming by the stream."),
    ("stables", "Long stables with a hay loft."),
]


@pytest.fixture(scope="module")
def vale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("vale"), "vale", PEOPLE, PLACES))


@pytest.mark.parametrize(
    ("npc", "said", "because"),
    [
        ("rafe", "Will you shoe my horse? I beat it when it's slow.", r"\bbeat"),
        ("mara", "Could you dye my cloak tomorrow? It's a feast day.", r"feast day"),
    ],
)
def test_a_refusal_on_a_condition_says_the_condition(
    vale: dict[str, VillagerFacts], npc: str, said: str, because: str
) -> None:
    line, _ = reply(vale[npc], said)
    assert re.search(because, line, re.I), line


def test_a_belief_is_never_cut_before_its_verb() -> None:
    # "A cask sealed" says nothing of the cask: each way to say it keeps "never sours"
    assert all("sour" in p for p in claim_phrases("a cask sealed in winter never sours"))
    said = claim_phrases("the old oak can call the rain")
    assert said[0] == "The old oak? It can call the rain", said


def test_a_belief_with_can_is_said_in_a_line(vale: dict[str, VillagerFacts]) -> None:
    line, _ = reply(vale["mara"], "Do you really think a tree can bring rain?")
    assert "call the rain" in line, line


def test_an_opinion_of_someone_named_by_trade_says_what_they_do(
    vale: dict[str, VillagerFacts],
) -> None:
    line, _ = reply(vale["rafe"], "What do you think of Mara?")
    assert "too much" in line and ".." not in line, line


def test_asked_what_it_would_do_if_it_could_it_tells_its_dream(
    vale: dict[str, VillagerFacts],
) -> None:
    line, _ = reply(vale["jory"], "What would you do if you could go anywhere?")
    assert "capital" in line, line


def test_a_thing_offered_leads_the_model_with_the_persona_brains_answer(
    vale: dict[str, VillagerFacts],
) -> None:
    """The bundled model's own to "I brought you some plum cake!" was "I have a cake for
    you.": its line opens with the like it touches, or thanks, never another like."""
    from game.npc.play.leads import lead_of
    from tests.npc.test_play_script import request

    def lead(said: str) -> str:
        return lead_of(request(said).model_copy(update={"npc": vale["jory"]}))

    assert "pears" in lead("I brought you some ripe pears!"), lead("I brought you some ripe pears!")
    thanks = lead("Want some bread?")
    assert thanks and "pear" not in thanks, thanks
