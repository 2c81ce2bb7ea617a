"""Village life asked of ("what is there to do here?", "tell me about the village", "what's
new?", "anything happening?"): the village's own places with who works at each, doing
what, and with no news heard, a neighbour at work as ever; never a bare list of places."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer

from .test_place_use import PEOPLE, PLACES
from .test_sheet_answers import facts_of, reply, write_village

DOINGS = {
    "Idris": "Idris rakes salt",
    "Maud": "Maud rings the hours",
    "Gethin": "Gethin the smoker works",
    "Nia": "Nia the mender works",
}


@pytest.fixture(scope="module")
def dunes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("dunes"), "dunes", PEOPLE, PLACES))


@pytest.mark.parametrize(
    "line", ["What is there to do here?", "Tell me about the village.", "What's this place like?"]
)
@pytest.mark.parametrize("asker", ["idris", "nia"])
def test_the_village_is_its_places_with_who_works_there(
    dunes: dict[str, VillagerFacts], asker: str, line: str
) -> None:
    text, _ = reply(dunes[asker], line)
    told = [name for name, doing in DOINGS.items() if doing in text]
    assert len(told) >= 2, text
    me = dunes[asker].name
    assert me not in told, text  # the others' work, not its own said of itself
    places = re.findall(r"the (saltpans|bell tower|smokehouse|net loft), where", text, re.I)
    assert len(places) == len(told), text


@pytest.mark.parametrize("line", ["What's new?", "Anything happening in the village?"])
def test_no_news_is_a_neighbour_at_work_as_ever(dunes: dict[str, VillagerFacts], line: str) -> None:
    text, _ = reply(dunes["maud"], line)
    assert any(f"{doing}" in text for doing in DOINGS.values()), text
    assert "same as ever" in text, text


# A keeper whose persona names the place it keeps, and a neighbour who judges someone.
TANNERY = [
    ("oswy", "Oswy", "Oswy keeps the Tanyard, the stinking pits below the weir.", {}),
    ("bede", "Bede", "Bede combs wool at the shearing barn.", {}),
    (
        "hild",
        "Hild",
        "Hild spins thread. She does not think much of Oswy, whose pits foul the stream.",
        {},
    ),
]
TANNERY_PLACES = [
    ("tanyard", "Pits of lime and bark."),
    ("shearing_barn", "A wide barn with fleeces on the rafters."),
    ("weir", "Water slides over a low stone wall."),
]


@pytest.fixture(scope="module")
def tannery(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    folder = tmp_path_factory.mktemp("tannery")
    return facts_of(write_village(folder, "tannery", TANNERY, TANNERY_PLACES))


@pytest.mark.parametrize("line", ["Tell me about the village.", "What is there to do here?"])
def test_a_place_its_keeper_names_is_said_once(
    tannery: dict[str, VillagerFacts], line: str
) -> None:
    text, _ = reply(tannery["hild"], line)
    assert "the tanyard, oswy's" in text.lower(), text
    assert len(re.findall(r"tanyard", text, re.I)) == 1, text


def test_a_judgement_of_someone_is_a_dislike_not_a_belief(
    tannery: dict[str, VillagerFacts],
) -> None:
    sheet = tannery["hild"].sheet
    assert any(d.startswith("Oswy") for d in sheet.dislikes), sheet.lines()
    assert not sheet.beliefs and not sheet.refuses, sheet.lines()
    text, _ = reply(tannery["hild"], "What do you think of Oswy?")
    assert "I don't think much of that one" in text, text
    assert "Does not think" not in text and "Doesn't think" not in text, text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("What's this village called?", r"\bSaltwick\b"),
        ("Is this Saltwick?", r"\bSaltwick\b"),
        ("Where am I?", r"\bSaltwick\b"),
        ("Is this Larkby?", r"\b(?:No|no|Not|Wrong)\b.*\bSaltwick\b"),
    ],
)
def test_the_villages_name_asked_is_the_maps_name(
    dunes: dict[str, VillagerFacts], line: str, expected: str
) -> None:
    """Asked its name, or whether this is it, the village is named as the map names it,
    not told by its places."""
    npc = dunes["nia"]
    sensed = SensedFacts(npc_id=npc.npc_id, tile=(9, 9), hour=10.0, map_name="Saltwick")
    plan = answer(PlayerLine(npc=npc, said=line, sensed=sensed))
    text = " ".join(s.text for s in map(said_by, plan) if s is not None)
    assert re.search(expected, text), text
