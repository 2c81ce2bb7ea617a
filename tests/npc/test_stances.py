"""The persona brain's stances on a harbour village no map of the game has: a refusal on a
condition, a quarrel under a keeper's roof, a pledge to take someone in, a claimed order to
hand goods over, a distrust a question touches, a no to another villager; and no line says
six words in a row of any villager's persona, its own or another's."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.life.news import asks_news
from game.npc.scripted.between import heard_plan
from game.npc.scripted.moods import mood_of
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import EMOTE
from game.wording import reads_back
from tests.npc.test_sheet_answers import Person, facts_of, reply, write_village

PLACES = [
    ("cottage", "A low cottage with bunches of herbs drying at the door."),
    ("tavern", "A low tavern by the quay, its benches worn smooth."),
    ("apiary", "Rows of straw hives at the edge of the heath."),
    ("quay", "A stone quay where the ferry puts out to the islands."),
    ("kiln", "A squat brick kiln behind the potter's yard."),
    ("chandlery", "A narrow shop of rope, tar and lanterns on the harbour front."),
]
HARBOUR: list[Person] = [
    (
        "bryn",
        "Bryn",
        "Bryn is the village midwife, and she brews tonics and salves for anyone who is sick "
        "or hurt.",
        {"work": "cottage"},
    ),
    (
        "hobb",
        "Hobb",
        "Hobb keeps the tavern by the quay and pours the darkest ale on the coast. He never "
        "turns a sailor away on a foggy night, paid or not, but he won't stand for a brawl "
        "under his roof.",
        {"work": "tavern"},
    ),
    (
        "marta",
        "Marta",
        "Marta keeps bees at the apiary and makes candles and honey cakes for the whole "
        "harbour. She is calm and dry, and she trusts nothing she cannot test for herself, "
        "least of all omens and fortune-tellers. She will not sell a candle to anyone who "
        "won't tell her what it is for.",
        {"work": "apiary"},
    ),
    (
        "runa",
        "Runa",
        "Runa is a cheerful, generous ferrywoman who gives credit to anyone with a kind word "
        "and sells rope and lobster on the quay.",
        {"work": "quay"},
    ),
    (
        "osric",
        "Osric",
        "Osric is a proud, exact potter who will never hurry a pot, whoever asks, and never "
        "fires the kiln while the wind is up.",
        {"work": "kiln"},
    ),
    (
        "wenna",
        "Wenna",
        "Wenna runs the chandlery on the harbour front and has sold rope and tar to three "
        "generations of sailors. She thinks Hobb waters his ale.",
        {"work": "chandlery"},
    ),
]
# A no: one early, or the deed said not done ("I'd love to help, but I don't hurry a pot").
NO = re.compile(
    r"^\W*(?:\w+\W+){0,2}(?:no|not|nope|nuh-uh)\b|\bI (?:don't|do not|won't|can't|cannot)\b",
    re.I,
)
YES = re.compile(r"^\W*(?:yes|yeah|aye|sure|of course|course|certainly)\b", re.I)


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("harbour"), "harbour", HARBOUR, PLACES))


def said(npc: VillagerFacts, line: str) -> str:
    text, _ = reply(npc, line)
    assert not any(reads_back(text, persona) for _, _, persona, _ in HARBOUR), text
    return text


def test_a_refusal_on_a_condition_says_what_would_make_it_a_yes(
    harbour: dict[str, VillagerFacts],
) -> None:
    for line in (
        "Just sell me a candle, and don't ask me what it's for.",
        "Give me a candle, no questions asked.",
    ):
        text = said(harbour["marta"], line)
        assert re.search(r"\bnot unless you tell me\b", text, re.I), (line, text)
        assert re.search(r"\bwhat it is for\b|\bwhat it's for\b", text), text
    assert "tell me what it is for" in " ".join(harbour["marta"].sheet.refuses)


def test_a_quarrel_under_its_roof_is_refused(harbour: dict[str, VillagerFacts]) -> None:
    for line in (
        "That ferrywoman owes me money. I'm going to have it out with her right here!",
        "Will you hold my coat? I'm about to fight the potter at your bar.",
    ):
        text = said(harbour["hobb"], line)
        assert NO.search(text) and re.search(r"\bbrawls?\b", text), (line, text)


def test_another_villager_is_told_of_in_a_few_words_not_their_persona(
    harbour: dict[str, VillagerFacts],
) -> None:
    text = said(harbour["hobb"], "Who is Wenna?")
    assert "Wenna" in text and re.search(r"chandlery|rope|tar", text), text


def test_a_claimed_order_to_hand_goods_over_is_met_with_a_no(
    harbour: dict[str, VillagerFacts],
) -> None:
    runa = harbour["runa"]
    for line, word in (
        ("The harbour council has decreed that ferrywomen must give away their rope. Hand "
         "it over.", "decree"),
        ("By order of the mayor, you have to give me your lobster.", "order"),
    ):  # fmt: skip
        text = said(runa, line)
        assert word in text.lower() and re.search(r"\bno\b|nice try", text, re.I), (line, text)
    text = said(runa, "Could I have some rope? I'll pay you next week.")
    assert not re.search(r"nice try", text, re.I), text  # a plain ask is her generosity's


def test_a_pledge_is_a_yes(harbour: dict[str, VillagerFacts]) -> None:
    text = said(harbour["hobb"], "It's foggy out and I've no coin. Could I have a bed tonight?")
    assert YES.search(text) and "sailor away" in text, text
    text = said(harbour["hobb"], "Will you let me start a brawl here?")
    assert not YES.search(text), text


def test_a_distrust_is_a_stance_the_question_touches(harbour: dict[str, VillagerFacts]) -> None:
    assert "omens and fortune-tellers" in harbour["marta"].sheet.dislikes
    text = said(harbour["marta"], "Will this omen bring me luck at sea?")
    assert re.search(r"omens", text, re.I) and not YES.search(text), text


def test_a_villager_is_refused_to_their_face(harbour: dict[str, VillagerFacts]) -> None:
    osric = harbour["osric"]
    mood = mood_of(osric.persona, osric.sheet.talks)
    for turn in range(4):
        plan = heard_plan(
            osric, mood, "Hobb", "Osric, will you hurry my jug?", turn=turn, replies=[], sensed=None
        )
        text = " ".join(s.text for s in map(said_by, plan) if s is not None)
        assert "Hobb" in text and re.search(r"\bhurry\b", text) and NO.search(text), text
        assert not reads_back(text, osric.persona), text


def test_news_told_gets_a_reaction_and_what_it_makes_of_it(
    harbour: dict[str, VillagerFacts],
) -> None:
    told = "Did you hear? Hobb's dog got into the kiln and broke Osric's best jug."
    for npc_id in ("wenna", "runa", "marta"):
        npc = harbour[npc_id]
        first = said(npc, told)
        assert "Hobb's dog" in first, (npc_id, first)
        plan = answer(
            PlayerLine(
                npc=npc, said="What do you make of that?", turn=1, earlier=[told], replies=[first]
            )
        )
        then = " ".join(s.text for s in map(said_by, plan) if s is not None)
        assert "Hobb" in then and then != first, (npc_id, then)
    assert "waters his ale" in said(harbour["wenna"], told).lower()  # what she thinks of him
    plain = "Hobb's dog chased the ferry cat into the sea."  # told without saying it is news
    plan = answer(
        PlayerLine(npc=harbour["runa"], said="What do you make of that?", earlier=[plain])
    )
    assert "Hobb's dog" in " ".join(s.text for s in map(said_by, plan) if s is not None)
    assert asks_news("Have you heard? What's new?") and not asks_news(told)
    event = said(harbour["runa"], "Have you heard? There's a dance on the quay tonight.")
    assert "dance" in event.lower(), event


def test_a_maker_asked_what_would_help_answers_from_its_work(
    harbour: dict[str, VillagerFacts],
) -> None:
    asked = "Have a think for me: what would help a sore throat that won't go away?"
    plan = answer(PlayerLine(npc=harbour["bryn"], said=asked))
    assert any(getattr(s, "skill", None) is EMOTE for s in plan), plan
    text = " ".join(s.text for s in map(said_by, plan) if s is not None)
    assert re.search(r"\btonics or salves\b", text), text
    assert "tonics" in said(harbour["bryn"], "What would ease my aching chest?")
    for npc_id in ("marta", "hobb"):  # candles are for the harbour, not the sick
        text = said(harbour[npc_id], "What would help a sore throat?")
        assert not re.search(r"\bone of my\b", text), (npc_id, text)
