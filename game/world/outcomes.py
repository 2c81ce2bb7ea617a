"""The values that answer a world command, and how the game thread hands them over.

A command comes back as a `concurrent.futures.Future` resolved by the game thread with
`Success`, `Impossible` or `Perceived` once the action has finished (a move on arrival, a
say when shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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
