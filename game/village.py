"""Assemble a playable village: map -> world, agent thread, runtime, NPC agents, brain.

The window and the headless runner both start from `Village.open(...)`, so tests exercise
exactly what a player runs.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from game.agent.history import Line, conversation
from game.agent.loop import AgentRuntime
from game.agent.memory import summarizer_for
from game.agent.monitor import Snapshot, TurnMonitor, take_snapshot
from game.agent.providers.base import Provider, ProviderRequest, ProviderStream
from game.agent.providers.fallback import FallbackProvider
from game.agent.trigger import Trigger
from game.assets import load_game_map
from game.bridge import AgentThread, Mailbox
from game.config import Settings
from game.npc.agents import NpcAgents
from game.npc.brain import Brain
from game.npc.pace import IdleSettings
from game.npc.scripted.persona import PersonaProvider
from game.npc.skills import build_registry
from game.paths import saves_dir as default_saves_dir
from game.paths import validate_id
from game.providers import select_provider
from game.save.keeper import SlotKeeper
from game.save.lock import SlotLock
from game.save.slot_io import SaveResult
from game.save.thumbnail import Frame
from game.save.world_state import restore_world
from game.text import clean_text
from game.world.planner import Planner
from game.world.tiled import MapData
from game.world.world import World

if TYPE_CHECKING:
    from game.agent.providers.local.client.provider import LocalLlamaProvider

Progress = Callable[[float, str], None]


class WithModel(Provider):
    """A provider that asks for a particular model (a model per trigger kind)."""

    def __init__(self, inner: Provider, model: str) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = model
        self.capabilities = inner.capabilities

    def stream(self, request: ProviderRequest) -> ProviderStream:
        """Stream from the inner provider with `model` set on the request."""
        return self.inner.stream(self._with_model(request))

    def prime(self, request: ProviderRequest) -> None:
        """Let the inner provider read ahead, for `model`."""
        self.inner.prime(self._with_model(request))

    async def primed(self) -> None:
        """Wait until the inner provider has read ahead."""
        await self.inner.primed()

    def _with_model(self, request: ProviderRequest) -> ProviderRequest:
        return request.model_copy(update={"model": self.model})


class Loading:
    """Progress of preparing a local model, readable from the game thread."""

    def __init__(self, also: Progress | None = None) -> None:
        self.also = also
        self.state: tuple[float, str] | None = None  # (fraction, what) while not ready

    def update(self, fraction: float, message: str) -> None:
        """Record progress (called from the model's worker thread)."""
        done = fraction >= 1.0
        self.state = None if done else (fraction, message)  # one assignment: thread-safe
        if self.also is not None:
            self.also(fraction, message)


SETTLE_TURNS = 5  # loop turns for handed-on outcomes to be written at close
HISTORY_EVENTS = 4000  # the newest events the talk panel's history is read from


@dataclass
class Providers:
    """The chosen provider, why, the fallback around it, and what it holds open."""

    primary: Provider  # the chosen model itself
    reason: str
    client: httpx.AsyncClient | None = None
    fallback: FallbackProvider | None = None  # the primary behind the scripted fallback

    @property
    def provider(self) -> Provider:
        """What the NPCs use: the fallback wrapper when there is one, else the primary."""
        return self.fallback if self.fallback is not None else self.primary

    def crash_line(self) -> str | None:
        """One line if the local model crashed where a player would notice, else None."""
        return self.primary.crash_line()

    def provider_for(self, settings: Settings) -> Callable[[Trigger], Provider] | None:
        """Per-trigger models from config (e.g. a cheaper model for idle chatter)."""
        if not settings.models_by_trigger or not self.provider.capabilities.remote:
            return None
        wrapped = {k: WithModel(self.provider, m) for k, m in settings.models_by_trigger.items()}
        return lambda trigger: wrapped.get(trigger.kind, self.provider)

    async def aclose(self) -> None:
        """Close the provider and the HTTP client."""
        await self.provider.aclose()
        if self.client is not None:
            await self.client.aclose()


def local_provider(model_path: Path | str | None = None, **options: Any) -> LocalLlamaProvider:
    """The embedded llama.cpp model (the bundled Gemma 3 270M, or the GGUF at `model_path`),
    whose base model plays the NPCs by the play script (`game.npc.play`)."""
    from game.agent.providers.local.client.provider import LocalLlamaProvider
    from game.npc.play.writer import EXAMPLES, chat_request, script_job

    return LocalLlamaProvider(
        model_path,
        scriptwriter=script_job,
        script_prefix=EXAMPLES,
        chatwriter=chat_request,
        **options,
    )


def make_local(settings: Settings, on_progress: Progress | None = None) -> Provider:
    """The embedded model as the settings choose it: `model` if it names a GGUF (a path,
    a catalogue name or an hf:// address), else the bundled one."""
    from game.agent.providers.local.catalogue import HF_PREFIX, find_model

    model = settings.model
    if model and not (model.endswith(".gguf") or model.startswith(HF_PREFIX) or find_model(model)):
        model = None  # a remote provider's model name
    return local_provider(model, on_progress=on_progress)


async def open_providers(settings: Settings, on_progress: Progress | None = None) -> Providers:
    """Choose the provider (call on the agent loop: the HTTP client belongs to it).

    Anything but the scripted brain is wrapped in a circuit breaker whose fallback is the
    scripted brain, so an NPC never freezes when a model fails.
    """
    client = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=10.0))
    try:
        chosen = select_provider(
            settings,
            client,
            make_local=lambda s: make_local(s, on_progress),
            make_scripted=lambda s: PersonaProvider(),
        )
    except BaseException:
        await client.aclose()
        raise
    primary = chosen.provider
    fallback = None if primary.name == "scripted" else FallbackProvider(primary, PersonaProvider())
    return Providers(primary, chosen.reason, client, fallback)


def village_world(map_data: MapData, settings: Settings) -> World:
    """The world of a map as the game plays it (a day lasts `day_minutes`): the window's
    and `chat`'s alike, before a slot is put in it."""
    return World(map_data, day_s=settings.day_minutes * 60)


@dataclass
class Village:
    """A world with living NPCs: the game thread owns `world` and `brain`.

    The current slot is the runtime's (`slot` reads it); the keeper (`saves`) switches it.
    """

    world: World
    brain: Brain
    agents: NpcAgents
    thread: AgentThread
    mailbox: Mailbox
    runtime: AgentRuntime
    providers: Providers
    loading: Loading
    saves: SlotKeeper | None = None
    monitor: TurnMonitor | None = None

    @classmethod
    def open(
        cls,
        map_path: Path,
        *,
        slot: str = "default",
        settings: Settings | None = None,
        provider: Provider | None = None,
        saves_dir: Path | None = None,
        on_progress: Progress | None = None,
        player_name: str | None = None,
    ) -> Village:
        """Load the map, start the agent thread and bind every NPC to its agent.

        `provider` (tests) bypasses selection; else `settings` choose it. A slot that
        exists is restored; `player_name` names the player of a new one.
        """
        slot = validate_id(slot, "slot")
        settings = settings or Settings(provider="scripted")
        world = village_world(load_game_map(map_path), settings)
        saves = default_saves_dir(saves_dir)
        lock = SlotLock(saves, slot, "the game").acquire()  # SlotBusy: another process has it
        try:
            saved = restore_world(world, saves, slot)  # SaveError: refused
        except BaseException:
            lock.release()
            raise
        if player_name and clean_text(player_name).strip():
            world.player.name = clean_text(player_name).strip()
        # The one way across the threads, pumped on the agent loop: calls cross by a
        # polled queue and outcomes come back the same way, never by a wake-up.
        mailbox = Mailbox()
        planner = Planner(world)  # paths are planned at the pump: no A* inside a frame
        mailbox.on_pump(planner.step, at_stop=planner.finish)
        world.plan_elsewhere()
        agents = NpcAgents(world, mailbox)
        thread = AgentThread().start()
        loading = Loading(on_progress)

        async def build() -> tuple[AgentRuntime, Providers]:
            chosen = (
                Providers(provider, "given")
                if provider is not None
                else await open_providers(settings, loading.update)
            )
            runtime = AgentRuntime(
                saves,
                slot=slot,
                provider=chosen.provider,
                provider_for=chosen.provider_for(settings),
                registry=build_registry(),
                on_text_delta=agents.on_text_delta,
                max_concurrent=settings.max_concurrent,
                turn_timeout_s=settings.turn_timeout_s,
            )
            runtime.start_compaction(summarizer_for(chosen.primary))
            return runtime, chosen

        try:
            runtime, chosen = thread.submit(build()).result(timeout=30)
        except BaseException:
            thread.stop()
            lock.release()
            raise
        agents.attach(runtime)
        # A model that answers one request at a time (the local one) thinks for one idle
        # NPC at a time; a remote one for as many as the runtime runs at once.
        idle = IdleSettings(
            enabled=settings.idle_chatter,
            max_in_flight=1 if chosen.primary.capabilities.serial else settings.max_concurrent,
        )
        brain = Brain(world, agents, mailbox, idle=idle)
        thread.submit(mailbox.run())
        world.defer_costly = True  # costly commands wait for a frame's spare time
        village = cls(world, brain, agents, thread, mailbox, runtime, chosen, loading)
        village.saves = SlotKeeper(
            world,
            runtime,
            thread,
            saves,
            data=saved,
            autosave_s=settings.autosave_minutes * 60,
            lock=lock,
        )
        if provider is None and chosen.primary.capabilities.needs_loading:
            # Prepare a local model now, in the background, with progress on screen.
            thread.submit(chosen.primary.load())
        return village

    @property
    def slot(self) -> str:
        """The slot in play: the runtime's (any thread may read it)."""
        return self.runtime.slot

    def save(self, thumbnail: Frame | bytes | None = None) -> concurrent.futures.Future[SaveResult]:
        """Save to the current slot: a snapshot now, the disk work off the game thread."""
        assert self.saves is not None
        return self.saves.save(thumbnail)

    def history(self, npc_id: str) -> concurrent.futures.Future[list[Line]]:
        """The player's conversation with an NPC until now, read on the agent thread."""
        now = time.time()

        async def read() -> list[Line]:
            rt = self.runtime
            events = rt.store(rt.slot).read(npc_id, last=HISTORY_EVENTS)
            return conversation(events, rt.registry.spoken(), before_ts=now)

        return self.thread.submit(read())

    def inspector_feed(
        self,
    ) -> tuple[TurnMonitor, Callable[[str, bool], concurrent.futures.Future[Snapshot]]]:
        """What the F3 inspector reads: bus records, and snapshots from the agent thread."""
        if self.monitor is None:
            self.monitor = TurnMonitor(self.runtime.bus)

        def snapshot(npc_id: str, with_context: bool) -> concurrent.futures.Future[Snapshot]:
            async def take() -> Snapshot:
                rt = self.runtime
                return take_snapshot(rt, rt.slot, npc_id, with_context=with_context)

            return self.thread.submit(take())

        return self.monitor, snapshot

    def notice(self) -> str | None:
        """A one-line notice for the screen (saves, provider trouble), if any."""
        saved = self.saves.notice() if self.saves is not None else None
        if saved is not None:
            return saved
        return self.providers.provider.notice

    def progress(self) -> tuple[float, str] | None:
        """(fraction, what) while a local model is being prepared; None when ready."""
        return self.loading.state

    def close(self) -> None:
        """Stop the agent thread: cancel turns, flush every NPC's log. Never hangs."""

        async def shutdown() -> None:
            self.runtime.stop_compaction()  # closing: the quit-save is written, no more summaries
            # A line the world has already said reaches its skill and is written down
            # before the turns are cancelled: the player saw it, so the history keeps it.
            self.mailbox.pump()
            for _ in range(SETTLE_TURNS):
                await asyncio.sleep(0)
            await self.runtime.aclose()
            await self.providers.aclose()

        if self.saves is not None:
            self.saves.close()  # autosave on quit
        self.thread.stop(shutdown)
        if self.saves is not None:
            self.saves.release()  # every log is flushed: another process may have the slot
