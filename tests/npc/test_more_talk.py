""" "Tell me more" goes on about what was just talked of, in something not said before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.known import villager_facts
from game.npc.reading.naming import norm
from game.npc.reading.phrases import MORE
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.world.tiled import load_map
from game.world.world import World

STONEREACH = Path(__file__).resolve().parents[2] / "maps" / "stonereach.tmx"


@pytest.mark.parametrize(
    ("said", "more"),
    [
        ("Tell me more.", True),
        ("huh. tell me more?", True),
        ("And what else?", True),
        ("go on, please", True),
        ("Tell me more about the mill", False),  # a question of its own
        ("What else do you sell?", False),
        ("more bread please", False),
        ("and?", True),
        ("yeah, and...?", True),
        ("like what?", True),
        ("such as?", True),
        ("ok, then what?", True),
        ("and the toll?", False),  # a question of its own
        ("and you?", False),
        ("so what?", False),
    ],
)
def test_a_follow_up_is_read_as_one(said: str, more: bool) -> None:
    assert bool(MORE.search(norm(said))) is more


def test_more_about_its_own_place_is_its_side_or_its_work_not_the_same_line() -> None:
    world = World(load_map(STONEREACH))
    garrow = villager_facts(world, "garrow")
    first = PlayerLine(npc=garrow, said="What is the mine like?")
    said = [s.text for s in map(said_by, answer(first)) if s is not None]
    lines = []
    for turn in (1, 2):  # the rest of the place's description, then its side or its work
        more = PlayerLine(
            npc=garrow,
            said="Tell me more.",
            earlier=[first.said] + ["Tell me more."] * (turn - 1),
            replies=said,
            turn=turn,
            met=True,
        )
        line = " ".join(s.text for s in map(said_by, answer(more)) if s is not None)
        assert line and line not in said
        said.append(line)
        lines.append(line)
    assert "pithead" in " ".join(said).lower()  # the description, in two parts
    assert any(w in lines[-1].lower() for w in ("tunnel", "mine", "knock", "copper")), lines


def test_more_of_a_place_with_nothing_more_to_it_is_the_way_there(tmp_path: Path) -> None:
    from game.npc.facts import SensedFacts
    from tests.npc.test_sheet_answers import COAST, COAST_PLACES, facts_of, write_village

    runa = facts_of(write_village(tmp_path, "coast", COAST, COAST_PLACES))["runa"]
    here = SensedFacts(place="", map_name="Coast", nearby=[], tile=(1, 1))
    first = PlayerLine(npc=runa, said="What's the lighthouse like?", sensed=here)
    said = [s.text for s in map(said_by, answer(first)) if s is not None]
    assert "grey stone" in " ".join(said)  # its description has one part: said whole
    more = PlayerLine(
        npc=runa,
        said="Tell me more.",
        earlier=[first.said],
        replies=said,
        turn=1,
        met=True,
        sensed=here,
    )
    line = " ".join(s.text for s in map(said_by, answer(more)) if s is not None)
    assert re.search(r"\b(?:north|south|east|west)", line, re.I), line
    assert "lighthouse" in line.lower() and line not in said
