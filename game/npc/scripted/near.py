"""What the player brings near the NPC without asking anything of it. A thing it cannot
abide ("look, a cat!" of one who can't abide cats) is shooed off; a deed one of its beliefs
warns of ("*whistles a tune*" of one who believes whistling on the quay calls up a gale) is
stopped, with what the belief says it brings as the reason; one it says brings luck
("*shakes your hand*" of a sweep sure that shaking a sweep's hand brings luck) is welcome.
"""

from __future__ import annotations

import re

from game.npc.reading.naming import FILLER, stem
from game.npc.reading.words import tokens
from game.npc.scripted.about import said_as
from game.npc.scripted.matching import names_thing, without_wares
from game.npc.scripted.retell import shorter
from game.npc.scripted.social import player_act
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.scripted.whereabouts import asks_the_way
from game.npc.skills import SkillCall

__all__ = ["dislike_near", "omen", "spotted", "warned"]

# A question of what it feels, not a thing brought near: "do you like cats?", "why...?"
_ASKS_OF_IT = re.compile(
    r"^\W*(?:do|does|did|why|how|would|will|could|can|shall|what do you|what's wrong with|"
    r"what'?s (?:your|ur|yer) (?:problem|issue|beef|trouble) with)\b",
    re.I,
)


def dislike_near(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC shooing off a thing it cannot abide that the line brings near ("there's a
    cat on your nets!"), or None: a dislike that is a deed ("wasting bread") or a kind of
    people is nothing a line brings near."""
    said = without_wares(talk.said, talk.npc.sheet.wares)
    if asks_the_way(said) or _ASKS_OF_IT.match(said):
        return None
    thing = next(
        (
            d
            for d in talk.npc.sheet.dislikes
            if len(d.split()) <= 3
            and not re.search(r"\b(?:who|that|which|people|folk|anyone|\w+ing)\b", d)
            and names_thing(said, d)
        ),
        "",
    )
    return said_as(talk, speak, "dislike_near", "thing", shorter(thing)) if thing else None


# A belief of what a deed brings: "whistling on the quay | calls up a gale".
_DEED_BRINGS = re.compile(
    r"^(?P<deed>[a-z]{4,}ing)\b(?:\s+\S+){0,5}?\s+"
    r"(?P<then>(?:calls|brings|means|causes|wakes|angers|summons|turns|makes|will|can)\b.+)$"
)
# What a belief says a deed brings that is welcome: "brings luck for a year".
_LUCKY = re.compile(r"(?:brings|means|gives)\s+(?:good\s+)?(?:luck|fortune|health|love|wealth)\b")
# What does a deed rather than ask of one: "*whistles*", "I'll whistle", "watch me whistle".
_DOING = re.compile(
    r"^\W*(?:i'll|i will|i'm going to|i am going to|let me|watch me|listen)\b", re.I
)


def warned(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC stopping a deed the player does that one of its beliefs warns of, with what
    the belief says it brings ("No whistling, love! It calls up a gale!"), or None."""
    said = talk.said
    if player_act(said) is None and not _DOING.match(said):
        return None
    words = tokens(said.lower())
    for belief in talk.npc.sheet.beliefs:
        found = _DEED_BRINGS.match(belief.what)
        # the deed's own start: "whistl" (whistles), "cut" (cutting), "spil" (spilled)
        base = re.sub(r"([^aeiou])\1$", r"\1", found["deed"][:-3]) if found else ""
        if found and len(base) >= 3 and any(w.startswith(base) for w in words):
            table = "belief_glad" if _LUCKY.match(found["then"]) else "belief_warned"
            return speak.line(table, doing=found["deed"], then=found["then"])
    return None


# A belief of what a sign brings: "a robin at the window | means a letter is coming", "new
# shoes on a table | bring bad luck".
_SIGN = re.compile(
    r"^(?P<sign>.+?)\s+(?P<verb>brings?|means?|calls?|is|are)\s+(?P<then>(?:a |an |good |bad )?"
    r"(?:luck|fortune|trouble|death|rain|storm|letter|stranger|news|visitor|money|wedding)\b.*)$"
)
_ONE = {"bring": "brings", "mean": "means", "call": "calls", "are": "is"}


def omen(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """What a sign the line tells of or asks to make means, by one of the NPC's beliefs
    ("there's a robin at your window": "A robin at the window? That means a letter is
    coming!"), or None: the sign named by two of its words (one, if it has only one)."""
    said = talk.said
    if re.search(r"\bwhy\b", said, re.I):
        return None
    asked = {stem(w) for w in tokens(said.lower())} - FILLER
    for belief in talk.npc.sheet.beliefs:
        found = _SIGN.match(belief.what)
        if found is None:
            continue
        sign = {stem(w) for w in tokens(found["sign"].lower()) if len(w) > 2} - FILLER
        if len(asked & sign) < min(2, len(sign)) or not sign:
            continue
        then = f"{_ONE.get(found['verb'], found['verb'])} {found['then']}"
        bad = re.search(r"\b(?:bad|ill) luck\b|\btrouble\b|\bdeath\b", then)
        return speak.line("omen_bad" if bad else "omen", thing=found["sign"], what=then)
    return None


# Something the player shows: "look, a gull!", "*points at the old tower*".
_SHOWN = re.compile(
    r"(?:^|(?<=[*.!,]))\s*(?:look|see|quick|there)\W+(?:there'?s |over there,? )?"
    r"(?P<thing>(?:a|an|the|that|some|two|three) (?:[a-z]+ ){0,2}?[a-z]{3,})"
    r"(?=\s+(?:on|in|over|up|by|at|near|flying|out)\b|\W*$)|"
    r"\*\s*points (?:up )?(?:at|to|towards) (?P<pointed>(?:a|an|the) [a-z' ]{3,30}?)\s*\*",
    re.I,
)


def spotted(said: str) -> str:
    """The thing a line shows the NPC ("look, a gull!": "a gull"), the last one shown when
    it shows more ("*points at the sky* look, a gull!"); "" when it shows nothing or asks."""
    if "?" in said:
        return ""
    shown = [m["thing"] or m["pointed"] for m in _SHOWN.finditer(said)]
    return shown[-1] if shown else ""
