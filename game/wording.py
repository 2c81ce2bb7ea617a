"""How much two lines say the same: word pairs, shared by whoever must not repeat itself.

One definition for the believability suite's `repeat_rate` (`game.eval.figures`), the
scripted brain's choice of a fresh line (`game.npc.scripted.lines`) and the local model's resample
of a repeated one (`game.agent.providers.local.worker.player`), so what the NPCs avoid is what
the suite counts.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["overlap", "word_pairs", "words"]

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    """The lower-cased words of a line."""
    return _WORD.findall(text.lower())


def word_pairs(text: str) -> list[tuple[str, str]]:
    """The line's word pairs, in order (repeats kept)."""
    return list(itertools.pairwise(words(text)))


def overlap(line: str, other: str) -> float:
    """The share of `line`'s word pairs that `other` has too (of its words, when the line
    has fewer than two)."""
    mine = set(word_pairs(line))
    if not mine:
        own = set(words(line))
        return len(own & set(words(other))) / len(own) if own else 0.0
    return len(mine & set(word_pairs(other))) / len(mine)
