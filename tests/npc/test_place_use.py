"""What goes on at a place and who works there, said as a villager says it: the one whose
place it is (by the map's `work`, or by their persona), doing what they do there, in the
speaker's voice; never the place's description read out instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts

from .test_sheet_answers import facts_of, reply, write_village

PLACES = [
    ("saltpans", "Shallow grey pools below the dunes, crusted white at the edges."),
    ("bell_tower", "A thin tower of flint with one cracked bell."),
    ("smokehouse", "A tarred shed that reeks of oak smoke; eels hang in rows."),
    ("net_loft", "A long loft over the boathouse, nets heaped to the rafters."),
]
PEOPLE = [
    ("idris", "Idris", "Idris rakes salt at the saltpans below the dunes. Dour.", {}),
    ("maud", "Maud", "She rings the hours in the bell tower. Strict, never late.", {}),
    ("gethin", "Gethin", "Smoker. Cures eels and herring. Few words.", {"work": "smokehouse"}),
    ("nia", "Nia", "Nia is a cheerful net mender who loves a song.", {"work": "net_loft"}),
]


@pytest.fixture(scope="module")
def dunes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("dunes"), "dunes", PEOPLE, PLACES))


@pytest.mark.parametrize(
    ("asker", "line", "said"),
    [
        ("maud", "What goes on at the saltpans?", "Idris rakes salt"),
        ("idris", "What happens at the bell tower?", "Maud rings the hours"),
        ("nia", "What's at the smokehouse?", "Gethin the smoker works there"),
        ("gethin", "What is the net loft for?", "mender works there"),
    ],
)
def test_what_goes_on_at_a_place_is_who_works_there_doing_what(
    dunes: dict[str, VillagerFacts], asker: str, line: str, said: str
) -> None:
    text, _ = reply(dunes[asker], line)
    assert said in text, text
    place = next(d for p, d in PLACES if p.replace("_", " ") in line)
    assert place.split(",")[0] not in text, text  # not the blurb read out


@pytest.mark.parametrize(
    ("asker", "line", "said"),
    [
        ("nia", "Who runs the saltpans?", "Idris, the one who rakes salt there."),
        ("gethin", "Who works at the bell tower?", "Maud, the one who rings the hours"),
        ("idris", "Who works at the net loft?", "Nia, the"),
        ("nia", "Who's the one ringing the bells?", "rings the hours at the bell tower."),
    ],
)
def test_who_runs_a_place_names_who_works_there(
    dunes: dict[str, VillagerFacts], asker: str, line: str, said: str
) -> None:
    text, _ = reply(dunes[asker], line)
    assert said in text, text


def test_its_own_place_is_its_own_work(dunes: dict[str, VillagerFacts]) -> None:
    text, _ = reply(dunes["gethin"], "What goes on at the smokehouse?")
    assert "Gethin" not in text and "smokehouse" in text, text


def test_a_place_no_one_works_at_is_still_described(tmp_path: Path) -> None:
    village = facts_of(write_village(tmp_path, "bare", PEOPLE[:1], PLACES))
    text, _ = reply(village["idris"], "What's at the net loft?")
    assert "nets heaped" in text, text


def test_where_it_works_is_the_place_and_the_way_not_its_looks(
    dunes: dict[str, VillagerFacts],
) -> None:
    text, _ = reply(dunes["idris"], "Where do you work?")
    assert text.startswith("At the saltpans."), text
    # Where it is by the map (the green holds every plot here), not how its edges look.
    assert "crusted" not in text and "edges" not in text and "the green" in text, text
