"""The world and its saved state, on the game thread: a snapshot for a save, and putting
everyone back where a save says (with warnings for what no longer fits the map).

Both are cheap (a small model of tiles, facing, the clock and the time of day) and touch
the `World`, so they run on the game thread; the disk work is `slot_io`'s, off it. The
village's life (news, boards, feelings) is `game.save.life`'s; `apply_slot` puts both back.
"""

from __future__ import annotations

import logging
import math
from functools import cache
from pathlib import Path

from game.limits import (
    MAX_CLOCK_S,
    MAX_DAY_MINUTES,
    MAX_NAME_CHARS,
    MAX_PATH_CHARS,
    MAX_WARNINGS_NAMED,
)
from game.save.errors import MapMismatch
from game.save.format import FORMAT_VERSION, NpcState, PlayerState, SavedWorld, name_few
from game.save.life import apply_life
from game.save.slot_io import SlotData, read_slot
from game.text import clean_text
from game.world.clock import DAY_MINUTES
from game.world.grid import DIRECTIONS
from game.world.world import World

__all__ = [
    "apply_slot",
    "apply_world",
    "check_map",
    "map_file",
    "restore_world",
    "snapshot_world",
]

log = logging.getLogger(__name__)


def snapshot_world(world: World) -> SavedWorld:
    """What a save restores, read from the world now (game thread; cheap).

    Within the slot's bounds, so a game played past one still saves: the clock stops at
    `MAX_CLOCK_S` (the world's goes on), the day count steps back whole days under
    `MAX_DAY_MINUTES` (the time of day is kept), a long name is cut. (`write_slot`
    checks the whole before writing it.)
    """
    p = world.player
    path = map_file(world.map.path)
    return SavedWorld.model_construct(
        format=FORMAT_VERSION,
        map_id=world.map.map_id,
        map_file=path if len(path) <= MAX_PATH_CHARS else "",  # only a hint: never a failed save
        clock=_saturated(world.clock, MAX_CLOCK_S),
        time_minutes=_day_within(world.day.minutes),
        player=PlayerState.model_construct(
            tile=p.tile, facing=p.facing, name=p.name[:MAX_NAME_CHARS]
        ),
        npcs={
            npc_id: NpcState.model_construct(tile=npc.tile, facing=npc.facing)
            for npc_id, npc in world.npcs.items()
        },
        sessions={},
        saved_at=0.0,
    )


def _saturated(value: float, bound: float) -> float:
    """`value` within 0..bound (not a number: 0)."""
    return 0.0 if math.isnan(value) else min(max(value, 0.0), bound)


def _day_within(minutes: float) -> float:
    """The time of day in minutes within its bound, at the same hour: whole days back."""
    minutes = _saturated(minutes, math.inf)
    if minutes <= MAX_DAY_MINUTES:
        return minutes
    if math.isinf(minutes):
        return MAX_DAY_MINUTES
    days = math.ceil((minutes - MAX_DAY_MINUTES) / DAY_MINUTES)
    return _saturated(minutes - days * DAY_MINUTES, MAX_DAY_MINUTES)


@cache
def map_file(path: Path) -> str:
    """A map's path as a save records it: absolute, so `--map` works from anywhere."""
    return str(Path(path).absolute())


def check_map(data: SlotData, map_id: str) -> None:
    """Raise MapMismatch if the slot was saved on another map, naming that map's file."""
    world = data.world
    saved = world.map_id if world is not None else data.meta.map_id
    if saved and saved != map_id:
        where = (world.map_file if world is not None else "") or data.meta.map_file
        raise MapMismatch(
            f"slot {data.slot!r} was saved on map {saved!r}, not {map_id!r}: play it with "
            f"--map {where or f'maps/{saved}.tmx'}, or choose another slot"
        )


def apply_world(world: World, state: SavedWorld | None) -> list[str]:
    """Put everyone where the save says (game thread); returns one-line warnings.

    NPCs of the map missing from the save start at their map position; NPCs of the save
    missing from the map are skipped; a tile that is no longer walkable is replaced by the
    map position. Speech, emotes and walks in progress are dropped.
    """
    warnings: list[str] = []
    spawns = {s.npc_id: s.tile for s in world.map.npcs}
    world.hold_direction(None)
    world.forget_speech()
    world.drain_events()
    for ent in world.entities():
        ent.bubble = None
        ent.emote = None
    for npc in world.npcs.values():
        npc.path = []
        npc.activity = "idle"
        npc.blocked_for = 0.0
        npc.walk_time = 0.0
    if state is None:
        return warnings
    world.clock = max(0.0, state.clock)
    world.day.minutes = max(0.0, state.time_minutes)  # the day's length is a setting
    player = world.player
    name = clean_text(state.player.name).strip()
    if name:
        player.name = name
    moved: list[tuple[str, str]] = []  # (who, what happened): saved where none can walk now
    player.place(
        _usable(world, state.player.tile, world.map.player_spawn, "the player", moved),
        _facing(state.player.facing),
    )
    for npc_id, npc in world.npcs.items():
        saved = state.npcs.get(npc_id)
        if saved is None:
            npc.place(spawns.get(npc_id, npc.tile))
            continue
        tile = _usable(world, saved.tile, spawns.get(npc_id, npc.tile), npc.name, moved)
        npc.place(tile, _facing(saved.facing))
    if len(moved) > MAX_WARNINGS_NAMED:
        warnings.append(
            f"{len(moved):,} characters were saved where they cannot walk now "
            f"({name_few([who for who, _ in moved], 'characters')}): back to their map positions"
        )
    else:
        warnings.extend(line for _, line in moved)
    gone = sorted(set(state.npcs) - set(world.npcs))
    if len(gone) == 1:
        warnings.append(f"{gone[0]!r} is in the save but not on this map: skipped")
    elif gone:
        warnings.append(
            f"{len(gone):,} NPCs in the save are not on this map ({name_few(gone, 'NPCs')}): "
            "skipped"
        )
    for warning in warnings:
        log.warning("%s", warning)
    return warnings


def _usable(
    world: World,
    tile: tuple[int, int],
    spawn: tuple[int, int],
    who: str,
    moved: list[tuple[str, str]],
) -> tuple[int, int]:
    tile = (int(tile[0]), int(tile[1]))
    if world.grid.walkable(tile):
        return tile
    moved.append(
        (who, f"{who} was saved at {tile}, which cannot be walked on now: back to {spawn}")
    )
    return spawn


def _facing(facing: str) -> str:
    return facing if facing in DIRECTIONS else "down"


def restore_world(world: World, saves: Path, slot: str) -> SlotData:
    """Read a slot and put the world in its saved state (at startup, before play).

    Raises SaveError when the slot cannot be played: a newer format, another map.
    """
    data = read_slot(saves, slot)
    check_map(data, world.map.map_id)
    data.warnings.extend(apply_slot(world, data))
    return data


def apply_slot(world: World, data: SlotData) -> list[str]:
    """Put the world in a read slot's state (game thread): everyone's place, the clock
    and the time of day, and the village's news, boards and feelings; the warnings."""
    warnings = apply_world(world, data.world)
    life = apply_life(world, data.life)
    for warning in life:
        log.warning("%s", warning)
    return [*warnings, *life]
