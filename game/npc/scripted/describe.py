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
from game.npc.scripted.speaker import PlayerLine, Speaker, place_named, say
from game.npc.skills import SkillCall

__all__ = [
    "asked_beyond",
    "asks_use",
    "beyond_line",
    "described",
    "doing_at",
    "keeper_of",
    "keepers_of",
    "parts",
    "spends_time_at",
    "use_line",
    "use_of",
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


# "what's at the mill?", "what goes on at the kiln?", "what is the shed for?", "what do
# they do at the yard?": what the place is used for, not what it looks like.
_USE = re.compile(
    r"\bwhat(?:'s| is| are) (?:up |down |over )?at \w|"
    r"\bwhat (?:goes on|happens|do (?:they|people|folk|you) do|gets done)(?: there)? "
    r"(?:at|in|inside|up at|down at|over at) \w|"
    r"\bwhat(?:'s| is) (?:the |that |this )?[\w' ]{1,30}? (?:for|used for)\?|"
    r"\bwhat (?:goes on|happens) (?:there|in there)\b|\bwho works (?:at|in|there)\b|"
    r"\bwhat (?:goes on|happens) on \w+ days?\b",  # "on market day"
    re.I,
)
_VERB = re.compile(r"^[a-z]+[^s'\s]s\b")  # "twists rope", "keeps the inn"
_WHERE_DONE = re.compile(r"\bwhere ((?:the |a |an |some )?\w+ \w+[^,.;:!?]*)")
_PRONOUN = re.compile(r"\b(?:it|its|them|they|their|her|him|his|he|she|i|my|me)\b", re.I)
_NOUN_WORDS = 3  # a trade of more words than this is no name of a trade ("the beekeeper")
_DOES_WORDS = 6  # what someone does, said of a place, in at most this many words


def asks_use(said: str) -> bool:
    """Whether a line asks what a place is used for or what goes on there."""
    return bool(_USE.search(said))


def _at(text: str, place: str, at: str) -> str:
    """What someone does, said of a place: with `at` (" there") unless it names the place."""
    label = place.replace("_", " ")
    return text if re.search(rf"\b{re.escape(label)}", text, re.I) else f"{text}{at}"


def _doing(person: PersonFact) -> tuple[str, str]:
    """What someone does at their place, as ("doing", "twists rope") or ("trade",
    "beekeeper"): their sheet's trade if it reads as a doing or a trade's name, else the
    first doing of their persona that names no one by a pronoun; ("", "") if none."""
    trade = " ".join(person.trade.split()).strip(" .")
    if _VERB.match(trade) and not _PRONOUN.search(trade):
        return "doing", trade
    bare = re.sub(r"^(?:the|a|an) ", "", trade, flags=re.I)
    if bare and len(bare.split()) <= _NOUN_WORDS and re.fullmatch(r"[A-Za-z -]+", bare):
        if bare.lower() not in ("villager", *person.name.lower().split()):
            return "trade", bare.lower()
    for does in re.split(r"[.;:]|, (?:and )?", person.does):
        does = " ".join(does.split())
        doing = does[:1].lower() + does[1:]
        if _VERB.match(doing) and len(doing.split()) <= _DOES_WORDS and not _PRONOUN.search(doing):
            return "doing", doing
    return "", ""


def doing_at(person: PersonFact, place: str, at: str = " there") -> str:
    """Someone doing what they do at their place, `at` it: "Wenna twists rope there",
    "Pell the beekeeper works at the apiary", else "Corwin works there"."""
    name = person.name
    kind, what = _doing(person)
    if kind == "doing":
        return f"{name} {_at(what, place, at)}"
    return f"{name} the {what} works{at}" if kind else f"{name} works{at}"


def use_of(person: PersonFact, place: str) -> str:
    """What goes on at a place, as the one who works there does it: "Wenna twists rope
    there.", "Pell the beekeeper works there.", else "Corwin works there."."""
    return doing_at(person, place) + "."


def keeper_of(person: PersonFact, place: str, named: bool = True) -> str:
    """Who works at a place, to "who runs the mill?": "Wenna, the one who twists rope
    there.", "Pell, the beekeeper, at the apiary.", "Corwin, at the tollhouse."; with the
    place not `named` by the line, where ("Hesper, the one who keeps hawks at the mews.")."""
    name = person.name
    kind, what = _doing(person)
    label = "the " + place.replace("_", " ")
    if kind == "doing":
        return f"{name}, the one who {_at(what, place, ' there' if named else ' at ' + label)}."
    return f"{name}, the {what}, at {label}." if kind else f"{name}, at {label}."


def use_line(talk: PlayerLine, target: Target, speak: Speaker) -> SkillCall | None:
    """To a line asking what goes on at another's place, who works there and what they do
    there, in the NPC's voice ("The belltower? Hesper rings the bell there."); None when
    the line asks no such thing or the place is the NPC's own. Of a place no one works, what
    its description says is done there ("That's where the carts stop on Thursdays.")."""
    npc = talk.npc
    if not asks_use(talk.said) or target.name in (npc.sheet.work, npc.home):
        return None
    keepers = keepers_of(npc, target.name)
    place = place_named(npc, target.name)
    # "The market? That's where the carts stop on Thursdays.": what its description says
    found = _WHERE_DONE.search(place.description) if place is not None else None
    if keepers:
        desc = use_of(keepers[0], target.name)
    elif found is not None:
        desc = f"That's where {found[1]}."
    else:
        return None
    text = speak.text("place", place=target.label, desc=desc)
    if desc in text and target.label.lower() not in text.lower():
        text = f"{target.label[:1].upper()}{target.label[1:]}? {text}"
    return say(text, "player") if desc in text else say(desc, "player")


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
