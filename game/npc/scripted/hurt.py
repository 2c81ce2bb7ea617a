"""Someone hurt or taken ill, told the NPC with a call for help ("come quick, someone fell
over on the green!"): one who tends the sick goes at once, to the place named or with the
player; anyone else sends the player for whoever in the village does."""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Named
from game.npc.scripted.speaker import PlayerLine, Speaker
from game.npc.skills import MOVE, SkillCall

__all__ = ["hurt_reply"]

_HURT = re.compile(
    r"\b(?:fell|fallen|hurt|injured|bleeding|collapsed|fainted|passed out|choking|"
    r"can't breathe|broke (?:\w+ )?(?:leg|arm|ankle|wrist|neck)|burned (?:him|her|them)self|"
    r"taken ill|been taken bad)\b",
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
    if not (_HURT.search(said) and _HELP_NOW.search(said)) or _LONG_AGO.search(said):
        return None
    npc = talk.npc
    if tends_the_sick(npc):
        target = intent.target
        to = target.name if target is not None and target.kind is Named.PLACE else "player"
        return [MOVE.call(to=to), speak.line("hurt_coming")]
    healer = next((p for p in npc.people if _TENDS.search(f"{p.trade} {p.role} {p.does}")), None)
    if healer is None:
        return None
    return [speak.line("hurt_send", who=healer.name)]
