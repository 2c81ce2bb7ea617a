"""Typed commands that agents send to the world, each with its own `apply`.

A command travels through `World.submit`, which is safe to call from any thread, and
comes back as a `concurrent.futures.Future` resolved by the game thread with an
`Outcome` (game/world/outcomes.py) once the action has finished (a move on arrival, a say
when shown). The world's step hands each command to its `apply`; a command that reads
around the map or starts a walk is `costly` (see `World.defer_costly`). A new command is
one class here, and its skill.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from typing import ClassVar

from game.gestures import GESTURES
from game.limits import PROFILE_PLACES
from game.world import board_use
from game.world.entities import EMOTE_SECONDS, EmoteState, Npc
from game.world.grid import DIRECTIONS, Tile
from game.world.outcomes import Impossible, Outcome, Perceived, Success
from game.world.perception import sense
from game.world.world import Command, World

Waiter = Future[Outcome] | None


@dataclass(frozen=True)
class MoveTo(Command):
    """Walk an NPC along an A* path to a tile."""

    costly: ClassVar[bool] = True

    npc_id: str
    goal: Tile
    label: str = ""

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Start the walk; it ends on arrival, or `Impossible` when no way is found."""
        return world.motion.move(npc, self.goal, self.label or f"{self.goal}", fut)


@dataclass(frozen=True)
class GoTo(Command):
    """Walk an NPC to a named place, NPC or the player, resolved by the world."""

    costly: ClassVar[bool] = True

    npc_id: str
    to: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Find the place or the one named, then walk there."""
        return world.motion.go_to(npc, self.to, fut)


@dataclass(frozen=True)
class Halt(Command):
    """Stop an NPC where it is (its move, if any, ends `Impossible`)."""

    npc_id: str
    reason: str = "stopped"

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Stop now."""
        world.motion.halt(npc, self.reason)
        return Success(f"stopped at {npc.tile}")


@dataclass(frozen=True)
class MoveSteps(Command):
    """Walk an NPC a few tiles in one direction (up/down/left/right)."""

    npc_id: str
    direction: str
    steps: int

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Start the walk; it ends when the steps are taken or the way is blocked."""
        return world.motion.walk(npc, self.direction, self.steps, fut)


@dataclass(frozen=True)
class SpeechStart(Command):
    """An NPC is about to speak: show the "..." bubble while it thinks."""

    npc_id: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Show the thinking bubble."""
        return world.speech.start(npc)


@dataclass(frozen=True)
class SpeechDelta(Command):
    """More streamed text for an NPC's bubble."""

    npc_id: str
    text: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Grow the bubble (nobody waits for a delta)."""
        world.speech.grow(npc, self.text)
        return None


@dataclass(frozen=True)
class Say(Command):
    """An NPC finished saying `text` (already streamed or not); others may hear it."""

    costly: ClassVar[bool] = True  # who hears it is read around the map

    npc_id: str
    text: str
    target: str | None = None
    interrupted: bool = False

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Show the line whole; those in earshot hear it."""
        return world.speech.say(npc, self.text, self.target, self.interrupted)


@dataclass(frozen=True)
class SpeechCancel(Command):
    """The NPC's turn ended without saying anything: drop the "..." bubble."""

    costly: ClassVar[bool] = True  # it ends a line the way a say does

    npc_id: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Drop the bubble, or end a line already streamed."""
        return world.speech.cancel(npc)


@dataclass(frozen=True)
class Emote(Command):
    """Show an emote icon above an NPC."""

    npc_id: str
    name: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Show the gesture, if it is one."""
        name = self.name
        if name not in GESTURES:
            return Impossible(f"unknown emote {name!r}; use one of {', '.join(GESTURES)}")
        npc.emote = EmoteState(name, world.clock, world.clock + EMOTE_SECONDS)
        return Success(f"you {name.replace('_', ' ')}")


@dataclass(frozen=True)
class Face(Command):
    """Turn an NPC toward a direction or an entity."""

    npc_id: str
    toward: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Turn to a direction, or toward the one named."""
        toward = self.toward
        if toward in DIRECTIONS:
            npc.facing = toward
            return Success(f"facing {toward}")
        other = world.find_by_name(toward)
        if other is None:
            return Impossible(f"nobody called {toward!r} is here")
        npc.face(other.tile)
        return Success(f"facing {other.name}")


@dataclass(frozen=True)
class Look(Command):
    """What the NPC perceives; with `at`, a description of a place or someone."""

    costly: ClassVar[bool] = True

    npc_id: str
    at: str | None = None

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Perceive around, or describe the place or the one named."""
        at = self.at
        if not at:
            return Perceived(sense(world, npc.entity_id))
        place = world.place_named(at)
        if place is not None:
            desc = place.description or "Nothing special."
            return Success(f"{place.name.replace('_', ' ').title()}: {desc}")
        other = world.find_by_name(at)
        if other is None:
            listed, which = world.map.place_index.listed(npc.tile, PROFILE_PLACES)
            names = ", ".join(sorted(listed)) + which
            return Impossible(f"nothing called {at!r} here; places are: {names}")
        if not isinstance(other, Npc):
            return Success(f"{other.name}, a traveller, stands at {other.tile}.")
        about = other.properties.get("description") or other.persona.split(".")[0]
        return Success(f"{other.name} at {other.tile}: {about}.")


@dataclass(frozen=True)
class Wait(Command):
    """Stand still for some seconds of game time."""

    npc_id: str
    seconds: float

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Wait; the world answers when the time is up (nobody waiting: nothing to do)."""
        if fut is not None:
            world.wait(npc, self.seconds, fut)
        return None


@dataclass(frozen=True)
class Ask(Command):
    """Ask the player a question with 2-4 options; resolves with the player's pick."""

    costly: ClassVar[bool] = True

    npc_id: str
    question: str
    options: tuple[str, ...]

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Put the question to the player, if in reach and nobody else is asking."""
        return world.speech.begin_ask(npc, self.question, self.options, fut)


@dataclass(frozen=True)
class ReadBoard(Command):
    """Read a board: the posts from index `since` on."""

    npc_id: str
    board: str = ""  # a board's id or name; "" is the notice board in reach, or one's own
    since: int = 0

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Read the posts (and hear the news they carry)."""
        return board_use.read(world, npc, self.board, self.since)


@dataclass(frozen=True)
class PostToBoard(Command):
    """Post a note to a board, about a piece of news one has heard (or about nothing)."""

    npc_id: str
    text: str
    board: str = ""
    about: str = ""  # a word naming a piece of news the poster knows

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Post the note."""
        return board_use.post_to(world, npc, self.text, self.board, self.about)


@dataclass(frozen=True)
class PathFound(Command):
    """A planner's answer to a `PathRequest` (see `World.plan_elsewhere`)."""

    costly: ClassVar[bool] = True

    npc_id: str
    token: int
    path: tuple[Tile, ...] | None

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Hand the path to the move that asked for it."""
        world.motion.path_found(npc, self.token, self.path)
        return None


WorldCommand = Command  # the name senders know a command by
