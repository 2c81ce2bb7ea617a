"""When each NPC thinks, and how its turns reach the world.

`NpcAgents` lives on the agent loop: it registers every NPC with the runtime, starts
turns through the lanes, and turns streamed text and turn outcomes into world commands.
`Brain` lives on the game thread: it watches the world and the player and hands
triggers to `NpcAgents` across the bridge. Neither waits for the other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from game.agent.context import NpcProfile
from game.agent.loop import AgentRuntime, Cancelled, Final, Trigger, TurnOutcome
from game.world.commands import Say, SpeechCancel, SpeechDelta, SpeechStart
from game.world.perception import perceive
from game.world.world import World

log = logging.getLogger(__name__)


def profile_of(world: World, npc_id: str) -> NpcProfile:
    """The agent-side profile of an NPC, from its map properties."""
    npc = world.npcs[npc_id]
    extra = {k: v for k, v in npc.properties.items() if k not in ("id", "name", "persona")}
    return NpcProfile(
        npc_id=npc_id, name=npc.name, persona=npc.persona, greeting=npc.greeting, extra=extra
    )


class NpcAgents:
    """The agent-thread side: runtime turns in, world commands out."""

    def __init__(self, world: World, slot: str) -> None:
        self.world = world
        self.slot = slot
        self.runtime: AgentRuntime | None = None

    def attach(self, runtime: AgentRuntime) -> None:
        """Bind the runtime and register every NPC of the world with it."""
        self.runtime = runtime
        for npc_id in self.world.npcs:
            runtime.register_npc(profile_of(self.world, npc_id), deps=self.world)

    def on_text_delta(self, npc_id: str, run_id: str, text: str) -> None:
        """Plain assistant text is speech: grow the bubble now."""
        self.world.post(SpeechDelta(npc_id, text))

    def start_turn(self, npc_id: str, trigger: Trigger) -> asyncio.Future[TurnOutcome]:
        """Queue a turn in the NPC's lane (call on the agent loop)."""
        assert self.runtime is not None, "attach() a runtime first"
        fut = self.runtime.submit(self.slot, npc_id, trigger)
        fut.add_done_callback(lambda f: self._finished(npc_id, f))
        return fut

    def _finished(self, npc_id: str, fut: asyncio.Future[TurnOutcome]) -> None:
        if fut.cancelled():
            self.world.post(SpeechCancel(npc_id))
            return
        exc = fut.exception()
        if exc is not None:
            log.error("turn of %s failed: %s", npc_id, exc)
            self.world.post(SpeechCancel(npc_id))
            return
        outcome = fut.result()
        text = (outcome.text or "").strip()
        if isinstance(outcome, Final) and text:
            self.world.post(Say(npc_id, text[:200]))
        elif isinstance(outcome, Cancelled) and text:
            self.world.post(Say(npc_id, text[:200], interrupted=True))
        else:
            self.world.post(SpeechCancel(npc_id))


class Brain:
    """The game-thread side: decides when NPCs think and sends their triggers across."""

    def __init__(self, world: World, agents: NpcAgents, call_soon: Callable[..., Any]) -> None:
        self.world = world
        self.agents = agents
        self.call_soon = call_soon

    def perception(self, npc_id: str) -> str:
        """What the NPC perceives now, as text (read on the game thread)."""
        return perceive(self.world, npc_id).render()

    def trigger(self, npc_id: str, trigger: Trigger) -> None:
        """Hand a trigger to the agent loop; returns at once."""
        self.call_soon(self.agents.start_turn, npc_id, trigger)

    def player_talks(self, npc_id: str, text: str) -> None:
        """The player said something to an NPC: it answers first, before any chatter."""
        npc = self.world.npcs[npc_id]
        self.world.player_said(text, to=npc.name)
        self.world.post(SpeechStart(npc_id))
        self.trigger(npc_id, Trigger.player(text, self.perception(npc_id)))

    def update(self, dt: float) -> None:
        """Per frame: look at what happened in the world (cheap; never blocks)."""
        self.world.drain_events()
