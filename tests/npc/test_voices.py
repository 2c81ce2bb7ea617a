"""How a villager sounds, read from its persona on a map of our own: a stammerer stammers
in every line, a formal speaker never talks like a child however young it is, and what it
likes or dislikes ("dislikes loud voices") is not how it talks; a goodbye in any words is
one."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.moods import CURIOUS, WISE, mood_of
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.scripted.voice import voiced
from game.npc.skills import EMOTE
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("kiln", "A squat brick kiln behind the potter's yard, warm all day."),
    ("weighhouse", "A stone weighhouse where every sack is weighed and written down."),
    ("ferry", "A flat ferry on a rope across the brown river."),
]
PEOPLE: list[Person] = [
    (
        "tam",
        "Tam",
        "Tam is the potter's lad, a boy of ten who wedges clay and sweeps the kiln. He "
        "stutters when he is nervous and brags that he can throw a jug blindfold.",
        {"work": "kiln"},
    ),
    (
        "osric",
        "Osric",
        "Osric keeps the weighhouse and records every sack in his book. He is young, formal "
        "and proper, and likes to answer a question with a question.",
        {"work": "weighhouse"},
    ),
    (
        "bryn",
        "Bryn",
        "Bryn works the ferry across the river. He is calm and patient, likes the quiet of "
        "dawn and dislikes loud drunks who rock his boat.",
        {"work": "ferry"},
    ),
]
STAMMER = re.compile(r"\b(\w{1,2})-\1", re.I)
CHILDISH = re.compile(r"\bwow\b|\bwhoa\b|i nod, i nod|one, two, three|race you|\bcool\b|!.*!", re.I)


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("river"), "river", PEOPLE, PLACES))


def _lines(npc: VillagerFacts, said: str, earlier: list[str] | None = None) -> list[str]:
    talk = PlayerLine(npc=npc, said=said, earlier=earlier or [], met=bool(earlier), turn=1)
    return [s.text for s in map(said_by, answer(talk)) if s is not None]


PHRASINGS = [
    "hiya again",
    "how are you doing today?",
    "what do you do round here?",
    "nod if you agree",
    "wait for me a moment",
    "come along with me",
    "lovely weather",
    "right, I'm off, bye",
]


@pytest.mark.parametrize("said", PHRASINGS)
def test_a_stammerer_stammers_in_every_line(river: dict[str, VillagerFacts], said: str) -> None:
    assert "stammer" in river["tam"].sheet.talks
    lines = _lines(river["tam"], said, ["hello"])
    assert lines and all(STAMMER.search(line) for line in lines), (said, lines)


def test_a_stammer_never_garbles_a_line() -> None:
    assert voiced("I'm here. I can throw a jug blindfold.", ("stammer",)).startswith("I-I'm")
    assert voiced("Thank you.", ("stammer",)) == "Th-thank you."
    assert voiced("W-well, hello.", ("stammer",)) == "W-well, hello."  # said so already
    assert voiced("Thank you.", ("few words",)) == "Thank you."


@pytest.mark.parametrize("said", PHRASINGS)
def test_a_young_formal_speaker_never_talks_like_a_child(
    river: dict[str, VillagerFacts], said: str
) -> None:
    osric = river["osric"]
    assert "formal" in osric.sheet.talks and "questions" in osric.sheet.talks
    assert mood_of(osric.persona, osric.sheet.talks) is not CURIOUS
    for line in _lines(osric, said, ["good day"]):
        assert not CHILDISH.search(line), (said, line)


def test_a_way_of_talking_is_not_a_like(river: dict[str, VillagerFacts]) -> None:
    assert not any("question" in like for like in river["osric"].sheet.likes)


def test_what_it_likes_or_dislikes_is_not_how_it_talks(river: dict[str, VillagerFacts]) -> None:
    bryn = river["bryn"]
    assert "loud" not in bryn.sheet.talks and "few words" not in bryn.sheet.talks
    assert mood_of(bryn.persona, bryn.sheet.talks) is WISE


def test_the_map_makers_greeting_is_said_as_written(river: dict[str, VillagerFacts]) -> None:
    first = answer(PlayerLine(npc=river["tam"], said="hello"))
    assert [s.text for s in map(said_by, first) if s is not None] == ["Hello."]


@pytest.mark.parametrize(
    "said",
    [
        "laters",
        "later!",
        "ok, later",
        "catch ya later",
        "gotta run",
        "right, I'm off then",
        "I'd better be off",
        "peace out",
        "i should head off now",
        "I'd best be going",
        "time I was off",
        "I must be on my way",
        "well, I'll be seeing you",
        "right, I'm away",
        "I'll leave you to it",
        "I'll let you get back to work",
        "ta-ra",
        "safe travels to you too",
        "I'm heading out now.",
        "Time to head home.",
        "I'd better get back before dark.",
        "Godspeed.",
        "See you in the morning.",
        "Have a good one.",
        "Have a nice day!",
        "Well, I won't keep you.",
        "Don't let me keep you.",
        "I'll leave you be.",
        "gtg",
        "byeee",
        "I'll come back later.",
        *("I'm going home.", "See you at the cross.", "Until tomorrow, then.", "*waves*"),
        *("Take it easy.", "Stay safe.", "Mind how you go.", "All the best.", "Be well."),
        *("I'm going now.", "I'll go now.", "Time for me to go.", "Must get on."),
        *("Right, that's me.", "I'm away home.", "Till we meet again.", "See you round."),
        *("Anyway, I should go.", "I'll stop bothering you."),
    ],
)
def test_a_goodbye_in_any_words_is_waved_off(river: dict[str, VillagerFacts], said: str) -> None:
    plan = answer(PlayerLine(npc=river["bryn"], said=said, earlier=["hello"], turn=1))
    assert read_intent(said, river["bryn"]).kind is Kind.BYE
    assert any(getattr(step, "skill", None) is EMOTE for step in plan), said


@pytest.mark.parametrize(
    "said",
    [
        "I'll tell you later.",
        "I'm out of bread.",
        "later today?",
        "I won't keep you long, but where is the mill?",
        "Hello, have a good day so far?",
        "I'll come back later with the coin, can you hold it for me?",
        "You'd better get back to work.",
        *("Should I go to the mill?", "I'm going to the mill, want to come?"),
        *("Are you going home?", "Take it easy on the ale, will you?", "Stay here."),
        "See you at the cross at noon?",
    ],
)
def test_later_within_a_line_is_no_goodbye(river: dict[str, VillagerFacts], said: str) -> None:
    assert read_intent(said, river["bryn"]).kind is not Kind.BYE
