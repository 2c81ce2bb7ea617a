"""Questions about the NPC itself, on a marsh village no map of the game has: what it does,
who taught it, how long it has been at it, the hardest part, what it fears, what it makes
of a neighbour. Each answer comes from its own sheet and voice: no stock line in place of
a teacher the persona names, no hour of its day for "the hardest part", no trade read
from "the neighbour everyone leans on"."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.moods import mood_of

from .test_questions import reply
from .test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("eel_weir", "The eel weir across the marsh stream, wattle fences and willow traps."),
    ("lamp_store", "A brick store by the causeway where the lamp oil and wicks are kept."),
    ("the_lane", "The Lane: a row of low cottages with gardens running down to the dyke."),
    ("saltings", "Flat saltings east of the village, where samphire grows in summer."),
    ("chapel", "A small flint chapel with a squat tower and a yard of old stones."),
]
PEOPLE: list[Person] = [
    (
        "wat",
        "Wat",
        "Wat is the eel-catcher who empties the willow traps at the weir each dawn and sells "
        "smoked eels by the string. He is timid and stutters, and he goes red to the ears "
        "when spoken to. His grandfather showed him how when he was seven. He is terrified "
        "of geese. He thinks Aud is the cleverest woman he knows.",
        {"work": "eel_weir", "plan": "5 eel_weir, 12 saltings, 13 eel_weir, 20 sleep"},
    ),
    (
        "aud",
        "Aud",
        "Aud is the good neighbour everybody on the Lane turns to. She has no trade, but she "
        "sits with the sick, writes letters for those who can't and minds the babies on "
        "washdays. She is warm and chatty. She is afraid that the dyke will break one wet "
        "winter. She thinks Wat should get out more.",
        {"work": "the_lane", "plan": "6 the_lane, 22 sleep"},
    ),
    (
        "hesk",
        "Hesk",
        "Hesk lights the lamps along the causeway at dusk and trims the wicks at dawn. He is "
        "young, sardonic and quick with a cutting remark, with no patience for dawdlers. He "
        "learned the work from his mother, who was lamplighter before him, and he has done "
        "it for eleven years. He cannot abide wind that blows the lamps out. He thinks the "
        "sexton is the only one in the village worth talking to, and he won't lend oil to "
        "anyone, not even Aud. His lamps smoke like chimneys in the fog.",
        {"work": "lamp_store", "plan": "6 lamp_store, 22 sleep"},
    ),
    (
        "osk",
        "Osk",
        "Osk is the sexton, and keeps the chapel yard tidy and tolls the bell for the dead. "
        "He is solemn and slow to speak. He thinks Hesk is a sharp young man who leaves "
        "oil all over the causeway.",
        {"work": "chapel", "plan": "7 chapel, 22 sleep"},
    ),
]


@pytest.fixture(scope="module")
def marsh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("marsh"), "marsh", PEOPLE, PLACES))


@pytest.mark.parametrize(
    ("line", "sub"),
    [
        ("What's your line of work?", "work"),
        ("How many years have you done this?", "years"),
        ("Who trained you?", "learned"),
        ("Who did you apprentice under?", "learned"),
        ("Who first taught you?", "learned"),
        ("Do you enjoy living in the marsh?", "living"),
        ("Anything you're afraid of?", "like"),
        ("What's your favourite thing to make?", "like"),
    ],
)
def test_a_question_of_itself_is_read_as_one(
    marsh: dict[str, VillagerFacts], line: str, sub: str
) -> None:
    intent = read_intent(line, marsh["osk"])  # Hesk lights lamps: "make" names no one here
    assert (intent.kind, intent.sub) == (Kind.SELF, sub), (line, intent)


def test_trained_on_data_is_still_asked_of_a_machine(marsh: dict[str, VillagerFacts]) -> None:
    assert read_intent("Were you trained on the internet?", marsh["wat"]).kind is Kind.AI


def test_the_sheet_reads_a_neighbour_and_what_it_fears_that(
    marsh: dict[str, VillagerFacts],
) -> None:
    aud = marsh["aud"].sheet
    assert aud.role == "neighbour", aud.role
    assert any("dyke will break" in fear for fear in aud.fears), aud.fears


def test_the_sheet_keeps_others_deeds_likenesses_and_exceptions_out(
    marsh: dict[str, VillagerFacts],
) -> None:
    osk, hesk = marsh["osk"].sheet, marsh["hesk"].sheet
    assert not any("oil" in way for way in osk.ways), osk.ways  # Hesk leaves the oil about
    assert not any("chimney" in like for like in hesk.likes), hesk.likes  # smoke like chimneys
    assert "aud" not in hesk.opinions, hesk.opinions  # "not even Aud" is no opinion of her
    assert any("eleven years" in past for past in hesk.past), hesk.past


def test_who_taught_it_names_the_teacher_first(marsh: dict[str, VillagerFacts]) -> None:
    said = reply(marsh["hesk"], "Who taught you?")
    assert re.search(r"\bmy mother taught me\b", said, re.I), said
    said = reply(marsh["wat"], "Who showed you how?")
    assert re.search(r"grandfather \w+-?\w* me how", said, re.I), said
    assert "seven" in said, said


def test_who_taught_one_the_persona_names_no_teacher_is_no_stock_line(
    marsh: dict[str, VillagerFacts],
) -> None:
    said = reply(marsh["osk"], "Who taught you your trade?")
    assert "good at it" not in said and "learned it" in said, said


def test_how_long_is_its_years_or_its_age_when_it_began(
    marsh: dict[str, VillagerFacts],
) -> None:
    assert "eleven years" in reply(marsh["hesk"], "How long have you been doing this?").lower()
    assert "since I was seven" in reply(marsh["wat"], "How long have you been at it?")


def test_the_hardest_part_is_never_the_hour_its_day_starts(
    marsh: dict[str, VillagerFacts],
) -> None:
    for npc in ("wat", "aud", "hesk", "osk"):
        said = reply(marsh[npc], "What's the hardest part of your work?")
        assert not re.search(r"\bup (?:and \w+ )?(?:at|by)\b|\bearly starts\b", said), (npc, said)
    said = reply(marsh["hesk"], "What's the hardest part of your work?")
    assert "wind" in said.lower(), said


def test_the_neighbour_is_a_neighbour_when_asked(marsh: dict[str, VillagerFacts]) -> None:
    said = reply(marsh["aud"], "What do you do?")
    assert "neighbour" in said and "everybody" not in said, said
    said = reply(marsh["wat"], "What do you think of Aud?")
    assert "everybody" not in said.lower(), said


def test_an_opinion_says_the_village_as_one_who_lives_there(
    marsh: dict[str, VillagerFacts],
) -> None:
    assert "here" in marsh["hesk"].sheet.opinions["osk"], marsh["hesk"].sheet.opinions
    said = reply(marsh["hesk"], "What do you think of Osk?")
    assert "worth talking to" in said, said


def test_a_sardonic_one_is_not_cheerful() -> None:
    hesk = next(p for p in PEOPLE if p[0] == "hesk")[2]
    assert mood_of(hesk).name == "gruff"
    # a liking is no manner: "loves the quiet of the yard" is no quiet one
    assert mood_of("Tam is cheerful and loves the quiet of the yard.").name == "cheerful"
