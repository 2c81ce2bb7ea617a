"""A price asked, or a thing asked for to buy, is answered from the persona: the price it
states for that thing, a sale when it sells the thing but states no price, and the refusal
that covers the thing; never a mood line or a place read out instead."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PLACES = [
    ("loft", "A dusty loft above the lane, strung with drying herbs."),
    ("yard", "A yard of stacked slate and broken tiles."),
    ("kiosk", "A painted kiosk on the corner, shutters open at noon."),
]
PEOPLE = [
    (
        "petra",
        "Petra",
        "Petra dyes wool in the loft. A skein of blue wool costs five coppers and a red one "
        "costs eight coppers. She laughs a lot.",
        {},
    ),
    (
        "hale",
        "Hale",
        "Slater. Splits and sells roof slates, two silver a dozen. Never gives credit.",
        {},
    ),
    (
        "ines",
        "Ines",
        "She sells maps and charts from her kiosk, and she will not sell the old sea chart "
        "that hangs behind the counter.",
        {},
    ),
    (
        "bryn",
        "Bryn",
        "Bryn hums while she works. She sells nettle balm for stings and rashes.",
        {},
    ),
]


@pytest.fixture(scope="module")
def lane(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("lane"), "lane", PEOPLE, PLACES))


def test_a_price_asked_is_the_price_stated_for_that_thing(
    lane: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(lane["petra"], "How much is the red wool?")
    assert "eight coppers" in said.lower(), said
    said, _ = reply(lane["petra"], "What does a skein of blue cost?")
    assert "five coppers" in said.lower(), said
    said, _ = reply(lane["hale"], "How much for the slates?")
    assert "two silver a dozen" in said.lower(), said


def test_a_thing_asked_for_is_sold_at_its_price(lane: dict[str, VillagerFacts]) -> None:
    said, walks = reply(lane["petra"], "I'll take a blue one.")
    assert "five coppers" in said.lower() and not walks, said
    said, walks = reply(lane["hale"], "Sell me some slates.")
    assert "two silver" in said.lower() and not walks, said  # not the yard described


def test_a_thing_sold_without_a_stated_price_is_named_not_dodged(
    lane: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(lane["ines"], "How much are your maps?")
    assert "maps" in said.lower() and "price" in said.lower(), said
    said, _ = reply(lane["ines"], "Can I buy a map?")
    assert "map" in said.lower() and not re.search(r"\bno\b", said, re.I), said


def test_a_refused_thing_is_refused_and_credit_still_wins(
    lane: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(lane["ines"], "Sell me the sea chart behind the counter.")
    assert re.search(r"\b(?:no|not|don't)\b", said, re.I) and "chart" in said, said
    said, _ = reply(lane["hale"], "Sell me some slates, I'll pay you next week.")
    assert re.search(r"coin|pay first", said, re.I), said


def test_a_need_asked_of_one_who_sells_for_it_gets_what_she_sells(
    lane: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(lane["bryn"], "Do you have anything for a rash?")
    assert "balm" in said.lower(), said


def test_a_line_that_buys_nothing_gets_no_price(lane: dict[str, VillagerFacts]) -> None:
    for line in (
        "Who lives up the lane? I'd like to pay my respects.",
        "I'd like to thank whoever splits the slates.",
    ):
        said, _ = reply(lane["hale"], line)
        assert "silver" not in said.lower(), (line, said)
