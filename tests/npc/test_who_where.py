"""Who does what, where things and people are, and what a villager thinks of the others,
in a river village no map of the game has: asked in several phrasings, answered in whole
sentences that name the right person or say the way."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.retell import present

from .harbour import Person, Place, facts_at, said, said_and_done, village_map

# (name, x, y, width, height, description), in tiles.
PLACES: list[Place] = [
    (
        "green",
        8,
        5,
        4,
        3,
        "The green in the middle of the village, with a well and the parish board by the oak.",
    ),
    (
        "ropewalk",
        1,
        1,
        6,
        3,
        "The rope maker's walk in the north-west corner: a long shed with "
        "hemp hanks and a twisting wheel.",
    ),
    ("apiary", 15, 1, 4, 3, "Rows of straw skeps along a sunny wall, humming all summer."),
    (
        "smokehouse",
        1,
        10,
        4,
        3,
        "The smoker's yard in the south-west corner: a tarred shed hung with eels and trout.",
    ),
    (
        "brewhouse",
        15,
        10,
        4,
        3,
        "A low brewhouse by the weir, smelling of malt, with casks stacked at the door.",
    ),
    ("cottage", 10, 11, 3, 2, "Odo's little cottage south of the green."),
    ("tarn", 9, 1, 3, 2, "Blackwater Tarn, a cold little lake north of the green."),
]
PEOPLE: list[Person] = [
    (
        "bryn",
        "Bryn",
        "Bryn twists rope in the ropewalk and sells hemp cord by the yard. She is brisk and "
        "cheerful, and she thinks Odo is as stubborn as an old mule.",
        {"work": "ropewalk", "home": "ropewalk", "plan": "7 work, 12 brewhouse, 13 work, 21 sleep"},
        (3, 2),
    ),
    (
        "odo",
        "Odo",
        "Odo keeps bees at the apiary and sells honey in little pots. He is slow and gentle, "
        "and he is wounded that Bryn calls him a miser, since he only saves for winter.",
        {"work": "apiary", "home": "cottage"},
        (16, 2),
    ),
    (
        "tam",
        "Tam",
        "Tam is the smoker's lad, a boy of ten who hangs the eels in the smokehouse while "
        "his aunt is at market. He is terrified of Odo and of the bees.",
        {"work": "smokehouse", "home": "smokehouse"},
        (1, 7),
    ),
    (
        "mab",
        "Mab",
        "Mab has brewed the ale and cider at the brewhouse for thirty years, and sells it by "
        "the jug to anyone thirsty.",
        {"work": "brewhouse", "home": "brewhouse"},
        (16, 11),
    ),
]


@pytest.fixture(scope="module")
def ford(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_at(village_map(tmp_path_factory.mktemp("ford"), PEOPLE, PLACES, "Fordham"))


def say(npc: VillagerFacts, line: str) -> str:
    return said(npc, line, PEOPLE)


# A cut that leaves a comparison or a verb hanging: "As vain as", "calls him".
HANGING = re.compile(r"\b(?:as|than|calls (?:him|her)|means)\W*(?:,|\.|!|$)", re.I)


@pytest.mark.parametrize(
    "line",
    [
        "What do you think of Odo?",
        "whats ur problem with odo",
        "what have you got against Odo?",
        "Odo, is he a friend of yours?",
    ],
)
def test_an_opinion_of_likeness_is_said_whole(ford: dict[str, VillagerFacts], line: str) -> None:
    text = say(ford["bryn"], line)
    assert "Odo" in text and re.search(r"stubborn", text, re.I), text
    assert not HANGING.search(text), text


@pytest.mark.parametrize(
    ("npc", "line", "view"),
    [
        # Odo is wounded that Bryn calls him a miser: Bryn calls ME a miser.
        ("odo", "How do you feel about Bryn?", r"calls me a miser"),
        ("odo", "what's your problem with bryn", r"calls me a miser"),
        # Tam is terrified of Odo: Odo scares him.
        ("tam", "What do you make of Odo?", r"scares me"),
        ("tam", "what's odo like?", r"scares me"),
    ],
)
def test_a_feeling_about_someone_is_said_of_them_from_the_npc_side(
    ford: dict[str, VillagerFacts], npc: str, line: str, view: str
) -> None:
    text = say(ford[npc], line)
    assert re.search(view, text, re.I), text
    assert not re.search(r"\bcalls (?:him|her)\b|\bterrified of\b", text, re.I), text


@pytest.mark.parametrize(
    "line", ["who brews the ale?", "who makes the cider round here", "whos the brewer"]
)
def test_who_does_a_thing_is_a_sentence_with_their_name(
    ford: dict[str, VillagerFacts], line: str
) -> None:
    text = say(ford["bryn"], line)
    assert "Mab" in text and re.search(r"\bbrews\b", text), text
    assert not re.match(r"Has\b", text) and not text.rstrip(".!").endswith("Mab"), text


@pytest.mark.parametrize(
    ("long_done", "does"),
    [
        ("has made the cheese for fifty years", "makes the cheese for fifty years"),
        ("has baked the bread", "bakes the bread"),
        ("has carved spoons", "carves spoons"),
        ("has fished the mere", "fishes the mere"),
        ("has carried the post", "carries the post"),
        ("has always kept bees", "keeps bees"),
        ("has tended the flock", "tends the flock"),
        ("has poled the ferry", "poles the ferry"),
        ("has ruled the roost", "rules the roost"),
        ("has filed the letters", "files the letters"),
        ("has rolled the barrels", "rolls the barrels"),
        ("has sailed the bay", "sails the bay"),
        ("is a baker", "is a baker"),
    ],
)
def test_what_someone_has_long_done_is_said_as_what_they_do(long_done: str, does: str) -> None:
    assert present(long_done) == does


@pytest.mark.parametrize(
    ("line", "who"),
    [
        ("who's the one at the brewhouse?", "Mab"),
        ("whos the fellow at the apiary", "Odo"),
        ("who's the one with all the bees?", "Odo"),
        ("who's that woman with the rope", "Bryn"),
    ],
)
def test_who_is_asked_by_their_place_or_things_names_them(
    ford: dict[str, VillagerFacts], line: str, who: str
) -> None:
    assert who in say(ford["tam"], line)


OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


@pytest.mark.parametrize(
    ("npc", "line"),
    [
        *((npc, "where's the ropewalk?") for npc in ("odo", "tam", "mab")),
        *((npc, "which way to the smokehouse") for npc in ("bryn", "odo", "tam", "mab")),
    ],
)
def test_the_way_never_contradicts_the_corner_it_names(
    ford: dict[str, VillagerFacts], npc: str, line: str
) -> None:
    text = say(ford[npc], line).lower()
    corner = re.search(r"in the ((?:north|south)-(?:east|west)) corner", text)
    assert corner, text
    said = set(corner.group(1).split("-"))
    way = text.split("in the")[0]
    assert not {OPPOSITE[w] for w in re.findall(r"north|south|east|west", way)} & said, text


@pytest.mark.parametrize(
    ("npc", "line"),
    [
        ("mab", "where's the smoker?"),
        ("odo", "wheres the smokers yard"),
        ("bryn", "how do I get to the smoker's yard?"),
    ],
)
def test_a_place_asked_by_the_name_its_description_calls_it_gets_the_way(
    ford: dict[str, VillagerFacts], npc: str, line: str
) -> None:
    text = say(ford[npc], line)
    assert "smokehouse" in text and re.search(r"\bwest\b|south-west", text), text
    assert "tarred shed" not in text, text


@pytest.mark.parametrize("line", ["take me to the smokers yard", "show me the smoker's yard pls"])
def test_a_place_named_as_its_description_calls_it_is_walked_to(
    ford: dict[str, VillagerFacts], line: str
) -> None:
    _, done = said_and_done(ford["odo"], line, PEOPLE)
    assert any("smokehouse" in d for d in done if d.startswith("move")), done


@pytest.mark.parametrize(
    "belief",
    [
        "a flame that gutters means someone in the room has just told a lie",
        "a dog that howls at noon means a death in the house",
        "a bell that rings by itself says a storm is coming",
    ],
)
def test_a_belief_of_a_thing_is_said_with_its_verb_agreeing_and_its_clause_whole(
    belief: str,
) -> None:
    said = claim_phrases(belief)
    assert said and not [s for s in said if re.search(r"\bthey (?:means|says)\b", s, re.I)]
    assert not [s for s in said if re.search(r"\b(?:means|says) \w+$", s)], said


def test_what_a_sign_means_is_said_short_by_what_it_ends_on() -> None:
    said = claim_phrases("a flame that gutters means someone in the room has just told a lie")
    assert said[0] == "A flame that gutters? It means a lie", said


@pytest.mark.parametrize(
    ("line", "place"),
    [
        ("could you nip out to the brewhouse and grab me a jug?", "brewhouse"),
        ("would you dash off to the green for me", "green"),
        ("run down to the apiary, will you?", "apiary"),
        ("head out to the smokehouse pls", "smokehouse"),
    ],
)
def test_a_walk_said_with_out_off_or_down_is_a_walk(
    ford: dict[str, VillagerFacts], line: str, place: str
) -> None:
    _, done = said_and_done(ford["bryn"], line, PEOPLE)
    assert any(d.startswith("move") and place in d for d in done), done


@pytest.mark.parametrize(
    ("npc", "line", "said"),
    [
        ("mab", "where's the parish board?", r"green.*by the oak"),
        ("tam", "wheres the parish board at", r"green.*by the oak"),
        ("mab", "where is the twisting wheel?", r"north-west.*ropewalk"),
    ],
)
def test_where_a_thing_of_a_place_is_names_the_place_and_the_spot(
    ford: dict[str, VillagerFacts], npc: str, line: str, said: str
) -> None:
    text = say(ford[npc], line)
    assert re.search(said, text, re.I), text


@pytest.mark.parametrize(
    ("npc", "line"),
    [
        ("mab", "where's the lake?"),
        ("tam", "wheres the lake at"),
        ("bryn", "how do i get to the lake"),
    ],
)
def test_a_place_asked_by_the_kind_its_description_says_gets_the_way(
    ford: dict[str, VillagerFacts], npc: str, line: str
) -> None:
    text = say(ford[npc], line)
    assert re.search(r"tarn.*(?:north|east|west)", text, re.I), text


@pytest.mark.parametrize("line", ["what's the brewhouse like?", "tell me about the brewhouse"])
def test_its_side_on_a_place_is_said_only_from_a_clause_with_a_verb(
    ford: dict[str, VillagerFacts], line: str
) -> None:
    # "has brewed the ale and cider at the brewhouse": "cider at the brewhouse" is no doing.
    text = say(ford["mab"], line)
    assert not re.search(r"\bI (?:cider|ale)\b", text), text


@pytest.mark.parametrize(
    ("npc", "line", "who", "place"),
    [
        ("mab", "where's the honey man?", "Odo", "apiary"),
        ("tam", "where can i find the rope woman", "Bryn", "ropewalk"),
        ("odo", "wheres the ale lady", "Mab", "brewhouse"),
        ("bryn", "where's the eel boy?", "Tam", "smokehouse"),
    ],
)
def test_someone_asked_by_their_things_is_named_and_placed(
    ford: dict[str, VillagerFacts], npc: str, line: str, who: str, place: str
) -> None:
    text = say(ford[npc], line)
    assert who in text and place in text, text


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("where do u usually have ur lunch", r"midday.*brewhouse.*Mab"),
        ("where are you at noon?", r"midday.*brewhouse"),
        ("where can I find you of a morning?", r"Mornings.*ropewalk"),
        ("where are you at night?", r"night.*home.*ropewalk"),
    ],
)
def test_where_it_is_at_a_time_of_day_comes_from_its_day(
    ford: dict[str, VillagerFacts], line: str, said: str
) -> None:
    assert re.search(said, say(ford["bryn"], line)), say(ford["bryn"], line)


def test_where_it_works_is_its_work_place_not_its_home(ford: dict[str, VillagerFacts]) -> None:
    text = say(ford["odo"], "where do you work?")
    assert "apiary" in text and "cottage" not in text, text
