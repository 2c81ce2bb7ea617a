"""Who another villager is, said short: what they are or do, in a few words of their
persona's first sentence ("a quiet fisher", "makes the cheese and butter"), where they
work, and the answer to "who makes the cheese?" with their name first."""

from __future__ import annotations

import re

from game.npc.facts import PersonFact
from game.npc.scripted.first_person import base_verb
from game.npc.scripted.retell import present, shorter
from game.npc.sheet.reading import trade_of

__all__ = ["felt", "named_first", "what_they_do", "who_they_are"]

_THEM_WORDS = 5  # words of their first sentence said of another villager: never six in a row
# "Who makes the cheese?", "who's the one with the hawks": asks for a name.
_ASKS_WHO = re.compile(r"\bwho(?:'s|s| is| does| do)?\b", re.I)
# A sentence of what someone does: "Makes the cheese and butter.", "Keeps the inn."
_DOES = re.compile(r"[A-Z][a-z]*[^s'\s]s\s")
# A few words cut within a clause that goes on ("a dreamy boy who keeps"): not said.
_CUT = re.compile(r"\b(?:who|that|which|whose)(?: \w+)?$", re.I)
# A clause that goes on with no "who": "the neighbour everyone | on the row leans on".
_CONTACT = re.compile(
    r"\s+(?:everyone|everybody|anyone|anybody|nobody|folk|people|you|they|we)\b.*$", re.I
)


def what_they_do(person: PersonFact) -> str:
    """What another villager is or does, in a few words of their first sentence ("a quiet
    fisher", "bakes the village bread"), else their trade ("a tinker")."""
    rest = re.split(r"[:;]", person.role, maxsplit=1)[0].strip(" .!?")
    for name in sorted({person.name, *person.name.split()}, key=len, reverse=True):
        called = rf"^(?:(?:old|young|little) )?{re.escape(name)}(?:'s)?\s+"  # "Old Peg guts..."
        rest = re.sub(called, "", rest, flags=re.I)
    rest = present(re.sub(r"^(?:is|was)\s+", "", rest))  # "has made the cheese": "makes"
    if re.match(r"(?:a|an|the)\s", rest):  # "the neighbour everyone leans on": the neighbour
        rest = _CONTACT.sub("", rest)
    if rest != person.role.strip(" .!?") and re.match(r"(?:a|an|the)\s|[a-z]+[^s']s\s", rest):
        said = next(
            (c for c in shorter(rest) if len(c.split()) <= _THEM_WORDS and not _CUT.search(c)),
            "",
        )
        if said:
            return said
    trade = trade_of(person.role)
    return f"{'an' if trade[:1] in 'aeiou' else 'a'} {trade}" if trade else ""


def who_they_are(person: PersonFact) -> list[str]:
    """Who another villager is, as short sentences, the fullest first: a few words of
    their first sentence ("A quiet fisher.", "Keeps the inn."), then where they work."""
    them = what_they_do(person) or re.split(r"[.!?;:]", person.role, maxsplit=1)[0].strip()
    said = shorter(them) if them else []
    if person.work:
        said.append(f"works at the {person.work.replace('_', ' ')}")
    return [f"{s[:1].upper()}{s[1:]}." for s in said]


def named_first(said: str, name: str, does: str) -> str:
    """To a line that asks who does something without naming them, who does it as one
    sentence ("Agathe makes the cheese and butter."); "" for any other line or a `does`
    that is not a doing ("A quiet fisher.")."""
    if not _ASKS_WHO.search(said) or name.lower() in said.lower() or not _DOES.match(does):
        return ""
    return f"{name} {does[:1].lower()}{does[1:]}"


# A feeling toward someone said as a verb of theirs: "distrusts Mirela", "adores Jory",
# "admires Jory, who never misses a day", "finds Jory the carter slow and tells him so".
_FELT = re.compile(
    r"^(?:really |secretly |quietly |deeply |greatly )?(?P<verb>[a-z]+[^s\W])s\s+"
    r"(?P<who>[A-Z][\w'-]*)(?P<rest>.*)$"
)
# "is wary of Jory's temper", "is fond of Jory": a feeling said as what the NPC is.
_IS_OF = re.compile(
    r"^is (?P<how>(?:very |quite |a bit |a little |rather )?[a-z]+) of "
    r"(?P<who>[A-Z][\w'-]*?)(?P<whose>'s \w+)?$"
)
_ONLY = re.compile(
    r"^(?P<verb>[a-z]+s) (?P<none>nobody|no one|no-one|anyone|anybody) but (?P<who>[A-Z][\w'-]*)$"
)
# Verbs that take a clause ("thinks Jory is..."), said by the opinion's own words instead.
_SAYING = frozenset("think believe reckon say swear know suspect worry hope wish feel".split())
# Verbs that judge someone as something: "finds Jory slow", "calls Jory a fool".
_JUDGING = frozenset("find consider call count deem".split())
# Where what is felt of someone ends: what they do, or the next thing said.
_FELT_ENDS = re.compile(r",|\s+(?:and|who|whose|because|since|though|although|but|so|as)\b")


_WHY_ENDS = re.compile(r",|\s+(?:and|who|whose|but)\b")
# A judgement of someone, negated: "doesn't think much of Jory, whose goats stray".
_JUDGED = re.compile(
    r"^(?:doesn't|does not) think (?P<how>much|highly|well) of (?P<who>[^,]+?)"
    r"(?:,? whose (?P<whose>.+))?$",
    re.I,
)


def felt(opinion: str, names: set[str], them: str = "them") -> list[str]:
    """An opinion that is a feeling toward the one it names, in the first person ("adores
    Jory" -> "I adore Jory", "finds Jory the carter slow" -> "I find Jory slow", "is
    wary of Jory's temper" -> "I'm wary of Jory's temper", "envies Ada for knowing so
    much" -> "I envy her for knowing so much", `them` saying Ada); [] when it is not one."""
    text = opinion.strip(" .!?")
    judged = _JUDGED.match(text)
    if judged is not None and judged.group("who") in names:
        view = f"I don't think {judged.group('how').lower()} of that one"
        whose = judged.group("whose")
        return [f"{view}. Their {whose}", view] if whose else [view]
    only = _ONLY.match(text)  # "trusts nobody but Marigold": I trust nobody but her
    if only is not None and only.group("who") in names:
        return [f"I {base_verb(only.group('verb'))} {only.group('none')} but {them}"]
    being = _IS_OF.match(_FELT_ENDS.split(text, maxsplit=1)[0])
    if being is not None and being.group("who") in names:
        return [f"I'm {being.group('how')} of {being.group('who')}{being.group('whose') or ''}"]
    felt = _FELT.match(re.sub(r"\b([A-Z][\w-]*)'s\b", r"\1 's", text))  # "Crispin's fussing"
    if felt is None or felt.group("who") not in names or felt.group("verb").lower() == "i":
        return []
    verb = felt.group("verb").lower()
    verb = re.sub(r"([sxz]|ch|sh)e$", r"\1", verb)  # "watches" -> "watch"
    verb = re.sub(r"ie$", "y", verb)  # "envies" -> "envy"
    if verb in _SAYING:
        return []
    if felt.group("rest").startswith(" 's "):  # "dislikes Crispin's fussing": his fussing
        whose = {"her": "her", "him": "his"}.get(them, "their")
        what = _FELT_ENDS.split(felt.group("rest")[4:], maxsplit=1)[0].strip()
        return [f"I {verb} {whose} {what}"] if what else []
    if felt.group("rest").startswith(("'", " '")):
        return []
    who = felt.group("who")  # named, not "that one": the line may call them that already
    rest = _FELT_ENDS.split(felt.group("rest"), maxsplit=1)[0].split()
    if rest[:1] == ["the"] and len(rest) >= 2:  # "Jory the carter": who they are, not a view
        rest = rest[2:]
    if verb in _JUDGING and 0 < len(rest) <= 4:
        return [f"I {verb} {who} {' '.join(rest)}"]
    if rest and rest[0] in ("for", "because"):  # why it feels so: "for knowing so much"
        why = _WHY_ENDS.split(felt.group("rest").split(rest[0], 1)[1], maxsplit=1)[0]
        return [f"I {verb} {them} {rest[0]} {why.strip()}"]
    return [] if rest else [f"I {verb} {who}"]
