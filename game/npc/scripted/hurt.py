"""Someone hurt or taken ill, told the NPC with a call for help ("come quick, someone fell
over on the green!"): one who tends the sick goes at once, to the place named or with the
player; anyone else sends the player for whoever in the village does. The player's own
hurt shown ("could you look at my hand? I cut it") is looked at by one who tends it."""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Named
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.skills import LOOK, MOVE, SkillCall

__all__ = ["hurt_reply"]

_HURT = re.compile(
    r"\b(?:fell|fallen|hurt|injured|bleeding|collapsed|fainted|passed out|choking|"
    r"can't breathe|broke (?:\w+ )?(?:leg|arm|ankle|wrist|neck)|burned (?:him|her|them)self|"
    r"taken ill|been taken bad)\b",
    re.I,
)
# The player's own hurt: "I cut my hand", "look at my arm, it's burnt".
_MY_HURT = re.compile(
    r"\bi(?:'ve)? (?:cut|burnt|burned|hurt|sprained|twisted|scalded|grazed|bruised|broke|"
    r"broken|stung|bit) (?:it|my|myself)\b|\bmy \w+ (?:hurts|is bleeding|is swollen|is burnt|"
    r"is cut|aches)\b",
    re.I,
)
_HELP_NOW = re.compile(
    r"\bcome\b|\bhelp\b|\bquick(?:ly)?\b|\bhurry\b|\bright now\b|\bat once\b|\bemergency\b",
    re.I,
)
_LONG_AGO = re.compile(
    r"\b(?:once|ever|years? ago|last (?:year|month|week)|as a (?:child|boy|girl|lad)|when i was)\b",
    re.I,
)
# A villager who tends the sick, by its trade or what it does.
_TENDS = re.compile(
    r"\b(?:physician|doctor|healer|surgeon|nurse|midwife|apothecary|herb-?woman|herbalist|"
    r"wise woman|sees the sick|tends the sick|patients?|remed(?:y|ies)|salves?|poultices?|"
    r"medicines?|draughts?|tinctures?)\b",
    re.I,
)


def tends_the_sick(npc: VillagerFacts) -> bool:
    sheet = npc.sheet
    return bool(_TENDS.search(" ".join((sheet.role, *sheet.ways))))


def hurt_reply(talk: PlayerLine, intent: Intent, speak: Speaker) -> list[SkillCall] | None:
    """Its answer to someone hurt and help called for, or None when the line tells none."""
    said = talk.said
    npc = talk.npc
    healer = next((p for p in npc.people if _TENDS.search(f"{p.trade} {p.role} {p.does}")), None)
    if _MY_HURT.search(said) and not _LONG_AGO.search(said):  # "I cut my hand"
        if tends_the_sick(npc):
            return [LOOK.call(at="player"), speak.line("hurt_look")]
        return [speak.line("hurt_go_see", who=healer.name)] if healer is not None else None
    if not (_HURT.search(said) and _HELP_NOW.search(said)) or _LONG_AGO.search(said):
        return None
    if tends_the_sick(npc):
        target = intent.target
        to = target.name if target is not None and target.kind is Named.PLACE else "player"
        return [MOVE.call(to=to), speak.line("hurt_coming")]
    return [speak.line("hurt_send", who=healer.name)] if healer is not None else None
