"""Save and load figures: prints one JSON line.

- load_s_20x5000: load a slot of 20 NPCs x 5,000 events each as the game does when it
  opens a slot: read and repair the slot, put everyone in place, open every NPC's log and
  read its newest events, and build every NPC's next provider request (target <= 0.5).
  The best of three rounds, each in a fresh store (files in the page cache).
- load_peak_mb: peak Python memory (tracemalloc) of that load, in a fresh interpreter.
- save_ms_game_thread: time the game thread spends in a save while NPCs keep appending
  (snapshot of 20 NPCs + hand-off with a 1280x720 frame for the thumbnail), the median of
  30 saves (target <= 100); save_ms_game_thread_max is the worst of them.
- save_ms_total: median wall time until such a save is on disk (off the game thread:
  fsync of 20 logs, world.json, meta.json, the PNG thumbnail).

Run: python tests/benchmarks/saves.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.agent.context import NpcProfile  # noqa: E402
from game.agent.events import (  # noqa: E402
    AssistantMessage,
    EventBase,
    PermissionDecisionEvent,
    ResultEvent,
    ToolResultEvent,
    ToolUse,
    UserMessage,
)
from game.agent.loop import AgentRuntime  # noqa: E402
from game.agent.providers.base import ToolCall  # noqa: E402
from game.agent.providers.fake import FakeProvider  # noqa: E402
from game.agent.store import SessionStore  # noqa: E402
from game.bridge import AgentThread  # noqa: E402
from game.npc.skills import build_registry  # noqa: E402
from game.save.keeper import SlotKeeper  # noqa: E402
from game.save.slot_io import write_slot  # noqa: E402
from game.save.thumbnail import Frame  # noqa: E402
from game.save.world_state import restore_world, snapshot_world  # noqa: E402
from game.world.tiled import MapData, NpcSpawn  # noqa: E402
from game.world.world import World  # noqa: E402

NPCS = 20
EVENTS = 5000
SLOT = "bench"
PERCEPTION = "You are at the well. The player is two tiles north. The market is busy."


def bench_world() -> World:
    """A 40x40 open map with 20 NPCs (no file: the map itself is not what is measured)."""
    spawns = [
        NpcSpawn(
            f"npc{i:02d}",
            f"Npc {i}",
            f"Npc {i} is a villager who likes bread and gossip.",
            "Hello!",
            "npc",
            (2 + i, 5),
        )
        for i in range(NPCS)
    ]
    data = MapData(
        path=Path("bench.tmx"),
        width=40,
        height=40,
        tile_width=32,
        tile_height=32,
        blocked=set(),
        player_spawn=(1, 1),
        npcs=spawns,
        places={},
        tile_layers=["ground"],
    )
    return World(data)


def exchange(n: int) -> list[EventBase]:
    """One player line and the NPC's answer through `say`: five events."""
    call = ToolCall(id=f"c{n}", name="say", arguments=json.dumps({"text": f"Good day {n}!"}))
    return [
        UserMessage(text=f"Hello there, this is line {n}.", perception=PERCEPTION),
        AssistantMessage(step=1, tool_calls=[call]),
        ToolUse(call_id=call.id, name="say", arguments=call.arguments),
        PermissionDecisionEvent(call_id=call.id, tool="say", allowed=True, reason="ok"),
        ToolResultEvent(call_id=call.id, name="say", content=f"you said: Good day {n}!"),
        AssistantMessage(step=2),
        ResultEvent(outcome="final", steps=2, tokens_in=700, tokens_out=20),
    ][: 5 if n % 2 else 7]


def make_slot(saves: Path, world: World) -> None:
    """Write 20 logs of 5,000 events each, then save the slot."""
    ts = time.time()
    for npc_id in world.npcs:
        path = saves / SLOT / "npcs" / npc_id / "session" / "events.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines: list[str] = []
        n = 0
        while len(lines) < EVENTS:
            for event in exchange(n):
                if len(lines) == EVENTS:
                    break
                event.seq, event.ts = len(lines) + 1, ts
                lines.append(event.model_dump_json())
            n += 1
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # A real slot has each log's state.json (written by every save): build them once.
    store = SessionStore(saves, SLOT)
    result = write_slot(saves, SLOT, snapshot_world(world), store=store, thumbnail=b"\x89PNG")
    assert result.ok, result.message


def runtime_for(saves: Path, world: World) -> AgentRuntime:
    rt = AgentRuntime(
        saves,
        slot=SLOT,
        provider=FakeProvider(),
        registry=build_registry(),
    )
    for npc in world.npcs.values():
        rt.register_npc(NpcProfile(npc_id=npc.entity_id, name=npc.name, persona=npc.persona))
    return rt


def load_once(saves: Path) -> float:
    """Open the slot as the game does; returns seconds."""
    world = bench_world()
    rt = runtime_for(saves, world)
    started = time.perf_counter()
    data = restore_world(world, saves, SLOT)
    rt.set_world_summary(SLOT, data.world_summary)
    store = rt.store(SLOT)
    for npc_id in world.npcs:
        store.recent(npc_id)
        rt.build_request(SLOT, npc_id)
    elapsed = time.perf_counter() - started
    assert world.player.tile == (1, 1) and not data.warnings, data.warnings
    return elapsed


def peak_mb(saves: Path) -> float:
    """Peak traced memory of one load (run in a fresh interpreter)."""
    tracemalloc.start()
    load_once(saves)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def save_figures(saves: Path) -> tuple[float, float, float]:
    """(median, max) game-thread ms of a save while playing, and median total ms."""
    world = bench_world()
    thread = AgentThread().start()

    async def build() -> AgentRuntime:
        return runtime_for(saves, world)

    rt = thread.submit(build()).result(timeout=10)
    keeper = SlotKeeper(world, rt, thread, saves, autosave_s=0)
    frame = Frame(bytes(1280 * 720 * 3), 1280, 720)
    store = rt.store(SLOT)

    async def play(n: int) -> None:
        for npc_id in list(world.npcs)[:5]:
            store.append(npc_id, UserMessage(text=f"while playing {n}"))

    game_ms: list[float] = []
    total_ms: list[float] = []
    try:
        for n in range(30):
            thread.submit(play(n)).result(timeout=10)
            world.step(1 / 60)
            started = time.perf_counter()
            fut = keeper.save(frame)  # what Village.save() does on the game thread
            game_ms.append((time.perf_counter() - started) * 1000)
            result = fut.result(timeout=30)
            total_ms.append((time.perf_counter() - started) * 1000)
            assert result.ok, result.message
    finally:
        keeper.close(save=False)
        thread.stop(rt.aclose)
    return statistics.median(game_ms), max(game_ms), statistics.median(total_ms)


def main() -> None:
    """Build the slot, measure, print one JSON line."""
    if len(sys.argv) == 3 and sys.argv[1] == "--peak":
        print(json.dumps({"load_peak_mb": round(peak_mb(Path(sys.argv[2])), 1)}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        make_slot(saves, bench_world())
        load_s = min(load_once(saves) for _ in range(3))
        out = subprocess.run(
            [sys.executable, __file__, "--peak", str(saves)],
            capture_output=True,
            text=True,
            check=True,
        )
        peak = json.loads(out.stdout.strip().splitlines()[-1])["load_peak_mb"]
        game_ms, game_max, total_ms = save_figures(saves)
    print(
        json.dumps(
            {
                "load_s_20x5000": round(load_s, 3),
                "save_ms_game_thread": round(game_ms, 3),
                "save_ms_game_thread_max": round(game_max, 3),
                "save_ms_total": round(total_ms, 1),
                "load_peak_mb": peak,
            }
        )
    )


if __name__ == "__main__":
    main()
