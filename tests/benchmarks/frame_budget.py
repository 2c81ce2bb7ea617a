"""Frame budget with 100 living NPCs, and the bundled model against a fake: one JSON line.

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
- night: `idle` and `thinking` again with the world's clock set to 11 pm before play: the
  map and characters darkened, the lamps along the roads glowing (the map has a lamp
  every 12 tiles beside both roads), a z over each sleeper (`night_*` figures;
  `night_lamps_drawn` is the most lamp glows one frame drew). The day scenes play from
  8 am, when nothing of the night is drawn.

Figures: p50/p99 of the game-thread time per frame for the update and for update + draw;
the thinking/idle ratio of p99 update (target <= 1.25); p99 update (target <= 4 ms);
`World.step` alone with 100 NPCs, a fifth of them walking (target >= 2,000 steps/s).

Headless drawing is Mesa's software renderer, whose worker threads rasterise after
`on_draw` returns; the draw figure waits for them (`ctx.finish()`), as a GPU would do
that work off the CPU, so they do not compete with the next update for the cores.

The model pair (`--model-scenes`, or `--all` for both sets): does the bundled model playing
NPCs cost the game thread more than a fake provider? The same generated map with three NPCs
only, standing within 6 tiles of the spawn (in view: they greet the player, chat and
answer), the player walking the same square and talking to one of them every 5 s of game
time; agents, idle chatter, runtime, agent thread, pump and frame pacing as in `thinking`.

- model3: the bundled model (`LocalLlamaProvider`, llama.cpp in its worker process) wrapped
  as the game wraps it (`FallbackProvider` with the persona brain). Each run starts a
  fresh worker and waits for the model to load before the timed part (the first load
  probes the llama.cpp settings into a temporary cache file). A run in which the model
  served no request is an error, not a figure. A thin wrapper (`Recorder`) records every
  answer as it reached the runtime: per NPC (`request.npc_id`) and per request of that
  NPC (0, 1, 2, ...), each event with the seconds since the request was made, in game time
  (the scene's `World.clock`) and in wall time.
- fake3: the same scene with a timed fake in the model's place (`Replayed`, in the same
  `FallbackProvider` and `Recorder`): the k-th request of an NPC gets the events of the
  model's k-th request of that NPC, each at its recorded delay, so the runtime, the world
  and the game thread get the same stream of events and commands; only who produces them
  differs. A request with no recording (the runs diverged) gets `Paced` (above) instead.
  The delays are kept in game time: here the worker competes with the software renderer
  for the cores, so the model scene runs at fewer frames per wall second (`*_fps`) than
  the fake one, and answers replayed at their wall delays would land on later frames and
  leave the fake scene less life within the same frames.

Three runs of each, interleaved: model3 run i, then fake3 run i replaying model3 run i's
recording. Figures: the median over the runs of p99 update for each
(`model3_p99_update_ms`, `fake3_p99_update_ms`), their ratio `model3_vs_fake3_p99` (target
<= 1.1), each run's p99; how faithful each replay was, per run (`fake3_replayed` /
`fake3_not_replayed` requests; `fake3_unasked`: recorded answers the replay never asked
for; `fake3_replay_mismatched`: replayed requests whose trigger kind or turn step differed
from the model's; `fake3_cuts_missed`: answers the model run's runtime cut short, e.g. a
cancelled turn, that the replay's did not cut within `CUT_GRACE_S`); the life each run
carried (`*_answers` and `*_events`: requests and provider events that reached the runtime,
`*_commands`: world commands submitted or posted, `*_command_frames`: frames with any,
`*_command_kinds`: commands by kind over all runs); and what the model did (requests it
served, by outcome, and the tokens it generated).

Run: python tests/benchmarks/frame_budget.py [seconds of game time per scene, default 20]
     [--model-scenes: only the model pair | --all: the 100-NPC scenes, then the pair]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import shutil
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

os.environ.setdefault("ARCADE_HEADLESS", "1")

import game.ui  # noqa: F401  (headless fix-ups before arcade.gui)  # isort: skip

import arcade

from game.agent.loop import AgentRuntime
from game.agent.providers.base import (
    Done,
    Provider,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
    Usage,
)
from game.agent.providers.fallback import FallbackProvider
from game.agent.providers.local.client.provider import LocalLlamaProvider
from game.agent.providers.local.model import local_available
from game.agent.providers.local.protocol import JobStats
from game.bridge import AgentThread, Mailbox
from game.npc.agents import NpcAgents
from game.npc.brain import Brain
from game.npc.pace import IdleSettings, SpareTime
from game.npc.scripted.persona import PersonaProvider
from game.npc.skills import build_registry
from game.ui.app import CollectBetweenFrames, freeze_loaded
from game.ui.game_view import GameView
from game.village import local_provider
from game.world.commands import MoveSteps, Outcome, WorldCommand
from game.world.planner import Planner
from game.world.tiled import load_map
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]
TILESET = ROOT / "assets" / "tiles" / "village_tiles.tsj"
SIZE = 100
NPCS = 100
FEW = 3  # NPCs of the model pair
NEAR_SPAWN = 6  # tiles from the spawn within which a map of a few NPCs places them
TALK_EVERY_S = 5.0  # game seconds between the player's lines in the model pair
RUNS = 3  # runs of each scene of the model pair
CUT_GRACE_S = 2.0  # game s a replayed answer the model run's runtime cut waits to be cut
FPS = 60
WARMUP_FRAMES = 60
GRASS, GRASS2, PATH, WATER, TREE, PINE, ROCK, COLLISION = 1, 2, 4, 16, 30, 31, 33, 88
LAMP_EVERY = 12  # tiles between the lamps beside each road
NIGHT_HOUR = 23.0
SPRITES = ("smith", "baker", "elder", "fisher", "child", "merchant")
PERSONAS = (
    "A gruff smith, blunt and proud of honest work.",
    "A cheerful, warm baker who loves to chat.",
    "A wise old elder who remembers every story.",
    "A quiet fisher of few words.",
    "A curious child with a hundred questions.",
    "A shrewd travelling merchant who loves a bargain.",
)
PLAYER_LINES = (
    "Hello there! How are you today?",
    "What is the news in the village?",
    "Do you know a good place to rest?",
    "What do you think of the weather?",
)


def _prop(name: str, value: str) -> dict[str, str]:
    return {"name": name, "type": "string", "value": value}


def write_map(folder: Path, seed: int = 7, npcs: int = NPCS) -> Path:
    """A 100x100 village of meadows, woods and ponds with `npcs` NPCs, as a Tiled .tmj."""
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
    spawn = next(t for t in free[NPCS:] if abs(t[0] - 50) + abs(t[1] - 50) < 6)
    # The full hundred stand anywhere; a few stand in view, near the spawn.
    places_npcs = free[:NPCS] if npcs >= NPCS else _near(free, spawn, npcs, rng)
    npc_objects = []
    for i, (x, y) in enumerate(places_npcs):
        kind = i % len(SPRITES)
        props = {
            "id": f"npc{i:03d}",
            "name": f"Villager{i}",
            "persona": PERSONAS[kind],
            "greeting": f"Hello, I am Villager{i}.",
            "sprite": SPRITES[kind],
            "home": f"square_{i % len(places)}",
        }
        npc_objects.append(
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

    lamps = [
        {
            "id": 4000 + i,
            "name": "lamp",
            "point": True,
            "x": x * 32 + 16,
            "y": y * 32 + 16,
            "width": 0,
            "height": 0,
            "rotation": 0,
            "visible": True,
        }
        for i, (x, y) in enumerate(
            [(a, 49) for a in range(6, SIZE - 1, LAMP_EVERY)]
            + [(52, a) for a in range(6, SIZE - 1, LAMP_EVERY)]
        )
    ]
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
        "nextlayerid": 8,
        "nextobjectid": 5000,
        "properties": [_prop("name", "Benchton")],
        "tilesets": [{"firstgid": 1, "source": tileset.name}],
        "layers": [
            tiles("ground", ground, 1),
            tiles("decor", decor, 2),
            tiles("collision", collision, 3, visible=False),
            objects("places", places, 4),
            objects("npcs", npc_objects, 5),
            objects("spawns", [player], 6),
            objects("lamps", lamps, 7),
        ],
    }
    path = folder / f"bench-{npcs}.tmj"
    path.write_text(json.dumps(data))
    return path


def _near(
    free: list[tuple[int, int]], spawn: tuple[int, int], count: int, rng: random.Random
) -> list[tuple[int, int]]:
    """`count` free tiles 2 to `NEAR_SPAWN` tiles from the spawn, at least 3 tiles apart and
    within earshot of each other (under 8 tiles), so they are in view and hear each other."""
    around = [t for t in free if 2 <= _chebyshev(t, spawn) <= NEAR_SPAWN]
    rng.shuffle(around)
    chosen: list[tuple[int, int]] = []
    for tile in around:
        if all(_chebyshev(tile, o) >= 3 and math.dist(tile, o) < 8 for o in chosen):
            chosen.append(tile)
            if len(chosen) == count:
                return chosen
    raise ValueError(f"no room for {count} NPCs near the spawn {spawn}")


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def map_for(folder: Path, npcs: int) -> Path:
    """The generated map with `npcs` NPCs in `folder`, written the first time it is asked for."""
    path = folder / f"bench-{npcs}.tmj"
    return path if path.exists() else write_map(folder, npcs=npcs)


class Paced(Provider):
    """The persona brain as a slow model: 300 ms to the first token, then 40 tokens/s."""

    name = "scripted"
    model = "paced"

    def __init__(self, first_token_s: float = 0.3, tokens_per_s: float = 40.0) -> None:
        self.inner = PersonaProvider(delay_s=0)
        self.first_token_s = first_token_s
        self.tokens_per_s = tokens_per_s
        self.requests = 0
        self.served = 0
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
            if event.type == "done":  # a caller may stop reading at `Done`
                self.served += 1
            yield event

    async def aclose(self) -> None:
        """Nothing to release."""


@dataclass
class Answer:
    """One request's answer as it reached the runtime: (game s since the request, event)
    pairs and each event's wall s since the request; `cut_s` (game s) when the runtime
    stopped reading before a `Done` or `ProviderError`."""

    trigger: str
    step: int
    events: list[tuple[float, ProviderEvent]] = field(default_factory=list)
    wall_s: list[float] = field(default_factory=list)
    cut_s: float | None = None


Recording = dict[str, list[Answer]]  # npc id -> its requests' answers, in request order


class GameClock:
    """The game time of the scene being run (`World.clock`, read from the agent thread)."""

    def __init__(self) -> None:
        self.world: World | None = None

    def attach(self, world: World) -> None:
        """Time by this scene's world from now on."""
        self.world = world

    def __call__(self) -> float:
        """The world's game seconds (0 before a world is attached)."""
        return self.world.clock if self.world is not None else 0.0

    async def until(self, game_s: float) -> None:
        """Sleep until the game clock reaches `game_s` (to the nearest frame)."""
        while (left := game_s - self()) > 0.5 / FPS:
            await asyncio.sleep(left)  # game time runs no faster than wall time, paced


def _kind(request: ProviderRequest) -> str:
    """The kind of the request's trigger ("None" when it has none)."""
    return request.trigger.kind if request.trigger is not None else "None"


class Recorder(Provider):
    """A provider passing another's answers through, recording them into `answers`."""

    def __init__(self, inner: Provider, clock: GameClock) -> None:
        self.inner = inner
        self.clock = clock
        self.primary = getattr(inner, "primary", inner)  # what `run_scene` loads and reads
        self.name = inner.name
        self.model = inner.model
        self.capabilities = inner.capabilities
        self.answers: Recording = {}

    async def load(self) -> ProviderError | None:
        """Load the inner provider's model."""
        return await self.inner.load()

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """The inner provider's events, each recorded with its time since the request."""
        answer = Answer(_kind(request), request.options.step or 0)
        self.answers.setdefault(str(request.npc_id), []).append(answer)
        start, wall = self.clock(), time.perf_counter()
        events = self.inner.stream(request)
        ended = False
        try:
            async for event in events:
                answer.events.append((self.clock() - start, event))
                answer.wall_s.append(time.perf_counter() - wall)
                ended = event.type in ("done", "provider_error")
                yield event
        finally:
            if not ended:
                answer.cut_s = self.clock() - start
            await events.aclose()  # at once, as the runtime would close the inner stream

    async def aclose(self) -> None:
        """Close the inner provider."""
        await self.inner.aclose()


class Replayed(Paced):
    """A model run's answers again, each event at its recorded delay in game time; `Paced`
    for a request the recording has no answer for (the runs diverged)."""

    model = "replayed"

    def __init__(self, recording: Recording, clock: GameClock) -> None:
        super().__init__()
        self.recording = recording
        self.clock = clock
        self.asked: Counter[str] = Counter()  # npc id -> its requests so far
        self.replayed = 0
        self.not_replayed = 0
        self.mismatched = 0  # replayed for a request of another trigger kind or step
        self.cuts_missed = 0

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """The recorded answer to this NPC's request of the same index, at the model's pace."""
        npc_id = str(request.npc_id)
        index = self.asked[npc_id]
        self.asked[npc_id] += 1
        answers = self.recording.get(npc_id, [])
        if index >= len(answers):
            self.not_replayed += 1
            async for event in super().stream(request):
                yield event
            return
        answer = answers[index]
        self.replayed += 1
        self.requests += 1
        if (answer.trigger, answer.step) != (_kind(request), request.options.step or 0):
            self.mismatched += 1
        start = self.clock()
        for offset, event in answer.events:
            await self.clock.until(start + offset)
            if isinstance(event, Usage):
                self.tokens += event.output_tokens
            elif isinstance(event, Done):
                self.served += 1
            yield event
        if answer.cut_s is not None:
            # The model run's runtime stopped reading here (a cancel, the watchdog, a timeout,
            # the scene's end): the same cause should cut this replay; if not, it ends.
            await self.clock.until(start + answer.cut_s + CUT_GRACE_S)
            self.cuts_missed += 1
            yield Done(stop_reason="cut")

    @property
    def unasked(self) -> int:
        """Recorded answers no request of the replay asked for (the runs diverged)."""
        return sum(max(0, len(a) - self.asked[npc_id]) for npc_id, a in self.recording.items())


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
    folder: Path,
    window: arcade.Window,
    mode: str,
    seconds: float,
    script: list[tuple[int, WorldCommand]] | None = None,
    *,
    npcs: int = NPCS,
    provider: Provider | None = None,
    talk_every_s: float | None = None,
    on_world: Callable[[World], None] | None = None,
    hour: float | None = None,
) -> dict[str, Any]:
    """One scene on the generated map with `npcs` NPCs: "thinking" (records what the agents
    did into `script`, if given), "idle" (agents off) or "replay" (agents off, the recorded
    commands fed to the world at their frames). The agents think with `provider` (default
    `Paced`; one that needs loading (its capabilities say) is loaded before the timed
    part); every `talk_every_s` of game time the player says a line to the next NPC;
    `on_world` is given the world before play; `hour` sets its time of day first. Returns
    per-frame update and frame times in ms, the wall seconds the frames took, the most
    lamp glows a frame drew, and what the agents did."""
    world = World(load_map(map_for(folder, npcs)))
    if hour is not None:
        world.day.set_hour(hour)
    if on_world is not None:
        on_world(world)
    provider = provider if provider is not None else Paced()
    primary = getattr(provider, "primary", provider)
    saves = Path(tempfile.mkdtemp(prefix=f"saves-{mode}-", dir=folder))
    mailbox = Mailbox()  # as game.village builds it
    planner = Planner(world)
    mailbox.on_pump(planner.step, at_stop=planner.finish)
    world.plan_elsewhere()
    agents = NpcAgents(world, mailbox)
    thread = AgentThread().start()

    async def build() -> AgentRuntime:
        if provider.capabilities.needs_loading:  # as the game prepares a local model,
            failed = await provider.load()  # but before play here
            if failed is not None:
                raise RuntimeError(f"the model did not load: {failed.message}")
        return AgentRuntime(
            saves,
            slot="bench",
            provider=provider,
            registry=build_registry(),
            on_text_delta=agents.on_text_delta,
        )

    async def shutdown() -> None:
        await runtime.aclose()
        await provider.aclose()

    try:
        runtime = thread.submit(build()).result(timeout=600)
    except BaseException:
        thread.stop(provider.aclose)
        raise
    agents.attach(runtime)
    brain = Brain(world, agents, mailbox, idle=IdleSettings())
    thread.submit(mailbox.run())  # as game.village does
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
    talk_every = round(talk_every_s * FPS) if talk_every_s else 0
    listeners = sorted(world.npcs)
    said = 0
    update_ms: list[float] = []
    frame_ms: list[float] = []
    lamps_drawn = 0
    with CollectBetweenFrames() as between_frames:  # as the game's window does
        start = time.perf_counter()
        for frame in range(frames):
            now[0] = frame
            if frame % (2 * FPS) == 0:  # the player walks a square, two seconds a side
                world.hold_direction(walk[(frame // (2 * FPS)) % 4])
            if talk_every and frame % talk_every == FPS:  # from one second in
                # As the talk box sends a line: an input event, before the frame's update.
                npc_id = listeners[said % len(listeners)]
                brain.player_talks(npc_id, PLAYER_LINES[said % len(PLAYER_LINES)])
                said += 1
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
                lamps_drawn = max(lamps_drawn, view.daylight.glowing)
            behind = start + (frame + 1) * dt - time.perf_counter()
            if behind > 0:
                time.sleep(behind)
        wall_s = time.perf_counter() - start
    triggers = len(brain.sent)
    thread.stop(shutdown)
    window.show_view(arcade.View())
    gc.unfreeze()
    return {
        "update": update_ms,
        "frame": frame_ms,
        "wall_s": wall_s,
        "lamps_drawn": lamps_drawn,
        "triggers": triggers,
        "player_lines": said,
        "fallbacks": agents.fallbacks,
        **_provider_figures(primary),
    }


def _provider_figures(provider: object) -> dict[str, Any]:
    """What the provider did: requests, those served to the end, tokens streamed; for the
    local model also the prompt tokens it decoded (not reused from its cache), its
    `JobStats` outcomes, the settings it ran on and its crashes."""
    if isinstance(provider, Replayed):
        return {
            "requests": provider.requests,
            "served": provider.served,
            "tokens": provider.tokens,
            "replayed": provider.replayed,
            "not_replayed": provider.not_replayed,
            "unasked": provider.unasked,
            "mismatched": provider.mismatched,
            "cuts_missed": provider.cuts_missed,
        }
    if isinstance(provider, Paced):
        return {"requests": provider.requests, "served": provider.served, "tokens": provider.tokens}
    assert isinstance(provider, LocalLlamaProvider), provider
    stats: list[JobStats] = list(provider.stats)  # the worker is stopped: nothing appends
    return {
        "requests": len(stats),
        "served": sum(_served(s) for s in stats),
        "tokens": sum(s.output_tokens for s in stats if _served(s)),
        "prefilled": sum(s.prompt_tokens - s.reused_tokens for s in stats),
        "outcomes": dict(Counter(s.outcome or "unknown" for s in stats)),
        "settings": provider.choice.settings if provider.choice is not None else None,
        "crashes": len(provider.crashes),
    }


def _served(stats: JobStats) -> bool:
    """The model answered the request to its end (a stop reason, not an error or a cancel)."""
    return bool(stats.outcome) and not stats.outcome.startswith(("error", "cancelled"))


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


def bundled_model(probe_cache: Path) -> Provider:
    """The bundled model as the game runs it: `LocalLlamaProvider` in a `FallbackProvider`
    whose fallback is the persona brain (`game.village.open_providers`)."""
    return FallbackProvider(local_provider(None, probe_cache=probe_cache), PersonaProvider())


def replaying(recording: Recording, clock: GameClock) -> Provider:
    """`Replayed` in the same wrapper, so the pair differs only in what answers. Its breaker
    cannot open: the recording already holds what the model run's breaker did (the persona
    brain's answers while it was open), and every request must reach `Replayed` to keep
    its per-NPC count in step with the recording."""
    return FallbackProvider(Replayed(recording, clock), PersonaProvider(), failures_to_open=10**9)


def model_pair(folder: Path, window: arcade.Window, seconds: float) -> dict[str, Any]:
    """model3 and fake3, `RUNS` times each, interleaved; their figures as JSON fields."""
    if not local_available():
        raise SystemExit("the model scenes need llama-cpp-python and the bundled model")
    probe_cache = folder / "llama-probe.json"  # probed in the first run, read back after
    runs: dict[str, list[dict[str, Any]]] = {"model3": [], "fake3": []}

    def run(name: str, provider: Recorder) -> Recording:
        script: list[tuple[int, WorldCommand]] = []
        clock.world = None
        result = run_scene(
            folder,
            window,
            "thinking",
            seconds,
            script,
            npcs=FEW,
            provider=provider,
            talk_every_s=TALK_EVERY_S,
            on_world=clock.attach,
        )
        if name == "model3" and result["served"] == 0:
            raise SystemExit(f"the model served no request in a model3 run: {result}")
        answers = [a for npc_answers in provider.answers.values() for a in npc_answers]
        result["answers"] = len(answers)
        result["events"] = sum(len(a.events) for a in answers)
        result["commands"] = len(script)
        result["fps"] = (WARMUP_FRAMES + len(result["frame"])) / result["wall_s"]
        result["command_frames"] = len({frame for frame, _ in script})
        result["command_kinds"] = Counter(type(command).__name__ for _, command in script)
        runs[name].append(result)
        return provider.answers

    clock = GameClock()
    for _ in range(RUNS):
        recording = run("model3", Recorder(bundled_model(probe_cache), clock))
        run("fake3", Recorder(replaying(recording, clock), clock))
    fields: dict[str, Any] = {}
    for name, results in runs.items():
        p99s = [_pct(r["update"], 0.99) for r in results]
        fields[f"{name}_p99_update_ms"] = round(statistics.median(p99s), 3)
        fields[f"{name}_p99_update_ms_runs"] = [round(v, 3) for v in p99s]
        fields[f"{name}_p50_update_ms"] = round(
            statistics.median(statistics.median(r["update"]) for r in results), 3
        )
        fields[f"{name}_p99_frame_ms"] = round(
            statistics.median(_pct(r["frame"], 0.99) for r in results), 3
        )
        fields[f"{name}_triggers"] = [r["triggers"] for r in results]
        fields[f"{name}_requests"] = [r["requests"] for r in results]
        fields[f"{name}_served"] = [r["served"] for r in results]
        fields[f"{name}_tokens"] = [r["tokens"] for r in results]
        fields[f"{name}_fallbacks"] = [r["fallbacks"] for r in results]
        fields[f"{name}_fps"] = [round(r["fps"], 1) for r in results]
        fields[f"{name}_answers"] = [r["answers"] for r in results]
        fields[f"{name}_events"] = [r["events"] for r in results]
        fields[f"{name}_commands"] = [r["commands"] for r in results]
        fields[f"{name}_command_frames"] = [r["command_frames"] for r in results]
        fields[f"{name}_command_kinds"] = dict(
            sorted(sum((r["command_kinds"] for r in results), Counter()).items())
        )
    fields["model3_vs_fake3_p99"] = round(
        fields["model3_p99_update_ms"] / fields["fake3_p99_update_ms"], 3
    )
    outcomes: Counter[str] = Counter()
    for result in runs["model3"]:
        outcomes.update(result["outcomes"])
    fields["model3_outcomes"] = dict(outcomes)
    fields["model3_prefilled_tokens"] = [r["prefilled"] for r in runs["model3"]]
    fields["model3_settings"] = runs["model3"][-1]["settings"]
    fields["model3_crashes"] = sum(r["crashes"] for r in runs["model3"])
    for key in ("replayed", "not_replayed", "unasked", "mismatched", "cuts_missed"):
        figure = "fake3_replay_mismatched" if key == "mismatched" else f"fake3_{key}"
        fields[figure] = [r[key] for r in runs["fake3"]]
    fields["player_lines_per_run"] = runs["model3"][0]["player_lines"]
    fields["pair_npcs"] = FEW
    fields["pair_runs"] = RUNS
    return fields


def hundred_npcs(folder: Path, window: arcade.Window, seconds: float) -> dict[str, Any]:
    """The idle, thinking and replay scenes with 100 NPCs; their figures as JSON fields."""
    steps = world_steps_per_s(map_for(folder, NPCS))
    script: list[tuple[int, WorldCommand]] = []
    idle = run_scene(folder, window, "idle", seconds)
    thinking = run_scene(folder, window, "thinking", seconds, script)
    replay = run_scene(folder, window, "replay", seconds, script)
    night_idle = run_scene(folder, window, "idle", seconds, hour=NIGHT_HOUR)
    night = run_scene(folder, window, "thinking", seconds, hour=NIGHT_HOUR)
    p99_think = _pct(thinking["update"], 0.99)
    p99_idle = _pct(idle["update"], 0.99)
    p99_replay = _pct(replay["update"], 0.99)
    return {
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
        "npcs": NPCS,
        "triggers": thinking["triggers"],
        "provider_requests": thinking["requests"],
        "tokens_streamed": thinking["tokens"],
        "commands_replayed": len(script),
        "fallbacks": thinking["fallbacks"],
        "p50_frame_ms_idle": round(statistics.median(idle["frame"]), 3),
        "night_p50_update_ms_thinking": round(statistics.median(night["update"]), 3),
        "night_p99_update_ms_thinking": round(_pct(night["update"], 0.99), 3),
        "night_p50_update_ms_idle": round(statistics.median(night_idle["update"]), 3),
        "night_p99_update_ms_idle": round(_pct(night_idle["update"], 0.99), 3),
        "night_p50_frame_ms_thinking": round(statistics.median(night["frame"]), 3),
        "night_p99_frame_ms_thinking": round(_pct(night["frame"], 0.99), 3),
        "night_p50_frame_ms_idle": round(statistics.median(night_idle["frame"]), 3),
        "night_p99_frame_ms_idle": round(_pct(night_idle["frame"], 0.99), 3),
        "night_lamps_drawn": max(night["lamps_drawn"], night_idle["lamps_drawn"]),
        "night_triggers": night["triggers"],
        "night_hour": NIGHT_HOUR,
    }


def main() -> None:
    """Run the chosen scenes (and the step figure with the 100-NPC ones); print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("seconds", nargs="?", type=float, default=20.0, help="game s per scene")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--model-scenes", action="store_true", help="only the model pair")
    which.add_argument("--all", action="store_true", help="the 100-NPC scenes and the pair")
    args = parser.parse_args()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="frame-budget-") as tmp:
        folder = Path(tmp)
        window = arcade.Window(1280, 720, "frame budget", visible=False, vsync=False)
        try:
            if not args.model_scenes:
                figures.update(hundred_npcs(folder, window, args.seconds))
            if args.model_scenes or args.all:
                figures.update(model_pair(folder, window, args.seconds))
        finally:
            window.close()
    figures["seconds_per_scene"] = args.seconds
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
