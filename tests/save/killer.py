"""Helper process of the kill test: a zygote that forks one writer per round.

Importing pydantic and the game takes longer than a whole round, so this process
imports once and, for each `go SEED START` line on stdin, forks a child that appends
events to three NPC logs and saves the slot in a loop, printing `saved SEED N {json}`
after each completed save (N counts saves across rounds; the JSON is the seqs the save
covers) and `tick SEED` after each batch of appends. The test SIGKILLs the child at a
random moment, then sends `reap PID` and waits for `exited PID STATUS`. POSIX only.

Run: python tests/save/killer.py SAVES_DIR SLOT
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

from game.agent.events import UserMessage
from game.agent.store import SessionStore
from game.save.format import NpcState, PlayerState, SavedWorld
from game.save.slot_io import write_slot

NPCS = ("ada", "bo", "cy")
SIZES = (8, 8, 8, 8, 300, 3000, 40000)


def _out(line: str) -> None:
    # os.write, not print: a forked child must not share the parent's stdout buffer.
    os.write(1, (line + "\n").encode())


def writer(saves: Path, slot: str, seed: int, start: int) -> None:
    """Append and save forever (until killed)."""
    rng = random.Random(seed)
    store = SessionStore(saves, slot)
    n = start
    while True:
        for _ in range(rng.randint(1, 8)):
            npc = rng.choice(NPCS)
            store.append(npc, UserMessage(text=f"r{seed} " + "x" * rng.choice(SIZES)))
        if rng.random() < 0.5:
            store.flush_npc(rng.choice(NPCS))  # written, not yet fsynced
        _out(f"tick {seed}")
        if rng.random() < 0.5:
            n += 1
            world = SavedWorld(
                map_id="kill",
                clock=float(n),
                player=PlayerState(tile=(n % 40, seed % 40), facing="left", name="Kim"),
                npcs={npc: NpcState(tile=(n % 7, i)) for i, npc in enumerate(NPCS)},
            )
            result = write_slot(saves, slot, world, store=store, thumbnail=b"\x89PNG-fake")
            if not result.ok:
                _out(f"failed {seed} {result.message}")
                os._exit(3)
            _out(f"saved {seed} {n} {json.dumps(result.sessions)}")


def main() -> None:
    """Read commands from stdin until it closes."""
    saves, slot = Path(sys.argv[1]), sys.argv[2]
    _out("ready")
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "go":
            seed, start = int(parts[1]), int(parts[2])
            pid = os.fork()
            if pid == 0:
                try:
                    writer(saves, slot, seed, start)
                finally:
                    os._exit(0)
            _out(f"pid {pid}")
        elif parts[0] == "reap":
            pid = int(parts[1])
            _, status = os.waitpid(pid, 0)
            _out(f"exited {pid} {status}")
        elif parts[0] == "quit":
            break


if __name__ == "__main__":
    main()
