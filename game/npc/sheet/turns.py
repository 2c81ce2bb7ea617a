"""Stances a persona says in turns of phrase the plain readers of `reading` miss.

- A fear said of the thing feared: "Deep water frightens her", "storms scare him".
- A refusal said as a preference: "he would rather eat nettles than dance" will not dance.
- A fear said by what it does to one: "dogs frighten the life out of him", "being up on a
  roof makes him go weak at the knees".
- A refusal said of the thing refused: "his old sow is not for sale at any price", "her
  books do not leave the bindery on loan", "no one hurries her pans", "nothing would get
  him into a boat", "how he opens a lock is a secret he will take to his grave".
- A fear or a dislike with its reason after it: "terrified of dogs since one bit him" is
  a fear of dogs; "puts no faith in charms, only in a good knot" distrusts charms.
"""

from __future__ import annotations

import re

__all__ = ["turned", "unreasoned"]

_FRIGHTENS = re.compile(
    r"^(?P<what>.+?)\s+(?:(?:still|always|really) )?(?:frightens?|scares?|terrif(?:y|ies)|"
    r"unnerves?|petrif(?:y|ies))\s+(?:the (?:life|wits|daylights|living daylights) out of )?"
    r"(?:her|him|them|me)\b|"
    # what it does to one who fears it: "makes him go weak at the knees"
    r"^(?P<making>.+?)\s+(?:(?:still|always|really) )?(?:makes?|sets?|leaves?|turns?) "
    r"(?:her|him|them|me) (?:go |feel |turn )?(?:weak|pale|faint|dizzy|giddy|queasy|sick|"
    r"nervous|jumpy|uneasy|shaky|tremble|trembling|shiver|shake|shaking|cold)\b|"
    r"^(?P<giving>.+?)\s+(?:gives?) (?:her|him|them|me) the (?:shivers|creeps|horrors|jitters|"
    r"willies)\b",
    re.I,
)
# What is not for sale or loan, what no one hurries, what nothing gets it to do, what is
# its secret: the deed refused of that thing.
_REFUSED_THING: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("sell", re.compile(r"^(?P<what>.+?)\s+(?:is|are) not (?:for sale|to be sold)\b", re.I)),
    (
        "lend",
        re.compile(
            r"^(?P<what>.+?)\s+(?:do|does|will|may|must) (?:not|never) (?:leave|go)\b.*?"
            r"\b(?:on loan|lent|borrowed)\b",
            re.I,
        ),
    ),
    (
        "teach",
        re.compile(r"^(?P<what>.+?)\s+(?:is|are) (?:a|his|her|their|my) (?:own )?secret\b", re.I),
    ),
    (
        "",
        # "no one hurries her pans", not "no one in the village goes hungry"
        re.compile(
            r"^(?:no one|nobody|no-one|none)\s+(?P<verb>[a-z]+s)\s+"
            r"(?P<what>(?:her|his|their|my|its|the|a|an|any)\b.+)$",
            re.I,
        ),
    ),
    (
        "",
        re.compile(
            r"\bnothing (?:would|could|will|can|on earth would) (?:ever )?(?:get|make|drag|tempt|"
            r"persuade|induce|bring) (?:her|him|them|me) (?:to )?(?P<what>.+)$",
            re.I,
        ),
    ),
)
# A dislike said with the thing first: "fortune-tellers she holds in contempt", "liars he
# cannot abide".
_FRONTED_DISLIKE = re.compile(
    r"^(?P<what>[\w' -]+?),?\s+(?:she|he|they|I) (?:(?:holds?|treats?|regards?) (?:\w+ )?"
    r"(?:in|with) (?:contempt|scorn|disdain|suspicion)|(?:can't|cannot|won't|will not) "
    r"(?:stand|abide|bear)|(?:has|have) no (?:time|patience|use) for|(?:hates?|loathes?|"
    r"despises?|detests?))\b",
    re.I,
)
_DOES_NOT = re.compile(r"\b(?:does|do|did|will|would|could|can)(?: not|n't)$|\bnever$", re.I)
_BUT_DOES = re.compile(r"\bbut (?P<what>[\w' -]+?) (?:does|do|did)\b", re.I)
_DOES = re.compile(r"^(?:but )?(?P<what>[\w' -]+?) (?:does|do|did)$", re.I)
_PLACING = re.compile(r"^(?:into|onto|in|on|up|down|near|inside|aboard|out)\b", re.I)
_NO_THING = re.compile(r"^(?:nothing|little|no one|nobody|none)\b", re.I)
_RATHER = re.compile(r"\bwould (?:much |far )?rather\b.+?\bthan (?P<deed>[a-z].+)$", re.I)
_REASON = re.compile(
    r",?\s+(?:ever since|since|because|for fear)\b|,\s+(?:only|but|except)\b|"
    # how much, not what: "fire above all things", "the dark more than anything"
    r",?\s+(?:above all|most of all|more than (?:anything|death|all))\b"
)


def turned(clause: str, before: str = "") -> list[tuple[str, str]]:
    """The (field, phrase) pairs a clause says in such a turn of phrase (`before`: the
    clause before it, which "...but the pit does" finishes)."""
    out: list[tuple[str, str]] = []
    what = _feared(clause)
    if what and _DOES_NOT.search(what):  # "fire does not scare her, but the pit does"
        but = _BUT_DOES.search(clause)
        what = but.group("what") if but else ""
    elif not what and _DOES_NOT.search(_feared(before)):
        but = _DOES.match(clause)  # "Fire does not scare her" + "the flooded pit does"
        what = but.group("what") if but else ""
    if what and not _NO_THING.match(what):
        out.append(("fears", _lower(what)))  # "Deep water": said in a line as "deep water"
    for verb, pattern in _REFUSED_THING:
        found = pattern.search(clause)
        if found is None:
            continue
        what = _lower(unreasoned(found.group("what")))
        if not verb and "verb" in found.groupdict():
            verb = _base(found.group("verb"))
        elif not verb:
            verb = "go" if _PLACING.match(what) else ""
        what = re.sub(r"^the (?:way|means by which) ", "how ", what)  # "the way he opens"
        out.append(
            ("refuses", f"{verb} anyone {what}" if verb == "teach" else f"{verb} {what}".strip())
        )
        break
    fronted = _FRONTED_DISLIKE.search(clause)
    if fronted:
        out.append(("dislikes", _lower(fronted.group("what"))))
    rather = _RATHER.search(clause)
    if rather:
        out.append(("refuses", rather.group("deed")))
    return out


def _feared(clause: str) -> str:
    """What a clause says frightens one ("Deep water" of "deep water frightens her")."""
    feared = _FRIGHTENS.search(clause)
    return next((w for w in feared.group("what", "making", "giving") if w), "") if feared else ""


def unreasoned(phrase: str) -> str:
    """A fear or dislike without the reason or the measure said after it ("dogs since one
    bit him", "fire above all things")."""
    return _REASON.split(phrase, maxsplit=1)[0]


def _lower(what: str) -> str:
    """A phrase that began a sentence as it is said inside one ("Dogs": "dogs"); a name
    alone keeps its capital."""
    if re.fullmatch(r"[A-Z][a-z]+", what) and not re.fullmatch(r"\w+s", what):
        return what
    return what[0].lower() + what[1:] if what else what


def _base(verb: str) -> str:
    """The plain verb of "no one hurries", "nobody gets": hurry, get."""
    full = verb.lower()
    if full.endswith("ies"):
        return full[:-3] + "y"
    if re.search(r"(?:sh|ch|ss|x|zz)es$", full):
        return full[:-2]
    return full[:-1] if full.endswith("s") and not full.endswith("ss") else full
