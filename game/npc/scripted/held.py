"""A question that names one of the NPC's beliefs by two telling words or more is answered
with it, whatever else it asks: "who built the old bridge?" of one who believes the devil
built it in a night, "what are those lights over the fen?" of one who believes they are
the souls of drowned men, "your crust cracked! what does that mean?" of one who believes a
cracked crust means bad news. A belief named by one word only ("do you sell pies?" of the
crust's) is no answer to it.
"""

from __future__ import annotations

import re

from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.about import sheet_side
from game.npc.scripted.matching import stems_of
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.skills import SkillCall

__all__ = ["belief_named"]

_NAMED_BY = 2  # the fewest telling words a question shares with a belief it names
_ASKED = re.compile(
    r"\b(?:fancy|want to|wanna|will you|would you|shall we|come|let's|care to)\b", re.I
)


def belief_named(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The NPC's belief that a question names (`_NAMED_BY` words shared), said as one, or
    None. A reason asked ("why do you hang nails over the door?"), a gesture or a walk
    asked, or an invitation ("fancy looking for the pike tonight?") asks more than that."""
    if "?" not in talk.said or re.search(r"\bwhy\b", talk.said, re.I):
        return None
    if intent.kind in (Kind.GESTURE, Kind.GO) or intent.sub == "invite" or _ASKED.search(talk.said):
        return None
    asked = stems_of(talk.said)
    people = {stems_of(p.name.split()[0]).pop() for p in talk.npc.people if stems_of(p.name)}
    # a belief of a villager ("Rosamund's hawks are vicious") is an opinion, said as one
    named = [b for b in talk.npc.sheet.beliefs if not stems_of(b.what) & people]
    if not any(len(asked & stems_of(b.what)) >= _NAMED_BY for b in named):
        return None
    return sheet_side(talk, speak, any_item=False, only=("beliefs",))
