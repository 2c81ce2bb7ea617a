"""What a persona says of how an NPC works, why, and how it came to it.

Read from the persona's clauses in any wording: the things it does ("melts sand in a
furnace", "walks every road before she draws it"), the reasons it gives ("because she
does not trust other people's maps", "so the leather stays soft", "which is why she makes
candles") and its past in the trade ("her grandmother taught her", "took over from his
uncle ten years ago", "has worked there for twenty years"). The persona brain answers a
player's "how", "why" and "who taught you" from these (`game.npc.scripted.howwhy`).
"""

from __future__ import annotations

import re

from game.limits import SHEET_ITEMS, SHEET_PHRASE_CHARS
from game.npc.scripted.clauses import clauses_of, verb_led
from game.npc.scripted.lines import sentences

__all__ = ["past_of", "reasons_of", "ways_of"]

# Verbs that say how the NPC is towards something, or what it sells, not what it does.
_STANCE = frozenset(
    """loves likes hates fears dislikes enjoys adores believes thinks suspects swears dreams
    wonders worries dreads prefers longs wants wishes sells trades is am has was does talks
    speaks says laughs scolds distrusts trusts mistrusts detests loathes despises reckons
    insists knows could would will can can't cannot won't never not refuses refuse blushes
    stammers stutters mumbles mutters sighs frowns scowls giggles smiles""".split()
)
# A price said: what is sold, not done.
_PRICE = re.compile(
    r"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|a few|few)"
    r"\s+(?:\w+\s+)?(?:coppers?|coins?|pennies|penny|pence|silver|gold|crowns?|shillings?|"
    r"groats?)\b",
    re.I,
)
# A past in the trade: who taught it, when it came, how long it has been at it.
_PAST = re.compile(
    r"\b(?:taught|teach\w*|learn(?:ed|t|ing)|apprentic\w*|trained|took over|inherited|handed "
    r"down|grew up|came (?:here|from|to)|years ago|for (?:[\w-]+ ){1,2}years|showed (?:him|her|"
    r"them|me) how|since (?:she|he|"
    r"they|I|childhood|a \w+|the \w+)|all (?:her|his|their|my) life)\b",
    re.I,
)
# Where a reason is given after what is done, and where before it ("which is why").
_BECAUSE = re.compile(
    r",?\s+(?:because|so that|so|since|for fear)\s+(?=(?:she|he|they|I|it|the|her|his|"
    r"their|its|people|nobody|no one|everyone)\b)|,?\s+because (?:of\s+)?",
    re.I,
)
_WHICH_IS_WHY = re.compile(r",?\s+(?:which|and that)(?:'s| is) (?:why|how)\s+", re.I)
_PURPOSE = re.compile(r"\s+(?:in order )?to (?=keep|make|stop|help|get|save|see|feed|warn)", re.I)


_PRIDE = re.compile(r"^takes? (?:\w+ )?pride\b", re.I)


def _short(items: list[str]) -> tuple[str, ...]:
    kept = [i[:SHEET_PHRASE_CHARS].strip(" ,") for i in items if i.strip(" ,")]
    return tuple(dict.fromkeys(kept))[:SHEET_ITEMS]


def _lead(clause: str) -> str:
    words = [w.lower() for w in clause.split()]
    skip = {"never", "always", "often", "still", "also", "only", "even", "just", "usually"}
    return next((w for w in words if w not in skip), "")


def ways_of(persona: str, name: str) -> tuple[str, ...]:
    """The things the persona says the NPC does, in order, said of it without its subject
    ("melts sand and ash in a furnace"): not its stances, sales or past."""
    out = []
    for clause in clauses_of(persona, name):
        if (
            verb_led(clause)
            and _lead(clause) not in _STANCE
            and not _PAST.search(clause)
            and not _PRICE.search(clause)  # "bowls for a few coppers each" is a sale
            and not _PRIDE.match(clause)  # "takes pride in its colours" is a like
        ):
            out.append(_BECAUSE.split(clause, maxsplit=1)[0])
    return _short(out)


def past_of(persona: str, name: str) -> tuple[str, ...]:
    """What the persona says of the NPC's past in its work: who taught it, since when."""
    return _short([c for c in clauses_of(persona, name) if _PAST.search(c)])


def reasons_of(persona: str, name: str) -> dict[str, str]:
    """What the NPC does -> why, as the persona gives it ("walks every road herself before
    she draws it" -> "she does not trust other people's maps")."""
    out: dict[str, str] = {}
    for sentence in sentences(persona):
        for part in _PARTS.split(sentence.rstrip(".!?")):
            _reason_in(part, name, out)
    return dict(list(out.items())[:SHEET_ITEMS])


_SINCE_WHEN = re.compile(
    r",?\s+since\s+(?:she|he|they|I)\s+(?:was|were|first|could|came|left)\b", re.I
)
# A sentence's parts that each may give a reason: at ";" and at "and" before a subject.
_PARTS = re.compile(r"\s*;\s*|,?\s+and\s+(?=(?:she|he|they|I)\s)", re.I)


def _reason_in(part: str, name: str, out: dict[str, str]) -> None:
    """The reason one part of a sentence gives, added to `out` (what is done -> why)."""
    found = _WHICH_IS_WHY.search(part)
    if found:  # "keeps every pattern in her head, which is why she never writes one down"
        did = clauses_of(part[found.end() :], name)
        before = clauses_of(part[: found.start()], name)
        if did and before:
            out[did[0][:SHEET_PHRASE_CHARS]] = before[-1][:SHEET_PHRASE_CHARS]
        return
    found = _BECAUSE.search(part) or _PURPOSE.search(part)
    if found is None or _SINCE_WHEN.match(part[found.start() :]):  # "since he was nine": when
        return
    did = clauses_of(part[: found.start()], name)
    why = part[found.end() :].strip(" ,")
    if found.re is _PURPOSE:
        why = f"to {why}"
    if did and why and not _PAST.search(did[-1]):  # not "ever since she came"
        out[did[-1][:SHEET_PHRASE_CHARS]] = why[:SHEET_PHRASE_CHARS]
