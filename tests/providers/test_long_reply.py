"""`chat` against an OpenAI-compatible server on 127.0.0.1 that streams a 3 MB reply: the
reply is cut at its bound where the stream is read, stdout gets no more than the bound,
the cut is one warning line, and the log keeps the turn in lines its reader takes, so the
next turn follows on with the next seqs."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from provider_kit import Reply, SSEServer

from game.agent.events import AssistantMessage, ResultEvent, ToolUse, UserMessage
from game.agent.store import SessionStore
from game.limits import MAX_EVENT_BYTES, MAX_REPLY_CHARS, MAX_TOOL_ARGS_CHARS
from game.paths import npc_events_file

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]
SLOT = "default"
CHUNK = "Fresh bread, " * 80  # 1,040 characters a chunk
HUGE = 3000  # chunks: over 3 MB in all


def _event(delta: dict[str, object], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return b"data: " + json.dumps({"choices": [choice]}).encode() + b"\n\n"


def _huge(how: str) -> list[bytes]:
    """A reply of over 3 MB, as plain text or as one say's arguments, in many chunks."""
    if how == "text":
        body = [_event({"role": "assistant", "content": CHUNK}) for _ in range(HUGE)]
    else:
        call = {"index": 0, "id": "c1", "type": "function"}
        start = {**call, "function": {"name": "say", "arguments": '{"text": "'}}
        body = [_event({"tool_calls": [start]})]
        piece = {"index": 0, "function": {"arguments": CHUNK}}
        body += [_event({"tool_calls": [piece]}) for _ in range(HUGE)]
    return [*body, _event({}, "stop"), b"data: [DONE]\n\n"]


def _short(text: str) -> Reply:
    return Reply(body=[_event({"role": "assistant", "content": text}), b"data: [DONE]\n\n"])


async def _chat(server: SSEServer, saves: Path, message: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        *RUN, "chat", "tobin", message, "--provider", "openai-chat",
        "--base-url", f"{server.url}/v1", "--model", "m", "--saves-dir", str(saves),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=saves.parent,
        env={**os.environ, "OPENAI_API_KEY": "sk-test-1234567890abcdef"},
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("how", ["text", "say"])
async def test_a_3mb_reply_is_cut_and_the_log_keeps_the_turn(tmp_path: Path, how: str) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    replies = [Reply(body=_huge(how)), _short("Anything else?"), _short("Good day!")]
    server = SSEServer()
    server.reply_for = lambda seen: replies.pop(0)
    await server.start()
    try:
        code, stdout, stderr = await _chat(server, saves, "What is fresh?")
        assert code == 0, stderr
        assert len(replies) == 2  # one request: a reply cut at its bound is not asked again
        if how == "text":
            assert stdout.strip() == (CHUNK * 4)[:MAX_REPLY_CHARS].strip()
        else:
            said = (CHUNK * 4)[: MAX_TOOL_ARGS_CHARS - len('{"text": "')]
            assert stdout.strip() == said.strip()
        cuts = [line for line in stderr.splitlines() if "cut there" in line]
        assert len(cuts) == 1, stderr
        assert "skipping" not in stderr

        path = npc_events_file(saves, SLOT, "tobin")
        lines = path.read_bytes().splitlines()
        assert max(len(line) for line in lines) <= MAX_EVENT_BYTES
        first = SessionStore(saves, SLOT).read("tobin")
        assert [e.seq for e in first] == list(range(1, len(first) + 1))
        [message] = [e for e in first if isinstance(e, AssistantMessage)]
        if how == "text":
            assert len(message.text) == MAX_REPLY_CHARS
        else:
            [use] = [e for e in first if isinstance(e, ToolUse)]
            assert json.loads(use.arguments) == {"text": said}

        code, stdout, stderr = await _chat(server, saves, "Thank you.")
        assert code == 0, stderr
        assert stdout.strip() == "Anything else?" and "skipping" not in stderr
    finally:
        await server.stop()
    events = SessionStore(saves, SLOT).read("tobin")
    assert [e.seq for e in events] == list(range(1, len(events) + 1))  # no seq reused
    assert [e.text for e in events if isinstance(e, UserMessage)] == [
        "What is fresh?",
        "Thank you.",
    ]
    assert [e.outcome for e in events if isinstance(e, ResultEvent)] == ["final", "final"]
    # The model is told the whole first turn, as kept, when it is asked the second time.
    asked = server.requests[1].json()["messages"]
    assert any("What is fresh?" in json.dumps(m) for m in asked)
    assert len(json.dumps(asked)) < 100_000
