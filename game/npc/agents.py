"""The agent side of the NPCs: their turns, and what to do when a turn goes wrong.

`NpcAgents` lives on the agent loop. It registers every NPC with the runtime, starts
turns through the lanes (a `Cue` from the game thread becomes a `Trigger` here, with what
the NPC sensed written up), turns streamed text and turn outcomes into world commands,
and when a turn fails or its provider stays silent past a limit (the watchdog,
`check_silent`) hands the trigger to the persona mind: a turn of its own, through the
skills, as every decision of an NPC reaches the world. The game thread's side, when
NPCs think, is `game.npc.brain.Brain`; calls from it arrive through the mailbox
(`game.bridge.Mailbox`), and so do the world's outcomes the skills await.
"""

from __future__ import annotations

import asyncio
import logging
import queue
from collections import Counter
from collections.abc import Collection, Iterable

from game.agent.context import NpcProfile
from game.agent.errors import AgentError
from game.agent.events import TRIGGER_PRIORITY, EventBase, WorldObservation
from game.agent.loop import AgentRuntime
from game.agent.outcomes import Cancelled, Failed, Final, TurnOutcome
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.errors import GameError
from game.limits import PROFILE_VILLAGERS
from game.npc.cues import Cue, Sensed, trigger_for
from game.npc.facts import VillagerFacts
from game.npc.known import first_sentence, villager_facts
from game.npc.scripted.persona import PersonaProvider
from game.npc.skills import SkillDeps
from game.world.commands import Halt, Say, SpeechCancel, SpeechDelta
from game.world.world import World

__all__ = [
    "PROFILE_VILLAGERS",
    "NpcAgents",
    "first_sentence",
    "met_in",
    "profile_of",
]

log = logging.getLogger(__name__)


def profile_of(world: World, npc_id: str, met: Collection[str] = ()) -> NpcProfile:
    """The agent-side profile of an NPC, from its map properties; the villagers it knows
    of are `Villagers.known_to` (`met`: the ids of those it has met, see `NpcAgents`), the
    places `Places.known_to` (`game.npc.known`)."""
    npc = world.npcs[npc_id]
    extra = {
        k: v
        for k, v in npc.properties.items()
        if k not in ("id", "name", "persona", "greeting", "sprite")
    }
    return NpcProfile(
        npc_id=npc_id,
        name=npc.name,
        persona=npc.persona,
        greeting=npc.greeting,
        extra=extra,
        facts=villager_facts(world, npc_id, met),
    )


def _facts_of(profile: NpcProfile) -> VillagerFacts:
    """The village's facts of a registered profile."""
    return VillagerFacts.of(profile.request_facts())


def met_in(events: Iterable[EventBase]) -> set[str]:
    """Whom an NPC has met, by its session: the speakers of the lines it heard."""
    return {
        e.source
        for e in events
        if isinstance(e, WorldObservation) and e.kind == "heard" and e.source
    }


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
        # What became of the turns (the soak benchmark reads them).
        self.fallback_causes: Counter[str] = Counter()  # timeout, crash, or the error's kind
        self.turns_ended = 0
        self.turns_answered = 0  # ended with what the NPC does (not failed or cancelled)
        self.dropped = 0  # dropped from a full queue, or never queued
        self.turns_cancelled = 0  # stopped on purpose: someone spoke to the NPC, Esc
        self._inflight: dict[str, list[Trigger]] = {}
        self._silent: dict[str, tuple[tuple[str, int], float]] = {}
        self._stalled: set[str] = set()
        self.persona = PersonaProvider(delay_s=0)  # the fallback's mind: its line at once
        self._deps = SkillDeps(world, mailbox.outcome)
        # (slot, npc id) -> whom the NPC has met there, kept only on a map too big for
        # every profile to name every villager (see `Villagers`).
        self._met: dict[tuple[str, str], set[str]] = {}

    def attach(self, runtime: AgentRuntime) -> None:
        """Bind the runtime and register every NPC of the world with it."""
        self.runtime = runtime
        for npc_id in self.world.npcs:
            runtime.register_npc(profile_of(self.world, npc_id), deps=self._deps)

    def _meet(self, runtime: AgentRuntime, npc_id: str, trigger: Trigger) -> None:
        """On a big map, put the villagers the NPC has met on its profile: those its
        session heard speak (read at its first turn in the slot) and the speaker of this
        trigger (call on the agent loop)."""
        if len(self.world.npcs) - 1 <= PROFILE_VILLAGERS:
            return  # every profile names every villager
        key = (runtime.slot, npc_id)
        met = self._met.get(key)
        if met is None:
            try:
                met = met_in(runtime.store(runtime.slot).recent(npc_id))
            except (OSError, ValueError, GameError) as exc:  # the turn will say so too
                log.warning("could not read whom %s has met: %s", npc_id, exc)
                met = set()
            self._met[key] = met
        if trigger.kind == "heard" and trigger.source:
            met.add(trigger.source)
        known = {v.npc_id for v in _facts_of(runtime.profile(npc_id)).people}
        if met & self.world.npcs.keys() - known - {npc_id}:
            runtime.register_npc(profile_of(self.world, npc_id, met), deps=self._deps)

    def cancel(self, npc_id: str) -> None:
        """Cancel the NPC's running turn (on the agent loop)."""
        if self.runtime is not None:
            self.runtime.cancel(npc_id)

    def prime(self, npc_id: str, cue: Cue, sensed: Sensed) -> None:
        """The player is about to speak to the NPC: the model may read its context now
        (call on the agent loop)."""
        if self.runtime is not None:
            self.runtime.prime(self.runtime.slot, npc_id, trigger_for(cue, sensed))

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
            trigger = trigger_for(trigger, sensed)
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
            self._meet(runtime, npc_id, trigger)
            fut = runtime.submit(runtime.slot, npc_id, trigger)
        except AgentError as exc:
            log.warning("no turn for %s: %s", npc_id, exc)
            self.dropped += 1
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
        self.turns_ended += 1
        if isinstance(outcome, Cancelled) and outcome.reason.startswith("dropped"):
            self.dropped += 1
        elif isinstance(outcome, Cancelled) and not stalled:
            self.turns_cancelled += 1
        elif outcome is not None and not isinstance(outcome, Cancelled | Failed):
            self.turns_answered += 1
        if not waiting:
            self._stalled.discard(npc_id)
        if isinstance(outcome, Final) and text:
            self.world.post(Say(npc_id, text[:200]))
        elif isinstance(outcome, Cancelled) and text:
            self.world.post(Say(npc_id, text[:200], interrupted=True))
        elif not waiting or stalled or crashed or isinstance(outcome, Failed):
            # No other turn of this NPC is about to use the "..." bubble: drop it.
            self.world.post(SpeechCancel(npc_id))
        if crashed:
            self.fallback(npc_id, trigger, "crash")
        elif isinstance(outcome, Failed):
            self.fallback(npc_id, trigger, outcome.error_kind)
        elif stalled and isinstance(outcome, Cancelled):
            self.fallback(npc_id, trigger, "timeout")

    def fallback(self, npc_id: str, trigger: Trigger, cause: str = "error") -> None:
        """The persona mind takes the turn over (call on the agent loop): a turn for the
        same trigger, answered by it through the skills, so the NPC never freezes."""
        runtime = self.runtime
        if runtime is None or npc_id not in self.world.npcs:
            return
        self.fallbacks += 1
        self.fallback_causes[cause] += 1
        try:
            runtime.submit(runtime.slot, npc_id, trigger, provider=self.persona)
        except AgentError as exc:
            log.warning("no fallback turn for %s: %s", npc_id, exc)

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
