"""A GGUF with a chat template plays the NPCs by the chat path: grammar, streaming, read-ahead.

The model is the bundled one with Gemma's chat template written into its metadata
(`chat_model.make_chat_gguf`), so the worker takes the chat path, as for a pulled model.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.agent.providers.base import Done, ToolCallArgsDelta, ToolCallDone
from game.npc.facts import PlaceFact, VillagerFacts
from game.npc.play.writer import chat_request
from game.village import local_provider

from .chat_model import make_chat_gguf
from .conftest import npc_request, remembered, skill_specs, validate_call
from .test_local_llama import GEMMA_TEMPLATE, collect


@pytest.fixture(scope="module")
def chat_gguf(model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled model with a chat template: a chat model as far as the game can tell."""
    return make_chat_gguf(model_path, tmp_path_factory.mktemp("chat") / "chat.gguf", GEMMA_TEMPLATE)


@pytest.fixture(scope="module")
def chat(
    chat_gguf: Path, tmp_path_factory: pytest.TempPathFactory, working_rung: str
) -> Iterator[Any]:
    """The game's local provider on that model (its chat notes included)."""
    probe = remembered(tmp_path_factory.mktemp("probe") / "probe.json", chat_gguf, working_rung)
    provider = local_provider(chat_gguf, seed=7, probe_cache=probe)
    yield provider
    provider.close()


LINES = (
    "Hello! Who are you?",
    "Where is the well?",
    "Could you wave to me?",
    "Walk with me to the bakery, please.",
    "What do you think of the rain?",
    "Wait here a moment.",
)


async def test_every_call_parses_against_the_skills(chat: Any) -> None:
    await chat.load()
    calls = 0
    for i, line in enumerate(LINES):
        events, stats = await collect(chat, npc_request(line, npc_id=f"n{i}", temperature=0.7))
        assert isinstance(events[-1], Done), events[-3:]
        assert stats.prompt_tokens > 100
        for call in (e for e in events if isinstance(e, ToolCallDone)):
            json.loads(call.arguments)
            validate_call(call.name, call.arguments)
            calls += 1
    assert calls >= len(LINES) - 1  # a turn may also end without a call


async def test_speech_streams(chat: Any) -> None:
    request = npc_request("Tell me about your bread.", skill_specs("say"), temperature=0.7)
    events, _ = await collect(chat, request)
    kinds = [type(e).__name__ for e in events]
    done_at = kinds.index("ToolCallDone")
    deltas = [e for e in events[:done_at] if isinstance(e, ToolCallArgsDelta)]
    assert len(deltas) >= 2
    call = events[done_at]
    assert isinstance(call, ToolCallDone)
    assert "".join(d.delta for d in deltas) == call.arguments
    assert json.loads(call.arguments)["text"]


async def test_a_primed_reply_reads_only_the_new_line(chat: Any) -> None:
    await chat.load()
    chat.prime(npc_request("", npc_id="tobin", name="Tobin"))
    await chat.primed()
    events, stats = await collect(
        chat, npc_request("Where is the well?", npc_id="tobin", name="Tobin")
    )
    assert isinstance(events[-1], Done), events[-3:]
    primed = [s for s in chat.stats if s.npc_id == "tobin" and s.outcome == "primed"]
    assert len(primed) == 1 and primed[0].prompt_tokens > 300
    assert stats.restored_state or stats.reused_tokens >= primed[0].prompt_tokens - 2
    assert stats.prompt_tokens - stats.reused_tokens < 40, stats  # the line, and the cue


def test_the_chat_path_gets_the_notes_the_script_would_lean_on() -> None:
    request = npc_request("Where is the well?")
    well = PlaceFact(name="well", description="An old stone well, the village's water.")
    assert request.npc is not None
    npc = VillagerFacts(**{**request.npc.model_dump(), "places": [well]})
    noted = chat_request(request.model_copy(update={"npc": npc}))
    last = noted.messages[-1].content
    assert last.startswith(request.messages[-1].content)
    assert last.endswith("(Note: The well is an old stone well, the village's water.)"), last
    assert noted.messages[:-1] == request.messages[:-1]  # the prompt before it is untouched
    primed = request.model_copy(
        update={"options": request.options.model_copy(update={"prime": True})}
    )
    assert chat_request(primed) is primed
