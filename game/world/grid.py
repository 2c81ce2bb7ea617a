"""Walkability and A* paths over a tile grid."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass

Tile = tuple[int, int]

DIRECTIONS: dict[str, Tile] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def direction(a: Tile, b: Tile) -> str:
    """Which way `b` lies from `a` along the longer axis: up, down, left or right (left
    for the same tile)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


class Grid:
    """Static walkability of a map: which tiles can be stood on."""

    def __init__(self, width: int, height: int, blocked: Iterable[Tile]) -> None:
        self.width = width
        self.height = height
        self.blocked = frozenset(blocked)
        # Walkable neighbours of each tile, filled in as searches reach it.
        self._adjacent: dict[Tile, tuple[Tile, ...]] = {}

    def inside(self, tile: Tile) -> bool:
        """Whether a tile lies on the map."""
        return 0 <= tile[0] < self.width and 0 <= tile[1] < self.height

    def walkable(self, tile: Tile) -> bool:
        """Whether a tile is on the map and not blocked by terrain."""
        return self.inside(tile) and tile not in self.blocked

    def neighbours(self, tile: Tile) -> list[Tile]:
        """The walkable tiles one step away (no diagonals)."""
        x, y = tile
        return [
            (x + dx, y + dy) for dx, dy in DIRECTIONS.values() if self.walkable((x + dx, y + dy))
        ]

    def _around(self, tile: Tile) -> tuple[Tile, ...]:
        x, y = tile
        steps = ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y))
        return tuple(t for t in steps if self.walkable(t))

    def find_path(
        self,
        start: Tile,
        goal: Tile,
        *,
        occupied: Callable[[Tile], bool] | None = None,
        max_nodes: int = 20_000,
    ) -> list[Tile] | None:
        """A* from start to goal; the path excludes start and includes goal, or None.

        `occupied` marks tiles taken by others right now; they are avoided except the goal.
        """
        return _finish(self.search(start, goal, occupied=occupied, max_nodes=max_nodes))

    def search(
        self,
        start: Tile,
        goal: Tile,
        *,
        occupied: Callable[[Tile], bool] | None = None,
        max_nodes: int = 20_000,
        chunk: int = 0,
    ) -> Generator[None, None, list[Tile] | None]:
        """`find_path` as a generator that pauses after every `chunk` expanded nodes.

        The caller spreads a long search over several frames; the path (or None) is the
        generator's return value. With `chunk` 0 it never pauses.
        """
        if start == goal:
            return []
        if not self.walkable(goal):
            return None
        gx, gy = goal
        adjacent = self._adjacent
        # Ties in f go to the deeper node (-g first): on open ground A* then runs straight
        # at the goal instead of widening a diamond of equal-cost nodes (10x fewer pops).
        frontier: list[tuple[int, int, Tile]] = [
            (abs(start[0] - gx) + abs(start[1] - gy), 0, start)
        ]
        came: dict[Tile, Tile] = {}
        cost: dict[Tile, int] = {start: 0}
        expanded = 0
        while frontier:
            _, neg_g, cur = heapq.heappop(frontier)
            g = -neg_g
            if cur == goal:
                path = [cur]
                while path[-1] in came and came[path[-1]] != start:
                    path.append(came[path[-1]])
                return path[::-1]
            if g > cost.get(cur, g):
                continue
            expanded += 1
            if expanded > max_nodes:
                return None
            if chunk and expanded % chunk == 0:
                yield
            around = adjacent.get(cur)
            if around is None:
                around = adjacent[cur] = self._around(cur)
            ng = g + 1
            for nxt in around:
                if occupied is not None and nxt != goal and occupied(nxt):
                    continue
                if ng < cost.get(nxt, 1 << 30):
                    cost[nxt] = ng
                    came[nxt] = cur
                    f = ng + abs(nxt[0] - gx) + abs(nxt[1] - gy)
                    heapq.heappush(frontier, (f, -ng, nxt))
        return None

    def nearest_walkable(
        self, near: Tile, *, free: Callable[[Tile], bool] | None = None
    ) -> Tile | None:
        """The closest walkable (and free) tile to `near`, by rings of growing distance."""
        for radius in range(0, max(self.width, self.height)):
            ring = [
                (near[0] + dx, near[1] + dy)
                for dx in range(-radius, radius + 1)
                for dy in range(-radius, radius + 1)
                if max(abs(dx), abs(dy)) == radius
            ]
            ring.sort(key=lambda t: abs(t[0] - near[0]) + abs(t[1] - near[1]))
            for tile in ring:
                if self.walkable(tile) and (free is None or free(tile)):
                    return tile
        return None


@dataclass(frozen=True)
class PathRequest:
    """A path search handed out of the world's step, with what it needs to run anywhere:
    the tiles others stood on when it was asked (they are avoided, the goal excepted)."""

    npc_id: str
    token: int
    start: Tile
    goal: Tile
    occupied: frozenset[Tile]
    max_nodes: int = 20_000

    def search(self, grid: Grid, chunk: int) -> Generator[None, None, list[Tile] | None]:
        """The search, pausing every `chunk` nodes (see `Grid.search`)."""
        return grid.search(
            self.start,
            self.goal,
            occupied=self.occupied.__contains__,
            max_nodes=self.max_nodes,
            chunk=chunk,
        )

    def run(self, grid: Grid) -> list[Tile] | None:
        """The path, found in one go."""
        return _finish(self.search(grid, 0))


def _finish(search: Generator[None, None, list[Tile] | None]) -> list[Tile] | None:
    """Run a search to its end; its path (or None)."""
    while True:
        try:
            next(search)
        except StopIteration as done:
            path: list[Tile] | None = done.value
            return path
