"""The pure simulation: entities on a grid, stepped by the game thread.

`World.step(dt)` drains the command inbox (filled from any thread through `submit`),
advances motion, bubbles and emotes, and resolves each command's future when its action
has finished. What happens that agents should know about is queued as world events,
which the game thread drains with `drain_events()`.
"""

from __future__ import annotations

import math
import queue
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from game.world.commands import (
    Emote,
    Face,
    Impossible,
    Look,
    MoveSteps,
    MoveTo,
    Outcome,
    Say,
    SpeechCancel,
    SpeechDelta,
    SpeechStart,
    Success,
    Wait,
    WorldCommand,
)
from game.world.entities import (
    EMOTE_SECONDS,
    EMOTES,
    Bubble,
    EmoteState,
    Entity,
    Npc,
    Player,
    reading_seconds,
)
from game.world.grid import DIRECTIONS, Grid, Tile
from game.world.perception import perceive
from game.world.tiled import MapData

PLAYER_ID = "player"
BLOCKED_GIVE_UP_S = 3.0
REPATH_AFTER_S = 0.6


@dataclass(frozen=True)
class Spoke:
    """Someone finished saying something at a tile."""

    speaker_id: str
    speaker_name: str
    text: str
    tile: Tile
    target: str | None
    time: float


@dataclass(frozen=True)
class Arrived:
    """An NPC finished a move (or gave up on it)."""

    npc_id: str
    tile: Tile
    ok: bool


WorldEvent = Spoke | Arrived


@dataclass
class _MoveJob:
    """A move in progress: who waits for it and how to describe it when it ends."""

    fut: Future[Outcome] | None
    label: str
    wall: Tile | None = None

    def resolve(self, outcome: Outcome) -> None:
        if self.fut is not None and not self.fut.done():
            self.fut.set_result(outcome)


class World:
    """Tiles, entities and the clock; no drawing, no threads of its own, no network."""

    def __init__(self, map_data: MapData, player_name: str = "Traveller") -> None:
        self.map = map_data
        self.grid = Grid(map_data.width, map_data.height, map_data.blocked)
        self.clock = 0.0
        self.player = Player(PLAYER_ID, player_name, "player", map_data.player_spawn)
        self.npcs: dict[str, Npc] = {}
        for spawn in map_data.npcs:
            self.npcs[spawn.npc_id] = Npc(
                spawn.npc_id,
                spawn.name,
                spawn.sprite,
                spawn.tile,
                persona=spawn.persona,
                greeting=spawn.greeting,
                properties=dict(spawn.properties),
            )
        self.speech_log: deque[Spoke] = deque(maxlen=64)
        self._inbox: queue.SimpleQueue[tuple[WorldCommand, Future[Outcome] | None]] = (
            queue.SimpleQueue()
        )
        self._moves: dict[str, _MoveJob] = {}
        self._events: list[WorldEvent] = []
        self._waits: list[tuple[float, Future[Outcome]]] = []
        self._held: str | None = None

    # --- input from any thread --------------------------------------------------------

    def submit(self, command: WorldCommand) -> Future[Outcome]:
        """Queue a command from any thread; the future resolves when the action is done."""
        fut: Future[Outcome] = Future()
        self._inbox.put((command, fut))
        return fut

    def post(self, command: WorldCommand) -> None:
        """Queue a command nobody waits for (streamed speech deltas)."""
        self._inbox.put((command, None))

    # --- queries ----------------------------------------------------------------------

    def entities(self) -> list[Entity]:
        """The player and every NPC."""
        return [self.player, *self.npcs.values()]

    def entity(self, entity_id: str) -> Entity | None:
        """An entity by id (the player's id is "player")."""
        return self.player if entity_id == PLAYER_ID else self.npcs.get(entity_id)

    def find_by_name(self, name: str) -> Entity | None:
        """An entity by display name or id, case-insensitively; "player" means the player."""
        key = name.strip().lower()
        if key in (PLAYER_ID, "you", self.player.name.lower()):
            return self.player
        for npc in self.npcs.values():
            if key in (npc.entity_id, npc.name.lower()):
                return npc
        return None

    def occupant(self, tile: Tile, exclude: Entity | None = None) -> Entity | None:
        """Whoever stands on (or is walking into) a tile."""
        for ent in self.entities():
            if ent is not exclude and ent.tile == tile:
                return ent
        return None

    def _taken_for(self, npc: Entity) -> Callable[[Tile], bool]:
        return lambda tile: self.occupant(tile, exclude=npc) is not None

    def distance(self, a: Entity, b: Entity) -> float:
        """Straight-line distance in tiles between two entities."""
        return math.dist(a.tile, b.tile)

    def npc_in_reach(self, reach: float = 1.5) -> Npc | None:
        """The nearest NPC next to the player (for the talk key), if any."""
        near = [n for n in self.npcs.values() if self.distance(self.player, n) <= reach]
        return min(near, key=lambda n: self.distance(self.player, n)) if near else None

    def drain_events(self) -> list[WorldEvent]:
        """World events since the last call, oldest first."""
        events, self._events = self._events, []
        return events

    # --- the player -------------------------------------------------------------------

    def hold_direction(self, direction: str | None) -> None:
        """The direction key the player holds now (None when released)."""
        self._held = direction

    def _step_player(self, dt: float) -> None:
        p = self.player
        p.advance(dt)
        if p.moving or self._held is None:
            if not p.moving:
                p.walk_time = 0.0
            return
        dx, dy = DIRECTIONS[self._held]
        nxt = (p.tile[0] + dx, p.tile[1] + dy)
        p.facing = self._held
        if self.grid.walkable(nxt) and self.occupant(nxt, exclude=p) is None:
            p.start_step(self._held)
            # Carry the unused part of this frame into the new step so motion is smooth.
            p.advance(0.0)

    # --- the step ---------------------------------------------------------------------

    def step(self, dt: float) -> None:
        """Advance the world by `dt` seconds of game time."""
        self.clock += dt
        while True:
            try:
                command, fut = self._inbox.get_nowait()
            except queue.Empty:
                break
            outcome = self._apply(command, fut)
            if fut is not None and outcome is not None and not fut.done():
                fut.set_result(outcome)
        if self._waits:
            due = [w for w in self._waits if w[0] <= self.clock]
            self._waits = [w for w in self._waits if w[0] > self.clock]
            for _, fut in due:
                if not fut.done():
                    fut.set_result(Success("you waited"))
        self._step_player(dt)
        for npc in self.npcs.values():
            self._step_npc(npc, dt)
            self._expire(npc)
        self._expire(self.player)

    def _expire(self, ent: Entity) -> None:
        if ent.bubble and ent.bubble.expires is not None and self.clock >= ent.bubble.expires:
            ent.bubble = None
        if ent.emote and self.clock >= ent.emote.expires:
            ent.emote = None

    def _apply(self, command: WorldCommand, fut: Future[Outcome] | None) -> Outcome | None:
        npc = self.npcs.get(command.npc_id)
        if npc is None:
            return Impossible(f"there is no NPC with id {command.npc_id!r}")
        match command:
            case MoveTo(goal=goal, label=label):
                return self._begin_move(npc, goal, label or f"{goal}", fut)
            case MoveSteps(direction=direction, steps=steps):
                return self._begin_steps(npc, direction, steps, fut)
            case SpeechStart():
                npc.bubble = Bubble(started=self.clock)
                npc.activity = "thinking"
                return Success("thinking")
            case SpeechDelta(text=text):
                if npc.bubble is None or not npc.bubble.streaming:
                    npc.bubble = Bubble(started=self.clock)
                npc.bubble.text += text
                npc.activity = "speaking"
                return None
            case Say(text=text, target=target, interrupted=interrupted):
                return self._finish_say(npc, text, target, interrupted)
            case SpeechCancel():
                if npc.bubble is not None and npc.bubble.streaming:
                    if npc.bubble.text:
                        return self._finish_say(npc, npc.bubble.text, None, True)
                    npc.bubble = None
                npc.activity = "idle"
                return Success("quiet")
            case Emote(name=name):
                if name not in EMOTES:
                    return Impossible(f"unknown emote {name!r}; use one of {', '.join(EMOTES)}")
                npc.emote = EmoteState(name, self.clock, self.clock + EMOTE_SECONDS)
                return Success(f"you {name.replace('_', ' ')}")
            case Face(toward=toward):
                return self._face(npc, toward)
            case Look(at=at):
                return self._look(npc, at)
            case Wait(seconds=seconds):
                if fut is not None:
                    self._waits.append((self.clock + seconds, fut))
                npc.activity = "waiting"
                return None
        return Impossible(f"unknown command {type(command).__name__}")

    def _finish_say(self, npc: Npc, text: str, target: str | None, interrupted: bool) -> Outcome:
        text = text.strip()
        if not text:
            npc.bubble = None
            return Impossible("there was nothing to say")
        npc.bubble = Bubble(
            text=text,
            streaming=False,
            started=npc.bubble.started if npc.bubble else self.clock,
            expires=self.clock + reading_seconds(text),
            target=target,
            interrupted=interrupted,
        )
        npc.activity = "idle"
        if target:
            other = self.find_by_name(target)
            if other is not None and other is not npc:
                self._face_entity(npc, other)
        spoke = Spoke(npc.entity_id, npc.name, text, npc.tile, target, self.clock)
        self.speech_log.append(spoke)
        self._events.append(spoke)
        return Success("said")

    def player_said(self, text: str, to: str | None = None) -> None:
        """Record the player's line so NPCs in earshot can perceive it."""
        p = self.player
        p.bubble = Bubble(
            text=text,
            streaming=False,
            started=self.clock,
            expires=self.clock + reading_seconds(text),
            target=to,
        )
        spoke = Spoke(PLAYER_ID, p.name, text, p.tile, to, self.clock)
        self.speech_log.append(spoke)
        self._events.append(spoke)

    def _look(self, npc: Npc, at: str | None) -> Outcome:
        if not at:
            return Success(perceive(self, npc.entity_id).render())
        key = at.strip().lower().replace(" ", "_")
        for place in self.map.places.values():
            if key in (place.name.lower(), f"the_{place.name.lower()}"):
                desc = place.description or "Nothing special."
                return Success(f"{place.name.replace('_', ' ').title()}: {desc}")
        other = self.find_by_name(at)
        if other is None:
            names = ", ".join(sorted(self.map.places))
            return Impossible(f"nothing called {at!r} here; places are: {names}")
        if not isinstance(other, Npc):
            return Success(f"{other.name}, a traveller, stands at {other.tile}.")
        about = other.properties.get("description") or other.persona.split(".")[0]
        return Success(f"{other.name} at {other.tile}: {about}.")

    def _face(self, npc: Npc, toward: str) -> Outcome:
        if toward in DIRECTIONS:
            npc.facing = toward
            return Success(f"facing {toward}")
        other = self.find_by_name(toward)
        if other is None:
            return Impossible(f"nobody called {toward!r} is here")
        self._face_entity(npc, other)
        return Success(f"facing {other.name}")

    @staticmethod
    def _face_entity(ent: Entity, other: Entity) -> None:
        dx, dy = other.tile[0] - ent.tile[0], other.tile[1] - ent.tile[1]
        if dx == dy == 0:
            return
        if abs(dx) >= abs(dy):
            ent.facing = "right" if dx > 0 else "left"
        else:
            ent.facing = "down" if dy > 0 else "up"

    # --- NPC motion -------------------------------------------------------------------

    def _replace_move(self, npc: Npc, job: _MoveJob) -> None:
        old = self._moves.pop(npc.entity_id, None)
        if old is not None:
            old.resolve(Impossible(f"stopped at {npc.tile}: a new move replaced it"))
        self._moves[npc.entity_id] = job

    def _begin_move(
        self, npc: Npc, goal: Tile, label: str, fut: Future[Outcome] | None
    ) -> Outcome | None:
        if not self.grid.inside(goal):
            return Impossible(f"{goal} is outside the map")
        if not self.grid.walkable(goal):
            return Impossible(f"no path: {label} at {goal} cannot be walked on")
        path = self.grid.find_path(
            npc.tile, goal, occupied=lambda t: self.occupant(t, npc) is not None
        )
        if path is None:
            return Impossible(f"no path from {npc.tile} to {label}")
        if not path:
            return Success(f"you are already at {label}")
        self._replace_move(npc, _MoveJob(fut, label))
        npc.path = path
        npc.blocked_for = 0.0
        npc.activity = "walking"
        return None  # resolved on arrival

    def _begin_steps(
        self, npc: Npc, direction: str, steps: int, fut: Future[Outcome] | None
    ) -> Outcome | None:
        if direction not in DIRECTIONS:
            return Impossible(f"unknown direction {direction!r}; use up, down, left or right")
        dx, dy = DIRECTIONS[direction]
        path: list[Tile] = []
        x, y = npc.tile
        for _ in range(steps):
            x, y = x + dx, y + dy
            if not self.grid.walkable((x, y)):
                break
            path.append((x, y))
        npc.facing = direction
        if not path:
            return Impossible(f"blocked at {(x, y)}: you cannot walk {direction} from {npc.tile}")
        # Walk as far as the terrain allows, then report the wall.
        wall = (x, y) if len(path) < steps else None
        self._replace_move(npc, _MoveJob(fut, f"{len(path)} steps {direction}", wall))
        npc.path = path
        npc.blocked_for = 0.0
        npc.activity = "walking"
        return None

    def _step_npc(self, npc: Npc, dt: float) -> None:
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
        blocker = self.occupant(nxt, exclude=npc)
        if blocker is None:
            npc.path.pop(0)
            direction = _direction(npc.tile, nxt)
            npc.start_step(direction)
            npc.advance(0.0)
            npc.blocked_for = 0.0
            return
        npc.blocked_for += dt
        goal = npc.path[-1]
        if npc.blocked_for >= BLOCKED_GIVE_UP_S or (
            goal == nxt and npc.blocked_for >= REPATH_AFTER_S
        ):
            self._fail_move(npc, f"blocked at {nxt} by {blocker.name}")
        elif npc.blocked_for >= REPATH_AFTER_S:
            detour = self.grid.find_path(npc.tile, goal, occupied=self._taken_for(npc))
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
            job.resolve(outcome)
        self._events.append(Arrived(npc.entity_id, npc.tile, outcome.ok))

    def _fail_move(self, npc: Npc, reason: str) -> None:
        npc.path = []
        npc.activity = "idle"
        npc.walk_time = 0.0
        job = self._moves.pop(npc.entity_id, None)
        if job is not None:
            job.resolve(Impossible(reason))
        self._events.append(Arrived(npc.entity_id, npc.tile, False))


def _direction(a: Tile, b: Tile) -> str:
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"
