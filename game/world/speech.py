"""Speech: the bubble that grows while an NPC's line streams, the finished line that
others within earshot hear, and the question an NPC puts to the player.

Every text enters here through `clean_text`: no control character a model (or a hostile
server) sends reaches a bubble, a heard line or the speech log.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass

from game.text import clean_text
from game.world.entities import (
    ASK_REACH_TILES,
    EARSHOT_TILES,
    PLAYER_ID,
    Bubble,
    Entity,
    Npc,
    reading_seconds,
)
from game.world.events import Spoke
from game.world.outcomes import Impossible, Outcome, Success, resolve
from game.world.state import WorldState

ASK_TIMEOUT_S = 60.0


@dataclass
class PendingAsk:
    """A question an NPC put to the player, waiting for the player's pick."""

    npc_id: str
    npc_name: str
    question: str
    options: tuple[str, ...]
    started: float
    fut: Future[Outcome] | None = None


class Speech:
    """What entities say in a world, and the one question the player may be answering."""

    def __init__(self, state: WorldState) -> None:
        self.state = state
        self.ask: PendingAsk | None = None

    # --- an NPC's line ------------------------------------------------------------------

    def start(self, npc: Npc) -> Outcome:
        """The NPC thinks: show the "..." bubble (unless a line is still streaming)."""
        if npc.bubble is not None and npc.bubble.streaming and npc.bubble.text:
            # Still saying something: the next reply starts when this one ends.
            return Success("still speaking")
        npc.bubble = Bubble(started=self.state.clock)
        npc.activity = "thinking"
        return Success("thinking")

    def grow(self, npc: Npc, text: str) -> None:
        """More streamed text for the NPC's bubble."""
        if npc.bubble is None or not npc.bubble.streaming:
            npc.bubble = Bubble(started=self.state.clock)
        npc.bubble.text += clean_text(text)
        npc.activity = "speaking"

    def cancel(self, npc: Npc) -> Outcome:
        """The turn ended without a line: what streamed so far is said, cut off."""
        if npc.bubble is not None and npc.bubble.streaming:
            if npc.bubble.text:
                return self.say(npc, npc.bubble.text, None, True)
            npc.bubble = None
        if npc.activity in ("thinking", "speaking"):
            npc.activity = "idle"
        return Success("quiet")

    def say(self, npc: Npc, text: str, target: str | None, interrupted: bool) -> Outcome:
        """The NPC finished a line: it turns to whom it speaks to, and others hear it."""
        clock = self.state.clock
        text = clean_text(text).strip()
        if not text:
            npc.bubble = None
            return Impossible("there was nothing to say")
        npc.bubble = Bubble(
            text=text,
            streaming=False,
            started=npc.bubble.started if npc.bubble else clock,
            expires=clock + reading_seconds(text),
            target=target,
            interrupted=interrupted,
        )
        if npc.activity in ("thinking", "speaking"):
            npc.activity = "idle"
        around = self._earshot(npc)
        other = self.state.find_by_name(target) if target else None
        if other is npc:
            other = None
        if other is None and around:
            other = around[0]  # the nearest listener
        if other is not None:
            npc.face(other.tile)
            target = other.name
        npc.bubble.target = target
        self._spoken(
            npc, text, target, other.entity_id if other else None, around, interrupted=interrupted
        )
        if other is None:
            return Success("said, but nobody was near enough to hear")
        if self.state.distance(npc, other) > EARSHOT_TILES:
            return Success(f"said to {other.name}, but they are too far away to hear")
        return Success(f"said to {other.name}")

    def player_said(self, text: str, to: str | None = None) -> None:
        """Record the player's line so NPCs in earshot can perceive it."""
        state = self.state
        text = clean_text(text)
        p = state.player
        p.bubble = Bubble(
            text=text,
            streaming=False,
            started=state.clock,
            expires=state.clock + reading_seconds(text),
            target=to,
        )
        other = state.find_by_name(to) if to else None
        self._spoken(p, text, to, other.entity_id if other else None, self._earshot(p))

    def _earshot(self, speaker: Entity) -> list[Entity]:
        """Everyone else within earshot of the speaker, nearest first."""
        return [
            ent for _, ent in self.state.near(speaker.tile, EARSHOT_TILES) if ent is not speaker
        ]

    def _spoken(
        self,
        speaker: Entity,
        text: str,
        target: str | None,
        target_id: str | None,
        around: list[Entity],
        *,
        interrupted: bool = False,
    ) -> None:
        """A line was said: log it, tell the NPCs within earshot (`around` the speaker,
        nearest first), and raise the event."""
        state = self.state
        heard_by = [ent for ent in around if isinstance(ent, Npc)]
        spoke = Spoke(
            speaker.entity_id,
            speaker.name,
            text,
            speaker.tile,
            target,
            state.clock,
            target_id,
            interrupted,
            tuple(npc.entity_id for npc in heard_by),
        )
        for npc in heard_by:
            npc.heard.append(spoke)
        state.speech_log.append(spoke)
        state.record(spoke)

    # --- a question to the player -------------------------------------------------------

    def begin_ask(
        self, npc: Npc, question: str, options: tuple[str, ...], fut: Future[Outcome] | None
    ) -> Outcome | None:
        """The NPC asks the player; the outcome comes with the player's pick."""
        state = self.state
        question = clean_text(question).strip()
        options = tuple(o for o in (clean_text(o).strip() for o in options) if o)
        if not question or not 2 <= len(options) <= 4:
            return Impossible("an ask needs a question and 2 to 4 options")
        away = state.distance(npc, state.player)
        if away > ASK_REACH_TILES:
            return Impossible(
                f"the player is not near ({away:.0f} tiles away); walk to them or just say it"
            )
        if self.ask is not None and not (self.ask.fut is not None and self.ask.fut.done()):
            if self.ask.npc_id != npc.entity_id:
                return Impossible("the player is answering someone else's question")
            self._end_ask(Impossible("you asked something else instead"))
        npc.face(state.player.tile)
        npc.bubble = Bubble(
            text=question, streaming=False, started=state.clock, target=state.player.name
        )
        self._spoken(npc, question, state.player.name, PLAYER_ID, [])
        self.ask = PendingAsk(npc.entity_id, npc.name, question, options, state.clock, fut)
        return None  # resolved by the player's pick

    def answer_ask(self, index: int) -> Outcome:
        """The player picks option `index` (0-based) of the pending question."""
        ask = self.ask
        if ask is None:
            return Impossible("nobody is asking anything")
        if not 0 <= index < len(ask.options):
            return Impossible(f"pick an option from 1 to {len(ask.options)}")
        choice = ask.options[index]
        self.player_said(choice, to=ask.npc_name)
        self._end_ask(Success(f"the player chose: {choice}", data={"choice": choice}))
        return Success(choice)

    def check_ask(self) -> None:
        """End the pending question if nobody waits for it, the player walked away or it
        went unanswered too long."""
        ask = self.ask
        assert ask is not None
        state = self.state
        npc = state.npcs.get(ask.npc_id)
        if ask.fut is not None and ask.fut.done():  # the asking turn gave up
            self._end_ask(Impossible("nobody waits for the answer"))
        elif npc is None or state.distance(npc, state.player) > ASK_REACH_TILES + 1:
            self._end_ask(Impossible("the player walked away without answering"))
        elif state.clock - ask.started > ASK_TIMEOUT_S:
            self._end_ask(Impossible("the player did not answer"))

    def _end_ask(self, outcome: Outcome) -> None:
        ask, self.ask = self.ask, None
        if ask is None:
            return
        npc = self.state.npcs.get(ask.npc_id)
        if npc is not None and npc.bubble is not None and npc.bubble.expires is None:
            npc.bubble.expires = self.state.clock + min(2.0, reading_seconds(ask.question))
        resolve(ask.fut, outcome)
