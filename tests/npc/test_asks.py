"""Requests and yes/no asks the persona answers: a post it keeps, its own work asked for
(and a service's price), a like asked along, a belief it does not hold, a proposal, a price
said without its coin, a free ask of one who wants coin; a held belief about a person is
never called "it"."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts
from tests.npc.test_sheet_answers import NO, facts_of, reply, write_village

PLACES = [
    ("glassworks", "A hot shed where glass is blown over a roaring furnace."),
    ("orchard", "Rows of old pear trees on the slope."),
    ("market", "The square where stalls are set out on fair days."),
]
PEOPLE = [
    (
        "idris",
        "Idris",
        "Glassblower. Blows bottles and lamps at the glassworks. Bottle: two groats. "
        "A lamp goes for five. Never leaves the furnace while it burns. No credit.",
        {"work": "glassworks"},
    ),
    (
        "perrin",
        "Perrin",
        "Perrin grows pears in the orchard and gives lessons in grafting at a groat an hour. "
        "He longs to see the mountains. He thinks the last queen will return from exile.",
        {"work": "orchard"},
    ),
    (
        "sorcha",
        "Sorcha",
        "Sorcha weighs grain at the market and has no time for idle chatter. She is blunt.",
        {"work": "market"},
    ),
]


@pytest.fixture(scope="module")
def vale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("vale"), "vale", PEOPLE, PLACES))


def test_one_kept_at_its_post_will_not_come_along(vale: dict[str, VillagerFacts]) -> None:
    said, walks = reply(vale["idris"], "Come with me to the orchard!")
    assert not walks and NO.search(said) and "furnace" in said, said
    said, walks = reply(vale["sorcha"], "Will you come to the orchard with me?")
    assert not walks and NO.search(said), said


def test_an_outing_asked_for_later_is_an_invitation(vale: dict[str, VillagerFacts]) -> None:
    said, walks = reply(vale["perrin"], "Come with me to the market tonight!")
    assert not walks and said, said


def test_its_own_work_asked_for_is_a_yes_and_a_service_has_its_price(
    vale: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(vale["perrin"], "Can you teach me grafting?")
    assert "a groat an hour" in said.lower(), said
    said, _ = reply(vale["idris"], "Could you blow me a bottle?")
    assert "two groats" in said.lower() and not NO.search(said), said
    said, _ = reply(vale["sorcha"], "Could you weigh my grain?")
    assert "grain" in said.lower() and not NO.search(said), said


def test_a_price_said_without_its_coin_takes_the_coin_said_before(
    vale: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(vale["idris"], "How much is a lamp?")
    assert "five groats" in said.lower(), said


def test_one_who_wants_coin_gives_nothing_free(vale: dict[str, VillagerFacts]) -> None:
    said, _ = reply(vale["idris"], "Can I have a bottle for free?")
    assert NO.search(said) or "coin" in said.lower(), said


def test_a_like_asked_along_is_a_yes(vale: dict[str, VillagerFacts]) -> None:
    said, _ = reply(vale["perrin"], "Do you want to see the mountains with me?")
    assert not NO.search(said) and "yes" in said.lower(), said


def test_a_belief_not_held_is_an_open_mind_not_its_work(vale: dict[str, VillagerFacts]) -> None:
    said, _ = reply(vale["sorcha"], "Do you believe in dragons?")
    assert "grain" not in said and "market" not in said.lower(), said


def test_a_proposal_is_a_no_and_a_held_belief_keeps_its_person(
    vale: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(vale["sorcha"], "Will you marry me?")
    assert NO.search(said), said
    said, _ = reply(vale["perrin"], "Do you believe the queen will return?")
    assert "queen" in said.lower() and "it will" not in said.lower(), said
    assert not NO.search(said), said


def test_what_the_persona_gladly_shows_is_taught_not_maybed(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """ "The knack of splitting stone he will happily show to anyone who asks": asked to
    show it, a yes (it was "Maybe, love! We'll see!"); a knack it does not offer is no yes."""
    people = [
        (
            "aurel",
            "Aurel",
            "Aurel is the mason who builds walls at the glassworks. The knack of splitting a "
            "stone along its grain he will happily show to anyone who asks.",
            {"work": "glassworks"},
        )
    ]
    aurel = facts_of(write_village(tmp_path_factory.mktemp("mason"), "mason", people, PLACES))
    said, walks = reply(aurel["aurel"], "Can you teach me how to split stone?")
    assert not walks and not NO.search(said) and "glassworks" in said, said
    other, _ = reply(aurel["aurel"], "Can you teach me how to juggle?")
    assert other != said, other
