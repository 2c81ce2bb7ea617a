"""`chat` against a hostile model: terminal escapes in what it streams (plain text and a
`say`'s arguments) never reach the player's terminal; only their text does."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from provider_kit import Reply, Seen, SSEServer

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]

ESCAPES = (
    "\x1b[2J\x1b[H"  # clear the screen
    "\x1b]0;pwned\x07"  # set the title
    "\x1b]52;c;Y2xpcGJvYXJk\x07"  # write the clipboard (OSC 52)
    "\r\x00\x9b31m\x7f\x85\x08"  # CR, NUL, a C1 CSI, DEL, NEL, backspace
)


def _forbidden(text: str) -> list[str]:
    return [
        repr(ch) for ch in text if (ord(ch) < 0x20 and ch not in "\t\n") or 0x7F <= ord(ch) < 0xA0
    ]


def _sse(*chunks: dict[str, object]) -> bytes:
    lines = [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]
    return "".join(lines).encode()


def _text_reply(text: str) -> Reply:
    return Reply(
        body=_sse(
            {"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        )
    )


def _say_reply(text: str) -> Reply:
    args = json.dumps({"text": text})
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "say"}}
    return Reply(
        body=_sse(
            {"choices": [{"index": 0, "delta": {"tool_calls": [{**call, "function": {
                "name": "say", "arguments": ""}}]}}]},
            {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {
                "arguments": args}}]}}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        )
    )  # fmt: skip


@pytest.mark.parametrize("how", ["text", "say"])
async def test_a_model_cannot_drive_the_terminal(tmp_path: Path, how: str) -> None:
    server = SSEServer()
    first = (
        _text_reply(f"Fresh{ESCAPES} bread!")
        if how == "text"
        else _say_reply(f"Fresh{ESCAPES} bread!")
    )

    def reply_for(seen: Seen) -> Reply:
        return first if len(server.requests) == 1 else _text_reply("")

    server.reply_for = reply_for
    await server.start()
    try:
        proc = await asyncio.create_subprocess_exec(
            *RUN, "chat", "tobin", "What is fresh?", "--provider", "openai-chat",
            "--base-url", f"{server.url}/v1", "--model", "m", "--saves-dir", str(tmp_path),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
            env={**os.environ, "OPENAI_API_KEY": "sk-test-1234567890abcdef"},
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 120)
    finally:
        await server.stop()
    stdout, stderr = out.decode(), err.decode()
    assert proc.returncode == 0, stderr
    assert "Fresh" in stdout and "bread!" in stdout
    assert _forbidden(stdout) == [] and _forbidden(stderr) == []
    assert "pwned" in stdout  # the text is shown, only its controls are gone
