"""A visitor asking what to see, where to go or what to eat gets a place of the map in the
villager's mood, a goodbye in the same line said after it; a question put beside "have a
think" is answered as it is asked plainly, after a thinking word; and both lead the
bundled model's line. On a moorland village no map of the game has."""

from __future__ import annotations

import re

import pytest

from game.agent.providers.base import ProviderRequest
from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import Mood, mood_of
from game.npc.scripted.retell import MAX_RUN, shared_run
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import EMOTE

from .test_play_script import request
from .test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("crag", "Hobb's Crag, a rocky knoll above the moor with a bench and a view to the west."),
    ("cider_house", "A low barn of casks and a cider press, smelling of sour apples."),
    ("landing", "The ferry landing on the brown river, with a bell to call the boat."),
    ("mews", "A timber mews where the falcons sleep on their perches."),
    ("toll_booth", "A narrow stone booth on the moor road, with a chain across the way."),
]
PEOPLE: list[Person] = [
    (
        "ysolde",
        "Ysolde",
        "Ysolde flies the falcons from the mews on the edge of the moor. She is quiet and "
        "watchful, and she loves the mews at first light.",
        {"work": "mews"},
    ),
    (
        "barnaby",
        "Barnaby",
        "Barnaby presses cider in the cider house and sells it by the jug. He is cheerful and "
        "loud, and he laughs at his own jokes.",
        {"work": "cider_house", "wares": "cider, apple cake and pork pies"},
    ),
    (
        "wystan",
        "Wystan",
        "Wystan keeps the toll booth on the moor road. He is grumpy and blunt, and he never "
        "lets a cart by without its penny.",
        {"work": "toll_booth"},
    ),
    (
        "nell",
        "Nell",
        "Nell rows the ferry from the ferry landing on the brown river. She is old and wise "
        "and speaks slowly.",
        {"work": "landing"},
    ),
]
WHERE = r"green|crag|cider|landing|mews|booth|knoll|river|moor|ferry|falcon|barn"


@pytest.fixture(scope="module")
def moor(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("moor"), "moor", PEOPLE, PLACES))


def plan_of(npc: VillagerFacts, line: str, replies: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """What the NPC says to `line` late in a talk, and the skills its plan calls."""
    plan = answer(
        PlayerLine(
            npc=npc,
            said=line,
            turn=len(replies) + 1,
            met=True,
            earlier=["hello"] * (len(replies) + 1),
            replies=["Hello.", *replies],
            talks=len(replies) + 1,
        )
    )
    said = " ".join(s.text for s in map(said_by, plan) if s is not None)
    return said, [step.skill.name for step in plan if hasattr(step, "skill")]


def moods_of(npc: VillagerFacts) -> Mood:
    return mood_of(npc.persona, npc.sheet.talks)


ASKS_A_SIGHT = (
    "It's been lovely. What should I go and see while I'm here?",
    "What's worth seeing round here?",
    "Anything I shouldn't miss?",
    "Where should I go next?",
    "What would you do if you were me with a free afternoon?",
    "Any tips for a newcomer?",
    "what do you recommend?",
    "is there anything worth a look before I leave?",
)


@pytest.mark.parametrize("line", ASKS_A_SIGHT)
def test_asked_what_to_see_each_names_a_place_of_the_map(
    moor: dict[str, VillagerFacts], line: str
) -> None:
    for npc in moor.values():
        assert read_intent(line, npc).sub == "recommend", line
        said, _ = plan_of(npc, line)
        assert re.search(WHERE, said, re.I), (npc.name, line, said)
        assert not re.search(r"\b(?:don't know|no idea|not sure|couldn't say)\b", said, re.I)


def test_asked_again_and_again_each_names_a_place_in_its_own_words(
    moor: dict[str, VillagerFacts],
) -> None:
    for npc in moor.values():
        replies: tuple[str, ...] = ()
        for line in ASKS_A_SIGHT:
            said, _ = plan_of(npc, line, replies)
            assert re.search(WHERE, said, re.I), (npc.name, line, said)  # never chat
            assert shared_run(said, npc.persona, npc.name) <= MAX_RUN, (npc.name, said)
            replies = (*replies, said)


def test_a_yes_no_question_about_the_village_asks_no_sight(
    moor: dict[str, VillagerFacts],
) -> None:
    for line in ("Is this a nice place to live?", "Is the moor a good place for a walk?"):
        assert read_intent(line, moor["nell"]).sub != "recommend", line


def test_its_own_loved_place_comes_first_and_asked_again_another(
    moor: dict[str, VillagerFacts],
) -> None:
    said, _ = plan_of(moor["ysolde"], "What should I see while I'm here?")
    assert "mews" in said, said  # the place its persona loves
    again, _ = plan_of(moor["ysolde"], "And where should I go next?", (said,))
    assert "mews" not in again and re.search(WHERE, again, re.I), again


def test_a_goodbye_with_the_question_names_the_place_then_says_goodbye(
    moor: dict[str, VillagerFacts],
) -> None:
    for line in (
        "ok im off soon, what should i see before i go",
        "Right, I must be going. Anything I shouldn't miss on the way?",
    ):
        for npc in moor.values():
            said, _ = plan_of(npc, line)
            place = re.search(WHERE, said, re.I)
            assert place is not None, (npc.name, said)
            rest = said[place.end() :]  # the goodbye after the place
            byes = [b.split("{")[0] for b in line_table(Kind.BYE, moods_of(npc))]
            assert any(b in rest for b in byes), (npc.name, said)


def test_a_sight_asked_by_what_it_is_for_finds_the_place_described_so(
    moor: dict[str, VillagerFacts],
) -> None:
    for npc in moor.values():
        said, _ = plan_of(npc, "Best place to watch the sunset?")
        assert re.search(r"crag|knoll", said, re.I), (npc.name, said)  # a view to the west
        said, _ = plan_of(npc, "What's good to eat here?")
        assert re.search(r"cider", said, re.I), (npc.name, said)  # whoever sells cake and pies
    said, _ = plan_of(moor["barnaby"], "Any good food round here?")
    assert re.search(r"\bcider house\b", said, re.I), said  # its own


THINK_LINES = (
    ("Think it over for a moment: where can I hear the falcons?", "mews|falcon"),
    ("Have a think: who rows the ferry?", "Nell|ferry|row"),
    ("Have a think, where should I go next?", WHERE),
)


@pytest.mark.parametrize(("line", "answer_words"), THINK_LINES)
def test_a_question_beside_a_think_is_answered_after_the_gesture(
    moor: dict[str, VillagerFacts], line: str, answer_words: str
) -> None:
    for npc in moor.values():
        said, skills = plan_of(npc, line)
        assert skills[0] == EMOTE.name, (npc.name, skills)
        assert re.search(answer_words, said, re.I), (npc.name, line, said)
        openers = [o for o in line_table("thinking", moods_of(npc)) if said.startswith(o)]
        plain, _ = plan_of(npc, line.split(":")[-1].split(",")[-1].strip())
        assert openers or said == plain, (npc.name, said)  # a thinking word, then the answer
        assert said.endswith(plain) or openers, (npc.name, said, plain)


def test_a_joke_beside_a_laugh_is_laughed_at_not_answered(
    moor: dict[str, VillagerFacts],
) -> None:
    npc = moor["barnaby"]
    said, skills = plan_of(npc, "Why did the cider go to the cider house? Go on, laugh.")
    # laughed at as the player's joke, not met with a joke of its own
    assert skills[0] == EMOTE.name and said in line_table("laugh_at", moods_of(npc)), said
    said, skills = plan_of(npc, "Give me a laugh!")  # asked alone: a laugh of its own
    assert skills[0] == EMOTE.name and said in line_table("gesture_laugh", moods_of(npc)), said


def test_a_think_with_no_question_keeps_its_thinking_line(
    moor: dict[str, VillagerFacts],
) -> None:
    said, skills = plan_of(moor["wystan"], "Have a think about it.")
    assert skills[0] == EMOTE.name and said in line_table("gesture_think", moods_of(moor["wystan"]))


def lead_request(npc: VillagerFacts, line: str) -> ProviderRequest:
    return request(line).model_copy(update={"npc": npc})


def test_both_lead_the_bundled_models_line(moor: dict[str, VillagerFacts]) -> None:
    for npc in moor.values():
        lead = lead_of(lead_request(npc, "ok I'm off, what should I see before I go?"))
        assert re.search(WHERE, lead, re.I), (npc.name, lead)
        think = "Think it over for a moment: where can I hear the falcons?"
        lead = lead_of(lead_request(npc, think), acts=True)
        assert re.search("mews|falcon", lead, re.I), (npc.name, lead)
