"""A market village at a ford (a potter, a schoolmistress, a beekeeper, a tanner, a
chimney sweep, a rat-catcher), talked to as a player would: a fear is found by its
irregular plural and by what shows it near, a belief keeps its verb and its doer, a nod
asked on a thing refused is a shake, news told with a question is reacted to, a role is
found by a word it is made with, and a price refused is no price."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import PlaceFact, SensedFacts, VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.reading.intent import asked_actions
from game.npc.reading.naming import place_label
from game.npc.reading.words import stem
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import SkillCall
from tests.npc.test_play_script import request
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PEOPLE: list[Person] = [
    (
        "cuthbert",
        "Cuthbert",
        "Cuthbert is the potter: he throws jugs, bowls and pots and fires them in his kiln. "
        "He is proud and fussy. He never sells a cracked pot, not even for a farthing. He is "
        "afraid of the dark, and he believes a drowned potter haunts the clay pit.",
        {"work": "kiln", "wares": "jugs, bowls and pots"},
    ),
    (
        "prudence",
        "Miss Prudence",
        "Miss Prudence is the schoolmistress: she teaches the village children their letters "
        "in the school. She is strict and formal. She never lets a child leave before the "
        "bell. She is afraid of mice, and she believes the Giant's Stone was set there by "
        "real giants long ago.",
        {"work": "school"},
    ),
    (
        "winnie",
        "Winnie",
        "Winnie keeps the bees in the bee meadow and sells beeswax candles. She is chatty and "
        "warm. She never opens a hive when it rains. She is afraid of geese. She believes "
        "you must tell the bees whenever somebody in the village dies, or they will fly away.",
        {"work": "meadow", "wares": "beeswax candles"},
    ),
    (
        "gideon",
        "Gideon",
        "Gideon is the tanner: he cures hides by his shed and sells leather, straps and "
        "belts. He is gruff and blunt. He is afraid of horses, and he believes a horseshoe "
        "over the door keeps out bad luck.",
        {"work": "tannery", "wares": "leather, straps and belts"},
    ),
    (
        "sal",
        "Sal",
        "Sal is the young chimney sweep: she climbs and brushes the chimneys of the village. "
        "She is cheeky and sings while she works, and she daydreams about the sea. She "
        "will never go up a chimney while a "
        "fire is lit below, not for any money. She is afraid of deep water. She believes "
        "shaking a sweep's hand brings luck for a year.",
        {"work": "lodging"},
    ),
    (
        "osric",
        "Osric",
        "Osric is the rat-catcher: he traps rats in barns and sells traps from his shed. He "
        "is sly and loves riddles. He is afraid of bees. He will never set a trap where a "
        "cat might step in it. He "
        "believes the rats hold meetings under the school. He thinks Sal's singing is "
        "dreadful.",
        {"work": "shed", "wares": "rat traps"},
    ),
]
PLACES = [
    ("kiln", "Cuthbert's kiln yard in the north-east corner, with racks of pots."),
    ("school", "The schoolhouse on the east side of the square, with a bell over the door."),
    ("meadow", "The bee meadow in the north-west, with a row of straw hives."),
    ("tannery", "Gideon's tannery on the west side, with hides stretched on frames."),
    ("lodging", "Sal's lodging, a tiny room over the coal store."),
    ("shed", "Osric's shed in the south-east corner, full of traps and cages."),
    ("tarn", "The millpond south of the square, deep and green, with reeds."),
    ("pit", "The clay pit north of the village, a wet grey hollow with planks over the mud."),
]


@pytest.fixture(scope="module")
def ford(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("ford"), "ford", PEOPLE, PLACES))


def plan(npc: VillagerFacts, line: str, hour: float = 12.0) -> tuple[str, list[str]]:
    """What the NPC says to a line at `hour`, and the emotes it makes."""
    steps = answer(PlayerLine(npc=npc, said=line, sensed=SensedFacts(hour=hour)))
    text = " ".join(s.text for s in map(said_by, steps) if s is not None)
    emotes = [
        str(s.arguments().get("name"))
        for s in steps
        if isinstance(s, SkillCall) and s.skill.name == "emote"
    ]
    return text, emotes


def test_a_fear_is_found_by_its_plural_and_by_what_shows_it_near(
    ford: dict[str, VillagerFacts],
) -> None:
    assert stem("mice") == "mouse" and stem("horses") == "horse" and stem("boxes") == "box"
    mouse, _ = plan(ford["prudence"], "There's a mouse under your desk!")
    assert "mice" in mouse.lower(), mouse
    horse, _ = plan(ford["gideon"], "Can you hold my horse for a minute?")
    assert "horses" in horse.lower() and re.search(r"\bno\b|\bnot\b", horse, re.I), horse
    swim, _ = plan(ford["sal"], "Fancy a swim in the millpond?")
    assert "water" in swim.lower(), swim


def test_a_belief_keeps_its_verb_its_particle_and_its_doer() -> None:
    rats = claim_phrases("the rats hold meetings under the schoolhouse", named=True)
    assert rats[0] == "The rats? They hold meetings under the schoolhouse", rats
    shoe = claim_phrases("a horseshoe over the door keeps out bad luck", named=True)
    assert all(not p.endswith("keeps") for p in shoe) and "It keeps out bad luck" in shoe
    stone = claim_phrases("the Giant's Stone was set there by real giants long ago")
    assert "The Giant's Stone? Set there by real giants" in stone
    assert "The Giant's Stone? Set there" not in stone, stone
    hawk = claim_phrases("a hawk that circles the Cross three times means a wedding", named=True)
    assert "A hawk? It means a wedding" in hawk, hawk  # "three times" is no verb
    assert not any("It times" in p for p in hawk), hawk


def test_a_nod_asked_of_a_thing_refused_is_a_shake(ford: dict[str, VillagerFacts]) -> None:
    line, emotes = plan(
        ford["osric"], "Would you sell a trap to someone with a cat? Nod if you would."
    )
    assert emotes == ["shake_head"] and re.search(r"\bno\b|\bnot\b|n't", line, re.I), line
    bees, emotes = plan(ford["winnie"], "Would you ever sell your bees? Shake your head if not.")
    assert emotes == ["shake_head"] and "hive" not in bees.lower(), bees


def test_news_told_with_a_question_is_reacted_to(ford: dict[str, VillagerFacts]) -> None:
    line, _ = plan(
        ford["winnie"],
        "Did you hear? Osric's ferret got loose in the schoolhouse. What do you make of that?",
    )
    assert "Osric's ferret" in line and "bell" not in line, line


def test_a_riddle_is_thought_over(ford: dict[str, VillagerFacts]) -> None:
    line, emotes = plan(ford["osric"], "Here's a riddle for you: what has a tail but no body?")
    assert emotes == ["think"] and "riddles" not in line.lower(), line


def test_a_role_is_found_by_the_word_it_is_made_with(ford: dict[str, VillagerFacts]) -> None:
    who, _ = plan(ford["osric"], "Who runs the school?")
    assert "Prudence" in who, who
    assert place_label(PlaceFact(name="market", description="Market stalls selling fruit.")) == (
        "the market"
    )
    assert place_label(PlaceFact(name="cross", description="Fordham Cross, the square.")) == (
        "Fordham Cross"
    )


def test_a_price_refused_is_no_price(ford: dict[str, VillagerFacts]) -> None:
    line, _ = plan(ford["cuthbert"], "How much is a jug?")
    assert "farthing" not in line, line


def test_a_refusal_is_touched_in_other_words(ford: dict[str, VillagerFacts]) -> None:
    early, _ = plan(ford["prudence"], "Could you let the children out early today? It's a holiday.")
    assert "bell" in early and re.match(r"\W*(?:no|not|hmph)\b", early, re.I), early
    rain, _ = plan(ford["winnie"], "It's pouring down. Fancy opening a hive to show me?")
    assert "rain" in rain, rain
    fire, _ = plan(ford["sal"], "Can you sweep my chimney now? I've got a fire going.")
    assert "fire is lit" in fire, fire  # not "Not while a fire!"
    scared, _ = plan(ford["sal"], "Do you ever get scared up in the chimneys?")
    assert "water" in scared and "fire" not in scared, scared  # a question, no request
    pot, _ = plan(ford["cuthbert"], "Will you sell me that cracked bowl for a penny?")
    assert "crackeds" not in pot, pot


def test_harm_owned_up_to_and_scorn_are_met_as_such(ford: dict[str, VillagerFacts]) -> None:
    jug, _ = plan(ford["cuthbert"], "I broke one of your jugs. Sorry.")
    assert "One of my jugs?" in jug, jug
    talk, _ = plan(ford["winnie"], "You talk too much, Winnie.")
    assert "price" not in talk and "best things" not in talk, talk


def test_a_story_is_no_store_and_anything_feared_is_named(
    ford: dict[str, VillagerFacts],
) -> None:
    story, _ = plan(ford["osric"], "Tell me a story.")
    assert "coal" not in story and "rats" in story, story
    mice, _ = plan(ford["prudence"], "Are you scared of anything?")
    assert "mice" in mice.lower() and "another matter" not in mice, mice


def test_a_fright_is_no_word_on_staying_in(ford: dict[str, VillagerFacts]) -> None:
    line, _ = plan(ford["prudence"], "There's a mouse under your desk!")
    assert not re.search(r"\bstay(?:ing)? in\b|\bindoors\b", line), line


@pytest.mark.parametrize(
    ("npc", "line", "said"),
    [
        ("prudence", "There's a mouse under your desk!", "Mice"),
        ("cuthbert", "I broke one of your jugs. Sorry.", "One of my jugs?"),
        ("winnie", "Did you hear? Osric's ferret got loose. What do you make of that?", "ferret"),
    ],
)
def test_the_bundled_models_line_starts_with_the_sheets_reaction(
    ford: dict[str, VillagerFacts], npc: str, line: str, said: str
) -> None:
    lead = lead_of(request(line).model_copy(update={"npc": ford[npc]}))
    assert said in lead, lead  # its own was "I know, it's my fault."


def test_a_thing_of_elsewhere_is_no_look_and_a_daydream_is_a_like(
    ford: dict[str, VillagerFacts],
) -> None:
    steps = answer(
        PlayerLine(npc=ford["gideon"], said="Can you check my phone for me?", sensed=None)
    )
    skills = [s.skill.name for s in steps if isinstance(s, SkillCall)]
    assert skills == ["say"], steps  # no look about it
    assert "the sea" in ford["sal"].sheet.likes


def test_the_oldest_or_youngest_is_the_one_called_so(ford: dict[str, VillagerFacts]) -> None:
    young, _ = plan(ford["osric"], "Who's the youngest person here?")
    assert "Sal" in young, young  # "Sal is the young chimney sweep"


def test_why_a_belief_is_held_is_its_reason(ford: dict[str, VillagerFacts]) -> None:
    line, _ = plan(ford["winnie"], "Why do you tell the bees things?")
    assert "or they will fly away" in line, line


def test_the_head_goes_with_the_answer(ford: dict[str, VillagerFacts]) -> None:
    geese, emotes = plan(ford["winnie"], "Winnie, do you like geese? Nod or shake your head.")
    assert emotes == ["shake_head"] and "geese" in geese.lower(), geese
    stone, emotes = plan(ford["prudence"], "Are the giants real? Shake your head if they're not.")
    assert emotes == ["nod"] and "giants" in stone, stone  # she believes it: no shake


def test_a_thing_of_theirs_is_no_place(ford: dict[str, VillagerFacts]) -> None:
    bees, _ = plan(ford["gideon"], "What do you think about Winnie's bees?")
    assert "Winnie" in bees and "meadow" not in bees, bees


def test_a_nod_on_a_neighbour_goes_with_its_opinion(ford: dict[str, VillagerFacts]) -> None:
    sung, emotes = plan(ford["osric"], "Sal's a lovely singer, isn't she? Nod if so.")
    assert emotes == ["shake_head"] and "dreadful" in sung, sung
    smell, _ = plan(ford["cuthbert"], "Smell that? Something's burning in the dark.")
    assert "dark" in smell.lower(), smell  # its fear, not "ask me another day"
    dip, _ = plan(ford["sal"], "Fancy a dip?")
    assert "water" in dip.lower() or "swim" in dip.lower(), dip  # no dip to eat


@pytest.mark.parametrize(
    ("npc", "line", "said"),
    [
        ("winnie", "People say you're scared of geese.", "geese"),
        ("prudence", "I heard you think giants set the Giant's Stone. Is that right?", "giants"),
        ("gideon", "Is it true that you're afraid of horses?", "horses"),
    ],
)
def test_what_is_said_of_it_is_answered_as_asked(
    ford: dict[str, VillagerFacts], npc: str, line: str, said: str
) -> None:
    reply, _ = plan(ford[npc], line)
    assert said in reply.lower() or said in reply, reply
    assert "best things" not in reply and "always something" not in reply, reply


def test_a_word_a_fear_only_starts_is_no_fright(ford: dict[str, VillagerFacts]) -> None:
    shoe, _ = plan(ford["gideon"], "You don't really believe in lucky horseshoes, do you?")
    assert "horseshoe" in shoe.lower() and "Horses?" not in shoe, shoe


def test_a_refusal_where_is_refused_only_there(ford: dict[str, VillagerFacts]) -> None:
    cat, _ = plan(ford["osric"], "Set a trap by the cat's bowl, please.")
    assert "cat" in cat and re.search(r"\bno\b", cat, re.I), cat
    sold, _ = plan(ford["osric"], "Sell me a trap, please.")
    assert not re.search(r"\bno\b|\bnot\b", sold, re.I), sold
    short, _ = plan(ford["winnie"], "Let me have a candle now, I'm a bit short today.")
    assert re.search(r"\bno\b|coin|money|slate|tick", short, re.I), short


def test_what_a_neighbour_sells_is_said(ford: dict[str, VillagerFacts]) -> None:
    wares, _ = plan(ford["osric"], "What does Cuthbert sell?")
    assert "jugs, bowls and pots" in wares.lower(), wares


def test_a_walk_to_someones_things_is_to_their_place(ford: dict[str, VillagerFacts]) -> None:
    hives, _ = plan(ford["osric"], "Let's go and look at Winnie's hives together.")
    assert "bees" in hives.lower() and re.search(r"\bno\b|n't|\bnot\b", hives, re.I), hives
    assert asked_actions("Can you check my phone for me?", ford["gideon"]) == []


def test_a_bid_is_heard_in_any_verb_and_a_thing_by_how_it_is(
    ford: dict[str, VillagerFacts],
) -> None:
    no = re.compile(r"\b(?:no|not|never|nuh-uh)\b", re.I)
    fire, _ = plan(ford["sal"], "Sweep my chimney now, the fire's only just lit, it won't hurt.")
    assert "fire" in fire and no.search(fire), fire  # it was "Yes! Of course!"
    rain, _ = plan(ford["winnie"], "Open a hive for me, never mind the rain.")
    assert "rain" in rain, rain
    bees, _ = plan(ford["winnie"], "Show me your bees.")
    assert "rain" not in bees, bees  # refused only when it rains
    boy, _ = plan(ford["prudence"], "Can my boy leave early today? He's got a cough.")
    assert "bell" in boy and no.search(boy), boy  # it was "You ask me? I never let."
    crack, _ = plan(ford["cuthbert"], "This jug has a tiny crack, but I'll take it for a penny.")
    assert "cracked" in crack, crack  # not haggling's "I don't come down on my prices"
    pots, _ = plan(ford["cuthbert"], "Do you sell pots?")
    assert "cracked" not in pots, pots
    wheel, _ = plan(ford["cuthbert"], "Let me have a go on your wheel, I'll be careful.")
    assert "My wheel" in wheel, wheel


def test_a_fight_threatened_here_is_refused(ford: dict[str, VillagerFacts]) -> None:
    line = "I'm going to thump that tanner right here in your schoolroom!"
    said, _ = plan(ford["prudence"], line)
    assert re.search(r"\bhere\b", said) and "tanner" not in said, said
    lead = lead_of(request(line).model_copy(update={"npc": ford["prudence"]}))
    assert lead.startswith(said[:12]), lead  # it was "That'd be Gideon. The tanner."


def test_a_fear_is_found_by_its_kin_and_before_news(ford: dict[str, VillagerFacts]) -> None:
    hives, _ = plan(ford["osric"], "Want to come and see the hives in the bee meadow with me?")
    assert "bees" in hives.lower(), hives  # it was the meadow described
    dark, _ = plan(
        ford["cuthbert"], "Come down to the clay pit with me after dark, I dropped my knife there."
    )
    assert "dark" in dark.lower() and "knife" not in dark, dark


def test_a_question_of_its_trade_is_no_word_on_a_belief(ford: dict[str, VillagerFacts]) -> None:
    line, _ = plan(ford["sal"], "Will you be sweeping chimneys tomorrow?")
    assert "luck" not in line, line
    luck, _ = plan(ford["sal"], "Is it lucky to shake a sweep's hand?")
    assert "luck" in luck, luck
