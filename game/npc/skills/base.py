"""What a skill declares (`Skill`), and what its handler works on (`SkillDeps`).

A handler turns its arguments into a world command, waits for the world to finish the
action, and returns what happened as text. An `Impossible` becomes an error result with
the reason, so the model can correct itself. Handlers run on the agent loop; the world is
only touched through its thread-safe inbox. `ToolContext.deps` is a `SkillDeps`: the
`World`, and how to await what it made of a command.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from game.agent.tools import StreamCallback, Tool, ToolContext, ToolResult
from game.world.commands import Outcome, Success, WorldCommand
from game.world.world import World

__all__ = ["MAX_SAY", "Skill", "SkillCall", "SkillDeps", "Targets", "do", "pretty", "world_of"]

MAX_SAY = 200  # characters of one line said (or asked)

# What an NPC can act on in the play script: (how the script names it, the skill argument).
Targets = Sequence[tuple[str, str]]
Handler = Callable[[ToolContext, Any], Awaitable[ToolResult | str]]


def _written_as_nothing(args: dict[str, Any]) -> str:
    return ""


@dataclass(frozen=True)
class Skill:
    """One skill, declared once; see the package docstring."""

    name: str
    description: str | Callable[[], str]  # a function when it names the gestures
    args: Callable[[], type[BaseModel]]  # the argument model, built with each registry
    handler: Handler
    timeout_s: float
    speech: str | None = None  # the argument said out loud (what the NPC said, remembered)
    on_stream: StreamCallback | None = None  # set: the speech streams into the bubble
    does: Callable[[dict[str, Any]], str] = _written_as_nothing  # the play script's bracket
    offers: Callable[[Targets], list[dict[str, Any]]] | None = None  # the script's candidates
    takes_time: bool = False  # a walk or a wait: its line is said as it sets off
    acts: bool = False  # a call does something worth remembering (a walk, a gesture)
    judged: frozenset[str] = frozenset()  # the arguments an eval's fit may name
    asks: str | None = None  # the words that ask for it, where the reader has no rule of its own
    optional: bool = False  # left out of a registry that does not ask for it (`ask`)

    def call(self, **arguments: Any) -> SkillCall:
        """A call of this skill, its arguments validated by its model (ValidationError if
        they do not fit)."""
        return SkillCall(self, self.args()(**arguments))

    def parse(self, arguments: dict[str, Any]) -> BaseModel | None:
        """A call's arguments read by this skill's model; None when they do not fit."""
        try:
            return self.args().model_validate(arguments)
        except ValidationError:
            return None

    def tool(self) -> Tool[Any]:
        """The skill as the agent runtime's tool."""
        description = self.description if isinstance(self.description, str) else self.description()
        return Tool(
            self.name,
            description,
            self.args(),
            self.handler,
            timeout_s=self.timeout_s,
            stream_field=self.speech if self.on_stream is not None else None,
            on_stream=self.on_stream,
            speech=self.speech,
            acts=self.acts,
        )


@dataclass(frozen=True)
class SkillCall:
    """One call of a skill, as a mind decides it: the skill and its validated arguments."""

    skill: Skill
    args: BaseModel

    @property
    def name(self) -> str:
        """The skill's name, as the tool is called."""
        return self.skill.name

    def arguments(self) -> dict[str, Any]:
        """The arguments given, as the call's JSON object (those left out stay out)."""
        return self.args.model_dump(mode="json", exclude_unset=True)

    def bracket(self) -> str:
        """How the play script writes the call in brackets ("waves"; "" for nothing)."""
        return self.skill.does(self.arguments())


@dataclass(frozen=True)
class SkillDeps:
    """What the skills of one NPC work on: the world, and a way to await its outcomes.

    `wait` is the mailbox's `outcome` (`game.bridge.Mailbox`): whoever steps the world
    pumps the mailbox too, so no world future is awaited behind a wake-up.
    """

    world: World
    wait: Callable[[Future[Outcome]], Awaitable[Outcome]]


def _deps(ctx: ToolContext) -> SkillDeps:
    deps = ctx.deps
    if not isinstance(deps, SkillDeps):
        raise TypeError("NPC skills need SkillDeps as the tool context's deps")
    return deps


def world_of(ctx: ToolContext) -> World:
    """The world a skill acts in."""
    return _deps(ctx).world


async def do(ctx: ToolContext, command: WorldCommand) -> ToolResult:
    """Send a command to the world and wait until it is done; its outcome as a result."""
    deps = _deps(ctx)
    outcome = await deps.wait(deps.world.submit(command))
    data = outcome.data if isinstance(outcome, Success) else None
    return ToolResult(content=outcome.message, is_error=not outcome.ok, data=data)


def pretty(name: str) -> str:
    """A place's name as words ("old_mill" -> "old mill")."""
    return name.replace("_", " ")
