"""Questions of a villager's own days ("what's your favourite food?", "who's your best
friend?", "what did you do yesterday?") answered from its sheet, its day's plan and the
map, in a village of this test's own: never its role said back, never "don't know"."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from tests.npc.test_recommend_and_think import lead_request
from tests.npc.test_sheet_answers import Person, facts_of, reply, write_village

PLACES = [
    ("mill", "A tall windmill on the ridge, its sails creaking."),
    ("bakehouse", "A squat bakehouse that smells of warm loaves."),
    ("quay", "A stone quay where the boats tie up."),
    ("alehouse", "A crooked alehouse with a smoky hearth."),
    ("orchard", "Rows of old apple trees behind a wall."),
    ("cottage", "A small cottage with a blue door."),
]
PEOPLE: list[Person] = [
    (
        "hild",
        "Hild",
        "Hild is a stern miller who loves roast pheasant and hates rats in the mill. "
        "She thinks Osric is a kind and honest man.",
        {
            "work": "mill",
            "home": "cottage",
            "plan": "5 work, 12 bakehouse, 13 work, 18 alehouse, 22 sleep",
        },
    ),
    (
        "osric",
        "Osric",
        "Osric is a cheerful baker who sells rye loaves and honey cakes. He loves dancing and "
        "is afraid of deep water.",
        {"work": "bakehouse", "wares": "rye loaves, honey cakes"},
    ),
    (
        "wynn",
        "Wynn",
        "Wynn is a gloomy boatman who cannot stand gulls and fears storms at sea.",
        {"work": "quay", "plan": "9 work, 12 alehouse, 13 work, 20 alehouse"},
    ),
    ("edda", "Edda", "Edda is a quiet orchard keeper.", {"work": "orchard"}),
]


@pytest.fixture(scope="module")
def ridge(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("ridge"), "ridge", PEOPLE, PLACES))


# Each kind, in several phrasings of its own.
ASKED = {
    "food": [
        "What's your favourite food?",
        "What do you like to eat?",
        "Favourite dish?",
        "What food do you like best?",
    ],
    "fun": [
        "What do you do for fun?",
        "Any hobbies?",
        "What do you do in your free time?",
        "How do you unwind?",
    ],
    "yesterday": [
        "What did you do yesterday?",
        "Where were you yesterday?",
        "How was your day yesterday?",
    ],
    "today": [
        "What are you working on today?",
        "Any plans for today?",
        "What are you doing this morning?",
    ],
    "hardest": [
        "What's the hardest part of your job?",
        "What's the worst thing about your work?",
        "Is your job hard?",
        "What's the toughest bit?",
    ],
    "friend": [
        "Who's your best friend?",
        "Who are your friends?",
        "Who do you trust most?",
        "Who are you closest to?",
    ],
    "why": ["Why do you do what you do?", "How did you get into it?", "Why did you become one?"],
    "living": [
        "Is this a nice place to live?",
        "What would you change about this village?",
        "What's wrong with this place?",
        "Do you like the village?",
    ],
}


@pytest.mark.parametrize(("sub", "said"), [(s, q) for s, qs in ASKED.items() for q in qs])
def test_each_kind_of_its_own_days_is_read(ridge: dict[str, VillagerFacts], sub: str, said: str):
    intent = read_intent(said.lower(), ridge["edda"])
    assert (intent.kind, intent.sub) == (Kind.SELF, sub)


SHRUGS = ("don't know", "search me", "beats me", "couldn't tell", "no idea", "ask someone")


@pytest.mark.parametrize("npc", [p[0] for p in PEOPLE])
@pytest.mark.parametrize("said", [q for qs in ASKED.values() for q in qs])
def test_never_its_role_said_back_nor_a_shrug(ridge: dict[str, VillagerFacts], npc: str, said: str):
    line = reply(ridge[npc], said)[0]
    low = line.lower()
    assert line and not any(shrug in low for shrug in SHRUGS), line
    assert low.rstrip(".!? ") not in {"i'm a miller", "i'm a baker", "i'm a boatman"}


def test_a_food_it_likes_else_food_the_village_sells(ridge: dict[str, VillagerFacts]):
    assert "pheasant" in reply(ridge["hild"], "What's your favourite food?")[0]
    line = reply(ridge["wynn"], "What's your favourite food?")[0]
    assert "loaves" in line or "cakes" in line
    assert "Osric" in line  # who sells it


def test_fun_is_a_like_that_is_no_food(ridge: dict[str, VillagerFacts]):
    line = reply(ridge["osric"], "What do you do for fun?")[0]
    assert "dancing" in line.lower()


def test_yesterday_and_today_are_its_plan(ridge: dict[str, VillagerFacts]):
    yesterday = reply(ridge["hild"], "What did you do yesterday?")[0]
    assert "mill" in yesterday and "five" in yesterday and "bakehouse" in yesterday
    today = reply(ridge["wynn"], "What are you working on today?")[0]
    assert "quay" in today and "nine" in today


def test_the_hardest_part_is_a_dislike_its_work_touches_else_the_long_days_at_it(
    ridge: dict[str, VillagerFacts],
):
    assert "rats" in reply(ridge["hild"], "What's the hardest part of your job?")[0]
    edda = reply(ridge["edda"], "What's the hardest part of your job?")[0]
    # the hour its day starts answers "when do you start?", not "what's hard about it?"
    assert "orchard" in edda and "seven" not in edda, edda


def test_the_best_friend_is_the_one_its_sheet_thinks_best_of(ridge: dict[str, VillagerFacts]):
    assert "Osric" in reply(ridge["hild"], "Who's your best friend?")[0]


def test_the_village_is_its_liked_place_and_a_dislike(ridge: dict[str, VillagerFacts]):
    nice = reply(ridge["wynn"], "Is this a nice place to live?")[0]
    assert "quay" in nice and "gulls" in nice
    change = reply(ridge["wynn"], "What would you change about this village?")[0]
    assert "gulls" in change
    assert "suits me" in reply(ridge["edda"], "What would you change about this village?")[0]


def test_the_bundled_models_lead_carries_the_answer(ridge: dict[str, VillagerFacts]):
    hild = ridge["hild"]
    assert "pheasant" in lead_of(lead_request(hild, "What's your favourite food?"))
    assert "Osric" in lead_of(lead_request(hild, "Who's your best friend?"))
    assert "mill" in lead_of(lead_request(hild, "What did you do yesterday?"))


def test_happy_says_what_keeps_it_going_when_it_likes_something(
    ridge: dict[str, VillagerFacts],
):
    for said in ("Are you happy?", "Are you content?", "Happy here?"):
        assert "dancing" in reply(ridge["osric"], said)[0].lower()
    assert "orchard" in reply(ridge["edda"], "Are you happy?")[0]  # nothing liked: its work


def test_a_like_said_at_length_is_said_by_its_head(tmp_path: Path):
    people: list[Person] = [
        ("ansel", "Ansel", "Ansel is a lazy shepherd who loves skating more than anything.", {}),
    ]
    ansel = facts_of(write_village(tmp_path, "fells", people, PLACES[:2]))["ansel"]
    assert reply(ansel, "What do you do for fun?")[0].lower().count("skating") == 1
