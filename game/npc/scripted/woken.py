"""What a villager says to one who has just woken it, or spoken to it late: a hello of the
hour and a word on the sorry for waking it (`answers_waking`, `sorry_to_wake`), a good night
for a goodbye (`bye_table`), and the hour its day starts when asked why it is not up
(`rises`).
"""

from __future__ import annotations

import re

from game.npc.reading.intent import Intent, read_intent
from game.npc.reading.kinds import Kind
from game.npc.reading.naming import norm
from game.npc.reading.phrases import UP_WHEN, WAKE_SORRY
from game.npc.scripted.lines import sentences
from game.npc.scripted.speaker import PlayerLine, is_late

__all__ = ["answers_waking", "bye_table", "rises", "sorry_to_wake"]


def bye_table(talk: PlayerLine) -> str:
    """The goodbye's table: a good night when it is late, else the day's farewell."""
    return "bye_night" if is_late(talk.sensed) else Kind.BYE


def rises(talk: PlayerLine) -> float | None:
    """The hour its day starts, when it is late and asked when it gets up ("shouldn't you
    be up by now?"); None otherwise, or when it keeps no day."""
    if not is_late(talk.sensed) or not talk.npc.day or "?" not in talk.said:
        return None
    return talk.npc.day[0][0] if UP_WHEN.search(norm(talk.said)) else None


def answers_waking(talk: PlayerLine, intent: Intent) -> bool:
    """Whether the line is answered as said to one just woken: a hello of the hour in place
    of its daytime greeting, or a word on the sorry for waking it."""
    woken = talk.sensed is not None and talk.sensed.woken
    return woken and (intent.kind is Kind.GREET or sorry_to_wake(talk))


def sorry_to_wake(talk: PlayerLine) -> bool:
    """Whether a just-woken NPC hears the player's sorry for waking it ("did I wake
    you?"), and nothing else asked besides (a greeting at most)."""
    if talk.sensed is None or not talk.sensed.woken:
        return False
    parts = [p for s in sentences(talk.said) for p in re.split(r"(?<=[,;:-])\s+", s)]
    sorry = [p for p in parts if WAKE_SORRY.search(norm(p))]
    if not sorry:
        return False
    rest = " ".join(p for p in parts if p not in sorry)
    return read_intent(rest, talk.npc).kind in _NOTHING_MORE


# What the rest of a sorry for waking may read as, and ask nothing ("oh no, sorry,").
_NOTHING_MORE = frozenset({Kind.CHAT, Kind.GREET, Kind.SAD, Kind.GLAD})
