"""The scripted brain's answer to a gesture asked for ("give me a wave", "nod if so", "go
on, laugh"): the gesture made, then a line that answers what the line asks besides it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from game.gestures import LAUGH, NOD, SHAKE_HEAD, THINK, WAVE
from game.npc.reading.intent import Intent, asks_yes_no, read_intent
from game.npc.reading.kinds import Kind, Named
from game.npc.reading.naming import find_target
from game.npc.scripted.about import sheet_side
from game.npc.scripted.lines import line_table, pick, sentences
from game.npc.scripted.matching import COLD, WARM
from game.npc.scripted.refused import stems_asked
from game.npc.scripted.speaker import PlayerLine, Speaker, Step, said_by, say
from game.npc.scripted.stance import refusal
from game.npc.scripted.villagers import opinion_line, opinion_of
from game.npc.scripted.willing import does_it
from game.npc.scripted.woken import bye_table
from game.npc.skills import EMOTE, SkillCall
from game.npc.skills.base import MAX_SAY

__all__ = ["asked_besides", "gesture_reply"]

Answer = Callable[[PlayerLine], list[Step]]


def gesture_reply(
    talk: PlayerLine, intent: Intent, speak: Speaker, helped: SkillCall | None, answer: Answer
) -> list[Step]:
    """The gesture asked, and its line: a no to what the line asks besides when it touches
    a refusal or a fear ("would you ever sell a hawk? shake your head if not": a shake
    and "No."), else the NPC's side on it, a deed it does, or the gesture's own line.
    `answer` answers a question asked plainly (beside "have a think")."""
    gesture = intent.gesture or ""
    table = (
        bye_table(talk)
        if gesture == WAVE.name and _bye(talk.said)
        else (f"act_{intent.sub}" if intent.sub else f"gesture_{gesture}")
    )
    asked = asked_besides(talk, Kind.GESTURE)  # "have a think: why would X go Y?"
    put = _IF_YOU.search(talk.said) if not asked else None  # "nod if you'll shoe my horse"
    verb = (put["verb"] or _SHORT.get((put["short"] or "").lower(), "will")) if put else ""
    asked = f"{verb} you {put['rest']}?" if put else asked
    if asked and gesture in (NOD.name, SHAKE_HEAD.name):
        no = refusal(replace(talk, said=asked), read_intent(asked, talk.npc), speak)
        said = said_by(no) if no is not None else None
        if no is not None and said is not None:  # "nod if you'd sell me one": a shake
            return [EMOTE.call(name=SHAKE_HEAD.name if _says_no(said.text) else NOD.name), no]
    tale = bool(asked or re.search(r"\bif\b|[.!?]\s+\S", talk.said))  # "if you think..."
    laughs = gesture == LAUGH.name and not intent.sub  # "clap if...": a clap
    if laughs and tale:  # a joke or tale laughed at, not its own
        table = "laugh_at"
    elif laughs and _JOKE_ASKED.search(talk.said):
        table = "joke_told"  # "tell me a joke": a joke, not a laugh alone
    # a joke told with "go on, laugh" asks for no side on the cow it is about; a deed
    # asked ("would you ever sell your bees?") no belief its words share
    only = ("likes", "dislikes", "fears") if _DEED_ASKED.search(asked) else ()
    side = (
        sheet_side(replace(talk, said=asked), speak, any_item=False, only=only)
        if asked and gesture != LAUGH.name
        else None
    )
    told = said_by(side) if side is not None and gesture == THINK.name else None
    if told and not asks_yes_no(asked) and len(stems_asked(asked) & stems_asked(told.text)) < 2:
        side = None  # "have a think: what goes best with eel pie?" asks no belief on pie crust
    held = _of_a_villager(talk, gesture, speak)  # "Jory's jokes are funny? nod if so"
    if held is not None:
        return held
    deed = does_it(talk, intent, speak)  # "will you dance?" of one who dances: yes
    joke = gesture == LAUGH.name  # "why did the cow cross the road?" asks nothing
    line = (None if joke else helped) or side or deed
    line = line or _answered(talk, asked, gesture, speak, answer)
    said = said_by(line) if line is not None else None
    return [
        EMOTE.call(name=_shown(gesture, talk.said, said.text if said else "")),
        line or speak.line(table),
    ]


# A line that says no in its first words: "Goodness, no!", "Oh no, no! Geese?".
_NO = re.compile(
    r"^\W*(?:[\w']+[,!.]?\s+){0,2}?(?:no|not|never|nope|nah|nuh-uh|don't|can't|couldn't|"
    r"won't|wouldn't|i'd never)\b",
    re.I,
)
_IF_NOT = re.compile(r"\bif (?:not|you don'?t|you do not|it'?s not|they'?re not|it isn'?t)\b", re.I)


def _says_no(said: str) -> bool:
    """Whether a line opens on a no, stammered too ("N-not on a Sunday.")."""
    return bool(_NO.search(re.sub(r"\b(\w)-(?=\1)", "", said, flags=re.I)))


def _shown(gesture: str, asked: str, said: str) -> str:
    """The head's gesture that goes with the answer: a shake with a no ("nod if you would"
    answered "Goodness, no!"), a nod with a yes to "shake your head if not"."""
    if gesture not in (NOD.name, SHAKE_HEAD.name) or not said:
        return gesture
    if _says_no(said):
        return SHAKE_HEAD.name
    return NOD.name if gesture == SHAKE_HEAD.name and _IF_NOT.search(asked) else gesture


def _of_a_villager(talk: PlayerLine, gesture: str, speak: Speaker) -> list[Step] | None:
    """A nod or a shake on what the line says of a villager the NPC holds an opinion of:
    its opinion said, the head shaken when the opinion is cold and the line warm or the
    other way round ("Jory's jokes are funny, aren't they?" of one who finds them
    tiresome); None when the line names no villager."""
    if gesture not in (NOD.name, SHAKE_HEAD.name):
        return None
    target = find_target(talk.said, talk.npc)
    if target is None or target.kind is not Named.PERSON:
        return None
    opinion = opinion_of(talk.npc, target)
    # "Jory is lazy" of one who thinks him lazy: a nod; "his jokes are funny": a shake; of
    # one it holds no view of, a nod to kind words, a shake to cold ones, and what they do
    said_cold = bool(COLD.search(talk.said))
    cold = bool(COLD.search(opinion))
    agrees = cold == said_cold or (not cold and bool(opinion) and not WARM.search(opinion))
    shown = NOD.name if agrees else SHAKE_HEAD.name
    return [EMOTE.call(name=shown), opinion_line(talk, target, speak)]


def _bye(said: str) -> bool:
    return bool(re.search(r"\b(?:bye|goodbye|farewell|see you)\b", said.lower()))


def asked_besides(talk: PlayerLine, kind: Kind) -> str:
    """A question the line puts besides what it asks done ("Look at the sky. Is a storm on
    the way?"; "have a think, why would the milk turn?"): its sentences, or the part after
    a comma, that end in "?" and are not themselves of `kind`."""
    parts = [p for s in sentences(talk.said) for p in re.split(r"(?<=[,:;-])\s+", s)]
    return " ".join(
        p for p in parts if p.endswith("?") and read_intent(p, talk.npc).kind is not kind
    )


# A deed asked as the gesture's condition: "nod if you'll shoe my horse tonight".
_IF_YOU = re.compile(
    r"\bif (?:you(?:'ll| will|'d| would)?|you (?P<verb>can|could|have|are|did)|"
    r"you(?P<short>'ve|'re)) (?P<rest>[^.!?]+)",
    re.I,
)
_SHORT = {"'ve": "have", "'re": "are"}  # "if you've seen the boar": have you seen it?
# What a question put beside "have a think" is answered as asked plainly, when it asks one
# of these: a fact, the NPC itself, the time (one with no answer keeps the gesture's line).
_ANSWERED_BESIDES = frozenset({Kind.PLACE, Kind.PERSON, Kind.SELF, Kind.VILLAGE, Kind.TIME})
_JOKE_ASKED = re.compile(r"\bjokes?\b|\bsomething funny\b|\bmake me laugh\b|\bamuse me\b", re.I)
# A deed asked of the NPC, not what it believes: "would you ever sell one?"
_DEED_ASKED = re.compile(
    r"\b(?:would|will|could|do|did) you (?:ever |really |still )?"
    r"(?!believe|think|reckon|feel|fear|trust|like|love|hate|mind)[a-z]+\b",
    re.I,
)


def _answered(
    talk: PlayerLine, asked: str, gesture: str, speak: Speaker, answer: Answer
) -> SkillCall | None:
    """The answer to a question put beside the think gesture ("think it over: where's the
    best spot to catch a fish?"), as it is answered asked plainly, opened by a short
    thinking word of its mood ("Hm. The dock..."); None when there is no such question."""
    if gesture != THINK.name or not asked:  # "Why did the kettle...? Go on, laugh." is a joke
        return None
    put = read_intent(asked, talk.npc)
    weak = put.target is not None and put.target.weak and not re.search(r"\bwhere\b", asked)
    if put.kind not in _ANSWERED_BESIDES or weak:
        return None  # "have a think: how do you keep a horse calm?" names no place
    plain = next((s for s in map(said_by, answer(replace(talk, said=asked))) if s), None)
    if plain is None:
        return None
    opening = pick(line_table("thinking", talk.mood), talk.seed("thinking"), speak.used)
    if _first_word(opening) == _first_word(plain.text):  # not "Mm. Mm. The dock."
        opening = ""
    if len(opening) + len(plain.text) >= MAX_SAY:  # the answer whole, not the opening
        opening = ""
    return say(f"{opening} {plain.text}".strip(), "player")


def _first_word(text: str) -> str:
    return next(iter(re.findall(r"[a-z]+", text.lower())), "")
