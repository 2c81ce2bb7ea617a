"""Whether a line the NPC says of itself reads as plain English, or garbled.

The persona brain turns sentences written about an NPC into what it says of itself; a
turn of phrase the rewrite does not know leaves marks a player notices at once: a verb of
someone else after "I" ("I sells"), "my" where "me" was meant ("tell my what ails them"),
a sentence that stops on a word that leads on ("anyone who lets", "and the"), a subject
said twice ("I'm a I keep"), a word capitalised mid-sentence as notes are ("a Toll keeper"),
a clause that starts on "and" or "which" as if cut from another. `garbled` names the first
such mark, so the brain says something shorter instead (`game.npc.scripted.retell`).
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["capital_misplaced", "garbled", "proper_words", "sentences_of"]

# Words that end in -s after "I" without being a verb of someone else.
_NOT_THIRD = frozenset(
    """was is has does always sometimes perhaps towards afterwards besides nowadays thus
    yes less unless across plus bus gas""".split()
)
_ADVERB = r"(?:always|never|often|still|also|just|really|only|even|rarely|sometimes|quietly)"
_THIRD_AFTER_I = re.compile(rf"\bI (?:{_ADVERB} )?(?P<verb>[a-z]+)\b")
# "my" before a word that cannot be what is mine: "tell my what", "to my."
_MY_BEFORE = re.compile(
    r"\bmy\s+(?:what|who|whom|how|where|why|whether|that|the|a|an|and|or|but|to|of|if|"
    r"about|with|for|from|at|in|on|is|was|are|am)\b|\bmy\s*(?:[.,;:!?]|$)",
    re.I,
)
# "I" where it is the object: "to I", "with I" ("between you and I" is said, but not here).
_I_AS_OBJECT = re.compile(
    r"\b(?:to|with|for|of|at|by|from|about|tell|told|give|gave|let|help|ask|asks)\s+I\b(?!')"
)
_TWICE = re.compile(r"\b(?:I|I'm|my|me)\s+(?:a\s+|an\s+)?(?:I|I'm|my)\b")
# Words a sentence cannot stop on: it leads on to something not said ("and the").
# ("Best work there is", "I'd say so", "made peace with" stop well.)
_DANGLING = frozenset(
    """and or but nor the a an my your his her their our who whom whose which because
    although whether than""".split()
)
_BEFORE_WHOM = frozenset(
    """of with to for at about like near than stand trust love adore hate fancy know
    admire pity miss but except""".split()
)
# ("Because I'm not allowed." answers a why: a reason said whole is no cut)
_OPENS_CUT = re.compile(
    r"^(?:and|or|but|nor|which|whom|whose|so that|because(?! (?:I|I'm|it|it's)\b))\b", re.I
)
# "Than the church, it stones are older": a comparison said first, and a
# pronoun standing before a noun as if it were one ("it stones are").
_STILTED = re.compile(
    r"^(?:than|like)\b[^,]*,\s+(?:I|it|they|he|she|we)\b|"
    r"\b(?:it|they)\s+[a-z]+s\s+(?:are|is|were|was)\b",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# After these a capital starts something new: "Oh! Rope", "Aye: Bread".
_OPENERS = frozenset(".!?:;\"'(-\u2014\u2013")


def sentences_of(text: str) -> list[str]:
    """A line's sentences, each with its stop."""
    return [s for s in _SENTENCE.split(text.strip()) if s]


def proper_words(text: str) -> set[str]:
    """The words a text capitalises mid-sentence: its names ("Sunday", "Hob Garret")."""
    out: set[str] = set()
    for sentence in sentences_of(text):
        for found in _WORD.finditer(sentence):
            before = sentence[: found.start()].rstrip()
            if before and before[-1] not in _OPENERS and found.group()[:1].isupper():
                out.add(found.group().split("'")[0])
    return out


def capital_misplaced(line: str, phrase: str, names: Collection[str]) -> bool:
    """Whether a phrase put in a line opens mid-sentence on a capital that names no one
    ("Oh, Rope. I twist it": the phrase "Rope. I twist it" after "Oh,")."""
    first = phrase.split()[0] if phrase.split() else ""
    at = line.find(first) if first[:1].isupper() else -1
    base = first.split("'")[0].strip(".,?!")
    if at <= 0 or base in names or base == "I":
        return False
    before = line[:at].rstrip()
    return bool(before) and before[-1] not in _OPENERS


def _third_after_i(sentence: str) -> str:
    for found in _THIRD_AFTER_I.finditer(sentence):
        verb = found.group("verb")
        if (
            re.fullmatch(r"[a-z]{2,}s", verb)
            and verb not in _NOT_THIRD
            and not verb.endswith(("ss", "us", "ous", "is"))
        ):
            return f'"I {verb}": a verb of someone else after I'
        if verb in ("is", "has", "does", "was") and found.group(0).count(" ") == 1:
            if verb != "was":
                return f'"I {verb}": a verb of someone else after I'
    return ""


def _capital_inside(sentence: str, names: Collection[str]) -> str:
    """A word capitalised mid-sentence that names no one ("I'm a Toll keeper")."""
    allowed = {w for n in names for w in _WORD.findall(n)}
    for found in _WORD.finditer(sentence):
        word = found.group()
        if found.start() == 0 or not word[:1].isupper():
            continue
        before = sentence[: found.start()].rstrip()
        if not before or before[-1] in _OPENERS:
            continue
        base = word.split("'")[0]
        if base in ("I", "O") or base in allowed or word in allowed:
            continue
        return f'"{word}" capitalised mid-sentence, as in notes'
    return ""


def garbled(text: str, names: Collection[str] | None = ()) -> str:
    """Why a line the NPC says of itself reads garbled ("I sells": ...), or "" when it reads
    as plain English. `names` are the proper names the line may capitalise (people and
    places of its village); None when it may capitalise any."""
    for sentence in sentences_of(text):
        body = sentence.rstrip(".!?\"' ")
        words = body.split()
        if not words:
            continue
        why = _third_after_i(body) or (_capital_inside(body, names) if names is not None else "")
        if why:
            return why
        if _MY_BEFORE.search(body):
            return f'"my" where "me" is meant in {body!r}'
        if _I_AS_OBJECT.search(body):
            return f'"I" where "me" is meant in {body!r}'
        if _TWICE.search(body):
            return f"a subject said twice in {body!r}"
        last = words[-1].lower().strip(",;:-")
        # "fond of her", "can't stand her": her as who, not whose
        whom = last == "her" and len(words) > 1 and words[-2].lower() in _BEFORE_WHOM
        if (last in _DANGLING and not whom) or body.endswith((",", ";", ":", "-")):
            return f'{body!r} stops on "{last}", cut mid-phrase'
        if _STILTED.search(body):
            return f"{body!r} reads stilted"
        if _OPENS_CUT.match(body):
            return f"{body!r} starts as a clause cut from another"
    return ""
