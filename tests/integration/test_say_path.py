"""Provider -> runtime -> say skill -> world, in one thread, stepping the world by hand."""

from __future__ import annotations

import asyncio
from pathlib import Path

from game.agent.loop import AgentRuntime
from game.agent.outcomes import Final
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.npc.agents import NpcAgents
from game.npc.known import villager_facts
from game.npc.scripted.persona import PersonaProvider, line_for
from game.npc.skills import build_registry
from game.wording import reads_back
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
    expected = line_for(villager_facts(world, "tobin"), "What do you do?", 0)
    assert npc.bubble is not None and npc.bubble.text == expected
    assert not npc.bubble.streaming
    assert len(seen) >= 3, f"the bubble did not grow piece by piece: {seen}"
    assert all(expected.startswith(s) for s in seen[:-1])
    spoke = [e for e in world.drain_events() if isinstance(e, Spoke)]
    assert [s.text for s in spoke] == [expected]
    await runtime.aclose()


def test_persona_replies_are_deterministic_and_in_character() -> None:
    world = World(load_map(MAPS / "village.tmx"))
    brenna, tobin = villager_facts(world, "brenna"), villager_facts(world, "tobin")
    swords = line_for(brenna, "tell me about swords", 3)
    assert swords == line_for(brenna, "tell me about swords", 3)
    assert line_for(brenna, "hello", 0) == brenna.greeting
    assert "Tobin" in line_for(tobin, "who are you?", 2)
    work = line_for(brenna, "what do you do?", 2)
    assert "blacksmith" in work and not reads_back(work, brenna.persona)  # its sheet's role
    assert line_for(brenna, "goodbye", 2) != brenna.greeting
    assert len(line_for(tobin, "a" * 500, 5)) <= 200
