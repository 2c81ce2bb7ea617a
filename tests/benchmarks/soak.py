"""Soak: the village on the bundled model for N game-minutes, paced to wall time: one JSON line.

The village map, the bundled model as the game runs it (`Village.open` with
`--provider local`: the worker process, the fallback to the persona brain, the watchdog,
autosaves), in a fresh save slot. No window: each frame is the game thread's own work
(`World.step`, `Brain.update`, then the brain's spare-time chores, as `GameView.on_update`
does), at 60 frames a second of wall time, so a game-minute is a real minute and the
model is measured against real play. Drawing is left out: on a headless machine it is
Mesa's software renderer, which would compete with the model for the cores as a GPU
does not.

A scripted player walks (A* over the map, holding the arrow keys as a player does) from
NPC to NPC, and every `--talk-every` seconds speaks to the one it stands beside, as a
player does: it opens the talk box (the model reads that NPC's context meanwhile), types
the line at a quick typist's 6 characters a second, sends it, reads the reply to its end
and closes the box (no idle turn starts while it is open). Its first letter is
timed as the believability suite times it: from the line being sent to the first
character of the reply in the NPC's bubble (the frame it shows).

Figures:
- `model_turns`: turns the model served to their end; `model_share`: their share of all
  turns that ended (less those stopped on purpose: an NPC's idle turn stops when the
  player speaks to it); `model_turns_per_npc_min`;
- `fallbacks`: scripted fallbacks by cause (`timeout`: the watchdog gave up on a silent
  turn; `error`, `crash`: the turn failed; `provider_*`: the model failed before any event
  and the persona brain answered the same request);
- `dropped`: turns dropped from a full queue or never queued;
- `player_replies`, `first_letter_s_median`, `first_letter_s_p95`;
- `peak_rss_mb` (game + model, each process's own peak), `game_peak_rss_mb`,
  `model_peak_rss_mb`; `memory_mb`: where it is at the end (the model file mapped, the
  model process's own memory with the saved KV states in it, the game's Python heap);
- `rss_growth_after_5min`: game + model RSS at the end over that at minute 5, less one;
- `log_bytes_per_npc_hour`: what the NPCs' event logs grew by, per NPC per game-hour;
- `save_s`, `reload_s`, `reload_in_place`: saving the slot at the end, reopening it, and
  whether every NPC came back on its tile;
- `frames_over_33ms`, `frame_p99_ms`.

Run: python tests/benchmarks/soak.py [--minutes 30]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import threading
import time
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.agent.providers.fallback import FallbackProvider  # noqa: E402
from game.agent.providers.local.client.provider import LocalLlamaProvider  # noqa: E402
from game.config import Settings  # noqa: E402
from game.village import Village  # noqa: E402
from game.world.entities import PLAYER_ID  # noqa: E402
from game.world.world import World  # noqa: E402

VILLAGE = ROOT / "maps" / "village.tmx"
FPS = 60
SLOT = "soak"
LINES = (
    "Good day! How are you keeping?",
    "What are you up to today?",
    "Can you give me a wave?",
    "Where is the well?",
    "Tell me about the other villagers.",
    "What's new in the village?",
    "Could you show me the way to the market?",
    "Do you remember my name? I'm Ada.",
)
TYPING_CPS = 6.0  # characters a second: a quick typist (about 70 words a minute)
VERBOSE = "-v" in sys.argv
STEP = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}


def rss_kb(pid: int | str = "self") -> dict[str, int]:
    """VmRSS, VmHWM (peak) and the anonymous and file-backed parts of a process, in kB."""
    out: dict[str, int] = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


class Player:
    """Walks to the next NPC and talks to it every `every_s` of game time."""

    def __init__(self, village: Village, every_s: float) -> None:
        self.village = village
        self.world: World = village.world
        self.every_s = every_s
        self.order = sorted(self.world.npcs)
        self.next_talk = 20.0  # game seconds: the model is warm by then
        self.target: str | None = None
        self.path: list[tuple[int, int]] = []
        self.talked = 0
        self.waiting: tuple[str, float] | None = None  # (npc, wall time of the line)
        self.typed_by: float | None = None  # when the line being typed is sent
        self.reading: str | None = None  # the NPC whose reply the talk box shows
        self.first_letters: list[float] = []
        self.unanswered = 0

    def frame(self, clock: float) -> None:
        world = self.world
        if self.waiting is not None:
            npc_id, said_at = self.waiting
            bubble = world.npcs[npc_id].bubble
            if bubble is not None and bubble.text.strip():
                self.first_letters.append(time.perf_counter() - said_at)
                self.waiting, self.reading = None, npc_id
                if VERBOSE:
                    print(f"{npc_id}: {self.first_letters[-1]:.2f} s", file=sys.stderr)
            elif time.perf_counter() - said_at > 30:
                self.unanswered += 1
                self.waiting = None
                self.village.brain.player_closes_talk()
        if self.reading is not None:  # the reply is read to its end, then Esc
            bubble = world.npcs[self.reading].bubble
            if bubble is None or not bubble.streaming:
                self.village.brain.player_closes_talk()
                self.reading = None
        if self.target is None and clock >= self.next_talk - 15:
            self.target = self.order[self.talked % len(self.order)]
            npc = world.npcs[self.target]
            goal = world.grid.nearest_walkable(
                npc.tile, free=lambda t: t != npc.tile and world.occupant(t) is None
            )
            found = world.grid.find_path(world.player.tile, goal) if goal else None
            self.path = found or []
        self._walk()
        if self.target is not None and clock >= self.next_talk and not world.player.moving:
            if self.waiting is not None:  # the last reply never came: skip this one
                self.target, self.next_talk = None, clock + self.every_s
            elif self.typed_by is None:  # E opens the talk box; then the line is typed
                self.village.brain.player_opens_talk(self.target)
                self.typed_by = clock + len(self.line) / TYPING_CPS
            elif clock >= self.typed_by:  # Enter
                self.village.brain.player_talks(self.target, self.line)
                self.waiting = (self.target, time.perf_counter())
                self.talked += 1
                self.target, self.typed_by = None, None
                self.next_talk = clock + self.every_s

    @property
    def line(self) -> str:
        """The next line the player says."""
        return LINES[self.talked % len(LINES)]

    def _walk(self) -> None:
        walk(self.world, self.path)


def walk(world: World, path: list[tuple[int, int]]) -> None:
    """Hold the arrow key of the path's next step, as a player does (the path, a list,
    loses the tiles walked; pushed off it by an NPC walking into it, it is planned again)."""
    player = world.player
    while path and path[0] == player.tile:
        path.pop(0)
    if not path:
        world.hold_direction(None)
        return
    step = (path[0][0] - player.tile[0], path[0][1] - player.tile[1])
    world.hold_direction(STEP.get(step))
    if step not in STEP:
        path[:] = world.grid.find_path(player.tile, path[-1]) or []


def log_bytes(saves: Path) -> int:
    return sum(f.stat().st_size for f in (saves / SLOT / "npcs").rglob("events.jsonl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="game-minutes to play")
    parser.add_argument("--talk-every", type=float, default=60.0, help="game seconds")
    parser.add_argument("-v", action="store_true", help="first letters and their costs on stderr")
    args = parser.parse_args()

    saves = Path(tempfile.mkdtemp(prefix="soak-"))
    ready = threading.Event()

    def progress(fraction: float, message: str) -> None:
        if fraction >= 1.0:
            ready.set()

    village = Village.open(
        VILLAGE,
        slot=SLOT,
        settings=Settings(provider="local"),
        saves_dir=saves,
        on_progress=progress,
    )
    fallback = village.providers.provider
    assert isinstance(fallback, FallbackProvider), fallback
    local = fallback.primary
    assert isinstance(local, LocalLlamaProvider), local
    if not ready.wait(600):
        raise SystemExit("the bundled model did not load in 10 minutes")
    worker = local._worker
    model_pid = worker.proc.pid if worker is not None else None

    world, brain = village.world, village.brain
    player = Player(village, args.talk_every)
    frames = int(args.minutes * 60 * FPS)
    dt = 1 / FPS
    update_ms = array("f")  # 4 bytes a frame: the benchmark's own memory stays out of it
    samples: list[tuple[float, int, int]] = []  # (game s, game rss kB, model rss kB)
    logs_at_start = log_bytes(saves)
    requests: dict[int, Any] = {}
    start = time.perf_counter()
    for frame in range(frames):
        player.frame(world.clock)
        t0 = time.perf_counter()
        world.step(dt)
        brain.update(dt)
        brain.spare_time(time.perf_counter() - t0)
        update_ms.append((time.perf_counter() - t0) * 1000)
        if village.saves is not None and village.saves.autosave_due(dt):
            village.save()
        if frame % FPS == 0:
            model = rss_kb(model_pid).get("VmRSS", 0) if model_pid else 0
            samples.append((world.clock, rss_kb().get("VmRSS", 0), model))
            requests.update({s.seq: s for s in list(local.stats)})  # it keeps the newest
        behind = start + (frame + 1) * dt - time.perf_counter()
        if behind > 0:
            time.sleep(behind)
    game_minutes = world.clock / 60

    game_mem, model_mem = rss_kb(), rss_kb(model_pid) if model_pid else {}
    requests.update({s.seq: s for s in list(local.stats)})
    stats = list(requests.values())
    states_mb = max((s.states_bytes for s in stats), default=0) / 2**20
    t0 = time.perf_counter()
    village.save().result(timeout=60)
    save_s = time.perf_counter() - t0
    places = {npc_id: npc.tile for npc_id, npc in world.npcs.items()}
    log_growth = log_bytes(saves) - logs_at_start
    agents = village.agents
    ended = agents.turns_ended - agents.turns_cancelled  # a turn stopped on purpose is no miss
    # A request the persona brain answered for the model is counted against the model.
    served = max(0, agents.turns_answered - fallback.fallbacks)
    fallbacks = dict(agents.fallback_causes)
    fallbacks.update({f"provider_{k}": n for k, n in fallback.fallback_causes.items()})
    village.close()

    t0 = time.perf_counter()
    again = Village.open(
        VILLAGE, slot=SLOT, settings=Settings(provider="scripted"), saves_dir=saves
    )
    reload_s = time.perf_counter() - t0
    in_place = {npc_id: npc.tile for npc_id, npc in again.world.npcs.items()} == places
    in_place = in_place and again.world.player.tile == world.entity(PLAYER_ID).tile
    again.close()

    at5 = next((g + m for clock, g, m in samples if clock >= 300), None)
    end = samples[-1][1] + samples[-1][2] if samples else None
    npcs = len(world.npcs)
    letters = sorted(player.first_letters)
    game_peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    model_peak_mb = model_mem.get("VmHWM", 0) / 1024
    figures: dict[str, Any] = {
        "minutes": round(game_minutes, 1),
        "npcs": npcs,
        "model_turns": served,
        "turns_ended": ended,
        "turns_stopped_for_the_player": agents.turns_cancelled,
        "model_share": round(served / ended, 3) if ended else None,
        "model_turns_per_npc_min": round(served / npcs / game_minutes, 2),
        "fallbacks": fallbacks,
        "dropped": agents.dropped,
        "player_replies": len(letters),
        "player_unanswered": player.unanswered,
        "first_letter_s_median": round(statistics.median(letters), 3) if letters else None,
        "first_letter_s_p95": (
            round(letters[min(len(letters) - 1, int(0.95 * len(letters)))], 3) if letters else None
        ),
        "peak_rss_mb": round(game_peak_mb + model_peak_mb),
        "game_peak_rss_mb": round(game_peak_mb),
        "model_peak_rss_mb": round(model_peak_mb),
        "memory_mb": {
            "model_file_mapped": round(model_mem.get("RssFile", 0) / 1024),
            "model_process_own": round(model_mem.get("RssAnon", 0) / 1024),
            "saved_kv_states": round(states_mb),
            "game_heap": round(game_mem.get("RssAnon", 0) / 1024),
            "game_files_mapped": round(game_mem.get("RssFile", 0) / 1024),
        },
        "rss_growth_after_5min": round(end / at5 - 1, 3) if at5 and end else None,
        "log_bytes_per_npc_hour": round(log_growth / npcs / (game_minutes / 60)),
        "save_s": round(save_s, 3),
        "reload_s": round(reload_s, 3),
        "reload_in_place": in_place,
        "frames_over_33ms": sum(1 for ms in update_ms if ms > 33),
        "frame_p99_ms": round(sorted(update_ms)[int(0.99 * len(update_ms))], 2),
        "requests": len(stats),
        "outcomes": dict(Counter(s.outcome or "unknown" for s in stats)),
        "model_crashes": len(local.crashes),
        "settings": local.choice.settings if local.choice is not None else None,
        "wall_s": round(time.perf_counter() - start, 1),
    }
    if VERBOSE:  # where the player's first letters went: one line per player request
        top = max((s.priority for s in stats), default=0)
        for s in sorted(stats, key=lambda s: s.seq):
            if s.priority == top:
                print(
                    f"{s.npc_id}: first event {s.first_event_s or 0:.2f} s, prefill "
                    f"{s.prefill_s:.2f} s of {s.prompt_tokens - s.reused_tokens} new tokens "
                    f"({'state restored' if s.restored_state else 'kept'}), first token "
                    f"{s.first_token_s or 0:.2f} s, total {s.total_s:.2f} s, {s.outcome}",
                    file=sys.stderr,
                )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
