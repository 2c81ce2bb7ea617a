"""A thing asked for that no one in the village sells or makes ("where can I buy a
sword?", "who sells rope?"): the NPC says no one here has it, in its mood, rather than
sending the player to a place whose description shares a word, or to nowhere at all."""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.reading.words import norm
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.skills import SkillCall

__all__ = ["nobody_has", "wanted_thing"]

# Words that ask where a thing is to be had.
_GETTING = frozenset("buy get purchase sell sells".split())
# "where can I buy a sword around here?", "who'd sell me some rope?": the thing asked for,
# to the words that say where or why ("around here", "for my cart").
_WANTED = re.compile(
    r"\b(?:"
    + "|".join(sorted(_GETTING))
    + r")\s+(?:me\s+|us\s+)?(?P<thing>(?:(?:a|an|some|any|the)\s+)?[a-z' -]+?)"
    r"(?=\s+(?:around|round|here|in|from|at|near|for|nearby|hereabouts|made|mended|done|"
    r"seen\s+to|then|today|please)\b|\s*[?.!,]|\s*$)",
)
_ASKS = re.compile(r"\b(?:where|who|anywhere|anyone|anybody|somewhere|someone)\b")
_NOT_A_THING = frozenset(
    "it them that this there one something anything somewhere someone anyone to".split()
)


def wanted_thing(said: str, npc: VillagerFacts) -> str:
    """The thing a line asks where to get when nobody in the village is found to sell or
    make it ("a sword"), else ""."""
    line = norm(said)
    found = _WANTED.search(line)
    if found is None or not _ASKS.search(line):
        return ""
    thing = found.group("thing").strip()
    parts = thing.split()
    if not parts or {parts[0], parts[-1]} & _NOT_A_THING or len(parts) > 5:
        return ""
    intent = read_intent(said, npc)
    if intent.kind not in (Kind.QUESTION, Kind.CHAT, Kind.SEEK) or intent.target is not None:
        return ""
    return thing


def nobody_has(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """ "Nobody here sells a sword, that I know of.", in the NPC's mood; None when the line
    asks for no thing, or one someone here has."""
    thing = wanted_thing(talk.said, talk.npc)
    return speak.line("nobody_has", thing=thing) if thing else None
