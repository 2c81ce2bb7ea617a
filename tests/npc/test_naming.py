"""What a line names comes from the map: a harbour village no map of the game has, whose
trades, places and roles are read from its personas, properties and places."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind, Named

from .harbour import PLACES, harbour_facts, said


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return harbour_facts(tmp_path_factory.mktemp("harbour"))


@pytest.mark.parametrize(
    ("line", "who"),
    [
        ("Who runs the windmill?", "Dagny"),
        ("Who keeps the lighthouse?", "Fenwick"),
        ("Who looks after the chapel's records?", "Sister Agathe"),
        ("Who keeps the tavern?", "Hobb"),
        ("Who works at the pottery?", "Tilde"),
        ("Who's the miller around here?", "Dagny"),
        ("Who makes the jugs?", "Tilde"),
    ],
)
def test_a_role_stated_in_words_finds_the_villager(
    harbour: dict[str, VillagerFacts], line: str, who: str
) -> None:
    intent = read_intent(line, harbour["hobb" if who != "Hobb" else "tilde"])
    assert intent.kind is Kind.PERSON, intent
    assert intent.target is not None and intent.target.name == who


@pytest.mark.parametrize(
    ("asker", "line", "who", "where"),
    [
        ("hobb", "Who runs the windmill?", "Dagny", "windmill"),
        ("tilde", "Who keeps the lighthouse?", "Fenwick", "lighthouse"),
        ("dagny", "Who looks after the chapel's records?", "Agathe", "chapel"),
    ],
)
def test_who_does_it_is_answered_with_a_name_and_where(
    harbour: dict[str, VillagerFacts], asker: str, line: str, who: str, where: str
) -> None:
    assert read_intent(line, harbour[asker]).sub == "where"  # the keeper, and where they are
    text = said(harbour[asker], line)
    assert who in text and where in text, text
    for place in PLACES:  # the name, not what the place looks like
        assert place[5].split(" with ")[0] not in text, text


@pytest.mark.parametrize(
    "line",
    [
        "Where can I get a pot mended?",
        "Where can I get a pot made?",
        "I need a new jug. Who could make me one?",
    ],
)
def test_a_thing_made_or_mended_finds_who_does_it(
    harbour: dict[str, VillagerFacts], line: str
) -> None:
    intent = read_intent(line, harbour["agathe"])
    assert intent.target is not None and intent.target.name == "Tilde", intent
    assert "Tilde" in said(harbour["agathe"], line)


@pytest.mark.parametrize(
    "line",
    [
        "What do you think of the lighthouse keeper?",
        "Tell me about the lighthouse keeper.",
        "Where can I find the lighthouse keeper?",
    ],
)
def test_the_keeper_of_a_place_is_a_person_not_the_place(
    harbour: dict[str, VillagerFacts], line: str
) -> None:
    intent = read_intent(line, harbour["dagny"])
    assert intent.kind is Kind.PERSON, intent
    assert intent.target is not None and intent.target.name == "Fenwick"
    assert read_intent("Where's the tavern keeper?", harbour["dagny"]).target.name == "Hobb"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("line", "place"),
    [
        ("Take me to the mill.", "windmill"),
        ("Take me to the tavern.", "tavern"),
        ("Show me the way to the potter's.", "pottery"),
        ("Lead me to the lighthouse keeper's place.", "lighthouse"),
    ],
)
def test_a_place_is_found_by_its_trade_and_its_keeper(
    harbour: dict[str, VillagerFacts], line: str, place: str
) -> None:
    intent = read_intent(line, harbour["agathe"])
    assert intent.kind is Kind.GO and intent.target is not None, intent
    assert intent.target.kind is Named.PLACE and intent.target.name == place, intent


def test_a_trade_in_a_place_name_alone_is_the_person() -> None:
    from pathlib import Path

    from game.npc.known import villager_facts
    from game.world.tiled import load_map
    from game.world.world import World

    world = World(load_map(Path(__file__).resolve().parents[2] / "maps" / "stonereach.tmx"))
    ilse = villager_facts(world, "ilse")
    miner = read_intent("That miner owes me money!", ilse).target
    assert miner is not None and miner.name == "Garrow", miner
    cottage = read_intent("Take me to the miner's cottage.", ilse).target
    assert cottage is not None and cottage.name == "miner_cottage", cottage


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("wheres ur hut", "where's your hut"),
        ("ill pay u next week ok", "I'll pay you next week ok"),
        ("gimme ten", "give me ten"),
        ("ur a snob", "you're a snob"),
        ("let me thru for free pls", "let me through for free please"),
        ("Im gonna have it out with him", "I'm going to have it out with him"),
        ("y r u here?", "why are you here?"),
        ("yo wassup teach", "yo what's up teach"),
        # what is no chat spelling stays as it is
        ("I feel ill today", "I feel ill today"),
        ("Vitamin K, a u-turn, Ur of the Chaldees", "Vitamin K, a u-turn, Ur of the Chaldees"),
        ("I'm Ty", "I'm Ty"),
    ],
)
def test_chat_spellings_are_read_written_out(typed: str, read: str) -> None:
    from game.npc.reading.words import spelt_out

    assert spelt_out(typed) == read
    assert spelt_out(read) == read  # reading it twice changes nothing


def test_a_typed_line_is_answered_as_if_spelt_out(harbour: dict[str, VillagerFacts]) -> None:
    from game.npc.scripted.speaker import PlayerLine
    from game.npc.scripted.talk import answer

    hobb = harbour["hobb"]
    for typed, spelt in [
        ("wheres the windmill", "where's the windmill"),
        ("whos ur favourite", "who's your favourite"),
        ("ill pay u next week ok", "I'll pay you next week ok"),
    ]:
        got, wanted = (answer(PlayerLine(npc=hobb, said=line)) for line in (typed, spelt))
        assert got == wanted, typed


@pytest.mark.parametrize(
    "said",
    [
        *("sup", "how do", "hiya!", "well met", "Oi!", "heyy", "helo", "hiii"),
        *("Nice to meet you.", "Pleased to meet you!", "Excuse me!", "Pardon me, miss?"),
        "Sorry to bother you.",
        *("Good morrow!", "Wenna! Hello!", "Top of the morning!", "Mornin'!", "Evenin'"),
        *("G'morning", "Gday", "Hey Wenna, good to see you.", "Lovely to see you!"),
        *("Long time no see!", "Wotcha!", "A good evening to you, Wenna."),
    ],
)
def test_a_hello_in_any_words_is_a_greeting(harbour: dict[str, VillagerFacts], said: str) -> None:
    assert read_intent(said, harbour["hobb"]).kind is Kind.GREET


@pytest.mark.parametrize(
    "said",
    [
        "how do I get to the windmill?",
        "what's up at the tavern?",
        "Excuse me, where is the windmill?",
        "Sorry to bother you, but do you sell rope?",
        "Oil for my lamp?",
    ],
)
def test_a_question_that_opens_like_a_hello_is_no_greeting(
    harbour: dict[str, VillagerFacts], said: str
) -> None:
    assert read_intent(said, harbour["hobb"]).kind is not Kind.GREET
