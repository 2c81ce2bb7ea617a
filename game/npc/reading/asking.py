"""How a line asks for something: its clauses, the politeness around a request, and the
words of a gesture, a walk, a look or a wait; and whether a line asks yes or no.

A request is a clause that comes to its verb after openers ("ok, so"), the NPC's name or
a title, and politeness ("could you please"): `request` finds one for any verbs. A gesture
may be asked for anywhere in a line unless it is asked not to be made ("don't laugh"), and
asking what the NPC thinks is a question, not a request to look thoughtful. What a request
means for the NPC, with the place or person it names, is `game.npc.reading.intent`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from game.gestures import ACTS, GESTURES, Act
from game.npc.reading.naming import TITLES, norm

__all__ = [
    "DIRECTIONS",
    "FOLLOW",
    "GO",
    "LOOK",
    "OPENERS",
    "SEE",
    "WAIT",
    "asked_act",
    "asked_gesture",
    "asks_yes_no",
    "clauses",
    "only_wait",
    "request",
    "wait_seconds",
]

# The ways a walk may go, and the compass words for them.
_COMPASS = {"north": "up", "south": "down", "east": "right", "west": "left"}
DIRECTIONS = {**_COMPASS, "up": "up", "down": "down", "left": "left", "right": "right"}


def clauses(text: str) -> list[str]:
    """The clauses of a line, normalised: split at sentence ends and at ", and"/"but"/"then"."""
    return [c.strip() for c in re.split(r"[.!?;:\n]+|,\s*(?:and|but|then)\s+", norm(text)) if c]


OPENERS = (
    "hey|hi|hello|ok|okay|so|now|then|alright|all right|right|well|oh|please|go on|come on|"
    "hmm|hm|ah|ooh|yes|no|look|"
    "listen|friend|mate|quick|and|but|sorry|excuse me|um|uh|er"
)
_POLITE = (
    r"(?:(?:(?:can|could|would|will|won't|wouldn't|can't|shall|should|may) (?:you|ya|u|we)"
    r"(?: please| just| maybe| now)?|please|would you mind|i(?: would|'d)? (?:want|need|like|love)"
    r" (?:you|ya) to|why don't you|why not|go ahead and|try to|do|just|let's|let us|you should|"
    r"you could|i dare you to|show me you can|how about you|kindly|quickly|now|you must|you need"
    r" to|could i ask you to|i'd love it if you|would you be so kind as to) )*"
)


def request(clause: str, verbs: str, names: Iterable[str] = ()) -> re.Match[str] | None:
    """A clause that asks for `verbs` (a regex), after openers, the NPC's name, politeness."""
    return _request(verbs, frozenset(names)).match(clause)


@lru_cache(maxsize=1024)  # built once per verbs and NPC: a reply asks dozens of times
def _request(verbs: str, names: frozenset[str]) -> re.Pattern[str]:
    who = "|".join(re.escape(n) for n in sorted({*names, *TITLES}, key=len, reverse=True) if n)
    openers = f"{OPENERS}|{who}"
    return re.compile(rf"(?:(?:{openers})\b[, ]*)*{_POLITE}(?:{verbs})\b")


def _negated(text: str, start: int) -> bool:
    """ "Don't laugh", "never you nod": the gesture is asked not to be made. ("If not, just
    shake your head" asks for it.)"""
    before = text[max(0, start - 24) : start]
    return bool(
        re.search(
            r"\b(?:don't|dont|do not|never|stop|no need to|not|quit)\s+(?:you\s+|ever\s+)?$",
            before,
        )
    )


# Asking what the NPC thinks is a question, not a request to look thoughtful.
_OPINION = re.compile(
    r"\b(?:what|how) do (?:you|ya) (?:think|feel|reckon)\b|\bdo you think\b|"
    r"\byou think (?:of|about)\b|\bi think\b|\bthink so\b"
)


def asked_gesture(text: str, names: Iterable[str]) -> tuple[int, str] | None:
    """The first gesture the line asks for, with where in the line it is asked; None if none."""
    found: list[tuple[int, str]] = []
    for name, gesture in GESTURES.items():
        for match in re.finditer(gesture.asks, text):
            if _negated(text, match.start()):
                continue
            if name == "think" and _OPINION.search(text):
                continue
            # "whats with you and redheads lol": the player's own laugh, not one asked for
            if re.fullmatch(r"lol|ha(?:ha)+", match.group()) and len(text.split()) > 2:
                continue
            # "jokes are funny, aren't they? nod if so": a nod asked, no laugh
            if name == "laugh" and not re.match(r"laugh|giggle|chuckle", match.group()):
                if re.search(GESTURES["nod"].asks + "|" + GESTURES["shake_head"].asks, text):
                    continue
            found.append((match.start(), name))
            break
    for clause in clauses(text):  # "think!", "could you think for a bit"
        asked = r"think|consider|reflect|ponder|contemplate|mull"
        if request(clause, asked, names) and not _OPINION.search(clause):
            found.append((text.find(clause), "think"))
        # "take a second and think about...", "try to think of..."
        joined = re.search(rf"\b(?:and|to|then) (?:{asked})\b", clause)
        if joined and not _OPINION.search(clause) and not re.search(r"\bi (?:want|need)\b", clause):
            found.append((text.find(clause) + joined.start(), "think"))
    return min(found) if found else None


def asked_act(text: str, names: Iterable[str]) -> tuple[int, Act] | None:
    """The first act a clause of the line asks the NPC to do ("bow to the lady", "can you
    dance?", "shake my hand"), with where in the line it is asked; None if none."""
    for clause in clauses(text):
        for act in ACTS.values():
            if request(clause, act.asks, names) and not _negated(clause, 0):
                return text.find(clause), act
    return None


# The verbs of a request (for `request`): to follow, to go somewhere, to look, to wait.
FOLLOW = (
    r"follow(?: me| us|ing me)?|come (?:with|along with) (?:me|us)|come along|come with|"
    r"walk with (?:me|us)|join (?:me|us)|tag along|accompany (?:me|us)|stick with (?:me|us)|"
    r"keep up|come here|come over(?: here)?|come closer|over here|this way|stay close|"
    r"stay with (?:me|us)|come on over|let's go together|let's walk|let's go|let us go|"
    r"shall we go|we should go|walk beside me|after me|on me|"
    r"come(?: on)? and (?:walk|come|stroll|wander|go)(?: with (?:me|us)| along| together)?|"
    r"keep me company|walk a while with (?:me|us)|take a walk with (?:me|us)"
)
# "nip out to", "dash off to", "run down to": the little word a walk is said with.
_OUT = r"(?: over| down| up| across| round| along| back| out| off)?"
GO = (
    r"go(?: over| back| down| up| on| out| off)?(?: to| towards?| into| in)|go(?! on\b)|"
    r"(?:pop|nip|dash|hop|swing|skip|race|rush|march|trot|jog|zip|scoot|get)"
    rf"{_OUT}(?: to| by)|"
    r"head(?: over| back| out| off| down| up)?(?: to|"
    rf" towards?| for| over)?|walk{_OUT}(?: to| towards?)?|run{_OUT}(?: to)?|"
    r"step(?: to)?|take (?:me|us)(?: to| over to| back to)?|bring (?:me|us)(?: to)?|"
    r"lead (?:me|us)(?: to)?|lead the way(?: to)?|lead on|show (?:me|us) around|"
    r"show (?:me|us)(?: the way)?(?: to| where)?|guide (?:me|us)(?: to)?|walk (?:me|us)(?: to)?|"
    r"visit|meet (?:me|us) (?:at|by|in)|get (?:me|us) to|point (?:me|us) to|"
    r"escort (?:me|us)(?: to)?|come (?:to|over to)|direct (?:me|us) to|move(?: to)?|travel to|"
    # "come up on the roof", "come down to the pond", "come into the chapel"
    r"come(?: up| down| over| out| round| back)? (?:onto|into|up to|down to|out to)|"
    r"come (?:up|down|over|out|round|back) (?:on|to)|"
    r"get over to|give (?:me|us) a tour|wander(?: over)?(?: to)?|stroll(?: over)?(?: to)?|"
    r"hurry(?: over)?(?: to)?"
)
LOOK = (
    r"look(?: over)?(?: at| around| about| over there| there| here| up| down| left| right|"
    r" out| behind you)?|(?:have|take|get|give|cast|sneak) (?:a |an )?(?:(?:good|quick|close|long|"
    r"little|proper|careful|hard) ){0,2}(?:look|peek|gander|glance|eye|peep)"
    r"(?: at| around| over| on)?|"
    r"check out|check on|check|see (?:that|this|the|over|what)|observe|watch|glance(?: at)?|"
    r"peek(?: at| over)?|peep(?: at)?|spy|scan|"
    r"turn around|inspect|examine|give (?:it|that) a look|gaze(?: at)?|stare(?: at)?|"
    r"eyes (?:on|over|up|here)|feast your eyes on|lay eyes on"
)
SEE = re.compile(
    r"\bwhat (?:do|can) you see\b|\bwhat(?:'s| is) (?:over )?there\b(?! to (?:do|see)\b)|"
    r"\bdo you see\b|"
    r"\bcan you see\b|\bwhat are you looking at\b"
)
WAIT = (
    r"wait(?: here| there| a (?:moment|minute|second|sec|bit|while|mo)| for me| up| right there)?|"
    r"hold on|hold up|hang on|hang about|one (?:moment|minute|second|sec|mo)|"
    r"just a (?:moment|minute|second|sec|mo)|a moment|stay(?: here| there| put| right there|"
    r" where you are)?(?! safe| well| warm| dry)|don't move|do not move|"
    r"give me a (?:moment|minute|second|sec)|"
    r"be right back|brb|stop right there|stop there|pause|halt|freeze|stand still|remain here|"
    r"sit tight|stand by|take a break|rest a moment|stop for a (?:moment|minute|bit)|"
    r"don't (?:go|leave|run off|wander off|move)(?: anywhere| away)?|do not (?:go|leave)|"
    r"(?:wait|stay) (?:right )?(?:here|there|put)|keep (?:still|put)|"
    r"hold still|stay still|keep still|await me"
)


def only_wait(rest_of_line: str, end: int) -> bool:
    """ "Wait, what did you say?" is an interjection; "wait here", "hold on a moment, I need
    to count" and "wait, I'll be right back" ask for a wait."""
    asked, rest = rest_of_line[:end], rest_of_line[end:].strip(" ,.!")
    if not rest or re.search(r"\b(?:here|there|moment|minute|second|sec|bit|for me|put)\b", asked):
        return True
    if re.search(r"\b(?:can|could|would|will|please)\b", asked):
        return True  # "could you hold on while I...?" asks for it
    if re.match(r"(?:while|until|till|so|for|as|whilst)\b", rest):
        return True
    return not (
        re.match(r"(?:who|what|where|why|how|is|are|do|did|does|you|that|really)\b", rest)
        or rest.endswith("?")
    )


def wait_seconds(clause: str) -> float:
    """How long a wait asked for lasts: a minute or a while 8 s, a moment 3 s, else 5 s."""
    if re.search(r"\bminute|\bwhile\b|\bbit\b", clause):
        return 8.0
    if re.search(r"\bsecond|\bsec\b|\bmo\b|\bmoment\b", clause):
        return 3.0
    return 5.0


_YES_NO = re.compile(
    r"^\W*(?:(?:so|and|but|well|then|hey|okay|ok)\W+)?(?:(?:is|are|was|were|do|does|did|can|"
    r"could|will|would|should|shall|have|has|may|might|must|isn't|aren't|don't|doesn't|won't|"
    r"wouldn't|can't)\b|"
    # asked without its "do": "you really think it has to be written down?"
    r"you (?:really |honestly |truly |actually )?(?:think|believe|reckon)\b.*\?\W*$)"
)


def asks_yes_no(text: str) -> bool:
    """Whether a line is a yes/no question ("Is the bridge safe?", "do you like crowds?")."""
    return bool(_YES_NO.match(norm(text)))
