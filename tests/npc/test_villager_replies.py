"""A villager spoken to by another answers what was said, as itself: a fear of its named
is met with alarm, a jibe with its hurt, a deed asked of it with its yes, a remark on a
thing of its own with a word on it; each to the one who spoke, in several phrasings, on a
village of our own."""

from __future__ import annotations

import re

import pytest

from game.agent.facts import TriggerFacts
from game.agent.providers.base import Message, ProviderRequest
from game.npc.facts import VillagerFacts
from game.npc.scripted.between import heard_plan
from game.npc.scripted.moods import mood_of
from game.npc.scripted.persona import plan_for, situation_of
from game.npc.scripted.speaker import said_by
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("loom_house", "A long loom house with shutters thrown open to the light."),
    ("landing", "A wooden landing where the punt is tied up."),
    ("counting_house", "A narrow counting house full of ledgers."),
]
PEOPLE: list[Person] = [
    (
        "mira",
        "Mira",
        "Mira weaves linen in the loom house. She is kind and chatty, and she is terrified "
        "of spiders.",
        {"work": "loom_house"},
    ),
    (
        "gorse",
        "Gorse",
        "Gorse poles the punt across the river from the landing. He is gruff and blunt and "
        "keeps a goat that eats everything.",
        {"work": "landing"},
    ),
    (
        "ysolde",
        "Ysolde",
        "Ysolde keeps the counting house and is formal and precise. She stammers when she "
        "is flustered.",
        {"work": "counting_house"},
    ),
]


@pytest.fixture(scope="module")
def fen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("fen"), "fen", PEOPLE, PLACES))


def _reply(npc: VillagerFacts, speaker: str, said: str) -> str:
    mood = mood_of(npc.persona, npc.sheet.talks)
    plan = heard_plan(npc, mood, speaker, said, turn=0, replies=[], sensed=None)
    spoken = [s for s in map(said_by, plan) if s is not None]
    assert len(spoken) == 1 and spoken[0].target == speaker, spoken
    return spoken[0].text


@pytest.mark.parametrize(
    "said",
    [
        "Mira! There's a huge spider on your loom!",
        "Mira, a s-spider just ran under the door.",
        "Don't look now, Mira, but spiders everywhere in the loft.",
    ],
)
def test_a_fear_named_is_met_with_alarm(fen: dict[str, VillagerFacts], said: str) -> None:
    line = _reply(fen["mira"], "Gorse", said)
    assert re.search(r"spider", line, re.I) and "Gorse" in line, line
    assert re.search(r"!|\bno\b|help|get (?:it|rid)", line, re.I), line


@pytest.mark.parametrize(
    "said",
    [
        "Ysolde, you and your precious ledgers. Such a prig.",
        "Ysolde, you pompous windbag.",
        "Honestly, Ysolde, who do you think you are?",
    ],
)
def test_a_jibe_is_met_with_hurt_not_a_greeting(fen: dict[str, VillagerFacts], said: str) -> None:
    line = _reply(fen["ysolde"], "Gorse", said)
    assert re.search(r"unfair|unkind|rude|manners|why", line, re.I) and "Gorse" in line, line


@pytest.mark.parametrize(
    "said",
    [
        "Gorse, be a dear and take my basket over later?",
        "Gorse, would you fetch my shawl from the landing?",
        "Could you mind my cart for an hour, Gorse?",
    ],
)
def test_a_deed_asked_is_answered_yes_or_no(fen: dict[str, VillagerFacts], said: str) -> None:
    line = _reply(fen["gorse"], "Mira", said)
    assert re.search(r"\b(?:fine|i'll|see to it|if i must|later|no)\b", line, re.I), line
    assert not re.search(r"landing\.|wooden", line), line  # no description of a place


@pytest.mark.parametrize(
    "said",
    [
        "Gorse, your goat ate half my washing.",
        "Your goat's in my garden again, Gorse, eh?",
    ],
)
def test_a_remark_on_its_own_thing_is_answered_about_it(
    fen: dict[str, VillagerFacts], said: str
) -> None:
    line = _reply(fen["gorse"], "Mira", said)
    assert "my goat" in line.lower() and "Mira" in line, line


@pytest.mark.parametrize(
    "said",
    ["Ysolde, would you add up my fares?", "Ysolde, you pompous windbag.", "Morning, Ysolde."],
)
def test_a_stammerer_stammers_to_a_villager_too(fen: dict[str, VillagerFacts], said: str) -> None:
    npc = fen["ysolde"]
    request = ProviderRequest(
        system="",
        messages=[Message(role="user", content=said)],
        npc=npc,
        trigger=TriggerFacts(kind="heard", text=said, speaker="Gorse", said=said),
    )
    lines = [s.text for s in map(said_by, plan_for(situation_of(request))) if s is not None]
    assert lines and all(re.search(r"\b(\w{1,2})-\1", line, re.I) for line in lines), lines
