"""The places of a map by square (`PlaceIndex`) answer as reading every place would: the
smallest place a tile is in, a place by name, the nearest points; and a message to a
model lists the nearest places on a big map, every one on a small map."""

from __future__ import annotations

import json
import math
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from game.limits import PROFILE_PLACES
from game.world.commands import GoTo, Impossible, Look
from game.world.places import Nearest, PlaceIndex, place_key
from game.world.tiled import Place, load_map
from game.world.world import World
from tests.world.crowd import crowd_map

SIZE = 120


def _brute_at(places: dict[str, Place], tile: tuple[int, int]) -> Place | None:
    hits = [p for p in places.values() if p.contains(tile)]
    return min(hits, key=lambda p: p.width * p.height) if hits else None


_places = st.lists(
    st.tuples(
        st.integers(0, SIZE - 1),
        st.integers(0, SIZE - 1),
        # small plots, and now and then one covering many squares (read for every tile)
        st.one_of(st.integers(1, 6), st.integers(30, SIZE)),
        st.one_of(st.integers(1, 6), st.integers(30, SIZE)),
    ),
    min_size=0,
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(_places, st.lists(st.tuples(st.integers(-3, SIZE + 3), st.integers(-3, SIZE + 3))))
def test_the_place_at_a_tile_is_the_one_a_full_read_finds(
    boxes: list[tuple[int, int, int, int]], tiles: list[tuple[int, int]]
) -> None:
    places = {
        f"p{i}": Place(f"p{i}", x, y, w, h, f"Place {i}.") for i, (x, y, w, h) in enumerate(boxes)
    }
    index = PlaceIndex(places, (SIZE, SIZE), PROFILE_PLACES)
    probes = tiles + [p.center for p in places.values()] + [(p.x, p.y) for p in places.values()]
    for tile in probes:
        assert index.at(tile) is _brute_at(places, tile), tile


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, SIZE), st.integers(0, SIZE)), min_size=1, max_size=300),
    st.tuples(st.integers(0, SIZE), st.integers(0, SIZE)),
    st.integers(1, 60),
)
def test_the_nearest_are_those_a_full_read_finds(
    points: list[tuple[int, int]], tile: tuple[int, int], count: int
) -> None:
    named = [(f"n{i}", point) for i, point in enumerate(points)]
    index = Nearest(named, (SIZE, SIZE), PROFILE_PLACES)
    x, y = tile

    def away(i: int) -> tuple[int, int]:
        return (points[i][0] - x) ** 2 + (points[i][1] - y) ** 2, i

    expected = sorted(range(len(named)), key=away)
    assert index.nearest(tile, count) == [f"n{i}" for i in expected[:count]]
    skipped = index.nearest(tile, count, skip="n0")
    assert "n0" not in skipped and len(skipped) == min(count, len(named) - 1)


def test_a_place_is_found_by_name_in_any_case_with_or_without_the() -> None:
    places = {
        "old_mill": Place("old_mill", 0, 0, 2, 2),
        "Old_Mill": Place("Old_Mill", 5, 5, 2, 2),  # the map's first of a name wins
        "well": Place("well", 9, 9, 1, 1),
    }
    index = PlaceIndex(places, (SIZE, SIZE), PROFILE_PLACES)
    for asked in ("old mill", "The Old Mill", " OLD_MILL "):
        assert index.named(asked) is places["old_mill"]
    assert index.named("the well") is places["well"] and index.named("castle") is None
    assert place_key("The Old Mill") == "old_mill"


def _big_world(folder: Path, places: int) -> World:
    path = folder / "big.tmj"
    path.write_text(json.dumps(crowd_map(4, places=places)))
    return World(load_map(path))


def _outcome(world: World, command: GoTo | Look) -> str:
    fut = world.submit(command)
    world.step(1 / 60)
    outcome = fut.result(timeout=0)
    assert isinstance(outcome, Impossible)
    return outcome.message


def test_an_unknown_place_on_a_big_map_lists_the_nearest(tmp_path: Path) -> None:
    world = _big_world(tmp_path, 2000)
    reason = _outcome(world, GoTo("v0", "castle"))
    assert f"(the {PROFILE_PLACES} nearest of 2001)" in reason
    listed = reason.split("known places: ", 1)[1].split(" (the", 1)[0].split(", ")
    assert len(listed) == PROFILE_PLACES
    me = world.npcs["v0"].tile

    def away(name: str) -> float:
        px, py = world.map.places[name].center
        return math.hypot(px - me[0], py - me[1])

    farthest = max(away(n) for n in listed)
    assert all(away(n) >= farthest for n in set(world.map.places) - set(listed))
    looked = _outcome(world, Look("v0", "castle"))
    assert f"(the {PROFILE_PLACES} nearest of 2001)" in looked


def test_an_unknown_place_on_a_small_map_lists_every_place(tmp_path: Path) -> None:
    world = _big_world(tmp_path, 3)
    reason = _outcome(world, GoTo("v0", "castle"))
    assert reason.endswith("known places: Barn 1, Cottage 0, Mill 2, green; or a person's name")
