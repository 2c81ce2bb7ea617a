"""Exceptions of the pure world package.

    WorldError
    └── MapError      (tiled.py: a map file is missing, unreadable or incomplete)

Expected outcomes of actions are values (`Success` / `Impossible` in commands.py), not
exceptions.
"""

from __future__ import annotations


class WorldError(Exception):
    """Root of every exception raised by `game.world`."""
