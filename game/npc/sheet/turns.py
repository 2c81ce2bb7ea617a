"""Stances a persona says in turns of phrase the plain readers of `reading` miss.

- A fear said of the thing feared: "Deep water frightens her", "storms scare him".
- A refusal said as a preference: "he would rather eat nettles than dance" will not dance.
- A fear or a dislike with its reason after it: "terrified of dogs since one bit him" is
  a fear of dogs; "puts no faith in charms, only in a good knot" distrusts charms.
"""

from __future__ import annotations

import re

__all__ = ["turned", "unreasoned"]

_FRIGHTENS = re.compile(
    r"^(?P<what>.+?)\s+(?:(?:still|always|really) )?(?:frightens?|scares?|terrif(?:y|ies)|"
    r"unnerves?|petrif(?:y|ies))\s+(?:her|him|them|me)\b",
    re.I,
)
_NO_THING = re.compile(r"^(?:nothing|little|no one|nobody|none)\b", re.I)
_RATHER = re.compile(r"\bwould (?:much |far )?rather\b.+?\bthan (?P<deed>[a-z].+)$", re.I)
_REASON = re.compile(r",?\s+(?:ever since|since|because|for fear)\b|,\s+(?:only|but|except)\b")


def turned(clause: str) -> list[tuple[str, str]]:
    """The (field, phrase) pairs a clause says in such a turn of phrase."""
    out: list[tuple[str, str]] = []
    feared = _FRIGHTENS.search(clause)
    if feared and not _NO_THING.match(feared.group("what")):
        what = feared.group("what")  # "Deep water": said in a line as "deep water"
        out.append(
            ("fears", what if re.fullmatch(r"[A-Z]\w+", what) else what[0].lower() + what[1:])
        )
    rather = _RATHER.search(clause)
    if rather:
        out.append(("refuses", rather.group("deed")))
    return out


def unreasoned(phrase: str) -> str:
    """A fear or dislike without the reason said after it ("dogs since one bit him")."""
    return _REASON.split(phrase, maxsplit=1)[0]
