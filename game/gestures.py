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
    "ACTS",
    "GESTURES",
    "LAUGH",
    "NOD",
    "SHAKE_HEAD",
    "THINK",
    "WAVE",
    "Act",
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
    r"(?:think|thinking)\b|\bthinking face\b|\briddle (?:me|for you)\b|"
    r"\b(?:a|my|this|another) riddle\b(?! (?:is|was)\b)",  # a riddle told is thought over
)
GESTURES: dict[str, Gesture] = {g.name: g for g in (WAVE, NOD, SHAKE_HEAD, LAUGH, THINK)}


def gesture_names() -> tuple[str, ...]:
    """The names of every gesture, in declaration order."""
    return tuple(GESTURES)


@dataclass(frozen=True)
class Act:
    """Something a player asks an NPC to do that no gesture is named for, shown by one that
    is: a bow asked for is made as a nod, a dance as a laugh. What the NPC says as it does
    it is its own (the persona brain's `act_<name>` lines)."""

    name: str  # "bow": the act's lines are `act_bow`
    shown: Gesture  # the gesture it is made with
    asks: str  # a regex of the words of a request for it, after any politeness


BOW = Act(
    "bow",
    NOD,
    r"bow(?: down| low| deeply| to| for)?|take a bow|curts(?:e)?y|do a (?:bow|curts(?:e)?y)|"
    r"(?:doff|tip|raise|lift) (?:your|ya|the) (?:hat|cap)|"
    r"(?:give|show) (?:me|us|her|him|them) a (?:little |small |low |deep |proper |nice )?"
    r"(?:bow|curts(?:e)?y)",
)
SMILE = Act(
    "smile",
    LAUGH,
    r"smile|grin|(?:give|show) (?:me|us) a (?:little |big |nice |proper )?(?:smile|grin)|"
    r"show (?:me|us) (?:a|your) (?:smile|grin)|look (?:happy|cheerful|glad)|"
    r"show (?:me|us) you(?:'re| are) (?:happy|glad)",
)
HAND = Act(
    "hand",
    NOD,
    r"shake (?:my|our|his|her|their) hands?|shake hands|shake on it|give (?:me|us) your hand|"
    r"(?:give me|gimme) five|high five|hold out your hand|take my hand",
)
ANGRY = Act(
    "angry",
    SHAKE_HEAD,
    r"(?:(?:show (?:me|us) (?:that |how )?you(?:'re| are| can be| get| look)|look|act|be|get|"
    r"pretend (?:to be|you(?:'re| are))|play) (?:angry|cross|mad|furious|grumpy|annoyed|"
    r"fierce|scary|stern)|frown|scowl|glare|make an? (?:angry|cross|mean|grumpy|scary|fierce) "
    r"face|pull an? (?:angry |grumpy |cross )?face|stamp your feet|"
    r"(?:put on|pull|make|show (?:me|us)) your (?:angriest|grumpiest|crossest|fiercest|"
    r"scariest|meanest|sternest|maddest) (?:face|look)|(?:cross|fold) your arms)",
)
DANCE = Act(
    "dance",
    LAUGH,
    r"dance|(?:do|(?:give|show) (?:me|us)) a (?:little |quick |proper |nice )?"
    r"(?:dance|jig|twirl|spin)|"
    r"jig|twirl|"
    r"show (?:me|us) (?:a|your) (?:dance|moves|jig)",
)
SHRUG = Act(
    "shrug",
    SHAKE_HEAD,
    r"shrug(?: your shoulders)?|give (?:me|us) a (?:little |big )?shrug|do a shrug",
)
WINK = Act("wink", LAUGH, r"wink(?: at (?:me|us|her|him|them))?|give (?:me|us) a (?:little )?wink")
CLAP = Act(
    "clap",
    LAUGH,
    r"clap(?: your hands| along| for (?:me|us))?|give (?:me|us) a (?:clap|round of applause)|"
    r"applaud",
)
HUG = Act(
    "hug",
    LAUGH,
    r"hug(?: me| us)?|give (?:me|us) a (?:big |little |quick )?(?:hug|cuddle|squeeze)|"
    r"(?:a )?group hug",
)
SALUTE = Act("salute", NOD, r"salute(?: me| us)?|give (?:me|us) a salute")
THUMBS = Act("thumbs", NOD, r"(?:give (?:me|us) )?(?:a )?thumbs? up|put your thumbs? up")
JUMP = Act(
    "jump",
    LAUGH,
    r"jump(?: up and down| for joy| high)?|hop(?: on one (?:foot|leg))?|do a (?:jump|hop|"
    r"cartwheel|somersault|handstand|flip)|cartwheel|somersault|handstand",
)
CHEER = Act(
    "cheer",
    LAUGH,
    r"cheer(?: for (?:me|us))?|give (?:me |us )?a (?:big )?cheer|(?:shout )?hooray|hip,? hip|"
    r"raise (?:your|a) (?:glass|cup|mug|tankard)|(?:make|drink) a toast",
)
SAD = Act(
    "sad",
    SHAKE_HEAD,
    r"(?:look|act|be|pretend to be) (?:sad|glum|miserable|gloomy)|(?:pretend to )?cry|"
    r"(?:make|pull|show (?:me|us)) (?:a|your) (?:sad|glum) face|sulk|pout|weep",
)
KISS = Act("kiss", LAUGH, r"blow (?:me|us) a kiss|kiss me|give (?:me|us) a (?:little )?kiss")
WHISTLE = Act(  # "whistle for your hawk" calls the hawk: no tune asked
    "whistle",
    LAUGH,
    r"whistle(?! (?:for|to|at|up|them|him|her|it)\b)(?: a (?:tune|song|little))?|"
    r"give (?:me|us) a whistle",
)
_ALL_ACTS = (BOW, SMILE, HAND, ANGRY, DANCE, SHRUG, WINK, CLAP, HUG, SALUTE, THUMBS, JUMP, CHEER)
ACTS: dict[str, Act] = {a.name: a for a in (*_ALL_ACTS, SAD, KISS, WHISTLE)}
