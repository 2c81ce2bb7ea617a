"""How a line sounds in the NPC's own voice, past its mood's words: the sheet's ways of
talking that no mood's lines carry (a stammerer stammers: "W-well, I c-can do that."; a
formal speaker says its words whole: "I do not know.", never "I dunno.").

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


# The short forms a formal speaker says whole, and their whole words.
_WHOLE = {"can't": "cannot", "won't": "will not", "shan't": "shall not", "ain't": "is not"}
_SHORT = re.compile(
    r"\b(?:(can|won|shan|ain)'t|(\w+)n't|(i)'m|(you|we|they)'re|(i|you|we|they)'ve|"
    r"(i|you|he|she|we|they|it|that)'ll|(it|that|there|here|what|who|he|she)'s|(let)'s)\b",
    re.I,
)
_AFTER = ("", "", " not", " am", " are", " have", " will", " is", " us")  # by group
_CASUAL = re.compile(r"\b(?:aye|yep|yeah)\b", re.I)  # said "yes" by a formal speaker
_WAYS = frozenset({"stammer", "formal"})  # the ways of talking this module puts on lines


def _whole(match: re.Match[str]) -> str:
    """A short form said whole, in the case it was written: "Don't" -> "Do not"."""
    said = match.group(0)
    if match.group(1):
        whole = _WHOLE[said.lower()]
    else:
        group = next(i for i in range(2, len(_AFTER)) if match.group(i))
        whole = match.group(group) + _AFTER[group]
    return whole[0].upper() + whole[1:] if said[0].isupper() else whole


# A short "not" asked before its subject: "Won't you?" is said "Will you not?".
_ASKED_NOT = re.compile(r"\b(\w+?)n't (you|it|he|she|we|they|i|that|there)\b", re.I)
_STEM = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}  # "can't": "ca" + "n't"


def _asked_whole(match: re.Match[str]) -> str:
    verb, subject = match.group(1), match.group(2)
    whole = _STEM.get(verb.lower(), verb.lower())
    whole = whole[0].upper() + whole[1:] if verb[0].isupper() else whole
    return f"{whole} {subject} not"


# What only a familiar speaker calls a stranger ("Since you ask, child:", "Well, love,").
_FAMILIAR = re.compile(r",\s*(?:child|love|dear|lad|lass|pet)\b(?=\s*[,:.!?])", re.I)


def formal(text: str) -> str:
    """The line as a formal speaker says it: its short forms whole, "aye" a "yes", and no
    stranger called "child" or "love"."""
    text = _FAMILIAR.sub("", text)
    text = _ASKED_NOT.sub(_asked_whole, text.replace("\u2019", "'"))
    text = _SHORT.sub(_whole, text)
    return _CASUAL.sub(lambda m: "Yes" if m.group(0)[0].isupper() else "yes", text)


def voiced(text: str, talks: Iterable[str]) -> str:
    """The line as the NPC says it, in the ways of talking of its sheet (`talks`)."""
    ways = tuple(talks)
    if "formal" in ways:
        text = formal(text)
    if "stammer" not in ways or not text or _STAMMERED.search(text):
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
    if not _WAYS & set(ways):
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
