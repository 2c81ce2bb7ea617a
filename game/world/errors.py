"""Exceptions of the pure world package.

    WorldError        (a GameError: the CLI prints it as one line, exit 2)
    └── MapError      (tiled.py, tiled_check.py: a map file is missing, unreadable, too big
                       or incomplete)

Expected outcomes of actions are values (`Success` / `Impossible` in commands.py), not
exceptions.
"""

from __future__ import annotations

from game.errors import GameError


class WorldError(GameError):
    """Root of every exception raised by `game.world`."""


class MapError(WorldError):
    """A map file is missing, unreadable, past a bound or lacks something the game needs."""
