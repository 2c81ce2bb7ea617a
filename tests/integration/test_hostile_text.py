"""A model that streams terminal escapes: neither the bubble nor the talk panel's history
(read back from the log) shows a control character.

The fake plays what a hostile server or a prompt-injected NPC would send: clear screen,
set the window title, write the clipboard (OSC 52), a carriage return, NUL, C1 CSI, DEL.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from game.agent.history import conversation
from game.agent.loop import AgentRuntime
from game.agent.providers.fake import FakeProvider, reply, step, text, tool_call
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.npc.agents import NpcAgents
from game.npc.skills import build_registry
from game.world.commands import SpeechStart
from game.world.events import Spoke
from game.world.perception import perceive
from game.world.tiled import load_map
from game.world.world import World

MAPS = Path(__file__).resolve().parents[2] / "maps"
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\r\x00\x9b\x7f"
FORBIDDEN = {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))} - {"\t", "\n"}


def clean(text: str) -> bool:
    return not set(text) & FORBIDDEN


async def test_escapes_from_the_model_reach_neither_bubble_nor_history(tmp_path: Path) -> None:
    world = World(load_map(MAPS / "tiny.tmx"))
    mailbox = Mailbox()
    agents = NpcAgents(world, mailbox)
    provider = FakeProvider(
        [
            # Turn 1: text streamed, then a say whose streamed JSON carries the escapes.
            step(text("Hmm" + HOSTILE, chunks=5), tool_call("say", {"text": "Bread" + HOSTILE})),
            step(),  # after the say's result: done
            reply("Fresh" + HOSTILE + " rolls", chunks=4),  # turn 2: a plain answer
        ]
    )
    runtime = AgentRuntime(
        tmp_path,
        slot="s1",
        provider=provider,
        registry=build_registry(),
        on_text_delta=agents.on_text_delta,
    )
    agents.attach(runtime)
    npc = world.npcs["tobin"]
    world.player.place(world.grid.nearest_walkable(npc.tile, free=lambda t: t != npc.tile))
    shown: list[str] = []
    for line in ("hi" + HOSTILE, "and rolls?"):
        world.post(SpeechStart("tobin"))
        turn = agents.start_turn("tobin", Trigger.player(line, perceive(world, "tobin").render()))
        assert turn is not None
        for _ in range(1000):
            world.step(1 / 60)
            mailbox.pump()
            if npc.bubble is not None:
                shown.append(npc.bubble.text)
            await asyncio.sleep(0)
            if turn.done() and npc.bubble is not None and not npc.bubble.streaming:
                break  # the finished line (a plain answer's Say follows the turn's end)
        assert npc.bubble is not None and not npc.bubble.streaming, shown
    provider.assert_exhausted()
    assert any("pwned" in s for s in shown) and all(map(clean, shown)), shown
    spoke = [e.text for e in world.drain_events() if isinstance(e, Spoke)]
    assert spoke and all(map(clean, spoke)), spoke
    history = conversation(runtime.store("s1").read("tobin"), runtime.registry.spoken())
    texts = [line.text for line in history]
    assert [line.speaker for line in history] == ["player", "npc", "player", "npc"], texts
    assert texts[1].startswith("Bread[2J]0;pwned") and texts[3].startswith("Fresh[2J]")
    assert all(map(clean, texts)), texts
    await runtime.aclose()
