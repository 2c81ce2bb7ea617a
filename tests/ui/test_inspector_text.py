"""F3 shows what a model sent, with no control character: tool arguments, results, errors,
the final text, the context and names."""

from __future__ import annotations

import concurrent.futures

from game.agent.bus import DebugBus
from game.agent.monitor import Snapshot, TurnMonitor
from game.world.tiled import load_map
from game.world.world import World

from .conftest import VILLAGE

HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\r\x00\x9b\x7f"
FORBIDDEN = {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))} - {"\t", "\n"}


def test_the_inspector_shows_no_control_character(window) -> None:
    from game.ui.inspector import Inspector

    world = World(load_map(VILLAGE))
    bus = DebugBus()
    monitor = TurnMonitor(bus)
    npc = min(world.npcs.values(), key=lambda n: world.distance(world.player, n))
    npc.name += HOSTILE

    def snapshot(npc_id: str, with_context: bool) -> concurrent.futures.Future[Snapshot]:
        fut: concurrent.futures.Future[Snapshot] = concurrent.futures.Future()
        context = f"[system]\nrules\n[assistant] {HOSTILE}\n[tool] {HOSTILE}"
        fut.set_result(
            Snapshot(npc_id, "fake" + HOSTILE, "m" + HOSTILE, "idle", 0, 1, 2, 3, context)
        )
        return fut

    inspector = Inspector(world, monitor, snapshot)
    run = "r1"
    bus.publish("turn_started", npc.entity_id, run, {"trigger": "player" + HOSTILE})
    bus.publish("tool_call", npc.entity_id, run, {"name": "say", "arguments": HOSTILE})
    bus.publish("tool_result", npc.entity_id, run, {"name": "say", "content": HOSTILE})
    bus.publish("error", npc.entity_id, run, {"kind": "http", "message": HOSTILE})
    bus.publish("turn_finished", npc.entity_id, run, {"kind": "final", "text": HOSTILE})
    inspector.toggle()
    inspector.toggle_context()
    inspector.update(1.0)  # asks for a snapshot
    inspector.update(1.0)  # takes it
    title, body = inspector.text()
    assert "pwned" in title and body.count("pwned") >= 5, body
    assert not set(title + body) & FORBIDDEN, repr(title + body)
