"""The new villages' scenario files: each loads, fits its own map, and judges every line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from game.assets import load_game_map
from game.eval.scenarios import LineCheck, Scenario, load_scenarios, load_villages
from game.eval.suite import check
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "game" / "eval" / "scenarios"
VILLAGES = ("larkmoor", "stonereach", "thornwick")
MIN_SCENARIOS = 40  # issue 37: at least 40 talks a village
# The kinds each village's set covers, by the word its ids carry after the village's prefix.
KINDS = {
    "greetings and gestures": {"greet", "bye", "wave", "nod", "shake", "laugh", "think"},
    "walking and showing the way": {"go", "follow", "guide"},
    "where places are": {"place"},
    "who does what": {"role"},
    "yes/no the persona decides": {"stance"},
    "requests refused": {"refuse"},
    "memory": {"memory", "more", "long"},
    "robustness": {"inject", "ai", "offworld"},
    "village life": {"life"},
    "villagers talking to each other": {"talks"},
}


def scenarios_of(village: str) -> list[Scenario]:
    """Every scenario of a village's folder, as eval loads them (its village.json aside)."""
    return load_scenarios(SCENARIOS / village)


@pytest.mark.parametrize("village", VILLAGES)
def test_the_scenarios_fit_their_map(village: str, tmp_path: Path) -> None:
    scenarios = scenarios_of(village)
    assert len(scenarios) >= MIN_SCENARIOS
    assert not [i for i, n in Counter(s.id for s in scenarios).items() if n > 1]
    world = World(load_game_map(ROOT / "maps" / f"{village}.tmx"))
    check(scenarios, world, tmp_path)  # every NPC, speaker, place and tile is on the map
    assert {s.npc for s in scenarios} == set(world.npcs), "every villager is talked to"
    for s in scenarios:
        if s.line is not None and s.line.place is not None:
            assert s.line.place in world.map.places or s.line.place == "notice board", s.id


@pytest.mark.parametrize("village", VILLAGES)
def test_every_scenario_judges_its_line(village: str) -> None:
    unjudged = [s.id for s in scenarios_of(village) if s.line is None or s.line == LineCheck()]
    assert unjudged == []


@pytest.mark.parametrize("village", VILLAGES)
def test_the_set_covers_every_kind_of_talk(village: str) -> None:
    kinds = Counter(s.id.split("-")[1] for s in scenarios_of(village))
    missing = [kind for kind, words in KINDS.items() if not words & set(kinds)]
    assert missing == []


def test_no_two_scenarios_share_an_id_across_villages() -> None:
    # Each scenario runs in a slot named after its id: one run of all three villages
    # needs every id once.
    ids = [s.id for s in load_scenarios()] + [s.id for v in VILLAGES for s in scenarios_of(v)]
    assert [i for i, n in Counter(ids).items() if n > 1] == []


def test_only_larkmoor_is_kept_out_of_tuning() -> None:
    # Its village.json says so: eval marks its figures untuned, and the blind read draws on it.
    assert {v.map_id: v.untuned for v in load_villages()} == {
        "village": False,
        "larkmoor": True,
        "stonereach": False,
        "thornwick": False,
    }
