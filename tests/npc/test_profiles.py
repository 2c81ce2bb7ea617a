"""Whom and what an NPC's profile names: every villager and every place on a small map; on
a big one the nearest `PROFILE_VILLAGERS` (from where each starts) and those it has met,
and its own places with the nearest, `PROFILE_PLACES` in all."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from game.agent.events import WorldObservation
from game.agent.loop import AgentRuntime
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.limits import PROFILE_PLACES
from game.npc.agents import PROFILE_VILLAGERS, NpcAgents
from game.npc.facts import PersonFact, VillagerFacts
from game.npc.known import villager_facts
from game.npc.scripted.persona import PersonaProvider
from game.npc.skills import build_registry
from game.world.tiled import MapData, NpcSpawn, Place, load_map
from game.world.world import World
from tests.world.crowd import crowd_map, prop, write_crowd_map

ROOT = Path(__file__).resolve().parents[2]


def people_of(runtime: AgentRuntime, npc_id: str) -> list[PersonFact]:
    """The villagers a registered NPC's profile names."""
    return VillagerFacts.of(runtime.profile(npc_id).request_facts()).people


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
        villagers = villager_facts(world, npc_id).people
        assert_nearest(world, npc_id, [v.npc_id for v in villagers])
        order = list(world.npcs)
        assert [v.npc_id for v in villagers] == sorted(
            (v.npc_id for v in villagers), key=order.index
        )  # in map order, as on a small map


@pytest.mark.parametrize(("count", "seed"), [(60, 1), (200, 2), (400, 3)])
def test_the_nearest_are_found_wherever_the_npcs_stand(count: int, seed: int) -> None:
    world = World(scattered(count, seed))
    for npc_id in random.Random(seed).sample(sorted(world.npcs), 10):
        assert_nearest(world, npc_id, [v.npc_id for v in villager_facts(world, npc_id).people])


@pytest.mark.parametrize("count", [10, 2, 1, 51])
def test_on_a_map_of_up_to_51_npcs_a_profile_names_every_other_one(
    tmp_path: Path, count: int
) -> None:
    world = World(load_map(write_crowd_map(tmp_path, count)))
    for npc_id in world.npcs:
        named = [v.npc_id for v in villager_facts(world, npc_id).people]
        assert named == [other for other in world.npcs if other != npc_id]
    if count == 10:
        assert len(villager_facts(world, "v3").people) == 9


def test_villagers_met_are_named_too_however_far(tmp_path: Path) -> None:
    world = World(load_map(write_crowd_map(tmp_path, 60)))
    near = {v.npc_id for v in villager_facts(world, "v0").people}
    assert "v59" not in near
    met = {v.npc_id for v in villager_facts(world, "v0", met={"v59", "v0", "nobody"}).people}
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
    assert "v59" in {v.npc_id for v in people_of(runtime, "v0")}
    assert "v59" not in {v.npc_id for v in people_of(runtime, "v1")}
    await runtime.aclose()

    # A session whose log says v0 heard v58 speak: read at v0's first turn there.
    agents, runtime = start(tmp_path / "saves")
    said = WorldObservation(kind="heard", text='Villager 58 says: "v0!"', source="v58")
    runtime.store("met").append("v0", said)
    assert "v58" not in {v.npc_id for v in people_of(runtime, "v0")}
    agents.start_turn("v0", Trigger(kind="idle", text="Time passes."))
    assert "v58" in {v.npc_id for v in people_of(runtime, "v0")}
    await runtime.aclose()


# --- places --------------------------------------------------------------------------


def test_on_the_village_every_profile_names_every_place_in_map_order() -> None:
    world = World(load_map(ROOT / "maps" / "village.tmx"))
    assert 1 < len(world.map.places) <= PROFILE_PLACES
    for npc_id in world.npcs:
        named = [(p.name, p.description) for p in villager_facts(world, npc_id).places]
        assert named == [(p.name, p.description) for p in world.map.places.values()]


@pytest.mark.parametrize("places", [0, PROFILE_PLACES - 1])
def test_on_a_map_of_up_to_the_bound_every_place_is_named(tmp_path: Path, places: int) -> None:
    world = World(load_map(write_crowd_map(tmp_path, 60, places=places)))
    assert len(world.map.places) == places + 1  # the green too
    for npc_id in ("v0", "v59"):
        assert [p.name for p in villager_facts(world, npc_id).places] == list(world.map.places)


def _far_places_map(folder: Path, places: int) -> Path:
    """A crowd of 60 and `places` plots, with two places in the far corner that v0 works
    at and walks to by its plan."""
    doc = crowd_map(60, places=places)
    width, height = doc["width"], doc["height"]
    layer = next(layer for layer in doc["layers"] if layer["name"] == "places")
    for i, name in enumerate(("far_field", "far_well")):
        layer["objects"].append({
            "id": 90_000 + i, "name": name, "x": (width - 3 + i) * 32, "y": (height - 2) * 32,
            "width": 32, "height": 32, "rotation": 0, "type": "place", "visible": True,
            "properties": [prop("description", f"The {name.replace('_', ' ')}.")],
        })  # fmt: skip
    npcs = next(layer for layer in doc["layers"] if layer["name"] == "npcs")
    v0 = next(o for o in npcs["objects"] if o["name"] == "Villager 0")
    v0["properties"] += [prop("work", "far_field"), prop("plan", "7 work, 12 far_well, 19 home")]
    path = folder / "far.tmj"
    path.write_text(json.dumps(doc))
    return path


def test_on_a_big_map_a_profile_names_its_own_places_and_the_nearest(tmp_path: Path) -> None:
    world = World(load_map(_far_places_map(tmp_path, 400)))
    order = list(world.map.places)
    for npc_id in ("v0", "v30", "v59"):
        named = [p.name for p in villager_facts(world, npc_id).places]
        assert len(named) == len(set(named)) == PROFILE_PLACES
        assert named == sorted(named, key=order.index)  # in map order, as on a small map
        own = {"green"} | ({"far_field", "far_well"} if npc_id == "v0" else set())
        assert own <= set(named)
        spawn = next(s for s in world.map.npcs if s.npc_id == npc_id)

        def away(name: str, tile: tuple[int, int] = spawn.tile) -> float:
            (x, y), (px, py) = tile, world.map.places[name].center
            return math.hypot(x - px, y - py)

        near = set(named) - own
        left_out = set(order) - set(named)
        assert max(away(n) for n in near) <= min(away(n) for n in left_out)
    assert "far_field" not in {p.name for p in villager_facts(world, "v1").places}


def test_a_thousand_npcs_and_8000_places_share_small_profiles(tmp_path: Path) -> None:
    # The documented bounds: 1,000 NPCs, 10,000 objects. A profile is on every request:
    # it names at most PROFILE_PLACES places, each the one fact of that place.
    world = World(load_map(write_crowd_map(tmp_path, 1000, places=8000)))
    profiles = [villager_facts(world, npc_id) for npc_id in world.npcs]
    facts = {id(p) for profile in profiles for p in profile.places}
    assert max(len(profile.places) for profile in profiles) == PROFILE_PLACES
    assert len(facts) <= len(world.map.places)  # shared, not copied per NPC
    named = {p.name for profile in profiles for p in profile.places}
    assert named <= set(world.map.places) and len(named) > PROFILE_PLACES
