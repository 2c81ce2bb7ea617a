"""What the scripted brain says: in-character lines per mood and intent, and how one is picked.

The lines are data, in `lines.json` beside this module: for each kind of reply, each mood
has several lines. `pick` takes one by a seed and skips those the NPC said recently (or
that overlap them), so a conversation does not repeat itself. Lines fill in only facts: a
place's name and description, a villager's name, role and home, the player's name once
told, the NPC's own persona put in the first person (`game.npc.scripted.first_person`). The
player's words are never pasted in, except a name given or a thing the player asks to be
reminded of.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources

from game.npc.reading.kinds import Kind
from game.npc.scripted.moods import CHEERFUL, Mood
from game.wording import overlap as share
from game.wording import word_pairs

__all__ = ["WORDS", "line_table", "overlap", "pick", "sentences"]

Table = dict[str, tuple[str, ...]]


def _load_tables() -> dict[str, Table]:
    """The line tables of `lines.json`: kind of reply -> mood -> lines."""
    raw = json.loads(resources.files("game.npc.scripted").joinpath("lines.json").read_text("utf-8"))
    return {
        kind: {mood: tuple(lines) for mood, lines in table.items()} for kind, table in raw.items()
    }


_T: dict[str, Table] = _load_tables()
# Every word the line tables say: English a villager knows, past the commonest words.
WORDS: frozenset[str] = frozenset(
    w.lower()
    for table in _T.values()
    for lines in table.values()
    for line in lines
    for w in re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", " ", line))
)


def line_table(kind: str, mood: Mood) -> tuple[str, ...]:
    """The lines of a mood for one kind of reply (the cheerful ones if the mood has none;
    chat lines for a kind with no table, such as a gesture a game maker declared)."""
    table = _T.get(kind) or _T[Kind.CHAT]
    return table.get(mood.name) or table[CHEERFUL.name]


def overlap(a: str, b: str) -> float:
    """How much two lines say the same: the larger share of one's word pairs found in the
    other (0: nothing shared, 1: one is within the other)."""
    return max(share(a, b), share(b, a))


def _fill(line: str, facts: Mapping[str, str]) -> str | None:
    """A line with its slots filled from `facts`; None if it needs a fact not given.
    `{Slot}` puts the fact with a capital first letter."""
    missing = False

    def put(match: re.Match[str]) -> str:
        nonlocal missing
        key = match.group(1)
        value = facts.get(key.lower())
        if not value:
            missing = True
            return ""
        if key[0].isupper():
            return value[0].upper() + value[1:]
        before = line[: match.start()].rstrip()
        if not before or before[-1] in ".!?":  # "{desc}" opening a sentence: as it is
            return value
        # "Oh, {job}!" with "The bees. I tend them": an article within a sentence is small.
        return re.sub(r"^(The|A|An|My)\b", lambda m: m.group(1).lower(), value)

    text = re.sub(r"\{(\w+)\}", put, line)
    return None if missing else " ".join(text.split())


def pick(
    lines: Iterable[str],
    seed: int,
    used: Iterable[str] = (),
    facts: Mapping[str, str] | None = None,
    *,
    limit: float = 0.5,
) -> str:
    """One of `lines`, chosen by `seed`, filled with `facts`: the first one from the seed
    on that overlaps nothing in `used` by more than `limit` and whose own words (all but
    its slots) were not said in `used` either, else the first that overlaps nothing, else
    the least overlapping."""
    facts = facts or {}
    options = [(t, line) for line in lines if (t := _fill(line, facts))]
    if not options:
        return ""
    used = [u for u in used if u]
    start = seed % len(options)
    ordered = options[start:] + options[:start]
    best, best_score = ordered[0][0], 2.0
    said_frame = ""  # a fresh line in words of its own said before: when no other is fresh
    for text, line in ordered:
        score = max((overlap(text, u) for u in used), default=0.0)
        if score <= limit:
            if not _frame_said(line, used, limit):
                return clip(text)
            said_frame = said_frame or text
        elif score < best_score:
            best, best_score = text, score
    return clip(said_frame or best)


def _frame_said(line: str, used: list[str], limit: float) -> bool:
    """Whether one of `used` has more than `limit` of the word pairs a line says besides
    its slots ("I love it! Do you?" of "{Thing}! I love it! Do you?")."""
    own = {pair for part in re.split(r"\{\w+\}", line) for pair in word_pairs(part)}
    return bool(own) and any(len(own & set(word_pairs(u))) > limit * len(own) for u in used)


def clip(text: str, size: int = 200) -> str:
    """At most `size` characters, cut at the end of a sentence (or word) if it must be."""
    text = " ".join(text.split())
    if len(text) <= size:
        return text
    cut = text[:size]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    if end > size // 3:
        return cut[: end + 1]
    return cut[: cut.rfind(" ")].rstrip(",;:-") + "."


def sentences(text: str) -> list[str]:
    """The sentences of a persona or description."""
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s]
