"""Typed commands that agents send to the world, and the values that answer them.

A command travels through `World.submit`, which is safe to call from any thread, and
comes back as a `concurrent.futures.Future` resolved by the game thread with `Success`
or `Impossible` once the action has finished (a move on arrival, a say when shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.world.grid import Tile

if TYPE_CHECKING:
    from concurrent.futures import Future

    from game.world.perception import Perception


@dataclass(frozen=True)
class Success:
    """The action happened; `message` tells the model what came of it."""

    message: str = "done"
    ok: bool = True
    data: dict[str, str] | None = None  # the same as facts, for readers that plan (a pick)


@dataclass(frozen=True)
class Impossible:
    """The action could not happen; `reason` tells the model why, so it can correct."""

    reason: str
    ok: bool = False

    @property
    def message(self) -> str:
        """The reason, under the same name as `Success.message`."""
        return self.reason


class Perceived:
    """A look around: the facts, taken on the game thread, are written up as text within
    the token budget when `message` is first read, on the reader's thread."""

    ok = True

    def __init__(self, perception: Perception) -> None:
        self.perception = perception
        self._text: str | None = None

    @property
    def message(self) -> str:
        """What the NPC perceives, as the text its agent reads."""
        if self._text is None:
            self._text = self.perception.fit()
        return self._text


Outcome = Success | Impossible | Perceived


def resolve(fut: Future[Outcome] | None, outcome: Outcome) -> None:
    """Answer whoever waits on a command with its outcome (nobody, or answered: nothing)."""
    if fut is not None and not fut.done():
        fut.set_result(outcome)


@dataclass(frozen=True)
class MoveTo:
    """Walk an NPC along an A* path to a tile."""

    npc_id: str
    goal: Tile
    label: str = ""


@dataclass(frozen=True)
class GoTo:
    """Walk an NPC to a named place, NPC or the player, resolved by the world."""

    npc_id: str
    to: str


@dataclass(frozen=True)
class Halt:
    """Stop an NPC where it is (its move, if any, ends `Impossible`)."""

    npc_id: str
    reason: str = "stopped"


@dataclass(frozen=True)
class MoveSteps:
    """Walk an NPC a few tiles in one direction (up/down/left/right)."""

    npc_id: str
    direction: str
    steps: int


@dataclass(frozen=True)
class SpeechStart:
    """An NPC is about to speak: show the "..." bubble while it thinks."""

    npc_id: str


@dataclass(frozen=True)
class SpeechDelta:
    """More streamed text for an NPC's bubble."""

    npc_id: str
    text: str


@dataclass(frozen=True)
class Say:
    """An NPC finished saying `text` (already streamed or not); others may hear it."""

    npc_id: str
    text: str
    target: str | None = None
    interrupted: bool = False


@dataclass(frozen=True)
class SpeechCancel:
    """The NPC's turn ended without saying anything: drop the "..." bubble."""

    npc_id: str


@dataclass(frozen=True)
class Emote:
    """Show an emote icon above an NPC."""

    npc_id: str
    name: str


@dataclass(frozen=True)
class Face:
    """Turn an NPC toward a direction or an entity."""

    npc_id: str
    toward: str


@dataclass(frozen=True)
class Look:
    """What the NPC perceives; with `at`, a description of a place or someone."""

    npc_id: str
    at: str | None = None


@dataclass(frozen=True)
class Wait:
    """Stand still for some seconds of game time."""

    npc_id: str
    seconds: float


@dataclass(frozen=True)
class Ask:
    """Ask the player a question with 2-4 options; resolves with the player's pick."""

    npc_id: str
    question: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class ReadBoard:
    """Read a board: the posts from index `since` on."""

    npc_id: str
    board: str = ""  # a board's id or name; "" is the notice board in reach, or one's own
    since: int = 0


@dataclass(frozen=True)
class PostToBoard:
    """Post a note to a board, about a piece of news one has heard (or about nothing)."""

    npc_id: str
    text: str
    board: str = ""
    about: str = ""  # a word naming a piece of news the poster knows


@dataclass(frozen=True)
class PathFound:
    """A planner's answer to a `PathRequest` (see `World.plan_elsewhere`)."""

    npc_id: str
    token: int
    path: tuple[Tile, ...] | None


WorldCommand = (
    MoveTo
    | GoTo
    | Halt
    | MoveSteps
    | SpeechStart
    | SpeechDelta
    | Say
    | SpeechCancel
    | Emote
    | Face
    | Look
    | Wait
    | Ask
    | ReadBoard
    | PostToBoard
    | PathFound
)
