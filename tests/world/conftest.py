"""Worlds built in code for fast, exact tests of the simulation."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.world.tiled import MapData, NpcSpawn, Place
from game.world.world import World

# A 12x8 map: '#' wall, '~' water, '.' ground, letters are NPCs, '@' the player.
LAYOUT = """
############
#....#.....#
#.@..#..a..#
#....#.....#
#..........#
#~~~~~~..b.#
#~~~~~~....#
############
"""


def map_from(layout: str, places: dict[str, Place] | None = None) -> MapData:
    rows = [r for r in layout.strip("\n").splitlines()]
    blocked = set()
    npcs = []
    spawn = (0, 0)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "#~":
                blocked.add((x, y))
            elif ch == "@":
                spawn = (x, y)
            elif ch.isalpha():
                npcs.append(
                    NpcSpawn(
                        npc_id=f"npc_{ch}",
                        name=ch.upper() + "da",
                        persona="A friendly soul.",
                        greeting="Hi!",
                        sprite="smith",
                        tile=(x, y),
                    )
                )
    return MapData(
        path=Path("test.tmx"),
        width=len(rows[0]),
        height=len(rows),
        tile_width=32,
        tile_height=32,
        blocked=blocked,
        player_spawn=spawn,
        npcs=npcs,
        places=places
        or {
            "pond": Place("pond", 1, 5, 6, 2, "A still pond."),
            "yard": Place("yard", 6, 1, 5, 3, "A sunny yard."),
        },
        tile_layers=["ground"],
    )


def run_until(world: World, done, *, dt: float = 1 / 60, limit_s: float = 30.0) -> None:
    """Step the world until `done()` is true (game time, not wall time)."""
    t = 0.0
    while not done():
        world.step(dt)
        t += dt
        assert t < limit_s, "the world never reached the expected state"


@pytest.fixture
def world() -> World:
    return World(map_from(LAYOUT))
