"""A villager's answer to a line that is hardly talk: one of no words at all ("...", "?"),
one in no tongue it knows (keys mashed, another language) and a shout it has no answer
for. Each gets a line of its mood's table ("blank", "nonsense", "shout"), so a gruff one
growls at the shout a shy one flinches from, and none is met with nothing or a dodge.

A line is in no tongue when none of its words is a common English one (`FILLER`, the
words of the NPC's village) and it shows a sign of another: letters English lacks
("ça", "¿qué?"), a run of letters no English word has ("zxcv", "hjkl"), or three
words and more, none of them English ("guten morgen, wie geht's").
"""

from __future__ import annotations

import re

from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.reading.words import FILLER
from game.npc.scripted.lines import WORDS
from game.npc.scripted.speaker import PlayerLine, Speaker, Step, say

__all__ = ["odd_line"]

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
# Letters no English word is spelt with, and the marks other tongues open a question with.
_FOREIGN = re.compile(r"[^\x00-\x7f]")
_NOT_FOREIGN = re.compile(r"[\u2018\u2019\u201c\u201d\u2013\u2014\u2026]")  # curly quotes, dashes
# Four or more letters with no vowel, not a hum or a hush: "zxcv", "hjkl", "qwrt".
_NO_VOWEL = re.compile(r"^[b-df-hj-np-tv-xz]{4,}$", re.I)
_RUN = re.compile(r"[b-df-hj-np-tv-xz]{6,}", re.I)  # "asdfghjkl": six in a row
_HUSH = frozenset({"hmph", "psst", "shhh", "tsks", "grrr", "brrr", "hmmm", "mmmm", "zzzz"})
# The kinds a line no answer was found for reads as.
_UNANSWERED = frozenset({Kind.CHAT, Kind.QUESTION})
# Common words a line in English has one of, besides `FILLER`.
_ENGLISH = frozenset(
    """he she they him her them his hers their not no yes why when who has have had been
    am was were said say said think make made well oh hey hi hello ah eh um uh hmm ha
    lol ok okay thanks please sorry""".split()
)


def _known(words: list[str], talk: PlayerLine) -> bool:
    """Whether any of the words is one of English or of the NPC's own village."""
    npc = talk.npc
    village = {npc.name, *(p.name for p in npc.places), *(v.name for v in npc.people)}
    own = {w for name in village for w in _WORD.findall(name.replace("_", " ").lower())}
    return any(w in FILLER or w in _ENGLISH or w in own for w in words)


def _words_of_village(talk: PlayerLine) -> set[str]:
    """The words the NPC's persona and its village's places say."""
    npc = talk.npc
    text = " ".join([npc.persona, *(p.description for p in npc.places)])
    return {w.lower() for w in _WORD.findall(text)}


def no_tongue(said: str, talk: PlayerLine) -> bool:
    """Whether a line is in no tongue the NPC knows: keys mashed, or another language."""
    words = [w.lower() for w in _WORD.findall(said)]
    if not words or _known(words, talk):
        return False
    foreign = bool(_FOREIGN.search(_NOT_FOREIGN.sub("", said)))
    mashed = any(
        (_NO_VOWEL.match(w) and len(set(w)) >= 3 and w not in _HUSH) or _RUN.search(w)
        for w in words
    )
    # three words and not one of English, as the lines and the village say it
    known = WORDS | _words_of_village(talk)
    unknown = [w for w in words if w not in known and w.rstrip("s") not in known]
    return foreign or mashed or len(unknown) >= 3


def shouted(said: str) -> bool:
    """Whether a line is shouted: two or more words, every letter a capital."""
    words = _WORD.findall(said)
    return len(words) >= 2 and said.upper() == said and any(len(w) > 1 for w in words)


# A line that opens with a word shouted ("BANG! Ha, did I scare you?"), and what a sheet
# may dislike or fear of it.
_SHOUT_OPENS = re.compile(r"[A-Z]{3,}!")
_LOUD = re.compile(r"\bloud|\bnois|\bshout|\byell|\bbang|\bracket\b|\bdin\b|\bclamou?r", re.I)


def odd_line(talk: PlayerLine, intent: Intent, speak: Speaker) -> Step | None:
    """The NPC's line to a line of no words, of no tongue it knows, or a shout it has no
    other answer for; None for any other line."""
    said = talk.said.strip()
    if not _WORD.search(said):  # "...", "?", "!!!"
        return speak.line("blank")
    sheet = talk.npc.sheet
    loud = next((t for t in (*sheet.dislikes, *sheet.fears) if _LOUD.search(t)), "")
    if loud and (shouted(said) or _SHOUT_OPENS.match(said)):  # "BANG!" to one who hates noise
        return say(f"{speak.text('shout')} {speak.text('my_dislike', thing=loud)}", "player")
    if intent.kind not in _UNANSWERED:
        return None
    if no_tongue(said, talk):
        return speak.line("nonsense")
    if shouted(said):
        return speak.line("shout")
    return None
