"""Village day: one game day on the bundled model, paced to wall time: one JSON line.

The village map as the game runs it (`Village.open` with `--provider local`: the worker
process, the fallback to the persona brain, the watchdog, autosaves) in a fresh slot, at
the default day length (24 real minutes), 60 frames a second of wall time, no window (as
`soak.py`). The clock starts at 8 am. A scripted player walks the map (A*, holding the
arrow keys) and, as a player does, opens the talk box, types at 6 characters a second and
sends:

- in the morning, three pieces of news, each to one villager standing away from the rest
  (a name, a lost thing, an event at a place and time);
- at 8 pm, "What news have you heard today?" to every villager, and to two of them a
  question about a topic nobody was told of.

Figures:
- `schedule_share`: at each mid-hour, the share of NPCs at (or walking to) the place their
  plan (or a reason: the player, an event they heard of) names;
- `news_told`; `news_known_by_evening`: for each piece, how many of the 5 villagers other
  than the one told, asked at 8 pm, tell it (its key word) and name a villager they heard
  it from; `news_passes`: every pass (who told whom, the hour, where, how);
- `news_invented`: answers to the untold topic that tell news of it anyway;
- `board_posts`, `board_reads`;
- `model_share`, `first_letter_s_median` (from Enter to the first letter), `peak_rss_mb`,
  `rss_growth_after_hour1` (game + model RSS at the end over that after the first game
  hour, less one), `frame_p99_ms`;
- `answers`: the evening's answers, word for word.

Run: python tests/benchmarks/village_day.py [--day-minutes 24] [--provider local]
     [--speed 1] (a faster pace, with `--provider scripted`, for a quick run of the logic)
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import tempfile
import threading
import time
from array import array
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, Path(__file__).resolve().parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from soak import TYPING_CPS, rss_kb, walk  # noqa: E402

from game.agent.providers.fallback import FallbackProvider  # noqa: E402
from game.agent.providers.local.client.provider import LocalLlamaProvider  # noqa: E402
from game.config import Settings  # noqa: E402
from game.village import Village  # noqa: E402
from game.world.clock import clock_text  # noqa: E402
from game.world.world import World  # noqa: E402

VILLAGE = ROOT / "maps" / "village.tmx"
FPS = 60
SLOT = "day"
# (hour from, villager, line, the news's key word); each told away from the others.
MORNING = (
    (8.3, "tobin", "Good morning Tobin! My name is Ana, by the way.", "ana"),
    (9.3, "wren", "Wren, I lost my silver ring near the well yesterday.", "ring"),
    (10.3, "brenna", "Brenna, there will be a dance on the plaza tonight at seven!", "dance"),
)
EVENING = 20.0
ASK = "What news have you heard today?"
UNTOLD = ("Have you heard anything about the wolf in the orchard?", "wolf")
UNTOLD_ASKED = ("maren", "cassius")
DENIAL = re.compile(r"\b(?:no ?one|nobody|not|haven't|hasn't|never|nothing)\b", re.I)


class DayPlayer:
    """Walks to each villager of its list in turn and says its line when the hour comes."""

    def __init__(self, village: Village) -> None:
        self.village = village
        self.world: World = village.world
        self.todo: list[tuple[float, str, str]] = [(h, npc, line) for h, npc, line, _ in MORNING]
        for npc_id in sorted(self.world.npcs):
            self.todo.append((EVENING, npc_id, ASK))
            if npc_id in UNTOLD_ASKED:
                self.todo.append((EVENING, npc_id, UNTOLD[0]))
        self.path: list[tuple[int, int]] = []
        self.planned_for: str | None = None
        self.typed_by: float | None = None
        self.waiting: tuple[str, str, float] | None = None  # (npc, line, wall time)
        self.before: object | None = None  # the bubble up when the line was sent
        self.rest_spot: tuple[int, int] | None = None
        self.reading: tuple[str, str] | None = None
        self.first_letters: list[float] = []
        self.answers: list[dict[str, Any]] = []

    def frame(self) -> None:
        world = self.world
        brain = self.village.brain
        if self.waiting is not None:
            npc_id, line, said_at = self.waiting
            bubble = world.npcs[npc_id].bubble
            if bubble is not None and bubble is not self.before and bubble.text.strip():
                self.first_letters.append(time.perf_counter() - said_at)
                self.waiting, self.reading = None, (npc_id, line)
            elif time.perf_counter() - said_at > 60:
                self.answers.append({"npc": npc_id, "asked": line, "answer": None})
                self.waiting = None
                brain.player_closes_talk()
        if self.reading is not None:
            npc_id, line = self.reading
            bubble = world.npcs[npc_id].bubble
            if bubble is None or not bubble.streaming:
                said = bubble.text if bubble is not None else ""
                hour = clock_text(world.day.hour)
                self.answers.append({"npc": npc_id, "asked": line, "answer": said, "at": hour})
                brain.player_closes_talk()
                self.reading = None
        if self.waiting is not None or self.reading is not None:
            return
        hour, npc_id, line = self.todo[0] if self.todo else (24.0, "", "")
        if world.day.hour < hour or world.day.day > 1:
            self._rest()  # between talks the player stands away from everyone
            return
        npc = world.npcs[npc_id]
        near = abs(npc.tile[0] - world.player.tile[0]) + abs(npc.tile[1] - world.player.tile[1])
        if near > 1:
            if self.planned_for != npc_id or not self.path or npc.moving:
                self._plan(npc_id)
            self._walk()
            return
        world.hold_direction(None)
        if world.player.moving:
            return
        if self.typed_by is None:  # E opens the talk box; then the line is typed
            brain.player_opens_talk(npc_id)
            self.typed_by = world.clock + len(line) / TYPING_CPS
        elif world.clock >= self.typed_by:  # Enter
            self.before = world.npcs[npc_id].bubble
            brain.player_talks(npc_id, line)
            self.waiting = (npc_id, line, time.perf_counter())
            self.typed_by = None
            self.todo.pop(0)

    def _rest(self) -> None:
        world = self.world
        if self.rest_spot is None:  # a walkable tile far from every named place
            places = list(world.map.places.values())
            tiles = sorted(
                (
                    (x, y)
                    for x in range(world.map.width)
                    for y in range(world.map.height)
                    if world.grid.walkable((x, y))
                ),
                key=lambda t: (
                    -min(max(abs(t[0] - p.center[0]), abs(t[1] - p.center[1])) for p in places)
                ),
            )
            start = world.map.player_spawn
            self.rest_spot = next(t for t in tiles if world.grid.find_path(start, t))
        spot = self.rest_spot
        if world.player.tile == spot:
            world.hold_direction(None)
            return
        if self.planned_for != "rest" or not self.path:
            self.path = world.grid.find_path(world.player.tile, spot) or []
            self.planned_for = "rest"
        self._walk()

    def _plan(self, npc_id: str) -> None:
        world = self.world
        npc = world.npcs[npc_id]
        goal = world.grid.nearest_walkable(
            npc.tile, free=lambda t: t != npc.tile and world.occupant(t) is None
        )
        self.path = (world.grid.find_path(world.player.tile, goal) if goal else None) or []
        self.planned_for = npc_id

    def _walk(self) -> None:
        walk(self.world, self.path)


def news_figures(world: World, answers: list[dict[str, Any]]) -> dict[str, Any]:
    """What the evening's answers tell of each piece, and of the untold topic."""
    names = {npc.name.lower(): npc_id for npc_id, npc in world.npcs.items()}
    known: dict[str, int] = {}
    for _, told, _, key in MORNING:
        count = 0
        for answer in answers:
            text = (answer["answer"] or "").lower()
            if answer["npc"] == told or answer["asked"] != ASK or key not in text:
                continue
            sentence = next((s for s in re.split(r"(?<=[.!?])\s+", text) if key in s), "")
            named = [n for n in names if re.search(rf"\b{re.escape(n)}\b", sentence)]
            if any(names[n] != answer["npc"] for n in named):
                count += 1
        known[key] = count
    invented = 0
    for answer in answers:
        if answer["asked"] != UNTOLD[0]:
            continue
        text = answer["answer"] or ""
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if UNTOLD[1] in sentence.lower() and not DENIAL.search(sentence):
                invented += 1
                break
    return {"news_known_by_evening": known, "news_invented": invented}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--day-minutes", type=float, default=24.0)
    parser.add_argument("--provider", default="local")
    parser.add_argument("--speed", type=float, default=1.0, help="game seconds a real second")
    parser.add_argument("--until", type=float, default=23.0, help="the hour the run ends")
    args = parser.parse_args()

    saves = Path(tempfile.mkdtemp(prefix="day-"))
    ready = threading.Event()

    def progress(fraction: float, message: str) -> None:
        if fraction >= 1.0:
            ready.set()

    settings = Settings(provider=args.provider, day_minutes=args.day_minutes)
    village = Village.open(
        VILLAGE, slot=SLOT, settings=settings, saves_dir=saves, on_progress=progress
    )
    fallback = village.providers.provider
    local = fallback.primary if isinstance(fallback, FallbackProvider) else None
    model_pid = None
    if isinstance(local, LocalLlamaProvider):
        if not ready.wait(600):
            raise SystemExit("the bundled model did not load in 10 minutes")
        model_pid = local._worker.proc.pid if local._worker is not None else None

    world, brain, life = village.world, village.brain, village.brain.life
    player = DayPlayer(village)
    dt = 1 / FPS
    update_ms = array("f")
    samples: list[tuple[float, int, int]] = []
    checks = on_plan = 0
    checked_hours: set[int] = set()
    start = time.perf_counter()
    frame = 0
    hour1 = None
    while world.day.day == 1 and world.day.hour < args.until:
        player.frame()
        t0 = time.perf_counter()
        world.step(dt)
        brain.update(dt)
        brain.spare_time(time.perf_counter() - t0)
        update_ms.append((time.perf_counter() - t0) * 1000)
        if village.saves is not None and village.saves.autosave_due(dt):
            village.save()
        hour = world.day.hour
        if hour % 1 >= 0.5 and int(hour) not in checked_hours:  # a mid-hour check
            checked_hours.add(int(hour))
            for npc_id in world.plans:
                checks += 1
                on_plan += life.on_plan(npc_id)
        if frame % FPS == 0:
            model = rss_kb(model_pid).get("VmRSS", 0) if model_pid else 0
            samples.append((world.clock, rss_kb().get("VmRSS", 0), model))
            if hour1 is None and hour >= 9:
                hour1 = samples[-1][1] + samples[-1][2]
        frame += 1
        behind = start + frame * dt / args.speed - time.perf_counter()
        if behind > 0:
            time.sleep(behind)
    agents = village.agents
    ended = agents.turns_ended - agents.turns_cancelled
    answered = agents.turns_answered - (
        fallback.fallbacks if isinstance(fallback, FallbackProvider) else 0
    )
    model_mem = rss_kb(model_pid) if model_pid else {}
    game_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    board = [b for b in world.board.boards.values() if b.tile is not None]
    names = {npc_id: npc.name for npc_id, npc in world.npcs.items()} | {"player": "player"}
    keys = {n.news_id: n.key for n in world.news.news.values()}
    passes = [
        {
            "news": keys.get(p.news_id, p.news_id),
            "from": names.get(p.source, p.source),
            "to": names.get(p.to, p.to),
            "at": clock_text(p.hour),
            "where": p.place,
            "how": p.how,
        }
        for p in world.news.passes
    ]
    letters = sorted(player.first_letters)
    end = samples[-1][1] + samples[-1][2] if samples else None
    figures: dict[str, Any] = {
        "provider": args.provider,
        "day_minutes": args.day_minutes,
        "ended_at": world.day.text(),
        "schedule_share": round(on_plan / checks, 3) if checks else None,
        "schedule_checks": checks,
        "news_told": len(MORNING),
        **news_figures(world, player.answers),
        "news_passes": passes,
        "board_posts": sum(b.count for b in board),
        "board_reads": sum(1 for p in world.news.passes if p.how == "board"),
        "model_share": round(answered / ended, 3) if ended else None,
        "turns_ended": ended,
        "fallbacks": dict(agents.fallback_causes),
        "first_letter_s_median": round(statistics.median(letters), 3) if letters else None,
        "player_replies": len(letters),
        "peak_rss_mb": round(game_peak + model_mem.get("VmHWM", 0) / 1024),
        "rss_growth_after_hour1": round(end / hour1 - 1, 3) if end and hour1 else None,
        "frame_p99_ms": round(sorted(update_ms)[int(0.99 * len(update_ms))], 2),
        "wall_s": round(time.perf_counter() - start, 1),
        "answers": player.answers,
    }
    village.close()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
