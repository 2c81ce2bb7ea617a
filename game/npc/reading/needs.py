"""A need the player says or asks where to meet ("where can I get a drink?", "I'm
starving", "I need somewhere to sleep tonight", "where can I get my boots mended?"), and
who in the village meets it: the villager whose trade, wares or doings name what is
needed, found by the village's families of words (`naming.doer_of`), never by a list of
one map's trades. A line that asks no such thing, or names a villager or place itself, is
none.
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.kinds import Named, Target
from game.npc.reading.naming import FILLER, doer_of, name_words, norm, tokens

__all__ = ["met_by", "need_words"]

# A line that asks where to get something, or says what the player lacks.
_NEED = re.compile(
    r"\bwhere (?:can|could|do|would|might|should|shall) (?:i|we|one|a body|a traveller) "
    r"(?:get|find|buy|have|grab|rent|hire|go for|get hold of|stay|sleep|eat|drink)\b|"
    r"\bwhere(?:'s| is| are)(?: there)? (?:a |an |some )?(?:good |decent |cheap )?"
    r"(?:place|spot|somewhere) (?:to|for)\b|"
    r"\b(?:anywhere|somewhere|a place) (?:to (?:eat|drink|sleep|stay)|i can|i could)\b|"
    r"\bi (?:need|could use|could do with) (?:a |an |some |something |somewhere |my )|"
    r"\bi'?m (?:so |very |really |getting |a bit |awfully )?"
    r"(?:hungry|thirsty|starving|famished|parched|peckish)\b|"
    r"\b(?:need|needs|get|got|have) (?:\w+ ){0,2}(?:mended|fixed|repaired|patched|resoled|"
    r"mending|fixing|repairing|patching)\b"
)
# Words of a need said plainly, as the village's families know them: thirst is of ale
# (not of the pond), hunger of food, a night's rest of a bed.
_SAID_AS = {
    **dict.fromkeys(("thirsty", "parched", "drink", "drinks", "thirst"), "ale"),
    **dict.fromkeys(
        ("hungry", "starving", "famished", "peckish", "eat", "meal", "bite", "food"), "food"
    ),
    **dict.fromkeys(("sleep", "bed", "tired", "weary", "rest", "room", "stay", "lodging"), "bed"),
}
# Words of asking that name no need.
_ASKING = frozenset(
    """where can could do would might should shall get find buy have grab rent hire
    stay need needs got some something somewhere anywhere place spot good decent cheap
    one body traveller i'm im so very really getting bit awfully tonight today night""".split()
)


def met_by(line: str, npc: VillagerFacts) -> Target | None:
    """Who meets the need a line says or asks where to meet: a villager, or the NPC itself
    (`Named.SELF`); None when the line says no need, names a villager, or no one's trade
    meets it."""
    said = norm(line)
    if not _NEED.search(said):
        return None
    words = tokens(said)
    names = {w for v in npc.people for w in name_words(v.name)} | name_words(npc.name)
    if names & set(words):  # "I need Tobin": the villager asked for, not a need
        return None
    if any(name_words(p.name) <= set(words) for p in npc.places):  # "where's the bakery?"
        return None
    need = need_words(said)
    if not need:
        return None
    found = doer_of(" ".join(need), npc)
    return found if found is not None and found.kind in (Named.PERSON, Named.SELF) else None


def need_words(line: str) -> list[str]:
    """The words of what a line needs, as the families know them ("thirsty": "ale")."""
    return [_SAID_AS.get(w, w) for w in tokens(line) if w not in FILLER and w not in _ASKING]
