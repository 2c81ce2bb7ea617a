"""The scripted brain plays the whole suite through the real harness, on the real map."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game.eval.figures import figures
from game.eval.scenarios import load_scenarios
from game.eval.suite import row, run_suite, transcript
from game.harness import Pace
from game.npc.scripted.persona import PersonaProvider
from game.world.tiled import load_map

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
QUICK = Pace(steps=20, sleep_s=0.001)
# The scripted brain is being rewritten to answer what was asked (issue 15, 2b); its floor
# is set once that lands. None: not asserted yet.
SCRIPTED_FIT_FLOOR: float | None = 0.7  # the target of the issue; the brain scores 1.0 here


async def test_the_scripted_brain_keeps_the_hard_limits_over_the_whole_suite(
    tmp_path: Path,
) -> None:
    scenarios = load_scenarios()
    runs = await run_suite(
        scenarios, load_map(VILLAGE), tmp_path, provider=PersonaProvider(delay_s=0), pace=QUICK
    )
    out = figures(runs, provider="scripted", model="persona")
    assert out["scenarios"] == len(scenarios)
    assert out["turns"] == sum(len(s.lines) for s in scenarios)
    assert out["parse_failures"] == 0, out
    assert out["junk"] == 0, out
    assert out["fourth_wall"] == 0, out
    assert out["calls_per_turn_max"] <= 3, out
    if SCRIPTED_FIT_FLOOR is not None:
        assert out["fit"] >= SCRIPTED_FIT_FLOOR, out
    # Each scenario ran in a slot of its own, and its transcript holds every turn.
    assert {p.name for p in tmp_path.iterdir()} == {s.id for s in scenarios}
    kept = transcript(runs)
    assert [len(t["turns"]) for t in kept] == [len(s.lines) for s in scenarios]
    json.dumps(kept)
    assert all(row(run).startswith(run.scenario.id) for run in runs)


def test_eval_prints_a_table_and_the_figures_last(tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "eval", "--provider", "scripted",
         "--map", "village", "--only", "wait", "--out", str(out_dir)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=dict(os.environ),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    waits = [s for s in load_scenarios() if s.category == "wait"]
    assert lines[0].split()[:4] == ["scenario", "village", "npc", "fit"]
    assert [line.split()[:2] for line in lines[1:-2]] == [[s.id, "village"] for s in waits]
    result, total = json.loads(lines[-2]), json.loads(lines[-1])
    assert result["village"] == "village" and result["untuned"] is False
    assert result["provider"] == "scripted" and result["scenarios"] == len(waits)
    for key in ("fit", "action_fit", "parse_failures", "fourth_wall", "repeat_rate", "junk",
                "distinct2", "calls_per_turn_mean", "calls_per_turn_max", "s_per_reply_median",
                "s_per_reply_p90", "first_letter_s_median"):  # fmt: skip
        assert key in result and total[key] == result[key]
    assert total["villages"] == ["village"]
    kept_figures = json.loads((out_dir / "figures.json").read_text())
    assert kept_figures == {"villages": [result], "total": total}
    kept = json.loads((out_dir / "transcript.json").read_text())
    assert [(t["id"], t["village"]) for t in kept] == [(s.id, "village") for s in waits]
    assert kept[0]["turns"][0]["line"] == waits[0].lines[0]


def test_a_blind_read_shows_the_lines_without_ids_or_figures(tmp_path: Path) -> None:
    out_dir = tmp_path / "out"

    def read(*more: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "run_game.py"), "eval", "--provider", "scripted",
             "--map", "village", "--only", "memory", "villagers", "--read", *more],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
            env=dict(os.environ),
        )  # fmt: skip

    # The two runs go side by side: each waits on the game's clock far more than it computes.
    first, second = read("--out", str(out_dir)), read()
    text, err = first.communicate(timeout=240)
    again, again_err = second.communicate(timeout=240)
    assert first.returncode == 0, err
    assert second.returncode == 0, again_err
    chosen = [s for s in load_scenarios() if s.category in ("memory", "villagers")]
    assert not any(s.id in text for s in chosen)  # no ids
    assert "{" not in text and "fit" not in text  # no figures
    numbers = [line.split(".")[0] for line in text.splitlines() if line[:1].isdigit()]
    assert numbers == [str(n) for n in range(1, len(chosen) + 1)]
    assert text.count("acceptable?") == len(chosen)
    for s in chosen:
        assert f"You: {s.lines[-1]}" in text  # what was asked, with each line
    figures = json.loads((out_dir / "figures.json").read_text())
    assert figures["total"]["lines_judged"] == len(chosen)
    assert again == text  # the same lines, in the same order, every run


def test_eval_with_a_bad_option_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "eval", "--provider", "scripted",
         "--only", "juggling"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: --only 'juggling' is neither")
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
