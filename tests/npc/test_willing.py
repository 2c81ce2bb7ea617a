"""Requests the persona decides, in a fen village no map of the game has: a deed it says it
does is a yes, a thing offered meets its likes and dislikes, a seller gives nothing free and
holds its prices, a refusal is touched by the thing refused and not by another deed asked of
it, and fears written as "X frightens her" or "would rather ... than" are read."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.wording import reads_back
from tests.npc.test_sheet_answers import Person, facts_of, reply, write_village

PLACES = [
    ("workshop", "A cluttered workshop of benches and shavings."),
    ("boathouse", "A reed-roofed boathouse on the fen."),
    ("orchard", "Rows of old pear trees behind a wall."),
]
FEN: list[Person] = [
    (
        "ansel",
        "Ansel",
        "Ansel carves spoons and bowls in his workshop and sells them at the market. He is "
        "dour and careful. He will not sell a bowl with a knot in the grain. Open water "
        "frightens him. He would rather starve than sing in front of people. He will not "
        "work on a feast day.",
        {"work": "workshop"},
    ),
    (
        "della",
        "Della",
        "Della builds punts in the boathouse. She is merry and loud. She still dances at "
        "every harvest supper, and she keeps a promise like a miser keeps gold. She loves "
        "pears and hates the smell of tar. She will not paint a punt red.",
        {"work": "boathouse"},
    ),
]
NO = re.compile(
    r"^\W*(?:\w+\W+){0,3}(?:no|not|nope)\b|\bI (?:don't|do not|won't|can't|cannot)\b", re.I
)
YES = re.compile(r"^\W*(?:\w+\W+)?(?:yes|aye|gladly|of course|course|i can)\b", re.I)


@pytest.fixture(scope="module")
def fen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("fen"), "fen", FEN, PLACES))


def said(npc: VillagerFacts, line: str) -> str:
    text, _ = reply(npc, line)
    assert not any(reads_back(text, persona) for _, _, persona, _ in FEN), text
    return text


def test_turns_of_phrase_are_read_as_fears_and_refusals(fen: dict[str, VillagerFacts]) -> None:
    sheet = fen["ansel"].sheet
    assert "open water" in sheet.fears
    assert any(r.startswith("sing") for r in sheet.refuses)
    assert not any("miser" in like for like in fen["della"].sheet.likes)  # a simile


def test_a_deed_its_persona_says_it_does_is_a_yes(fen: dict[str, VillagerFacts]) -> None:
    text = said(fen["della"], "Will you dance with me?")
    assert YES.search(text) and "dance" in text, text
    text = said(fen["della"], "Can you keep a promise?")
    assert YES.search(text) and "promise" in text, text
    text = said(fen["ansel"], "Will you sing for us tonight?")
    assert NO.search(text), text


def test_a_thing_offered_meets_its_likes_and_dislikes(fen: dict[str, VillagerFacts]) -> None:
    assert "pear" in said(fen["della"], "Want a pear? I picked them this morning.")
    text = said(fen["della"], "Would you like a pot of tar for your punts?")
    assert NO.search(text) and "tar" in text, text
    assert "thank" in said(fen["ansel"], "Want some cheese?").lower()


def test_a_seller_gives_nothing_free_and_holds_its_prices(fen: dict[str, VillagerFacts]) -> None:
    assert NO.search(said(fen["ansel"], "Can I have a spoon for free?"))
    assert NO.search(said(fen["ansel"], "Will you sell me a bowl cheaper?"))


def test_a_refusal_is_touched_by_what_it_refuses(fen: dict[str, VillagerFacts]) -> None:
    text = said(fen["ansel"], "Will you sell me a bowl with a knot in it? I don't mind.")
    assert NO.search(text) and "knot" in text, text
    assert not NO.search(said(fen["ansel"], "Will you teach me to carve a bowl?"))
    assert NO.search(said(fen["della"], "Will you paint my punt red?"))
    assert not NO.search(said(fen["della"], "Can you teach me to paint a punt?"))
    assert NO.search(said(fen["ansel"], "Could you mend my ladle on the feast day?"))


def test_a_fear_asked_of_what_it_loves_is_no_fear(fen: dict[str, VillagerFacts]) -> None:
    text = said(fen["della"], "Are you afraid of pears?")
    assert NO.search(text) and "pear" in text, text
