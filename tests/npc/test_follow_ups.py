"""Short follow-ups ("go on", "and?", "what else?") go on with something new from the
sheet and the map, and a gossip question with no news heard is talk of a neighbour; on a
river village no map of the game has, with its own people and phrasings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import DayFacts, NewsFact, SensedFacts, VillagerFacts
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from tests.npc.test_sheet_answers import Person, facts_of, write_village

RIVER_PLACES = [
    ("watermill", "A timber watermill on the weir, its wheel churning the brown water."),
    ("ferry_landing", "A plank landing where the flat ferry is hauled across on a rope."),
    ("tannery", "A reeking tannery downstream, its pits steaming under a slate roof."),
    ("toll_bridge", "A narrow stone toll bridge with a chain across it and a hut beside."),
    ("dovecote", "A round dovecote of yellow stone, loud with pigeons at dawn."),
]
RIVER: list[Person] = [
    (
        "aldous",
        "Aldous",
        "Aldous has ground the valley's grain at the watermill for thirty years, and sells it "
        "to the bakers of three villages. He is loud and cheerful. He thinks Mirela is the "
        "cleverest head on the river.",
        {"work": "watermill"},
    ),
    (
        "mirela",
        "Mirela",
        "Mirela poles the ferry across the river from dawn to dusk and hauls it on the rope "
        "when the water runs high. She is brisk and shrewd and sells eel pies on the crossing. "
        "She suspects Bertil waters down his dye.",
        {"work": "ferry_landing"},
    ),
    (
        "bertil",
        "Bertil",
        "Bertil tans hides in the tannery downstream and soaks them in oak bark for months. He "
        "is a quiet man of few words who hawks nothing and owes no one.",
        {"work": "tannery"},
    ),
    (
        "sister_hild",
        "Sister Hild",
        "Sister Hild is a stern toll keeper with no time for gossip. She keeps the toll bridge "
        "and writes every crossing in her book.",
        {"work": "toll_bridge"},
    ),
    (
        "wat",
        "Wat",
        "Wat is a dreamy boy who keeps the doves and thinks the pigeons carry letters for the "
        "fair folk because they circle the dovecote at dawn.",
        {"work": "dovecote"},
    ),
]


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    folder = tmp_path_factory.mktemp("river")
    return facts_of(write_village(folder, "river", RIVER, RIVER_PLACES))


def talk(npc: VillagerFacts, *lines: str, sensed: SensedFacts | None = None) -> list[str]:
    """What the NPC says to each line of a talk, in turn."""
    earlier: list[str] = []
    replies: list[str] = []
    out = []
    for turn, line in enumerate(lines):
        said = PlayerLine(
            npc=npc,
            said=line,
            earlier=list(earlier),
            replies=list(replies),
            turn=turn,
            met=turn > 0,
            sensed=sensed,
        )
        texts = [s.text for s in map(said_by, answer(said)) if s is not None]
        out.append(" ".join(texts))
        earlier.append(line)
        replies += texts
    return out


def test_a_thing_sold_as_a_pronoun_is_what_it_made(river: dict[str, VillagerFacts]) -> None:
    """"has ground the grain ... and sells it": its wares are the grain, not "it"; its role
    is said as what it does now ("grinds"), not as "has ground"."""
    sheet = river["aldous"].sheet
    assert sheet.wares == ("valley's grain",)
    assert sheet.role.startswith("grinds")


def test_a_noun_that_looks_like_selling_sells_nothing(river: dict[str, VillagerFacts]) -> None:
    """"keeps the doves ... pigeons carry letters" and "hawks nothing" are no wares."""
    assert river["wat"].sheet.wares == ()
    assert river["bertil"].sheet.wares == ()
    assert river["mirela"].sheet.wares == ("eel pies",)
