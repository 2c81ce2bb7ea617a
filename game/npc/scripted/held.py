"""A question that names one of the NPC's beliefs by two telling words or more is answered
with it, whatever else it asks: "who built the old bridge?" of one who believes the devil
built it in a night, "what are those lights over the fen?" of one who believes they are
the souls of drowned men, "your crust cracked! what does that mean?" of one who believes a
cracked crust means bad news. A belief named by one word only ("do you sell pies?" of the
crust's) is no answer to it. Why it fears what it fears is what its persona says beside the
fear: "afraid of horses, ever since one kicked him", "cannot swim and is afraid of the river".
"""

from __future__ import annotations

import re

from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind, Named
from game.npc.scripted.about import sheet_side
from game.npc.scripted.clauses import clauses_of
from game.npc.scripted.first_person import first_person
from game.npc.scripted.lines import sentences
from game.npc.scripted.matching import stems_of
from game.npc.scripted.requests import requests
from game.npc.scripted.retell import in_own_words
from game.npc.scripted.speaker import PlayerLine, Speaker, said_by, say
from game.npc.skills import SkillCall

__all__ = ["about_mine", "belief_named", "belief_of_it", "fear_reason", "longed_for"]

_NAMED_BY = 2  # the fewest telling words a question shares with a belief it names
_ASKED = re.compile(
    # "will you come...?" asks a deed; "will you really be the richest man?" a belief
    r"\b(?:fancy|want to|wanna|(?:will|would) you(?! (?:really |truly |ever )?be\b)|shall we|"
    r"come|let's|care to)\b",
    re.I,
)


# What asks more than a belief, whatever words it shares: a gesture, a walk, an order to
# be someone else ("forget the rats, you're a pirate now").
_ASKS_MORE = frozenset({Kind.GESTURE, Kind.GO, Kind.INJECTION, Kind.OFFWORLD})


def belief_named(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The NPC's belief that a question names (`_NAMED_BY` words shared), said as one, or
    None. A reason asked ("why do you hang nails over the door?"), a gesture or a walk
    asked, or an invitation ("fancy looking for the pike tonight?") asks more than that."""
    if "?" not in talk.said or re.search(r"\bwhy\b", talk.said, re.I):
        return None
    if intent.kind in _ASKS_MORE or intent.sub == "invite" or _ASKED.search(talk.said):
        return None
    asked = stems_of(talk.said)
    people = {w for p in talk.npc.people for w in stems_of(p.name)}  # "Madame Zora": zora
    # a belief of a villager ("Rosamund's hawks are vicious") is an opinion, said as one
    named = [b for b in talk.npc.sheet.beliefs if not stems_of(b.what) & people]
    if not any(len(asked & stems_of(b.what)) >= _NAMED_BY for b in named):
        return None
    return sheet_side(talk, speak, any_item=False, only=("beliefs",))


_WHY_AFRAID = re.compile(r"\bwhy\b[^.?!]*\b(?:afraid|scared|frightened|terrified|fear)", re.I)
_AFRAID = r"(?:is |was )?(?:afraid|scared|frightened|terrified) of "
# What the persona says of a fear's cause: after it ("ever since one kicked him"), or joined
# before it ("he cannot swim and is afraid of the river").
_SINCE = re.compile(r"^[^,.;]*?,?\s+((?:ever )?since [^,.;]+|because [^,.;]+)", re.I)
_BEFORE = re.compile(r"(?:^|,\s*|\b(?:he|she|they)\s+)([^,.;]+?)\s+and\s+$", re.I)


def fear_reason(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """Why the NPC fears what a "why are you afraid of...?" names, as its persona says
    beside the fear, in its own words; None when it says no cause."""
    if not _WHY_AFRAID.search(talk.said):
        return None
    npc = talk.npc
    asked = stems_of(talk.said)
    fear = next((f for f in npc.sheet.fears if asked & stems_of(f)), "")
    for sentence in sentences(npc.persona) if fear else ():
        at = re.search(_AFRAID + re.escape(fear), sentence, re.I)
        if at is None:
            continue
        since = _SINCE.match(sentence[at.end() :])
        before = _BEFORE.search(sentence[: at.start()])
        why = since.group(1) if since else before.group(1) if before else ""
        if why and not re.match(r"(?:is|was)\b", why):
            why = first_person(why, npc.name)
            return say(speak.text("fear_why", why=why[:1].upper() + why[1:]), "player")
    return None


# A like it longs for and has never had: "daydreams about the sea, which she has never seen",
# "dreams of seeing a city one day", "longs to sail".
_LONGS = re.compile(
    r"\b(?:day)?dream(?:s|ed)? (?:of|about)|\blongs? (?:for|to)|\bwish(?:es)? to\b", re.I
)
_OF_IT = 40  # how far past "dreams of" its thing is named
_EVER = re.compile(
    r"\bhave you (?:ever )?(?:seen|been to|visited|travelled to|set foot in|sailed)\b|"
    r"\bhave you ever been\b|\b(?:ever|been) (?:seen|to|in) (?:a |the )?",
    re.I,
)


def longed_for(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """Asked of what it longs for and has never had: "have you ever seen the sea?" gets
    never, and its longing; "want to come and see the sea?" its glad yes. None when the
    line names nothing its persona longs for, or asks neither."""
    said = talk.said
    asked = stems_of(said)
    for like in talk.npc.sheet.likes:
        own = stems_of(like)
        longed = any(  # what the longing is of: "dreams of | the sea", not "loves bread and"
            own & stems_of(sentence[found.end() : found.end() + _OF_IT])
            for sentence in sentences(talk.npc.persona)
            if (found := _LONGS.search(sentence))
        )
        if not longed or not asked & own:
            continue
        if _EVER.search(said):
            return speak.line("longed_never", thing=like)
        if requests(said.lower()):
            return speak.line("longed_yes", thing=like)
    return None


def belief_of_it(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """A belief of the sheet the line asks of a place or a person, or None; of a person,
    only one that names them ("does Lucan go to church?" asks nothing of the churchyard's
    dead)."""
    belief = sheet_side(talk, speak, any_item=False, only=("beliefs",))
    said = said_by(belief) if belief is not None else None
    target = intent.target
    if not (said and target and target.kind is Named.PERSON):
        return belief
    named = [p.name.split()[-1].lower() for p in talk.npc.people]
    named = [n for n in named if re.search(rf"\b{re.escape(n)}\b", talk.said.lower())]
    return belief if any(n in said.text.lower() for n in named) else None


# "Tell me about your mare", "talk to me about your glazes": a thing of its own.
_ABOUT_YOUR = re.compile(
    r"^\W*(?:\w+,? )?(?:so,? )?(?:tell me|talk to me|say something|go on,? tell me) (?:more )?"
    r"about your (?P<thing>[a-z-]+(?: [a-z-]+){0,2})\W*$",
    re.I,
)


def about_mine(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """Of a thing of its own the player asks it to tell of, what its persona says it does
    with it, said of itself ("My mare? I tell everyone about it!"); None when the line asks
    no such thing or its persona says nothing of it."""
    found = _ABOUT_YOUR.match(talk.said)
    if found is None:
        return None
    npc = talk.npc
    asked = [w for w in re.findall(r"[a-z]{3,}", found["thing"].lower()) if w not in _AT]
    thing = f"My {found['thing'].lower()}"
    for clause in clauses_of(npc.persona, npc.name):
        words = clause.split()
        at = next((i for i, w in enumerate(words) if any(w.startswith(a[:4]) for a in asked)), -1)
        if at < 0:
            continue
        first = max((i + 1 for i, w in enumerate(words[:at]) if w == "and"), default=0)
        if first >= at or not re.fullmatch(r"[a-z]+s", words[first]) or words[first] in _NOT_DEEDS:
            continue  # a deed of its own ("tells ... about her mare"), not "is proud"
        begin = at  # back to its verb or a word of where: "about | her prize-winning mare"
        while begin > first + 1 and words[begin - 1] not in _BEFORE_THING:
            begin -= 1
        if begin > first + 2 and words[begin - 1] in ("at", "of"):  # "youth at | sea"
            begin -= 2
            while begin > first + 1 and words[begin - 1] not in _BEFORE_THING:
                begin -= 1
        end = at + 1  # "youth | at sea" asked whole
        if words[at + 1 : at + 2] in (["at"], ["of"]) and any(
            words[at + 2 :][:1] and words[at + 2].startswith(a[:4]) for a in asked
        ):
            end = at + 3
        it = "them" if words[at].rstrip(",").endswith("s") else "it"
        told = " ".join([*words[first:begin], it, *words[end:]])
        said = first_person(f"I {told}!", npc.name)
        text = in_own_words(
            lambda t: speak.text("about_mine", thing=thing, about=t), [said], npc.persona, npc.name
        )
        if text:
            return say(text, "player")
    return None


_BEFORE_THING = frozenset("about of at in on for with to from into over under by".split())
_NOT_DEEDS = frozenset(
    "is was has does says believes thinks swears reckons fears suspects hopes wishes dreams".split()
)
_AT = frozenset("the and your about".split())
