"""Stances a persona says in turns of phrase, read onto the sheet and answered in
character: a fear said by what it does to one, a refusal said of the thing refused, a
disbelief, a dislike said thing first."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts
from game.npc.sheet.turns import turned
from tests.npc.test_sheet_answers import COAST_PLACES, NO, Person, facts_of, reply, write_village

PEOPLE: list[Person] = [
    (
        "bram",
        "Bram",
        "Bram keeps pigs and sells bacon and lard. He never lets a price drop without a fight.",
        {},
    ),
    (
        "vell",
        "Vell",
        "Vell is the cooper who makes casks in his shed. He keeps no slate for "
        "anybody. Dogs frighten the life out of him since one bit him as a boy. The way he bends "
        "a stave without steam is a secret he will take to his grave.",
        {},
    ),
    (
        "rue",
        "Rue",
        "Rue sells candles from her stall. Her grey cat Smoke is not for sale at any "
        "price. Climbing a ladder makes her go weak at the knees. She does not believe in ghosts "
        "at all. Fortune-tellers she holds in contempt. No one in the village goes without "
        "light while her stall is open.",
        {"wares": "candles, tapers"},
    ),
    (
        "hale",
        "Hale",
        "Hale mends nets by the slip. No one hurries his nets. Nothing would get "
        "him into the chapel. His charts do not leave the shed on loan. He cannot abide "
        "shouting or rough play near his nets.",
        {},
    ),
]


@pytest.fixture(scope="module")
def folk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("turns"), "turns", PEOPLE, COAST_PLACES))


def test_the_turns_of_phrase_are_read_onto_the_sheet(folk: dict[str, VillagerFacts]) -> None:
    vell, rue, hale = folk["vell"].sheet, folk["rue"].sheet, folk["hale"].sheet
    assert "credit" in vell.refuses
    assert "dogs" in vell.fears
    assert any(r.startswith("teach anyone how I bend a stave") for r in vell.refuses)
    assert any(r.startswith("sell my grey cat") for r in rue.refuses)
    assert "climbing a ladder" in rue.fears
    assert not any("ghost" in b.what for b in rue.beliefs)
    assert any("ghosts" in d for d in rue.dislikes)
    assert "fortune-tellers" in rue.dislikes
    assert not any(r.startswith(("in ", "go")) for r in rue.refuses)  # a kindness, no refusal
    assert not any(r.startswith(("in ", "go")) for r in rue.refuses)  # a kindness, no refusal
    assert any(r.startswith("hurry my nets") for r in hale.refuses)
    assert any("into the chapel" in r for r in hale.refuses)
    assert any(r.startswith("lend my charts") for r in hale.refuses)


@pytest.mark.parametrize(
    ("npc_id", "said", "word"),
    [
        ("vell", "Put the cask on my tab, would you?", ""),
        ("vell", "Teach me to bend a stave without steam?", "stave"),
        ("rue", "I'll give you a crown for Smoke. Deal?", "cat"),
        ("hale", "Can I borrow your charts till Friday?", "chart"),
        ("hale", "Could you hurry my nets? I need them today.", "net"),
        ("hale", "Let's have a wrestling match right here!", "rough"),
        ("bram", "Five pennies off the bacon and we have a deal?", "price"),
    ],
)
def test_a_request_named_by_another_word_is_refused_in_character(
    folk: dict[str, VillagerFacts], npc_id: str, said: str, word: str
) -> None:
    text, _ = reply(folk[npc_id], said)
    assert NO.search(text), text
    assert word in text.lower(), text


@pytest.mark.parametrize("said", ["Tell me about the chapel.", "Tell me about the chapel, please."])
def test_asked_to_tell_of_a_place_it_will_not_enter_it_tells(
    folk: dict[str, VillagerFacts], said: str
) -> None:
    """ "Tell me about the chapel" asks to be told, not to go in: no refusal's "I won't"."""
    text, walks = reply(folk["hale"], said)
    assert not NO.search(text) and "bell" in text and not walks, text


@pytest.mark.parametrize(
    ("clause", "fears"),
    [
        ("Fire does not scare her, but the flooded pit does", [("fears", "the flooded pit")]),
        ("Storms never frighten him", []),
        ("Deep water frightens her", [("fears", "deep water")]),
    ],
)
def test_a_fear_denied_is_no_fear(clause: str, fears: list[tuple[str, str]]) -> None:
    """ "Fire does not scare her" was read as a fear of "fire does not"."""
    assert turned(clause) == fears


def test_a_fear_finished_in_the_next_clause_is_its_fear() -> None:
    assert turned("the flooded pit does", "Fire does not scare her") == [
        ("fears", "the flooded pit")
    ]
    assert turned("the mill does", "He runs the bakery") == []
