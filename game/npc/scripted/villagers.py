"""What the persona brain says of another villager: where they are found, who they are
and what the NPC thinks of them, from its sheet's opinion in its own words ("Fenwick?
Hiding something, that one.") or a plain word on their trade; asked by a thing of theirs
("what do you think of Rosamund's hawks?"), what it thinks of them.
"""

from __future__ import annotations

import re

from game.npc.facts import PersonFact, VillagerFacts
from game.npc.reading.intent import Intent, asks_yes_no
from game.npc.reading.kinds import Kind, Named, Target
from game.npc.reading.phrases import PERSON_SUB
from game.npc.reading.words import MAN, WOMAN
from game.npc.scripted.claims import view_phrases
from game.npc.scripted.clauses import clauses_of
from game.npc.scripted.describe import keeper_of
from game.npc.scripted.matching import COLD, stems_of
from game.npc.scripted.moods import mood_of_word
from game.npc.scripted.retell import MAX_RUN, in_own_words, shared_run, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named, say
from game.npc.scripted.who import felt, named_first, what_they_do, who_they_are
from game.npc.skills import SkillCall

__all__ = ["of_whose", "opinion_line", "opinion_of", "person_answer"]


def person_answer(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall:
    """The line about a villager asked of: where they are found, who they are, and what
    the NPC thinks of them (from its sheet, or a plain word on their trade)."""
    target = intent.target
    assert target is not None
    home = place_named(talk.npc, target.home)
    person = _person(talk.npc, target)
    facts = {"who": target.label, "role": target.about}
    if intent.sub == "where" and target.by_place and person is not None and home is not None:
        if re.search(r"\bwho\b", talk.said, re.I):  # "who runs the mill?": them, at it
            named = stems_of(label_of(home)) <= stems_of(talk.said)  # else not "there"
            return say(keeper_of(person, home.name, named), "player")
    if intent.sub == "where" and home is not None:
        line = speak.text("person_where", home=label_of(home), **facts)
        if target.by_place and target.label not in line:  # "who minds the goats?": name them
            line = f"{target.label}. {line}"
        return say(line, "player")
    if intent.sub == "family" and person is not None:  # "does Silas have any family?"
        return say(_kin_of(person, target.label, speak), "player")
    manner = _MANNER.match(talk.said)
    if manner and manner["who"].lower() != target.label.split()[-1].lower():
        manner = None  # "is it always this windy?" asks of no one
    mood = mood_of_word(manner["manner"]) if manner else None
    theirs = f"{person.role} {person.does}" if person is not None else ""
    how = manner["manner"][:5] if manner else ""
    named = bool(how) and re.search(rf"\b{re.escape(how)}", theirs, re.I) is not None
    if (mood is not None or named) and person is not None:  # "is Ewan always this miserable?"
        same = bool(named) or (
            mood is not None
            and (
                any(t in mood.words or t in mood.talks for t in person.talks)
                or person.mood == mood.name
            )
        )
        them = what_they_do(person) or "a neighbour"
        return speak.line("manner_yes" if same else "manner_no", who=target.label, them=them)
    # "is Bram honest?", and "Silas gave me a penny!": what it thinks of them
    told = asks_yes_no(talk.said) or "?" not in talk.said
    held = opinion_of(talk.npc, target)  # one it thinks ill of: no "A dear!" said of them
    if intent.sub == "opinion" or (told and held) or COLD.search(held):
        return opinion_line(talk, target, speak)
    if not target.about:
        return opinion_line(talk, target, speak)
    if person is None:  # known by the line's facts only
        person = PersonFact(npc_id=target.name, name=target.label, role=target.about)
    if person.wares and _SELLS_ASKED.search(talk.said):  # "what does Cuthbert sell?"
        wares = person.wares
        listed = ", ".join(wares[:-1]) + f" and {wares[-1]}" if len(wares) > 1 else wares[0]
        return say(f"{listed[:1].upper()}{listed[1:]}. {target.label} sells them.", "player")
    if _DOES_ASKED.search(talk.said) and re.match(r"[a-z]+s\b", person.trade):
        return say(_at_work(talk.npc, target.label, person), "player")  # now, not their past
    # Their persona is not ours to read back either: fewer than six of its words in a row,
    # the fullest way to say who they are that keeps under it.
    theirs = f"{person.role} {person.does}"
    for role in who_they_are(person):
        text = named_first(talk.said, target.label, role)  # "Agathe makes the cheese."
        if not text or speak.stale(text):
            text = speak.text("person_who", who=target.label, role=role)
        if shared_run(text, theirs, person.name) <= MAX_RUN:
            return say(text, "player")
    return opinion_line(talk, target, speak)


def of_whose(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """ "What do you think of Rosamund's hawks?", read as her place: what the NPC thinks of
    her, when it thinks anything; None otherwise."""
    if intent.kind is not Kind.PLACE or not _OPINION_ASKED.search(talk.said.lower()):
        return None
    for person in talk.npc.people:
        first = re.escape(person.name.split()[0])
        if talk.npc.sheet.opinions.get(person.npc_id) and re.search(
            rf"\b{first}'s\b", talk.said, re.I
        ):
            return opinion_line(talk, Target(Named.PERSON, person.name, person.name), speak)
    return None


_OPINION_ASKED = re.compile(dict(PERSON_SUB)["opinion"])
# A yes or no of how someone is: "is Ewan always this miserable?", "is Nell so bossy?"
_MANNER = re.compile(
    r"^\W*(?:is|isn't|was) (?P<who>\w+) (?:(?:always|ever|usually|really|so|this|that|such an?|"
    r"a bit|very|quite|as) )*(?P<manner>[a-z-]+)(?: as (?:everyone|everybody|people|folk|they) "
    r"says?)?\W*$",
    re.I,
)


_KIN = re.compile(
    r"\b(?:wife|husband|widow(?:er)?|married|sons?|daughters?|children|kids|mother|father|"
    r"brothers?|sisters?|grand\w+|nephews?|nieces?|family|twins?)\b",
    re.I,
)


def _kin_of(person: PersonFact, who: str, speak: Speaker) -> str:
    """What someone's persona says of their kin ("Ada lives with her daughter."), in under
    six of its words in a row, else that the NPC cannot say."""
    theirs = f"{person.role} {person.does}"
    for clause in clauses_of(theirs, person.name):
        if _KIN.search(clause):
            for said in (f"{who} {c}." for c in shorter(clause)):
                if shared_run(said, theirs, person.name) <= MAX_RUN:
                    return said
    return speak.text("kin_unknown", who=who)


# "What does Ismay do all day?", "what's Nell's job?": their trade now, not their past.
_DOES_ASKED = re.compile(
    r"\bwhat (?:does|did) \w+ do\b(?! (?:to|with|for|about) )|\bwhat(?:'s| is) \w+'s "
    r"(?:job|work|trade|line of work)\b|\bwhat does \w+ do for (?:a living|work)\b",
    re.I,
)


def _at_work(npc: VillagerFacts, who: str, person: PersonFact) -> str:
    """What someone does, and where: "Ismay keeps the little library, at the schoolhouse."
    (up to its first "and": "bakes the village bread before dawn | and stays cheerful")."""
    work = place_named(npc, person.work)
    where = label_of(work) if work is not None else ""
    theirs = f"{person.role} {person.does}"  # not theirs read back: "bakes the bread"
    said = ""
    for trade in shorter(re.split(r",? (?:and|while|but) ", person.trade)[0]):
        said = f"{who} {trade}, at {where}." if where and where not in trade else f"{who} {trade}."
        if shared_run(said, theirs, person.name) <= MAX_RUN:
            break
    return said


_SELLS_ASKED = re.compile(
    r"\bwhat (?:does|do|can|could|will) \w+(?: \w+)? (?:sell|make|have|stock)\b", re.I
)


def _person(npc: VillagerFacts, target: Target) -> PersonFact | None:
    return next((p for p in npc.people if target.name in (p.name, p.npc_id)), None)


def opinion_of(npc: VillagerFacts, target: Target) -> str:
    """The NPC's sheet's opinion of the villager a target names, or ""."""
    person = _person(npc, target)
    return npc.sheet.opinions.get(person.npc_id, "") if person is not None else ""


def _felt_as_mine(text: str, view: str) -> str:
    """A line with a view said as the NPC's own feeling ("I trust nobody but her"), with
    no "that one" after it as if said of them, nor "I think" as if held of them."""
    mine = re.split(r"(?<=[.!?]) ", view)[-1]  # "Keeps bees. I trust nobody but her"
    if not mine.startswith("I "):
        return text
    return re.sub(
        rf"({re.escape(mine)}),? (?:that one|I think|I'd say|I reckon)\b", r"\1", text, flags=re.I
    )


def opinion_line(
    talk: PlayerLine, target: Target, speak: Speaker, table: str = "opinion"
) -> SkillCall:
    """What the NPC thinks of a villager: its opinion in its own words ("Fenwick? Hiding
    something, that one."), else a plain word on what they do. `table`: the lines its
    opinion is said in."""
    npc = talk.npc
    who = target.label
    person = _person(npc, target)
    opinion = opinion_of(npc, target)
    if opinion and person is not None:
        names = {person.name, person.name.split()[0], person.name.split()[-1], "he", "she"}
        said_of = f" {person.role} {person.does} ".lower()
        them = person.them or ("her" if re.search(rf"\b(?:she|her|{WOMAN})\b", said_of) else "him")
        if not person.them and not re.search(rf"\b(?:she|her|he|his|him|{WOMAN}|{MAN})\b", said_of):
            them = "them"
        whose = {"her": "her", "him": "his"}.get(them, "their")
        views = felt(opinion, names, them) or view_phrases(opinion, names, whose)
        halves = view_phrases(opinion, names, whose, halves=True)  # when whole is too long
        asked = {w[:4] for w in stems_of(talk.said)}  # "who talks the most?": "...talking"
        halves.sort(key=lambda h: -len(asked & {w[:4] for w in stems_of(h)}))
        them = what_they_do(person)  # "Joss? A tinker. A chancer, that one."
        text = ""
        for said in (views, halves):
            if them:
                said = [f"{them[:1].upper()}{them[1:]}. {v}" for v in said] + said
            text = text or in_own_words(
                lambda v: _felt_as_mine(speak.text(table, who=who, view=v), v),
                said,
                npc.persona,
                npc.name,
            )
        if text:
            return say(text, "player")
    them = what_they_do(person) if person is not None else ""
    return speak.line("opinion_none", who=who, them=them or "a neighbour")
