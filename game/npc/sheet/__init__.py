"""An NPC's character sheet: who it is, read once from the map when the village opens.

The persona's sentences are read clause by clause for what they state in plain English:
a trade ("is a loud miller"), likes ("loves", "takes pride in"), dislikes ("hates", "has
no time for"), beliefs with how sure ("is certain", "thinks", "suspects"), fears ("is
afraid of"), refusals ("never pours on credit", "haggles hard"), what it sells, how it
talks (few words, jokes, ...) and what it thinks of the other NPCs it names, by name or
by their trade. The NPC's other Tiled properties (`work`, `wares`) fill their fields, and
a map maker may state any field directly (`role`, `likes`, `dislikes`, `beliefs`,
`fears`, `refuses`, `opinions`, `talks`), which wins over what was read. A value that
cannot be read is one warning line naming the map, the NPC and the property.
"""

from __future__ import annotations

from game.npc.sheet.model import COUNTER_REFUSALS, SURENESS, TALKS, Belief, CharacterSheet
from game.npc.sheet.reading import read_sheet, read_sheets

__all__ = [
    "COUNTER_REFUSALS",
    "SURENESS",
    "TALKS",
    "Belief",
    "CharacterSheet",
    "read_sheet",
    "read_sheets",
]
