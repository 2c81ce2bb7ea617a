"""What a line opens with before its answer, by how the NPC is: a grumble when it was just
woken, a cold "Hmph." when it is cross with the player, and, of one whose persona says it
corrects other people's grammar, the player's slip put right ("me and him was going":
"'He and I were,' child, not 'me and him was'.")."""

from __future__ import annotations

import re
from collections.abc import Callable

from game.npc.scripted.lines import line_table, pick
from game.npc.scripted.speaker import PlayerLine

__all__ = ["grammar_fix", "only_a_slip", "opener"]

_CORRECTS = re.compile(
    r"\bcorrects? (?:\w+ )?(?:[\w]+'s? )?(?:grammar|speech|english|spelling|words)\b|"
    r"\bcorrects? (?:everyone|everybody|people)\b",
    re.I,
)
_SUBJECT = {"him": "he", "her": "she", "them": "they", "me": "I"}
_Fix = Callable[[re.Match[str]], str]
# Slips of grammar a stickler hears, and how they are said right.
_SLIPS: tuple[tuple[re.Pattern[str], _Fix], ...] = (
    (
        re.compile(r"\bme and (him|her|them|my \w+|\w+) (was|were|went|go|are|had|have)\b", re.I),
        lambda m: f"{_SUBJECT.get(m[1].lower(), m[1])} and I {'were' if m[2] == 'was' else m[2]}",
    ),
    (re.compile(r"\b(we|they|you) was\b", re.I), lambda m: f"{m[1]} were"),
    (re.compile(r"\b(could|should|would|must) of\b", re.I), lambda m: f"{m[1]} have"),
    (re.compile(r"\bI seen\b"), lambda m: "I saw"),
    (re.compile(r"\bI done\b"), lambda m: "I did"),
    (re.compile(r"\bain't\b", re.I), lambda m: "isn't"),
)


def grammar_fix(talk: PlayerLine) -> str:
    """The player's first slip put right in the NPC's mood, of one whose persona says it
    corrects grammar; "" otherwise."""
    if not _CORRECTS.search(talk.npc.persona):
        return ""
    for pattern, fix in _SLIPS:
        found = pattern.search(talk.said)
        if found:
            right = fix(found)
            facts = {"echo": right[:1].upper() + right[1:], "said": found.group(0)}
            return pick(line_table("grammar_fix", talk.mood), talk.seed("grammar"), facts=facts)
    return ""


def only_a_slip(talk: PlayerLine) -> bool:
    """Whether the line asks nothing and its slip is all a stickler answers."""
    return "?" not in talk.said and bool(grammar_fix(talk))


def opener(talk: PlayerLine) -> str:
    """What the line starts with before its answer: a grumble when it was just woken, a
    cold "Hmph." when it is cross with the player, a slip put right; "" otherwise."""
    sensed = talk.sensed
    if sensed is not None and sensed.woken:  # not the same grumble each time it is woken
        grumbles = talk.mood.grumbles
        return grumbles[talk.seed("woken") % len(grumbles)]
    feeling = next((f for f in sensed.feelings if f.other_id == "player"), None) if sensed else None
    return "Hmph." if feeling is not None and feeling.word == "cross" else grammar_fix(talk)
