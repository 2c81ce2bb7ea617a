"""What is the NPC's own and not for the asking: its things ("give me your hammer": "My
hammer stays with me.") and its work ("let me ring the bell", of the one who rings it)."""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.naming import stem, tokens
from game.npc.scripted.first_person import base_verb
from game.npc.scripted.refused import stems_asked
from game.npc.scripted.speaker import Speaker, say
from game.npc.skills import SkillCall

__all__ = ["its_own_work", "own_thing", "own_thing_kept"]

# A request for the NPC's own things: "give me your hammer", "may I borrow your stick?",
# "I'm taking over your kiln". What it sells is a sale; help, a blessing, a name no things.
_YOURS = re.compile(
    r"\b(?:give|hand|lend|loan|spare|pass|gimme)\b(?:\s+(?:me|us|over|up))*\s+(?:\w+\s+)?(?:of )?"
    r"(?:your|ur|yer)\s+(?P<given>[a-z]+(?:\s+[a-z]+)?)|"
    r"\b(?:i|we|me|us)\b(?:'\w+)?(?:\s+\w+){0,2}?\s+(?:have|take|taking|use|using|borrow|"
    r"borrowing|keep|want|need|pick|cut|taste|try|pet|stroke|ride|buy|pay(?:\s+\w+)?\s+for)"
    r"(?:\s+over)?"
    r"(?:\s+a (?:go|try|turn|ride|hold) (?:on|at|with|of|in)|\s+(?:some|one|a few|any) of)?"
    r"\s+(?:your|ur|yer)\s+(?P<taken>[a-z]+(?:\s+[a-z]+)?)"
)
_NO_THING = frozenset(
    """help advice opinion opinions word words name blessing story stories time view views
    thoughts attention permission counsel guidance company trust support answer ear best
    hand regards love thanks leave mind secret secrets news price prices goods wares
    business work trade friend friends pardon forgiveness way say side""".split()
)
_THING_ENDS = frozenset(
    """for and to so please now today tonight then with at in on or because since a an
    the i you it is was too as if from off back i'll i'm""".split()
)


# The player asking to do something itself: "let me ring the bell", "can I have a go at...".
_LET_ME_DO = re.compile(
    r"\b(?:let me|can i|could i|may i|i want to|i'd like to|i wanna)(?: have a go at| try)?"
    r"(?: and)? (?P<verb>[a-z]+) (?:the |your |a |some )?(?P<thing>[a-z]+(?: [a-z]+)?)"
)


_WHERE_ON = re.compile(r" (?:on|in|at|by|for|from|over|with|to)\b")  # "the store | on the green"


def its_own_work(line: str, npc: VillagerFacts) -> str:
    """What of the NPC's own work the player asks to do itself ("ring the bell", of one
    who rings the bell), as the NPC says it, or ""."""
    found = _LET_ME_DO.search(line)
    if found is None:
        return ""
    for way in npc.sheet.ways:
        verb, _, thing = way.partition(" ")
        if base_verb(verb.lower()) == found["verb"] and stems_asked(found["thing"], False) & (
            stems_asked(thing, False)
        ):
            return f"{found['verb']} {_WHERE_ON.split(thing)[0]}"
    return ""


def own_thing_kept(speak: Speaker, thing: str) -> SkillCall:
    """The no to a request for its own thing; "my herbs stay", not "my herbs stays"."""
    text = speak.text("own_thing", thing=thing)
    if re.search(r"[^s]s$", thing):  # "I need them myself", "They're mine!"
        text = text.replace(f"{thing} stays", f"{thing} stay").replace(
            f"{thing} is", f"{thing} are"
        )
        for one, many in _THEM:
            text = re.sub(one, many, text)
    return say(text, "player")


_THEM = (
    (r"\bIt's\b", "They're"),
    (r"\b(need|without|of) it\b", r"\1 them"),
    (r"\bMine's\b", "Mine are"),
)


def own_thing(line: str, npc: VillagerFacts) -> str:
    """The NPC's own thing a line asks it to hand over or lend ("your walking stick"), or
    "" when it asks for none, or for what the NPC sells."""
    found = _YOURS.search(line)
    if found is None:
        return ""
    words: list[str] = []
    for word in (found.group("given") or found.group("taken")).split():
        if word in _THING_ENDS:
            break
        words.append(word)
    if not words or words[0] in _NO_THING or words[-1] in _NO_THING:
        return ""
    sold = {
        stem(tokens(ware)[-1]) for ware in npc.sheet.wares if tokens(ware)
    }  # "eggs" of "duck eggs"
    return "" if sold & {stem(w) for w in words} else " ".join(words)
