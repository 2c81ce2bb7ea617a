"""Where a villager works when the map gives it no `work`: the place its persona names as
its own ("She rings the bell in the belltower", "Works the dyeworks").

A map maker who writes "Ysolde makes lamps in the glasshouse near the washhouse" and sets
no `work` property still means the glasshouse is hers: the first place the persona names in
a clause of what it does. A place named in a clause of a feeling, a belief or a home ("is
afraid of the quay", "thinks the mill is haunted", "lives by the well"), or as someone
else's ("Osric's dyeworks"), is not its work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["named_work", "place_index"]

# Where a clause of a persona ends.
_CLAUSE = re.compile(r"[.;:!?,]|\b(?:and|but|who|which|because|though|while)\b", re.I)
# Words of a clause that make a place it names something other than its work.
_NOT_WORK = re.compile(
    r"\b(?:afraid|fears?|scared|terrified|hates?|dislikes?|loathes?|avoids?|dreams?|wish(?:es)?"
    r"|thinks?|believes?|swears?|suspects?|says?|misses|longs?|never|lives?|living|sleeps?"
    r"|home|born|grew|worries|visits?|dreads?)\b",
    re.I,
)


def _pattern(place: str) -> re.Pattern[str]:
    """A place's id as a persona writes it: "bell_tower" finds "bell tower", "belltower"."""
    words = [re.escape(w) for w in re.split(r"[_\s-]+", place) if w]
    return re.compile(r"\b" + r"[\s_-]?".join(words) + r"s?\b", re.I)


def place_index(places: Iterable[str]) -> dict[str, list[str]]:
    """The places of a map by the word a persona names each with first ("bell" and
    "belltower" for "bell_tower"), so a persona is looked up by its own few words."""
    index: dict[str, list[str]] = {}
    for place in places:
        words = [w for w in re.split(r"[_\s-]+", place.lower()) if w]
        for key in {words[0], "".join(words)} if words else set():
            index.setdefault(key, []).append(place)
    return index


def named_work(persona: str, name: str, index: dict[str, list[str]]) -> str:
    """The id of the place the persona names first in a clause of what the NPC does, or "";
    `index` is the map's `place_index`."""
    own = name.split()[0] if name.split() else ""
    found = re.findall(r"[a-z]+", persona.lower())
    places = dict.fromkeys(p for w in found for p in index.get(w, index.get(w.rstrip("s"), [])))
    best: tuple[int, str] | None = None
    for place in places:
        for hit in _pattern(place).finditer(persona):
            start = hit.start()
            clause = _CLAUSE.split(persona[:start])[-1]
            owner = re.search(r"\b([A-Z][\w]*)'s\s+(?:\w+\s+)?$", persona[:start])
            if _NOT_WORK.search(clause) or (owner and owner.group(1) != own):
                continue
            if best is None or start < best[0]:
                best = (start, place)
            break
    return best[1] if best is not None else ""
