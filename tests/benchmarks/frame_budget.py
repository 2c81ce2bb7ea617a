"""Frame budget with 100 living NPCs: prints one JSON line.

A generated 100x100 map (a Tiled .tmj written to a temporary directory, so the real
`GameView` can draw it) with 100 NPCs and a player walking a square. Three scenes of the
same length, each in the real loop of a headless game: `World.step` + `Brain.update` +
sprite sync (`GameView.on_update`), then `GameView.on_draw`, paced at 60 frames a second
of wall time so the agents beside the game stream at the speed a player would see. Each
scene is set up as `game.village` and the window do it: the pump on the agent loop, paths
planned there (`World.plan_elsewhere`), costly commands left for the frame's spare time
(`World.defer_costly`), the loaded village frozen out of collections, and collections
run between frames.

- thinking: every agent runs (idle ticks, greetings, NPC chatter) on the real runtime and
  agent thread, with a scripted provider that answers after 300 ms and streams 40
  tokens/s (the persona brain, paced). Every world command the agents send is recorded
  with its frame.
- idle: the same scene with agents switched off: nobody thinks, so nobody moves.
- replay: agents switched off, the recorded commands fed to the world at their frames:
  the same life on screen without any agent, so `thinking` / `replay` isolates what the
  agents' thinking costs the game thread, apart from what the life they cause costs.

Figures: p50/p99 of the game-thread time per frame for the update and for update + draw;
the thinking/idle ratio of p99 update (target <= 1.25); p99 update (target <= 4 ms);
`World.step` alone with 100 NPCs, a fifth of them walking (target >= 2,000 steps/s).

Headless drawing is Mesa's software renderer, whose worker threads rasterise after
`on_draw` returns; the draw figure waits for them (`ctx.finish()`), as a GPU would do
that work off the CPU, so they do not compete with the next update for the cores.

Run: python tests/benchmarks/frame_budget.py [seconds of game time per scene, default 20]
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, cast

os.environ.setdefault("ARCADE_HEADLESS", "1")

import game.ui  # noqa: F401  (headless fix-ups before arcade.gui)  # isort: skip

import arcade

from game.agent.loop import AgentRuntime
from game.agent.providers.base import ProviderEvent, ProviderRequest
from game.agent.providers.persona import PersonaProvider
from game.bridge import AgentThread
from game.npc.brain import Brain, IdleSettings, NpcAgents, SpareTime
from game.npc.skills import build_registry
from game.ui.app import CollectBetweenFrames, freeze_loaded
from game.ui.game_view import GameView
from game.world.commands import MoveSteps, Outcome, WorldCommand
from game.world.tiled import load_map
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]
TILESET = ROOT / "assets" / "tiles" / "village_tiles.tsj"
SIZE = 100
NPCS = 100
FPS = 60
WARMUP_FRAMES = 60
GRASS, GRASS2, PATH, WATER, TREE, PINE, ROCK, COLLISION = 1, 2, 4, 16, 30, 31, 33, 88
SPRITES = ("smith", "baker", "elder", "fisher", "child", "merchant")
PERSONAS = (
    "A gruff smith, blunt and proud of honest work.",
    "A cheerful, warm baker who loves to chat.",
    "A wise old elder who remembers every story.",
    "A quiet fisher of few words.",
    "A curious child with a hundred questions.",
    "A shrewd travelling merchant who loves a bargain.",
)


def _prop(name: str, value: str) -> dict[str, str]:
    return {"name": name, "type": "string", "value": value}


def write_map(folder: Path, seed: int = 7) -> Path:
    """A 100x100 village of meadows, woods and ponds, with 100 NPCs, as a Tiled .tmj."""
    rng = random.Random(seed)
    ground = [GRASS if rng.random() < 0.8 else GRASS2 for _ in range(SIZE * SIZE)]
    decor = [0] * (SIZE * SIZE)
    blocked: set[tuple[int, int]] = set()
    for y in range(SIZE):
        for x in range(SIZE):
            edge = x in (0, SIZE - 1) or y in (0, SIZE - 1)
            pond = any((x - cx) ** 2 + (y - cy) ** 2 < 30 for cx, cy in ((25, 70), (75, 30)))
            if pond:
                ground[y * SIZE + x] = WATER
                blocked.add((x, y))
            elif edge or rng.random() < 0.06:
                decor[y * SIZE + x] = rng.choice((TREE, PINE, ROCK))
                blocked.add((x, y))
    for x in range(1, SIZE - 1):  # two crossing roads keep the village connected
        for road in (50, 51):
            for tile in ((x, road), (road, x)):
                ground[tile[1] * SIZE + tile[0]] = PATH
                decor[tile[1] * SIZE + tile[0]] = 0
                blocked.discard(tile)
    collision = [COLLISION if (i % SIZE, i // SIZE) in blocked else 0 for i in range(SIZE**2)]
    places = []
    for i, (px, py) in enumerate(((10, 10), (60, 10), (10, 40), (60, 60), (30, 85), (85, 85))):
        places.append(
            {
                "id": 1000 + i,
                "name": f"square_{i}",
                "type": "place",
                "x": px * 32,
                "y": py * 32,
                "width": 8 * 32,
                "height": 6 * 32,
                "rotation": 0,
                "visible": True,
                "properties": [_prop("description", f"A small square, number {i}.")],
            }
        )
    free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in blocked]
    rng.shuffle(free)
    npcs = []
    for i, (x, y) in enumerate(free[:NPCS]):
        kind = i % len(SPRITES)
        props = {
            "id": f"npc{i:03d}",
            "name": f"Villager{i}",
            "persona": PERSONAS[kind],
            "greeting": f"Hello, I am Villager{i}.",
            "sprite": SPRITES[kind],
            "home": f"square_{i % len(places)}",
        }
        npcs.append(
            {
                "id": 2000 + i,
                "name": props["id"],
                "type": "npc",
                "point": True,
                "x": x * 32 + 16,
                "y": y * 32 + 16,
                "width": 0,
                "height": 0,
                "rotation": 0,
                "visible": True,
                "properties": [_prop(k, v) for k, v in sorted(props.items())],
            }
        )
    spawn = next(t for t in free[NPCS:] if abs(t[0] - 50) + abs(t[1] - 50) < 6)

    def tiles(name: str, data: list[int], lid: int, visible: bool = True) -> dict[str, Any]:
        return {
            "id": lid,
            "name": name,
            "type": "tilelayer",
            "width": SIZE,
            "height": SIZE,
            "x": 0,
            "y": 0,
            "opacity": 1,
            "visible": visible,
            "data": data,
        }

    def objects(name: str, objs: list[dict[str, Any]], lid: int) -> dict[str, Any]:
        return {
            "id": lid,
            "name": name,
            "type": "objectgroup",
            "draworder": "topdown",
            "x": 0,
            "y": 0,
            "opacity": 1,
            "visible": True,
            "objects": objs,
        }

    player = {
        "id": 1,
        "name": "player_spawn",
        "type": "spawn",
        "point": True,
        "x": spawn[0] * 32 + 16,
        "y": spawn[1] * 32 + 16,
        "width": 0,
        "height": 0,
        "rotation": 0,
        "visible": True,
    }
    tileset = folder / "village_tiles.tsj"
    shutil.copy(TILESET, tileset)
    shutil.copy(TILESET.with_suffix(".png"), folder / "village_tiles.png")
    data = {
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": SIZE,
        "height": SIZE,
        "tilewidth": 32,
        "tileheight": 32,
        "compressionlevel": -1,
        "nextlayerid": 7,
        "nextobjectid": 3000,
        "properties": [_prop("name", "Benchton")],
        "tilesets": [{"firstgid": 1, "source": tileset.name}],
        "layers": [
            tiles("ground", ground, 1),
            tiles("decor", decor, 2),
            tiles("collision", collision, 3, visible=False),
            objects("places", places, 4),
            objects("npcs", npcs, 5),
            objects("spawns", [player], 6),
        ],
    }
    path = folder / "bench.tmj"
    path.write_text(json.dumps(data))
    return path


class Paced:
    """The persona brain as a slow model: 300 ms to the first token, then 40 tokens/s."""

    name = "scripted"
    model = "paced"

    def __init__(self, first_token_s: float = 0.3, tokens_per_s: float = 40.0) -> None:
        self.inner = PersonaProvider(delay_s=0)
        self.first_token_s = first_token_s
        self.tokens_per_s = tokens_per_s
        self.requests = 0
        self.tokens = 0

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """Wait, then stream the persona's answer at the set pace."""
        self.requests += 1
        await asyncio.sleep(self.first_token_s)
        async for event in self.inner.stream(request):
            text = getattr(event, "text", None) or getattr(event, "delta", None)
            if event.type in ("text_delta", "tool_call_args_delta") and text:
                tokens = max(1, len(text) // 4)
                self.tokens += tokens
                await asyncio.sleep(tokens / self.tokens_per_s)
            yield event

    async def aclose(self) -> None:
        """Nothing to release."""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


class _Off:
    """The brain with agents switched off: nothing triggers, nobody thinks; a replayed
    command still waits for a frame's spare time, as it would for the brain."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.spare = SpareTime()

    def update(self, dt: float) -> None:
        """Nothing to watch."""

    def spare_time(self, elapsed_s: float) -> None:
        """A replayed costly command, when the frame has time to spare."""
        if self.spare.ready(elapsed_s):
            self.world.run_costly()


def run_scene(
    map_path: Path,
    saves: Path,
    window: arcade.Window,
    mode: str,
    seconds: float,
    script: list[tuple[int, WorldCommand]] | None = None,
) -> dict[str, Any]:
    """One scene: "thinking" (records what the agents did into `script`), "idle" (agents
    off) or "replay" (agents off, the recorded commands fed to the world at their frames).
    Returns per-frame update and frame times in ms, and what the agents did."""
    world = World(load_map(map_path))
    provider = Paced()
    agents = NpcAgents(world, "bench")
    thread = AgentThread().start()

    async def build() -> AgentRuntime:
        return AgentRuntime(
            saves,
            provider=provider,
            registry=build_registry(),
            on_text_delta=agents.on_text_delta,
        )

    runtime = thread.submit(build()).result(timeout=30)
    agents.attach(runtime)
    brain = Brain(world, agents, thread.call_soon, idle=IdleSettings())
    thread.call_soon(agents.start_pump)  # as game.village does
    world.plan_elsewhere()
    world.defer_costly = True  # as game.village does
    now = [0]
    if mode == "thinking" and script is not None:
        submit, post = world.submit, world.post

        def recording_submit(command: WorldCommand) -> Future[Outcome]:
            script.append((now[0], command))
            return submit(command)

        def recording_post(command: WorldCommand) -> None:
            script.append((now[0], command))
            post(command)

        world.submit = recording_submit  # type: ignore[method-assign]
        world.post = recording_post  # type: ignore[method-assign]
    view = GameView(world, brain if mode == "thinking" else cast(Brain, _Off(world)))
    window.show_view(view)
    freeze_loaded()  # as the game does once a village is loaded
    by_frame: dict[int, list[WorldCommand]] = {}
    for frame, command in (script or []) if mode == "replay" else []:
        by_frame.setdefault(frame, []).append(command)
    dt = 1 / FPS
    frames = int(seconds * FPS)
    walk = ("right", "down", "left", "up")
    update_ms: list[float] = []
    frame_ms: list[float] = []
    with CollectBetweenFrames() as between_frames:  # as the game's window does
        start = time.perf_counter()
        for frame in range(frames):
            now[0] = frame
            if frame % (2 * FPS) == 0:  # the player walks a square, two seconds a side
                world.hold_direction(walk[(frame // (2 * FPS)) % 4])
            for command in by_frame.get(frame, ()):
                world.post(command)
            t0 = time.perf_counter()
            view.on_update(dt)
            t1 = time.perf_counter()
            view.on_draw()
            window.ctx.finish()
            between_frames()
            t2 = time.perf_counter()
            if frame >= WARMUP_FRAMES:
                update_ms.append((t1 - t0) * 1000)
                frame_ms.append((t2 - t0) * 1000)
            behind = start + (frame + 1) * dt - time.perf_counter()
            if behind > 0:
                time.sleep(behind)
    triggers = len(brain.sent)
    thread.stop(runtime.aclose)
    window.show_view(arcade.View())
    gc.unfreeze()
    return {
        "update": update_ms,
        "frame": frame_ms,
        "triggers": triggers,
        "requests": provider.requests,
        "tokens": provider.tokens,
        "fallbacks": agents.fallbacks,
    }


def world_steps_per_s(map_path: Path, steps: int = 6000, rounds: int = 3) -> float:
    """`World.step` alone with 100 NPCs, a fifth of them walking at any time."""
    best = 0.0
    for round_ in range(rounds):
        world = World(load_map(map_path))
        rng = random.Random(round_)
        ids = sorted(world.npcs)
        dt = 1 / FPS
        started = time.perf_counter()
        for i in range(steps):
            if i % 30 == 0:
                for npc_id in rng.sample(ids, 10):
                    direction = rng.choice(("up", "down", "left", "right"))
                    world.post(MoveSteps(npc_id, direction, rng.randint(1, 5)))
            world.step(dt)
        best = max(best, steps / (time.perf_counter() - started))
    return best


def main() -> None:
    """Run the scenes and the step figure; print one JSON line."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    with tempfile.TemporaryDirectory(prefix="frame-budget-") as tmp:
        folder = Path(tmp)
        map_path = write_map(folder)
        steps = world_steps_per_s(map_path)
        window = arcade.Window(1280, 720, "frame budget", visible=False, vsync=False)
        script: list[tuple[int, WorldCommand]] = []
        idle = run_scene(map_path, folder / "saves-idle", window, "idle", seconds)
        thinking = run_scene(
            map_path, folder / "saves-thinking", window, "thinking", seconds, script
        )
        replay = run_scene(map_path, folder / "saves-replay", window, "replay", seconds, script)
        window.close()
    p99_think = _pct(thinking["update"], 0.99)
    p99_idle = _pct(idle["update"], 0.99)
    p99_replay = _pct(replay["update"], 0.99)
    print(
        json.dumps(
            {
                "p50_update_ms_thinking": round(statistics.median(thinking["update"]), 3),
                "p99_update_ms_thinking": round(p99_think, 3),
                "p50_update_ms_idle": round(statistics.median(idle["update"]), 3),
                "p99_update_ms_idle": round(p99_idle, 3),
                "p99_ratio": round(p99_think / p99_idle, 3),
                "p50_update_ms_replay": round(statistics.median(replay["update"]), 3),
                "p99_update_ms_replay": round(p99_replay, 3),
                "p99_ratio_vs_replay": round(p99_think / p99_replay, 3),
                "p50_frame_ms_thinking": round(statistics.median(thinking["frame"]), 3),
                "p99_frame_ms_thinking": round(_pct(thinking["frame"], 0.99), 3),
                "p99_frame_ms_idle": round(_pct(idle["frame"], 0.99), 3),
                "world_steps_per_s": round(steps),
                "seconds_per_scene": seconds,
                "npcs": NPCS,
                "triggers": thinking["triggers"],
                "provider_requests": thinking["requests"],
                "tokens_streamed": thinking["tokens"],
                "commands_replayed": len(script),
                "fallbacks": thinking["fallbacks"],
            }
        )
    )


if __name__ == "__main__":
    main()
