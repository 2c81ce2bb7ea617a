"""What a villager says of its own life when asked: its family, how long it has been here,
whether it is happy. From its persona when the persona tells it ("his brother nearly
drowned in it"), else in its mood's plain words with its work: never a role said back to
"do you have family?"."""

from __future__ import annotations

import re

from game.npc.reading.words import NUMBER_WORDS
from game.npc.scripted.about import said_as
from game.npc.scripted.job import job_line
from game.npc.scripted.ownlife import each_form
from game.npc.scripted.retell import clauses, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.skills import SkillCall

__all__ = ["LIFE", "life_answer", "precise_when"]

LIFE = ("family", "years", "feeling")  # the questions of its life, as `Intent.sub`
# Persona words that tell of each: kin; when it came, or how old it is.
_TELLS = {
    "family": re.compile(
        r"\b(?:family|brothers?|sisters?|mother|father|parents?|sons?|daughters?|wife|husband|"
        r"children|kids?|grand\w+|married|widow(?:er)?|nephews?|nieces?|cousins?|orphan\w*)\b",
        re.I,
    ),
    "years": re.compile(
        r"\b(?:years?|born|grew up|came (?:here|to)|arrived|moved (?:here|to)|newcomer|"
        r"new (?:here|to)|young|all (?:my|her|his|their) life|since (?:childhood|birth|a \w+))\b",
        re.I,
    ),
}
# An age its persona gives: "a boy of ten", "aged seventy", "sixty years old".
_YEARS = (
    r"(\d+|ten|eleven|twelve|\w+teen|"
    r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-\w+)?)"
)
_AGE = re.compile(
    rf"\b(?:a|an) \w+(?: \w+)? of {_YEARS}\b(?! years)|\baged {_YEARS}\b|\b{_YEARS} years? old\b",
    re.I,
)
_OLD = re.compile(
    r"\b(?:is|am|was|an?) (?:\w+ )?(?:old|young)\b|\bborn\b|\bgrew up\b|"
    r"\ball (?:my|her|his|their) life\b",
    re.I,
)
_HOW_OLD = re.compile(r"\bhow old are (?:you|ya)\b|\byour age\b|\bwhat age are you\b", re.I)
# Where a clause's parts meet: the part that tells is said, not the clause's head ("I am
# terrified of the pond since my brother nearly drowned": "my brother nearly drowned").
_PARTS = re.compile(r",\s*|\s+(?:since|because|after|when|while|and|but|who|which|so)\s+")


def life_answer(talk: PlayerLine, sub: str, speak: Speaker) -> SkillCall:
    """The line to a question of its family, its years here or how it feels."""
    npc = talk.npc
    age = _AGE.search(npc.persona) if _HOW_OLD.search(talk.said) else None
    if age:  # "how old are you?" of "a boy of ten": ten
        return speak.line("self_age", age=next(a for a in age.groups() if a).lower())
    tells = _TELLS.get(sub)
    if _HOW_OLD.search(talk.said):  # "how old?" is no "for forty years" at the school
        tells = _OLD
    titles = set(re.findall(r"[a-z]+", f"{npc.name} {npc.sheet.role}".lower()))  # "Sister Agathe"
    for clause in clauses(npc.persona, npc.name) if tells else []:
        for part in _PARTS.split(clause):
            found = tells.search(part) if tells else None
            if found and found.group().lower() not in titles and len(part.split()) > 2:
                return said_as(talk, speak, "self_told", "about", shorter(part))
    if sub == "feeling" and npc.sheet.likes:  # "are you happy?": what keeps it going
        keeps = each_form("{} keeps me going", npc.sheet.likes)
        fill = lambda p: speak.text("self_feeling", job=p[:1].upper() + p[1:])  # noqa: E731
        text = in_own_words(fill, keeps, npc.persona, npc.name)
        if text:
            return say(text, "player")
    return job_line(talk, speak, f"self_{sub}")


# A persona that keeps time to the minute: asked the time, it says it to the minute.
_PRECISE = re.compile(
    r"\b(?:punctual\w*|precise\w*|exact(?:ing|ly)?|on time|to the (?:minute|second)|never "
    r"late|clockwork|timekeep\w*)\b",
    re.I,
)
_NUMBERS = NUMBER_WORDS


def _number(n: int) -> str:
    return _NUMBERS[n - 1] if n <= 20 else f"twenty-{_NUMBERS[n - 21]}"


def precise_when(persona: str, hour: float) -> str:
    """The time to the minute ("seventeen minutes past nine", "a quarter to ten") when the
    persona keeps time precisely, else ""."""
    if not _PRECISE.search(persona):
        return ""
    total = round(hour * 60) % (24 * 60)
    h, m = divmod(total, 60)
    name = lambda at: _NUMBERS[(at - 1) % 12] if at % 12 else "twelve"  # noqa: E731
    if m == 0:
        return f"{name(h)} o'clock"
    if m == 30:
        return f"half past {name(h)}"
    near, past = (m, "past") if m < 30 else (60 - m, "to")
    at = h if past == "past" else h + 1
    count = "a quarter" if near == 15 else _number(near) + ("" if near % 5 == 0 else " minutes")
    if near == 1:
        count = "one minute"
    return f"{count} {past} {name(at)}"
