from __future__ import annotations

from game.world.grid import Grid


def make(rows: list[str]) -> Grid:
    blocked = {(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == "#"}
    return Grid(len(rows[0]), len(rows), blocked)


def test_path_goes_around_a_wall() -> None:
    g = make([".....", ".###.", "....."])
    path = g.find_path((0, 1), (4, 1))
    assert path is not None and path[-1] == (4, 1)
    assert all(g.walkable(t) for t in path)
    # Every step is one tile, no diagonals.
    prev = (0, 1)
    for t in path:
        assert abs(t[0] - prev[0]) + abs(t[1] - prev[1]) == 1
        prev = t
    assert len(path) == 6  # around the wall: up, 4 across, down


def test_no_path_to_blocked_or_enclosed_goal() -> None:
    g = make([".#...", "##...", "....."])
    assert g.find_path((4, 2), (1, 1)) is None  # goal is a wall
    assert g.find_path((4, 2), (0, 0)) is None  # enclosed


def test_path_avoids_occupied_tiles_except_goal() -> None:
    g = make(["...", "...", "..."])
    path = g.find_path((0, 1), (2, 1), occupied=lambda t: t == (1, 1))
    assert path is not None and (1, 1) not in path


def test_nearest_walkable() -> None:
    g = make(["###", "#.#", "###"])
    assert g.nearest_walkable((0, 0)) == (1, 1)
