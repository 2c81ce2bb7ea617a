"""The project's one exception tree. The command line catches the root, `GameError`, and
prints its message as one line (exit 2); every message says what was wrong and how to fix it.

    GameError
    ├── UsageError            game.errors: a bad option, file or name on the command line
    ├── InvalidId             game.paths: a slot or NPC id that breaks the id rule (a ValueError)
    ├── UnsafePath            game.paths: a link, FIFO or device below the saves folder (an OSError)
    ├── ConfigError           game.config: a flag, variable or config file that is wrong
    ├── WorldError            game.world.errors
    │   ├── MapError          a map file is missing, unreadable or unplayable
    │   └── BoardError        no such board, or a post its author may not make
    ├── AgentError            game.agent.errors: programming errors of the runtime
    │   ├── UnknownNpc        an NPC id that was never registered (a KeyError)
    │   ├── RuntimeClosed     the runtime was closed
    │   └── LogNotWritten     the disk refused an NPC's log lines (an OSError too)
    ├── ProviderFailure       game.agent.providers.errors: one subclass per `ProviderError.kind`
    │   └── ...               auth, rate_limited, timeout, context_overflow, http, transport,
    │                         parse, tool, crash (the tree is in that module's docstring)
    ├── LocalModelError       ...providers.local.model: no llama-cpp-python or model
    ├── GrammarError          ...providers.local.worker.prompt: a tool no grammar can express
    ├── WorkerDied            ...providers.local.client.process: the model's process ended
    ├── LoadFailed            ...providers.local.client.ladder: the model file cannot load
    └── SaveError             game.save.errors
        ├── SlotNotFound, SlotExists, FormatTooNew, MapMismatch, ArchiveError
        └── ...               (the tree is in that module's docstring)

Expected outcomes are values, not exceptions: a tool call the world refuses is an
`Impossible`, a provider that fails yields a `ProviderError` event, a save that cannot be
written returns a `SaveResult` that says so. These exceptions are for what a caller cannot
carry on from.
"""

from __future__ import annotations


class GameError(Exception):
    """Root of every exception the game raises on purpose."""


class UsageError(GameError):
    """Something given on the command line is wrong; the message says how to fix it."""
