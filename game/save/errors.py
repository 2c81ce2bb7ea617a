"""The save system's exception root; every message is one line that says what to do.

    SaveError                 (a GameError: the CLI prints it as one line, exit 2)
    ├── SlotNotFound          no slot of that name
    ├── SlotExists            the target slot exists and --force was not given
    ├── FormatTooNew          saved by a newer game: this one cannot read it
    ├── MapMismatch           the slot was saved on another map
    ├── SlotBusy              another process writes the slot now (its lock is taken)
    ├── TooLarge              a file of a slot, a zip or a map is over its size bound
    └── ArchiveError          an export/import zip is unsafe or not a save

Writing a save never raises into the game: `SaveResult` and `LoadResult` carry failures
as values.
"""

from __future__ import annotations

from game.errors import GameError


class SaveError(GameError):
    """Root of the save system's exceptions."""


class SlotNotFound(SaveError):
    """The named slot does not exist."""


class SlotExists(SaveError):
    """The target slot exists already."""


class FormatTooNew(SaveError):
    """The slot was written by a newer version of the game."""


class MapMismatch(SaveError):
    """The slot was saved on a different map than the one being played."""


class SlotBusy(SaveError):
    """Another process holds the slot's lock (a running game, `chat`, an import)."""


class TooLarge(SaveError):
    """A file is larger than the game reads (a bound checked before reading it)."""


class ArchiveError(SaveError):
    """A zip archive that is unsafe, damaged or not a save slot."""
