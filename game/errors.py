"""Exceptions the command line turns into one clear line and an exit code.

    GameError
    └── UsageError     (a bad option, file or name given on the command line)

Other packages keep their own roots (`game.world.errors.WorldError`,
`game.agent.errors.AgentError`, `game.config.ConfigError`); the CLI catches each.
"""

from __future__ import annotations


class GameError(Exception):
    """Root of the game shell's exceptions."""


class UsageError(GameError):
    """Something given on the command line is wrong; the message says how to fix it."""
