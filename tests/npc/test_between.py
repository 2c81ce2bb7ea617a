"""Villagers talk to each other as themselves: the persona brain's lines between villagers,
on a coast village no map of the game has, read from a real map file."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.npc.facts import NewsFact, SeenFact, SensedFacts, VillagerFacts
from game.npc.known import villager_facts
from game.npc.scripted.between import heard_plan, to_a_villager, to_their_face
from game.npc.scripted.moods import mood_of
from game.npc.scripted.speaker import said_by
from game.wording import reads_back
from game.world.tiled import load_map
from game.world.world import World
from tests.npc.test_sheet import PEOPLE, write_map


@pytest.fixture
def coast(tmp_path: Path) -> World:
    return World(load_map(write_map(tmp_path, PEOPLE)))


def _facts(world: World, npc_id: str) -> VillagerFacts:
    return villager_facts(world, npc_id, met=set(world.npcs))


@pytest.mark.parametrize(
    ("held", "name", "said"),
    [
        ("is hiding something", "Fenwick", "you're hiding something"),
        ("thinks Hobb waters the ale", "Hobb", "you water the ale"),
        ("is convinced that Runa cheats at cards", "Runa", "you cheat at cards"),
        ("thinks Ilse works herself to the bone", "Ilse", "you work yourself to the bone"),
        ("worries that Tam spends his nights alone", "Tam", "I worry you spend your nights alone"),
        ("is the finest weaver in three valleys", "Fenna", "you're the finest weaver"),
        ("swears the sea serpent took his nets off the point", "Tam", ""),
        ("thinks Joss's needles are the only good thing he sells", "Joss", ""),
    ],
)
def test_an_opinion_is_said_to_their_face(held: str, name: str, said: str) -> None:
    assert to_their_face(held, name) == said


def _lines(world: World, npc_id: str, speaker: str, said: str, turns: int = 8) -> list[str]:
    npc = _facts(world, npc_id)
    out = []
    for turn in range(turns):
        plan = heard_plan(
            npc,
            mood_of(npc.persona, npc.sheet.talks),
            speaker,
            said,
            turn=turn,
            replies=[],
            sensed=None,
        )
        spoken = [s for s in map(said_by, plan) if s is not None]
        assert len(spoken) == 1 and spoken[0].target == speaker  # to the one who spoke
        out.append(spoken[0].text)
    return out


def test_a_villager_answers_another_with_what_it_thinks_of_them(coast: World) -> None:
    said = _lines(coast, "brannoc", "Hobb", "Brannoc, a fine morning for it.")
    assert any(line == "Hobb, you water the ale." for line in said), said
    assert all("Hobb" in line for line in said), said
    said = _lines(coast, "agathe", "Fenwick", "Morning, Sister.")
    # a stern sister is formal: she says her words whole
    assert any("Fenwick, you are hiding something." == line for line in said), said


def test_a_question_from_a_villager_is_answered_to_them_not_the_player(coast: World) -> None:
    for line in _lines(coast, "hobb", "Dagny", "Hobb, who is Fenwick?", turns=3):
        assert line.startswith("Dagny, "), line
        assert "lighthouse" in line.lower(), line  # who Fenwick is, from the facts
        assert "Hobb" not in line  # never its own name, as if it were someone else


def test_news_is_passed_on_to_a_villager_who_did_not_bring_it(coast: World) -> None:
    npc = _facts(coast, "tam")
    lost = NewsFact(
        news_id="n1", kind="lost", fact="Nell lost a red kite on the dunes", source="nell",
        source_name="Nell",
    )  # fmt: skip
    sensed = SensedFacts(news=[lost])
    lines = {
        to_a_villager(
            npc,
            mood_of(npc.persona, npc.sheet.talks),
            "Gus",
            "gus",
            seed=seed,
            used=[],
            sensed=sensed,
        )
        for seed in range(30)
    }
    assert any("red kite" in line and line.startswith("Gus") for line in lines), lines
    from_nell = {
        to_a_villager(
            npc,
            mood_of(npc.persona, npc.sheet.talks),
            "Nell",
            "nell",
            seed=s,
            used=[],
            sensed=sensed,
        )
        for s in range(30)
    }
    assert not any("kite" in line for line in from_nell)  # not told back to who brought it


def test_an_idle_villager_talks_to_the_one_beside_it(coast: World) -> None:
    from game.agent.facts import TriggerFacts
    from game.agent.providers.base import Message, ProviderRequest
    from game.npc.scripted.persona import plan_for, situation_of

    npc = _facts(coast, "corwin")
    runa = SeenFact(entity_id="runa", name="Runa", distance=1, direction="east", activity="idle")
    said = []
    for i in range(60):
        request = ProviderRequest(
            system="",
            messages=[Message(role="user", content="(idle)")],
            npc=npc,
            trigger=TriggerFacts(kind="idle", text=f"tick {i}", sensed=SensedFacts(nearby=[runa])),
        )
        said += [s for s in map(said_by, plan_for(situation_of(request))) if s is not None]
    to_runa = [s for s in said if s.target == "Runa"]
    assert to_runa and all("Runa" in s.text for s in to_runa)
    assert any(s.text == "Runa, you cheat at cards." for s in to_runa), [s.text for s in said]


def test_no_line_between_villagers_reads_the_persona_back(coast: World) -> None:
    checked = 0
    for npc_id in coast.npcs:
        npc = _facts(coast, npc_id)
        for other in npc.people:
            for said in ("Morning!", f"{npc.name.split()[-1]}, what do you do all day?"):
                for line in _lines(coast, npc_id, other.name, said, turns=2):
                    assert not reads_back(line, npc.persona), (npc_id, line)
                    checked += 1
    assert checked > 400
