"""`run_game.py chat NPC_ID MESSAGE`: talk to one NPC from the terminal.

The slot is the map's own unless `--slot` names one; its lock is taken first (a second
`chat` waits its turn, so no answer is lost and no seq is given twice), then the slot is
read (a newer format or another map is refused before anything is written) into the
world the window would build of it: everyone's place, the clock and the time of day, and
the village's news, boards and feelings, so the NPC senses what it would in the window.
The reply streams to stdout and the tool calls go to stderr, both cleaned of control
characters so a model cannot drive the terminal. What the talk changed is then saved as
the window saves it (`_keep`): the news, boards and feelings, the clock and the time of
day; everyone's place stays as the slot had it. A turn or a save that could not be
written (a full disk) is one line and exit 1.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from game.agent.bus import BusEvent
from game.assets import load_game_map
from game.config import Settings
from game.errors import UsageError
from game.harness import Talk
from game.paths import default_slot, saves_dir, validate_id
from game.save import slot_io
from game.save.format import SavedWorld
from game.save.life import snapshot_life
from game.save.lock import SlotLock
from game.save.slot_io import SaveResult, write_slot
from game.save.tidy import tidy_saves
from game.save.world_state import restore_world, snapshot_world
from game.save.writable import check_writable
from game.text import clean_text
from game.village import Progress, open_providers, village_world
from game.world.world import World

__all__ = ["CHAT_WAIT_S", "chat"]

CHAT_WAIT_S = 600.0  # how long `chat` waits for a slot another process is writing


async def chat(args: argparse.Namespace, settings: Settings, progress: Progress) -> int:
    """`run_game.py chat NPC_ID MESSAGE`: one turn, the reply streamed to stdout."""
    map_data = load_game_map(args.map)
    slot = validate_id(default_slot(map_data.map_id) if args.slot is None else args.slot, "slot")
    world = village_world(map_data, settings)
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
    refused before anything is written, and so is one that cannot be written), one turn,
    and how it was kept."""
    data = restore_world(world, saves, slot)
    check_writable(saves, slot)  # a read-only slot: one line before a model is asked
    places = snapshot_world(world)  # where everyone is, as the slot has it
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

    # A signal (SIGTERM, SIGHUP, Ctrl-C) cancels the turn: the clean-up below still writes
    # down what was said and stops the local model's process before the process ends.
    try:
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
        try:
            report = await talk.player_line(args.npc_id, args.message)
            # A turn its log could not keep says so below; nothing else is written after it.
            kept = _keep(saves, slot, places, talk) if report.store_error is None else None
        finally:
            await talk.aclose()
    finally:
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
    if kept is not None and not kept.ok:
        print(f"error: what the talk changed was not kept: {kept.message}", file=sys.stderr)
        return 1
    if report.outcome == "failed":
        print(f"error: the turn failed: {clean_text(report.error or '')}", file=sys.stderr)
        return 1
    return 0


def _keep(saves: Path, slot: str, places: SavedWorld, talk: Talk) -> SaveResult:
    """Save what the talk changed, as the window saves it: the NPC logs flushed, the
    village's news, boards and feelings, the clock and the time of day. Everyone's place
    stays as the slot had it: the player stood by the NPC for the talk only. A failure is
    the result's one line, which `chat` prints itself (not logged a second time)."""
    world = talk.world
    state = places.model_copy(update={"clock": world.clock, "time_minutes": world.day.minutes})
    said_here = _BelowError()
    slot_io.log.addFilter(said_here)
    try:
        store = talk.runtime.store(slot)
        return write_slot(saves, slot, state, store=store, life=snapshot_life(world))
    finally:
        slot_io.log.removeFilter(said_here)


class _BelowError(logging.Filter):
    """Lets warnings through and holds back errors (the caller tells those itself)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether the record is logged."""
        return record.levelno < logging.ERROR
