"""`run_game.py chat` as a fair harness, against a real Chat Completions server on 127.0.0.1.

The server answers the first request with two `say` calls and the next with an empty
stop, as a model that says two things in one turn would.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from provider_kit import Reply, SSEServer, chat_chunk

from game.agent.store import SessionStore
from game.npc.facts import SensedFacts

ROOT = Path(__file__).resolve().parents[2]
LINES = ("Fresh bread, still warm!", "Come by the bakery later.")


def _two_says() -> list[bytes]:
    pieces = [chat_chunk({"role": "assistant", "content": None})]
    for i, line in enumerate(LINES):
        call = {"index": i, "id": f"call_{i}", "type": "function"}
        pieces.append(
            chat_chunk({"tool_calls": [{**call, "function": {"name": "say", "arguments": ""}}]})
        )
        args = json.dumps({"text": line})
        for half in (args[: len(args) // 2], args[len(args) // 2 :]):  # streamed in pieces
            pieces.append(
                chat_chunk({"tool_calls": [{"index": i, "function": {"arguments": half}}]})
            )
    return [*pieces, chat_chunk({}, "tool_calls"), b"data: [DONE]\n\n"]


async def test_each_thing_said_is_a_line_and_the_player_stands_face_to_face(
    server: SSEServer, tmp_path: Path
) -> None:
    server.replies = [
        Reply(body=_two_says()),
        Reply(body=[chat_chunk({"content": ""}, "stop"), b"data: [DONE]\n\n"]),
    ]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "run_game.py"), "chat", "tobin", "Good morning!",
        "--provider", "openai-chat", "--base-url", f"{server.url}/v1", "--model", "m",
        "--saves-dir", str(tmp_path), "--slot", "harness",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=dict(os.environ),
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out.decode().splitlines() == list(LINES)  # not glued into one line
    assert err.decode().count("[say]") == 2  # the tool lines on stderr stay as they were
    # The talk is face to face: the NPC perceives the player on the tile next to it.
    asked = [e for e in SessionStore(tmp_path, "harness").read("tobin") if e.type == "user.message"]
    assert asked and asked[0].sensed is not None
    player = [s for s in SensedFacts.of(asked[0].sensed).nearby if s.entity_id == "player"]
    assert player and player[0].distance == 1.0
