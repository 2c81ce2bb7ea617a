"""How each NPC feels about the player and the villagers it has met, as data.

A feeling is a number from -1 (hostile) to 1 (fond), moved by what was said and done
(thanks, insults, help given, news shared; `game.npc.life.feelings` decides by how much), with
the last reason kept so a line can say why. Saved with the slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Feeling", "Feelings", "word_for"]

MAX_REASON = 80


@dataclass
class Feeling:
    """One NPC's feeling about one other."""

    value: float = 0.0
    reason: str = ""  # the last thing that moved it ("thanked you")
    name: str = ""  # the other's name when it was last moved
    changes: int = 0
    clock: float = 0.0  # game seconds of the last change


@dataclass
class Feelings:
    """Every NPC's feelings: npc id -> other's id ("player" for the player) -> Feeling."""

    of: dict[str, dict[str, Feeling]] = field(default_factory=dict)

    def change(
        self, npc_id: str, other: str, delta: float, reason: str, *, name: str = "", clock: float
    ) -> Feeling:
        """Move `npc_id`'s feeling about `other` by `delta`, within -1..1."""
        feeling = self.of.setdefault(npc_id, {}).setdefault(other, Feeling())
        feeling.value = max(-1.0, min(1.0, round(feeling.value + delta, 3)))
        feeling.reason = reason[:MAX_REASON]
        feeling.name = name or feeling.name or other
        feeling.changes += 1
        feeling.clock = clock
        return feeling

    def about(self, npc_id: str, other: str) -> Feeling | None:
        """`npc_id`'s feeling about `other`, if it has one."""
        return self.of.get(npc_id, {}).get(other)


def word_for(value: float) -> str:
    """A feeling in a word: "fond", "warm", "neutral", "wary" or "cross"."""
    if value >= 0.5:
        return "fond"
    if value >= 0.15:
        return "warm"
    if value > -0.15:
        return "neutral"
    if value > -0.5:
        return "wary"
    return "cross"
