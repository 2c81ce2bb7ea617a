from __future__ import annotations

import pytest

from game.tokens import estimate_tokens
from game.world.perception import COMPASS, compass, perceive
from game.world.tiled import NpcSpawn
from game.world.tiled_day import BoardSpot
from game.world.world import World

from .conftest import map_from

OPEN = "\n".join(["." * 21] * 21)


@pytest.mark.parametrize(
    ("offset", "expected"),
    [
        ((1, 0), "east"),
        ((1, 1), "southeast"),
        ((0, 1), "south"),
        ((-1, 1), "southwest"),
        ((-1, 0), "west"),
        ((-1, -1), "northwest"),
        ((0, -1), "north"),
        ((1, -1), "northeast"),
    ],
)
def test_all_eight_directions(offset: tuple[int, int], expected: str) -> None:
    assert compass(*offset) == expected
    data = map_from(OPEN)
    data.npcs.extend(
        [
            NpcSpawn("me", "Me", "p", "g", "smith", (10, 10)),
            NpcSpawn("you", "Ada", "p", "g", "smith", (10 + 2 * offset[0], 10 + 2 * offset[1])),
        ]
    )
    data.player_spawn = (0, 0)
    world = World(data)
    p = perceive(world, "me")
    assert p.nearby[0].name == "Ada" and p.nearby[0].direction == expected
    assert f"Ada is {'two' if 0 in offset else 'three'} tiles to the {expected}" in p.summary


def test_compass_has_eight_points() -> None:
    assert len(set(COMPASS)) == 8


def test_nobody_near() -> None:
    data = map_from(OPEN)
    data.npcs.append(NpcSpawn("me", "Me", "p", "g", "smith", (20, 20)))
    data.player_spawn = (0, 0)
    p = perceive(World(data), "me")
    assert p.nearby == [] and "Nobody is near" in p.summary


def test_nearest_first_and_at_most_five() -> None:
    data = map_from(OPEN)
    data.npcs.append(NpcSpawn("me", "Me", "p", "g", "smith", (10, 10)))
    for i in range(8):
        data.npcs.append(NpcSpawn(f"n{i}", f"N{i}", "p", "g", "smith", (11 + i % 4, 11 + i // 4)))
    data.player_spawn = (0, 0)
    p = perceive(World(data), "me")
    assert len(p.nearby) == 5
    assert [s.distance for s in p.nearby] == sorted(s.distance for s in p.nearby)


def test_over_budget_drops_far_entities_then_old_speech() -> None:
    data = map_from(OPEN)
    data.npcs.append(NpcSpawn("me", "Me", "p", "g", "smith", (10, 10)))
    for i in range(30):
        data.npcs.append(
            NpcSpawn(f"n{i}", f"Villager{i}", "p", "g", "smith", (5 + i % 10, 5 + i // 10 * 2))
        )
    data.player_spawn = (0, 0)
    world = World(data)
    for i in range(5):
        world.player.place((10, 12))
        world.player_said(f"Line number {i} is a rather long sentence to fill up the budget.")
    full = perceive(world, "me", budget=10_000)
    tight = perceive(world, "me", budget=80)
    assert estimate_tokens(tight.render()) <= 80
    assert len(tight.nearby) < len(full.nearby)
    assert tight.nearby[0].distance == full.nearby[0].distance  # the nearest stays
    assert len(tight.heard) < len(full.heard)
    if tight.heard:
        assert tight.heard[-1].text == full.heard[-1].text  # the newest speech stays


def test_budget_with_thirty_npcs_in_view() -> None:
    data = map_from(OPEN)
    for i in range(30):
        data.npcs.append(NpcSpawn(f"n{i}", f"N{i}", "p", "g", "smith", (3 + i % 15, 8 + i // 15)))
    data.player_spawn = (0, 0)
    world = World(data)
    for npc_id in world.npcs:
        assert estimate_tokens(perceive(world, npc_id).render()) <= 300


def test_a_notice_board_in_sight_is_seen_with_its_posts() -> None:
    data = map_from(OPEN)
    data.npcs.append(NpcSpawn("me", "Me", "p", "g", "smith", (10, 10)))
    data.boards.append(BoardSpot("notice_board", (10, 8)))
    data.player_spawn = (0, 0)
    world = World(data)
    assert (
        perceive(world, "me")
        .render()
        .endswith("A notice board (0 posts) stands two tiles to the north.")
    )
    world.board.post("notice_board", "me", "Bread at noon.")
    world.npcs["me"].place((20, 20))  # out of sight: no board
    assert "board" not in perceive(world, "me").render()
    world.npcs["me"].place((11, 8))
    assert "A notice board (1 post) stands one tile to the west." in perceive(world, "me").render()
