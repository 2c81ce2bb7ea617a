"""NPC motion: moves to a place, a person or a tile, walks of a few steps, and the path
searches behind them.

A new move's A* search runs a budget of nodes per world step, or (with a planner
elsewhere, see `World.plan_elsewhere`) is handed out as a `PathRequest` whose answer comes
back with a token. An NPC blocked on its way looks for a detour, then gives up.
"""

from __future__ import annotations

import itertools
import queue
from collections.abc import Generator
from concurrent.futures import Future
from dataclasses import dataclass

from game.limits import PROFILE_PLACES
from game.world.entities import Npc
from game.world.grid import DIRECTIONS, PathRequest, Tile, direction
from game.world.outcomes import Impossible, Outcome, Success, resolve
from game.world.state import WorldState
from game.world.tiled import Place

BLOCKED_GIVE_UP_S = 3.0
REPATH_AFTER_S = 0.6
DETOUR_NODES = 1500  # how far a detour around someone in the way may search
OBSTACLE_TILES = 12  # others within this many tiles are obstacles to a path being planned
# A* nodes expanded per step for new moves: a long search spreads over a few steps, so
# no frame pays for a path across a big map (the walk starts a few frames later).
PATH_NODES_PER_STEP = 80
PATH_CHUNK = 20
# A search handed to a planner elsewhere and not answered in this much game time is run
# here after all (the planner stopped, or is far behind).
PLAN_TIMEOUT_S = 2.0


@dataclass
class _MoveJob:
    """A move in progress: who waits for it and how to describe it when it ends."""

    fut: Future[Outcome] | None
    label: str
    wall: Tile | None = None


@dataclass
class _PathSearch:
    """A move waiting for its path: the A* search runs a few hundred nodes a step, or
    (with `search` None) a planner elsewhere answers request `token` asked at `asked_at`."""

    job: _MoveJob
    goal: Tile
    search: Generator[None, None, list[Tile] | None] | None
    token: int = 0
    asked_at: float = 0.0


class Motion:
    """The NPCs' moves in a world: paths being found, paths being walked."""

    def __init__(self, state: WorldState, requests: queue.SimpleQueue[PathRequest]) -> None:
        self.state = state
        self._requests = requests  # path searches for a planner elsewhere
        self._elsewhere = False  # whether a planner elsewhere answers `_requests`
        self._moves: dict[str, _MoveJob] = {}
        self._searches: dict[str, _PathSearch] = {}  # moves whose path is being found
        # Detours asked of the planner for NPCs blocked on their way: (token, asked at,
        # from where).
        self._detours: dict[str, tuple[int, float, Tile]] = {}
        self._budget = PATH_NODES_PER_STEP
        self._tokens = itertools.count(1)

    def plan_elsewhere(self, on: bool) -> None:
        """Hand new path searches to the planner (or, off, run the searches still out
        here again)."""
        self._elsewhere = on
        if not on:
            self._detours.clear()  # nobody will answer them: blocked NPCs search here
            for npc_id, entry in self._searches.items():
                if entry.search is None:
                    entry.search = self._search_from(self.state.npcs[npc_id], entry.goal)

    def new_step(self) -> None:
        """A world step begins: a fresh budget of A* nodes."""
        self._budget = PATH_NODES_PER_STEP

    # --- starting a move ----------------------------------------------------------------

    def go_to(self, npc: Npc, to: str, fut: Future[Outcome] | None) -> Outcome | None:
        """Walk to a named place or beside someone."""
        state = self.state
        place = state.place_named(to)
        if place is not None:
            label = f"the {place.name.replace('_', ' ')}"
            if place.contains(npc.tile):
                return Success(f"you are already at {label}")
            goal = self._spot_in(place, npc)
            if goal is None:
                return Impossible(f"no free spot to stand at {label}")
            return self.move(npc, goal, label, fut)
        other = state.find_by_name(to)
        if other is npc:
            return Impossible("that is you; name a place or someone else")
        if other is not None:
            if abs(other.tile[0] - npc.tile[0]) + abs(other.tile[1] - npc.tile[1]) == 1:
                npc.face(other.tile)
                return Success(f"you are already next to {other.name}")
            goal = self._spot_near(other.tile, npc)
            if goal is None:
                return Impossible(f"no free tile next to {other.name}")
            return self.move(npc, goal, other.name, fut)
        names, which = state.map.place_index.listed(npc.tile, PROFILE_PLACES)
        places = ", ".join(sorted(p.replace("_", " ") for p in names)) + which
        return Impossible(f"unknown place {to!r}; known places: {places}; or a person's name")

    def _spot_in(self, place: Place, npc: Npc) -> Tile | None:
        """The free walkable tile of a place nearest its centre (else nearest the centre)."""
        state = self.state
        cx, cy = place.center
        taken = {
            ent.tile
            for ent in state.spatial.near(place.center, max(place.width, place.height))
            if ent is not npc
        }
        grid = state.grid
        blocked = grid.blocked
        best: Tile | None = None
        best_d = 1 << 30
        for x in range(max(0, place.x), min(grid.width, place.x + place.width)):
            for y in range(max(0, place.y), min(grid.height, place.y + place.height)):
                tile = (x, y)
                if tile in blocked or tile in taken:
                    continue
                d = (x - cx) ** 2 + (y - cy) ** 2
                if d < best_d:
                    best, best_d = tile, d
        if best is not None:
            return best
        return grid.nearest_walkable(place.center, free=lambda t: state.occupant(t, npc) is None)

    def _spot_near(self, other: Tile, npc: Npc) -> Tile | None:
        """A free tile beside the tile `other`, the one nearest `npc` first."""
        state = self.state
        ox, oy = other
        sides = [(ox + dx, oy + dy) for dx, dy in DIRECTIONS.values()]
        sides.sort(key=lambda t: abs(t[0] - npc.tile[0]) + abs(t[1] - npc.tile[1]))
        for tile in sides:
            if state.grid.walkable(tile) and state.occupant(tile, npc) is None:
                return tile
        return state.grid.nearest_walkable(
            other, free=lambda t: t != other and state.occupant(t, npc) is None
        )

    def move(self, npc: Npc, goal: Tile, label: str, fut: Future[Outcome] | None) -> Outcome | None:
        """Walk to a tile along an A* path; resolved on arrival (or when no path is found)."""
        grid = self.state.grid
        if not grid.inside(goal):
            return Impossible(f"{goal} is outside the map")
        if not grid.walkable(goal):
            return Impossible(f"no path: {label} at {goal} cannot be walked on")
        if goal == npc.tile:
            return Success(f"you are already at {label}")
        # The old move ends now: the NPC finishes its step and waits for the new path.
        self.halt(npc, "stopped: a new move replaced it")
        npc.activity = "walking"
        job = _MoveJob(fut, label)
        if self._elsewhere:
            token = next(self._tokens)
            self._searches[npc.entity_id] = _PathSearch(job, goal, None, token, self.state.clock)
            self._requests.put(
                PathRequest(npc.entity_id, token, npc.tile, goal, self._taken_near(npc))
            )
            return None
        self._searches[npc.entity_id] = _PathSearch(job, goal, self._search_from(npc, goal))
        self.advance_searches()  # short paths are found at once
        return None

    def walk(self, npc: Npc, way: str, steps: int, fut: Future[Outcome] | None) -> Outcome | None:
        """Walk a few tiles one way, as far as the terrain allows."""
        if way not in DIRECTIONS:
            return Impossible(f"unknown direction {way!r}; use up, down, left or right")
        dx, dy = DIRECTIONS[way]
        path: list[Tile] = []
        x, y = npc.tile
        for _ in range(steps):
            x, y = x + dx, y + dy
            if not self.state.grid.walkable((x, y)):
                break
            path.append((x, y))
        npc.facing = way
        if not path:
            return Impossible(f"blocked at {(x, y)}: you cannot walk {way} from {npc.tile}")
        # Walk as far as the terrain allows, then report the wall.
        wall = (x, y) if len(path) < steps else None
        self._replace_move(npc, _MoveJob(fut, f"{len(path)} steps {way}", wall))
        npc.path = path
        npc.blocked_for = 0.0
        npc.activity = "walking"
        return None

    def halt(self, npc: Npc, reason: str) -> None:
        """Drop the rest of a path: the NPC stops on the tile it is walking into."""
        searching = self._searches.pop(npc.entity_id, None)
        if searching is not None:
            resolve(searching.job.fut, Impossible(f"{reason} at {npc.tile}"))
            npc.activity = "idle"
        if not npc.path and npc.entity_id not in self._moves:
            return
        npc.path = []
        job = self._moves.pop(npc.entity_id, None)
        if job is not None:
            resolve(job.fut, Impossible(f"{reason} at {npc.tile}"))
        if not npc.moving:
            npc.activity = "idle"
            npc.walk_time = 0.0

    def _replace_move(self, npc: Npc, job: _MoveJob) -> None:
        replaced = Impossible(f"stopped at {npc.tile}: a new move replaced it")
        searching = self._searches.pop(npc.entity_id, None)
        if searching is not None:
            resolve(searching.job.fut, replaced)
        old = self._moves.pop(npc.entity_id, None)
        if old is not None:
            resolve(old.fut, replaced)
        self._moves[npc.entity_id] = job

    # --- finding the path ---------------------------------------------------------------

    def _taken_near(self, npc: Npc) -> frozenset[Tile]:
        """The tiles others stand on within `OBSTACLE_TILES` of `npc`: what a path search
        steers around (anyone farther will have moved on by the time `npc` gets there)."""
        return frozenset(
            ent.tile for ent in self.state.spatial.near(npc.tile, OBSTACLE_TILES) if ent is not npc
        )

    def _search_from(self, npc: Npc, goal: Tile) -> Generator[None, None, list[Tile] | None]:
        taken = self._taken_near(npc).__contains__
        return self.state.grid.search(npc.tile, goal, occupied=taken, chunk=PATH_CHUNK)

    def path_found(self, npc: Npc, token: int, path: tuple[Tile, ...] | None) -> None:
        """The planner's answer to request `token`: a move's path or a detour."""
        detour = self._detours.get(npc.entity_id)
        if detour is not None and detour[0] == token:
            del self._detours[npc.entity_id]
            still_blocked = npc.blocked_for > 0 and npc.tile == detour[2] and not npc.moving
            if path and still_blocked and npc.path and npc.path[-1] == path[-1]:
                npc.path = list(path)  # go round
            return
        entry = self._searches.get(npc.entity_id)
        if entry is None or entry.token != token:
            return  # that move was replaced or halted meanwhile
        del self._searches[npc.entity_id]
        self._found(npc, entry, None if path is None else list(path))

    def advance_searches(self) -> None:
        """Spend this step's node budget on the waiting searches, oldest first."""
        for npc_id in list(self._searches):
            entry = self._searches[npc_id]
            if entry.search is None:
                if self.state.clock - entry.asked_at < PLAN_TIMEOUT_S:
                    continue  # the planner's answer is on its way
                entry.search = self._search_from(self.state.npcs[npc_id], entry.goal)
            while self._budget > 0:
                entry = self._searches[npc_id]
                assert entry.search is not None
                self._budget -= PATH_CHUNK
                try:
                    next(entry.search)
                except StopIteration as done:
                    del self._searches[npc_id]
                    self._found(self.state.npcs[npc_id], entry, done.value)
                    break
            if self._budget <= 0:
                return

    def _found(self, npc: Npc, entry: _PathSearch, path: list[Tile] | None) -> None:
        job = entry.job
        if path is None:
            npc.activity = "idle"
            resolve(job.fut, Impossible(f"no path from {npc.tile} to {job.label}"))
            return
        if not path:
            npc.activity = "idle"
            resolve(job.fut, Success(f"you are already at {job.label}"))
            return
        self._replace_move(npc, job)
        npc.path = path
        npc.blocked_for = 0.0
        npc.repaths = 0
        npc.activity = "walking"

    # --- walking the path ---------------------------------------------------------------

    def step_npc(self, npc: Npc, dt: float) -> None:
        """Walk the NPC on along its path; wait, go round or give up when blocked."""
        if npc.advance(dt):
            if not npc.path:
                self._arrive(npc)
                return
        if npc.moving:
            return
        if not npc.path:
            npc.walk_time = 0.0
            return
        nxt = npc.path[0]
        blocker = self.state.occupant(nxt, exclude=npc)
        if blocker is None:
            npc.path.pop(0)
            npc.start_step(direction(npc.tile, nxt))
            npc.advance(0.0)
            npc.blocked_for = 0.0
            npc.repaths = 0
            return
        npc.blocked_for += dt
        goal = npc.path[-1]
        if npc.blocked_for >= BLOCKED_GIVE_UP_S or (
            goal == nxt and npc.blocked_for >= REPATH_AFTER_S
        ):
            self._fail_move(npc, f"blocked at {nxt} by {blocker.name}")
        elif npc.blocked_for >= REPATH_AFTER_S * (npc.repaths + 1):
            # One local detour attempt per REPATH_AFTER_S, never one per frame: a search
            # that fails explores the whole region around the blocker.
            npc.repaths += 1
            self._detour(npc, goal)

    def _detour(self, npc: Npc, goal: Tile) -> None:
        """Look for a way round whoever blocks `npc`: asked of the planner when there is
        one (unless an earlier ask is still out), else searched now."""
        clock = self.state.clock
        if self._elsewhere:
            asked = self._detours.get(npc.entity_id)
            if asked is None or clock - asked[1] >= PLAN_TIMEOUT_S:
                token = next(self._tokens)
                self._detours[npc.entity_id] = (token, clock, npc.tile)
                self._requests.put(
                    PathRequest(
                        npc.entity_id, token, npc.tile, goal, self._taken_near(npc), DETOUR_NODES
                    )
                )
            return
        taken = self._taken_near(npc).__contains__
        detour = self.state.grid.find_path(npc.tile, goal, occupied=taken, max_nodes=DETOUR_NODES)
        if detour:
            npc.path = detour

    def _arrive(self, npc: Npc) -> None:
        npc.activity = "idle"
        npc.walk_time = 0.0
        job = self._moves.pop(npc.entity_id, None)
        outcome: Outcome = Success(f"arrived at {npc.tile}")
        if job is not None and job.wall is not None:
            outcome = Impossible(
                f"you walked {job.label} to {npc.tile}, then were blocked at {job.wall}"
            )
        elif job is not None:
            outcome = Success(f"arrived at {job.label} {npc.tile}")
        if job is not None:
            resolve(job.fut, outcome)

    def _fail_move(self, npc: Npc, reason: str) -> None:
        npc.path = []
        npc.activity = "idle"
        npc.walk_time = 0.0
        job = self._moves.pop(npc.entity_id, None)
        if job is not None:
            resolve(job.fut, Impossible(reason))
