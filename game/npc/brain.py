"""When each NPC thinks, and how its turns reach the world.

`NpcAgents` lives on the agent loop: it registers every NPC with the runtime, starts
turns through the lanes, turns streamed text and turn outcomes into world commands, and
falls back to scripted, in-character behaviour when a turn fails or its provider stays
silent past a limit. `Brain` lives on the game thread: it watches the world on the game
clock and hands triggers to `NpcAgents` across the bridge. Neither waits for the other.

Triggers, highest priority first: the player talks to an NPC; an NPC hears its name (or
is spoken to by name); the player comes within `NEAR_TILES` (a greeting, once per
cooldown); an idle tick every 8-20 s of game time, randomised per NPC from a generator
seeded with its id, slower off screen. NPC-to-NPC exchanges are capped at
`ChatterSettings.max_lines` lines, then the pair cools down.
"""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import logging
import math
import queue
import random
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from game.agent.context import NpcProfile
from game.agent.errors import AgentError
from game.agent.events import TRIGGER_PRIORITY
from game.agent.loop import (
    AgentRuntime,
    Cancelled,
    Failed,
    Final,
    Trigger,
    TriggerKind,
    TurnOutcome,
)
from game.bridge import Mailbox
from game.npc.persona import NEAR_PHRASE, mood_of, reply_for
from game.npc.skills import SkillDeps
from game.world.commands import (
    Emote,
    Face,
    Halt,
    MoveSteps,
    Say,
    SpeechCancel,
    SpeechDelta,
    SpeechStart,
)
from game.world.entities import Entity, Npc
from game.world.perception import DEFAULT_BUDGET, Perception, estimate_tokens, sense
from game.world.world import PLAYER_ID, Spoke, World

log = logging.getLogger(__name__)

NEAR_TILES = 3.0
NEAR_DWELL_S = 0.6  # the player must stay near this long: passing by greets nobody
GREET_COOLDOWN_S = 90.0
TALKING_S = 30.0  # an NPC the player spoke to this recently stays put for the player
SCREEN_TILES = (20, 12)  # half the view in tiles: beyond this an NPC is off screen
WATCH_EVERY_S = 0.5  # how often (game time) the agents look for silent providers
MAX_PUT_OFF = 3  # frames in a row a busy frame may put off the agents' costly work
_IDLE_TEXTS = (
    "A quiet moment passes.",
    "Time passes; nobody needs you right now.",
    "A breeze moves through the village.",
)
_FALLBACK_MOVES = ("up", "down", "left", "right")


@dataclass
class IdleSettings:
    """Idle ticks: how often an NPC thinks on its own (game seconds); off switches them."""

    enabled: bool = True
    min_s: float = 8.0
    max_s: float = 20.0
    offscreen_factor: float = 2.5
    first_min_s: float = 4.0  # the first tick comes soon, staggered over one period
    per_frame: int = 2  # at most this many idle turns start in one frame; the rest wait


@dataclass
class ChatterSettings:
    """How long two NPCs may talk to each other before they cool down."""

    max_lines: int = 4
    cooldown_s: float = 30.0
    gap_s: float = 20.0  # a line later than this after the previous one starts a new exchange


def _rng(*parts: str) -> random.Random:
    digest = hashlib.sha256("|".join(parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def profile_of(world: World, npc_id: str) -> NpcProfile:
    """The agent-side profile of an NPC, from its map properties."""
    npc = world.npcs[npc_id]
    extra = {
        k: v
        for k, v in npc.properties.items()
        if k not in ("id", "name", "persona", "greeting", "sprite")
    }
    return NpcProfile(
        npc_id=npc_id, name=npc.name, persona=npc.persona, greeting=npc.greeting, extra=extra
    )


class SpareTime:
    """Whether a frame has time to spare for a costly piece of agent work.

    A frame that took longer than usual so far (the usual: a running mean) puts the work
    off to a lighter one, but never more than `MAX_PUT_OFF` frames running: heavy frames
    get no heavier, and agent work waits a few frames at most.
    """

    def __init__(self) -> None:
        self.typical_s: float | None = None
        self.put_off = 0  # frames in a row too busy

    def ready(self, elapsed_s: float) -> bool:
        """Note this frame's time so far; True when the work may go ahead in it."""
        typical = self.typical_s
        self.typical_s = elapsed_s if typical is None else typical + (elapsed_s - typical) / 32
        if typical is not None and elapsed_s > typical and self.put_off < MAX_PUT_OFF:
            self.put_off += 1
            return False
        self.put_off = 0
        return True


class Cue(NamedTuple):
    """Why an NPC should think, as the game thread hands it over: a plain tuple, so the
    `Trigger` model is built and validated on the agent thread."""

    kind: TriggerKind
    text: str
    source: str | None = None


@dataclass(frozen=True)
class Sensed:
    """An NPC's perception as facts taken on the game thread, to be written as text
    (summary, token budget, the local model's tokenizer) on the agent thread."""

    perception: Perception
    budget: int
    count_tokens: Callable[[str], int]

    def text(self) -> str:
        """The perception as the agent reads it."""
        return self.perception.fit(self.budget, self.count_tokens)


class NpcAgents:
    """The agent-thread side: runtime turns in, world commands out, fallbacks when stuck."""

    def __init__(self, world: World, mailbox: Mailbox, *, slow_after_s: float = 15.0) -> None:
        self.world = world
        self.mailbox = mailbox
        self.runtime: AgentRuntime | None = None
        self.slow_after_s = slow_after_s  # game seconds without a word: fall back (0: never)
        # (npc id, trigger kind) of each ended turn, for the game thread.
        self.finished: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self.fallbacks = 0
        self._inflight: dict[str, list[Trigger]] = {}
        self._silent: dict[str, tuple[tuple[str, int], float]] = {}
        self._stalled: set[str] = set()
        self._count = 0

    def attach(self, runtime: AgentRuntime) -> None:
        """Bind the runtime and register every NPC of the world with it."""
        self.runtime = runtime
        for npc_id in self.world.npcs:
            runtime.register_npc(
                profile_of(self.world, npc_id), deps=SkillDeps(self.world, self.mailbox.outcome)
            )

    def cancel(self, npc_id: str) -> None:
        """Cancel the NPC's running turn (on the agent loop)."""
        if self.runtime is not None:
            self.runtime.cancel(npc_id)

    def on_text_delta(self, npc_id: str, run_id: str, text: str) -> None:
        """Plain assistant text is speech: grow the bubble now."""
        self.world.post(SpeechDelta(npc_id, text))

    def start_turn(
        self, npc_id: str, trigger: Trigger | Cue, sensed: Sensed | None = None
    ) -> asyncio.Future[TurnOutcome] | None:
        """Queue a turn in the NPC's lane (call on the agent loop). A `Cue` becomes its
        `Trigger` here, with what the NPC `sensed` when it fired written up."""
        assert self.runtime is not None, "attach() a runtime first"
        if isinstance(trigger, Cue):
            trigger = Trigger(
                kind=trigger.kind,
                text=trigger.text,
                source=trigger.source,
                perception=sensed.text() if sensed is not None else None,
            )
        runtime = self.runtime
        waiting = self._inflight.setdefault(npc_id, [])
        if (
            trigger.priority > TRIGGER_PRIORITY["idle"]
            and waiting
            and runtime.lanes.busy(npc_id)
            and all(t.kind == "idle" for t in waiting)
        ):
            # Someone speaks to an NPC busy with its own idle business: it stops for them.
            runtime.cancel(npc_id)
            self.world.post(Halt(npc_id, "stopped to listen"))
        try:
            fut = runtime.submit(runtime.slot, npc_id, trigger)
        except AgentError as exc:
            log.warning("no turn for %s: %s", npc_id, exc)
            self.finished.put((npc_id, trigger.kind))
            return None
        waiting.append(trigger)
        fut.add_done_callback(lambda f: self._finished(npc_id, trigger, f))
        return fut

    def _finished(self, npc_id: str, trigger: Trigger, fut: asyncio.Future[TurnOutcome]) -> None:
        waiting = self._inflight.get(npc_id, [])
        if trigger in waiting:
            waiting.remove(trigger)
        self.finished.put((npc_id, trigger.kind))
        outcome: TurnOutcome | None = None
        crashed = False
        if not fut.cancelled():
            exc = fut.exception()
            if exc is not None:
                log.error("turn of %s failed: %s", npc_id, exc)
                crashed = True
            else:
                outcome = fut.result()
        text = (outcome.text or "").strip() if outcome is not None else ""
        stalled = npc_id in self._stalled
        if not waiting:
            self._stalled.discard(npc_id)
        if isinstance(outcome, Final) and text:
            self.world.post(Say(npc_id, text[:200]))
        elif isinstance(outcome, Cancelled) and text:
            self.world.post(Say(npc_id, text[:200], interrupted=True))
        elif not waiting or stalled or crashed or isinstance(outcome, Failed):
            # No other turn of this NPC is about to use the "..." bubble: drop it.
            self.world.post(SpeechCancel(npc_id))
        if crashed or isinstance(outcome, Failed) or (stalled and isinstance(outcome, Cancelled)):
            self.fallback(npc_id, trigger)

    def fallback(self, npc_id: str, trigger: Trigger) -> None:
        """Scripted, in-character behaviour from the persona: the NPC never freezes."""
        npc = self.world.npcs.get(npc_id)
        if npc is None:
            return
        self.fallbacks += 1
        self._count += 1
        rng = _rng(npc_id, "fallback", str(self._count))
        turn = 0 if trigger.kind == "player_near" else 1
        home = npc.properties.get("home", "")
        if trigger.kind in ("player_message", "heard", "player_near"):
            heard = trigger.text if trigger.kind == "player_message" else ""
            if trigger.kind == "heard":
                found = re.search(r'"(.*)"', trigger.text, re.S)
                heard = found.group(1) if found else trigger.text
            line = reply_for(npc.name, npc.persona, npc.greeting, heard, turn, home)
            if trigger.kind == "player_near":
                self.world.post(Emote(npc_id, "wave"))
            self.world.post(Say(npc_id, line, target=trigger.source))
            return
        if rng.random() < 0.6:
            self.world.post(MoveSteps(npc_id, rng.choice(_FALLBACK_MOVES), rng.randint(1, 2)))
        else:
            mood = mood_of(npc.persona)
            self.world.post(Emote(npc_id, "think" if mood in ("wise", "quiet") else "nod"))

    # --- the watchdog: a provider silent past `slow_after_s` -----------------------------

    def check_silent(self) -> None:
        """Cancel turns whose provider said nothing for `slow_after_s` of game time.

        The brain calls this on the agent loop a few times a second of game time; a
        cancelled turn ends `Cancelled` and the NPC gets its scripted fallback.
        """
        runtime = self.runtime
        if runtime is None or self.slow_after_s <= 0:
            return
        now = self.world.clock
        for npc_id, waiting in self._inflight.items():
            if not waiting:
                self._silent.pop(npc_id, None)
                continue
            status = runtime.status(npc_id)
            if status.state != "thinking" or status.run_id is None:
                self._silent.pop(npc_id, None)
                continue
            key = (status.run_id, status.step)
            since = self._silent.get(npc_id)
            if since is None or since[0] != key:
                self._silent[npc_id] = (key, now)
            elif now - since[1] >= self.slow_after_s and npc_id not in self._stalled:
                log.warning("%s: no answer after %.0f s; scripted fallback", npc_id, now - since[1])
                self._stalled.add(npc_id)
                runtime.cancel(npc_id)


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
    ) -> None:
        self.world = world
        self.agents = agents
        self.mailbox = mailbox
        self.idle = idle or IdleSettings()
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
            _name_pattern(npc.name)
            rng = _rng(npc_id, "idle")
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
        self._cues: deque[tuple[str, Cue]] = deque()  # cues waiting to be sensed and sent
        self._spoken: deque[Spoke] = deque()  # lines said, waiting for their hearers
        self.spare = SpareTime()
        self._command_next = True  # spare work alternates: a world command, a chore

    # --- queries ------------------------------------------------------------------------

    def busy(self, npc_id: str, *, beyond_idle: bool = False) -> bool:
        """Whether a turn of this NPC is queued or running (one not idle, if asked)."""
        pending = self._state(npc_id).pending
        return any(n > 0 and not (beyond_idle and k == "idle") for k, n in pending.items())

    def _state(self, npc_id: str) -> _NpcState:
        state = self._states.get(npc_id)
        if state is None:  # an NPC added after the brain was built
            rng = _rng(npc_id, "idle")
            state = self._states[npc_id] = _NpcState(rng, self.world.clock + self.idle.min_s)
            heapq.heappush(self._idle_heap, (state.next_idle, npc_id))
        return state

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
        sensed = Sensed(sense(self.world, npc_id), self.perception_budget, self.count_tokens)
        self.mailbox.post(self.agents.start_turn, npc_id, cue, sensed)

    def player_talks(self, npc_id: str, text: str) -> None:
        """The player said something to an NPC: it answers first, before any chatter."""
        npc = self.world.npcs[npc_id]
        self._state(npc_id).talked = self.world.clock
        self.world.player_said(text, to=npc.name)
        self.world.post(Face(npc_id, PLAYER_ID))
        self.world.post(SpeechStart(npc_id))
        self.trigger(npc_id, Cue("player_message", text, PLAYER_ID))

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
        for event in self.world.drain_events():
            if isinstance(event, Spoke):
                self._spoken.append(event)
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
        lowered = spoke.text.lower()
        for npc in self.world.listeners(spoke):
            addressed = spoke.target_id == npc.entity_id
            if spoke.speaker_id == PLAYER_ID and addressed:
                continue  # player_talks (or the answer to an ask) already covers it
            named = _names(npc, lowered)
            if not (named or (addressed and spoke.speaker_id != PLAYER_ID)):
                continue  # heard, and in its perception, but not for it to answer
            if spoke.speaker_id != PLAYER_ID and not self._may_answer(spoke.speaker_id, npc):
                continue
            how = "said to you" if addressed else "said (you heard your name)"
            text = f'{spoke.speaker_name} {how}: "{spoke.text}"'
            if not self.busy(npc.entity_id, beyond_idle=True):
                self.world.post(SpeechStart(npc.entity_id))
            self.trigger(
                npc.entity_id,
                Cue("heard", text, spoke.speaker_id),
            )
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
            ):
                continue
            state.greeted = clock
            self.world.post(SpeechStart(npc_id))
            self.trigger(
                npc_id,
                Cue("player_near", f"{player.name} {NEAR_PHRASE}.", PLAYER_ID),
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
            period = state.rng.uniform(settings.min_s, settings.max_s)
            if not self.on_screen(npc):
                period *= settings.offscreen_factor
            state.next_idle = clock + period
            heapq.heappush(heap, (state.next_idle, npc_id))
            if self.busy(npc_id) or state.near or clock - state.talked < TALKING_S:
                continue  # busy, or minding the player who stands near
            ask = self.world.ask
            if ask is not None and ask.npc_id == npc_id:
                continue
            text = _IDLE_TEXTS[state.rng.randrange(len(_IDLE_TEXTS))]
            started += 1
            self.trigger(npc_id, Cue("idle", text))
        return started > 0


_NAME_PATTERNS: dict[str, re.Pattern[str]] = {}


def _names(npc: Npc, lowered: str) -> bool:
    """Whether a line (in lower case) calls the NPC by name (its full name or its last
    word, as a word)."""
    return _name_pattern(npc.name).search(lowered) is not None


def _name_pattern(name: str) -> re.Pattern[str]:
    """The compiled pattern for a name (compiling costs a frame ~0.1 ms: do it at load)."""
    pattern = _NAME_PATTERNS.get(name)
    if pattern is None:
        names = sorted({name.lower(), name.split()[-1].lower()} - {""})
        alternatives = "|".join(re.escape(n) for n in names) or "(?!)"
        pattern = _NAME_PATTERNS[name] = re.compile(rf"\b(?:{alternatives})\b")
    return pattern
