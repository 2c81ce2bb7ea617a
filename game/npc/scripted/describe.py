"""A place as a villager tells of it: a part of its description, not the whole of it.

A map's description is written for the map maker's reader ("The mouth of the copper mine on
the north side of the village: a stone pithead with a slate roof, ore carts and stacks of
pit props."). A villager asked about the place says one part of it: the part the question
asks about (by shared words), else one the turn's seed picks, so the same place is not
recited the same way to every question.
"""

from __future__ import annotations

import re

from game.npc.facts import PersonFact, VillagerFacts
from game.npc.reading.kinds import Target
from game.npc.reading.naming import FILLER, stem, tokens
from game.npc.scripted.lines import sentences
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.skills import SkillCall

__all__ = [
    "asked_beyond",
    "beyond_line",
    "described",
    "keepers_of",
    "parts",
    "spends_time_at",
]

# Where a description's parts meet: a colon, a semicolon, ", with".
_PARTS = re.compile(r"\s*[:;]\s+|,\s+(?=with\s)")
_SHORT = 6  # words: a part this short is said with the next one


def described(description: str, seed: int, asked: str = "", name: str = "") -> str:
    """A part of a description, as a sentence: the one sharing most words with `asked`
    (past the place's `name`), else the one `seed` picks (the whole, when it has one
    part)."""
    said = parts(description)
    if len(said) < 2:
        return description
    wanted = _stems(asked) - _stems(name)
    scores = [len(wanted & _stems(s)) for s in said]
    best = max(scores)
    options = [s for s, n in zip(said, scores, strict=True) if n == best]
    return options[seed % len(options)]


# Words of a question about a place that ask of no thing in it ("what's it like this
# morning?", "what kind of fish live there?": only "fish" asks of a thing).
_ASKS_NOTHING = frozenset(
    """kind kinds sort type many much live lives living came come comes been being there
    around inside anything something anyone ever still usually often today morning evening
    night tonight days week year years time tell about describe whats what's really seem
    seems feel feels doing going happening happened could would should have has had
    were went gone visit visited seen saw open closed near far from they them their
    things favourite favorite best story stories tale tales history legend""".split()
)


def asked_beyond(asked: str, description: str, name: str, skip: str = "") -> str:
    """The first word a question about a place asks of that its description does not tell
    ("what fish live in the pond?": "fish"); "" when it asks of the place itself or of
    anything the description tells. The place's `name` and the words of `skip` (who is
    spoken to) ask of nothing."""
    ignored = _stems(name) | _stems(skip)
    words = [
        w
        for w in tokens(asked)
        if w not in FILLER and w not in _ASKS_NOTHING and _stems(w) and not _stems(w) <= ignored
    ]
    told = _stems(description)
    if any(_stems(w) & told for w in words):
        return ""  # a word the description tells: the part that tells it is the answer
    return words[0] if words else ""


def spends_time_at(place: str, text: str) -> bool:
    """Whether a text (a persona, a description) names a place by its id's words."""
    words = [w for w in place.split("_") if len(w) > 2]
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.I) for w in words)


def keepers_of(npc: VillagerFacts, place: str) -> list[PersonFact]:
    """The other villagers whose place it is: who work or live there, else whose persona
    names it."""
    keepers = [p for p in npc.people if place in (p.work, p.home)]
    return keepers or [p for p in npc.people if spends_time_at(place, f"{p.role} {p.does}")]


def beyond_line(talk: PlayerLine, target: Target, speak: Speaker) -> SkillCall:
    """The answer to a question of something at a place that its description does not
    tell: come and see, at the NPC's own place (or one its persona spends time at); else
    ask whoever works there."""
    npc = talk.npc
    if target.name in (npc.sheet.work, npc.home) or spends_time_at(target.name, npc.persona):
        return speak.line("place_unknown_mine", place=target.label)
    keepers = keepers_of(npc, target.name)
    keeper = keepers[0].name if keepers else ""
    tail = f"Ask {keeper} at {target.label}." if keeper else " "  # no one to send them to
    return speak.line("place_unknown", place=target.label, tail=tail)


def parts(description: str) -> list[str]:
    """The parts of a description's first sentence, each said as a sentence, then its
    other sentences."""
    first, *rest = sentences(description) or [""]
    found = [p for p in _PARTS.split(first.rstrip(".!?")) if p]
    return [_sentence(p) for p in _joined(found)] + rest


def _joined(parts: list[str]) -> list[str]:
    """The parts, each too short to say alone joined to the next."""
    out: list[str] = []
    for part in parts:
        if out and len(out[-1].split()) < _SHORT:
            out[-1] = f"{out[-1]}, {part}"
        else:
            out.append(part)
    return out


def _sentence(part: str) -> str:
    """A part said as a sentence of its own ("with reeds at its edges": "It has reeds at
    its edges.")."""
    part = part.strip(" ,")
    if part.lower().startswith("with "):
        part = "It has " + part[5:]
    return part[:1].upper() + part[1:] + "."


def _stems(text: str) -> set[str]:
    """The telling words of a text, by their first letters ("mooring" finds "moor")."""
    return {stem(w.split("'")[0])[:4] for w in tokens(text) if len(w) > 3 and w not in FILLER}
