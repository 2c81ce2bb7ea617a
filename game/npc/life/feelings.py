"""What moves an NPC's feelings, and by how much: thanks, praise, insults, news shared.

The player's line is read by word families (never matched against fixed sentences); a
line can move a feeling once. NPCs warm a little to whoever passes them news. The state
itself is world data (`game.world.feelings`); this module decides the changes and the
note a line is given.
"""

from __future__ import annotations

import re

from game.npc.facts import FeelingFact

__all__ = ["NEWS_SHARED", "feeling_note", "read_feeling"]

NEWS_SHARED = (0.05, "shared news with you")
_MOVES: tuple[tuple[re.Pattern[str], float, str], ...] = (
    (
        re.compile(
            r"\b(?:idiot|stupid|fool|useless|ugly|shut up|hate you|go away|moron|dumb|"
            r"pathetic|liar|smell|stinks?|worthless|loser|bore me|boring|cheat|crook|fraud|"
            r"swindler|miserable|nasty|coward|wretch|rude|nosy|annoying|lazy|vain|"
            r"(?:talk|moan|complain|gossip|nag)s? too much|never (?:stop|shut) (?:talking|up))\b",
            re.I,
        ),
        -0.3,
        "insulted you",
    ),
    (
        re.compile(
            r"\b(?:thanks?|thank you|thankyou|cheers|grateful|much obliged|appreciate)\b", re.I
        ),
        0.15,
        "thanked you",
    ),
    (
        re.compile(
            r"\b(?:you(?:'re| are) (?:so |very |really )?(?:kind|lovely|wonderful|great|"
            r"amazing|brilliant|clever|wise|the best|sweet|funny|nice|brave)|"
            r"(?:love|like|admire) (?:your|you)|well done|good job|beautiful|delicious)\b",
            re.I,
        ),
        0.1,
        "praised you",
    ),
    (re.compile(r"\b(?:sorry|apologi[sz]e|forgive me)\b", re.I), 0.1, "said sorry to you"),
)


def read_feeling(said: str) -> tuple[float, str] | None:
    """How much a player's line moves the NPC's feeling, and why; None if it does not."""
    for pattern, delta, reason in _MOVES:
        if pattern.search(said):
            return delta, reason
    return None


def feeling_note(feeling: FeelingFact) -> str:
    """A note for the line: "Ana thanked you; you feel warm towards them." ("" if neutral)."""
    if feeling.word == "neutral":
        return ""
    who = "the traveller" if feeling.other_id == "player" and not feeling.name else feeling.name
    reason = f"{who} {feeling.reason}; " if feeling.reason else ""
    return f"{reason}you feel {feeling.word} towards {who}"
