"""The pure simulation: entities on a grid, stepped by the game thread.

`World.step(dt)` drains the command inbox (filled from any thread through `submit`),
advances motion, bubbles and emotes, and resolves each command's future when its action
has finished. What happens that agents should know about is queued as world events,
which the game thread drains with `drain_events()`. Each command applies itself
(game/world/commands.py): moves through `Motion`, lines and questions through `Speech`.
"""

from __future__ import annotations

import queue
from abc import ABC, abstractmethod
from collections import deque
from concurrent.futures import Future
from typing import ClassVar

from game.world.clock import DEFAULT_DAY_S
from game.world.entities import Entity, Npc
from game.world.grid import DIRECTIONS, PathRequest
from game.world.motion import Motion
from game.world.outcomes import Impossible, Outcome, Success, resolve
from game.world.speech import PendingAsk, Speech
from game.world.state import WorldState
from game.world.tiled import MapData


class Command(ABC):
    """What the world's step applies: an NPC's action (the kinds: game/world/commands.py)."""

    # A command whose handling reads around the map (who is near, free spots,
    # perception) or starts a walk: with `defer_costly` set, a step leaves it for
    # `run_costly`.
    costly: ClassVar[bool] = False
    npc_id: str

    @abstractmethod
    def apply(self, world: World, npc: Npc, fut: Future[Outcome] | None) -> Outcome | None:
        """Do it to `npc`: the outcome now, or None when `fut` is answered later (or
        nobody waits)."""


class World(WorldState):
    """The world's state with its command inbox and its step."""

    def __init__(
        self, map_data: MapData, player_name: str = "Traveller", day_s: float = DEFAULT_DAY_S
    ) -> None:
        super().__init__(map_data, player_name, day_s)
        self._inbox: queue.SimpleQueue[tuple[Command, Future[Outcome] | None]] = queue.SimpleQueue()
        self._waits: list[tuple[float, str, Future[Outcome]]] = []
        self._held: str | None = None
        # Path searches for a planner on another thread (see `plan_elsewhere`).
        self.path_requests: queue.SimpleQueue[PathRequest] = queue.SimpleQueue()
        self.motion = Motion(self, self.path_requests)
        self.speech = Speech(self)
        # The game sets `defer_costly`: a step then leaves costly commands waiting for
        # `run_costly`, called when a frame has time to spare. An NPC's commands after
        # its waiting one wait behind it, in order; other NPCs' go ahead.
        self.defer_costly = False
        self._deferred: dict[str, deque[tuple[Command, Future[Outcome] | None]]] = {}
        self._costly_order: deque[str] = deque()  # an NPC id per costly command held

    # --- input from any thread --------------------------------------------------------

    def submit(self, command: Command) -> Future[Outcome]:
        """Queue a command from any thread; the future resolves when the action is done."""
        fut: Future[Outcome] = Future()
        self._inbox.put((command, fut))
        return fut

    def post(self, command: Command) -> None:
        """Queue a command nobody waits for (streamed speech deltas)."""
        self._inbox.put((command, None))

    def plan_elsewhere(self, on: bool = True) -> None:
        """Hand new path searches to a planner through `path_requests` instead of running
        them in the step; it answers each with a `PathFound` command. Off, the searches
        still out run here again. Call on the game thread."""
        self.motion.plan_elsewhere(on)

    # --- speech the game calls for --------------------------------------------------------

    @property
    def ask(self) -> PendingAsk | None:
        """The question an NPC put to the player, while it waits for the player's pick."""
        return self.speech.ask

    def player_said(self, text: str, to: str | None = None) -> None:
        """Record the player's line so NPCs in earshot can perceive it."""
        self.speech.player_said(text, to)

    def answer_ask(self, index: int) -> Outcome:
        """The player picks option `index` (0-based) of the pending question."""
        return self.speech.answer_ask(index)

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
        self.day.advance(dt)
        motion = self.motion
        motion.new_step()
        self._drain_inbox()
        motion.advance_searches()
        if self._waits:
            self._finish_waits()
        if self.speech.ask is not None:
            self.speech.check_ask()
        self._step_player(dt)
        for npc in self.npcs.values():
            motion.step_npc(npc, dt)
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
            costly = self.defer_costly and command.costly
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
        while queued and not queued[0][0].costly:
            self._run(*queued.popleft())
        if not queued:
            del self._deferred[npc_id]
        return True

    def _run(self, command: Command, fut: Future[Outcome] | None) -> None:
        npc = self.npcs.get(command.npc_id)
        if npc is None:
            resolve(fut, Impossible(f"there is no NPC with id {command.npc_id!r}"))
            return
        outcome = command.apply(self, npc, fut)
        if outcome is not None:
            resolve(fut, outcome)

    def wait(self, npc: Npc, seconds: float, fut: Future[Outcome]) -> None:
        """Keep `npc` waiting `seconds` of game time, then answer `fut`."""
        self._waits.append((self.clock + seconds, npc.entity_id, fut))
        npc.activity = "waiting"

    def _finish_waits(self) -> None:
        due = [w for w in self._waits if w[0] <= self.clock]
        if not due:
            return
        self._waits = [w for w in self._waits if w[0] > self.clock]
        for _, npc_id, fut in due:
            resolve(fut, Success("you waited"))
            npc = self.npcs.get(npc_id)
            if npc is not None and npc.activity == "waiting":
                npc.activity = "idle"

    def _expire(self, ent: Entity) -> None:
        if ent.bubble and ent.bubble.expires is not None and self.clock >= ent.bubble.expires:
            ent.bubble = None
        if ent.emote and self.clock >= ent.emote.expires:
            ent.emote = None
