from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.entities import Entity
from game.world.events import Spoke
from game.world.grid import DIRECTIONS
from game.world.spatial import SpatialIndex
from game.world.world import World


def _ents(*tiles: tuple[int, int]) -> list[Entity]:
    return [Entity(f"e{i}", f"E{i}", "x", tile) for i, tile in enumerate(tiles)]


def test_at_finds_who_stands_on_a_tile_and_honours_exclude() -> None:
    a, b = _ents((3, 3), (9, 3))
    index = SpatialIndex([a, b], area=4)
    assert index.at((3, 3)) is a
    assert index.at((3, 3), exclude=a) is None
    assert index.at((9, 3)) is b
    assert index.at((4, 3)) is None


def test_a_step_across_squares_is_followed() -> None:
    (a,) = _ents((3, 0))
    index = SpatialIndex([a], area=4)
    a.start_step("right")  # (3, 0) -> (4, 0): a new square
    assert index.at((4, 0)) is a
    assert index.at((3, 0)) is None
    assert index.near((7, 0), 3) == [a]
    assert index.near((0, 0), 2) == []


def test_placing_from_outside_keeps_the_index_true() -> None:
    """A save loaded, or a test placing someone, changes tiles without the world."""
    (a,) = _ents((1, 1))
    index = SpatialIndex([a], area=4)
    a.place((30, 30))
    assert index.at((30, 30)) is a
    assert index.near((1, 1), 5) == []


def test_near_is_a_square_of_reach_on_both_axes() -> None:
    ents = _ents((5, 5), (8, 5), (5, 9), (9, 9), (2, 2))
    index = SpatialIndex(ents, area=3)
    found = {e.entity_id for e in index.near((5, 5), 3)}
    assert found == {"e0", "e1", "e4"}  # (5, 9) is 4 away on y; (9, 9) 4 on both


@settings(max_examples=60, deadline=None)
@given(
    starts=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=12),
    moves=st.lists(
        st.tuples(
            st.integers(0, 11),
            st.one_of(
                st.sampled_from(sorted(DIRECTIONS)),
                st.tuples(st.integers(-5, 45), st.integers(-5, 45)),
            ),
        ),
        max_size=40,
    ),
    probe=st.tuples(st.integers(-5, 45), st.integers(-5, 45)),
    reach=st.integers(0, 12),
    area=st.integers(1, 9),
)
def test_index_answers_as_a_scan_of_everyone_would(
    starts: list[tuple[int, int]],
    moves: list[tuple[int, str | tuple[int, int]]],
    probe: tuple[int, int],
    reach: int,
    area: int,
) -> None:
    ents = _ents(*starts)
    index = SpatialIndex(ents, area=area)
    for who, move in moves:
        ent = ents[who % len(ents)]
        if isinstance(move, str):
            ent.start_step(move)
        else:
            ent.place(move)
    by_scan = {
        e.entity_id
        for e in ents
        if abs(e.tile[0] - probe[0]) <= reach and abs(e.tile[1] - probe[1]) <= reach
    }
    assert {e.entity_id for e in index.near(probe, reach)} == by_scan
    on_probe = [e for e in ents if e.tile == probe]
    assert (index.at(probe) is None) == (not on_probe)


def test_world_near_is_a_circle_nearest_first(world: World) -> None:
    player = world.player
    others = [n for n in world.npcs.values()]
    for npc in others:
        npc.place((player.tile[0] + 40, player.tile[1] + 40))  # out of the way
    a, b = others[0], others[1]
    a.place((player.tile[0] + 3, player.tile[1]))
    b.place((player.tile[0] + 2, player.tile[1] + 2))  # 2.83 tiles: nearer than a
    near = world.near(player.tile, 3)
    assert [e for _, e in near] == [player, b, a]
    assert math.isclose(near[1][0], math.hypot(2, 2))
    b.place((player.tile[0] + 3, player.tile[1] + 3))  # 4.24: out of a circle of 3
    assert [e for _, e in world.near(player.tile, 3)] == [player, a]
    assert world.npc_in_reach(3.0) is a


def test_a_line_is_heard_by_who_stood_in_earshot_when_it_was_said(world: World) -> None:
    npc = next(iter(world.npcs.values()))
    player = world.player
    npc.place((player.tile[0] + 30, player.tile[1] + 30))  # far away
    world.player_said("first")
    npc.place(world.grid.nearest_walkable(player.tile, free=lambda t: t != player.tile))
    world.player_said("second")
    spoken = [e for e in world.drain_events() if isinstance(e, Spoke)]
    assert [npc in world.listeners(s) for s in spoken] == [False, True]
    assert [s.text for s in npc.heard] == ["second"]  # walking up later hears nothing old
    world.forget_speech()
    assert not npc.heard and not world.speech_log
