"""A "where is" is answered with which way and near what, not with what the place looks
like: the harbour village's places, from where the NPC stands."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts

from .harbour import PLACES, harbour_facts, said


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return harbour_facts(tmp_path_factory.mktemp("harbour"))


@pytest.mark.parametrize(
    ("asker", "line", "way"),
    [
        ("agathe", "Where is the tavern?", "east"),
        ("hobb", "Where's the windmill?", "west"),
        ("dagny", "How do I get to the pottery?", "south-east"),
        ("tilde", "Which way to the chapel?", "west"),
    ],
)
def test_where_is_a_place_says_where_it_is_not_what_it_looks_like(
    harbour: dict[str, VillagerFacts], asker: str, line: str, way: str
) -> None:
    text = said(harbour[asker], line)
    assert re.search(rf"\b{way}\b", text, re.I), text
    description = next(p[5] for p in PLACES if p[0] in line.lower())
    assert description not in text and description[:20] not in text, text


def test_where_is_the_place_it_stands_in(harbour: dict[str, VillagerFacts]) -> None:
    text = said(harbour["hobb"], "Where's the tavern?")
    assert re.search(r"here|stand", text, re.I), text


def test_a_place_asked_about_not_where_is_still_described(
    harbour: dict[str, VillagerFacts],
) -> None:
    assert "kiln" in said(harbour["hobb"], "What's the pottery like?")


@pytest.mark.parametrize(
    ("line", "place", "way"),
    [
        ("Is there anywhere I could hear a bell ring?", "chapel", "south-west"),
        ("Where can I water my horse around here?", "square", "west"),
    ],
)
def test_a_place_sought_by_what_it_has_is_named_with_its_way(
    harbour: dict[str, VillagerFacts], line: str, place: str, way: str
) -> None:
    """Asked for somewhere by what it has, not by its name, the NPC says which place and
    which way: not what the place looks like."""
    text = said(harbour["hobb"], line)
    assert place in text and re.search(rf"\b{way}\b", text, re.I), text
    description = next(p[5] for p in PLACES if p[0] == place)
    assert description[:20] not in text, text
