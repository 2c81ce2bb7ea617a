"""How a line's words meet a character sheet's phrases: telling words by their stems, a
word made with another ("thunderstorm": storm), the sheet item a line touches most, and a
sheet's fears and worries as things."""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.npc.reading.naming import FILLER, families_of, stem, tokens

__all__ = [
    "COLD",
    "WARM",
    "favourite",
    "fears_of",
    "kind_of",
    "made_with",
    "names_thing",
    "one_listed",
    "sign_of",
    "stems_of",
    "touched",
    "without_wares",
    "worried",
]


# "anything except wasps", "nothing but the dark": a fear of that one thing only.
_ONLY = r"(?:anything|nothing|naught)\s+(?:except|but|save|apart from|other than)\s+"
_NONE = frozenset({"nothing", "anything", "naught", "nobody", "no one", "anyone"})
_FEARS_ONLY = re.compile(
    rf"\b(?:afraid|scared|frightened|terrified|fears?)\s+(?:of\s+)?{_ONLY}(?P<only>[^,.;!?]+)", re.I
)


def fears_of(fears: Iterable[str], persona: str = "") -> list[str]:
    """A sheet's fears as things ("anything except wasps": wasps); a fear of nothing is
    none, or the one thing the persona excepts ("scared of nothing but lightning")."""
    out: list[str] = []
    for fear in fears:
        fear = re.sub(rf"^{_ONLY}", "", fear, flags=re.I)
        if fear.lower() in _NONE:
            only = _FEARS_ONLY.search(persona)
            fear = only.group("only").strip() if only else ""
        if fear:
            out.append(fear)
    return out


def worried(fear: str, persona: str) -> bool:
    """Whether the persona says a fear as a worry ("worries about the old bridge"): a worry
    does not keep the NPC from going near the thing."""
    worry = (
        r"\b(?:worr(?:y|ies|ied)\s+(?:about|over|that)|(?:afraid|scared|frightened|terrified)"
        rf" that)\s+{re.escape(' '.join(fear.split()[:2]))}"
    )
    return bool(re.search(worry, persona, re.I))


def stems_of(text: str) -> set[str]:
    """A text's telling words by their first five letters ("lateness" as "late")."""
    words = (re.sub(r"(?<=\w{3})ness$|'s?$", "", w) for w in tokens(text))  # "dog's": dog
    return {stem(w)[:5] for w in words if len(w) > 2 and w not in _NOT_TELLING}


def touched(said: str, items: Iterable[str], kin: bool = True) -> str:
    """The item of a sheet list that shares the most telling words with a line (by their
    stems, or their family unless `kin` is False: "packed" finds "crowds"), or ""."""
    asked, kinds = stems_of(said), families_of(said) if kin else set()
    best, found = 0, ""
    for item in items:
        theirs = stems_of(item)
        made = {a for a in asked - theirs if any(made_with(a, w) for w in _long_words(item))}
        score = len(asked & theirs) + len(made) + len(kinds & families_of(item))
        if score > best:
            best, found = score, item
    return found


def one_listed(phrase: str, said: str) -> list[str]:
    """A phrase of a list said of the item a line touches first, then of each other:
    "believe in charms, curses or lucky feet", of a rabbit's foot, as "believe in lucky
    feet", "believe in charms"...; [] when the phrase lists nothing."""
    found = re.match(r"(?P<head>\w+(?: in| of| about)?) (?P<rest>.+)$", phrase)
    if found is None:
        return []
    listed = re.split(r",\s*(?:or |and |nor )?|\s+(?:or|and|nor)\s+", found["rest"])
    items = [i for i in listed if i]
    if len(items) < 2:
        return []
    hit = touched(said, items)
    items.sort(key=lambda i: i != hit)
    return [f"{found['head']} {i}" for i in items]


def _long_words(text: str) -> set[str]:
    return {stem(w) for w in tokens(text) if len(w) > 6}


def made_with(one: str, other: str) -> bool:
    """Whether one word is made with the other at its start or end ("honeycomb" with
    "comb", "thunderstorm" with "storm"), each of four letters or more."""
    long, short = (one, other) if len(one) > len(other) else (other, one)
    ends = (long[: len(short)], long[-len(short) :])
    return len(short) > 3 and len(long) > len(short) + 2 and short in ends


def kind_of(one: str, other: str) -> bool:
    """Whether one word names a kind of the other, made with it at its end ("bonfire" of
    "fire", "hailstorm" of "storm"; "firewood" is wood), each of four letters or more."""
    return len(other) > 3 and len(one) > len(other) + 2 and one.endswith(other)


# What shows a thing is near before it is seen: smoke of a fire, thunder of a storm.
_SIGNS = {
    "fire": frozenset("smoke smoky smoking flames flame burning blaze ablaze".split()),
    "storm": frozenset("thunder lightning".split()),
    "dog": frozenset("bark barking barks growl growling woof".split()),
    "wolf": frozenset("howl howling howls".split()),
    "water": frozenset("swim swimming dip dive diving paddle paddling bathe wade drown".split()),
    "height": frozenset("climb climbing ladder rooftop rooftops cliff".split()),
    "horse": frozenset("ride riding saddle pony".split()),
    "spider": frozenset("cobweb cobwebs web".split()),
}


def names_thing(said: str, thing: str) -> bool:
    """Whether a line names a thing by its last word: the same word, or a kind of it or
    the thing a kind of the line's ("a storm" of thunderstorms, "the bonfire" of fire),
    not a word it only starts ("horseshoes" is no horse)."""
    last = stem(thing.lower().split()[-1]) if thing.split() else ""
    words = {stem(re.sub(r"'s?$", "", w)) for w in tokens(said.lower()) if len(w) > 2}
    return len(last) > 2 and any(w == last or kind_of(w, last) or kind_of(last, w) for w in words)


def sign_of(said: str, thing: str) -> bool:
    """Whether a line tells a sign of a thing ("smoke over the forest" of fire, "barking"
    of dogs), the thing by its last word or one it ends with ("thunderstorms": storm)."""
    words = {w.removesuffix("'s") for w in tokens(said.lower())}  # "thunder's rumbling"
    last = stem(thing.lower().split()[-1]) if thing.split() else ""
    return any(
        words & signs for kind, signs in _SIGNS.items() if last == kind or kind_of(last, kind)
    )


def without_wares(said: str, wares: Iterable[str]) -> str:
    """A line without the words of what the NPC sells ("a cart of firewood" of one who
    sells firewood): its own goods neither frighten nor offend it."""
    words = {w for ware in wares for w in tokens(ware.lower()) if len(w) > 3}
    if not words:
        return said
    return re.sub(rf"\b(?:{'|'.join(map(re.escape, words))})\b", " ", said, flags=re.I)


# Words that tell nothing of what a line is about.
_NOT_TELLING = FILLER | frozenset(
    """anyone anybody everyone everybody someone somebody nobody nothing anything whoever
    whatever never always ever really truly think believe like love hate fear afraid sure
    certain true real does have has had been being were was will would should could might
    must shall they them their there then than your yours ours just much many more
    most very also still even only such other others thing things something come comes
    coming go goes going get gets getting got soon day days""".split()
)


_FAVOURITE = re.compile(r"\bfavou?rite\s+([a-z]+)", re.I)


def favourite(said: str, persona: str) -> str:
    """The favourite the persona names of the kind a line asks ("her favourite colour is
    yellow": "yellow" to "what's your favourite colour?"), or ""."""
    asked = _FAVOURITE.search(said)
    if asked is None:
        return ""
    kind = re.escape(stem(asked.group(1).lower()))
    named = re.search(
        rf"\bfavou?rite {kind}\w*(?: of all)? (?:is|are|was|:) (?:always |probably )?([^,.;!?]+)",
        persona,
        re.I,
    )
    return named.group(1).strip() if named else ""


# Words of a warm opinion of another ("trusts her", "a dear friend", "kind"), and of a cold
# one, which outweighs them ("not to be trusted").
WARM = re.compile(
    r"\b(?:trust\w*|friend\w*|fond|kind\w*|good|best|love\w*|like\w*|admire\w*|respect\w*|ador\w*|"
    r"dear|generous|honest|loyal|clever\w*|wise\w*|helpful|sweet|brave\w*|fine\w*|great\w*|"
    r"\w*-hearted|smart\w*|gentle|lovely|wonderful|marvellous|splendid|handsome|charming|"
    r"funn\w*|nice\w*|jolly|cheer\w*|salt of the earth|heart of gold|good as gold)\b",
    re.I,
)
COLD = re.compile(
    r"\b(?:not|never|no|distrust\w*|hides?|hiding|lazy|liar|lies|cheat\w*|fool\w*|thief|"
    r"steals?|suspect\w*|hate\w*|dislike\w*|rude|mean|sly|odd|strange|rogue|idle|owes|nosy|"
    r"vain|careless|grump\w*|worst|laz\w*|talks too much|mean(?:er|est)|stingy|miser\w*|pests?|"
    r"brutes?|braggart|coarse|worse|cruel\w*|greedy|selfish|vicious|annoy\w*|irritat\w*|"
    r"tiresome|nast\w*|unpleasant|horrid\w*|dishonest|fraud|crook\w*|snob\w*|dreadful\w*|"
    r"terribl\w*|awful\w*|useless|boring|dull|wicked|busybod\w*|smuggl\w*|up to no good|"
    r"know-all|know-it-all|show-off|pompous|too (?!kind|good|generous)\w+|windbag\w*|can't stand|"
    r"cannot stand|proud(?! of))\b",
    re.I,
)
