"""How much two lines say the same: word pairs, shared by whoever must not repeat itself,
and runs of words a line copies from a persona (`reads_back`).

One definition for the believability suite's `repeat_rate` (`game.eval.figures`), the
scripted brain's choice of a fresh line (`game.npc.scripted.lines`) and the local model's resample
of a repeated one (`game.agent.providers.local.worker.player`), so what the NPCs avoid is what
the suite counts.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["ECHO_RUN", "READ_BACK_RUN", "echoes", "overlap", "reads_back", "word_pairs", "words"]

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


READ_BACK_RUN = 6  # words in a row of a persona that read it back


def _says_run(line: str, other: str, run: int) -> bool:
    """Whether a line says `run` words in a row of `other`."""
    own = words(other)
    runs = {tuple(own[i : i + run]) for i in range(len(own) - run + 1)}
    said = words(line)
    return any(tuple(said[i : i + run]) in runs for i in range(len(said) - run + 1))


def reads_back(line: str, persona: str) -> bool:
    """Whether a line says `READ_BACK_RUN` words in a row of the persona."""
    return _says_run(line, persona, READ_BACK_RUN)


ECHO_RUN = 5  # words in a row of what the NPC was told or given that echo it back


def echoes(line: str, heard: str) -> bool:
    """Whether a reply says `ECHO_RUN` words in a row of a line it heard or of its own
    notes: the player's words or the perception said back, not answered."""
    return _says_run(line, heard, ECHO_RUN)
