"""Whom a line is said to: the words that only address the listener, taken off.

"Brenna, where is the mill?" asks where the mill is; "Elder, ..." and "..., Brenna?"
address the NPC by its name or its persona's words, and "Well, ..." only clears the
throat. What is left is what was asked, for the reader of the line.
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts

__all__ = ["unaddressed"]

# Words before a comma that address someone, or only clear the throat ("Well, ...").
_INTERJECTION = frozenset({"well", "so", "oh", "ah", "okay", "ok", "now", "right", "alright"})
_ADDRESS = frozenset({"dear", "good", "old", "master", "mistress", "miss", "mister", "sir"})


def unaddressed(text: str, npc: VillagerFacts) -> str:
    """The line without a first or last word or two that address the NPC by its name or
    its persona's words ("Elder, ...", "..., Brenna?") or only clear the throat."""
    own = {
        w.lower() for w in re.findall(r"[A-Za-z]{3,}", f"{npc.name} {_first_clause(npc.persona)}")
    }
    own |= _ADDRESS

    def drop(found: re.Match[str], keep: str) -> str:
        words = found.group(1).lower().split()
        if words == [words[0]] and words[0] in _INTERJECTION and found.start() == 0:
            return keep
        return keep if all(w in own for w in words) else found.group(0)

    text = re.sub(r"^\W*([A-Za-z]+(?: [A-Za-z]+)?)\s*,\s*", lambda m: drop(m, ""), text)
    return re.sub(
        r",\s*([A-Za-z]+(?: [A-Za-z]+)?)\s*([?!.]*)\s*$", lambda m: drop(m, m.group(2)), text
    )


def _first_clause(text: str) -> str:
    """The persona's first 16 words up to a colon or semicolon: who the NPC is, in words
    a listener may call it by."""
    about = " ".join(text.split())[:300].split(";")[0].split(":")[0].rstrip(".")
    return " ".join(about.split()[:16])
