"""A village at a forest's edge (an apothecary, a forester, a cooper, a dairywoman, a
watchman, a goose girl), talked to as a player would: two sentences joined by a comma are
read as two, a floor on a price holds, a refusal at a time is a yes at another, a month
names its season, a firewood buyer is no fire, and beliefs are said in plain English."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.reading.player import told_name
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PEOPLE: list[Person] = [
    (
        "odo",
        "Odo",
        "Odo is the apothecary: he mixes salves, tinctures and cough drops in his shop in "
        "Ashby and sells them to anyone who is poorly. He is nervous and talks very fast, "
        "and he loves long words though he often uses them wrongly. He will never give "
        "anyone medicine without seeing the patient first. He is terrified of spiders, he "
        "believes a clove of garlic under the pillow keeps a fever away.",
        {"work": "shop", "wares": "salves, tinctures and cough drops"},
    ),
    (
        "marta",
        "Marta",
        "Marta is the old forester: she fells and splits the timber in her woodyard and "
        "sells firewood by the cartload. She is slow, kind and patient. She never fells a "
        "tree in spring, when the sap is rising, whatever anyone pays. She is afraid of fire. "
        "She thinks Jory is a lazy lad with a good heart.",
        {"work": "woodyard", "wares": "firewood by the cartload"},
    ),
    (
        "jory",
        "Jory",
        "Jory is the young cooper: he makes barrels, buckets and tubs in his cooperage. He is "
        "cocky and cheerful and cracks jokes all day, and he boasts that he will be the richest "
        "man in the county one day. He will haggle over a bucket, but never below three "
        "pennies. He believes the pond has no bottom at all. He thinks Odo is a fraud.",
        {"work": "cooperage", "wares": "barrels, buckets and tubs"},
    ),
    (
        "hilde",
        "Hilde",
        "Hilde keeps the cows at the dairy and sells milk, cream and eggs every morning. She "
        "is loud and bossy and laughs louder than anyone in Ashby. She never sells on credit. "
        "She is sweet on Bertram, though she would never say so.",
        {"work": "dairy", "wares": "milk, cream and eggs"},
    ),
    (
        "bertram",
        "Bertram",
        "Bertram is the old watchman: he keeps the west gate and rings the bell if trouble "
        "comes. He is gruff and speaks in short orders. He never lets anyone into the forest "
        "after dark.",
        {"work": "gate"},
    ),
    (
        "ysolde",
        "Ysolde",
        "Ysolde is a shy young girl who looks after the geese in the goose meadow. She is "
        "afraid of dogs, she believes the geese can see ghosts. She thinks Marta is like a "
        "grandmother to her.",
        {"work": "meadow"},
    ),
]
PLACES = [
    ("shop", "Odo's apothecary, with jars of salve and dried herbs in the window."),
    ("woodyard", "Marta's woodyard at the edge of the forest, with log piles and a block."),
    ("cooperage", "Jory's cooperage: a workshop with staves, hoops, barrels and buckets."),
    ("dairy", "Hilde's dairy, a long red-roofed house with milk churns out front."),
    ("gate", "The west gate where the road from the forest comes in, with a lantern."),
    ("green", "Ashby Green, the grassy market place in the middle of the village."),
    ("meadow", "The goose meadow: a fenced field with a pond and a goose house."),
]


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("edge"), "edge", PEOPLE, PLACES))


def said(npc: VillagerFacts, line: str, hour: float = 12.0) -> str:
    plan = answer(PlayerLine(npc=npc, said=line, sensed=SensedFacts(hour=hour)))
    return " ".join(s.text for s in map(said_by, plan) if s is not None)


def test_two_sentences_joined_by_a_comma_are_read_as_two(
    edge: dict[str, VillagerFacts],
) -> None:
    odo, ysolde = edge["odo"].sheet, edge["ysolde"].sheet
    assert odo.fears == ("spiders",) and ysolde.fears == ("dogs",)
    assert any("garlic" in b.what for b in odo.beliefs)
    assert any(b.what == "the geese can see ghosts" for b in ysolde.beliefs)
    assert odo.likes == ("long words",)  # not "...though I often use them wrongly"
    assert edge["hilde"].sheet.refuses == ("credit",)  # "would never say so" keeps a secret
    dog = said(edge["ysolde"], "My dog's with me, he's friendly, come say hello!")
    assert "dogs" in dog.lower(), dog


def test_a_floor_on_a_price_holds_against_a_lower_bid(edge: dict[str, VillagerFacts]) -> None:
    jory = edge["jory"]
    assert "go below three pennies" in jory.sheet.refuses
    line = said(jory, "Two pennies for a bucket, final offer.")
    assert "three pennies" in line and re.search(r"\bnot\b|\bdon't\b", line, re.I), line
    above = said(jory, "How about four pennies for a bucket? Yours are a bit steep.")
    assert "three pennies" not in above, above


def test_a_refusal_at_a_time_is_a_yes_at_another(edge: dict[str, VillagerFacts]) -> None:
    bertram = edge["bertram"]
    night = said(bertram, "Let me into the forest.", hour=21.0)
    assert "after dark" in night and re.match(r"\W*(?:no|hmph|not)\b", night, re.I), night
    noon = said(bertram, "Let me into the forest.", hour=12.0)
    assert "after dark" in noon and not re.match(r"\W*(?:no|hmph)\b", noon, re.I), noon
    assert "edge of the forest" not in noon  # no place read out


def test_a_month_names_its_season(edge: dict[str, VillagerFacts]) -> None:
    line = said(edge["marta"], "Could you cut me down a young oak? It's April.")
    assert "spring" in line and "welcome" not in line.lower(), line
    assert told_name("Could you cut me down a young oak? It's April.") is None
    assert told_name("Hello, I'm April.") == "April"


def test_firewood_is_no_fire_but_a_bonfire_is(edge: dict[str, VillagerFacts]) -> None:
    marta = edge["marta"]
    wood = said(marta, "How much for a cart of firewood?")
    assert "fire?" not in wood.lower() and "firewood" in wood.lower(), wood
    bonfire = said(marta, "Come and sit by the bonfire with us tonight!")
    assert "fire" in bonfire.lower() and re.search(r"\bno\b", bonfire, re.I), bonfire


def test_beliefs_are_said_in_plain_english() -> None:
    assert claim_phrases("the pond has no bottom at all")[0] == "The pond? It has no bottom at all"
    assert claim_phrases("the geese can see ghosts")[0] == "The geese? They can see ghosts"


def test_leave_to_handle_a_thing_is_no_gift_asked(edge: dict[str, VillagerFacts]) -> None:
    goose = said(edge["ysolde"], "Can I hold one of the geese?")
    assert "ghosts" not in goose and re.search(r"gentl|careful", goose, re.I), goose
    barrel = said(edge["jory"], "Can I touch your barrels?")
    assert not re.search(r"coin|money|pay", barrel, re.I), barrel
    lend = said(edge["jory"], "Lend me your best barrel for the fair, I'll bring it back.")
    assert re.search(r"\bno\b|coin", lend, re.I), lend


def test_everyday_questions_get_their_answer(edge: dict[str, VillagerFacts]) -> None:
    friends = said(edge["ysolde"], "Do you have any friends?")
    assert "Marta" in friends and "quills" not in friends, friends
    best = said(edge["ysolde"], "What's your favourite thing about Ashby?")
    assert re.search(r"meadow|gate|green|dairy|shop|woodyard|cooperage", best, re.I), best
    way = said(edge["bertram"], "Which way to the apothecary?")
    assert "shop" in way, way


def test_a_deed_done_only_with_the_one_it_is_for_in_sight(edge: dict[str, VillagerFacts]) -> None:
    line = said(edge["odo"], "Can you give me something for my cough? It's for my sister.")
    assert "without seeing the patient" in line and "yours" not in line, line


def test_signs_of_a_fear_and_asks_that_only_name_its_time(edge: dict[str, VillagerFacts]) -> None:
    smoke = said(edge["marta"], "There's smoke over the forest! Is something burning?")
    assert "fire" in smoke.lower() and "woodyard" not in smoke.lower(), smoke
    lantern = said(edge["bertram"], "Can I borrow your lantern tonight?", hour=21.0)
    assert "after dark" not in lantern, lantern


def test_a_boast_is_held_and_a_story_of_any_kind_is_told(edge: dict[str, VillagerFacts]) -> None:
    assert any("richest man" in b.what for b in edge["jory"].sheet.beliefs)
    rich = said(edge["jory"], "Is it true you'll be rich one day?")
    assert "richest" in rich, rich
    story = said(edge["bertram"], "Tell me a war story from your soldier days.")
    assert re.search(r"\bstory\b|once|wolves", story, re.I), story


def test_credit_a_cure_and_the_wisest_asked_plainly(edge: dict[str, VillagerFacts]) -> None:
    credit = said(edge["hilde"], "Can I have a jug of milk now and pay you on Friday?")
    assert "credit" in credit.lower() or "coin" in credit.lower(), credit
    throat = said(edge["odo"], "Have a think: what's good for a sore throat?")
    assert "cough drops" in throat, throat
    wisest = said(edge["bertram"], "Who's the wisest person in Ashby?")
    assert "Odo" not in wisest, wisest  # "his shop in Ashby" says where, not who is wise


def test_the_patient_one_treats_is_no_patient_temper() -> None:
    from game.npc.scripted.moods import mood_of

    assert mood_of("Ada treats any patient who comes to her door.").name != "wise"
    assert mood_of("Ada is slow, kind and patient, and speaks in old sayings.").name == "wise"


def test_the_village_s_name_its_milk_and_its_nuisances(edge: dict[str, VillagerFacts]) -> None:
    inn = said(edge["hilde"], "Is there an inn in Ashby?")
    assert "laugh" not in inn.lower(), inn  # "louder than anyone in Ashby" is no side on inns
    milk = said(edge["jory"], "Who sells milk?")
    assert "Hilde" in milk, milk
    worst = said(edge["jory"], "Who's the most annoying person in Ashby?")
    assert "Odo" in worst and "fraud" in worst, worst


def test_a_price_asked_and_a_mixed_opinion(edge: dict[str, VillagerFacts]) -> None:
    drops = said(edge["odo"], "How much are the cough drops?")
    assert "patient" not in drops and "medicine" not in drops, drops
    jory = said(edge["marta"], "What do you think of Jory?")
    assert "lazy" in jory and "good heart" in jory, jory  # both sides, not the cold half


def test_who_does_its_own_work_is_answered_with_me(edge: dict[str, VillagerFacts]) -> None:
    line = said(edge["jory"], "Who makes the barrels around here?")
    assert re.match(r"\W*(?:that's me|me\b)", line, re.I) and "cooper" in line, line
