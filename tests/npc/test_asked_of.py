"""A question that names a place but asks something else of it gets an answer of its kind:
how it is at this hour, its tale, what lives in it or how big it is; and "tell me more"
goes on with something new. Never the map's description read out, never "come and look".
On a village written here, with people and phrasings of its own."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.scripted.asked_of import HOLDS, NOW, OPINION, PAST, WHY, asked_kind
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.wording import overlap
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("ferry landing", "A creaking ferry landing on the wide brown river, with tarred posts."),
    ("sheepfold", "A broad, windy sheepfold on the downs, ringed with dry-stone walls."),
    ("chandlery", "A narrow chandlery selling candles, lamp oil and twine."),
    ("plum orchard", "A walled plum orchard of crooked old trees behind the mill."),
    ("millpond", "A dark, still millpond fed by a stream and fringed with rushes."),
]
PEOPLE: list[Person] = [
    (
        "odo",
        "Odo",
        "Odo is a weary ferryman who poles travellers across the river from dawn to dusk. "
        "He swears a drowned bell rings under the river on stormy nights.",
        {"work": "ferry landing"},
    ),
    (
        "hild",
        "Hild",
        "Hild is a shepherd, sharp-eyed and brisk, who counts her flock twice a day.",
        {"work": "sheepfold"},
    ),
    (
        "gran",
        "Granny Tess",
        "Granny Tess is the oldest woman in the parish and remembers every story her "
        "grandmother told her.",
        {},
    ),
    (
        "piers",
        "Piers",
        "Piers is a jolly chandler who sells candles and twine and loves a bargain.",
        {"work": "chandlery"},
    ),
]
DESCRIBED = {name: text for name, text in PLACES}
DODGES = re.compile(r"\b(?:come and (?:look|see)|see for yourself|not sure|don't know)\b", re.I)


@pytest.fixture(scope="module")
def dale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("dale"), "dale", PEOPLE, PLACES))


def talk(npc: VillagerFacts, *lines: str, hour: float = 9.0) -> list[str]:
    """What the NPC says to each line in turn, at `hour`."""
    said: list[str] = []
    for line in lines:
        player = PlayerLine(
            npc=npc,
            said=line,
            earlier=list(lines[: len(said)]),
            replies=list(said),
            turn=len(said),
            talks=len(said),
            sensed=SensedFacts(hour=hour),
        )
        said.append(" ".join(s.text for s in map(said_by, answer(player)) if s is not None))
    return said


def assert_in_kind(text: str, place: str) -> None:
    """Not the place's description read out, and not a dodge."""
    assert overlap(text, DESCRIBED[place]) < 0.5, text
    assert not DODGES.search(text), text


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("What's the sheepfold like this evening?", NOW),
        ("Is the chandlery open right now?", NOW),
        ("Are the plums ripe yet?", NOW),
        ("Who dug the millpond?", PAST),
        ("How old is the ferry landing?", PAST),
        ("Are there any stories about the plum orchard?", PAST),
        ("What sort of eels swim in the millpond?", HOLDS),
        ("How wide is the river at the landing?", HOLDS),
        ("Is the millpond deep?", HOLDS),
        ("What's the sheepfold like?", ""),
        ("Where is the chandlery?", ""),
    ],
)
def test_a_question_of_a_place_is_read_by_its_kind(line: str, kind: str) -> None:
    assert asked_kind(line)[0] == kind


def test_how_a_place_is_now_is_an_observation_of_the_hour(dale: dict[str, VillagerFacts]) -> None:
    (morning,) = talk(dale["odo"], "How's the sheepfold looking this morning?")
    assert_in_kind(morning, "sheepfold")
    assert "morning" in morning.lower() and "windy" in morning.lower(), morning
    (night,) = talk(dale["odo"], "How's the sheepfold looking tonight?", hour=23.5)
    assert "dark" in night.lower() and "windy" not in night.lower(), night


def test_whether_a_place_is_busy_follows_the_hour_and_who_works_there(
    dale: dict[str, VillagerFacts],
) -> None:
    (day,) = talk(dale["hild"], "Is the chandlery busy today?")
    assert "Piers" in day and not re.search(r"\bnot\b", day), day
    (night,) = talk(dale["hild"], "Is the chandlery busy right now?", hour=23.0)
    assert re.search(r"\bnot busy\b", night, re.I) and "Piers" not in night, night
    (ripe,) = talk(dale["odo"], "Are the plums ripe yet?")
    assert "plums look ripe" in ripe.lower(), ripe


def test_a_tale_is_told_by_who_keeps_the_stories_and_sent_to_them_by_others(
    dale: dict[str, VillagerFacts],
) -> None:
    told, more = talk(dale["gran"], "Who dug the millpond?", "Go on, tell me more.")
    assert "dug" in told and "first" in told.lower(), told
    assert_in_kind(told, "millpond")
    assert_in_kind(more, "millpond")
    assert overlap(more, told) < 0.5 and not re.search(r"\bof here\b", more), more
    assert re.search(r"\b(?:they say|folk|tale|lucky)\b", more, re.I), more  # the tale goes on
    heard, rest = talk(dale["piers"], "How old is the ferry landing?", "Tell me more?")
    assert "Granny Tess" in heard and "Granny Tess" in rest, (heard, rest)
    assert_in_kind(heard, "ferry landing")
    assert overlap(rest, heard) < 0.5, rest


def test_what_is_in_its_own_place_comes_from_its_trade(dale: dict[str, VillagerFacts]) -> None:
    kinds, more = talk(dale["hild"], "What kind of sheep graze in the sheepfold?", "Tell me more!")
    assert kinds.lower().startswith("sheep? all sorts"), kinds
    # Her trade, or her place ("a shepherd, sharp-eyed": "sharp-eyed" is no trade).
    assert re.search(r"shepherd\.|at the sheepfold every day", kinds), kinds
    assert_in_kind(kinds, "sheepfold")
    assert_in_kind(more, "sheepfold")
    assert overlap(more, kinds) < 0.5, more
    deep, more = talk(dale["odo"], "How deep is the river at the ferry landing?", "Tell me more.")
    assert deep.lower().startswith("deeper than it looks"), deep
    assert_in_kind(deep, "ferry landing")
    assert "bell" in more and not DODGES.search(more), more  # what its sheet holds of it


def test_what_is_in_anothers_place_is_what_it_has_seen_and_who_would_know(
    dale: dict[str, VillagerFacts],
) -> None:
    (seen,) = talk(dale["odo"], "How big is the sheepfold?")
    assert seen.lower().startswith("bigger than it looks") and "Hild" in seen, seen
    assert_in_kind(seen, "sheepfold")


def test_the_lead_of_the_bundled_model_carries_the_answer(dale: dict[str, VillagerFacts]) -> None:
    from game.npc.play.leads import lead_of
    from tests.npc.test_play_script import request

    lead = lead_of(request("Who dug the millpond?").model_copy(update={"npc": dale["gran"]}))
    assert "dug" in lead and not DODGES.search(lead), lead


def test_the_part_of_the_day_asked_of_is_the_one_answered(dale: dict[str, VillagerFacts]) -> None:
    (later,) = talk(dale["odo"], "Will the chandlery be busy this afternoon?", hour=8.0)
    assert "afternoon" in later and "morning" not in later, later
    (tonight,) = talk(dale["odo"], "Is the chandlery open tonight?", hour=8.0)
    assert "tonight" in tonight.lower() and re.search(r"\bnot open\b", tonight, re.I), tonight


def test_who_made_a_place_is_its_tale_not_who_works_there(
    dale: dict[str, VillagerFacts],
) -> None:
    (told,) = talk(dale["hild"], "Who built the chandlery?")
    assert "built" in told and "Granny Tess" in told, told
    assert_in_kind(told, "chandlery")


def test_who_made_its_own_work_place_is_its_tale_not_its_job(
    dale: dict[str, VillagerFacts],
) -> None:
    (told,) = talk(dale["hild"], "Who built the sheepfold?")
    assert "Granny Tess" in told, told
    assert not re.search(r"\bcounts?\b|\bshepherd\b", told), told


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Why is the millpond so dark?", WHY),
        ("How come the sheepfold is so windy?", WHY),
        ("What do you think of the plum orchard?", OPINION),
        ("Do you like the millpond?", OPINION),
        ("What's the best thing about the sheepfold?", OPINION),
        ("Why do you like the millpond?", OPINION),
        ("Is the millpond deep?", HOLDS),
    ],
)
def test_why_and_what_it_thinks_of_a_place_are_kinds_of_their_own(line: str, kind: str) -> None:
    assert asked_kind(line)[0] == kind


def test_why_a_place_is_so_is_what_it_knows_and_who_would_know(
    dale: dict[str, VillagerFacts],
) -> None:
    (why,) = talk(dale["piers"], "Why is the millpond so dark?")
    assert_in_kind(why, "millpond")
    assert "dark and still" in why and "Granny Tess" in why, why
    (own,) = talk(dale["hild"], "How come the sheepfold is so windy?")
    assert_in_kind(own, "sheepfold")
    assert "broad" in own.lower() or "windy" in own.lower(), own


def test_what_it_thinks_of_a_place_is_an_opinion_not_a_description(
    dale: dict[str, VillagerFacts],
) -> None:
    for npc, line, place in (
        ("piers", "What do you think of the plum orchard?", "plum orchard"),
        ("odo", "Do you like the millpond?", "millpond"),
        ("hild", "What's the best thing about the sheepfold?", "sheepfold"),
    ):
        (said,) = talk(dale[npc], line)
        assert_in_kind(said, place)
        assert not re.search(r"\byou'll find it\b", said, re.I), said
        liked = r"\b(?:like|love|fond|mine|my own|do|complain|lovely|nice)\b"
        assert re.search(liked, said, re.I), said


@pytest.mark.parametrize(
    "line",
    ["Is the millpond safe at night?", "Is the chandlery a good place to eat?"],
)
def test_a_longer_question_of_a_place_is_never_garbled(
    dale: dict[str, VillagerFacts], line: str
) -> None:
    (said,) = talk(dale["hild"], line)
    assert not re.search(r"\blooks? (?:night|eat|to)\b|\bat looks\b", said), said


def test_whether_a_place_will_be_busy_is_what_its_own_day_says(
    dale: dict[str, VillagerFacts],
) -> None:
    (later,) = talk(dale["piers"], "Will the chandlery be busy this afternoon?", hour=8.0)
    assert re.search(r"\bbusy, yes\b", later, re.I) and "myself" in later, later
    (tonight,) = talk(dale["piers"], "Is the millpond busy tonight?", hour=8.0)
    assert "myself" not in tonight, tonight
