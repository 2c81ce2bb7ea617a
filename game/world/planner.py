"""The path planner: answers the searches a world hands out, off the world's step.

A world that plans elsewhere (`World.plan_elsewhere`) queues a `PathRequest` on
`World.path_requests` for every path it needs; `Planner.step` runs those searches on its
own copy of the grid, a budget of A* nodes at a time, and posts each answer back as a
`PathFound` command. Whoever calls `step` decides where the searching happens: the game
calls it from the agent loop's mailbox (`game.bridge.Mailbox`), so no frame pays for an
A* search.
"""

from __future__ import annotations

from collections.abc import Generator

from game.world.commands import PathFound
from game.world.grid import Grid, PathRequest, Tile
from game.world.world import World

# A* nodes the planner expands per step (the mailbox steps it every 20 ms), in chunks.
PLAN_NODES_PER_PUMP = 2000
PLAN_CHUNK = 200


class Planner:
    """Runs a world's handed-out path searches on a grid of its own, a budget at a time."""

    def __init__(self, world: World) -> None:
        self.world = world
        # Its own grid: the grid's neighbour cache is not shared across threads.
        self._grid = Grid(world.grid.width, world.grid.height, world.grid.blocked)
        # The search it is in the middle of.
        self._planning: tuple[PathRequest, Generator[None, None, list[Tile] | None]] | None = None

    def step(self, budget: int | None = PLAN_NODES_PER_PUMP) -> None:
        """Answer the path searches the world handed out, up to `budget` A* nodes (None:
        all): a search across a walled-off map holds the GIL in slices, not in one go."""
        requests = self.world.path_requests
        while budget is None or budget > 0:
            if self._planning is None:
                if requests.empty():
                    return
                request = requests.get_nowait()
                self._planning = (request, request.search(self._grid, PLAN_CHUNK))
            request, search = self._planning
            try:
                next(search)
            except StopIteration as done:
                self._planning = None
                found = None if done.value is None else tuple(done.value)
                self.world.post(PathFound(request.npc_id, request.token, found))
            if budget is not None:
                budget -= PLAN_CHUNK

    def finish(self) -> None:
        """Answer every search handed out so far, whatever it costs."""
        self.step(budget=None)
