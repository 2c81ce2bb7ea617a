"""Scenario sets per village: found by folder, each checked against its own map, run and
reported per village and in total; the blind read mixes the untuned village with Hollowbrook.

The fixture village (`villages/`: `hamlet.tmx`, a copy of maps/tiny.tmx with two villagers
of its own, and two scenarios kept out of tuning) stands in for a second village; the
real Hollowbrook plays beside it with two scenarios of its own.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from game.cli import build_parser
from game.config import load_settings
from game.errors import UsageError
from game.eval.command import run_eval, villages_to_run
from game.eval.figures import ScenarioRun
from game.eval.scenarios import (
    HOME,
    Scenario,
    VillageSet,
    load_scenarios,
    load_villages,
)
from game.eval.suite import READ_LINES, READ_SEED, blind_read, read_pools
from game.harness import TurnReport
from game.npc.facts import VillagerFacts

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "villages"
SKIPPED = "eval: skipped village 'nowhere': no map nowhere.tmx or .tmj"

HOLLOWBROOK = [
    {"id": "v-hello", "npc": "tobin", "category": "greeting", "lines": ["Hello there!"]},
    {"id": "v-name", "npc": "wren", "category": "memory",
     "lines": ["I'm Quillon.", "What's my name?"], "line": {"says": ["quillon"]}},
]  # fmt: skip


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def map_copy(source: Path, maps: Path) -> None:
    """A map copied into `maps`, its tileset found where it was."""
    text = source.read_text(encoding="utf-8")
    tileset = text.split('source="', 1)[1].split('"', 1)[0]
    absolute = (source.parent / tileset).resolve()
    maps.mkdir(parents=True, exist_ok=True)
    (maps / source.name).write_text(text.replace(tileset, str(absolute)), encoding="utf-8")


@pytest.fixture
def villages(tmp_path: Path) -> tuple[Path, Path]:
    """Scenario sets (Hollowbrook's two, the fixture's two, one without a map) and maps."""
    root, maps = tmp_path / "scenarios", tmp_path / "maps"
    shutil.copytree(FIXTURE / "scenarios", root)
    write(root / HOME / "talks.json", {"scenarios": HOLLOWBROOK})
    write(root / "nowhere" / "talks.json", {"scenarios": [{**HOLLOWBROOK[0], "id": "n-hi"}]})
    map_copy(ROOT / "maps" / "village.tmx", maps)
    map_copy(FIXTURE / "maps" / "hamlet.tmx", maps)
    return root, maps


async def evaluate(
    villages: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, str, str]:
    root, maps = villages
    args = build_parser().parse_args(["eval", "--provider", "scripted", *argv])
    settings = load_settings(
        {"provider": "scripted"}, env={}, cwd=tmp_path, config_file=tmp_path / "none.toml"
    )
    code = await run_eval(args, settings, lambda _f, _m: None, root=root, maps=maps)
    out, err = capsys.readouterr()
    return code, out, err


# --- the sets -------------------------------------------------------------------------------


def test_hollowbrooks_set_is_its_folder_and_comes_first() -> None:
    sets = load_villages()
    assert sets[0].map_id == HOME and not sets[0].untuned
    home = sets[0].scenarios
    assert len(home) >= 120 and all(s.village == HOME for s in home)
    assert sum(s.held_out for s in home) >= 40  # its held_out/ folder moved with it
    assert list(home) == load_scenarios()  # the default set is Hollowbrook's
    for village in sets:  # every bundled village's folder names a map the game ships
        assert (ROOT / "maps" / f"{village.map_id}.tmx").is_file(), village.map_id


def test_a_village_json_keeps_the_village_out_of_tuning(villages: tuple[Path, Path]) -> None:
    root, _ = villages
    sets = {v.map_id: v for v in load_villages(root)}
    assert [v for v in sets] == [HOME, "hamlet", "nowhere"]  # Hollowbrook's, then by name
    assert sets["hamlet"].untuned and not sets[HOME].untuned and not sets["nowhere"].untuned
    assert {s.village for s in sets["hamlet"].scenarios} == {"hamlet"}
    write(root / "hamlet" / "village.json", {"untuned": "maybe"})
    with pytest.raises(UsageError, match=r"^hamlet/village\.json: untuned: "):
        load_villages(root)


@pytest.mark.parametrize(
    ("where", "data", "message"),
    [
        ("hamlet/more.json", {"scenarios": [{**HOLLOWBROOK[0]}]},
         r"^hamlet/: scenario id 'v-hello' is taken in village/; ids are slots"),
        ("stray.json", {"scenarios": [HOLLOWBROOK[0]]},
         r"^stray\.json: a scenario file belongs in its village's folder"),
        ("hamlet/more.json", {"scenarios": [{**HOLLOWBROOK[0], "id": "x", "village": "y"}]},
         r"^more\.json: scenario 'x': village is set by the folder"),
    ],
)  # fmt: skip
def test_a_bad_set_is_one_line(
    villages: tuple[Path, Path], where: str, data: Any, message: str
) -> None:
    root, _ = villages
    write(root / where, data)
    with pytest.raises(UsageError, match=message) as info:
        load_villages(root)
    assert "\n" not in str(info.value)


# --- which villages run ---------------------------------------------------------------------


def test_map_picks_a_village_by_id_or_file_and_plain_eval_skips_a_missing_map(
    villages: tuple[Path, Path],
) -> None:
    root, maps = villages
    sets = load_villages(root)
    skipped: list[str] = []
    found = villages_to_run(sets, None, maps, skipped.append)
    assert [(v.map_id, p.name) for v, p in found] == [
        (HOME, "village.tmx"),
        ("hamlet", "hamlet.tmx"),
    ]
    assert skipped == [f"{SKIPPED} in {maps}"]
    by_id = villages_to_run(sets, Path("hamlet"), maps, skipped.append)
    assert [(v.map_id, p) for v, p in by_id] == [("hamlet", maps / "hamlet.tmx")]
    by_file = villages_to_run(sets, FIXTURE / "maps" / "hamlet.tmx", maps, skipped.append)
    assert [(v.map_id, p) for v, p in by_file] == [("hamlet", FIXTURE / "maps" / "hamlet.tmx")]
    with pytest.raises(UsageError, match=r"no scenarios for map 'moon'; villages with scenar"):
        villages_to_run(sets, Path("moon"), maps, skipped.append)
    with pytest.raises(UsageError, match=r"^--map nowhere: no map nowhere\.tmx or nowhere\.tmj"):
        villages_to_run(sets, Path("nowhere"), maps, skipped.append)
    with pytest.raises(UsageError, match="no village's map is in"):
        villages_to_run([VillageSet("nowhere", ())], None, maps, skipped.append)


# --- running them ---------------------------------------------------------------------------


async def test_eval_reports_each_village_and_the_total(
    villages: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    code, out, err = await evaluate(villages, tmp_path, capsys, "--out", str(out_dir))
    assert code == 0, err
    assert err.strip() == f"{SKIPPED} in {villages[1]}"
    lines = out.strip().splitlines()
    assert lines[0].split()[:4] == ["scenario", "village", "npc", "fit"]
    rows = [line.split()[:3] for line in lines[1:5]]
    assert rows == [["v-hello", HOME, "tobin"], ["v-name", HOME, "wren"],
                    ["hamlet-role-potter", "hamlet", "bram"],
                    ["hamlet-refusal-wheel", "hamlet", "odile"]]  # fmt: skip
    home, hamlet, total = (json.loads(line) for line in lines[5:])
    assert len(lines) == 8
    assert (home["village"], home["untuned"], home["scenarios"]) == (HOME, False, 2)
    assert (hamlet["village"], hamlet["untuned"], hamlet["scenarios"]) == ("hamlet", True, 2)
    assert total["villages"] == [HOME, "hamlet"] and "village" not in total
    assert total["scenarios"] == 4 and total["turns"] == home["turns"] + hamlet["turns"] == 5
    assert hamlet["lines_judged"] == 2 and total["lines_judged"] == 3
    for key in ("fit", "line_fit", "repeat_rate", "distinct2", "s_per_reply_median"):
        assert key in home and key in hamlet and key in total
    kept = json.loads((out_dir / "figures.json").read_text())
    assert kept == {"villages": [home, hamlet], "total": total}
    runs = json.loads((out_dir / "transcript.json").read_text())
    assert [(r["id"], r["village"]) for r in runs] == [(row[0], row[1]) for row in rows]


async def test_only_and_map_choose_across_villages(
    villages: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = await evaluate(villages, tmp_path, capsys, "--only", "refusal", "v-hello")
    assert code == 0
    figures = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [(f.get("village"), f["scenarios"]) for f in figures] == [
        (HOME, 1),
        ("hamlet", 1),
        (None, 2),
    ]
    code, out, err = await evaluate(villages, tmp_path, capsys, "--map", "hamlet")
    assert code == 0 and err == ""  # one village asked for: the others are not skipped
    figures = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [f.get("village") for f in figures] == ["hamlet", None]
    assert figures[0]["scenarios"] == figures[1]["scenarios"] == 2


async def test_each_village_is_checked_against_its_own_map_before_anything_runs(
    villages: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = villages
    write(root / "hamlet" / "more.json", {"scenarios": [{**HOLLOWBROOK[0], "id": "h-tobin"}]})
    saves = tmp_path / "saves"
    with pytest.raises(UsageError, match=r"^scenario 'h-tobin': no NPC 'tobin'; NPCs: bram, od"):
        await evaluate(villages, tmp_path, capsys, "--saves-dir", str(saves))
    assert not saves.exists()  # nothing ran, not even Hollowbrook's, whose tobin exists


async def test_a_blind_read_mixes_the_untuned_village_with_hollowbrook_and_hides_both(
    villages: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "out"
    code, text, _ = await evaluate(villages, tmp_path, capsys, "--read", "--out", str(out_dir))
    assert code == 0
    assert text.count("acceptable?") == 4  # each village's talks, all of them here
    for scenario in [*HOLLOWBROOK, *load_scenarios(FIXTURE / "scenarios" / "hamlet")]:
        sid = scenario["id"] if isinstance(scenario, dict) else scenario.id
        assert sid not in text
    # Nothing but the talks: a number, who says what, a box; no id, village, provider or
    # figure around them (what the villagers say is theirs, map names and all).
    said = re.compile(r"   (You|Traveller|Tobin|Wren|Odile|Bram): .+")
    for line in text.splitlines():
        assert re.fullmatch(r"\d+\.", line) or said.fullmatch(line) or line == "   acceptable?  [ ]"
    assert "{" not in text and "scripted" not in text
    numbers = [line.split(".")[0] for line in text.splitlines() if line[:1].isdigit()]
    assert numbers == ["1", "2", "3", "4"]
    assert {"   You: Who makes the pots around here?", "   You: What's my name?"} <= set(
        text.splitlines()
    )
    kept = json.loads((out_dir / "figures.json").read_text())
    assert [v["village"] for v in kept["villages"]] == [HOME, "hamlet"]


def talks(village: str, count: int) -> list[ScenarioRun]:
    """`count` finished talks in `village`, each asked and answered once."""
    runs = []
    for n in range(count):
        asked = f"{village} question {n}?"
        data = {"id": f"{village}-{n}", "npc": "x", "category": "greeting", "lines": [asked]}
        scenario = Scenario.model_validate({**data, "village": village})
        turn = TurnReport("player", "x", line=asked, said=[f"Answer {n}."])
        runs.append(ScenarioRun(scenario, [turn], npc=VillagerFacts(npc_id="x", name="Ada")))
    return runs


def test_the_read_takes_forty_of_each_pool_by_a_fixed_seed() -> None:
    home, moor, other = talks(HOME, 60), talks("moor", 50), talks("other", 70)
    pools = read_pools([*home, *moor, *other], untuned={"moor"})
    assert pools == [moor, home]  # the village kept out of tuning, and Hollowbrook
    text = blind_read(pools)
    asked = [line for line in text.splitlines() if line.startswith("   You: ")]
    assert len(asked) == 2 * READ_LINES
    assert sum(HOME in line for line in asked) == sum("moor" in line for line in asked) == 40
    assert not any("other" in line for line in asked)
    first_half = [HOME in line for line in asked[:READ_LINES]]
    assert 0 < sum(first_half) < READ_LINES  # shuffled together, not one after the other
    assert blind_read(read_pools([*home, *moor, *other], untuned={"moor"})) == text
    assert blind_read(pools, seed=READ_SEED + 1) != text
    # One village only: forty of it; none of the two: forty of what ran.
    assert blind_read(read_pools(home, untuned={"moor"})).count("acceptable?") == READ_LINES
    assert read_pools(other, untuned={"moor"}) == [other]
