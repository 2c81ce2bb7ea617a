"""A full NPC turn over Chat Completions against a real llama.cpp server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from game.agent.loop import AgentRuntime
from game.agent.outcomes import Failed
from game.agent.providers.local.model import ensure_default_model
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.npc.agents import NpcAgents
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
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server, started through our launcher on a CPU whose default buffers fault.

    The fault hook makes llama.cpp's default buffers die at the first decode, as AMX does
    in a VM that advertises it; the launcher's probe steps past them, and the server runs
    with the settings the game would use.
    """
    port = free_port()
    env = {**os.environ, "NPC_VILLAGE_LLAMA_FAULT": "decode@default"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "game.agent.providers.local.server",
            "--probe-cache",
            str(tmp_path_factory.mktemp("probe") / "llama_probe.json"),
            "--",
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
        env=env,
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
        said = [line for line in lines if line.startswith("llama.cpp settings:")]
        assert said and said[0].startswith("llama.cpp settings: safe ("), lines[:5]
        assert "default crashed (SIGSEGV)" in said[0]
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


async def test_npc_turn_through_llama_cpp_server(llama_server: str, tmp_path: Path) -> None:
    world = World(load_map(MAPS / "tiny.tmx"))
    mailbox = Mailbox()  # pumped where the world steps, as the agent loop would
    agents = NpcAgents(world, mailbox)
    async with httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=5.0)) as client:
        provider = OpenAIChatProvider(client, api_key=None, model="gemma", base_url=llama_server)
        runtime = AgentRuntime(
            tmp_path,
            slot="srv",
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
            mailbox.pump()
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


def test_safe_settings_reach_the_llama_params() -> None:
    # In a process of its own: llama.cpp is never loaded in the test process.
    code = (
        "from llama_cpp import llama_cpp as C\n"
        "from game.agent.providers.local.worker.load import safe_model_params\n"
        "from game.agent.providers.local.protocol import settings_named\n"
        "with safe_model_params(settings_named('safe')):\n"
        "    inside = C.llama_model_default_params().use_extra_bufts\n"
        "print(inside, C.llama_model_default_params().use_extra_bufts)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.split() == ["False", "True"]
