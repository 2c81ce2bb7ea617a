"""`run_game.py chat`: streams the reply, logs tool calls, and continues the session."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.agent.loop import AgentRuntime
from game.agent.store import SessionStore
from game.npc.agents import profile_of
from game.npc.scripted.persona import PersonaProvider
from game.npc.skills import build_registry
from game.world.tiled import load_map
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]


def chat(tmp: Path, npc: str, message: str, slot: str = "cli") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "run_game.py"),
            "chat",
            npc,
            message,
            "--provider",
            "scripted",
            "--saves-dir",
            str(tmp),
            "--slot",
            slot,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp,
    )


def test_chat_streams_persists_and_continues(tmp_path: Path) -> None:
    first = chat(tmp_path, "tobin", "Hello there")
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip(), "no reply on stdout"
    assert "[say]" in first.stderr  # the tool call goes to stderr
    second = chat(tmp_path, "tobin", "What do you do?")
    assert second.returncode == 0, second.stderr
    assert "bread" in second.stdout  # what he does, from his persona

    events = SessionStore(tmp_path, "cli").read("tobin")
    said = [e.text for e in events if e.type == "user.message"]
    assert said == ["Hello there", "What do you do?"]
    seqs = [e.seq for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    said_first = next(e for e in events if e.type == "tool.use" and e.name == "say")
    first_reply = json.loads(said_first.arguments)["text"]
    assert first_reply in first.stdout

    # The next provider input, rebuilt from the log, holds both exchanges.
    runtime = AgentRuntime(tmp_path, provider=PersonaProvider(), registry=build_registry())
    world = World(load_map(ROOT / "maps" / "village.tmx"))
    runtime.register_npc(profile_of(world, "tobin"))
    contents = " ".join(m.content for m in runtime.build_request("cli", "tobin").messages)
    assert "Hello there" in contents and "What do you do?" in contents
    assert first_reply in contents


def test_chat_unknown_npc_is_one_line(tmp_path: Path) -> None:
    out = chat(tmp_path, "nobody", "hi")
    assert out.returncode == 2
    assert out.stderr.strip().startswith("error: no NPC 'nobody'")
    assert "Traceback" not in out.stderr


def test_chat_missing_key_is_one_line(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "run_game.py"),
            "chat",
            "tobin",
            "hi",
            "--provider",
            "anthropic",
            "--saves-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert out.returncode == 2
    assert "ANTHROPIC_API_KEY" in out.stderr and "Traceback" not in out.stderr


def test_tool_lines_never_share_a_line_with_the_reply(tmp_path: Path) -> None:
    # As on a terminal: stdout and stderr go to one place, in the order written.
    out = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "chat", "pip", "Hello there",
         "--provider", "scripted", "--saves-dir", str(tmp_path), "--slot", "tty"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout
    lines = out.stdout.splitlines()
    assert any(line.startswith("[say] ") for line in lines), lines
    assert all(line.startswith("[say] ") for line in lines if "[say]" in line), lines


def test_an_empty_slot_is_refused_like_any_bad_name(tmp_path: Path) -> None:
    outs = [chat(tmp_path, "pip", "hi", slot) for slot in ("", "a/b")]
    assert [o.returncode for o in outs] == [2, 2]
    empty, slash = (o.stderr.strip().splitlines() for o in outs)
    assert len(empty) == 1 and empty[0].replace("''", "'a/b'") == slash[0]
    assert not any(tmp_path.iterdir())  # nothing was created
