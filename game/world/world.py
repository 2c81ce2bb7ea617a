"""The pure simulation: entities on a grid, stepped by the game thread.

`World.step(dt)` drains the command inbox (filled from any thread through `submit`),
advances motion, bubbles and emotes, and resolves each command's future when its action
has finished. What happens that agents should know about is queued as world events,
which the game thread drains with `drain_events()`.
"""

from __future__ import annotations

import itertools
import math
import queue
from collections import deque
from collections.abc import Generator
from concurrent.futures import Future
from dataclasses import dataclass

from game.world.commands import (
    Ask,
    Emote,
    Face,
    GoTo,
    Halt,
    Impossible,
    Look,
    MoveSteps,
    MoveTo,
    Outcome,
    PathFound,
    Perceived,
    Say,
    SpeechCancel,
    SpeechDelta,
    SpeechStart,
    Success,
    Wait,
    WorldCommand,
)
from game.world.entities import (
    ASK_REACH_TILES,
    EARSHOT_TILES,
    EMOTE_SECONDS,
    EMOTES,
    Bubble,
    EmoteState,
    Entity,
    Npc,
    Player,
    reading_seconds,
)
from game.world.grid import DIRECTIONS, Grid, PathRequest, Tile
from game.world.perception import sense
from game.world.spatial import SpatialIndex
from game.world.tiled import MapData, Place

PLAYER_ID = "player"
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
# Commands whose handling reads around the map (who is near, free spots, perception) or
# starts a walk: with `defer_costly` set, a step leaves them for `run_costly`. (A cancel
# ends a line the way a say does.)
COSTLY = (GoTo, MoveTo, Say, SpeechCancel, Look, Ask, PathFound)
ASK_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Spoke:
    """Someone finished saying something at a tile."""

    speaker_id: str
    speaker_name: str
    text: str
    tile: Tile
    target: str | None
    time: float
    target_id: str | None = None
    interrupted: bool = False
    heard_by: tuple[str, ...] = ()  # the NPCs within earshot, nearest first


@dataclass(frozen=True)
class Arrived:
    """An NPC finished a move (or gave up on it)."""

    npc_id: str
    tile: Tile
    ok: bool


WorldEvent = Spoke | Arrived


@dataclass
class _PathSearch:
    """A move waiting for its path: the A* search runs a few hundred nodes a step, or
    (with `search` None) a planner elsewhere answers request `token` asked at `asked_at`."""

    job: _MoveJob
    goal: Tile
    search: Generator[None, None, list[Tile] | None] | None
    token: int = 0
    asked_at: float = 0.0


@dataclass
class PendingAsk:
    """A question an NPC put to the player, waiting for the player's pick."""

    npc_id: str
    npc_name: str
    question: str
    options: tuple[str, ...]
    started: float
    fut: Future[Outcome] | None = None

    def resolve(self, outcome: Outcome) -> None:
        if self.fut is not None and not self.fut.done():
            self.fut.set_result(outcome)


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
        self._waits: list[tuple[float, str, Future[Outcome]]] = []
        self._held: str | None = None
        # Who stands where, kept true by the entities themselves as they move.
        self.spatial = SpatialIndex(self.entities())
        self._searches: dict[str, _PathSearch] = {}  # moves whose path is being found
        # Detours asked of the planner for NPCs blocked on their way: (token, asked at,
        # from where).
        self._detours: dict[str, tuple[int, float, Tile]] = {}
        self._path_budget = PATH_NODES_PER_STEP
        # Path searches for a planner on another thread (see `plan_elsewhere`).
        self.path_requests: queue.SimpleQueue[PathRequest] = queue.SimpleQueue()
        self._planner = False
        # The game sets `defer_costly`: a step then leaves costly commands waiting for
        # `run_costly`, called when a frame has time to spare. An NPC's commands after
        # its waiting one wait behind it, in order; other NPCs' go ahead.
        self.defer_costly = False
        self._deferred: dict[str, deque[tuple[WorldCommand, Future[Outcome] | None]]] = {}
        self._costly_order: deque[str] = deque()  # an NPC id per costly command held
        self._tokens = itertools.count(1)
        self.ask: PendingAsk | None = None
        # NPCs by lower-case name, for find_by_name (every NPC spawns with the map).
        self._names = {npc.name.lower(): npc for npc in self.npcs.values()}

    # --- input from any thread --------------------------------------------------------

    def submit(self, command: WorldCommand) -> Future[Outcome]:
        """Queue a command from any thread; the future resolves when the action is done."""
        fut: Future[Outcome] = Future()
        self._inbox.put((command, fut))
        return fut

    def post(self, command: WorldCommand) -> None:
        """Queue a command nobody waits for (streamed speech deltas)."""
        self._inbox.put((command, None))

    def plan_elsewhere(self, on: bool = True) -> None:
        """Hand new path searches to a planner through `path_requests` instead of running
        them in the step; it answers each with a `PathFound` command. Off, the searches
        still out run here again. Call on the game thread."""
        self._planner = on
        if not on:
            self._detours.clear()  # nobody will answer them: blocked NPCs search here
            for npc_id, entry in self._searches.items():
                if entry.search is None:
                    entry.search = self._search_from(self.npcs[npc_id], entry.goal)

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
        return self.npcs.get(key) or self._names.get(key)

    def occupant(self, tile: Tile, exclude: Entity | None = None) -> Entity | None:
        """Whoever stands on (or is walking into) a tile."""
        return self.spatial.at(tile, exclude)

    def near(self, tile: Tile, reach: float) -> list[tuple[float, Entity]]:
        """Everyone within `reach` tiles (straight line) of a tile, with their distance,
        nearest first (ties by id, so the order never depends on who moved when)."""
        tx, ty = tile
        limit = reach * reach
        found = []
        for ent in self.spatial.near(tile, reach):
            x, y = ent.tile
            d2 = (x - tx) * (x - tx) + (y - ty) * (y - ty)
            if d2 <= limit:
                found.append((d2, ent.entity_id, ent))
        found.sort()  # ids are unique: entities themselves are never compared
        return [(math.sqrt(d2), ent) for d2, _, ent in found]

    def listeners(self, spoke: Spoke) -> list[Npc]:
        """The NPCs that were within earshot of a line when it was said, nearest first."""
        return [self.npcs[npc_id] for npc_id in spoke.heard_by]

    def _taken_near(self, npc: Entity) -> frozenset[Tile]:
        """The tiles others stand on within `OBSTACLE_TILES` of `npc`: what a path search
        steers around (anyone farther will have moved on by the time `npc` gets there)."""
        return frozenset(
            ent.tile for ent in self.spatial.near(npc.tile, OBSTACLE_TILES) if ent is not npc
        )

    def distance(self, a: Entity, b: Entity) -> float:
        """Straight-line distance in tiles between two entities."""
        return math.dist(a.tile, b.tile)

    def npc_in_reach(self, reach: float = 1.5) -> Npc | None:
        """The nearest NPC next to the player (for the talk key), if any."""
        return next(
            (ent for _, ent in self.near(self.player.tile, reach) if isinstance(ent, Npc)), None
        )

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
        self._path_budget = PATH_NODES_PER_STEP
        self._drain_inbox()
        if self._searches:
            self._advance_searches()
        if self._waits:
            self._finish_waits()
        if self.ask is not None:
            self._check_ask()
        self._step_player(dt)
        for npc in self.npcs.values():
            self._step_npc(npc, dt)
            self._expire(npc)
        self._expire(self.player)

    def _drain_inbox(self) -> None:
        deferred = self._deferred
        while True:
            try:
                command, fut = self._inbox.get_nowait()
            except queue.Empty:
                break
            queued = deferred.get(command.npc_id)
            costly = self.defer_costly and isinstance(command, COSTLY)
            if queued is None and not costly:
                self._run(command, fut)
                continue
            if queued is None:
                queued = deferred[command.npc_id] = deque()
            queued.append((command, fut))
            if costly:
                self._costly_order.append(command.npc_id)

    @property
    def costly_waiting(self) -> int:
        """Costly commands left waiting by `defer_costly` steps."""
        return len(self._costly_order)

    def run_costly(self) -> bool:
        """Handle the oldest costly command waiting (see `defer_costly`), then what its
        NPC sent after it, up to its next costly one. False when none waits."""
        if not self._costly_order:
            return False
        npc_id = self._costly_order.popleft()
        queued = self._deferred[npc_id]
        self._run(*queued.popleft())
        while queued and not isinstance(queued[0][0], COSTLY):
            self._run(*queued.popleft())
        if not queued:
            del self._deferred[npc_id]
        return True

    def _run(self, command: WorldCommand, fut: Future[Outcome] | None) -> None:
        outcome = self._apply(command, fut)
        if fut is not None and outcome is not None and not fut.done():
            fut.set_result(outcome)

    def _finish_waits(self) -> None:
        due = [w for w in self._waits if w[0] <= self.clock]
        if not due:
            return
        self._waits = [w for w in self._waits if w[0] > self.clock]
        for _, npc_id, fut in due:
            if not fut.done():
                fut.set_result(Success("you waited"))
            npc = self.npcs.get(npc_id)
            if npc is not None and npc.activity == "waiting":
                npc.activity = "idle"

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
            case GoTo(to=to):
                return self._go_to(npc, to, fut)
            case Halt(reason=reason):
                self._halt(npc, reason)
                return Success(f"stopped at {npc.tile}")
            case MoveSteps(direction=direction, steps=steps):
                return self._begin_steps(npc, direction, steps, fut)
            case SpeechStart():
                if npc.bubble is not None and npc.bubble.streaming and npc.bubble.text:
                    # Still saying something: the next reply starts when this one ends.
                    return Success("still speaking")
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
                if npc.activity in ("thinking", "speaking"):
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
            case PathFound(token=token, path=path):
                self._path_found(npc, token, path)
                return None
            case Wait(seconds=seconds):
                if fut is None:
                    return None
                self._waits.append((self.clock + seconds, npc.entity_id, fut))
                npc.activity = "waiting"
                return None
            case Ask(question=question, options=options):
                return self._begin_ask(npc, question, options, fut)
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
        if npc.activity in ("thinking", "speaking"):
            npc.activity = "idle"
        around = [ent for _, ent in self.near(npc.tile, EARSHOT_TILES) if ent is not npc]
        other = self.find_by_name(target) if target else None
        if other is npc:
            other = None
        if other is None and around:
            other = around[0]  # the nearest listener
        if other is not None:
            self._face_entity(npc, other)
            target = other.name
        npc.bubble.target = target
        self._spoken(
            npc, text, target, other.entity_id if other else None, around, interrupted=interrupted
        )
        if other is None:
            return Success("said, but nobody was near enough to hear")
        if self.distance(npc, other) > EARSHOT_TILES:
            return Success(f"said to {other.name}, but they are too far away to hear")
        return Success(f"said to {other.name}")

    def stand_player_by(self, npc_id: str) -> None:
        """Put the player on the free tile nearest the NPC, the two facing each other."""
        self.stand_by(self.player, npc_id)

    def stand_by(self, ent: Entity, npc_id: str) -> None:
        """Put `ent` on the free tile nearest the NPC, the two facing each other."""
        npc = self.npcs[npc_id]
        if ent is npc:
            return
        spot = self.grid.nearest_walkable(
            npc.tile, free=lambda t: t != npc.tile and self.occupant(t, exclude=ent) is None
        )
        if spot is None:
            return
        ent.place(spot)
        self._face_entity(ent, npc)
        self._face_entity(npc, ent)

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
        other = self.find_by_name(to) if to else None
        around = [ent for _, ent in self.near(p.tile, EARSHOT_TILES) if ent is not p]
        self._spoken(p, text, to, other.entity_id if other else None, around)

    def _spoken(
        self,
        speaker: Entity,
        text: str,
        target: str | None,
        target_id: str | None,
        around: list[Entity],
        *,
        interrupted: bool = False,
    ) -> None:
        """A line was said: log it, tell the NPCs within earshot (`around` the speaker,
        nearest first), and raise the event."""
        heard_by = [ent for ent in around if isinstance(ent, Npc)]
        spoke = Spoke(
            speaker.entity_id,
            speaker.name,
            text,
            speaker.tile,
            target,
            self.clock,
            target_id,
            interrupted,
            tuple(npc.entity_id for npc in heard_by),
        )
        for npc in heard_by:
            npc.heard.append(spoke)
        self.speech_log.append(spoke)
        self._events.append(spoke)

    def forget_speech(self) -> None:
        """Drop every line said so far, and what each NPC heard (a save being loaded)."""
        self.speech_log.clear()
        for npc in self.npcs.values():
            npc.heard.clear()

    # --- questions to the player --------------------------------------------------------

    def _begin_ask(
        self, npc: Npc, question: str, options: tuple[str, ...], fut: Future[Outcome] | None
    ) -> Outcome | None:
        question = question.strip()
        options = tuple(o.strip() for o in options if o.strip())
        if not question or not 2 <= len(options) <= 4:
            return Impossible("an ask needs a question and 2 to 4 options")
        away = self.distance(npc, self.player)
        if away > ASK_REACH_TILES:
            return Impossible(
                f"the player is not near ({away:.0f} tiles away); walk to them or just say it"
            )
        if self.ask is not None and not (self.ask.fut is not None and self.ask.fut.done()):
            if self.ask.npc_id != npc.entity_id:
                return Impossible("the player is answering someone else's question")
            self._end_ask(Impossible("you asked something else instead"))
        self._face_entity(npc, self.player)
        npc.bubble = Bubble(
            text=question, streaming=False, started=self.clock, target=self.player.name
        )
        spoke = Spoke(
            npc.entity_id, npc.name, question, npc.tile, self.player.name, self.clock, PLAYER_ID
        )
        self.speech_log.append(spoke)
        self._events.append(spoke)
        self.ask = PendingAsk(npc.entity_id, npc.name, question, options, self.clock, fut)
        return None  # resolved by the player's pick

    def answer_ask(self, index: int) -> Outcome:
        """The player picks option `index` (0-based) of the pending question."""
        ask = self.ask
        if ask is None:
            return Impossible("nobody is asking anything")
        if not 0 <= index < len(ask.options):
            return Impossible(f"pick an option from 1 to {len(ask.options)}")
        choice = ask.options[index]
        self.player_said(choice, to=ask.npc_name)
        self._end_ask(Success(f"the player chose: {choice}", data={"choice": choice}))
        return Success(choice)

    def _end_ask(self, outcome: Outcome) -> None:
        ask, self.ask = self.ask, None
        if ask is None:
            return
        npc = self.npcs.get(ask.npc_id)
        if npc is not None and npc.bubble is not None and npc.bubble.expires is None:
            npc.bubble.expires = self.clock + min(2.0, reading_seconds(ask.question))
        ask.resolve(outcome)

    def _check_ask(self) -> None:
        ask = self.ask
        assert ask is not None
        npc = self.npcs.get(ask.npc_id)
        if ask.fut is not None and ask.fut.done():  # the asking turn gave up
            self._end_ask(Impossible("nobody waits for the answer"))
        elif npc is None or self.distance(npc, self.player) > ASK_REACH_TILES + 1:
            self._end_ask(Impossible("the player walked away without answering"))
        elif self.clock - ask.started > ASK_TIMEOUT_S:
            self._end_ask(Impossible("the player did not answer"))

    def place_named(self, name: str) -> Place | None:
        """A named place, case-insensitively, with or without a leading "the"."""
        key = name.strip().lower().replace(" ", "_")
        key = key.removeprefix("the_")
        for place in self.map.places.values():
            if place.name.lower() == key:
                return place
        return None

    def _look(self, npc: Npc, at: str | None) -> Outcome:
        if not at:
            return Perceived(sense(self, npc.entity_id))
        place = self.place_named(at)
        if place is not None:
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

    def _go_to(self, npc: Npc, to: str, fut: Future[Outcome] | None) -> Outcome | None:
        place = self.place_named(to)
        if place is not None:
            label = f"the {place.name.replace('_', ' ')}"
            if place.contains(npc.tile):
                return Success(f"you are already at {label}")
            goal = self._spot_in(place, npc)
            if goal is None:
                return Impossible(f"no free spot to stand at {label}")
            return self._begin_move(npc, goal, label, fut)
        other = self.find_by_name(to)
        if other is npc:
            return Impossible("that is you; name a place or someone else")
        if other is not None:
            if abs(other.tile[0] - npc.tile[0]) + abs(other.tile[1] - npc.tile[1]) == 1:
                self._face_entity(npc, other)
                return Success(f"you are already next to {other.name}")
            goal = self._spot_near(other, npc)
            if goal is None:
                return Impossible(f"no free tile next to {other.name}")
            return self._begin_move(npc, goal, other.name, fut)
        places = ", ".join(sorted(p.replace("_", " ") for p in self.map.places))
        return Impossible(f"unknown place {to!r}; known places: {places}; or a person's name")

    def _spot_in(self, place: Place, npc: Npc) -> Tile | None:
        """The free walkable tile of a place nearest its centre (else nearest the centre)."""
        cx, cy = place.center
        taken = {
            ent.tile
            for ent in self.spatial.near(place.center, max(place.width, place.height))
            if ent is not npc
        }
        blocked = self.grid.blocked
        best: Tile | None = None
        best_d = 1 << 30
        for x in range(max(0, place.x), min(self.grid.width, place.x + place.width)):
            for y in range(max(0, place.y), min(self.grid.height, place.y + place.height)):
                tile = (x, y)
                if tile in blocked or tile in taken:
                    continue
                d = (x - cx) ** 2 + (y - cy) ** 2
                if d < best_d:
                    best, best_d = tile, d
        if best is not None:
            return best
        return self.grid.nearest_walkable(
            place.center, free=lambda t: self.occupant(t, npc) is None
        )

    def _spot_near(self, other: Entity, npc: Npc) -> Tile | None:
        """A free tile beside `other`, the one nearest `npc` first."""
        ox, oy = other.tile
        sides = [(ox + dx, oy + dy) for dx, dy in DIRECTIONS.values()]
        sides.sort(key=lambda t: abs(t[0] - npc.tile[0]) + abs(t[1] - npc.tile[1]))
        for tile in sides:
            if self.grid.walkable(tile) and self.occupant(tile, npc) is None:
                return tile
        return self.grid.nearest_walkable(
            other.tile, free=lambda t: t != other.tile and self.occupant(t, npc) is None
        )

    def _halt(self, npc: Npc, reason: str) -> None:
        """Drop the rest of a path: the NPC stops on the tile it is walking into."""
        searching = self._searches.pop(npc.entity_id, None)
        if searching is not None:
            searching.job.resolve(Impossible(f"{reason} at {npc.tile}"))
            npc.activity = "idle"
        if not npc.path and npc.entity_id not in self._moves:
            return
        npc.path = []
        job = self._moves.pop(npc.entity_id, None)
        if job is not None:
            job.resolve(Impossible(f"{reason} at {npc.tile}"))
        if not npc.moving:
            npc.activity = "idle"
            npc.walk_time = 0.0

    def _replace_move(self, npc: Npc, job: _MoveJob) -> None:
        searching = self._searches.pop(npc.entity_id, None)
        if searching is not None:
            searching.job.resolve(Impossible(f"stopped at {npc.tile}: a new move replaced it"))
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
        if goal == npc.tile:
            return Success(f"you are already at {label}")
        # The old move ends now: the NPC finishes its step and waits for the new path.
        self._halt(npc, "stopped: a new move replaced it")
        npc.activity = "walking"
        job = _MoveJob(fut, label)
        if self._planner:
            token = next(self._tokens)
            self._searches[npc.entity_id] = _PathSearch(job, goal, None, token, self.clock)
            self.path_requests.put(
                PathRequest(npc.entity_id, token, npc.tile, goal, self._taken_near(npc))
            )
            return None  # resolved on arrival (or when no path is found)
        self._searches[npc.entity_id] = _PathSearch(job, goal, self._search_from(npc, goal))
        self._advance_searches()  # short paths are found at once
        return None  # resolved on arrival (or when no path is found)

    def _search_from(self, npc: Npc, goal: Tile) -> Generator[None, None, list[Tile] | None]:
        taken = self._taken_near(npc).__contains__
        return self.grid.search(npc.tile, goal, occupied=taken, chunk=PATH_CHUNK)

    def _path_found(self, npc: Npc, token: int, path: tuple[Tile, ...] | None) -> None:
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
        self._found(npc.entity_id, entry, None if path is None else list(path))

    def _advance_searches(self) -> None:
        """Spend this step's node budget on the waiting searches, oldest first."""
        for npc_id in list(self._searches):
            entry = self._searches[npc_id]
            if entry.search is None:
                if self.clock - entry.asked_at < PLAN_TIMEOUT_S:
                    continue  # the planner's answer is on its way
                entry.search = self._search_from(self.npcs[npc_id], entry.goal)
            while self._path_budget > 0:
                entry = self._searches[npc_id]
                assert entry.search is not None
                self._path_budget -= PATH_CHUNK
                try:
                    next(entry.search)
                except StopIteration as done:
                    del self._searches[npc_id]
                    self._found(npc_id, entry, done.value)
                    break
            if self._path_budget <= 0:
                return

    def _found(self, npc_id: str, entry: _PathSearch, path: list[Tile] | None) -> None:
        npc = self.npcs[npc_id]
        job = entry.job
        if path is None:
            npc.activity = "idle"
            job.resolve(Impossible(f"no path from {npc.tile} to {job.label}"))
            return
        if not path:
            npc.activity = "idle"
            job.resolve(Success(f"you are already at {job.label}"))
            return
        self._replace_move(npc, job)
        npc.path = path
        npc.blocked_for = 0.0
        npc.repaths = 0
        npc.activity = "walking"

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
        if self._planner:
            asked = self._detours.get(npc.entity_id)
            if asked is None or self.clock - asked[1] >= PLAN_TIMEOUT_S:
                token = next(self._tokens)
                self._detours[npc.entity_id] = (token, self.clock, npc.tile)
                self.path_requests.put(
                    PathRequest(
                        npc.entity_id, token, npc.tile, goal, self._taken_near(npc), DETOUR_NODES
                    )
                )
            return
        taken = self._taken_near(npc).__contains__
        detour = self.grid.find_path(npc.tile, goal, occupied=taken, max_nodes=DETOUR_NODES)
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
