"""Provider -> runtime -> say skill -> world, in one thread, stepping the world by hand."""

from __future__ import annotations

import asyncio
from pathlib import Path

from game.agent.loop import AgentRuntime
from game.agent.outcomes import Final
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.npc.agents import NpcAgents
from game.npc.scripted.persona import PersonaProvider, reply_for
from game.npc.skills import build_registry
from game.world.commands import SpeechStart
from game.world.events import Spoke
from game.world.perception import perceive
from game.world.tiled import load_map
from game.world.world import World

MAPS = Path(__file__).resolve().parents[2] / "maps"


async def test_scripted_reply_streams_into_the_bubble(tmp_path: Path) -> None:
    world = World(load_map(MAPS / "tiny.tmx"))
    mailbox = Mailbox()  # pumped where the world steps, as the agent loop would
    agents = NpcAgents(world, mailbox)
    runtime = AgentRuntime(
        tmp_path,
        slot="s1",
        provider=PersonaProvider(delay_s=0, chunk=4),
        registry=build_registry(),
        on_text_delta=agents.on_text_delta,
    )
    agents.attach(runtime)
    world.post(SpeechStart("tobin"))
    trigger = Trigger.player("What do you do?", perceive(world, "tobin").render())
    turn = asyncio.ensure_future(runtime.run_turn("s1", "tobin", trigger))
    seen: list[str] = []
    while not turn.done():
        world.step(1 / 60)
        mailbox.pump()
        bubble = world.npcs["tobin"].bubble
        if bubble is not None and bubble.text and (not seen or seen[-1] != bubble.text):
            seen.append(bubble.text)
        await asyncio.sleep(0)
    outcome = turn.result()
    world.step(1 / 60)
    assert isinstance(outcome, Final)
    npc = world.npcs["tobin"]
    expected = reply_for(npc.name, npc.persona, npc.greeting, "What do you do?", 0)
    assert npc.bubble is not None and npc.bubble.text == expected
    assert not npc.bubble.streaming
    assert len(seen) >= 3, f"the bubble did not grow piece by piece: {seen}"
    assert all(expected.startswith(s) for s in seen[:-1])
    spoke = [e for e in world.drain_events() if isinstance(e, Spoke)]
    assert [s.text for s in spoke] == [expected]
    await runtime.aclose()


def test_persona_replies_are_deterministic_and_in_character() -> None:
    smith = "A gruff blacksmith who works the forge from dawn."
    baker = "A cheerful, warm baker."
    assert reply_for("Brenna", smith, "Hm?", "tell me about swords", 3) == reply_for(
        "Brenna", smith, "Hm?", "tell me about swords", 3
    )
    assert reply_for("Brenna", smith, "Hm?", "hello", 0) == "Hm?"
    assert "Tobin" in reply_for("Tobin", baker, "Hi", "who are you?", 2)
    assert "I'm a gruff blacksmith" in reply_for("Brenna", smith, "Hm?", "what do you do?", 2)
    assert reply_for("Brenna", smith, "Hm?", "goodbye", 2) != "Hm?"
    assert len(reply_for("X", baker, "", "a" * 500, 5)) <= 200
