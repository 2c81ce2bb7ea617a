"""The village headless, in one thread: the world stepped by hand, agents on this loop.

`Life` binds the real `World`, `Mailbox`, `NpcAgents`, `Brain` and `AgentRuntime` the
way `game.village` does, except that the world keeps its own path search and `run` does
both threads' work on this one: it steps the world on the game clock, pumps the mailbox
and gives the loop a few turns per frame, so the agents get to act between frames just
as they do beside a real game thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.agent.loop import AgentRuntime
from game.agent.providers.base import Provider
from game.bridge import Mailbox
from game.npc.agents import NpcAgents
from game.npc.brain import Brain
from game.npc.pace import ChatterSettings, IdleSettings
from game.npc.scripted.persona import PersonaProvider
from game.npc.scripted.speaker import React, Step
from game.npc.skills import build_registry
from game.world.events import Spoke
from game.world.planner import Planner
from game.world.tiled import MapData, NpcSpawn, load_map
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
DT = 1 / 60


class Life:
    """A headless village: world, brain, agents and runtime, stepped by `run`."""

    def __init__(
        self,
        tmp: Path,
        *,
        provider: Provider | None = None,
        map_data: MapData | None = None,
        idle: IdleSettings | None = None,
        chatter: ChatterSettings | None = None,
        slow_after_s: float = 15.0,
        day_plans: bool = False,
    ) -> None:
        self.world = World(map_data or load_map(VILLAGE))
        self.world.defer_costly = True  # as the game paces its world
        self.provider = provider or PersonaProvider(delay_s=0)
        self.mailbox = Mailbox()
        # As in the game, but the world plans its own paths until a test says otherwise.
        planner = Planner(self.world)
        self.mailbox.on_pump(planner.step, at_stop=planner.finish)
        self.agents = NpcAgents(self.world, self.mailbox, slow_after_s=slow_after_s)
        self.runtime = AgentRuntime(
            tmp,
            slot="test",
            provider=self.provider,
            registry=build_registry(),
            on_text_delta=self.agents.on_text_delta,
        )
        self.agents.attach(self.runtime)
        self.brain = Brain(
            self.world,
            self.agents,
            self.mailbox,
            idle=idle or IdleSettings(enabled=False),
            chatter=chatter,
            day_plans=day_plans,
        )
        self.spoken: list[Spoke] = []
        self._seen: set[int] = set()

    def step(self) -> None:
        """One frame of the game thread (the mailbox is pumped by `run`)."""
        self.world.step(DT)
        self.brain.update(DT)
        self.brain.spare_time(0.0)  # a frame with time to spare, every one
        # Keep a copy of what was said: the brain drains the world's events.
        for line in self.world.speech_log:
            if id(line) not in self._seen:
                self._seen.add(id(line))
                self.spoken.append(line)

    async def run(
        self,
        seconds: float | None = None,
        *,
        until: Callable[[], bool] | None = None,
        limit_s: float = 120.0,
    ) -> float:
        """Step the game for `seconds` of game time, or until `until()`; return game time."""
        start = self.world.clock
        while True:
            elapsed = self.world.clock - start
            if until is not None and until():
                return elapsed
            if seconds is not None and elapsed >= seconds:
                return elapsed
            assert elapsed < limit_s, f"not reached within {limit_s} s of game time"
            self.step()
            self.mailbox.pump()  # the agent loop's side of the frame
            for _ in range(4):
                await asyncio.sleep(0)

    async def close(self) -> None:
        """End every turn and flush the logs."""
        await self.runtime.aclose()

    def said_by(self, npc_id: str) -> list[Spoke]:
        """Everything an entity said so far."""
        return [s for s in self.spoken if s.speaker_id == npc_id]


def crowd(data: MapData, count: int, around: tuple[int, int], radius: int = 6) -> MapData:
    """Add `count` NPCs on free walkable tiles around a tile (a map maker's point objects)."""
    taken = {n.tile for n in data.npcs} | {data.player_spawn}
    x0, y0 = around
    tiles = sorted(
        (
            (x, y)
            for x in range(x0 - radius, x0 + radius + 1)
            for y in range(y0 - radius, y0 + radius + 1)
            if 0 <= x < data.width and 0 <= y < data.height
        ),
        key=lambda t: (abs(t[0] - x0) + abs(t[1] - y0), t),
    )
    free = [t for t in tiles if t not in data.blocked and t not in taken]
    assert len(free) >= count, "not enough room for the crowd"
    for i, tile in enumerate(free[:count]):
        data.npcs.append(
            NpcSpawn(
                npc_id=f"villager{i}",
                name=f"Villager Number{i}",
                persona="A cheerful villager who loves a long chat about the weather.",
                greeting="Lovely day, isn't it?",
                sprite="baker",
                tile=tile,
                properties={"home": "plaza"},
            )
        )
    return data


@pytest.fixture
def village_map() -> MapData:
    return load_map(VILLAGE)


# A plan step as tests compare it: a skill call as (skill name, JSON arguments), the
# reaction to an answer as ("react", {option: reaction}).
Shown = tuple[str, dict[str, Any]]


def shown(step: Step | None) -> Shown | None:
    """A step of the persona brain's plan as (name, arguments), exactly as it is sent."""
    if step is None:
        return None
    if isinstance(step, React):
        return ("react", dict(step.answers))
    return (step.name, step.arguments())


def shown_all(steps: list[Step]) -> list[Shown]:
    """Every step of a plan as (name, arguments)."""
    return [s for s in map(shown, steps) if s is not None]
