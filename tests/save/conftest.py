"""Helpers of the save tests: villages in a temporary saves dir, turns stepped by hand."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from game.agent.outcomes import TurnOutcome
from game.agent.providers.base import Provider
from game.agent.providers.fake import FakeProvider, reply
from game.agent.trigger import Trigger
from game.village import Village
from game.world.perception import perceive

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
TINY = ROOT / "maps" / "tiny.tmx"
GOLDEN = ROOT / "saves" / "golden"


def talk(village: Village, npc_id: str, text: str, timeout: float = 20.0) -> TurnOutcome:
    """The player says `text` to an NPC; the world steps here until the turn is over."""
    trigger = Trigger.player(text, perceive(village.world, npc_id).render())
    fut = village.thread.submit(village.runtime.run_turn(village.slot, npc_id, trigger))
    deadline = time.monotonic() + timeout
    while not fut.done():
        village.world.step(1 / 60)
        concurrent.futures.wait([fut], timeout=0.002)
        assert time.monotonic() < deadline, "the turn did not finish"
    return fut.result()


def on_agents(village: Village, fn: Callable[[], object]) -> object:
    """Run `fn` on the agent thread and return its result."""

    async def call() -> object:
        return fn()

    return village.thread.submit(call()).result(timeout=10)


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """An empty saves dir."""
    path = tmp_path / "saves"
    path.mkdir()
    return path


@pytest.fixture
def open_village(saves: Path) -> Iterator[Callable[..., Village]]:
    """Open villages in the temporary saves dir; every one is closed after the test."""
    opened: list[Village] = []

    def make(
        slot: str = "s1",
        provider: Provider | None = None,
        map_path: Path = VILLAGE,
        saves_dir: Path | None = None,
    ) -> Village:
        village = Village.open(
            map_path,
            slot=slot,
            saves_dir=saves_dir or saves,
            provider=provider or FakeProvider([reply("Hello there.")] * 20),
        )
        opened.append(village)
        return village

    yield make
    for village in opened:
        village.close()
