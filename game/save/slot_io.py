"""Reading and writing one save slot.

`read_slot` never trusts the disk: every file is read within its size bound and parsed
with a bounded depth; a damaged `meta.json` is rebuilt, a damaged or missing `world.json`
falls back to `world.json.bak`, a damaged news, board or feelings file is an empty part
of the village's life (a bad record in one costs that record), an old format is
migrated, and every such repair is reported as a one-line warning. Only a slot written
by a newer game (or a path that is not a slot) is refused. `write_slot` flushes and
fsyncs every NPC log, reads back what it is about to write (never a file its load would
refuse), keeps what it could not read (`<file>.damaged`, `<file>.rejected`), then writes
`world.json` (keeping the previous one as `.bak`), the village's life (`news.json`,
`board.json`, `feelings.json`), `meta.json` and the thumbnail, each atomically; it returns
a `SaveResult` and never raises for a disk failure.

Both do blocking disk I/O: call them off the game thread.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from game.agent.store import SessionStore
from game.atomic import fsync_dir, write_atomic
from game.files import mb, os_reason, read_capped, read_summary
from game.limits import MAX_NAME_CHARS, MAX_SAVED_IDS, MAX_SUMMARY_CHARS
from game.paths import (
    META_FILE,
    NPCS_DIR,
    THUMBNAIL_FILE,
    WORLD_FILE,
    WORLD_SUMMARY_FILE,
    npc_events_file,
    npc_memory_file,
    slot_dir,
    slot_path,
    validate_id,
)
from game.safe_json import load_json
from game.save.errors import SaveError
from game.save.format import (
    BACKUP_SUFFIX,
    DAMAGED_SUFFIX,
    FORMAT_VERSION,
    SavedWorld,
    SlotMeta,
    describe_error,
    migrate,
    name_few,
)
from game.save.layout import bound_of
from game.save.life import Life, life_files, read_life, set_aside
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
        _read_npcs(saves, slot, npcs, data, large_log_bytes)
    for warning in data.warnings:
        log.warning("%s", warning)
    return data


def _read_npcs(saves: Path, slot: str, npcs: Path, data: SlotData, large_log_bytes: int) -> None:
    """Each NPC's summary; one warning for what in npcs/ is not an NPC, one for big logs."""
    strays: list[str] = []
    large: list[tuple[str, int]] = []
    for child in sorted(npcs.iterdir()):
        try:
            npc_id = validate_id(child.name, "NPC id")
        except ValueError:
            strays.append(child.name)
            continue
        summary = _read_text(npc_memory_file(saves, slot, npc_id), data)
        if summary:
            data.npc_summaries[npc_id] = summary
        try:
            size = npc_events_file(saves, slot, npc_id).stat().st_size
        except OSError:
            continue
        if size > large_log_bytes:
            large.append((npc_id, size))
    if strays:
        data.warnings.append(
            f"slot {slot!r}: ignoring {name_few(strays, 'entries')} in npcs/ (not NPC ids)"
        )
    if len(large) == 1:
        npc_id, size = large[0]
        data.warnings.append(
            f"slot {slot!r}: {npc_id}'s session log is {size / 2**20:.0f} MB; "
            "loading it may be slow"
        )
    elif large:
        data.warnings.append(
            f"slot {slot!r}: {len(large)} session logs are over {mb(large_log_bytes)} "
            f"({name_few([n for n, _ in large], 'NPCs')}); loading them may be slow"
        )


def _json_object(raw_bytes: bytes) -> dict[str, Any]:
    """The JSON object a slot file holds (ValueError: not UTF-8, not JSON, too deep)."""
    raw = load_json(raw_bytes.decode("utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
    return raw


def _read_meta(meta_path: Path, data: SlotData) -> tuple[SlotMeta | None, str]:
    """The slot's meta (None if missing or damaged) and "ok", "missing" or "damaged"."""
    try:
        raw, old = migrate("meta", _json_object(read_capped(meta_path, bound_of(META_FILE))))
        meta = SlotMeta.model_validate(raw)
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError, ValidationError) as exc:
        data.warnings.append(
            f"slot {data.slot!r}: meta.json is damaged ({describe_error(exc)}); "
            "it will be rewritten on the next save (and kept as meta.json.damaged)"
        )
        return None, "damaged"
    if old is not None:
        data.migrated_from = old
    return meta, "ok"


def parse_world(raw_bytes: bytes) -> tuple[SavedWorld, int | None]:
    """A `world.json`'s model and the format it was migrated from (None: current).

    ValueError or ValidationError when damaged; FormatTooNew when a newer game wrote it.
    """
    raw, old = migrate("world", _json_object(raw_bytes))
    for key in ("npcs", "sessions"):  # counted before a model is made of each entry
        entries = raw.get(key)
        if isinstance(entries, dict) and len(entries) > MAX_SAVED_IDS:
            raise ValueError(f"{key}: {len(entries):,} entries, more than {MAX_SAVED_IDS:,}")
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
    kept = (
        f" (the next save keeps it as {WORLD_FILE}{DAMAGED_SUFFIX})" if "damaged" in problem else ""
    )
    try:
        world, old = parse_world(read_capped(backup, bound_of(backup.name)))
    except (OSError, ValueError, ValidationError) as exc:
        reason = "is missing" if isinstance(exc, FileNotFoundError) else "is damaged too"
        data.warnings.append(
            f"slot {data.slot!r}: world.json {problem} and world.json.bak {reason}; "
            f"everyone starts at their map position{kept}"
        )
        return None
    data.from_backup = True
    data.warnings.append(
        f"slot {data.slot!r}: world.json {problem}; loaded the previous save (world.json.bak){kept}"
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
        world_path = slot_path(saves, slot, WORLD_FILE)
        meta_path = slot_path(saves, slot, META_FILE)
        # Both files are read back before either is written: never write what the next
        # load would refuse (a model_construct'ed world is checked here too).
        try:
            world_raw = world.model_copy(
                update={"format": FORMAT_VERSION, "sessions": sessions, "saved_at": now}
            ).to_bytes()
            saved, _ = parse_world(_within(world_raw, WORLD_FILE))
            old = _old_meta(meta_path)
            meta_raw = _meta_bytes(saved, old, name, slot, now)
        except (ValueError, ValidationError) as exc:
            message = (
                f"could not save slot {slot!r}: what it would write does not read back "
                f"({describe_error(exc)}); the previous save is kept"
            )
            log.error("%s", message)
            return SaveResult(False, slot, message, time.perf_counter() - started, warnings)
        guarded = partial(write_atomic, fsync=fsync, damaged=True)  # an unreadable one kept aside
        guarded(
            world_path, world_raw, backup=True, valid=world_is_valid, limit=bound_of(WORLD_FILE)
        )
        if life is not None:
            files, unsaved = life_files(life)
            warnings.extend(unsaved)
            for file in files:
                file_path = slot_path(saves, slot, file.name)
                kept = set_aside(file_path, file.model, file.rejected, fsync=fsync)
                if kept is not None:
                    warnings.append(kept)
                write_atomic(file_path, file.data, fsync=fsync)
            for warning in warnings:
                log.warning("slot %r: %s", slot, warning)
        guarded(meta_path, meta_raw, valid=_meta_is_valid, limit=bound_of(META_FILE))
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


def _within(raw: bytes, name: str) -> bytes:
    """`raw` if a load would read a file of its size, else ValueError."""
    if len(raw) > bound_of(name):
        raise ValueError(f"{name} would be {mb(len(raw))}, more than the {mb(bound_of(name))} read")
    return raw


def _meta_bytes(
    world: SavedWorld, old: SlotMeta | None, name: str | None, slot: str, now: float
) -> bytes:
    """The new meta.json, read back as a load would (ValueError, ValidationError)."""
    meta = SlotMeta(
        name=(name or (old.name if old else "") or slot)[:MAX_NAME_CHARS],
        created=old.created if old and old.created else now,
        updated=now,
        play_time_s=world.clock,
        map_id=world.map_id,
        map_file=world.map_file,
        npc_count=len(world.npcs),
        player_name=world.player.name,
        game_version=game_version(),
    )
    raw = _within(meta.to_bytes(), META_FILE)
    _parse_meta(raw)
    return raw


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


def _parse_meta(raw_bytes: bytes) -> SlotMeta:
    raw, _ = migrate("meta", _json_object(raw_bytes))
    return SlotMeta.model_validate(raw)


def _meta_is_valid(raw_bytes: bytes) -> bool:
    try:
        _parse_meta(raw_bytes)
    except (ValueError, ValidationError, SaveError):
        return False
    return True


def _old_meta(meta_path: Path) -> SlotMeta | None:
    try:
        return _parse_meta(read_capped(meta_path, bound_of(META_FILE)))
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
