"""`run_game.py chat NPC_ID MESSAGE`: talk to one NPC from the terminal.

The slot is the map's own unless `--slot` names one; its lock is taken first (a second
`chat` waits its turn, so no answer is lost and no seq is given twice), then the slot is
read (a newer format or another map is refused before anything is written). The reply
streams to stdout and the tool calls go to stderr, both cleaned of control characters so
a model cannot drive the terminal. A turn that could not be written to the slot's log
(a full disk) is one line and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.agent.bus import BusEvent
from game.assets import load_game_map
from game.config import Settings
from game.errors import UsageError
from game.harness import Talk
from game.paths import default_slot, saves_dir, validate_id
from game.save.lock import SlotLock
from game.save.slot_io import ensure_meta
from game.save.tidy import tidy_saves
from game.save.world_state import map_file, restore_world
from game.text import clean_text
from game.village import Progress, open_providers
from game.world.world import World

__all__ = ["CHAT_WAIT_S", "chat"]

CHAT_WAIT_S = 600.0  # how long `chat` waits for a slot another process is writing


async def chat(args: argparse.Namespace, settings: Settings, progress: Progress) -> int:
    """`run_game.py chat NPC_ID MESSAGE`: one turn, the reply streamed to stdout."""
    map_data = load_game_map(args.map)
    slot = validate_id(default_slot(map_data.map_id) if args.slot is None else args.slot, "slot")
    world = World(map_data)
    if args.npc_id not in world.npcs:
        known = ", ".join(sorted(world.npcs))
        raise UsageError(f"no NPC {args.npc_id!r} on {args.map.name}; NPCs here: {known}")
    saves = saves_dir(args.saves_dir)
    tidy_saves(saves)

    def waiting(who: str) -> None:
        print(f"waiting for slot {slot!r}: it is in use by {who}", file=sys.stderr, flush=True)

    # One writer per slot: a second chat waits its turn, so no answer is lost and no
    # sequence number is given twice.
    lock = SlotLock(saves, slot, "chat").acquire(wait_s=CHAT_WAIT_S, on_wait=waiting)
    try:
        return await _chat_in(args, world, saves, slot, settings, progress)
    finally:
        lock.release()


async def _chat_in(
    args: argparse.Namespace,
    world: World,
    saves: Path,
    slot: str,
    settings: Settings,
    progress: Progress,
) -> int:
    """`chat` with the slot's lock held: the slot read (a newer format or another map is
    refused before anything is written), one turn, and how it was kept."""
    data = restore_world(world, saves, slot)
    providers = await open_providers(settings, progress)

    said_last: list[str] = []  # what the open line of stdout belongs to, if one is open

    def end_line() -> None:
        """Close the line the NPC was saying, so nothing else lands on it."""
        if said_last:
            sys.stdout.write("\n")
            sys.stdout.flush()
            said_last.clear()

    def write(key: str, text: str) -> None:
        """Each separate thing the NPC says on a line of its own; the model's text cleaned
        of control characters, so it cannot drive the terminal."""
        if said_last and said_last[-1] != key:
            end_line()
        said_last[:] = [key]
        sys.stdout.write(clean_text(text))
        sys.stdout.flush()

    def show(event: BusEvent) -> None:
        if event.kind == "tool_call":
            end_line()  # on a terminal, stderr's line must not follow the reply on its own
            call = clean_text(f"[{event.data['name']}] {event.data['arguments']}")
            print(call, file=sys.stderr)
        elif event.kind == "tool_result" and event.data.get("is_error"):
            failed = clean_text(f"[{event.data['name']} failed] {event.data['content']}")
            print(failed, file=sys.stderr)

    # What the NPC says streams to stdout while the model writes it.
    talk = Talk(
        world,
        saves,
        slot=slot,
        provider=providers.provider,
        provider_for=providers.provider_for(settings),
        on_text=lambda npc_id, run_id, text: write(f"text {run_id}", text),
        on_say=lambda call_id, delta: write(f"say {call_id}", delta),
    )
    talk.runtime.bus.subscribe(show)
    # The summaries as the slot's reading bounded them (and warned of), not read twice.
    talk.runtime.set_world_summary(slot, data.world_summary)
    for npc_id in world.npcs:
        talk.runtime.set_npc_summary(slot, npc_id, data.npc_summaries.get(npc_id, ""))
    report = await talk.player_line(args.npc_id, args.message)
    await talk.aclose()
    crash = providers.crash_line()
    await providers.aclose()
    end_line()
    if crash is not None:
        print(f"error: {crash}", file=sys.stderr)
        return 1
    if report.store_error is not None:
        print(
            f"error: the turn was not kept in slot {slot!r}: {report.store_error}", file=sys.stderr
        )
        return 1
    if not data.exists:
        ensure_meta(saves, slot, world.map.map_id, map_file(world.map.path))
    if report.outcome == "failed":
        print(f"error: the turn failed: {clean_text(report.error or '')}", file=sys.stderr)
        return 1
    return 0
