"""Starting a village of many NPCs and places, or one `chat` in it: prints one JSON line.

Builds a map of 500 NPCs (`tests/world/crowd.py`: a walled square of grass on the
village's tileset, the NPCs two tiles apart) and `--places` small places in rows across
it (objects of the `places` layer, as a map maker draws them) in a temp dir and runs

    run_game.py --headless --frames 1 --provider scripted --map MAP --saves-dir TMP

or, with `--chat`, one player line to the first NPC:

    run_game.py chat v0 "Good morning! Where is the mill?" --provider scripted --map MAP ...

under `/usr/bin/time -v` (else `resource.getrusage` of the children), each run with a
fresh saves dir. Prints {"npcs", "places", "mode" ("play" or "chat"), "wall_s" (the
median of the runs), "peak_rss_mb" (the largest), "cpu_s" (user and system, the median:
steadier than the wall time on a busy machine)}. Targets: play with no places,
wall_s < 2 and peak_rss_mb < 500; at 1,000 NPCs and 8,000 places, play wall_s <= 10 and
peak_rss_mb <= 350, one chat wall_s <= 5 and peak_rss_mb <= 300.

Run: python tests/benchmarks/many_npcs.py [--npcs 500] [--places 0] [--chat] [--runs 3]
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


CHAT_LINE = "Good morning! Where is the mill?"


def run_once(map_path: Path, saves: Path, chat: bool) -> tuple[float, float, float]:
    """(wall seconds, peak RSS in MB, CPU seconds) of one headless start, or one `chat`."""
    game = str(ROOT / "run_game.py")
    how = ["chat", "v0", CHAT_LINE] if chat else ["--headless", "--frames", "1"]
    where = ["--provider", "scripted", "--map", str(map_path), "--saves-dir", str(saves)]
    command = [sys.executable, game, *how, *where]
    timed = TIME.exists()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
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
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the children's so far
        cpu = usage.ru_utime + usage.ru_stime - before.ru_utime - before.ru_stime
        return wall, usage.ru_maxrss / 1024, cpu
    found = re.search(r"Elapsed \(wall clock\) time.*?: (?:(\d+):)?(\d+):([\d.]+)", out.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
    user = re.search(r"User time \(seconds\): ([\d.]+)", out.stderr)
    system = re.search(r"System time \(seconds\): ([\d.]+)", out.stderr)
    assert found and rss and user and system, out.stderr
    hours, minutes, seconds = found.groups()
    wall = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return wall, int(rss.group(1)) / 1024, float(user.group(1)) + float(system.group(1))


def main() -> None:
    """Build the map, run the game `--runs` times, print the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--npcs", type=int, default=500)
    parser.add_argument("--places", type=int, default=0, help="places besides the green")
    parser.add_argument("--chat", action="store_true", help="time one chat, not play")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        map_path = write_crowd_map(folder, args.npcs, places=args.places)
        runs = [run_once(map_path, folder / f"saves{i}", args.chat) for i in range(args.runs)]
    print(
        json.dumps(
            {
                "npcs": args.npcs,
                "places": args.places,
                "mode": "chat" if args.chat else "play",
                "wall_s": round(statistics.median(w for w, _, _ in runs), 2),
                "peak_rss_mb": round(max(r for _, r, _ in runs)),
                "cpu_s": round(statistics.median(c for _, _, c in runs), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
