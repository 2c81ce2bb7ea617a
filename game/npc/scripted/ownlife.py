"""What a villager says when asked of its own days: its favourite food, what it does for
fun, yesterday and today, the hardest part of its work, its best friend, why it does it and
what it makes of the village. From its sheet (likes, dislikes, fears, opinions of named
others, wares), its day's plan and the map's places; in its mood's plain words when the
sheet holds nothing of the kind. Never its role said back in place of the answer."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from game.npc.facts import PlaceFact, VillagerFacts
from game.npc.reading.naming import families_of
from game.npc.scripted.about import said_as, stems_of, touched
from game.npc.scripted.job import job_phrases
from game.npc.scripted.matching import COLD, WARM
from game.npc.scripted.retell import shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named
from game.npc.skills import SkillCall
from game.world.clock import hour_words

__all__ = ["each_form", "own_life_answer"]

_CHANGE = re.compile(r"\bchange\b|\bwrong\b|\bworst\b|\bbad\b", re.I)
_CLAUSE = re.compile(r"\b(?:will|would|may|might|could|can|is|are|was|were)\b", re.I)
# Where an item's head ends: a place, a time or a clause joined on.
_JOIN = re.compile(
    r"\s+(?:in|on|at|of|with|under|into|from|for|by|near|about|and|when|who|that|which|"
    r"more than)\s+",
    re.I,
)


def own_life_answer(talk: PlayerLine, sub: str, speak: Speaker) -> SkillCall:
    """The line to a question of its own days (`OWN_LIFE`): from its sheet and day, the
    fuller first; its mood's plain answer when they hold nothing of the kind."""
    npc = talk.npc
    phrases = _ANSWERS[sub](npc, talk.said)
    return said_as(talk, speak, "self_told", "about", [p for p in phrases if p])


def _food(npc: VillagerFacts, said: str) -> list[str]:
    liked = [like for like in npc.sheet.likes if "food" in families_of(like)]
    sold = [(w, "") for w in npc.sheet.wares] + [(w, p.name) for p in npc.people for w in p.wares]
    food = [(w, who) for w, who in sold if "food" in families_of(w)]
    return (
        each_form("I'm fondest of {}", liked)
        + [f"{_bare(w)}, from {who}" if who else f"My own {_bare(w)}" for w, who in food[:2]]
        + ["anything hot after a long day. I'm not fussy"]
    )


def _fun(npc: VillagerFacts, said: str) -> list[str]:
    likes = [like for like in npc.sheet.likes if "food" not in families_of(like)]
    out = each_form("{}, when I get the time", likes)
    evening = _evening(npc)
    if evening is not None:
        out.append(f"an evening at {label_of(evening)}, when the work's done")
    return (
        out
        + [f"not much time for fun. {j}" for j in job_phrases(npc)]
        + ["not much, with the work"]
    )


def _yesterday(npc: VillagerFacts, said: str) -> list[str]:
    day = _day_said(npc)
    return [f"I was {day}, same as most days" if day else f"same as most days. {_job(npc)}"]


def _today(npc: VillagerFacts, said: str) -> list[str]:
    day = _day_said(npc)
    return [f"today I'm {day}" if day else f"the usual work. {_job(npc)}"]


def _hardest(npc: VillagerFacts, said: str) -> list[str]:
    sheet = npc.sheet
    work = f"{sheet.role} {_work_label(npc)}"
    out = []
    for item in (touched(work, sheet.dislikes), touched(work, sheet.fears)):
        if item:
            out += each_form("{}. That's the hard part", [item])
    # What it cannot abide or fears at its work, not the hour its day starts: "up by six"
    # answers "when do you start?", not "what's the hardest part?".
    out += each_form("putting up with {}", sheet.dislikes)
    # a worry ("the river will flood one day"), not a fear of what its work never meets
    # ("the dark", of one who boils salt by day)
    worries = [fear for fear in sheet.fears if _CLAUSE.search(fear)]
    out += each_form("the worry that {}, always at the back of my mind", worries)
    at = _work_label(npc)
    long_days = [f"the long days at {at}, but someone has to do it"] if at else []
    return [*out, *long_days, "the long days, but someone has to do it"]


def _learned(npc: VillagerFacts, said: str) -> list[str]:
    """Who taught it, of one whose persona names no teacher: nobody, it learned by doing
    (never a reason to do the work in place of the answer)."""
    work = _work_label(npc)
    at = [f"nobody in particular. I learned it at {work}, by doing it"] if work else []
    return [*at, "nobody in particular. I learned it by doing it, day after day"]


def _friend(npc: VillagerFacts, said: str) -> list[str]:
    names = {p.npc_id: p.name for p in npc.people}
    warm = sorted(
        (
            (len(COLD.findall(held)) - len(WARM.findall(held)), names[who])
            for who, held in npc.sheet.opinions.items()
            if who in names and WARM.search(held) and not COLD.search(held)
        ),
    )
    out = [f"{name}, I'd say" for _, name in warm]
    days = {place for _, place in npc.day}
    near = [p.name for p in npc.people if p.work and p.work in days and p.work != npc.sheet.work]
    out += [f"{name}, I suppose. We see a lot of each other" for name in near[:1]]
    return [*out, "everyone here, more or less. I keep to my work"]


def _why(npc: VillagerFacts, said: str) -> list[str]:
    sheet = npc.sheet
    work = f"{sheet.role} {_work_label(npc)}"
    like = touched(work, sheet.likes)
    out = each_form("for {}. Nothing beats it", [like] if like else [])
    good = "it's what I know, and I'm good at it"
    return out + [f"{good}. {j}" for j in job_phrases(npc)] + [good]


def _living(npc: VillagerFacts, said: str) -> list[str]:
    sheet = npc.sheet
    bad = [*sheet.dislikes, *sheet.fears]
    if _CHANGE.search(said):
        return [*each_form("I'd be rid of {}", bad), "not much. It suits me as it is"]
    place = _liked_place(npc)
    good = f"it suits me. {_cap(label_of(place))} most of all" if place else "it suits me"
    return [*each_form(good + ". Not {}, mind", bad), good]


def each_form(shape: str, items: Sequence[str]) -> list[str]:
    """`shape` said of each item, then of its shorter forms (a persona's "loves fishing
    more than anything" is not read back whole)."""
    out = []
    for item in items:
        head = _JOIN.split(item, maxsplit=1)[0]  # "rats", of "rats in the mill"
        forms = [*shorter(item), head]
        out += [shape.format(f) for f in dict.fromkeys(forms) if f and _whole(f, item)]
    return out


def _whole(short: str, item: str) -> bool:
    """Whether a shorter form still says the thing ("the smell", cut from "the smell of
    clover", does not)."""
    rest, words = item[len(short) :].split(), short.split()
    if not rest:
        return True
    return rest[0].lower() not in ("of", "'s") and not (
        len(words) > 1 and words[-1].endswith("ing")
    )


def _day_said(npc: VillagerFacts) -> str:
    """Its day's places in a few words: "at the school from seven, then at the inn from six"."""
    stops: list[tuple[float, PlaceFact]] = []
    for hour, name in npc.day:
        place = place_named(npc, name)
        if place is not None and (not stops or stops[-1][1].name != place.name):
            stops.append((hour, place))
    if not stops:
        return ""
    said = [f"{_at(npc, p)} from {hour_words(h)}" for h, p in stops[:2]]
    return ", then ".join(said)


def _at(npc: VillagerFacts, place: PlaceFact) -> str:
    home = place.name == npc.home and place.name != npc.sheet.work
    return "home" if home else f"at {label_of(place)}"


def _evening(npc: VillagerFacts) -> PlaceFact | None:
    """Where its day ends up of an evening, when that is neither its home nor its work."""
    late = [name for hour, name in npc.day if hour >= 17]
    place = place_named(npc, late[-1]) if late else None
    if place is None or place.name in (npc.home, npc.sheet.work):
        return None
    return place


def _liked_place(npc: VillagerFacts) -> PlaceFact | None:
    """The place it likes (one a like speaks of), else its work place, else its home."""
    for like in npc.sheet.likes:
        for place in npc.places:
            if stems_of(like) & stems_of(label_of(place)):
                return place
    return place_named(npc, npc.sheet.work) or place_named(npc, npc.home)


def _work_label(npc: VillagerFacts) -> str:
    place = place_named(npc, npc.sheet.work)
    return label_of(place) if place is not None else ""


def _job(npc: VillagerFacts) -> str:
    return job_phrases(npc)[0]


def _bare(ware: str) -> str:
    return re.sub(r"^(?:a|an|some)\s+", "", ware.strip(), flags=re.I)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_ANSWERS: dict[str, Callable[[VillagerFacts, str], list[str]]] = {
    "food": _food,
    "fun": _fun,
    "yesterday": _yesterday,
    "today": _today,
    "hardest": _hardest,
    "friend": _friend,
    "learned": _learned,
    "why": _why,
    "living": _living,
}
