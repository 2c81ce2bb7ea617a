"""What the persona brain says of a place, a person and the NPC itself, from the facts:
a place's description as the NPC says it (its own name in it becomes "my"), the persona's
side on a place or a question, a villager's role and home, the NPC's work, things and
likes from its persona in the first person.
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import Intent, asks_yes_no
from game.npc.reading.kinds import Kind, Target
from game.npc.scripted.first_person import first_person
from game.npc.scripted.lines import sentences
from game.npc.scripted.retell import about_it, clauses, closest, side_on
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named, say
from game.npc.scripted.whereabouts import where_is
from game.npc.skills import SkillCall

__all__ = ["bit_of", "own", "person_answer", "place_answer", "self_answer", "side_of"]


def own(description: str, npc: VillagerFacts) -> str:
    """A description as the NPC says it: its own name in it becomes "my" or "I"."""
    names = [npc.name, npc.name.split()[-1]] if npc.name else []
    if any(re.search(rf"\b{re.escape(n)}\b", description) for n in names):
        description = first_person(description, npc.name)
    return description[:1].upper() + description[1:]


def bit_of(description: str) -> str:
    """The first part of a description ("A round stone well under a little red roof"), to
    say on arriving; empty if it is too long to say in passing."""
    head = re.split(r"[,;:.]", description, maxsplit=1)[0].strip()
    if not 0 < len(head) <= 70:
        return ""
    return head[:1].lower() + head[1:] if re.match(r"(?:A|An|The)\b", head) else head


def _mine(sentence: str) -> str:
    """A persona sentence that only names a kind of person ("A cheerful baker.") said as
    the NPC's own ("I'm a cheerful baker.")."""
    if re.match(r"(?:A|An|The)\b", sentence):
        return "I'm " + sentence[0].lower() + sentence[1:]
    return sentence


def place_answer(talk: PlayerLine, target: Target, speak: Speaker) -> SkillCall:
    """The line about a place asked of: its description as the NPC says it, or its side."""
    npc = talk.npc
    way = where_is(talk, target)  # "where is the tavern?": the way, not its looks
    if way and not speak.stale(way):
        return say(f"{way} {_persona_on(npc, target)}".strip(), "player")
    place = place_named(npc, target.name)
    desc = own(place.description, npc) if place is not None and place.description else ""
    if not desc:
        desc = f"It's {target.label}. You can't miss it."
    table = "place_mine" if target.name == npc.home else Kind.PLACE
    said = _persona_on(npc, target)
    if said and asks_yes_no(talk.said) and not speak.stale(said):
        # "Is the old bridge safe?": the NPC's side on it, not the bridge described.
        return say(f"{target.label[:1].upper()}{target.label[1:]}? {said}", "player")
    text = speak.text(table, place=target.label, desc=desc)
    if said and said not in text and len(text) + len(said) < 200 and not speak.stale(said):
        text = f"{text} {said}"
    if desc in text or not speak.stale(text):
        return say(text, "player")
    return speak.line(Kind.GO, place=target.label)


def _persona_on(npc: VillagerFacts, target: Target) -> str:
    """What the NPC's persona says of a place, told short ("I worry about it." for "quietly
    worries about the old bridge"), if it says anything."""
    words = [w for w in target.name.split("_") if len(w) > 2]
    for clause in clauses(npc.persona, npc.name):
        if any(re.search(rf"\b{re.escape(w)}\b", clause, re.I) for w in words):
            return about_it(clause)
    return ""


def person_answer(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall:
    """The line about a villager asked of: where they are found, who they are."""
    target = intent.target
    assert target is not None
    home = place_named(talk.npc, target.home)
    facts = {"who": target.label, "role": target.about}
    if intent.sub == "where" and home is not None:
        return speak.line("person_where", home=label_of(home), **facts)
    if intent.sub == "opinion":
        return speak.line("person_opinion", **facts)
    if not target.about:
        return speak.line("person_opinion", **facts)
    return speak.line("person_who", **facts)


# What a persona says the NPC carries ("collects shiny pebbles") and where its things come
# from ("curiosities from distant towns"): the words after these, for "have" and "origin".
_OBJECTS = {
    "have": re.compile(r"\b(?:collects?|carr(?:y|ies)|full of|sells?|hoards?)\s+(.+)$", re.I),
    "origin": re.compile(r"\bfrom\s+(.+)$", re.I),
}


def side_of(talk: PlayerLine) -> str:
    """The persona's side on what the player asks, as the NPC says it, or ""."""
    return side_on(talk.said, talk.npc.persona, talk.npc.name)


def _persona_object(npc: VillagerFacts, sub: str) -> str:
    """The words the first persona clause matching `_OBJECTS[sub]` says ("shiny pebbles",
    "distant towns"), or ""."""
    for clause in clauses(npc.persona, npc.name):
        found = _OBJECTS[sub].search(clause)
        if found:
            return found.group(1).strip()
    return ""


def self_answer(talk: PlayerLine, sub: str, speak: Speaker) -> SkillCall:
    """The line about the NPC itself, from its persona in the first person."""
    npc = talk.npc
    said = [_mine(first_person(s, npc.name)) for s in sentences(npc.persona)]
    job = said[0] if said else f"I'm {npc.name}."
    if sub == "work":
        return speak.line("self_work", job=job)
    if sub == "trade":  # the persona sentence the question is about, else what it does
        return speak.line("self_work", job=closest(talk.said, said) or job)
    if sub in _OBJECTS:
        carried = _persona_object(npc, sub)
        if not carried:
            return speak.line("self_work", job=job)
        if sub == "have":
            carried = carried[:1].upper() + carried[1:]
        return speak.line(f"self_{sub}", thing=carried)
    if sub == "side":
        return speak.line("self_side", about=side_of(talk) or job)
    if sub in ("like", "about"):
        index = 1 if sub == "like" else 2
        about = said[min(index, len(said) - 1)] if said else job
        about = side_of(talk) or closest(talk.said, said) or about
        return speak.line(f"self_{sub}", about=about)
    home = place_named(npc, npc.home)
    if sub == "home" and home is not None:
        return speak.line("self_home", home=label_of(home), desc=own(home.description, npc))
    return speak.line("self_who", job=job)
