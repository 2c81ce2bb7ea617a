"""Gossip asked for ("heard any good gossip?", "who's been up to what?"): the news the NPC
heard, and with none, talk of the neighbours: what it thinks of one its sheet has an
opinion of, else a neighbour at work as ever, in its mood's words; a villager who
will not stand about gossiping says so instead.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.npc.facts import PersonFact
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind, Named, Target
from game.npc.reading.phrases import CHATTER, GOSSIP, LIKING
from game.npc.scripted.about import opinion_line
from game.npc.scripted.speaker import PlayerLine, Speaker, said_by
from game.npc.scripted.stance import refusal
from game.npc.scripted.village_life import at_work

__all__ = ["asks_gossip", "gossip"]

# A line about gossip that asks none: "I hate gossip", "stop spreading rumours".
_NOT_ASKED = re.compile(
    r"\b(?:stop|quit|don't|do not|never|hate|spreading|spread)\b.*\b(?:gossip|rumou?rs?)\b", re.I
)


def asks_gossip(said: str) -> bool:
    """Whether a line asks for gossip or talk of the neighbours, not offers a natter
    ("fancy a gossip?") or asks the NPC's liking ("do you like gossip?")."""
    line = said.lower()
    if not GOSSIP.search(line) or _NOT_ASKED.search(line):
        return False
    return not (CHATTER.search(line) or LIKING.search(line))


def gossip(talk: PlayerLine, intent: Intent) -> str:
    """What the NPC says to a gossip question when it heard no news: its no when it will
    not gossip, else a word on a neighbour (one named in the line first, then those its
    sheet has an opinion of, then the others, from a turn's seed), not one said lately."""
    npc = talk.npc
    speak = Speaker(talk, intent)
    if "idle talk" in npc.sheet.refuses:  # its no, as to a natter offered
        no = refusal(talk, replace(intent, kind=Kind.CHATTER), speak)
        said = said_by(no) if no is not None else None
        if said is not None:
            return said.text
    said_lately = " ".join(talk.replies[-4:])
    if not npc.sheet.opinions and intent.target is None:  # nothing to say of anyone: the day
        ever = at_work(npc, talk.seed("gossip"))
        if ever and not speak.stale(ever):  # "Nothing much. Wren fishes at the dock, as ever."
            return f"{speak.text('gossip_none')} {ever}"
    for person in _neighbours(talk, intent):
        target = Target(Named.PERSON, person.name, person.name, person.role, person.home)
        line = said_by(opinion_line(talk, target, speak))
        if line is not None and not speak.stale(line.text) and person.name not in said_lately:
            return line.text
    return ""


def _neighbours(talk: PlayerLine, intent: Intent) -> list[PersonFact]:
    """The villagers to gossip of, in order: one the line names, those the NPC has an
    opinion of, then the others from a place the turn's seed picks."""
    npc = talk.npc
    people = list(npc.people)
    if not people:
        return []
    named = intent.target
    first = [p for p in people if named is not None and named.name in (p.name, p.npc_id)]
    held = [p for p in people if p.npc_id in npc.sheet.opinions and p not in first]
    rest = [p for p in people if p not in first and p not in held]
    start = talk.seed("gossip") % len(rest) if rest else 0
    return first + held + rest[start:] + rest[:start]
