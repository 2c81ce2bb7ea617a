"""The path planner: a world's handed-out searches answered in budgeted steps."""

from __future__ import annotations

from pathlib import Path

from game.world.commands import MoveTo
from game.world.planner import PLAN_NODES_PER_PUMP, Planner
from game.world.tiled import MapData, NpcSpawn
from game.world.world import World


def test_the_planner_spends_a_budget_a_round_on_a_long_search(tmp_path: Path) -> None:
    walls = {(29, 30), (30, 30), (31, 30), (29, 31), (31, 31), (29, 32), (30, 32), (31, 32)}
    data = MapData(  # 60x60 of open ground; (30, 31) is walled in: no way there
        path=tmp_path / "open.tmx",
        width=60,
        height=60,
        tile_width=32,
        tile_height=32,
        blocked=walls,
        player_spawn=(0, 0),
        npcs=[NpcSpawn("npc_a", "Ada", "A friendly soul.", "Hi!", "smith", (1, 0))],
        places={},
        tile_layers=["ground"],
    )
    world = World(data)
    world.plan_elsewhere()
    planner = Planner(world)
    fut = world.submit(MoveTo("npc_a", (30, 31)))
    world.step(1 / 60)
    rounds = 0
    while not fut.done():
        planner.step()
        world.step(1 / 60)
        rounds += 1
        assert rounds < 100
    # 60x60 tiles to search through before "no path": more than one round's budget.
    assert rounds > 3600 // PLAN_NODES_PER_PUMP
    assert fut.result().message.startswith("no path from (1, 0)")


def test_finish_answers_every_search_at_once(tmp_path: Path) -> None:
    data = MapData(
        path=tmp_path / "open.tmx",
        width=60,
        height=60,
        tile_width=32,
        tile_height=32,
        blocked=set(),
        player_spawn=(0, 0),
        npcs=[NpcSpawn("npc_a", "Ada", "A friendly soul.", "Hi!", "smith", (1, 0))],
        places={},
        tile_layers=["ground"],
    )
    world = World(data)
    world.plan_elsewhere()
    fut = world.submit(MoveTo("npc_a", (58, 58)))
    world.step(1 / 60)
    Planner(world).finish()
    assert world.path_requests.empty()
    world.step(1 / 60)
    assert world.npcs["npc_a"].path and world.npcs["npc_a"].path[-1] == (58, 58)
    assert not fut.done()
