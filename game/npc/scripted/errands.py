"""Errands the player asks about: a place for what the line asks a place for ("a spot to
watch the road?"), how far a place just talked of is ("Is it far?"), from the map's places
and the tile the NPC stands on, and how a villager is doing.
"""

from __future__ import annotations

import math
import re

from game.npc.facts import PlaceFact
from game.npc.reading.intent import Intent, read_intent
from game.npc.reading.kinds import ACTIONS, Kind, Named, Target
from game.npc.reading.naming import find_target, norm
from game.npc.reading.player import swapped
from game.npc.scripted.matching import stems_of
from game.npc.scripted.retell import verb_at
from game.npc.scripted.speaker import (
    PlayerLine,
    Speaker,
    label_of,
    opening_label,
    place_named,
    said_by,
    say,
)
from game.npc.scripted.village_life import as_ever
from game.npc.scripted.villagers import opinion_line
from game.npc.scripted.whereabouts import way_to
from game.npc.skills import SkillCall
from game.npc.skills.base import MAX_SAY

__all__ = ["errand", "sent_for"]

# "is it far?", "how far is that?", "is the mill far from here?", "a long walk?"; not a
# "far" of how much ("it's far too cold", "that's far better")
_FAR = re.compile(
    r"\b(?:is|it's|its|that's|thats) (?:it |that |the [\w ]{1,30}? )?(?:very |too |much )?far\b"
    r"(?!\s+(?:too|more|less|better|worse|\w+er)\b)|"
    r"\bhow far\b|\b(?:a |too )?long walk\b|\bhow long (?:does it take|to walk|a walk)\b|"
    r"\bfar (?:from here|away)\?"
)
# How far a place is, by tiles from the NPC: the most tiles each word is said of.
_HOW_FAR = (
    (6.0, "Not far at all, just over there."),
    (14.0, "Not far, a short walk."),
    (24.0, "A fair walk, but not far."),
    (math.inf, "A good walk, right across the village."),
)


def errand(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The place for what the line asks a place for, how far the place asked of (or the
    one just talked of) is, or how a villager is doing; None when the line asks none."""
    if intent.kind not in ACTIONS and _PLACE_TO.search(norm(talk.said)):
        found = _place_for(talk)  # else what the line names answers it
        if found is not None:
            return found
    if _FAR.search(norm(talk.said)):
        return _far(talk)
    if intent.kind is Kind.PERSON and intent.target is not None and _HOWS.search(norm(talk.said)):
        return _how_they_are(talk, intent, speak)
    if intent.kind is Kind.PLACE and intent.target is not None and _THINGS.search(norm(talk.said)):
        return _how_it_goes(talk, intent.target, speak)
    return None


# "where's a good place to sit and watch the road?", "is there a spot for swimming?"
_PLACE_TO = re.compile(r"\b(?:place|spot|somewhere|anywhere) (?:to|for|i can|i could|where)\b")
_PLACE_WORDS = 2  # words of a description that say the place is for what is asked


def _place_for(talk: PlayerLine) -> SkillCall | None:
    """The place whose description says it is for what the line asks a place for, and the
    way to it ("Where's a spot to watch the road?": the wall where people sit to watch
    it); None when no description shares enough words with the line."""
    asked = _PLACE_TO.split(norm(talk.said), maxsplit=1)[-1]
    wanted = stems_of(asked)
    scored = [(len(wanted & stems_of(p.description)), p) for p in talk.npc.places]
    best = max(scored, key=lambda pair: pair[0], default=(0, None))
    place = best[1]
    if best[0] < _PLACE_WORDS or place is None:
        return None
    way = way_to(talk, place)
    return say(f"{opening_label(place)}. {way}".strip(), "player")


# "how's Marrick doing?", "how is Quill these days?", "how's Aldous getting on?"
_HOWS = re.compile(
    r"\bhow(?:'s| is| are|s)\b[^?]*\b(?:doing|getting on|getting along|keeping|faring|"
    r"holding up|these days|lately|going)\b|^how(?:'s| is|s) [a-z]+\??$"
)


def _how_they_are(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """How a villager is getting on: at their work as ever, and what the NPC thinks of
    them ("Marrick the cobbler works at the cobbler shop, same as ever. An honest man.")."""
    target = intent.target
    assert target is not None
    person = next((p for p in talk.npc.people if p.name == target.name), None)
    place = place_named(talk.npc, target.home)
    if person is None or place is None:
        return None
    busy = as_ever(person, place)
    held = talk.npc.sheet.opinions.get(person.npc_id, "")  # what it thinks, if its sheet says
    view = said_by(opinion_line(talk, target, speak)) if held else None
    told = set(re.findall(r"[a-z]+", busy.lower()))  # not "Keeps the inn." said twice
    # what it thinks, not the line's "Oh, I'll tell you!" between
    kept = [
        part
        for part in re.split(r"(?<=[.!?])\s+", view.text if view is not None else "")
        if not set(re.findall(r"[a-z]+", part.lower())) <= told and stems_of(part) & stems_of(held)
    ]
    if kept and verb_at(["it", *kept[0].split()]) == 1:  # "Spends too many nights alone!"
        kept[0] = f"That one {kept[0][:1].lower()}{kept[0][1:]}"
    text = " ".join([busy, *kept])
    return say(text if len(text) <= MAX_SAY else busy, "player")


# "how are things down the mine?", "how's business at the inn?", "how's the mill doing?"
_THINGS = re.compile(
    r"\bhow(?:'s| is| are|s) (?:things|life|work|business|trade|everything)\b|"
    r"\bhow(?:'s| is|s) (?:the |your )?[a-z ]{1,30}? (?:doing|going|getting on|coming along)\b"
)


def _how_it_goes(talk: PlayerLine, target: Target, speak: Speaker) -> SkillCall | None:
    """How it goes at a place: at its own, how it is itself ("The inn? Busy and happy!");
    at another's, its keeper at work as ever; None when no one keeps it."""
    npc = talk.npc
    place = place_named(npc, target.name)
    if place is None:
        return None
    if place.name in (npc.sheet.work, npc.home):
        return say(f"{opening_label(place)}? {speak.text(Kind.HOW)}", "player")
    keeper = next((p for p in npc.people if place.name in (p.work, p.lives, p.home)), None)
    if keeper is None:
        return None
    return say(as_ever(keeper, place), "player")


def _far(talk: PlayerLine) -> SkillCall | None:
    """How far the place the line names, else the last one talked of, is from here."""
    place = _asked_place(talk)
    tile = talk.sensed.tile if talk.sensed is not None else None
    if place is None or place.area is None or tile is None:
        return None
    x, y, w, h = place.area
    tiles = math.hypot(x + w / 2 - tile[0] - 0.5, y + h / 2 - tile[1] - 0.5)
    far = next(words for most, words in _HOW_FAR if tiles <= most)
    way = way_to(talk, place)
    if way.startswith("Right here"):
        return say(way, "player")
    return say(f"{far} {way}" if len(far) + len(way) < MAX_SAY else far, "player")


def _asked_place(talk: PlayerLine) -> PlaceFact | None:
    """The place the line names, else the one the player's lines before it asked of (a
    villager's place, for a villager)."""
    for said in (talk.said, *reversed(talk.earlier[-2:])):
        intent = read_intent(said, talk.npc)
        target = intent.target
        if target is None or target.weak:
            continue
        if target.kind is Named.PLACE:
            return place_named(talk.npc, target.name)
        if target.kind is Named.PERSON:
            return place_named(talk.npc, target.home)
    return None


# What a walk is sent to do: "run down to the hut and fetch me some rope", "go to the
# cross to see if there's news", "pop over and check if Huw is in".
_SENT = re.compile(
    r"\b(?:and|to) (?:(?:fetch|get|grab|bring|buy|pick up|collect) (?:me |us )?"
    r"(?P<thing>[^,.!?;]+)|"
    r"(?:see|check|find out|look) (?:if|whether) (?P<see>[^,.!?;]+))"
)
_THING_ENDS = re.compile(r"\b(?:for|from|so|because|while|and|please|then|there|if)\b|'")


def sent_for(talk: PlayerLine, place: str, speak: Speaker) -> str:
    """What the NPC says, arriving at `place` (or setting off, when `place` is ""), of what
    its walk was sent to do: the thing it was sent to fetch ("Your pies, wasn't it?"), or,
    arriving, the villager it was sent to look for, by where the map says they work or live
    ("No Huw here. Try the wharf."); "" when the line sends it for nothing."""
    sent = _SENT.search(norm(talk.said))
    if sent is None:
        return ""
    if sent.group("thing"):
        thing = _THING_ENDS.split(sent.group("thing"))[0].strip()
        return speak.text("sent_fetch", thing=swapped(thing)) if thing else ""
    who = find_target(sent.group("see"), talk.npc)
    person = next((p for p in talk.npc.people if who and p.name == who.name), None)
    if not place or who is None or person is None:
        return ""
    theirs = [p for p in (person.work, person.lives, person.home) if p]
    if place in theirs:
        return speak.text("sent_see_here", who=who.label)
    elsewhere = place_named(talk.npc, theirs[0]) if theirs else None
    if elsewhere is None:
        return ""
    return speak.text("sent_see_away", who=who.label, place=label_of(elsewhere))
