"""A story asked for is told from the NPC's own sheet and map, never dodged: a belief told as
a tale, a fear and how it was met, an opinion of a neighbour, a place, a dislike, its work;
fuller by a storyteller, short by a gruff or quiet one; asked again, another one, never the
same. On a marsh village no map of the game has, with its own people and phrasings."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills.base import MAX_SAY
from tests.npc.test_sheet_answers import Person, facts_of, run_with, write_village

MARSH_PLACES = [
    ("net_loft", "A draughty net loft above the harbour, hung with cork floats."),
    ("peat_bog", "A black peat bog where the cut turves dry in long stacks."),
    ("goose_green", "A muddy green by the pond where the geese are penned at night."),
    ("mere", "A wide grey mere, still as glass, with reeds along its edge."),
    ("scriptorium", "A narrow room of desks and candles where letters are copied."),
]
MARSH: list[Person] = [
    (
        "ysolde",
        "Ysolde",
        "Ysolde is an old storyteller who mends nets in the net loft and remembers every tale "
        "of the marsh. She is certain a drowned bell rings under the mere on winter nights.",
        {"work": "net_loft"},
    ),
    (
        "bram",
        "Bram",
        "Bram is a gruff peat cutter of few words. He is afraid of the bog after dark and "
        "thinks Ysolde talks far too much.",
        {"work": "peat_bog"},
    ),
    (
        "nell",
        "Nell",
        "Nell is a cheerful goose girl who loves the spring fair and hates foxes. She sings to "
        "her geese every morning.",
        {"work": "goose_green"},
    ),
    (
        "hal",
        "Hal",
        "Hal is a shy lamplighter who is scared of the fog and thinks the scribe is a fraud.",
        {},
    ),
    (
        "quill",
        "Quill",
        "Quill is a brisk scribe who cannot abide ink blots and copies letters for a penny.",
        {"work": "scriptorium"},
    ),
]


@pytest.fixture(scope="module")
def marsh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("marsh"), "marsh", MARSH, MARSH_PLACES))


def talk_through(npc: VillagerFacts, lines: list[str]) -> list[str]:
    """What the NPC says to each line of one talk, in turn."""
    earlier: list[str] = []
    replies: list[str] = []
    for said in lines:
        plan = answer(
            PlayerLine(
                npc=npc,
                said=said,
                turn=len(earlier),
                earlier=[*earlier],
                replies=[*replies],
                talks=len(earlier),
            )
        )
        replies.append(" ".join(s.text for s in map(said_by, plan) if s is not None))
        earlier.append(said)
    return replies


def pairs(text: str) -> set[tuple[str, str]]:
    """A line's pairs of words in a row."""
    said = text.split()
    return set(pairwise(said))


ASKED = [
    "Tell me a story.",
    "tell me a tale",
    "Know any legends?",
    "What's the strangest thing that ever happened here?",
    "Any ghost stories?",
    "Tell me about the old days.",
    "got a story for me?",
    "Do you know any good stories?",
    "spin us a yarn",
    "any old tales?",
    "What's the scariest thing you've ever seen?",
    "What was it like back in the day?",
    "Would you tell me a bedtime story?",
    "Hey Bram, tell us a story",
]


@pytest.mark.parametrize("said", ASKED)
def test_a_story_asked_for_in_many_words_is_read_as_one(
    marsh: dict[str, VillagerFacts], said: str
) -> None:
    assert read_intent(said, marsh["bram"]).kind is Kind.STORY, said


@pytest.mark.parametrize(
    "said",
    [
        "That's a long story.",
        "Your story about the bell was true?",
        "Who tells the best stories around here?",
        "Please, no more stories.",
        "long story short, I lost my hat",
        "Was that story true?",
        "What's the strangest thing on your cart?",
        "How long ago did you come here?",
        "You told me a tale yesterday.",
        "What do you sing to your geese?",
    ],
)
def test_a_line_that_only_mentions_a_story_asks_none(
    marsh: dict[str, VillagerFacts], said: str
) -> None:
    assert read_intent(said, marsh["nell"]).kind is not Kind.STORY, said


def test_a_story_of_a_place_the_line_names_is_the_places_answer(
    marsh: dict[str, VillagerFacts],
) -> None:
    assert read_intent("Tell me the story of the mere.", marsh["hal"]).kind is Kind.PLACE


def test_a_belief_is_told_as_a_tale_and_a_storyteller_tells_it_fuller(
    marsh: dict[str, VillagerFacts],
) -> None:
    said = talk_through(marsh["ysolde"], ["Tell me a story."])[0]
    assert "bell" in said.lower(), said
    assert len(re.findall(r"[.!?](?:\s|$)", said)) >= 3, said  # opener, telling, close
    short = talk_through(marsh["bram"], ["Tell me a story."])[0]
    assert "bog" in short.lower() or "Ysolde" in short, short  # its fear, or its opinion
    assert len(short) < len(said), (short, said)


def test_a_ghost_story_is_its_fear_and_a_neighbour_named_is_its_opinion(
    marsh: dict[str, VillagerFacts],
) -> None:
    said = talk_through(marsh["hal"], ["Any ghost stories?"])[0]
    assert "fog" in said.lower(), said
    told = talk_through(marsh["bram"], ["Tell me a story about Ysolde."])[0]
    assert "Ysolde" in told and "talk" in told.lower(), told


def test_asked_again_it_tells_another_never_the_same(marsh: dict[str, VillagerFacts]) -> None:
    lines = ["Tell me a story.", "Another one!", "tell me more", "one more?"]
    for npc_id in ("ysolde", "bram", "quill"):
        said = talk_through(marsh[npc_id], lines)
        assert len(set(said)) == len(said), said
        # no telling comes round again: each shares few word pairs with those before
        for i, line in enumerate(said[1:], 1):
            for before in said[:i]:
                common = pairs(line) & pairs(before)
                assert len(common) <= 4, (npc_id, before, line)


def test_a_song_is_sung_by_one_who_sings_and_declined_by_others(
    marsh: dict[str, VillagerFacts],
) -> None:
    sung = talk_through(marsh["nell"], ["Sing me a song!"])[0]
    assert not re.search(r"\b(?:don't|can't|not)\b", sung), sung
    declined = talk_through(marsh["bram"], ["Can you sing?"])[0]
    assert re.search(r"\b(?:don't|not|no)\b", declined, re.I), declined


def test_no_story_reads_its_persona_back_or_runs_long(marsh: dict[str, VillagerFacts]) -> None:
    for npc_id, npc in marsh.items():
        for said in [*ASKED, "Sing me a song."]:
            text = talk_through(npc, [said])[0]
            assert 0 < len(text) <= MAX_SAY, (npc_id, said, text)
            assert run_with(text, npc.persona) < 6, (npc_id, said, text)
        for text in talk_through(npc, ["Tell me a story.", "another", "go on", "one more", "and?"]):
            assert run_with(text, npc.persona) < 6, (npc_id, text)


def test_the_bundled_models_line_opens_with_the_story(marsh: dict[str, VillagerFacts]) -> None:
    """The lead is the telling's first sentences, and another one's after a story."""
    from game.npc.play.leads import lead_of
    from tests.npc.test_play_script import request, result, say_call

    npc = marsh["ysolde"]
    lead = lead_of(request("Tell me a story.").model_copy(update={"npc": npc}))
    assert "bell" in lead.lower(), lead
    first = talk_through(npc, ["Tell me a story."])[0]
    history = [request("Tell me a story.").messages[-1], say_call(first), result()]
    again = lead_of(request("another one", history).model_copy(update={"npc": npc}))
    assert again and "bell" not in again.lower(), again


def test_a_belief_of_a_neighbours_things_is_no_tale(tmp_path: Path) -> None:
    # "Thinks Corran's rope is...": an opinion of Corran, never told as a tale of the
    # marsh ("Some won't have it, but I hold to it. Corran's rope.").
    people: list[Person] = [
        (
            "tilda",
            "Tilda",
            "Tilda twists rope by the quay and is sharp-tongued with everyone. She thinks "
            "Corran's nets are the only good thing he mends.",
            {"work": "net_loft"},
        ),
        ("corran", "Corran", "Corran mends nets and talks about the weather.", {}),
    ]
    tilda = facts_of(write_village(tmp_path, "quay", people, MARSH_PLACES))["tilda"]
    for asked in ("What's the strangest thing you've ever seen?", "Tell me a story."):
        (told,) = talk_through(tilda, [asked])
        assert not re.search(r"\bCorran's nets\.", told), told
