"""How a line sounds in the NPC's own voice, past its mood's words: the sheet's ways of
talking that no mood's lines carry (a stammerer stammers: "W-well, I c-can do that.").

Applied to every line the persona brain says but the map maker's own greeting, which is
already in the NPC's voice; a line already voiced is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.npc.scripted.speaker import React, Step, said_by, say

__all__ = ["voiced", "voiced_plan"]

_STAMMERED = re.compile(r"\b(\w{1,2})-\1", re.I)  # "W-well", "th-thank": said so already
_WORD = re.compile(r"(?<![-\w'])(?:[A-Za-z][a-z']+|I)(?![-\w])")
_PAIRS = ("th", "ch", "sh", "wh", "ph")  # said as one sound: "th-thank", not "t-thank"
_LATER = 5  # a line this many words long or more stammers once more, on a longer word


def _stammer(word: str) -> str:
    """A word said with a stammer: "well" -> "w-well", "Thank" -> "Th-thank"."""
    head = word[:2] if word[:2].lower() in _PAIRS else word[:1]
    first = word[:1] if head == "I" else word[:1].lower()  # "I-I'm", never "I-i'm"
    return f"{head}-{first}{word[1:]}"


def voiced(text: str, talks: Iterable[str]) -> str:
    """The line as the NPC says it, in the ways of talking of its sheet (`talks`)."""
    if "stammer" not in tuple(talks) or not text or _STAMMERED.search(text):
        return text
    words = list(_WORD.finditer(text))
    if not words:
        return text
    picked = [words[0]]
    # a later word of four letters or more, never one like "o'clock"
    later = next(
        (w for w in words[_LATER - 1 :] if len(w.group()) >= 4 and "'" not in w.group()), None
    )
    if len(words) >= _LATER and later is not None:
        picked.append(later)
    for match in reversed(picked):
        text = text[: match.start()] + _stammer(match.group()) + text[match.end() :]
    return text


def voiced_plan(plan: list[Step], talks: Iterable[str], greeting: str = "") -> list[Step]:
    """A plan whose lines (and reactions to an answer) are said in the NPC's voice; its
    `greeting`, the map maker's own words, as written."""
    ways = tuple(talks)
    if "stammer" not in ways:
        return plan
    out: list[Step] = []
    for step in plan:
        said = said_by(step)
        if said is not None and said.text != greeting:
            out.append(say(voiced(said.text, ways), said.target))
        elif isinstance(step, React):
            out.append(React({k: voiced(v, ways) for k, v in step.answers.items()}))
        else:
            out.append(step)
    return out
