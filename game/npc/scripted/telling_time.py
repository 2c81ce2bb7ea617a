"""What time it is, as a villager says it: the part of the day from the hour it sensed
("It's still morning."), an hour its persona names for it, or when it gets dark or light.
"""

from __future__ import annotations

from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.itself import precise_when
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.skills import SkillCall
from game.world.clock import DAWN_HOUR, DAY_HOUR, DUSK_HOUR, NIGHT_HOUR, hour_words, part_of_day

__all__ = ["time_answer"]


# The parts of the day as a villager says the time is ("It's still morning.").
_WHEN = {
    "night": "the middle of the night",
    "dawn": "barely dawn",
    "morning": "still morning",
    "midday": "around midday",
    "afternoon": "afternoon already",
    "dusk": "getting on for dusk",
    "evening": "evening now",
}


def time_answer(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall:
    """What time of day it is, or when it gets dark, from the hour the NPC sensed."""
    hour = talk.sensed.hour if talk.sensed is not None else None
    if intent.sub == "dark":
        return speak.line(
            "time_dark", dusk=hour_words(DUSK_HOUR, o_clock=True), dark=hour_words(NIGHT_HOUR)
        )
    if intent.sub == "light":  # the sun is up between first light and full day
        return speak.line("time_light", up=hour_words((DAWN_HOUR + DAY_HOUR) / 2, o_clock=True))
    if hour is None:
        return speak.line(Kind.QUESTION)
    when = precise_when(talk.npc.persona, hour) or _WHEN[part_of_day(hour)]
    return speak.line(Kind.TIME, when=when)
