"""`run_game.py eval`: the villages' scenarios run, and what came of them shown.

Every village with a scenario set (`game/eval/scenarios/<map_id>/`) and a map of that
name in `maps/` runs, Hollowbrook's first; `--map` picks one. A set whose map is missing
is skipped with one line on stderr. Each village's scenarios are checked against its own
map before any model loads. The table has a row per scenario, then one JSON line of
figures per village (`village`, `untuned`) and one of all of them (`villages`); `--out`
keeps the same in `figures.json` and every turn, with its village, in `transcript.json`.
`--read` prints a blind read instead (`suite.blind_read`): no ids, villages, provider or
figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from game.agent.providers.base import ProviderError
from game.assets import MAPS, load_game_map
from game.config import Settings
from game.errors import UsageError
from game.eval.figures import ScenarioRun, figures
from game.eval.scenarios import Scenario, VillageSet, load_villages, select
from game.eval.suite import (
    TABLE_HEAD,
    blind_read,
    check,
    read_pools,
    row,
    run_suite,
    transcript,
)
from game.village import Progress, open_providers
from game.world.tiled import MapData
from game.world.world import World

__all__ = ["MAP_SUFFIXES", "map_file", "run_eval", "villages_to_run"]

MAP_SUFFIXES = (".tmx", ".tmj")  # a village's map: maps/<map_id>.tmx, else .tmj


@dataclass(frozen=True)
class _Planned:
    """A village about to run: its set, its map, and the scenarios of it chosen."""

    village: VillageSet
    map_data: MapData
    scenarios: list[Scenario]


def map_file(maps: Path, map_id: str) -> Path | None:
    """The map a village's set plays on, `maps/<map_id>.tmx` (or `.tmj`); None if neither."""
    for suffix in MAP_SUFFIXES:
        path = maps / f"{map_id}{suffix}"
        if path.is_file():
            return path
    return None


def villages_to_run(
    sets: Sequence[VillageSet], wanted: Path | None, maps: Path, skipped: Callable[[str], None]
) -> list[tuple[VillageSet, Path]]:
    """Each village to run and its map file: the one `--map` names (a map id, or a map file
    whose name has a set), else every set whose map is in `maps` (`skipped` hears of the
    others, one line each). UsageError when there is nothing to run."""
    if wanted is None:
        found: list[tuple[VillageSet, Path]] = []
        for village in sets:
            path = map_file(maps, village.map_id)
            if path is None:
                name = village.map_id
                skipped(f"eval: skipped village {name!r}: no map {name}.tmx or .tmj in {maps}")
            else:
                found.append((village, path))
        if not found:
            raise UsageError(f"no village's map is in {maps}: add maps/<map_id>.tmx for a set")
        return found
    is_file = wanted.suffix in MAP_SUFFIXES or len(wanted.parts) > 1
    map_id = wanted.stem if is_file else str(wanted)
    by_id = {village.map_id: village for village in sets}
    if map_id not in by_id:
        raise UsageError(
            f"--map {wanted}: no scenarios for map {map_id!r}; villages with scenarios: "
            f"{', '.join(by_id)} (a set is game/eval/scenarios/<map_id>/)"
        )
    path = wanted if is_file else map_file(maps, map_id)
    if path is None:
        raise UsageError(f"--map {wanted}: no map {map_id}.tmx or {map_id}.tmj in {maps}")
    return [(by_id[map_id], path)]


def _plan(args: argparse.Namespace, root: Traversable | Path | None, maps: Path) -> list[_Planned]:
    """The villages and scenarios this run plays, each village's map loaded."""

    def skipped(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    chosen = villages_to_run(load_villages(root), args.map, maps, skipped)
    selected = select([s for village, _ in chosen for s in village.scenarios], args.only)
    planned: list[_Planned] = []
    for village, path in chosen:
        mine = [s for s in selected if s.village == village.map_id]
        if mine:
            planned.append(_Planned(village, load_game_map(path), mine))
    return planned


async def run_eval(
    args: argparse.Namespace,
    settings: Settings,
    progress: Progress,
    *,
    root: Traversable | Path | None = None,
    maps: Path = MAPS,
) -> int:
    """Run the villages' scenarios (`root`'s sets on `maps`' maps: the bundled ones by
    default): the table and the figures' JSON lines, or a blind read; the exit code."""
    planned = _plan(args, root, maps)
    out: Path | None = args.out
    if out is not None and out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a directory")
    ran: list[tuple[VillageSet, list[ScenarioRun], int]] = []  # and the fallbacks in it
    with tempfile.TemporaryDirectory(prefix="npc-eval-") as temp:
        saves = args.saves_dir if args.saves_dir is not None else Path(temp)
        for plan in planned:  # every village against its own map, before a model loads
            check(plan.scenarios, World(plan.map_data), saves)
        providers = await open_providers(settings, progress)
        try:
            if providers.primary.capabilities.needs_loading:  # figures with the model warm
                failed = await providers.primary.load()
                if isinstance(failed, ProviderError):
                    print(f"error: {failed.kind}: {failed.message}", file=sys.stderr)
                    return 1
            if not args.read:
                print(TABLE_HEAD, flush=True)
            for plan in planned:
                before = providers.fallback.fallbacks if providers.fallback is not None else 0
                runs = await run_suite(
                    plan.scenarios,
                    plan.map_data,
                    saves,
                    provider=providers.provider,
                    provider_for=providers.provider_for(settings),
                    on_run=None if args.read else lambda run: print(row(run), flush=True),
                    read_ahead=args.read_ahead,
                )
                after = providers.fallback.fallbacks if providers.fallback is not None else 0
                ran.append((plan.village, runs, after - before))
        finally:
            crash = providers.crash_line()
            await providers.aclose()
    provider = providers.provider
    per_village, total = _figures(ran, provider.name, provider.model)
    all_runs = [run for _, runs, _ in ran for run in runs]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        kept = {"villages": per_village, "total": total}
        (out / "figures.json").write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
        text = json.dumps(transcript(all_runs), indent=1, ensure_ascii=False)
        (out / "transcript.json").write_text(text + "\n", encoding="utf-8")
    if crash is not None:
        print(f"error: {crash}", file=sys.stderr)
    if args.read:
        untuned = {village.map_id for village, _, _ in ran if village.untuned}
        print(blind_read(read_pools(all_runs, untuned)), flush=True)
    else:
        for line in [*per_village, total]:
            print(json.dumps(line), flush=True)
    return 1 if crash is not None else 0


def _figures(
    ran: Sequence[tuple[VillageSet, list[ScenarioRun], int]], provider: str, model: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every figure per village (with its id and whether it is untuned), and in total."""
    per_village = [
        {
            "village": village.map_id,
            "untuned": village.untuned,
            **figures(runs, provider=provider, model=model, fallbacks=fallbacks),
        }
        for village, runs, fallbacks in ran
    ]
    all_runs = [run for _, runs, _ in ran for run in runs]
    total = {
        "villages": [village.map_id for village, _, _ in ran],
        **figures(all_runs, provider=provider, model=model, fallbacks=sum(f for *_, f in ran)),
    }
    return per_village, total
