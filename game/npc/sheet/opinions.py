"""What a persona says the NPC thinks of someone it names: what follows their name when it
says what they are ("thinks Aldous is a miser": "is a miser"), what they do when the NPC
feels something about it or fears them ("is hurt that Ulric calls him a snob": "calls me a
snob"; "is scared stiff of Ulric": "scares me stiff"), else the whole clause.
"""

from __future__ import annotations

import re

from game.limits import SHEET_PHRASE_CHARS
from game.npc.scripted.first_person import first_person, object_me

__all__ = ["opinion", "phrase"]


def phrase(text: str, name: str, own: bool = True, own_object: str = "") -> str:
    """A phrase as the NPC would say it: its own pronouns first person (unless it names
    someone else, whom they may mean: then only `own_object`, its "him" or "her" when
    known, is "me"), short, no stop."""
    text = " ".join(text.split())
    text = (first_person(text, name) if own else object_me(text, own_object)).strip(" ,.;:!?")
    text = re.sub(r"^(?:that|to)\s+", "", text)
    return text[:SHEET_PHRASE_CHARS].rstrip()


# A feeling of the NPC's own about what someone does ("is hurt that Ulric calls him a
# snob"), and a fear of someone ("is scared stiff of Ulric"): what it thinks of them is
# said of them, as the NPC says it ("calls me a snob", "scares me stiff").
_FEELS_THAT = re.compile(
    r"\b(?:is|am|was|feels?|gets?)\s+(?:(?:so|very|quite|deeply|rather|a\s+bit)\s+)?"
    r"(?:hurt|upset|sad|sorry|glad|pleased|angry|cross|annoyed|furious|jealous|proud|"
    r"offended|wounded|touched|grateful)\s+(?:that|because|when)\s+$",
    re.I,
)
_AFRAID_OF = re.compile(
    r"\b(?:is|am|was|feels?|gets?)\s+(?:(?:so|very|quite|a\s+bit|a\s+little)\s+)?"
    r"(?:scared|afraid|frightened|terrified)(?P<how>\s+(?:stiff|witless|silly|to\s+death))?"
    r"\s+of\s+$",
    re.I,
)
# Where what is said of someone ends: the next thing the persona says ("and of the dark").
_ENDS = re.compile(r",|\s+(?:and|since|because|though|although|but|so|while)\s+", re.I)


def opinion(clause: str, found: re.Match[str], name: str, own_object: str = "") -> str:
    """What a clause naming someone says the NPC thinks of them: what follows their name
    when it says what they are ("is a chancer"), what they do when the NPC feels something
    about it or fears them ("calls me a snob", "scares me"), else the whole clause."""
    before, rest = clause[: found.start()], clause[found.end() :].strip()
    if _FEELS_THAT.search(before) and rest:
        return phrase(first_person(_ENDS.split(rest)[0], name), name, False, own_object)
    if re.search(r"\b(?:finds|considers)\s*$", before) and re.match(_HOW_SO, rest):
        return phrase(
            f"is {_ENDS.split(rest)[0]}", name, False, own_object
        )  # "finds Maud too loud"
    if re.search(r"\b(?:suspects|accuses)\s*$", before) and re.match(r"of [a-z]+ing\b", rest):
        return phrase(f"is up to {_ENDS.split(rest)[0][3:]}", name, False, own_object)  # smuggling
    afraid = _AFRAID_OF.search(before)
    if afraid:
        how = " ".join((afraid.group("how") or "").split())
        return f"scares me {how}".strip()
    said = rest if re.match(r"(?:is|are|was|has|seems|looks)\b", rest) else clause
    return _HERE.sub("here", phrase(said, name, False, own_object))


_HOW_SO = r"(?:far|too|very|rather|quite|so|a bit|a little|terribly|awfully)\b"
# The village as one who lives in it says it: "the only one here with any sense".
_HERE = re.compile(r"\bin (?:the|this|our) (?:village|hamlet|town)\b", re.I)
