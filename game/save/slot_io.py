"""Reading and writing one save slot.

`read_slot` never trusts the disk: a damaged `meta.json` is rebuilt, a damaged or missing
`world.json` falls back to `world.json.bak`, a damaged news, board or feelings file is an
empty part of the village's life, an old format is migrated, and every such repair is
reported as a one-line warning. Only a slot written by a newer game (or a path that is
not a slot) is refused. `write_slot` flushes and fsyncs every NPC log, then writes
`world.json` (keeping the previous one as `.bak`), the village's life (`news.json`,
`board.json`, `feelings.json`), `meta.json` and the thumbnail, each atomically; it returns
a `SaveResult` and never raises for a disk failure.

Both do blocking disk I/O: call them off the game thread.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from game.agent.store import SessionStore
from game.atomic import fsync_dir, write_atomic
from game.files import os_reason, read_capped, read_summary
from game.limits import MAX_SUMMARY_CHARS
from game.paths import (
    NPCS_DIR,
    npc_events_file,
    npc_memory_file,
    slot_dir,
    slot_path,
    validate_id,
)
from game.save.errors import SaveError
from game.save.format import (
    BACKUP_SUFFIX,
    FORMAT_VERSION,
    META_FILE,
    THUMBNAIL_FILE,
    WORLD_FILE,
    WORLD_SUMMARY_FILE,
    SavedWorld,
    SlotMeta,
    bound_of,
    describe_error,
    migrate,
)
from game.save.life import Life, life_files, read_life
from game.save.thumbnail import Frame, encode_png

__all__ = [
    "LARGE_LOG_BYTES",
    "MAX_SUMMARY_CHARS",
    "SaveResult",
    "SlotData",
    "ensure_meta",
    "game_version",
    "parse_world",
    "read_slot",
    "write_slot",
]

log = logging.getLogger(__name__)

# A session log this big still loads, but the player is told why loading is slow.
LARGE_LOG_BYTES = 64 * 1024 * 1024


@dataclass
class SlotData:
    """What a slot holds, read and repaired; `world` is None when positions are unknown."""

    slot: str
    path: Path
    exists: bool
    meta: SlotMeta
    world: SavedWorld | None = None
    warnings: list[str] = field(default_factory=list)
    life: Life = field(default_factory=Life)  # news, boards, feelings (empty if none)
    from_backup: bool = False
    migrated_from: int | None = None
    world_summary: str = ""
    npc_summaries: dict[str, str] = field(default_factory=dict)


@dataclass
class SaveResult:
    """How a save went: `ok`, a one-line `message`, and any `warnings`."""

    ok: bool
    slot: str
    message: str
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    sessions: dict[str, int] = field(default_factory=dict)


# --- reading ---------------------------------------------------------------------------


def read_slot(saves: Path, slot: str, *, large_log_bytes: int = LARGE_LOG_BYTES) -> SlotData:
    """Read a slot (missing: an empty, fresh one). Raises SaveError only if it cannot be used.

    FormatTooNew if a newer game wrote it; SaveError if the path is not a directory.
    """
    slot = validate_id(slot, "slot name")
    path = slot_dir(saves, slot)
    if not path.exists():
        return SlotData(slot, path, False, SlotMeta.fresh(slot))
    if not path.is_dir():
        raise SaveError(f"slot {slot!r}: {path} is not a save slot (it is not a directory)")
    data = SlotData(slot, path, True, SlotMeta.fresh(slot))
    npcs = slot_path(saves, slot, NPCS_DIR)
    meta, meta_state = _read_meta(slot_path(saves, slot, META_FILE), data)
    world = _read_world(
        slot_path(saves, slot, WORLD_FILE), slot_path(saves, slot, WORLD_FILE + BACKUP_SUFFIX), data
    )
    if meta is None:
        if world is None and meta_state == "missing" and npcs.is_dir():
            data.migrated_from = 0  # a slot of the first version: NPC logs only
        elif meta_state == "missing" and world is not None:
            data.warnings.append(f"slot {slot!r}: meta.json is missing; rebuilt from world.json")
        meta = SlotMeta(
            name=slot,
            created=world.saved_at if world else 0.0,
            updated=world.saved_at if world else 0.0,
            play_time_s=world.clock if world else 0.0,
            map_id=world.map_id if world else "",
            map_file=world.map_file if world else "",
            npc_count=len(world.npcs) if world else 0,
            player_name=world.player.name if world else "",
        )
    if not meta.name:
        meta.name = slot
    data.meta = meta
    data.world = world
    data.life = read_life(saves, slot, data.warnings)
    data.world_summary = _read_text(slot_path(saves, slot, WORLD_SUMMARY_FILE), data)
    if npcs.is_dir():
        for child in sorted(npcs.iterdir()):
            try:
                npc_id = validate_id(child.name, "NPC id")
            except ValueError:
                data.warnings.append(
                    f"slot {slot!r}: ignoring {child.name!r} in npcs/ (not an NPC id)"
                )
                continue
            summary = _read_text(npc_memory_file(saves, slot, npc_id), data)
            if summary:
                data.npc_summaries[npc_id] = summary
            events = npc_events_file(saves, slot, npc_id)
            try:
                size = events.stat().st_size
            except OSError:
                continue
            if size > large_log_bytes:
                data.warnings.append(
                    f"slot {slot!r}: {npc_id}'s session log is {size / 2**20:.0f} MB; "
                    "loading it may be slow"
                )
    for warning in data.warnings:
        log.warning("%s", warning)
    return data


def _read_json(path: Path) -> dict[str, Any]:
    raw = json.loads(read_capped(path, bound_of(path.name)).decode("utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
    return raw


def _read_meta(meta_path: Path, data: SlotData) -> tuple[SlotMeta | None, str]:
    """The slot's meta (None if missing or damaged) and "ok", "missing" or "damaged"."""
    try:
        raw = _read_json(meta_path)
        raw, old = migrate("meta", raw)
        meta = SlotMeta.model_validate(raw)
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError, ValidationError) as exc:
        data.warnings.append(
            f"slot {data.slot!r}: meta.json is damaged ({describe_error(exc)}); "
            "it will be rewritten on the next save"
        )
        return None, "damaged"
    if old is not None:
        data.migrated_from = old
    return meta, "ok"


def parse_world(raw_bytes: bytes) -> tuple[SavedWorld, int | None]:
    """A `world.json`'s model and the format it was migrated from (None: current).

    ValueError or ValidationError when damaged; FormatTooNew when a newer game wrote it.
    """
    raw = json.loads(raw_bytes.decode("utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
    raw, old = migrate("world", raw)
    return SavedWorld.model_validate(raw), old


def world_is_valid(raw_bytes: bytes) -> bool:
    """Whether bytes are a readable `world.json` of this or an older format."""
    try:
        parse_world(raw_bytes)
    except (ValueError, ValidationError, SaveError):
        return False
    return True


def _read_world(main: Path, backup: Path, data: SlotData) -> SavedWorld | None:
    problem: str | None = None
    try:
        world, old = parse_world(read_capped(main, bound_of(main.name)))
    except FileNotFoundError:
        problem = "is missing" if backup.exists() else None
    except (OSError, ValueError, ValidationError) as exc:
        problem = f"is damaged ({describe_error(exc)})"
    else:
        if old is not None:
            data.migrated_from = old if data.migrated_from is None else data.migrated_from
        return world
    if problem is None:
        return None  # never saved: characters start at their map positions
    try:
        world, old = parse_world(read_capped(backup, bound_of(backup.name)))
    except (OSError, ValueError, ValidationError) as exc:
        reason = "is missing" if isinstance(exc, FileNotFoundError) else "is damaged too"
        data.warnings.append(
            f"slot {data.slot!r}: world.json {problem} and world.json.bak {reason}; "
            "everyone starts at their map position"
        )
        return None
    data.from_backup = True
    data.warnings.append(
        f"slot {data.slot!r}: world.json {problem}; loaded the previous save (world.json.bak)"
    )
    if old is not None:
        data.migrated_from = old
    return world


def _read_text(path: Path, data: SlotData) -> str:
    text, problem = read_summary(path)
    if problem is not None:
        data.warnings.append(f"slot {data.slot!r}: {problem}")
    return text


# --- writing ---------------------------------------------------------------------------


def write_slot(
    saves: Path,
    slot: str,
    world: SavedWorld,
    *,
    store: SessionStore | None = None,
    thumbnail: Frame | bytes | None = None,
    name: str | None = None,
    fsync: bool = True,
    life: Life | None = None,
) -> SaveResult:
    """Save: flush+fsync the NPC logs, then world.json, the village's `life` (a copy made by
    `snapshot_life`; None leaves its files as they are), meta.json, thumbnail.png."""
    started = time.perf_counter()
    try:
        slot = validate_id(slot, "slot name")
        path = slot_dir(saves, slot)
    except ValueError as exc:
        return SaveResult(False, str(slot), f"could not save: {exc}")
    warnings: list[str] = []
    try:
        path.mkdir(parents=True, exist_ok=True)
        sessions: dict[str, int] = {}
        if store is not None:
            # Read the seqs first: every event below them is buffered now, so the flush
            # that follows covers them all.
            for npc_id in store.npc_ids():
                last = store.next_seq(npc_id) - 1
                if last > 0:
                    sessions[npc_id] = last
            store.flush(fsync=fsync)
        now = time.time()
        world = world.model_copy(
            update={"format": FORMAT_VERSION, "sessions": sessions, "saved_at": now}
        )
        write_atomic(
            slot_path(saves, slot, WORLD_FILE),
            world.to_bytes(),
            fsync=fsync,
            backup=True,
            valid=world_is_valid,
        )
        if life is not None:
            files, unsaved = life_files(life)
            for warning in unsaved:
                log.warning("slot %r: %s", slot, warning)
            warnings.extend(unsaved)
            for file_name, raw in files:
                write_atomic(slot_path(saves, slot, file_name), raw, fsync=fsync)
        old = _old_meta(slot_path(saves, slot, META_FILE))
        meta = SlotMeta(
            name=name or (old.name if old else "") or slot,
            created=old.created if old and old.created else now,
            updated=now,
            play_time_s=world.clock,
            map_id=world.map_id,
            map_file=world.map_file,
            npc_count=len(world.npcs),
            player_name=world.player.name,
            game_version=game_version(),
        )
        write_atomic(slot_path(saves, slot, META_FILE), meta.to_bytes(), fsync=fsync)
        if thumbnail is not None:
            png = _thumbnail_png(thumbnail, warnings)
            if png is not None:
                write_atomic(slot_path(saves, slot, THUMBNAIL_FILE), png, fsync=fsync)
        if fsync:
            fsync_dir(path)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        message = f"could not save slot {slot!r}: {os_reason(exc)}{where}"
        log.error("%s", message)
        return SaveResult(False, slot, message, time.perf_counter() - started, warnings)
    return SaveResult(
        True, slot, f"saved {slot!r}", time.perf_counter() - started, warnings, sessions
    )


def ensure_meta(saves: Path, slot: str, map_id: str, map_file: str) -> None:
    """Give a slot that has none a `meta.json` (a slot `chat` began), so it lists with its
    map and another map is refused on it; a slot that has one is left alone."""
    path = slot_path(saves, slot, META_FILE)
    if path.exists():
        return
    meta = SlotMeta.fresh(slot, map_id, map_file)
    meta.game_version = game_version()
    try:
        write_atomic(path, meta.to_bytes())
    except OSError as exc:
        log.warning("could not write %s: %s", path, os_reason(exc))


def _old_meta(meta_path: Path) -> SlotMeta | None:
    try:
        raw, _ = migrate("meta", _read_json(meta_path))
        return SlotMeta.model_validate(raw)
    except (OSError, ValueError, ValidationError, SaveError):
        return None


def _thumbnail_png(thumbnail: Frame | bytes, warnings: list[str]) -> bytes | None:
    if isinstance(thumbnail, bytes):
        return thumbnail
    try:
        return encode_png(thumbnail)
    except (OSError, ValueError) as exc:  # a bad frame never fails the save
        warnings.append(f"no thumbnail: {describe_error(exc)}")
        return None


@cache
def game_version() -> str:
    """The installed game's version ("" if unknown)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("npc-village")
    except PackageNotFoundError:
        return ""
