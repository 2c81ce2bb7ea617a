"""The persona brain on a market village no map of the game has: news told in the
player's own sentence, the way to a place asked as players ask it, a hill called by its
own name, a dare that touches a fear, a bid alone after a haggle, goods offered for goods,
and the small acts players ask for (a shrug, a wink, a clap)."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.life.news import told_news
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.reading.words import spelt_out
from game.npc.scripted.first_person import unending
from game.npc.scripted.lines import line_table
from game.npc.scripted.retell import shorter
from game.npc.scripted.speaker import PlayerLine

from .test_questions import reply, talk
from .test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("market_cross", "The market cross in the middle of Dunmere, where the stalls are set up."),
    ("beacon_hill", "Beacon Hill rises north of the village, a bare top with an old brazier."),
    ("ropewalk", "The ropewalk east of the market cross, a long shed where hemp is twisted."),
    ("brewhouse", "The brewhouse on the west side of the market cross, with copper vats."),
    ("willow_pond", "The willow pond in the south-west, a still pool under the willows."),
]
PEOPLE: list[Person] = [
    (
        "aldo",
        "Aldo",
        "Aldo is the rope-maker who twists hemp along the ropewalk. He is grumpy and stingy, "
        "haggles hard over every farthing and talks in short sentences. He is afraid of "
        "heights and never climbs Beacon Hill. He believes every knot on the ropewalk slips "
        "for a moment whenever a stranger tells a lie. He thinks Bettany is the meanest "
        "woman in the valley but brews the best ale.",
        {"work": "ropewalk", "wares": "hemp rope, twine and halters"},
    ),
    (
        "bettany",
        "Bettany",
        "Bettany brews ale and cider at the brewhouse. She is warm and cheerful, and she "
        "asks for a fair price and never haggles. She is terrified of thunderstorms. She "
        "believes a sprig of rowan in the mash keeps the ale from souring.",
        {"work": "brewhouse", "wares": "ale, cider and barley bread"},
    ),
    (
        "corm",
        "Corm",
        "Corm makes cheese and sells it at the market cross. He is blunt, swears mildly "
        "('curse my boots') and bargains hard. He refuses to give free tastes to anyone. He "
        "believes milk turns sour if a stranger looks at it while it is setting. He is fond "
        "of Bettany the brewer and buys all her spare barley.",
        {"work": "market_cross", "wares": "hard cheese, goat cheese and butter"},
    ),
    (
        "dunn",
        "Dunn",
        "Dunn is the ratcatcher who lives in the shed near the willow pond with his terriers "
        "and hunts rats in every barn in the village. He is cheerful and cheeky.",
        {"work": "willow_pond"},
    ),
]


@pytest.fixture(scope="module")
def market(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("market"), "market", PEOPLE, PLACES))


def test_news_told_in_the_players_own_sentence_is_met_as_news() -> None:
    assert told_news("did you hear the bridge got washed out last night?") == (
        "the bridge got washed out last night"
    )
    assert told_news("yo whats up, heard theres a fox loose by the pond") == (
        "theres a fox loose by the pond"
    )
    assert told_news("did you hear the bell?") == ""  # a sound asked of, no news
    assert told_news("have you heard anything about the mill?") == ""  # news asked for


def test_news_of_a_thing_echoes_it_and_is_no_place_described(
    market: dict[str, VillagerFacts],
) -> None:
    for npc in market.values():
        washed = reply(npc, "hello! did you hear the bridge got washed out last night?")
        assert washed.startswith("The bridge?"), (npc.npc_id, washed)
        assert "stalls" not in washed  # "bridge" is no word on the market cross
        fox = reply(npc, "heard there's a fox loose down by the pond")
        assert fox.startswith("A fox?"), (npc.npc_id, fox)


def test_the_way_asked_as_players_ask_it_is_the_way(market: dict[str, VillagerFacts]) -> None:
    bettany = market["bettany"]
    hill = reply(bettany, "how do i get up to beacon hill from here")
    assert "Beacon Hill" in hill and "the beacon hill" not in hill.lower(), hill
    assert "north" in hill and "brazier" not in hill, hill
    for line in ("point me toward the ropewalk", "how would I get to the ropewalk?"):
        way = reply(bettany, line)
        assert "east" in way and "hemp" not in way, (line, way)


def test_a_dare_that_touches_a_fear_is_refused(market: dict[str, VillagerFacts]) -> None:
    said, skills = talk(market["aldo"], "race you to the top of beacon hill!")[-1]
    assert "move" not in skills and said.lower().startswith(("no", "hmph. no")), said
    assert "height" in said, said


def test_one_who_haggles_asks_an_offer_and_meets_a_bid_alone(
    market: dict[str, VillagerFacts],
) -> None:
    aldo = market["aldo"]
    price = reply(aldo, "hwo much for 20 yards of rope")
    assert "haggl" not in price and "rope" in price.lower(), price
    mood = PlayerLine(npc=aldo, said="").mood
    bid = reply(
        aldo, "how much for rope?", "that's robbery. 2 coins and not a penny more", "fine, 3 then?"
    )
    assert bid in line_table("haggle_back", mood), bid


def test_one_who_never_haggles_turns_a_bid_alone_down(market: dict[str, VillagerFacts]) -> None:
    bettany = market["bettany"]
    mood = PlayerLine(npc=bettany, said="").mood
    bid = reply(bettany, "how much for a jug of cider?", "ok, 5 then")
    assert bid not in line_table("haggle_back", mood) and "haggle" in bid, bid


def test_goods_offered_for_goods_are_looked_at_first(market: dict[str, VillagerFacts]) -> None:
    said = reply(market["corm"], "i'll swap you a good knife for a wheel of the hard stuff")
    assert said.startswith("A good knife?"), said


def test_a_slip_of_the_fingers_is_read_as_meant() -> None:
    assert spelt_out("hwo much is teh rope") == "how much is the rope"


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("shrug if you dont know", "shrug"),
        ("wink at me ;)", "wink"),
        ("Clap if you like music!", "clap"),
        ("give me a hug", "hug"),
        ("salute me, soldier!", "salute"),
        ("thumbs up if you agree", "thumbs"),
        ("jump!", "jump"),
        ("give us a cheer!", "cheer"),
        ("can you look sad?", "sad"),
        ("blow me a kiss", "kiss"),
        ("whistle a tune", "whistle"),
    ],
)
def test_a_small_act_asked_for_is_said_as_itself(
    market: dict[str, VillagerFacts], line: str, act: str
) -> None:
    for npc in market.values():
        said = reply(npc, line)
        assert said in line_table(f"act_{act}", PlayerLine(npc=npc, said=line).mood), said


def test_the_sheet_reads_a_free_taste_refused_and_mild_swearing_as_no_belief(
    market: dict[str, VillagerFacts],
) -> None:
    sheet = market["corm"].sheet
    assert "free goods" in sheet.refuses, sheet.refuses
    assert all("mildly" not in b.what for b in sheet.beliefs), sheet.beliefs
    said = reply(market["corm"], "can i try a bit of the goat cheese before i buy")
    assert "Just this once" not in said and re.search(r"\bNo\b|don't|Coin first", said), said


def test_a_belief_is_said_whole_enough_to_mean_something(
    market: dict[str, VillagerFacts],
) -> None:
    knot = reply(market["aldo"], "Is it true the knots slip when someone lies?")
    # not "Every knot, I believe." nor its work: the belief said, or its yes to it
    assert re.search(r"slips .*lie|true", knot) and "rope-maker" not in knot, knot
    milk = reply(market["corm"], "does a stranger really sour the milk?")
    assert "sour" in milk and " if," not in milk and not milk.endswith(" if."), milk


def test_anywhere_to_get_something_asks_a_place_and_on_tap_asks_the_wares(
    market: dict[str, VillagerFacts],
) -> None:
    assert read_intent("is there anywhere to buy rope", market["corm"]).sub != "side"
    assert "Try the ropewalk" in reply(market["corm"], "is there anywhere to buy rope")
    wares = reply(market["bettany"], "what've you got on tap today?")
    assert "ale" in wares.lower() and "cider" in wares, wares
    assert read_intent("what's on tap?", market["bettany"]).kind is Kind.SELF


def test_an_opinion_names_its_person_once_and_a_mixed_one_answers_no_superlative(
    market: dict[str, VillagerFacts],
) -> None:
    fond = reply(market["corm"], "What's Bettany like?")
    assert "Fond of" in fond and "Fond of Bettany" not in fond, fond
    nicest = reply(market["aldo"], "who's the nicest person in the village?")
    assert "meanest" not in nicest, nicest  # "the meanest... but the best ale" is no answer


def test_what_it_fears_brought_near_frightens_it(market: dict[str, VillagerFacts]) -> None:
    for line in ("a storm is coming", "storm's rolling in over the hill, you going out?"):
        said = reply(market["bettany"], line)
        assert "hunderstorms" in said, (line, said)
    asked = reply(market["bettany"], "are you scared of storms?")  # asked of: said as its fear
    assert "hunderstorms" in asked, asked


def test_why_not_after_a_no_gives_its_reason(market: dict[str, VillagerFacts]) -> None:
    aldo = market["aldo"]
    why = reply(aldo, "race you to the top of beacon hill!", "why not?")
    assert "height" in why.lower(), why  # the fear behind the no
    bettany = market["bettany"]
    mood = PlayerLine(npc=bettany, said="").mood
    rule = reply(bettany, "how much for a jug of cider?", "ok, 5 then", "but why?")
    assert rule in line_table("why_rule", mood), rule
    asked = reply(aldo, "what do you sell?", "why?")  # nothing refused: no reason of a no
    assert asked not in line_table("why_rule", PlayerLine(npc=aldo, said="").mood), asked


def test_its_day_is_its_work_not_where_it_lives_nor_a_landmark_of_its_home(
    market: dict[str, VillagerFacts],
) -> None:
    dunn = market["dunn"]
    day = reply(dunn, "what did u do today")
    assert "hunt rats" in day and "live" not in day, day
    pond = reply(dunn, "which way to the willow pond?")
    assert "live in it" not in pond, pond  # the shed is near the pond, not in it
    assert shorter("twists hemp along the ropewalk east of the market cross")[1] == (
        "twists hemp along the ropewalk"
    )  # never "...the ropewalk east"


def test_its_free_time_asked_and_a_players_own_laugh(market: dict[str, VillagerFacts]) -> None:
    corm = market["corm"]
    assert read_intent("what do you like doing when ur not making cheese", corm).sub == "fun"
    assert read_intent("whats with you and redheads lol", corm).kind is not Kind.GESTURE
    assert read_intent("lol", corm).kind is Kind.GESTURE  # a laugh alone is met with one


def test_a_haggler_asks_an_offer_of_a_plea_and_meets_a_bid_halfway(
    market: dict[str, VillagerFacts],
) -> None:
    aldo = market["aldo"]
    mood = PlayerLine(npc=aldo, said="").mood
    for plea in ("any chance of a discount?", "would you take less?", "got anything cheaper?"):
        assert reply(aldo, plea) in line_table("haggle_ask", mood), plea
    for bid in ("I'll give you half", "ten yards of rope for a penny, deal?"):
        assert reply(aldo, bid) in line_table("haggle_back", mood), bid


def test_a_first_hello_naming_a_place_in_passing_is_met_with_a_hello(
    market: dict[str, VillagerFacts],
) -> None:
    bettany = market["bettany"]
    assert reply(bettany, "Evening! Busy night at the brewhouse?") == bettany.greeting
    assert "east" in reply(bettany, "hello, where's the ropewalk?")  # asked the way: the way


def test_a_when_question_is_answered_with_a_when_or_not_at_all(
    market: dict[str, VillagerFacts],
) -> None:
    for npc_id, line in (
        ("bettany", "when will the bridge be fixed?"),  # got who mends things
        ("corm", "when's the next feast?"),
        ("aldo", "when do the knots slip?"),  # got its belief of knots, no when
    ):
        npc = market[npc_id]
        said = reply(npc, line)
        assert said in line_table("when_unknown", PlayerLine(npc=npc, said=line).mood), said
    mood = PlayerLine(npc=market["aldo"], said="").mood
    years = reply(market["aldo"], "when did you start making rope?")  # how long: its years
    assert years not in line_table("when_unknown", mood), years


def test_really_stands_by_what_it_said(market: dict[str, VillagerFacts]) -> None:
    corm = market["corm"]
    mood = PlayerLine(npc=corm, said="").mood
    assert reply(corm, "does aldo ever pay his bills", "really?") in line_table("really_yes", mood)
    assert reply(corm, "really?") not in line_table("really_yes", mood)  # nothing said yet


def test_what_a_belief_keeps_something_from_is_said_with_it(
    market: dict[str, VillagerFacts],
) -> None:
    said = reply(market["bettany"], "does a sprig of rowan really keep the ale sweet?")
    assert "from souring" in said, said  # not "It keeps the ale."


@pytest.mark.parametrize(
    "line",
    [
        "come and sit with me on the market cross later",
        "want to grab a drink at the brewhouse later?",
        "fancy a stroll down to the willow pond later?",
        "I'll be at the market cross later",
    ],
)
def test_an_invitation_for_later_is_answered_not_the_place_described(
    market: dict[str, VillagerFacts], line: str
) -> None:
    npc = market["dunn"]
    assert read_intent(line, npc).sub == "invite", line
    said = reply(npc, line)
    assert "stalls" not in said and "copper" not in said and "willows" not in said, said


def test_a_word_of_the_fears_family_is_no_fear_brought_near(
    market: dict[str, VillagerFacts],
) -> None:
    said = reply(market["bettany"], "rain's coming, better bring the washing in")
    assert "hunderstorms" not in said, said  # rain is no thunderstorm


def test_an_offer_of_coin_or_a_price_called_steep_is_a_haggle(
    market: dict[str, VillagerFacts],
) -> None:
    aldo = market["aldo"]
    mood = PlayerLine(npc=aldo, said="").mood
    for line in ("I'll give you two silver for the lot", "That's a bit steep, how about four?"):
        assert reply(aldo, line) in line_table("haggle_back", mood), line
    steep = reply(market["bettany"], "that's a bit steep")  # one who never haggles
    assert "haggle" in steep or "prices" in steep, steep


def test_a_refusal_read_from_never_doing_is_said_with_its_plain_verb() -> None:
    assert unending("dropping a price without getting something back").startswith("drop a ")
    assert [unending(w) for w in ("making rope", "giving credit", "selling", "bring")] == [
        "make rope",
        "give credit",
        "sell",
        "bring",
    ]
