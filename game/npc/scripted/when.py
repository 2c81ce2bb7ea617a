"""A question of when is answered with a when: "when will the bridge be fixed?" got who
mends clocks, "when's the next feast?" a line that forgets. When the persona brain's line
to a when-question says no time at all, it says in its mood that it cannot say when.
"""

from __future__ import annotations

import re

from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import ACTIONS, Named
from game.npc.reading.naming import norm
from game.npc.scripted.speaker import PlayerLine, Speaker, Step, said_by, say

__all__ = ["when_answered"]

_OF_TIME = frozenset({"years", "day", "daily", "yesterday", "today"})  # answered in time

_WHEN = re.compile(
    r"^\W*(?:\w+,\s*)?(?:when(?:'s| is| are| do| does| did| will| would|)|what time)\b"
)
# Words that say a when, or that send the player to whoever can ("Ask Marit.").
_SAYS_WHEN = re.compile(
    r"\b(?:o'clock|mornings?|noon|midday|dawn|dusk|sunset|sunrise|nights?|evenings?|afternoons?|"
    r"days?|daily|weeks?|months?|years?|seasons?|spring|summer|autumn|winter|soon|tomorrow|"
    r"today|tonight|yesterday|never|always|often|sometimes|hours?|dark|ago|later|\d+)\b|"
    r"(?:^|[.!?]\s+)Ask\b",
    re.I,
)


def when_answered(talk: PlayerLine, plan: list[Step]) -> list[Step]:
    """The plan as it is, or, for a when-question its line says no time to, that line
    swapped for the time the place asked of says it is busy, else its mood's "couldn't say
    when"."""
    intent = read_intent(talk.said, talk.npc)
    if not _WHEN.match(norm(talk.said)) or intent.kind in ACTIONS or intent.sub in _OF_TIME:
        return plan  # "when did you start?": "Long enough", its years said
    said = [(i, s) for i, s in enumerate(map(said_by, plan)) if s is not None]
    if len(said) != 1 or _SAYS_WHEN.search(said[0][1].text):
        return plan
    at = said[0][0]
    target = intent.target  # "when's the fish market on?": "loud at dawn when the boats come in"
    told = _AT_A_TIME.search(target.about) if target and target.kind is Named.PLACE else None
    if target is not None and told is not None:
        place, when = target.label, told.group(0).rstrip(" ,")
        line = say(f"{place[:1].upper()}{place[1:]}? {when[:1].upper()}{when[1:]}.", "player")
    else:
        line = Speaker(talk, intent).line("when_unknown")
    return [*plan[:at], line, *plan[at + 1 :]]


# A time a place's description gives: "loud at dawn when the boats come in".
_AT_A_TIME = re.compile(
    r"\b(?:at|on|every|before|after|from|till|until) (?:dawn|dusk|noon|midday|night|nightfall|"
    r"sunrise|sunset|first light|daybreak|the (?:morning|evening|weekend)|market days?|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?)\b[^,.;]*",
    re.I,
)
