"""The gestures an NPC can make, declared once: the `emote` skill's names, how the play
script writes each, and the words that ask for it. Code names a gesture by its row here
(`WAVE.name`), never by spelling it (tests/test_names.py).

Everything that knows gestures reads them from here: the `emote` skill's argument model
and its description, the world's check of an emote command, the reader of the player's
words, the play script's candidates, the persona brain's moods
(`game.npc.scripted.moods`) and the eval's validation. Adding a gesture is one row below,
named in GESTURES (and its icon, `assets/emotes/<name>.png`, which
tests/ui/test_emote_icons.py asks for; one missing is drawn as the gesture's words). Pure
data: the world imports it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "GESTURES",
    "LAUGH",
    "NOD",
    "SHAKE_HEAD",
    "THINK",
    "WAVE",
    "Gesture",
    "gesture_names",
]


@dataclass(frozen=True)
class Gesture:
    """One gesture."""

    name: str  # what the `emote` skill takes ("shake_head")
    does: str  # how the play script writes it in brackets ("shakes head")
    asks: str  # a regex of the words that ask for it ("give us a wave", "nod if so")


WAVE = Gesture(
    "wave",
    "waves",
    r"\bwav(?:e|ing)\b(?! (?:of|crash|lap))|\bwaves? (?:at|to|hello|goodbye|bye)\b",
)
NOD = Gesture("nod", "nods", r"\bnod(?:s|ding|ded)?\b")
SHAKE_HEAD = Gesture(
    "shake_head", "shakes head", r"\bshak(?:e|ing)(?: \w+){0,2} heads?\b|\bhead ?shakes?\b"
)
LAUGH = Gesture(
    "laugh",
    "laughs",
    r"\blaugh|\bgiggle|\bchuckle|\bjoke|\bfunn(?:y|iest|ier)\b|\bamuse me\b|"
    r"\bcheer me up\b|\bhilarious\b|\bamusing\b|\bhumou?r(?:ous)?\b|\bjest|\bpun\b|"
    r"\bha(?:ha)+\b|\blol\b|\bjest\b|\bsomething silly\b|\bmake me (?:smile|grin)\b|"
    r"\bcrack me up\b|\bgiggles\b",
)
THINK = Gesture(
    "think",
    "thinks",
    r"\bponder|\bmull\b|\bmull (?:it|that) over|\bcontemplate|\bhave a think\b|"
    r"\bthink (?:it|that|this) (?:over|through)\b|\bthink (?:about|on|over) "
    r"(?:it|that|this)\b|\bthink (?:hard|harder|carefully|deeply|a (?:moment|bit|while|"
    r"little|second))\b|\bgive (?:it|that|this) (?:some |a )?thought\b|"
    r"\bthinking cap\b|\bthink of (?:a|an|some)\b|\bhave a (?:good |long |little |proper "
    r"|quick |hard )think\b|\bhave a ponder\b|\bconsider (?:it|that|this)\b|"
    r"\bsleep on it\b|\bsee you think|\bthoughtful\b|\bshow me (?:you|your) "
    r"(?:think|thinking)\b|\bthinking face\b",
)
GESTURES: dict[str, Gesture] = {g.name: g for g in (WAVE, NOD, SHAKE_HEAD, LAUGH, THINK)}


def gesture_names() -> tuple[str, ...]:
    """The names of every gesture, in declaration order."""
    return tuple(GESTURES)
