"""The agent runtime: the NPCs it knows, their lanes, their stores, and their turns.

`AgentRuntime.run_turn` runs one turn now (`game.agent.turn` drives it to exactly one
typed outcome); `submit` runs turns through the lanes (per-NPC serial queues with
priorities and idle coalescing); a global limiter bounds concurrent provider calls.

The runtime owns the current save slot (`slot`): turns are written there, and only
`switch_slot` changes it, after the old slot's turns are over, so no turn straddles two
slots. It also runs the compactor of the current slot (`start_compaction`).

The runtime lives on the agent thread's event loop; nothing here blocks a frame. Any
thread may read `slot` (one attribute, replaced in one assignment); everything else is
the agent loop's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from game.agent.bus import DebugBus
from game.agent.context import ContextBuilder, NpcProfile
from game.agent.errors import RuntimeClosed, UnknownNpc
from game.agent.lanes import Lanes, PriorityLimiter
from game.agent.memory import Compactor
from game.agent.outcomes import Cancelled, NpcStatus, TurnOutcome
from game.agent.permissions import PermissionGate
from game.agent.providers.base import Provider, ProviderRequest, ToolSpec
from game.agent.runner import ToolRunner
from game.agent.store import PUBLISHED, SessionStore
from game.agent.tools import ToolRegistry
from game.agent.trigger import Trigger
from game.agent.turn import Turn
from game.files import read_summary
from game.limits import MAX_SUMMARY_CHARS
from game.paths import WORLD_SUMMARY_FILE, npc_memory_file, slot_path, validate_id

__all__ = ["AgentRuntime"]

log = logging.getLogger(__name__)

# A queued turn: its slot, its trigger, and who answers it (None: the runtime's provider).
_Job = tuple[str, Trigger, Provider | None]
SETTLE_S = 5.0  # how long a slot switch waits for the old slot's turns to end


class AgentRuntime:
    """Runs NPC turns: the tool loop, the lanes, the stores and the debug bus."""

    def __init__(
        self,
        saves_dir: Path,
        *,
        slot: str = "default",
        provider: Provider,
        registry: ToolRegistry,
        gate: PermissionGate | None = None,
        context: ContextBuilder | None = None,
        max_steps: int = 8,
        turn_timeout_s: float = 60.0,
        max_concurrent: int = 4,
        bus: DebugBus | None = None,
        provider_for: Callable[[Trigger], Provider] | None = None,
        on_text_delta: Callable[[str, str, str], None] | None = None,
        max_queue: int = 16,
        delta_interval_s: float = 0.05,
    ) -> None:
        self.saves_dir = Path(saves_dir)
        self._slot = validate_id(slot, "slot id")
        self.provider = provider
        self.registry = registry
        self.gate = gate if gate is not None else PermissionGate()
        self.runner = ToolRunner(registry, self.gate)
        self.context = context if context is not None else ContextBuilder()
        self.max_steps = max(1, max_steps)
        self.turn_timeout_s = turn_timeout_s
        self.bus = bus if bus is not None else DebugBus()
        self.provider_for = provider_for
        self.on_text_delta = on_text_delta
        self.delta_interval_s = delta_interval_s
        self.limiter = PriorityLimiter(max_concurrent)
        self.lanes: Lanes[TurnOutcome] = Lanes(
            self._run_job, max_queue=max_queue, dropped=self._dropped
        )
        self._npcs: dict[str, tuple[NpcProfile, Any]] = {}
        self._stores: dict[str, SessionStore] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._turns: dict[str, Turn] = {}
        self._world_summaries: dict[str, str] = {}
        self._npc_summaries: dict[tuple[str, str], str] = {}
        self._closed = False
        self.compactor: Compactor | None = None
        self._detach_compactor: Callable[[], None] | None = None

    # --- setup -------------------------------------------------------------------------

    def register_npc(self, profile: NpcProfile, deps: Any = None) -> None:
        """Make an NPC known; `deps` reaches its tools as `ToolContext.deps`."""
        validate_id(profile.npc_id, "NPC id")
        self._npcs[profile.npc_id] = (profile, deps)

    @property
    def slot(self) -> str:
        """The current save slot: where NPC turns are written.

        Only `switch_slot` changes it, on the agent loop. Any thread may read it: a reader
        elsewhere sees the old slot or the new one, and the new one only once the switch
        is done.
        """
        return self._slot

    async def switch_slot(
        self,
        slot: str,
        *,
        prepare: Callable[[], Awaitable[object]] | None = None,
        settle_s: float = SETTLE_S,
    ) -> None:
        """Make `slot` the current slot (on the agent loop); no turn straddles two slots.

        Queued turns are dropped and running ones cancelled, and the switch waits (at most
        `settle_s`) until they are over. Then `prepare` runs (a "save as" copies the old
        slot's logs into the new one), the old slot's store is flushed, and `slot` becomes
        current: turns and the compactor write there from now on. If `prepare` raises,
        the runtime stays on the old slot and the error propagates.
        """
        slot = validate_id(slot, "slot id")
        await self._settle(settle_s)
        if prepare is not None:
            await prepare()
        try:
            self.store(self._slot).flush()
        except OSError as exc:
            log.warning("could not flush the session store of slot %s: %s", self._slot, exc)
        self._slot = slot

    def start_compaction(self, summarizer: Provider | None = None) -> Compactor:
        """Compact each NPC's history in the current slot after its turns (agent loop)."""
        if self.compactor is None:
            self.compactor = Compactor(self, summarizer=summarizer)
            self._detach_compactor = self.compactor.attach()
        return self.compactor

    def stop_compaction(self) -> None:
        """Start no more compactions (those running finish)."""
        if self._detach_compactor is not None:
            self._detach_compactor()
            self._detach_compactor = None

    def profile(self, npc_id: str) -> NpcProfile:
        """The registered profile of an NPC (UnknownNpc if none)."""
        return self._entry(npc_id)[0]

    def store(self, slot: str) -> SessionStore:
        """The session store of a save slot (one per slot, created on first use)."""
        store = self._stores.get(slot)
        if store is None:
            store = self._stores[slot] = SessionStore(self.saves_dir, slot)
        return store

    def set_world_summary(self, slot: str, text: str) -> None:
        """Replace the world summary injected into every NPC's prompt in `slot`."""
        self._world_summaries[slot] = text

    def set_npc_summary(self, slot: str, npc_id: str, text: str) -> None:
        """Replace one NPC's remembered summary in `slot`."""
        self._npc_summaries[(slot, npc_id)] = text

    # --- turns -------------------------------------------------------------------------

    async def run_turn(
        self, slot: str, npc_id: str, trigger: Trigger, *, provider: Provider | None = None
    ) -> TurnOutcome:
        """Run one turn now on the caller's loop (after the NPC's running turn, if any);
        `provider`: who answers this turn instead of the runtime's provider."""
        self._check(slot, npc_id)
        async with self._lock(npc_id):
            if self._closed:
                raise RuntimeClosed("the agent runtime is closed")
            return await self._run_locked(slot, npc_id, trigger, provider)

    def submit(
        self, slot: str, npc_id: str, trigger: Trigger, *, provider: Provider | None = None
    ) -> asyncio.Future[TurnOutcome]:
        """Queue a turn on the NPC's lane (call on the agent loop's thread); `provider`:
        who answers this turn instead of the runtime's provider (never coalesced)."""
        self._check(slot, npc_id)
        if self._closed:
            raise RuntimeClosed("the agent runtime is closed")
        kind = trigger.kind if provider is None else f"{trigger.kind}:{provider.name}"
        return self.lanes.submit(
            npc_id, (slot, trigger, provider), priority=trigger.priority, kind=kind
        )

    def cancel(self, npc_id: str) -> bool:
        """Cancel the NPC's running turn (it ends `Cancelled`, partial text kept)."""
        turn = self._turns.get(npc_id)
        if turn is None or turn.task is None or turn.task.done():
            return False
        turn.stop("cancelled")
        return True

    def prime(self, slot: str, npc_id: str, trigger: Trigger) -> bool:
        """Let the provider read the NPC's context ahead of a turn for `trigger` (the player
        has opened the talk box and is typing): the request that turn would send, the
        line itself left empty. Nothing is recorded. False when the provider cannot."""
        self._check(slot, npc_id)
        provider = self.provider_for(trigger) if self.provider_for else self.provider
        if not provider.capabilities.can_prime or self._closed:
            return False
        profile = self._entry(npc_id)[0]
        provider.prime(self.next_request(slot, profile, self.registry.specs(), then=trigger))
        return True

    def build_request(self, slot: str, npc_id: str) -> ProviderRequest:
        """What the NPC's next step would send, replayed from its log."""
        return self.next_request(slot, self._entry(npc_id)[0], self.registry.specs())

    def next_request(
        self,
        slot: str,
        profile: NpcProfile,
        tools: list[ToolSpec],
        *,
        then: Trigger | None = None,
    ) -> ProviderRequest:
        """The provider input of `profile`'s next step in `slot`, replayed from its log
        (and, for a look ahead, a trigger `then` that is not recorded)."""
        store = self.store(slot)
        events = store.recent(profile.npc_id)
        return self.context.build(
            profile,
            events if then is None else [*events, then.to_event()],
            tools,
            world_summary=self._world_summary(slot),
            npc_summary=self._npc_summary(slot, profile.npc_id),
            summary=store.summary(profile.npc_id),  # known to the store: no scan
        )

    def status(self, npc_id: str) -> NpcStatus:
        """The NPC's activity for the inspector."""
        depth = self.lanes.depth(npc_id)
        turn = self._turns.get(npc_id)
        if turn is not None:
            return NpcStatus(turn.activity, depth, turn.run_id, turn.step)
        return NpcStatus("queued" if depth else "idle", depth)

    async def aclose(self) -> None:
        """Drop queued turns, cancel running ones, flush every store."""
        self._closed = True
        self.stop_compaction()
        self.lanes.clear(reason="closed")
        for turn in list(self._turns.values()):
            turn.stop("shutdown")
        await self.lanes.aclose()
        running = [t.task for t in self._turns.values() if t.task is not None]
        if running:
            await asyncio.wait(running)
        for store in self._stores.values():
            try:
                store.close()
            except OSError as exc:  # the turn that lost its lines has said so already
                log.error(
                    "could not flush the session store of slot %s: %s",
                    store.slot,
                    exc,
                    extra=PUBLISHED,
                )

    # --- internals ---------------------------------------------------------------------

    def _entry(self, npc_id: str) -> tuple[NpcProfile, Any]:
        entry = self._npcs.get(npc_id)
        if entry is None:
            raise UnknownNpc(f"no NPC {npc_id!r} is registered with the agent runtime")
        return entry

    async def _settle(self, settle_s: float) -> None:
        """Drop queued turns, stop running ones, and wait (a little) until all are over."""
        npc_ids = list(self._npcs)
        self.lanes.clear(reason="slot change")
        for npc_id in npc_ids:
            self.cancel(npc_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settle_s
        while loop.time() < deadline and any(
            self.lanes.busy(n) or self.status(n).state != "idle" for n in npc_ids
        ):
            await asyncio.sleep(0.01)

    def _lock(self, npc_id: str) -> asyncio.Lock:
        lock = self._locks.get(npc_id)
        if lock is None:
            lock = self._locks[npc_id] = asyncio.Lock()
        return lock

    def _check(self, slot: str, npc_id: str) -> None:
        validate_id(slot, "slot id")
        self._entry(npc_id)

    def _world_summary(self, slot: str) -> str:
        text = self._world_summaries.get(slot)
        if text is None:
            path = slot_path(self.saves_dir, slot, WORLD_SUMMARY_FILE)
            text = self._world_summaries[slot] = _read_summary(slot, path)
        return text

    def _npc_summary(self, slot: str, npc_id: str) -> str:
        """memory/summary.txt (or what set_npc_summary gave), then the newest summary event."""
        text = self._npc_summaries.get((slot, npc_id))
        if text is None:
            path = npc_memory_file(self.saves_dir, slot, npc_id)
            text = self._npc_summaries[(slot, npc_id)] = _read_summary(slot, path)
        event = self.store(slot).summary(npc_id)
        told = event.text.strip()[:MAX_SUMMARY_CHARS] if event is not None else ""
        if told:
            return f"{text}\n\n{told}" if text else told
        return text

    async def _run_job(self, npc_id: str, payload: _Job) -> TurnOutcome:
        slot, trigger, provider = payload
        return await self.run_turn(slot, npc_id, trigger, provider=provider)

    def _dropped(self, payload: _Job, reason: str) -> TurnOutcome:
        return Cancelled(run_id="", reason=reason)

    async def _run_locked(
        self, slot: str, npc_id: str, trigger: Trigger, provider: Provider | None = None
    ) -> TurnOutcome:
        profile, deps = self._entry(npc_id)
        turn = Turn(self, self.store(slot), slot, profile, deps, trigger, provider)
        self._turns[npc_id] = turn
        task = asyncio.get_running_loop().create_task(turn.run(), name=f"turn:{npc_id}")
        turn.task = task
        try:
            done, _ = await asyncio.wait({task}, timeout=self.turn_timeout_s)
            if not done:
                turn.stop("timeout")
                await asyncio.wait({task})
        except asyncio.CancelledError:
            # Our caller was cancelled: end the turn cleanly, then let the cancel through.
            turn.stop("aborted")
            await asyncio.wait({task})
            raise
        finally:
            if self._turns.get(npc_id) is turn:
                del self._turns[npc_id]
        return task.result()


def _read_summary(slot: str, path: Path) -> str:
    """The summary file's text within its bound; what was wrong with it, one warning line."""
    text, problem = read_summary(path)
    if problem is not None:
        log.warning("slot %r: %s", slot, problem)
    return text
