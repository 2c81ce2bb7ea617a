"""World and NPC summaries are read by one bounded reader, whichever way in: `chat`, and
the runtime that `eval` and `doctor` talk through. A FIFO or a device is one warning line,
never a hang or a MemoryError; a long summary reaches the model cut to MAX_SUMMARY_CHARS;
one past its file bound is left out."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from game.agent.providers.base import ProviderEvent, ProviderRequest
from game.harness import Talk
from game.limits import MAX_SUMMARY_CHARS, SLOT_FILE_BYTES
from game.npc.scripted.persona import PersonaProvider
from game.paths import WORLD_SUMMARY_FILE, npc_memory_file, slot_path
from game.world.tiled import load_map
from game.world.world import World
from tests.providers.provider_kit import Reply, SSEServer, chat_chunk

ROOT = Path(__file__).resolve().parents[2]
RUN = [sys.executable, str(ROOT / "run_game.py")]
SLOT = "bounds"


def _summary_path(saves: Path, which: str) -> Path:
    if which == "world":
        path = slot_path(saves, SLOT, WORLD_SUMMARY_FILE)
    else:
        path = npc_memory_file(saves, SLOT, "tobin")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _plant(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)  # a reader that blocks on it waits for a writer that never comes
    else:
        path.symlink_to("/dev/zero")  # endless bytes


def _text(chars: int) -> str:
    """Numbered words, so where a cut fell can be seen: "w000001 w000002 ..."."""
    words = (f"w{i:06d}" for i in range(1, chars // 8 + 2))
    return " ".join(words)[:chars]


def _warnings(stderr: str, name: str) -> list[str]:
    return [line for line in stderr.splitlines() if name in line]


@pytest.mark.parametrize("which", ["world", "npc"])
@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_chat_refuses_a_slot_whose_summary_is_not_a_file(
    tmp_path: Path, which: str, kind: str
) -> None:
    path = _summary_path(tmp_path, which)
    _plant(path, kind)
    out = subprocess.run(
        [*RUN, "chat", "tobin", "Good morning!", "--provider", "scripted",
         "--saves-dir", str(tmp_path), "--slot", SLOT],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert "Traceback" not in out.stderr and "MemoryError" not in out.stderr
    # Nothing but save files and folders is taken from a shared saves folder: the slot is
    # refused in one line naming the file, before anything is read from it.
    assert out.returncode == 2, out.stderr
    (line,) = _warnings(out.stderr, path.name)
    assert ("is a FIFO" if kind == "fifo" else "is a symbolic link") in line, line
    assert str(path) in line


def _stop_reply() -> Reply:
    return Reply(body=[chat_chunk({"content": "Morning!"}, "stop"), b"data: [DONE]\n\n"])


async def _chat_system(server: SSEServer, saves: Path) -> tuple[str, str, int]:
    """What one `chat` against the loopback model sent as its system prompt, its stderr
    and the request's size in bytes."""
    before = len(server.requests)
    proc = await asyncio.create_subprocess_exec(
        *RUN, "chat", "tobin", "Good morning!", "--provider", "openai-chat",
        "--base-url", f"{server.url}/v1", "--model", "m", "--saves-dir", str(saves),
        "--slot", SLOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=saves,
        env={**os.environ, "OPENAI_API_KEY": "sk-test-1234567890abcdef"},
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode == 0, err.decode()
    assert "Morning!" in out.decode()
    sent = server.requests[before]
    body = json.loads(sent.body)
    system = next(m["content"] for m in body["messages"] if m["role"] == "system")
    return system, err.decode(), len(sent.body)


@pytest.mark.parametrize("which", ["world", "npc"])
async def test_chat_sends_a_long_summary_cut_to_the_bound(tmp_path: Path, which: str) -> None:
    server = SSEServer()
    server.reply_for = lambda seen: _stop_reply()
    await server.start()
    try:
        (tmp_path / "plain").mkdir()
        empty, _, plain_size = await _chat_system(server, tmp_path / "plain")
        long = _text(SLOT_FILE_BYTES[_summary_path(tmp_path, which).name] - 1000)
        _summary_path(tmp_path, which).write_text(long, encoding="utf-8")
        system, stderr, size = await _chat_system(server, tmp_path)
        # Past the file's bound: left out whole, in one line.
        _summary_path(tmp_path, which).write_text(_text(20 * 2**20), encoding="utf-8")
        refused, refused_err, refused_size = await _chat_system(server, tmp_path)
    finally:
        await server.stop()
    name = _summary_path(tmp_path, which).name
    assert long[:MAX_SUMMARY_CHARS].strip() in system
    assert long[: MAX_SUMMARY_CHARS + 8] not in system
    assert size < plain_size + MAX_SUMMARY_CHARS + 2000  # not the 1 MB file
    (line,) = _warnings(stderr, name)
    assert f"only its first {MAX_SUMMARY_CHARS} characters" in line
    assert "w000001" not in refused and refused_size < plain_size + 2000
    (line,) = _warnings(refused_err, name)
    assert "20.0 MB, more than the 1.0 MB" in line
    assert "w000001" not in empty


class _Recording(PersonaProvider):
    """The scripted brain, keeping each request it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[ProviderRequest] = []

    def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        self.requests.append(request)
        return super().stream(request)


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "long"])
async def test_the_runtime_eval_and_doctor_use_reads_within_the_bound(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    world_path = _summary_path(tmp_path, "world")
    npc_path = _summary_path(tmp_path, "npc")
    long = _text(3 * MAX_SUMMARY_CHARS)
    if kind == "long":
        world_path.write_text(long, encoding="utf-8")
        npc_path.write_text(long, encoding="utf-8")
    else:
        _plant(world_path, kind)
        _plant(npc_path, kind)
    provider = _Recording()
    talk = Talk(World(load_map(ROOT / "maps" / "village.tmx")), tmp_path, slot=SLOT,
                provider=provider)  # fmt: skip
    report = await asyncio.wait_for(talk.player_line("tobin", "Good morning!"), timeout=30)
    await talk.aclose()
    assert report.outcome == "final" and report.said
    system = provider.requests[0].system
    if kind == "long":
        assert system.count(long[:MAX_SUMMARY_CHARS].strip()) == 2  # the world's, and Tobin's
        assert long[: MAX_SUMMARY_CHARS + 8] not in system
    else:
        assert "w000001" not in system
    for path in (world_path, npc_path):  # each named in one warning line
        (line,) = [r.getMessage() for r in caplog.records if f"{path}:" in r.getMessage()
                   or f"{path} " in r.getMessage()]  # fmt: skip
        assert ("is long" if kind == "long" else "is not a regular file") in line
