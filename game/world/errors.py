"""Exceptions of the pure world package.

    WorldError        (a GameError: the CLI prints it as one line, exit 2)
    ├── MapError      (tiled.py, tiled_check.py: a map file is missing, unreadable, too big
    │                  or incomplete)
    └── BoardError    (board.py: no such board, or a post its author may not make)

Expected outcomes of actions are values (`Success` / `Impossible` in outcomes.py), not
exceptions.
"""

from __future__ import annotations

from game.errors import GameError


class WorldError(GameError):
    """Root of every exception raised by `game.world`."""


class BoardError(WorldError, ValueError):
    """A board that does not exist, or a post that is not allowed."""


class MapError(WorldError):
    """A map file is missing, unreadable, past a bound or lacks something the game needs."""
