"""Assemble a playable village: map -> world, agent thread, runtime, NPC agents, brain.

The window and the headless runner both start from `Village.open(...)`, so tests exercise
exactly what a player runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game.agent.loop import AgentRuntime
from game.agent.providers.base import Provider
from game.agent.providers.persona import PersonaProvider
from game.bridge import AgentThread
from game.errors import UsageError
from game.npc.brain import Brain, NpcAgents
from game.npc.skills import build_registry
from game.paths import saves_dir as default_saves_dir
from game.paths import validate_id
from game.world.tiled import load_map
from game.world.world import World

PROVIDERS = ("auto", "local", "openai", "openai-chat", "anthropic", "scripted")


def make_provider(name: str) -> Provider:
    """The provider called `name`; only the scripted brain is built into this version."""
    if name in ("scripted", "auto"):
        return PersonaProvider()
    if name in PROVIDERS:
        raise UsageError(f"provider {name!r} is not available yet; use --provider scripted")
    raise UsageError(f"unknown provider {name!r}; choose one of {', '.join(PROVIDERS)}")


@dataclass
class Village:
    """A world with living NPCs: the game thread owns `world` and `brain`."""

    world: World
    brain: Brain
    agents: NpcAgents
    thread: AgentThread
    runtime: AgentRuntime
    slot: str

    @classmethod
    def open(
        cls,
        map_path: Path,
        *,
        slot: str = "default",
        provider: Provider | None = None,
        saves_dir: Path | None = None,
    ) -> Village:
        """Load the map, start the agent thread and bind every NPC to its agent."""
        slot = validate_id(slot, "slot")
        world = World(load_map(map_path))
        provider = provider or PersonaProvider()
        agents = NpcAgents(world, slot)
        thread = AgentThread().start()
        saves = default_saves_dir(saves_dir)

        async def build() -> AgentRuntime:
            return AgentRuntime(
                saves,
                provider=provider,
                registry=build_registry(),
                on_text_delta=agents.on_text_delta,
            )

        runtime = thread.submit(build()).result(timeout=10)
        agents.attach(runtime)
        brain = Brain(world, agents, thread.call_soon)
        return cls(world, brain, agents, thread, runtime, slot)

    def notice(self) -> str | None:
        """A one-line notice for the screen (provider trouble), if any."""
        return None

    def close(self) -> None:
        """Stop the agent thread: cancel turns, flush every NPC's log. Never hangs."""
        self.thread.stop(self.runtime.aclose)
