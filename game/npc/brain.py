"""When each NPC thinks: the game thread's side of the NPCs.

`Brain` lives on the game thread: it watches the world on the game clock and posts
triggers to the agent side (`game.npc.agents.NpcAgents`) through the mailbox
(`game.bridge.Mailbox`); a `Cue` (`game.npc.cues`) carries what the NPC sensed as facts,
which the agent side writes up. Neither waits for the other.

Triggers, highest priority first: the player talks to an NPC; an NPC hears its name (or
is spoken to by name); the player comes within `NEAR_TILES` (a greeting, once per
cooldown); an idle tick every 8-20 s of game time, randomised per NPC from a generator
seeded with its id, slower off screen, and paced to what the model serves (`IdlePace`).
NPC-to-NPC exchanges are capped at
`ChatterSettings.max_lines` lines, then the pair cools down.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.npc.agents import NpcAgents
from game.npc.cues import IDLE_TEXTS, Cue, Sensed, heard_cue, idle_cue, name_pattern, player_cue
from game.npc.life.life import VillageLife
from game.npc.pace import ChatterSettings, IdlePace, IdleSettings, SpareTime
from game.npc.seeds import rng_of
from game.tokens import estimate_tokens
from game.world.commands import Face, SpeechStart
from game.world.entities import PLAYER_ID, Entity, Npc
from game.world.events import Spoke
from game.world.perception import DEFAULT_BUDGET
from game.world.world import World

NEAR_TILES = 3.0
NEAR_DWELL_S = 0.6  # the player must stay near this long: passing by greets nobody
GREET_COOLDOWN_S = 90.0
TALKING_S = 30.0  # an NPC the player spoke to this recently stays put for the player
# While the talk box is open (and the player spoke or opened it this recently), no idle
# turn starts: the model is kept free for the line being typed.
TALK_HOLD_S = 60.0
SCREEN_TILES = (20, 12)  # half the view in tiles: beyond this an NPC is off screen
WATCH_EVERY_S = 0.5  # how often (game time) the agents look for silent providers


@dataclass
class _Exchange:
    lines: int = 0
    last: float = -math.inf
    cooldown_until: float = -math.inf


@dataclass
class _NpcState:
    rng: random.Random
    next_idle: float
    pending: dict[str, int] = field(default_factory=dict)  # trigger kind -> turns in flight
    sent_at: dict[str, deque[float]] = field(default_factory=dict)  # kind -> when, oldest first
    near: bool = False
    near_since: float = math.inf
    greeted: float = -math.inf
    talked: float = -math.inf
    triggers: dict[str, int] = field(default_factory=dict)


class Brain:
    """The game-thread side: decides when NPCs think and sends their triggers across."""

    def __init__(
        self,
        world: World,
        agents: NpcAgents,
        mailbox: Mailbox,
        *,
        idle: IdleSettings | None = None,
        chatter: ChatterSettings | None = None,
        greet_cooldown_s: float = GREET_COOLDOWN_S,
        perception_budget: int = DEFAULT_BUDGET,
        count_tokens: Callable[[str], int] = estimate_tokens,
        on_screen: Callable[[Entity], bool] | None = None,
        day_plans: bool = True,
    ) -> None:
        self.world = world
        self.agents = agents
        self.mailbox = mailbox
        self.idle = idle or IdleSettings()
        self.pace = IdlePace(self.idle)
        self.chatter = chatter or ChatterSettings()
        self.greet_cooldown_s = greet_cooldown_s
        self.perception_budget = perception_budget
        self.count_tokens = count_tokens
        self.on_screen = on_screen or self._near_player
        self.exchanges: dict[frozenset[str], _Exchange] = {}
        self.sent: list[tuple[str, str]] = []  # (npc_id, trigger kind), newest last
        self._states: dict[str, _NpcState] = {}
        self._idle_heap: list[tuple[float, str]] = []  # (next idle tick, npc id)
        for npc_id, npc in world.npcs.items():
            name_pattern(npc.name)
            rng = rng_of(npc_id, "idle")
            last = self.idle.max_s
            if not self.on_screen(npc):
                last *= self.idle.offscreen_factor  # far ones come to life over a longer time
            first = world.clock + rng.uniform(self.idle.first_min_s, last)
            self._states[npc_id] = _NpcState(rng, first)
            self._idle_heap.append((first, npc_id))
        heapq.heapify(self._idle_heap)
        self._player_tile: tuple[int, int] | None = None
        self._near_pending: set[str] = set()
        self._near: set[str] = set()  # NPCs within NEAR_TILES of the player
        self._next_watch = world.clock + WATCH_EVERY_S
        self.in_flight = 0  # triggers handed over whose turns have not ended yet
        self._talk_box: float | None = None  # when the open talk box was last used
        self._cues: deque[tuple[str, Cue]] = deque()  # cues waiting to be sensed and sent
        self._spoken: deque[Spoke] = deque()  # lines said, waiting for their hearers
        self.spare = SpareTime()
        self._command_next = True  # spare work alternates: a world command, a chore
        # The day: plans followed, sleep, news passed on, the notice boards, feelings.
        self.life = VillageLife(world, busy=self.busy, engaged=self._engaged, plans=day_plans)

    # --- queries ------------------------------------------------------------------------

    def busy(self, npc_id: str, *, beyond_idle: bool = False) -> bool:
        """Whether a turn of this NPC is queued or running (one not idle, if asked)."""
        pending = self._state(npc_id).pending
        return any(n > 0 and not (beyond_idle and k == "idle") for k, n in pending.items())

    def _state(self, npc_id: str) -> _NpcState:
        state = self._states.get(npc_id)
        if state is None:  # an NPC added after the brain was built
            rng = rng_of(npc_id, "idle")
            state = self._states[npc_id] = _NpcState(rng, self.world.clock + self.idle.min_s)
            heapq.heappush(self._idle_heap, (state.next_idle, npc_id))
        return state

    def _engaged(self, npc_id: str) -> bool:
        """Whether the player is with the NPC: spoke to it lately, or stands near."""
        state = self._state(npc_id)
        return state.near or self.world.clock - state.talked < TALKING_S

    def _near_player(self, ent: Entity) -> bool:
        p = self.world.player.tile
        return (
            abs(ent.tile[0] - p[0]) <= SCREEN_TILES[0]
            and abs(ent.tile[1] - p[1]) <= SCREEN_TILES[1]
        )

    # --- triggers -----------------------------------------------------------------------

    def trigger(self, npc_id: str, trigger: Trigger | Cue) -> None:
        """Hand a trigger to the agent loop; returns at once. A `Cue` takes along what the
        NPC perceives now, as facts the agent thread writes up."""
        state = self._state(npc_id)
        state.pending[trigger.kind] = state.pending.get(trigger.kind, 0) + 1
        state.sent_at.setdefault(trigger.kind, deque()).append(self.world.clock)
        self.in_flight += 1
        state.triggers[trigger.kind] = state.triggers.get(trigger.kind, 0) + 1
        self.sent.append((npc_id, trigger.kind))
        if len(self.sent) > 256:
            del self.sent[:128]
        if not isinstance(trigger, Cue):
            self.mailbox.post(self.agents.start_turn, npc_id, trigger, None)
        elif trigger.kind == "player_message":
            self._send_cue(npc_id, trigger)  # the player waits: now
        else:
            self._cues.append((npc_id, trigger))  # sensed and sent one a frame

    def _send_cue(self, npc_id: str, cue: Cue) -> None:
        """Sense what the NPC perceives now and hand the cue over."""
        sensed = self._sensed(npc_id, cue.about)
        self.mailbox.post(self.agents.start_turn, npc_id, cue, sensed)

    def _sensed(self, npc_id: str, tell: str | None = None) -> Sensed:
        """What the NPC perceives now, with the facts of its day, to hand over with a cue."""
        return self.life.sensed(
            npc_id, tell, budget=self.perception_budget, count_tokens=self.count_tokens
        )

    def player_opens_talk(self, npc_id: str) -> None:
        """The player opened the talk box with an NPC: while they type, the model reads
        the NPC's context, so the reply starts as soon as the line is sent."""
        self._talk_box = self.world.clock
        sensed = self._sensed(npc_id)
        self.mailbox.post(self.agents.prime, npc_id, player_cue(self.world, ""), sensed)

    def player_closes_talk(self) -> None:
        """The player closed the talk box: idle thinking may go on."""
        self._talk_box = None

    def player_talks(self, npc_id: str, text: str) -> None:
        """The player said something to an NPC: it answers first, before any chatter."""
        npc = self.world.npcs[npc_id]
        self._state(npc_id).talked = self.world.clock
        self.life.wake(npc_id)
        if self._talk_box is not None:
            self._talk_box = self.world.clock
        self.world.player_said(text, to=npc.name)
        self.world.post(Face(npc_id, PLAYER_ID))
        self.world.post(SpeechStart(npc_id))
        self.trigger(npc_id, player_cue(self.world, text))

    def interrupt(self, npc_id: str) -> None:
        """Stop the NPC's reply now (Esc): what it said so far stays, marked interrupted."""
        self.mailbox.post(self.agents.cancel, npc_id)

    def update(self, dt: float) -> None:
        """Per frame: finished turns, speech heard, the player near, idle ticks. Never blocks."""
        finished = self.agents.finished
        while not finished.empty():  # this thread is its only reader
            npc_id, kind = finished.get_nowait()
            state = self._states.get(npc_id)
            if state is not None and state.pending.get(kind, 0) > 0:
                state.pending[kind] -= 1
                self.in_flight -= 1
                self.pace.note(self.world.clock - state.sent_at[kind].popleft())
        self._spoken.extend(self.world.drain_events())
        every = self.world.clock >= self._next_watch  # a few times a second of game time
        if every:
            self._next_watch = self.world.clock + WATCH_EVERY_S
        player_tile = self.world.player.tile
        if player_tile != self._player_tile or every:  # NPCs walk up to the player too
            self._player_tile = player_tile
            self._check_near()
        if self._near_pending:
            self._greet()
        if every and self.in_flight:
            self.mailbox.post(self.agents.check_silent)
        for teller, listener, news_id in self.life.update():
            text = self.life.tell_text(teller, listener, news_id)
            self.world.post(SpeechStart(teller))
            self.trigger(teller, Cue("news", text, listener, about=news_id))
        if not self.world.defer_costly:
            self.chore()  # a world that does not pace its work: the chore comes now too

    def spare_time(self, elapsed_s: float) -> None:
        """The end of a frame `elapsed_s` into its update, sprites posed: one costly piece
        of work, in turn a command the world left waiting (`World.defer_costly`) or a
        chore, when the frame has time to spare (see `SpareTime`)."""
        if not self.spare.ready(elapsed_s):
            return
        first, second = (self.world.run_costly, self.chore)
        if not self._command_next:
            first, second = second, first
        if first() or second():
            self._command_next = not self._command_next

    def chore(self) -> bool:
        """One piece of the brain's own work, oldest kind first: who heard a line, what
        one cued NPC perceives, then the idle ticks due. A crowd of them spreads over
        frames. False when there was nothing to do."""
        if self._spoken:
            self._heard(self._spoken.popleft())
        elif self._cues:
            self._send_cue(*self._cues.popleft())
        elif self.idle.enabled:
            return self._idle_ticks()
        else:
            return False
        return True

    def _heard(self, spoke: Spoke) -> None:
        clock = self.world.clock
        self.life.spoken(spoke)
        for npc in self.world.listeners(spoke):
            cue = heard_cue(spoke, npc)
            if cue is None or npc.asleep:
                continue
            if spoke.speaker_id != PLAYER_ID and not self._may_answer(spoke.speaker_id, npc):
                continue
            if not self.busy(npc.entity_id, beyond_idle=True):
                self.world.post(SpeechStart(npc.entity_id))
            self.trigger(npc.entity_id, cue)
            if spoke.speaker_id == PLAYER_ID:
                self._state(npc.entity_id).talked = clock

    def _may_answer(self, speaker_id: str, listener: Npc) -> bool:
        """The chatter cap: count this NPC-to-NPC line; may the listener answer it?"""
        clock = self.world.clock
        pair = frozenset((speaker_id, listener.entity_id))
        ex = self.exchanges.setdefault(pair, _Exchange())
        if clock < ex.cooldown_until:
            return False
        if clock - ex.last > self.chatter.gap_s:
            ex.lines = 0
        ex.lines += 1
        ex.last = clock
        if ex.lines >= self.chatter.max_lines:
            ex.lines = 0
            ex.cooldown_until = clock + self.chatter.cooldown_s
            return False
        return True

    def _check_near(self) -> None:
        """The player moved: note who they came near (greeted after `NEAR_DWELL_S`)."""
        player = self.world.player
        was_near = self._near
        now_near = {
            ent.entity_id
            for _, ent in self.world.near(player.tile, NEAR_TILES)
            if ent is not player
        }
        if now_near == was_near:
            return  # most moves of the player change nobody's state
        for npc_id in now_near - was_near:
            state = self._state(npc_id)
            state.near, state.near_since = True, self.world.clock
            self._near_pending.add(npc_id)
        for npc_id in was_near - now_near:
            self._state(npc_id).near = False
            self._near_pending.discard(npc_id)
        self._near = now_near

    def _greet(self) -> None:
        clock = self.world.clock
        player = self.world.player
        for npc_id in list(self._near_pending):
            state = self._state(npc_id)
            if clock - state.near_since < NEAR_DWELL_S:
                continue
            self._near_pending.discard(npc_id)
            if (
                clock - state.greeted < self.greet_cooldown_s
                or clock - state.talked < TALKING_S
                or self.busy(npc_id, beyond_idle=True)
                or self.world.npcs[npc_id].asleep
            ):
                continue
            state.greeted = clock
            self.world.post(SpeechStart(npc_id))
            self.trigger(
                npc_id,
                Cue("player_near", f"{player.name} comes up to you.", PLAYER_ID),
            )

    def _idle_ticks(self) -> bool:
        clock = self.world.clock
        settings = self.idle
        heap = self._idle_heap
        started = 0
        while heap and heap[0][0] <= clock:
            if started >= settings.per_frame:
                return True  # a crowd of ticks spreads over the next frames
            _, npc_id = heapq.heappop(heap)
            npc = self.world.npcs.get(npc_id)
            if npc is None:
                continue
            state = self._state(npc_id)
            typing = self._talk_box is not None and clock - self._talk_box < TALK_HOLD_S
            if typing or not self.pace.may_start(self.in_flight):
                # The player is typing, or the model has its hands full: later, then.
                state.next_idle = clock + state.rng.uniform(0.5, 1.5) * settings.retry_s
                heapq.heappush(heap, (state.next_idle, npc_id))
                continue
            period = state.rng.uniform(settings.min_s, settings.max_s)
            period = self.pace.period(period, len(self.world.npcs))
            if not self.on_screen(npc):
                period *= settings.offscreen_factor
            state.next_idle = clock + period
            heapq.heappush(heap, (state.next_idle, npc_id))
            if self.busy(npc_id) or state.near or clock - state.talked < TALKING_S:
                continue  # busy, or minding the player who stands near
            if npc.asleep or npc.path:
                continue  # asleep, or on its way somewhere (its day plan)
            ask = self.world.ask
            if ask is not None and ask.npc_id == npc_id:
                continue
            started += 1
            self.trigger(npc_id, idle_cue(state.rng.randrange(len(IDLE_TEXTS))))
        return started > 0
