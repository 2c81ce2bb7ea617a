"""The game's side of saving: restore on open, save and load while playing, autosave.

The current slot belongs to the agent runtime (`AgentRuntime.slot`); the keeper asks it
to change (`switch_slot`) and reads it, and keeps no copy.

Threads: the game thread owns the `World`. A save takes a snapshot of it there (a small
model of tiles, facing, the clock and the time of day, and a copy of the news, boards
and feelings: microseconds) and hands everything else to the agent loop
(`AgentLoop.submit`), which serialises saves and loads with one lock and runs the disk
work (flush and fsync of every NPC log, `world.json`, the news, board and feelings files,
`meta.json`, the PNG thumbnail) on a saver thread. A save without a slot goes to the
runtime's slot as it is when the save runs, after any "save as" asked before it. A load
or a "save as" switches the runtime to the new slot, which first stops the turns in
flight, so no turn straddles two slots; the NPCs' provider input is rebuilt from that
slot's logs on their next turn. The game thread reads `slot` (the runtime's, one
attribute) and `name` for the menus.

Loading restores the world; it never rewrites NPC logs (they are append-only), so NPCs
keep remembering what happened after the save they were loaded from.

The keeper knows the agent side only through `AgentLoop` and `SlotRuntime`, which
`game.bridge.AgentThread` and `game.agent.loop.AgentRuntime` satisfy; `game.village`
hands them over.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar

from game.agent.store import SessionStore
from game.files import os_reason
from game.paths import npc_events_file, validate_id
from game.save.catalog import SlotInfo, copy_npc_files, list_slots, new_slot_id
from game.save.errors import SaveError, SlotNotFound
from game.save.format import SavedWorld, describe_error
from game.save.life import Life, snapshot_life
from game.save.lock import SlotLock
from game.save.slot_io import SaveResult, SlotData, read_slot, write_slot
from game.save.thumbnail import Frame
from game.save.world_state import apply_slot, check_map, snapshot_world
from game.world.world import World

__all__ = [
    "AgentLoop",
    "LoadResult",
    "SlotKeeper",
    "SlotRuntime",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

NOTICE_S = 4.0
ERROR_NOTICE_S = 10.0
LOAD_TIMEOUT_S = 20.0


class AgentLoop(Protocol):
    """Where the keeper's agent-side work runs (`game.bridge.AgentThread`)."""

    @property
    def running(self) -> bool:
        """Whether the loop still runs."""
        ...

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run a coroutine on the agent loop, from any thread."""
        ...


class SlotRuntime(Protocol):
    """What the keeper asks of the agent runtime (`game.agent.loop.AgentRuntime`).

    `slot` may be read from any thread; the rest is called on the agent loop only.
    """

    @property
    def slot(self) -> str:
        """The current slot."""
        ...

    async def switch_slot(
        self, slot: str, *, prepare: Callable[[], Awaitable[object]] | None = None
    ) -> None:
        """Stop the turns in flight, run `prepare`, flush, and make `slot` current."""
        ...

    def store(self, slot: str) -> SessionStore:
        """The session store of a slot."""
        ...

    def set_world_summary(self, slot: str, text: str) -> None:
        """Replace the world summary of a slot."""
        ...

    def set_npc_summary(self, slot: str, npc_id: str, text: str) -> None:
        """Replace one NPC's remembered summary in a slot."""
        ...


@dataclass
class LoadResult:
    """How a load went: `ok`, a one-line `message`, and any `warnings`."""

    ok: bool
    slot: str
    message: str
    warnings: list[str] = field(default_factory=list)


# --- the keeper ------------------------------------------------------------------------


class SlotKeeper:
    """Saves and loads the slots of one running game; the UI talks to this."""

    def __init__(
        self,
        world: World,
        runtime: SlotRuntime,
        thread: AgentLoop,
        saves: Path,
        *,
        data: SlotData | None = None,
        autosave_s: float = 300.0,
        lock: SlotLock | None = None,
    ) -> None:
        self.world = world
        self.runtime = runtime
        self.thread = thread
        self.saves = Path(saves)
        slot = runtime.slot
        # The slot's display name: set on the game thread by a load, on the agent loop by
        # a "save as" once the runtime switched; the menus read it.
        self.name = data.meta.name if data is not None else slot
        self.autosave_s = autosave_s
        self.last_result: SaveResult | None = None
        self._npc_ids = list(world.npcs)
        self._since_save = 0.0
        # The newest save's future (the UI shows its result when it is done).
        self.pending: concurrent.futures.Future[SaveResult] | None = None
        self._status: tuple[str, float] | None = None
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="saves")
        self._lock: asyncio.Lock | None = None
        # The OS lock of the slot in play: no other process writes it while we do. A load
        # or a "save as" takes the new slot's before switching and lets the old one go.
        self.slot_lock = lock
        self._closed = False
        if data is not None and data.warnings:
            self._tell(data.warnings[0], error=True)
        # The agent side reads the slot's summaries and warms the NPC logs in the background.
        self.thread.submit(self._prime(slot, data))

    # --- game thread -------------------------------------------------------------------

    @property
    def slot(self) -> str:
        """The slot in play: the runtime's (any thread may read it)."""
        return self.runtime.slot

    @property
    def saving(self) -> bool:
        """True while a save is being written."""
        return self.pending is not None and not self.pending.done()

    def save(
        self,
        thumbnail: Frame | bytes | None = None,
        *,
        slot: str | None = None,
        name: str | None = None,
        auto: bool = False,
    ) -> concurrent.futures.Future[SaveResult]:
        """Save to the current slot (or to `slot`, which becomes current); returns at once.

        The current slot is taken when the save runs on the agent loop, so a quick-save
        right after a "save as" goes to the new slot too.
        """
        state = snapshot_world(self.world)
        life = snapshot_life(self.world)  # copied: the world moves on while it is written
        target = None if slot is None else validate_id(slot, "slot name")
        self._since_save = 0.0
        fut = self.thread.submit(self._save(target, state, life, thumbnail, name))
        self.pending = fut
        fut.add_done_callback(partial(self._saved, auto))
        return fut

    def save_as_new(
        self, thumbnail: Frame | bytes | None = None
    ) -> concurrent.futures.Future[SaveResult]:
        """Save into a new slot (`save-N`) and keep playing there."""
        return self.save(thumbnail, slot=new_slot_id(self.saves))

    def load(self, slot: str) -> LoadResult:
        """Load a slot now: the game thread waits (a menu action), the game keeps running."""
        try:
            slot = validate_id(slot, "slot name")
            data = self.thread.submit(self._load(slot)).result(timeout=LOAD_TIMEOUT_S)
        except (SaveError, ValueError) as exc:
            return self._failed_load(str(slot), str(exc))
        except concurrent.futures.TimeoutError:
            return self._failed_load(str(slot), f"loading {slot!r} took too long")
        except Exception as exc:  # the game keeps running whatever went wrong
            log.exception("loading %s failed", slot)
            return self._failed_load(str(slot), f"could not load {slot!r}: {exc}")
        warnings = [*data.warnings, *apply_slot(self.world, data)]
        self.name = data.meta.name or slot
        self._since_save = 0.0
        message = f"loaded {self.name!r}"
        self._tell(warnings[0] if warnings else message, error=bool(warnings))
        return LoadResult(True, slot, message, warnings)

    def _failed_load(self, slot: str, message: str) -> LoadResult:
        self._tell(message, error=True)
        return LoadResult(False, slot, message)

    def list_slots(self) -> list[SlotInfo]:
        """Every slot, newest first (for the load list)."""
        try:
            return list_slots(self.saves)
        except SaveError as exc:
            self._tell(str(exc), error=True)
            return []

    def autosave_due(self, dt: float) -> bool:
        """Advance the autosave timer by `dt` of play; True when an autosave should run now."""
        if self.autosave_s <= 0 or self._closed:
            return False
        self._since_save += dt
        if self._since_save < self.autosave_s or self.saving:
            return False
        self._since_save = 0.0
        return True

    def notice(self) -> str | None:
        """The latest save/load message while it is fresh, else None."""
        status = self._status
        if status is None or time.monotonic() > status[1]:
            return None
        return status[0]

    def close(self, *, save: bool = True, timeout: float = 5.0) -> SaveResult | None:
        """Save (autosave on quit) and stop the saver thread. Never hangs longer than `timeout`."""
        if self._closed:
            return None
        result: SaveResult | None = None
        if save and self.thread.running:
            try:
                result = self.save(auto=True).result(timeout=timeout)
            except concurrent.futures.TimeoutError:
                log.error("the save on quit did not finish within %.0f s", timeout)
            except Exception as exc:  # `_saved` has said it in one line
                log.debug("the save on quit failed: %s", describe_error(exc))
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        return result

    def _tell(self, message: str, *, error: bool = False) -> None:
        self._status = (message, time.monotonic() + (ERROR_NOTICE_S if error else NOTICE_S))

    def _saved(self, auto: bool, fut: concurrent.futures.Future[SaveResult]) -> None:
        try:
            result = fut.result()
        except Exception as exc:  # an unexpected bug: say so in one line, keep playing
            log.debug("save failed", exc_info=True)  # the traceback: debug logs only
            result = SaveResult(False, self.slot, f"could not save: {describe_error(exc)}")
            log.error("%s", result.message)
        self.last_result = result
        if result.ok:
            self._tell(("autosaved " if auto else "saved ") + repr(self.name))
        else:
            self._tell(result.message, error=True)

    # --- agent loop --------------------------------------------------------------------

    def _guard(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._pool, partial(fn, *args))

    async def _save(
        self,
        target: str | None,
        state: SavedWorld,
        life: Life,
        thumbnail: Frame | bytes | None,
        name: str | None,
    ) -> SaveResult:
        async with self._guard():
            rt = self.runtime
            if target is None:
                target = rt.slot
            elif target != rt.slot:
                # Save as: the runtime stops the old slot's turns, the logs are copied,
                # and only then does the runtime write into the new slot.
                source = rt.slot
                copy = partial(
                    self._run, copy_npc_files, self.saves, source, target, rt.store(source)
                )
                try:
                    lock = self._take(target)
                except SaveError as exc:
                    return SaveResult(False, target, f"could not save as {target!r}: {exc}")
                try:
                    await rt.switch_slot(target, prepare=copy)
                except (SaveError, OSError) as exc:
                    # The runtime stays on the slot it had, and so does the game.
                    self._keep(lock, False)
                    reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
                    return SaveResult(False, target, f"could not save as {target!r}: {reason}")
                self._keep(lock, True)
                self.name = name or target
                data = await self._run(read_slot, self.saves, target)
                await self._prime(target, data)
            store = rt.store(target)
            result: SaveResult = await self._run(
                partial(
                    write_slot,
                    self.saves,
                    target,
                    state,
                    store=store,
                    thumbnail=thumbnail,
                    name=name,
                    life=life,
                )
            )
            return result

    async def _load(self, slot: str) -> SlotData:
        async with self._guard():
            data: SlotData = await self._run(read_slot, self.saves, slot)
            if not data.exists:
                raise SlotNotFound(f"no slot named {slot!r}")
            check_map(data, self.world.map.map_id)
            lock = self._take(slot)
            try:
                await self.runtime.switch_slot(slot)
            except BaseException:
                self._keep(lock, False)
                raise
            self._keep(lock, True)
            await self._prime(slot, data)
            return data

    def _take(self, slot: str) -> SlotLock | None:
        """The lock of the slot to switch to (None: the one held already); SlotBusy if
        another process has it."""
        held = self.slot_lock
        if held is None or held.slot == slot:
            return None
        return SlotLock(self.saves, slot, held.holder).acquire()

    def _keep(self, lock: SlotLock | None, switched: bool) -> None:
        """After a switch: hold the new slot's lock and let the old go (or, when the switch
        failed, let the new one go)."""
        if lock is None:
            return
        if not switched:
            lock.release()
            return
        old, self.slot_lock = self.slot_lock, lock
        if old is not None:
            old.release()

    def release(self) -> None:
        """Let the slot's lock go (when the game has closed and flushed everything)."""
        if self.slot_lock is not None:
            self.slot_lock.release()

    async def _prime(self, slot: str, data: SlotData | None) -> None:
        """Give the runtime the slot's summaries and read each NPC's newest events."""
        rt = self.runtime
        if data is not None:
            rt.set_world_summary(slot, data.world_summary)
            for npc_id in self._npc_ids:
                rt.set_npc_summary(slot, npc_id, data.npc_summaries.get(npc_id, ""))
        store = rt.store(slot)
        known = [n for n in self._npc_ids if _has_log(store, n)]
        try:
            duplicates: list[str] = await self._run(_warm, store, known, data)
        except OSError as exc:
            log.warning("could not read the NPC logs of %s: %s", slot, exc)
            return
        for npc_id in duplicates:
            # memory/summary.txt is a copy of the newest summary event: inject it once.
            rt.set_npc_summary(slot, npc_id, "")


def _has_log(store: SessionStore, npc_id: str) -> bool:
    return npc_events_file(store.saves_dir, store.slot, npc_id).is_file()


def _warm(store: SessionStore, npc_ids: list[str], data: SlotData | None) -> list[str]:
    """Load each NPC's tail now (saver thread), so its first turn does not wait for the disk."""
    duplicates: list[str] = []
    for npc_id in npc_ids:
        store.recent(npc_id)
        summary = store.summary(npc_id)
        memory = data.npc_summaries.get(npc_id, "") if data is not None else ""
        if summary is not None and memory and memory.strip() == summary.text.strip():
            duplicates.append(npc_id)
    return duplicates
