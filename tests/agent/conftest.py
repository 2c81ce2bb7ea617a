"""Fixtures for the agent runtime tests: a saves dir, tools, a runtime factory."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from game.agent.loop import AgentRuntime
from game.agent.providers.fake import FakeProvider, Step
from game.agent.tools import ToolRegistry

from .helpers import BRAM, MIRA, make_registry


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """An empty saves directory."""
    return tmp_path / "saves"


RuntimeFactory = Callable[..., AgentRuntime]


@pytest.fixture
async def make_runtime(saves: Path) -> AsyncIterator[RuntimeFactory]:
    """Build runtimes (Mira and Bram registered) that are closed after the test."""
    made: list[AgentRuntime] = []

    def factory(
        steps: list[Step] | FakeProvider | None = None,
        *,
        registry: ToolRegistry | None = None,
        saves_dir: Path | None = None,
        **kwargs: Any,
    ) -> AgentRuntime:
        provider = steps if isinstance(steps, FakeProvider) else FakeProvider(steps or [])
        runtime = AgentRuntime(
            saves_dir or saves, provider=provider, registry=registry or make_registry(), **kwargs
        )
        runtime.register_npc(MIRA)
        runtime.register_npc(BRAM)
        made.append(runtime)
        return runtime

    yield factory
    for runtime in made:
        await runtime.aclose()
