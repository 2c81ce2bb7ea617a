"""A village of trades no map of the game has (a potter, a midwife, a dairymaid, a
rat-catcher, a thatcher, a charcoal burner), talked to as a player would: each no is
said for what it is refused on and only when the request meets it, a belief is said whole
and in the NPC's own words, an opinion speaks of the NPC as "me", a joke is laughed at,
and the questions a village hears every day ("who's the kindest here?", "when do you go
to bed?", "is there a fair soon?", "do you sell jugs?") are answered, not dodged."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.lines import line_table
from game.npc.scripted.speaker import PlayerLine
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    (
        "aldous",
        "Aldous",
        "Aldous is the potter; he digs clay from the pit and throws jugs, bowls and pipkins "
        "on his wheel at the pottery. He is slow-spoken and kindly and thinks a long time "
        "before he answers. He believes a pot fired on a full moon never cracks. He will not "
        "sell a pot with a crack in it, not for any money. He sells jugs, bowls and pipkins.",
        {"work": "pottery"},
    ),
    (
        "prudence",
        "Prudence",
        "Prudence is the midwife and herb woman at her cottage on the west side. She is "
        "brisk and formal. She refuses to give any remedy to someone who will not say who "
        "it is for. She thinks Mab the dairymaid is the best-hearted girl in the village, "
        "and she thinks Wilmot the rat-catcher is a rogue.",
        {"work": "cottage", "plan": "7 work, 12 green, 13 work, 17 green, 20 cottage, 22 sleep"},
    ),
    (
        "mab",
        "Mab",
        "Mab is the dairymaid. She is bubbly and giggly, loves riddles and tells terrible "
        "jokes. She is sure the brindled cow, Buttercup, can tell when rain is coming.",
        {"work": "dairy"},
    ),
    (
        "wilmot",
        "Wilmot",
        "Wilmot is the rat-catcher and always asks for payment up front. He swears he once "
        "caught a rat as big as a dog under the bakehouse. He thinks Hewitt the thatcher owes "
        "him three pennies.",
        {},
    ),
    (
        "hewitt",
        "Hewitt",
        "Hewitt is the thatcher. He will not go up a roof in wind or rain for anyone. He "
        "is afraid of fire above all things.",
        {},
    ),
    (
        "bryony",
        "Bryony",
        "Bryony burns charcoal in the clearing in the wood. She is certain there is a wolf "
        "living deep in the wood. She will never leave a stack burning unwatched. She "
        "envies Prudence for knowing so much.",
        {"work": "clearing"},
    ),
]
PLACES = [
    ("pottery", "A pottery with a wheel under a shelter and jugs drying on shelves."),
    ("cottage", "A neat cottage with lavender by the door."),
    ("dairy", "A cool stone dairy with churns and cheese presses."),
    ("green", "The village green with a maypole and a stone trough."),
    ("clearing", "A clearing in the wood where charcoal stacks smoke day and night."),
    ("church_tower", "A squat church tower with a weathercock."),
    ("bakehouse", "The common bakehouse, where everyone brings their loaves to one great oven."),
]


@pytest.fixture(scope="module")
def wood(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("wood"), "wood", PEOPLE, PLACES))


def said(npc: VillagerFacts, line: str) -> str:
    return reply(npc, line)[0]


def test_a_no_on_the_weather_is_said_only_in_that_weather(
    wood: dict[str, VillagerFacts],
) -> None:
    windy = said(wood["hewitt"], "Can you fix my roof today? It's blowing a gale out there.")
    assert "wind or rain" in windy, windy
    dry = said(wood["hewitt"], "Come up on the church roof with me, it's a fine dry day!")
    assert "wind" not in dry and "rain" not in dry, dry


def test_how_a_thing_is_left_is_no_thing_asked(wood: dict[str, VillagerFacts]) -> None:
    # "leave a stack burning unwatched": "will you be burning?" asks no leaving
    asked = said(wood["bryony"], "Will you be burning today?")
    assert "leave" not in asked, asked
    left = said(wood["bryony"], "Come down to the green for an hour, your stacks will be fine.")
    assert "stack" in left and re.search(r"\b(?:no|don't|never|not)\b", left, re.I), left


def test_the_thing_refused_on_wins_over_a_haggle_and_not_over_free(
    wood: dict[str, VillagerFacts],
) -> None:
    cracked = said(wood["aldous"], "This jug has a little crack, I'll give you half price. Deal?")
    assert "crack" in cracked, cracked
    free = said(wood["aldous"], "Give me that jug for nothing, I'm a poor traveller.")
    assert "crack" not in free and re.search(r"coin|free|nothing|away", free, re.I), free


def test_a_remedy_for_someone_unsaid_is_refused_until_said(
    wood: dict[str, VillagerFacts],
) -> None:
    line = said(wood["prudence"], "I need something strong for a draught. Don't ask who it's for.")
    assert re.search(r"unless you say who", line, re.I), line


def test_a_word_made_with_a_fear_touches_it(wood: dict[str, VillagerFacts]) -> None:
    line = said(wood["hewitt"], "Let's light a bonfire behind your cottage!")
    assert re.search(r"\bfire\b", line, re.I) and "above all" not in line, line
    assert wood["hewitt"].sheet.fears == ("fire",)


def test_beliefs_are_said_whole_in_the_npcs_own_words() -> None:
    assert claim_phrases("there is a wolf living deep in the wood")[0] == "A wolf? Deep in the wood"
    caught = claim_phrases("I once caught a rat as big as a dog under the bakehouse")
    assert caught[0] == "A rat? Big as a dog! I once caught it under the bakehouse", caught
    assert not any(p.endswith("I once caught") for p in caught), caught
    fired = claim_phrases("a pot fired on a full moon never cracks")
    assert "Fired on a full moon, a pot never cracks" in fired, fired


@pytest.mark.parametrize(
    ("npc", "line", "expected"),
    [
        ("aldous", "Will a pot fired under the full moon really never crack?", r"never cracks"),
        ("bryony", "Is there truly a wolf in the wood?", r"deep in the wood"),
        ("wilmot", "Did you really catch a rat as big as a dog?", r"big as a dog"),
        ("wilmot", "Does Hewitt owe you money?", r"owes me three pennies"),
        ("bryony", "What do you think of Prudence?", r"I envy her for knowing so much"),
    ],
)
def test_a_belief_or_an_opinion_asked_is_said_of_itself(
    wood: dict[str, VillagerFacts], npc: str, line: str, expected: str
) -> None:
    text = said(wood[npc], line)
    assert re.search(expected, text, re.I), text


def test_a_joke_told_is_laughed_at(wood: dict[str, VillagerFacts]) -> None:
    npc = wood["mab"]
    text = said(npc, "Why did the cow cross the road? To get to the udder side! Go on, laugh.")
    mood = PlayerLine(npc=npc, said="hi").mood
    assert text in line_table("laugh_at", mood), text


def test_who_is_kindest_is_the_one_its_opinion_says(wood: dict[str, VillagerFacts]) -> None:
    text = said(wood["prudence"], "Who do you think is the kindest person around here?")
    assert "Mab" in text and "Wilmot" not in text, text
    text = said(wood["prudence"], "Who's the biggest rogue in the village?")
    assert "Wilmot" in text, text


def test_bedtime_is_said_from_its_day(wood: dict[str, VillagerFacts]) -> None:
    text = said(wood["prudence"], "What time do you usually go to bed?")
    assert "ten o'clock" in text and "seven o'clock" in text, text


def test_a_question_of_something_coming_is_no_belief_of_rain_coming(
    wood: dict[str, VillagerFacts],
) -> None:
    text = said(wood["mab"], "Is there a fair coming to the village soon?")
    assert "Buttercup" not in text and "cow" not in text, text
    assert re.search(r"\bnot that I\b|\bdon't think so\b", text, re.I), text


def test_do_you_sell_a_ware_says_the_wares(wood: dict[str, VillagerFacts]) -> None:
    text = said(wood["aldous"], "Do you sell jugs?")
    assert "jugs" in text.lower() and "bowls" in text.lower(), text
    text = said(wood["aldous"], "Do you believe the moon has anything to do with pots?")
    assert "bowls" not in text.lower(), text


def test_the_sheet_reads_a_manner_not_a_belief(wood: dict[str, VillagerFacts]) -> None:
    aldous = wood["aldous"].sheet
    assert not any("long time" in b.what for b in aldous.beliefs), aldous.beliefs
    assert "jokes" in wood["mab"].sheet.talks and "cheerful" in wood["mab"].sheet.talks
    # "is a rogue" said whole; "the best-hearted girl" is not cut at "and"
    assert "Wilmot the rat-catcher is a rogue" in wood["prudence"].sheet.opinions["wilmot"]


def test_a_hello_that_says_more_is_met_before_the_npcs_own(
    wood: dict[str, VillagerFacts],
) -> None:
    npc = wood["aldous"]
    mood = PlayerLine(npc=npc, said="hi").mood
    text = said(npc, "Good evening! I've come up from the river road, my feet are killing me.")
    assert any(text.startswith(line) for line in line_table("greet_weary", mood)), text
    text = said(wood["mab"], "Hello! I'm new here, just arrived this morning.")
    assert re.search(r"\bwelcome\b", text, re.I), text
    plain = said(npc, "Hello!")
    assert not any(plain.startswith(line) for line in line_table("greet_weary", mood)), plain


def test_a_look_round_asks_for_no_goods(wood: dict[str, VillagerFacts]) -> None:
    text = said(wood["wilmot"], "Could I have a look round the bakehouse?")
    assert not re.search(r"coin|money|free|nothing|give", text, re.I), text
