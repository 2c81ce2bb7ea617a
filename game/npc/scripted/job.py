"""What the NPC says of its work and its wares: its trade at its work place in its own
words ("I'm a miller at the windmill", "I keep the inn"), and what it sells ("Copper
pots, sewing needles and lamp oil!"), never its persona read back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.npc.facts import VillagerFacts
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.first_person import first_person
from game.npc.scripted.lines import sentences
from game.npc.scripted.retell import fronted, in_own_words, shorter, words_of
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named, say
from game.npc.skills import SkillCall
from game.wording import reads_back

__all__ = ["job_line", "job_phrases", "said_list", "wares_line"]


def job_phrases(npc: VillagerFacts) -> list[str]:
    """What the NPC does, as it says it, fullest first: "I'm a miller at the windmill",
    "I keep the inn", "I grow herbs at the herb garden"."""
    sheet = npc.sheet
    role = sheet.role if sheet.role != "villager" else ""
    work = place_named(npc, sheet.work)
    at = label_of(work) if work is not None else ""
    first = sentences(npc.persona)[:1]
    if not role and first and re.match(r"(?:A|An|The)\s", first[0]):
        role = first[0].rstrip(".!?")  # "A cheerful baker.": a persona of a kind only
        said = shorter(f"I'm {role[:1].lower()}{role[1:]}")
    elif not role:
        return [f"I work at {at}"] if at else [f"I'm {npc.name}"]
    elif re.fullmatch(r"[a-z]+[^s']s|has|is", role.split()[0]) and len(role.split()) > 1:
        said = shorter(first_person(f"I {role}", npc.name))  # "keeps the inn"
        said += [f for f in map(fronted, said) if f]  # "Before dawn, I bake the bread"
        said += claim_phrases(said[0])  # "The village bread. I bake it before dawn"
    else:
        said = [f"I'm {'an' if role[:1] in 'aeiou' else 'a'} {role}"]
    if at and not set(words_of(at)) - {"the"} <= set(words_of(role)):
        return [f"{s} at {at}" for s in said] + said
    return said


# Words that say when, kept in a line about its work when the player asks when.
_WHEN = frozenset(
    "dawn morni night eveni noon dusk day dayli sunri sunse week hour early late".split()
)


def said_list(items: Iterable[str]) -> str:
    """Items as a list is said: "pots, needles and lamp oil"."""
    items = [i for i in items if i]
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


_WARES_SAID = 3  # wares named in one line: a list longer than that is a catalogue


def wares_line(talk: PlayerLine, speak: Speaker) -> SkillCall:
    """What it sells, from its sheet's wares ("Copper pots, sewing needles and lamp oil!");
    what it does when it sells nothing."""
    wares = talk.npc.sheet.wares[:_WARES_SAID]
    if not wares:
        return job_line(talk, speak, "my_work")
    # In another order when the persona's reads it back ("tapers, dips and rushlights").
    orders = (wares, [*wares[1:], *wares[:1]])
    said = next((o for o in orders if not reads_back(said_list(o), talk.npc.persona)), wares)
    return speak.line("my_wares", wares=said_list(said))


def job_line(talk: PlayerLine, speak: Speaker, table: str) -> SkillCall:
    npc = talk.npc
    keep = _WHEN if re.search(r"\bwhen\b|\bwhat time\b|\bhours\b", talk.said, re.I) else ()
    text = in_own_words(
        lambda j: speak.text(table, job=j), job_phrases(npc), npc.persona, npc.name, keep
    )
    return say(text or speak.text(table, job=f"I'm {npc.name}"), "player")
