"""The persona told short: its clauses, and what one says of a thing once it is named.

A persona is written about the NPC ("Brenna takes fierce pride in honest work and quietly
worries about the old bridge."). A line that says such a sentence back in the first
person sounds like a card read aloud; asked about the bridge, Brenna says "I worry about
it." instead.
"""

from __future__ import annotations

import re

from game.npc.reading.naming import families_of
from game.npc.scripted.first_person import first_person
from game.npc.scripted.lines import sentences

__all__ = ["about_it", "clauses", "closest", "said_as_mine", "side_on"]

_SPLIT = re.compile(r"\s*(?:[,;:]|\band\b|\bbut\b|\bwho\b|\bwhere\b)\s*")
_PREPOSITIONS = frozenset(
    "of in on at by to for with from about past over under like into than before after".split()
)
_SUBJECT = re.compile(r"^(?:i'm|i am|i|am|is|have|i have)\s+", re.I)
_ADVERBS = frozenset("always never often quietly still also just really sometimes very".split())


def clauses(persona: str, name: str) -> list[str]:
    """The persona's clauses in the first person, in order ("I dream of being an
    adventurer", "collect shiny pebbles", ...), each of two words or more."""
    out: list[str] = []
    for sentence in sentences(persona):
        own = first_person(sentence, name).rstrip(".!?")
        out += [c.strip() for c in _SPLIT.split(own) if len(c.split()) >= 2]
    return out


def said_as_mine(clause: str, persona: str) -> str:
    """A clause said as a sentence of the NPC's own ("am certain a dragon lives past the
    river" -> "I am certain a dragon lives past the river."); "" when the clause has no
    verb of its own to say it with ("short on patience", "a cart full of curiosities")."""
    words = clause.split()
    if not words:
        return ""
    if words[0] in ("I", "I'm"):
        return f"{clause}."
    verb = next((w for w in words if w.lower() not in _ADVERBS), "").lower()
    third = {w.lower() for w in re.findall(r"[A-Za-z]+", persona)}
    if verb == "am" or {f"{verb}s", f"{verb}es", f"{verb[:-1]}ies"} & third:
        return f"I {clause}."
    return ""


def side_on(question: str, persona: str, name: str) -> str:
    """The persona's side on what a question asks, as the NPC says it ("I am certain a
    dragon lives past the river."): the closest clause it can say as its own, or ""."""
    mine = [said_as_mine(c, persona) for c in clauses(persona, name)]
    return closest(question, [m for m in mine if m]) or ""


def about_it(clause: str) -> str:
    """A clause about a thing, said once the thing is named: "quietly worry about the old
    bridge" -> "I worry about it."; "" when its verb is not one word."""
    words = [w for w in _SUBJECT.sub("", clause).split() if w.lower() not in _ADVERBS]
    at = next((i for i, w in enumerate(words) if w.lower() in _PREPOSITIONS), None)
    if at != 1:
        return ""
    return f"I {words[0].lower()} {words[1].lower()} it."


def closest(question: str, options: list[str]) -> str | None:
    """The sentence or clause that shares the most telling words with the question (by
    their first five letters: "curious" finds "curiosities"; or by their family: "smith"
    finds "blacksmith"), if any shares one."""
    asked, kinds = _keys(question), families_of(question)
    best, found = 0, None
    for option in options:
        score = len(asked & _keys(option)) + len(kinds & families_of(option))
        if score > best:
            best, found = score, option
    return found


def _keys(text: str) -> set[str]:
    words = re.findall(r"[a-z]+", text.lower())
    return {w[:5] for w in words if len(w) > 3 and w not in _COMMON}


_COMMON = frozenset(
    """what when where which with your yours this that these those there here have from
    they them their does about like just really very much many some thing things come
    comes tell know would could should into over than then""".split()
)
