"""A full NPC turn over Chat Completions against a real llama.cpp server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from game.agent.loop import AgentRuntime, Failed, Trigger
from game.agent.providers.local_model import ensure_default_model
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.npc.brain import NpcAgents
from game.npc.skills import build_registry
from game.world.commands import SpeechStart
from game.world.perception import perceive
from game.world.tiled import load_map
from game.world.world import World

MAPS = Path(__file__).resolve().parents[2] / "maps"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(ensure_default_model()),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
            "--n_threads",
            "1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    ready = threading.Event()
    lines: list[str] = []

    def watch() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if "Uvicorn running on" in line:
                ready.set()

    threading.Thread(target=watch, daemon=True).start()
    try:
        if not ready.wait(timeout=120):
            raise AssertionError("llama.cpp server did not start:\n" + "".join(lines[-20:]))
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


async def test_npc_turn_through_llama_cpp_server(llama_server: str, tmp_path: Path) -> None:
    world = World(load_map(MAPS / "tiny.tmx"))
    agents = NpcAgents(world, "srv")
    async with httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=5.0)) as client:
        provider = OpenAIChatProvider(client, api_key=None, model="gemma", base_url=llama_server)
        runtime = AgentRuntime(
            tmp_path,
            provider=provider,
            registry=build_registry(),
            on_text_delta=agents.on_text_delta,
        )
        agents.attach(runtime)
        world.post(SpeechStart("tobin"))
        trigger = Trigger.player(
            "Good morning! Is the bread ready?", perceive(world, "tobin").render()
        )
        turn = asyncio.ensure_future(runtime.run_turn("srv", "tobin", trigger))
        while not turn.done():
            world.step(1 / 60)
            await asyncio.sleep(0.005)
        outcome = turn.result()
        world.step(1 / 60)
        await runtime.aclose()
    assert not isinstance(outcome, Failed), outcome
    events = runtime.store("srv").read("tobin")
    kinds = [e.type for e in events]
    assert kinds[:2] == ["system.init", "user.message"]
    assert "assistant.message" in kinds and kinds[-1] == "result"
    said = (world.npcs["tobin"].bubble.text if world.npcs["tobin"].bubble else "") or ""
    spoken = outcome.text or said
    assert spoken.strip(), "the NPC said nothing"
    usage = [e for e in events if e.type == "result"][-1]
    assert usage.tokens_in > 0
