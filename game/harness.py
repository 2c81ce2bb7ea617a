"""One talk with the NPCs from outside the window: what `chat` and `eval` both run.

`Talk` binds a `World` and an `AgentRuntime` on one thread, as the tests do: while a turn
runs it steps the world and pumps the mailbox itself, so the skills' world outcomes cross
the way they do in the game. Each turn is the game's own trigger (the brain's `Cue` and
what the NPC senses at that moment, `trigger_for`), and comes back as a `TurnReport`:
every tool call with its arguments and result, what the NPC said, the calls that could not
even run, how the turn ended, its wall time, and how soon the first letter of the reply
came after the line was submitted.

The village's day is the game's own (`VillageLife`, as the brain keeps it): a turn senses
the hour, whether the NPC was just woken, the news it knows and from whom, and its
feelings (`VillageLife.sensed`); the plans say who sleeps, and a sleeping NPC spoken to
wakes grumbling; the lines said are read for news and feelings; NPCs near a notice board
read and post. Nobody walks a plan here: a talk lasts seconds, and keeps no one's place.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.agent.bus import BusEvent
from game.agent.loop import AgentRuntime
from game.agent.outcomes import Failed, TurnOutcome
from game.agent.providers.base import Provider, parse_arguments
from game.agent.runner import rejected
from game.agent.tools import ToolContext
from game.agent.trigger import Trigger
from game.bridge import Mailbox
from game.errors import UsageError
from game.npc.agents import profile_of
from game.npc.brain import NEAR_TILES, TALKING_S
from game.npc.cues import Cue, heard_cue, idle_cue, player_cue, trigger_for
from game.npc.life.life import VillageLife
from game.npc.skills import SAY, SkillDeps, build_registry, spoken
from game.world.commands import Say
from game.world.events import Spoke, WorldEvent
from game.world.world import World

DT = 1 / 60  # one world step, as a frame of the game
PARSE_ERROR_KINDS = ("parse", "tool")  # a turn that failed on what the model wrote
ASK_ANSWER_AFTER_S = 1.0  # game seconds the player takes to pick an answer (answer_asks)


@dataclass(frozen=True)
class Pace:
    """How the world keeps time while a turn runs: `steps` world steps of `DT`, a pump,
    then a sleep of `sleep_s`, so the model's process keeps the CPU between."""

    steps: int = 1
    sleep_s: float = 1 / 240


CHAT_PACE = Pace()  # a step per 4 ms: about four times real time, as `chat` always ran
FAST_PACE = Pace(steps=8, sleep_s=1 / 50)  # about 6.7 times real time in 50 wake-ups a second


@dataclass
class Call:
    """One tool call of a turn: as the model wrote it, and what came of it."""

    name: str
    arguments: str
    result: str | None = None
    is_error: bool = False
    rejected: str | None = None  # why it could not even run: unknown tool, bad arguments

    def args(self) -> dict[str, Any]:
        """The arguments as an object ({} when they did not parse as one)."""
        return parse_arguments(self.arguments)

    def text(self) -> str | None:
        """What the call says out loud (a `say`'s text, an `ask`'s question) if it ran."""
        if self.rejected is not None:
            return None
        key = spoken().get(self.name)
        value = self.args().get(key) if key else None
        return value.strip() if isinstance(value, str) and value.strip() else None


@dataclass
class TurnReport:
    """What one NPC did in one turn, and how long it took."""

    kind: str  # "player", "heard" or "idle"
    npc_id: str
    line: str | None = None  # the player's line, or the line overheard
    speaker: str | None = None  # who said `line` (an NPC id for an overheard line)
    calls: list[Call] = field(default_factory=list)
    said: list[str] = field(default_factory=list)  # each thing said, in order
    outcome: str = "final"
    error: str | None = None
    error_kind: str | None = None
    wall_s: float = 0.0
    first_letter_s: float | None = None
    npc_tile: tuple[int, int] = (0, 0)  # where the NPC and the player stood at the end
    player_tile: tuple[int, int] = (0, 0)
    answered: list[str] = field(default_factory=list)  # the player's picks of asks
    store_error: str | None = None  # why the turn could not be written to the slot's log
    notes: str = ""  # what the NPC sensed, as written for the model (not kept in transcripts)

    @property
    def parse_failures(self) -> int:
        """Calls that could not run as written, and a turn failed on what the model wrote."""
        failed = self.outcome == "failed" and self.error_kind in PARSE_ERROR_KINDS
        return sum(1 for c in self.calls if c.rejected is not None) + int(failed)

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON data (a transcript's turn)."""
        return {
            "kind": self.kind,
            "npc": self.npc_id,
            "line": self.line,
            "speaker": self.speaker,
            "calls": [
                {
                    "name": c.name,
                    "arguments": c.arguments,
                    "result": c.result,
                    "is_error": c.is_error,
                    "rejected": c.rejected,
                }
                for c in self.calls
            ],
            "said": self.said,
            "outcome": self.outcome,
            "error": self.error,
            "wall_s": round(self.wall_s, 3),
            "first_letter_s": (
                round(self.first_letter_s, 3) if self.first_letter_s is not None else None
            ),
            "npc_tile": list(self.npc_tile),
            "player_tile": list(self.player_tile),
            "answered": self.answered,
        }


class _Recording:
    """The turn being recorded: its calls and plain text in order, and the first letter."""

    def __init__(self, report: TurnReport, started: float) -> None:
        self.report = report
        self.started = started
        self.items: list[Call | list[str]] = []  # a call, or a run of plain text deltas
        self.by_id: dict[str, Call] = {}

    def letter(self) -> None:
        if self.report.first_letter_s is None:
            self.report.first_letter_s = time.perf_counter() - self.started

    def text(self, delta: str) -> None:
        if not self.items or not isinstance(self.items[-1], list):
            self.items.append([])
        last = self.items[-1]
        assert isinstance(last, list)
        last.append(delta)

    def said(self) -> list[str]:
        out: list[str] = []
        for item in self.items:
            text = "".join(item).strip() if isinstance(item, list) else item.text()
            if text:
                out.append(text)
        return out


class Talk:
    """A world and its NPCs' runtime in one slot, for talking to the NPCs turn by turn.

    `on_text(npc_id, run_id, delta)` and `on_say(call_id, delta)` see the reply as it
    streams (plain text, and a `say`'s text). `answer_asks`: the player picks the first
    answer of an NPC's question after `ASK_ANSWER_AFTER_S`, so a turn never waits out the
    question's timeout. `read_ahead`: before each player line the NPC's context is read
    ahead, as the game does while the player types, so the first letter counts from Enter.
    """

    def __init__(
        self,
        world: World,
        saves: Path,
        *,
        slot: str,
        provider: Provider,
        provider_for: Callable[[Trigger], Provider] | None = None,
        on_text: Callable[[str, str, str], None] | None = None,
        on_say: Callable[[str, str], None] | None = None,
        pace: Pace = CHAT_PACE,
        answer_asks: bool = False,
        read_ahead: bool = False,
    ) -> None:
        self.world = world
        self.pace = pace
        self.answer_asks = answer_asks
        self.read_ahead = read_ahead
        self._on_text = on_text
        self._on_say = on_say
        self._turn: _Recording | None = None
        self._idle = 0
        self._talked: dict[str, float] = {}  # NPC id -> when the player last spoke to it
        self.life = VillageLife(world, busy=self._busy, engaged=self._engaged, walks=False)
        self.mailbox = Mailbox()  # pumped by `_drive`, where the world steps
        self.runtime = AgentRuntime(
            saves,
            slot=slot,
            provider=provider,
            registry=build_registry(),
            provider_for=provider_for,
            on_text_delta=self._text_delta,
        )
        for npc_id in world.npcs:
            self.runtime.register_npc(
                profile_of(world, npc_id), deps=SkillDeps(world, self.mailbox.outcome)
            )
        say = self.runtime.registry.get(SAY.name)
        if say is not None:
            shown = say.on_stream  # the bubble still grows in the world

            def on_stream(ctx: ToolContext, delta: str) -> None:
                if shown is not None:
                    shown(ctx, delta)
                self._letter()
                if self._on_say is not None:
                    self._on_say(ctx.call_id, delta)

            say.on_stream = on_stream
        self._unsubscribe = self.runtime.bus.subscribe(self._record)

    # --- what the harness can do -------------------------------------------------------

    def npc(self, npc_id: str) -> None:
        """Check that an NPC is on the map (UsageError naming those that are)."""
        if npc_id not in self.world.npcs:
            known = ", ".join(sorted(self.world.npcs))
            raise UsageError(f"no NPC {npc_id!r} on this map; NPCs here: {known}")

    async def player_line(self, npc_id: str, text: str, *, face_to_face: bool = True) -> TurnReport:
        """The player says `text` to the NPC (standing face to face with it first, unless
        told to stay where they are) and the NPC takes its turn."""
        self.npc(npc_id)
        world = self.world
        self._live()  # who sleeps now, as the game would have it
        if face_to_face:
            world.stand_player_by(npc_id)  # a face-to-face talk, as in the game
        if self.read_ahead:  # as while the player types: the clock starts at Enter
            typing = self._trigger(npc_id, player_cue(world, ""))
            if self.runtime.prime(self.runtime.slot, npc_id, typing):
                await self.runtime.provider.primed()
        started = time.perf_counter()
        self._talked[npc_id] = world.clock
        self.life.wake(npc_id)  # as `Brain.player_talks`: asleep, it wakes grumbling
        world.player_said(text, to=world.npcs[npc_id].name)
        report = TurnReport("player", npc_id, line=text, speaker=world.player.name)
        return await self._turn_of(npc_id, player_cue(world, text), report, started)

    async def overheard(
        self, npc_id: str, speaker_id: str, text: str, *, to_npc: bool = False
    ) -> TurnReport:
        """Another NPC, standing by, says `text` to the player naming `npc_id` (or, with
        `to_npc`, to the NPC itself); the NPC hears it and takes its turn."""
        self.npc(npc_id)
        self.npc(speaker_id)
        if speaker_id == npc_id:
            raise UsageError(f"{npc_id!r} cannot overhear itself")
        started = time.perf_counter()
        world = self.world
        self._live()  # only the line below is looked for
        world.stand_by(world.npcs[speaker_id], npc_id)
        to = world.npcs[npc_id].name if to_npc else world.player.name
        said = world.submit(Say(speaker_id, text, target=to))
        while not said.done():
            world.step(DT)
        events = world.drain_events()
        self._heard(events)
        spoke = next((e for e in events if isinstance(e, Spoke) and e.text == text.strip()), None)
        npc = world.npcs[npc_id]
        cue = heard_cue(spoke, npc) if spoke and npc_id in spoke.heard_by else None
        if cue is None:
            raise UsageError(f"{npc.name} would not take {text!r} as said to or about them")
        report = TurnReport("heard", npc_id, line=text, speaker=speaker_id)
        return await self._turn_of(npc_id, cue, report, started)

    async def idle(self, npc_id: str, *, beside: str | None = None) -> TurnReport:
        """An idle tick: nobody needs the NPC; it may do something of its own (`beside`:
        another NPC stands next to it first)."""
        self.npc(npc_id)
        if beside is not None:
            self.npc(beside)
            self.world.stand_by(self.world.npcs[beside], npc_id)
        self._live()
        started = time.perf_counter()
        cue = idle_cue(self._idle)
        self._idle += 1
        return await self._turn_of(npc_id, cue, TurnReport("idle", npc_id), started)

    async def aclose(self) -> None:
        """End the runtime: queued turns dropped, running ones cancelled, logs flushed."""
        self._unsubscribe()
        await self.runtime.aclose()

    # --- the village's day ---------------------------------------------------------------

    def _busy(self, npc_id: str) -> bool:
        """Whether a turn of this NPC is under way."""
        return self._turn is not None and self._turn.report.npc_id == npc_id

    def _engaged(self, npc_id: str) -> bool:
        """Whether the player is with the NPC, as the brain judges it: spoke to it lately,
        or stands near."""
        world = self.world
        if world.clock - self._talked.get(npc_id, -math.inf) < TALKING_S:
            return True
        return world.distance(world.player, world.npcs[npc_id]) <= NEAR_TILES

    def _heard(self, events: list[WorldEvent]) -> None:
        """Lines said, read as the brain reads them: news and feelings from the player's."""
        for event in events:
            if isinstance(event, Spoke):
                self.life.spoken(event)

    def _live(self) -> None:
        """The village's day, as the brain keeps it each frame: the lines said since, and
        the look once a game second (who sleeps, the notice boards). The tellings that
        look finds are the brain's to start: a talk here is one NPC's."""
        self._heard(self.world.drain_events())
        self.life.update()

    # --- one turn ---------------------------------------------------------------------

    def _trigger(self, npc_id: str, cue: Cue) -> Trigger:
        """The trigger the game would hand over for `cue`: it, and what the NPC senses now
        with the facts of its day."""
        return trigger_for(cue, self.life.sensed(npc_id))

    async def _turn_of(
        self, npc_id: str, cue: Cue, report: TurnReport, started: float
    ) -> TurnReport:
        """The turn of a cue: the trigger the game would hand over (the cue, and what the
        NPC senses now), run while the world steps."""
        trigger = self._trigger(npc_id, cue)
        report.notes = trigger.perception or ""
        self._turn = _Recording(report, started)
        try:
            outcome = await self._drive(
                asyncio.ensure_future(self.runtime.run_turn(self.runtime.slot, npc_id, trigger)),
                report,
            )
        finally:
            recording, self._turn = self._turn, None
        report.said = recording.said()
        report.outcome = outcome.kind
        if isinstance(outcome, Failed):
            report.error, report.error_kind = outcome.error, outcome.error_kind
        report.wall_s = time.perf_counter() - started
        report.npc_tile = self.world.npcs[npc_id].tile
        report.player_tile = self.world.player.tile
        return report

    async def _drive(self, turn: asyncio.Future[TurnOutcome], report: TurnReport) -> TurnOutcome:
        """Step the world here, in this thread, as the game thread would, and pump the
        mailbox as the agent loop would, until the turn is over."""
        world = self.world
        pace = self.pace
        while not turn.done():
            for _ in range(pace.steps):
                world.step(DT)
                self._live()
            self.mailbox.pump()
            if self.answer_asks:
                self._answer(report)
            await asyncio.sleep(pace.sleep_s)
        return turn.result()

    def _answer(self, report: TurnReport) -> None:
        ask = self.world.ask
        if ask is not None and self.world.clock - ask.started >= ASK_ANSWER_AFTER_S:
            report.answered.append(ask.options[0])
            self.world.answer_ask(0)

    # --- what the turn did, as it happens -------------------------------------------------

    def _letter(self) -> None:
        if self._turn is not None:
            self._turn.letter()

    def _text_delta(self, npc_id: str, run_id: str, text: str) -> None:
        if text:
            self._letter()
        if self._on_text is not None:
            self._on_text(npc_id, run_id, text)

    def _record(self, event: BusEvent) -> None:
        turn = self._turn
        if turn is None:
            return
        data = event.data
        if event.kind == "delta" and "tool" not in data:
            turn.text(str(data.get("text", "")))
        elif event.kind == "tool_call":
            call = Call(str(data.get("name", "")), str(data.get("arguments", "")))
            turn.report.calls.append(call)
            turn.items.append(call)
            turn.by_id[str(data.get("id", ""))] = call
            if call.text() is not None:
                turn.letter()  # said without streaming: it shows when it runs
        elif event.kind == "error" and data.get("kind") == "store":
            turn.report.store_error = str(data.get("message", ""))
        elif event.kind == "tool_result":
            done = turn.by_id.get(str(data.get("id", "")))
            if done is not None:
                done.result = str(data.get("content", ""))
                done.is_error = bool(data.get("is_error"))
                done.rejected = rejected(data.get("data"))
