"""The agent runtime's exception root.

Expected failures (a bad tool call, a provider error, a timeout) are values, not
exceptions; these are for programming errors, and a disk that refuses a log:

    AgentError            (a GameError)
    ├── UnknownNpc        run_turn/submit for an NPC that was never registered
    ├── RuntimeClosed     the runtime was closed
    └── LogNotWritten     the disk refused an NPC's log lines (an OSError: full, read-only)
"""

from __future__ import annotations

from game.errors import GameError


class AgentError(GameError):
    """Root of the agent runtime's exceptions."""


class UnknownNpc(AgentError, KeyError):
    """An NPC id that was never registered with the runtime."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown NPC"


class RuntimeClosed(AgentError):
    """The runtime was closed and accepts no more turns."""


class LogNotWritten(AgentError, OSError):
    """The disk refused an NPC's session log lines (full, read-only); they stay buffered."""
