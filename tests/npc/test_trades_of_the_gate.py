"""A village by a gate (an apothecary, a cooper, a dairywoman, a goose girl), talked to as a
player would: a refusal on terms says its terms, a feared thing pointed at is a fright, a
bid of coin first is haggling, a cheap sale asked is no scorn, a price asked as "is it
dear?" is a price, and a girl who looks after geese is known by what she does."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from tests.npc.test_play_script import request
from tests.npc.test_sheet_answers import Person, facts_of, write_village
from tests.npc.test_trades_of_the_ford import plan

PEOPLE: list[Person] = [
    (
        "marta",
        "Marta",
        "Marta is the old forester: she fells timber in her woodyard and sells firewood. She "
        "is slow and kind. She never fells a tree in spring, when the sap is rising.",
        {"work": "woodyard", "wares": "firewood"},
    ),
    (
        "odo",
        "Odo",
        "Odo is the apothecary: he mixes salves and cough drops in his shop and sells them. "
        "He is quiet and careful. He will never give anyone medicine without seeing the "
        "patient first. He is terrified of spiders.",
        {"work": "shop", "wares": "salves and cough drops"},
    ),
    (
        "jory",
        "Jory",
        "Jory is the young cooper: he makes barrels, buckets and tubs in his cooperage. He "
        "is cocky and cheerful. He will haggle over a bucket, but never below three pennies.",
        {"work": "cooperage", "wares": "barrels, buckets and tubs"},
    ),
    (
        "hilde",
        "Hilde",
        "Hilde keeps the cows at the dairy and sells milk, cream and eggs. She is loud and "
        "cheerful. She never sells on credit.",
        {"work": "dairy", "wares": "milk, cream and eggs"},
    ),
    (
        "ysolde",
        "Ysolde",
        "Ysolde is a shy young girl who looks after the geese in the goose meadow and sells "
        "feathers and quills. She speaks softly. She never lets anyone chase or pluck her "
        "geese.",
        {"work": "meadow", "wares": "feathers and quills"},
    ),
]
PLACES = [
    ("woodyard", "Marta's woodyard at the forest's edge, stacked with logs."),
    ("shop", "Odo's shop on the east side, with jars on every shelf."),
    ("cooperage", "Jory's cooperage in the south-west corner, full of staves."),
    ("dairy", "The dairy on the west side of the green, cool and white."),
    ("meadow", "The goose meadow by the stream, with a low hurdle fence."),
]


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("gate"), "gate", PEOPLE, PLACES))


def said(npc: VillagerFacts, line: str) -> str:
    return plan(npc, line)[0]


def test_a_refusal_on_terms_says_its_terms(gate: dict[str, VillagerFacts]) -> None:
    salve = said(gate["odo"], "Mix me a salve for tomorrow morning, quick as you can.")
    # "Not without seeing you first.": the one asking is the patient
    assert "seeing you" in salve, salve  # it was "No. Not that."
    dear = said(gate["odo"], "Are your cough drops expensive?")
    assert "patient" not in dear and "drops" in dear.lower(), dear


def test_a_feared_thing_pointed_at_is_a_fright(gate: dict[str, VillagerFacts]) -> None:
    spider = said(gate["odo"], "Look, a big hairy spider on your shelf!")
    assert "spider" in spider.lower(), spider  # it was "All calm." and a look


def test_coin_bid_first_is_haggling_and_a_cheap_sale_no_scorn(
    gate: dict[str, VillagerFacts],
) -> None:
    bid = said(gate["jory"], "Two pennies for a bucket, that's my offer.")
    assert "three pennies" in bid, bid
    eggs = said(gate["hilde"], "Sell me a dozen eggs cheap, they're small.")
    assert "price" in eggs and not re.search(r"\brude\b", eggs, re.I), eggs
    bucket = said(gate["jory"], "Is a bucket cheap?")
    assert "bucket" in bucket.lower(), bucket  # it was "Oh! I'm the young!"


def test_a_girl_who_looks_after_geese_is_known_by_it(gate: dict[str, VillagerFacts]) -> None:
    assert gate["ysolde"].sheet.role == "looks after the geese"
    line = said(gate["ysolde"], "What do you do?")
    assert "geese" in line and "girl" not in line, line


def test_a_bid_at_the_floor_is_taken_and_a_shared_thing_kept(
    gate: dict[str, VillagerFacts],
) -> None:
    done = said(gate["jory"], "Three pennies for a bucket? Done!")
    assert re.search(r"three pennies it is|done", done, re.I) and "off" not in done, done
    chase = said(gate["ysolde"], "Can I chase your geese? Just for fun.")
    assert "chase my geese" in chase, chase  # it was "I don't let anyone chase."


def test_why_a_refusal_is_held_is_its_reason(gate: dict[str, VillagerFacts]) -> None:
    line = "Why won't you fell trees in spring?"
    why = said(gate["marta"], line)
    assert "sap is rising" in why, why  # it was "Not in spring. That is my way."
    lead = lead_of(request(line).model_copy(update={"npc": gate["marta"]}))
    assert "sap is rising" in lead, lead
    no = said(gate["marta"], "Fell me a tree, it's spring.")
    assert "spring" in no and "sap" not in no, no
