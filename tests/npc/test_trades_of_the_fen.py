"""A fen village (a farrier, a pie-woman, a toll keeper, a herb-woman, an eel-catcher, an
old soldier), talked to as a player would: a question that names a belief by two words is
answered with it, a refusal of yesterday's goods is no word on today's, a child let across
asks the toll, a telling refused is refused, what is told is never cut to "what goes", a
seller asked what's good names its goods, and a nod on a neighbour it holds no view of
goes with kind words only."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.retell import shorter
from tests.npc.test_play_script import request
from tests.npc.test_sheet_answers import Person, facts_of, write_village
from tests.npc.test_trades_of_the_ford import plan

PEOPLE: list[Person] = [
    (
        "maud",
        "Maud",
        "Maud is the farrier: she shoes horses at her forge. She is loud and cheerful. She "
        "never shoes a horse after sunset.",
        {"work": "forge", "wares": "horseshoes"},
    ),
    (
        "kester",
        "Kester",
        "Kester is the eel-catcher: he sets traps in the river and sells eels from his hut. "
        "He believes a giant pike older than the church lives in the mere.",
        {"work": "hut", "wares": "eels"},
    ),
    (
        "bettany",
        "Bettany",
        "Bettany bakes pies in her pie shop and sells eel pies and apple pasties. She is kind "
        "and motherly. She never sells yesterday's pies, not even cheap. She believes a pie "
        "crust that cracks in the oven means bad news is coming.",
        {"work": "shop", "wares": "eel pies and apple pasties"},
    ),
    (
        "aldous",
        "Aldous",
        "Aldous is the toll keeper: he keeps the toll bridge over the river and collects a "
        "penny from everyone who crosses. He is thin and suspicious, and speaks in short "
        "sentences. He cannot swim and is afraid of the river. He never lets anyone cross "
        "without paying, not even children. He believes "
        "the lights over the fen are the souls of drowned men. He finds Maud far too loud.",
        {"work": "bridge"},
    ),
    (
        "hester",
        "Hester",
        "Hester is the herb-woman: she grows herbs in her garden and makes cordials. She is "
        "sharp-tongued and secretive. She never tells anyone what goes into her cordials. She "
        "believes the old bridge was built by the devil in a single night. She thinks Aldous "
        "cheats at the toll.",
        {"work": "garden", "wares": "cordials"},
    ),
    (
        "rollo",
        "Rollo",
        "Rollo is an old soldier who lives in his cottage. He is boastful and tells war "
        "stories. He will never talk about the battle at the river ford, whoever asks.",
        {"work": "cottage"},
    ),
]
PLACES = [
    ("forge", "Maud's forge on the west side, with an anvil and a horse post."),
    ("hut", "Kester's eel hut by the river, with willow traps against the wall."),
    ("shop", "Bettany's pie shop on the green, warm and smelling of pastry."),
    ("bridge", "The toll bridge over the fen river, old grey stone."),
    ("garden", "Hester's herb garden behind a high hedge."),
    ("cottage", "Rollo's cottage on the east side, with a rusty sword over the door."),
]


@pytest.fixture(scope="module")
def fen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("fen"), "fen", PEOPLE, PLACES))


def test_a_question_that_names_a_belief_is_answered_with_it(
    fen: dict[str, VillagerFacts],
) -> None:
    built, _ = plan(fen["hester"], "Who built the old bridge?")
    assert "devil" in built, built  # it was "First settlers built it, folk say."
    lights, _ = plan(fen["aldous"], "What are those lights over the fen at night?")
    assert "drowned" in lights, lights  # it was the bridge described
    crust, _ = plan(fen["bettany"], "Your pie crust cracked! What does that mean?")
    assert "bad news" in crust, crust  # it was "Oh, eel pies! I love it!"
    assert "The old bridge? Built" not in claim_phrases(
        "the old bridge was built by the devil in a single night", named=True
    )


def test_a_refusal_of_some_goods_and_of_a_telling(fen: dict[str, VillagerFacts]) -> None:
    pies, _ = plan(fen["bettany"], "Do you sell eel pies?")
    assert "yesterday" not in pies, pies
    stale, _ = plan(fen["bettany"], "Any of yesterday's pies going cheap?")
    assert "yesterday" in stale, stale
    girl, _ = plan(fen["aldous"], "My little girl needs to cross, surely children go free?")
    assert re.search(r"\bno\b|\bnot\b|\bdon't\b", girl, re.I) and "cross" in girl, girl
    battle, _ = plan(fen["rollo"], "Tell me about the battle at the river ford.")
    assert "battle" in battle and re.search(r"\bdon't\b|\bnot\b", battle), battle
    cordial, _ = plan(fen["hester"], "What's in your cordial? Go on, tell me.")
    assert not re.search(r"\bwhat\W*$|what goes\.", cordial), cordial
    assert "tell anyone what goes" not in shorter("tell anyone what goes into my cordials")


def test_a_seller_asked_whats_good_names_its_goods(fen: dict[str, VillagerFacts]) -> None:
    good, _ = plan(fen["bettany"], "What's good today?")
    assert "pies" in good or "pasties" in good, good


def test_a_nod_on_a_neighbour_it_holds_no_view_of(fen: dict[str, VillagerFacts]) -> None:
    _, kind = plan(fen["aldous"], "Nod if you think Hester is honest.")
    _, cold = plan(fen["aldous"], "Nod if you think Hester is a liar.")
    assert kind == ["nod"] and cold == ["shake_head"], (kind, cold)


def test_a_refusal_after_sunset_holds_at_night_only(fen: dict[str, VillagerFacts]) -> None:
    noon, _ = plan(fen["maud"], "Can you shoe my horse?")
    assert not re.match(r"\W*(?:no|oh, love, no)\b", noon, re.I), noon
    night, _ = plan(fen["maud"], "Can you shoe my horse?", hour=21.0)
    assert "sunset" in night, night


def test_where_to_buy_what_another_sells_is_theirs(fen: dict[str, VillagerFacts]) -> None:
    eels, _ = plan(fen["bettany"], "Where can I buy eels?")
    assert "pies" not in eels and ("hut" in eels or "Kester" in eels), eels
    pie, _ = plan(fen["bettany"], "Where can I buy a pie?")
    assert "yesterday" not in pie, pie


def test_a_price_a_role_and_a_view_said_as_meant(fen: dict[str, VillagerFacts]) -> None:
    toll, _ = plan(fen["aldous"], "How much is the toll?")
    assert "penny" in toll, toll  # it was "I haven't the foggiest."
    assert fen["aldous"].sheet.opinions["maud"] == "is far too loud"
    maud, _ = plan(fen["aldous"], "What do you think of Maud?")
    assert "too loud" in maud and "I find" not in maud, maud
    pick, _ = plan(fen["hester"], "Can I pick some of your herbs?")
    assert "My herbs" in pick, pick  # it was "Never had cause to wonder. Too busy."


def test_an_invitation_at_night_is_no_belief_and_a_belief_keeps_its_verb(
    fen: dict[str, VillagerFacts],
) -> None:
    night, _ = plan(fen["kester"], "Fancy coming out on the mere at night to look for the pike?")
    assert "pike" not in night.lower(), night  # an invitation, not "Giant pike older."
    pike, _ = plan(fen["kester"], "Is there really a giant pike in the mere?")
    assert re.search(r"\blives\b", pike) and "older." not in pike, pike


@pytest.mark.parametrize(
    ("npc", "line", "said"),
    [
        ("hester", "Maud says you poison people. Is that true?", "Poison people? Me?"),
        ("aldous", "Why are you afraid of the river?", "I cannot swim"),
        ("hester", "I broke one of your cordial bottles. Sorry!", "cordial bottles?"),
    ],
)
def test_a_wrong_denied_a_fears_cause_and_a_harm_named_whole(
    fen: dict[str, VillagerFacts], npc: str, line: str, said: str
) -> None:
    text, _ = plan(fen[npc], line)
    assert said in text, text
    lead = lead_of(request(line).model_copy(update={"npc": fen[npc]}))
    assert said in lead, lead


def test_a_ware_lent_or_sold_at_night_is_no_shoeing(fen: dict[str, VillagerFacts]) -> None:
    lend, _ = plan(fen["maud"], "Could you lend me a horseshoe for luck?")
    assert "horseshoe" in lend.lower() and "Please do" not in lend, lend
    night, _ = plan(fen["maud"], "Sell me a horseshoe.", hour=21.0)
    assert "sunset" not in night, night  # selling a horseshoe shoes no horse


def test_the_way_asked_is_no_request_and_its_own_things_stay(
    fen: dict[str, VillagerFacts],
) -> None:
    water, _ = plan(fen["maud"], "Where can I water my horse around here?")
    assert "sunset" not in water, water  # it was "Oh, go on, love! But never after sunset!"
    hammer, _ = plan(fen["maud"], "lend me your hammer for the day, i'll bring it back promise")
    assert "hammer stays" in hammer, hammer  # it was "my hammer stay with me"
    sword, _ = plan(fen["rollo"], "I'll pay double for your sword, I want it today")
    assert "sword stays" in sword, sword  # it was "Sit, sit, tell me all of it."
