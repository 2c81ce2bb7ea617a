"""Run the scenarios through the `chat` harness, and show what came of them.

`check` looks every scenario over against the map before anything runs, so a long run
never dies on its last scenario. `run_suite` plays each scenario in a fresh world and a
fresh slot, the world stepping faster than real time. `row` is one line of the table
`eval` prints, `transcript` what `--out` keeps of every turn.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

from game.agent.providers.base import Provider
from game.agent.trigger import Trigger
from game.errors import UsageError
from game.eval.figures import ScenarioRun, fits, line_problems
from game.eval.scenarios import HOME, PLAYER, IdleStep, OverheardStep, Scenario
from game.harness import FAST_PACE, Call, Pace, Talk, TurnReport
from game.npc.cues import heard_cue
from game.npc.known import villager_facts
from game.npc.skills import SKILLS
from game.paths import slot_dir
from game.world.entities import PLAYER_ID
from game.world.events import Spoke
from game.world.tiled import MapData
from game.world.world import World

SAY_SHOWN = 60  # characters of a line the table shows


def names_of(world: World) -> dict[str, list[str]]:
    """The names things go by: each NPC by its id, full name and last name; the player."""
    names: dict[str, list[str]] = {
        PLAYER: [PLAYER, world.player.name, PLAYER_ID],
    }
    for npc_id, npc in world.npcs.items():
        names[npc_id] = sorted({npc_id, npc.name, npc.name.split()[-1]})
    return names


def check(scenarios: Sequence[Scenario], world: World, saves: Path) -> None:
    """Every NPC, speaker, place and name a scenario uses exists on the map, each overheard
    line names its listener, and no scenario's slot exists yet. UsageError otherwise."""
    names = names_of(world)
    known = {n for aliases in names.values() for n in aliases} | set(world.map.places)
    for s in scenarios:
        where = f"scenario {s.id!r}"
        if s.npc not in world.npcs:
            raise UsageError(f"{where}: no NPC {s.npc!r}; NPCs: {', '.join(sorted(world.npcs))}")
        if s.player_at is not None and _tile_of(world, s.player_at) is None:
            raise UsageError(f"{where}: player_at {s.player_at!r} is no place or free tile")
        for step in s.lines:
            if isinstance(step, OverheardStep):
                _check_overheard(world, s, step)
            elif isinstance(step, IdleStep) and step.beside is not None:
                if step.beside not in world.npcs or step.beside == s.npc:
                    raise UsageError(f"{where}: idle beside {step.beside!r} is not another NPC")
        for f in s.fits:
            for key in ("to", "at"):
                for value in f.accepted(key) or []:
                    if value not in known and world.place_named(value) is None:
                        raise UsageError(f"{where}: fits {f.skill} {key} {value!r}: unknown")
        if slot_dir(saves, s.id).exists():
            raise UsageError(f"{where}: slot {s.id!r} exists in {saves}; use an empty saves dir")


def _check_overheard(world: World, s: Scenario, step: OverheardStep) -> None:
    speaker = step.overheard.speaker
    if speaker not in world.npcs or speaker == s.npc:
        raise UsageError(f"scenario {s.id!r}: overheard speaker {speaker!r} is not another NPC")
    npc = world.npcs[s.npc]
    to = npc.entity_id if step.overheard.to == "npc" else None
    spoke = Spoke(speaker, world.npcs[speaker].name, step.overheard.text, (0, 0), to, 0.0)
    if heard_cue(spoke, npc) is None:
        raise UsageError(f"scenario {s.id!r}: the overheard line does not name {npc.name}")


def _tile_of(world: World, where: str | tuple[int, int]) -> tuple[int, int] | None:
    """The tile a `player_at` names: a free walkable tile, or the free one nearest a place."""
    if isinstance(where, str):
        place = world.place_named(where)
        if place is None:
            return None
        return world.grid.nearest_walkable(
            place.center, free=lambda t: world.occupant(t, exclude=world.player) is None
        )
    tile = (where[0], where[1])
    if not world.grid.walkable(tile) or world.occupant(tile, exclude=world.player) is not None:
        return None
    return tile


async def run_scenario(
    scenario: Scenario,
    world: World,
    saves: Path,
    *,
    provider: Provider,
    provider_for: Callable[[Trigger], Provider] | None = None,
    pace: Pace = FAST_PACE,
    read_ahead: bool = False,
) -> ScenarioRun:
    """Play one scenario in `world` (fresh) and its own slot, at its hour if it names one
    (whoever sleeps then sleeps); its turns, in order (`read_ahead`: each player line read
    ahead first, as the game does while one types)."""
    if scenario.hour is not None:
        world.day.set_hour(scenario.hour)
    talk = Talk(
        world,
        saves,
        slot=scenario.id,
        provider=provider,
        provider_for=provider_for,
        pace=pace,
        answer_asks=True,
        read_ahead=read_ahead,
    )
    turns: list[TurnReport] = []
    try:
        if scenario.player_at is not None:
            tile = _tile_of(world, scenario.player_at)
            if tile is not None:
                world.player.place(tile)
        face_to_face = scenario.player_at is None
        for step in scenario.lines:
            if isinstance(step, OverheardStep):
                if face_to_face:
                    world.stand_player_by(scenario.npc)
                heard = step.overheard
                turns.append(
                    await talk.overheard(
                        scenario.npc, heard.speaker, heard.text, to_npc=heard.to == "npc"
                    )
                )
            elif isinstance(step, IdleStep):
                turns.append(await talk.idle(scenario.npc, beside=step.beside))
            else:
                turns.append(await talk.player_line(scenario.npc, step, face_to_face=face_to_face))
    finally:
        await talk.aclose()
    npc = world.npcs[scenario.npc]
    facts = villager_facts(world, scenario.npc)
    return ScenarioRun(scenario, turns, greeting=npc.greeting, names=names_of(world), npc=facts)


async def run_suite(
    scenarios: Sequence[Scenario],
    map_data: MapData,
    saves: Path,
    *,
    provider: Provider,
    provider_for: Callable[[Trigger], Provider] | None = None,
    pace: Pace = FAST_PACE,
    on_run: Callable[[ScenarioRun], None] | None = None,
    read_ahead: bool = False,
) -> list[ScenarioRun]:
    """Check the scenarios, then play each in a fresh world; `on_run` sees each as it ends."""
    check(scenarios, World(map_data), saves)
    runs: list[ScenarioRun] = []
    for scenario in scenarios:
        run = await run_scenario(
            scenario,
            World(map_data),
            saves,
            provider=provider,
            provider_for=provider_for,
            pace=pace,
            read_ahead=read_ahead,
        )
        runs.append(run)
        if on_run is not None:
            on_run(run)
    return runs


# --- showing it -------------------------------------------------------------------------------


def describe(call: Call) -> str:
    """A call as the table shows it: emote(wave), move(well), say("...")."""
    if call.rejected is not None:
        return f"{call.name}(!{call.rejected})"
    args = call.args()
    spoken = SKILLS[call.name].speech if call.name in SKILLS else None
    if spoken is not None:
        text = str(args.get(spoken, ""))
        text = text if len(text) <= SAY_SHOWN else text[: SAY_SHOWN - 1] + "…"
        return f"{call.name}({json.dumps(text, ensure_ascii=False)})"
    shown = " ".join(str(v) for v in args.values() if v is not None)
    failed = "!" if call.is_error else ""
    return f"{call.name}({shown}){failed}"


def did(turn: TurnReport) -> str:
    """What a turn did, call by call (plain text shown as said), or how it failed."""
    runs: list[list[Any]] = []  # [shown, times]: the same call again is "say(...) x8"
    for shown in (describe(c) for c in turn.calls):
        if runs and runs[-1][0] == shown:
            runs[-1][1] += 1
        else:
            runs.append([shown, 1])
    parts = [shown if times == 1 else f"{shown} x{times}" for shown, times in runs]
    said_by_calls = {c.text() for c in turn.calls}
    parts += [
        f"text({json.dumps(t[:SAY_SHOWN], ensure_ascii=False)})"
        for t in turn.said
        if t not in said_by_calls
    ]
    if turn.outcome != "final":
        parts.append(f"[{turn.outcome}{': ' + (turn.error or '')[:60] if turn.error else ''}]")
    return " ".join(parts) or "(nothing)"


TABLE_HEAD = (
    f"{'scenario':<28} {'village':<10} {'npc':<8} {'fit':<4} {'line':<4} {'s':>6}  last turn"
)


def row(run: ScenarioRun) -> str:
    """One line of the table: id, village, NPC, fit or not, the line judged or not, the
    last turn's seconds and doings, and what was wrong with the line."""
    last = run.last
    seconds = f"{last.wall_s:6.2f}" if last is not None else "     -"
    shown = did(last) if last is not None else "(no turn)"
    ok = "yes" if fits(run) else "no"
    problems = line_problems(run)
    line = "-" if problems is None else ("no" if problems else "yes")
    why = f"  [{'; '.join(problems)}]" if problems else ""
    s = run.scenario
    return f"{s.id:<28} {s.village:<10} {s.npc:<8} {ok:<4} {line:<4} {seconds}  {shown}{why}"


def transcript(runs: Sequence[ScenarioRun]) -> list[dict[str, Any]]:
    """Every scenario's every turn, as plain JSON data."""
    return [
        {
            "id": run.scenario.id,
            "village": run.scenario.village,
            "npc": run.scenario.npc,
            "category": run.scenario.category,
            "held_out": run.scenario.held_out,
            "hour": run.scenario.hour,  # None: 8 am, as the world starts
            "fit": fits(run),
            "line_problems": line_problems(run),
            "turns": [turn.to_json() for turn in run.turns],
        }
        for run in runs
    ]


READ_LINES = 40  # the lines of a blind read, from each of its villages
READ_SEED = 25  # which lines: the same ones every run of the same suite


def read_pools(runs: Sequence[ScenarioRun], untuned: Collection[str]) -> list[list[ScenarioRun]]:
    """What a blind read picks from: the villages kept out of tuning, and Hollowbrook; with
    neither among the runs, all of them."""
    pools = [
        [r for r in runs if r.scenario.village in untuned],
        [r for r in runs if r.scenario.village == HOME],
    ]
    return [pool for pool in pools if pool] or [list(runs)]


def blind_read(
    pools: Sequence[Sequence[ScenarioRun]], count: int = READ_LINES, seed: int = READ_SEED
) -> str:
    """The last lines of `count` talks of each pool, picked by a fixed seed and shuffled
    together, each with who says it and what was said before it: no ids, no villages and
    no figures, for a person to mark."""
    rng = random.Random(seed)
    picked: list[ScenarioRun] = []
    for pool in pools:
        talks = [r for r in pool if r.last is not None and r.last.said and r.last.kind == "player"]
        picked += rng.sample(talks, min(count, len(talks)))
    rng.shuffle(picked)
    out: list[str] = []
    for number, run in enumerate(picked, start=1):
        assert run.npc is not None and run.last is not None
        name = run.npc.name
        out.append(f"{number}.")
        for turn in run.turns[:-1]:
            if turn.line is not None:
                out.append(f"   {turn.speaker or 'You'}: {turn.line}")
            if turn.said:
                out.append(f"   {name}: {' '.join(turn.said)}")
        out.append(f"   You: {run.last.line}")
        out.append(f"   {name}: {' '.join(run.last.said)}")
        out.append("   acceptable?  [ ]")
    return "\n".join(out)
