"""More of the NPC itself than it said ("and what else?" after its work): another thing its
persona says it does, told with the things first ("Salves and teas. I make them."), its
wares, its work place as it looks, or a like, each only if not said yet.
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.families import DOING
from game.npc.scripted.about import mine_line, own, stems_of, wares_line
from game.npc.scripted.first_person import first_person
from game.npc.scripted.lines import sentences
from game.npc.scripted.retell import in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, place_named, said_by, say
from game.npc.skills import SkillCall

__all__ = ["more_of_itself"]


def _with(speak: Speaker, table: str, job: str) -> str:
    """A line of `table` that says `job` ("" when every one was said lately)."""
    text = speak.text(table, job=job)
    return text if job[:12].lower() in text.lower() else ""


def _doings(npc: VillagerFacts) -> list[str]:
    """What its persona says it does, each in the first person, in order ("I grow herbs in
    the fenced garden by my cottage", "I make salves and teas for anyone who is ailing"):
    from one verb of doing to the next, so that a list ("pots, kettles and lamps") holds."""
    out = []
    mine = {w.lower() for w in npc.name.split()} | {"she", "he", "they", "and", "who", "also"}
    for clause in sentences(npc.persona):
        found = [
            verb
            for verb in re.finditer(DOING.pattern, clause, re.I)
            if re.search(
                r"(?:^|\b(?:" + "|".join(map(re.escape, mine)) + r")|,)\s*$",
                clause[: verb.start()],
                re.I,
            )
        ]  # its own doings: "Ilse works herself to the bone" is not
        for at, verb in enumerate(found):
            end = found[at + 1].start() if at + 1 < len(found) else len(clause)
            rest = clause[verb.end() : end].strip(" ,.!?")
            rest = re.sub(r"(?:,?\s+and)$", "", rest)
            rest = re.sub(r"\b(?:his|her|their)\b", "my", rest)
            said = first_person(f"I {verb.group()}", npc.name)
            if rest:
                out.append(f"{said} {rest}")
    return out


_OBJECT_ENDS = frozenset(
    "of in on at by to for from with about into under over near behind who which that".split()
)


def _doing_phrases(doing: str) -> list[str]:
    """What the NPC does ("I mend pots, kettles and lamps in my yard"), the things first
    ("Pots, kettles and lamps. I mend them in my yard."), then cut short."""
    words = doing.split()
    at = next((i for i, w in enumerate(words) if i > 2 and w.lower() in _OBJECT_ENDS), len(words))
    thing = " ".join(words[2:at]).rstrip(",")
    out = []
    if len(words) > 2 and thing:
        many = " and " in thing or re.search(r"[^s]s$", thing)
        told = f"{thing}. I {words[1]} {'them' if many else 'it'}"  # {Job} capitalises it
        out += [f"{told} {' '.join(words[at:])}".strip(), told]
    return out or shorter(doing)  # never cut within a list ("pots, kettles | and lamps")


def more_of_itself(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """More of itself than was said ("and what else?" after its work): another thing its
    persona says it does, its wares, its work place as it looks, or a like; the first one
    not said yet, None when all were."""
    npc = talk.npc
    said = stems_of(" ".join(talk.replies))
    named = (npc.persona, npc.name)

    def new(text: str, what: str = "") -> bool:
        own = stems_of(what or text) - stems_of(npc.name)
        return bool(text) and len(own - said) * 2 > len(own) and not speak.stale(text)

    for doing in _doings(npc):
        text = in_own_words(lambda j: _with(speak, "my_work", j), _doing_phrases(doing), *named)
        if new(text, doing):
            return say(text, "player")
    if npc.sheet.wares:
        ware = wares_line(talk, speak)
        if new(said_by(ware).text):  # type: ignore[union-attr]
            return ware
    work = place_named(npc, npc.sheet.work or npc.home)
    for sentence in sentences(work.description) if work is not None else []:
        text = own(sentence, npc)
        if new(text):
            return say(text, "player")
    for like in npc.sheet.likes:
        liked = mine_line(talk, speak, "my_like", like)
        if new(said_by(liked).text):  # type: ignore[union-attr]
            return liked
    return None
