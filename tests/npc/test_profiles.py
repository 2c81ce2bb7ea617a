"""Whom an NPC's profile names: every villager on a small map; on a big one the nearest
`PROFILE_VILLAGERS` (from where each starts) and those it has met."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from game.agent.events import WorldObservation
from game.agent.loop import AgentRuntime
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.npc.agents import PROFILE_VILLAGERS, NpcAgents, profile_of
from game.npc.persona import PersonaProvider
from game.npc.skills import build_registry
from game.world.tiled import MapData, NpcSpawn, Place, load_map
from game.world.world import World
from tests.world.crowd import write_crowd_map


def scattered(count: int, seed: int) -> MapData:
    """A 120x90 map with `count` NPCs on distinct tiles picked at random."""
    rng = random.Random(seed)
    tiles = rng.sample([(x, y) for x in range(120) for y in range(90)], count + 1)
    npcs = [
        NpcSpawn(f"n{i}", f"Nell {i}", f"Nell {i} mends nets. Quietly.", "Hi.", "baker", tile)
        for i, tile in enumerate(tiles[1:])
    ]
    return MapData(
        path=Path("scattered.tmj"),
        width=120,
        height=90,
        tile_width=32,
        tile_height=32,
        blocked=set(),
        player_spawn=tiles[0],
        npcs=npcs,
        places={"green": Place("green", 0, 0, 120, 90, "The green.")},
        tile_layers=["ground"],
    )


def distance(world: World, a: str, b: str) -> float:
    (ax, ay), (bx, by) = world.npcs[a].tile, world.npcs[b].tile
    return math.hypot(ax - bx, ay - by)


def assert_nearest(world: World, npc_id: str, listed: list[str]) -> None:
    others = set(world.npcs) - {npc_id}
    assert len(listed) == PROFILE_VILLAGERS == len(set(listed)) and set(listed) <= others
    farthest_listed = max(distance(world, npc_id, o) for o in listed)
    nearest_left_out = min(distance(world, npc_id, o) for o in others - set(listed))
    assert farthest_listed <= nearest_left_out


def test_on_a_60_npc_map_a_profile_names_the_50_nearest(tmp_path: Path) -> None:
    world = World(load_map(write_crowd_map(tmp_path, 60)))
    assert len(world.npcs) == 60
    for npc_id in ("v0", "v29", "v59"):  # a corner, the middle, the far end
        villagers = profile_of(world, npc_id).people
        assert_nearest(world, npc_id, [v.npc_id for v in villagers])
        order = list(world.npcs)
        assert [v.npc_id for v in villagers] == sorted(
            (v.npc_id for v in villagers), key=order.index
        )  # in map order, as on a small map


@pytest.mark.parametrize(("count", "seed"), [(60, 1), (200, 2), (400, 3)])
def test_the_nearest_are_found_wherever_the_npcs_stand(count: int, seed: int) -> None:
    world = World(scattered(count, seed))
    for npc_id in random.Random(seed).sample(sorted(world.npcs), 10):
        assert_nearest(world, npc_id, [v.npc_id for v in profile_of(world, npc_id).people])


@pytest.mark.parametrize("count", [10, 2, 1, 51])
def test_on_a_map_of_up_to_51_npcs_a_profile_names_every_other_one(
    tmp_path: Path, count: int
) -> None:
    world = World(load_map(write_crowd_map(tmp_path, count)))
    for npc_id in world.npcs:
        named = [v.npc_id for v in profile_of(world, npc_id).people]
        assert named == [other for other in world.npcs if other != npc_id]
    if count == 10:
        assert len(profile_of(world, "v3").people) == 9


def test_villagers_met_are_named_too_however_far(tmp_path: Path) -> None:
    world = World(load_map(write_crowd_map(tmp_path, 60)))
    near = {v.npc_id for v in profile_of(world, "v0").people}
    assert "v59" not in near
    met = {v.npc_id for v in profile_of(world, "v0", met={"v59", "v0", "nobody"}).people}
    assert met == near | {"v59"}  # not itself, not an id the map lacks


async def test_an_npc_heard_joins_the_profile_and_is_remembered_from_the_session(
    tmp_path: Path,
) -> None:
    world = World(load_map(write_crowd_map(tmp_path, 60)))

    def start(saves: Path) -> tuple[NpcAgents, AgentRuntime]:
        agents = NpcAgents(world, Mailbox())
        runtime = AgentRuntime(
            saves, slot="met", provider=PersonaProvider(delay_s=0), registry=build_registry()
        )
        agents.attach(runtime)
        return agents, runtime

    agents, runtime = start(tmp_path / "saves")
    heard = Trigger(kind="heard", text='Villager 59 says: "v0!"', source="v59", said="v0!")
    agents.start_turn("v0", heard)
    assert "v59" in {v.npc_id for v in runtime.profile("v0").people}
    assert "v59" not in {v.npc_id for v in runtime.profile("v1").people}
    await runtime.aclose()

    # A session whose log says v0 heard v58 speak: read at v0's first turn there.
    agents, runtime = start(tmp_path / "saves")
    said = WorldObservation(kind="heard", text='Villager 58 says: "v0!"', source="v58")
    runtime.store("met").append("v0", said)
    assert "v58" not in {v.npc_id for v in runtime.profile("v0").people}
    agents.start_turn("v0", Trigger(kind="idle", text="Time passes."))
    assert "v58" in {v.npc_id for v in runtime.profile("v0").people}
    await runtime.aclose()
