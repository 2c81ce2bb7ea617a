"""Starting a village of many NPCs: prints one JSON line.

Builds a map of 500 NPCs (`tests/world/crowd.py`: a walled square of grass on the
village's tileset, the NPCs two tiles apart) in a temp dir and runs

    run_game.py --headless --frames 1 --provider scripted --map MAP --saves-dir TMP

under `/usr/bin/time -v` (else `resource.getrusage` of the children), each run with a
fresh saves dir. Prints {"npcs", "wall_s" (the median of the runs), "peak_rss_mb" (the
largest)}. Target: wall_s < 2 and peak_rss_mb < 500.

Run: python tests/benchmarks/many_npcs.py [--npcs 500] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.world.crowd import write_crowd_map  # noqa: E402

TIME = Path("/usr/bin/time")


def run_once(map_path: Path, saves: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one headless start."""
    command = [
        sys.executable,
        str(ROOT / "run_game.py"),
        "--headless",
        "--frames",
        "1",
        "--provider",
        "scripted",
        "--map",
        str(map_path),
        "--saves-dir",
        str(saves),
    ]
    timed = TIME.exists()
    started = time.perf_counter()
    out = subprocess.run(
        [str(TIME), "-v", *command] if timed else command,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if out.returncode != 0:
        raise SystemExit(f"the game failed: {out.stderr.strip()[-2000:]}")
    if not timed:
        return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    found = re.search(r"Elapsed \(wall clock\) time.*?: (?:(\d+):)?(\d+):([\d.]+)", out.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
    assert found and rss, out.stderr
    hours, minutes, seconds = found.groups()
    wall = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return wall, int(rss.group(1)) / 1024


def main() -> None:
    """Build the map, run the game `--runs` times, print the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--npcs", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        map_path = write_crowd_map(folder, args.npcs)
        runs = [run_once(map_path, folder / f"saves{i}") for i in range(args.runs)]
    print(
        json.dumps(
            {
                "npcs": args.npcs,
                "wall_s": round(statistics.median(w for w, _ in runs), 2),
                "peak_rss_mb": round(max(r for _, r in runs)),
            }
        )
    )


if __name__ == "__main__":
    main()
