"""What a villager says when asked how it works, why, how it learned, how long it has been
at it, or the hardest part: from what its sheet read of the persona (`ways`, `reasons`,
`past`), in its own first person and its mood's frame, never the persona read back. None
when the persona says nothing of the kind: the caller says less, in the villager's voice.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from game.npc.facts import VillagerFacts
from game.npc.reading.words import MAN, WOMAN
from game.npc.scripted.about import stems_of
from game.npc.scripted.clauses import verb_led
from game.npc.scripted.first_person import first_person
from game.npc.scripted.job import job_phrases
from game.npc.scripted.lines import sentences
from game.npc.scripted.retell import fronted, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.skills import SkillCall

__all__ = ["HOW_WHY", "how_less", "how_why_answer"]

HOW_WHY = (
    "method",
    "learned",
    "daily",
    "why",
    "reason",
    "years",
    "hardest",
)  # `Intent.sub`s answered here
# Words of a "how" or "why" question that tell nothing of what is asked about.
_ASKING = frozenset("make made does doing work working become became thing things".split())
_TAUGHT = re.compile(
    r"\b(?:taught|teach\w*|learn\w*|apprentic\w*|trained|took over|inherited|showed \w+ how)",
    re.I,
)
_YEARS = re.compile(r"\b(?:for\s+)?((?:[\w-]+\s+){1,2}years?)(?:\s+ago)?\b", re.I)
_HARD = re.compile(
    r"\b(?:the\s+)?(?:hardest|toughest|trickiest|worst|most difficult)\s+(?:part|thing|bit)"
    r"(?:\s+of\s+(?:it|the\s+\w+|\w+\s+\w+))?\s+(?:is|was)\s+(?P<what>[^.;!?]+)",
    re.I,
)
_BY_DOING = re.compile(r"^(?P<head>.+?)\s+by\s+(?P<doing>\w+ing)\b", re.I)


def how_why_answer(talk: PlayerLine, sub: str, speak: Speaker) -> SkillCall | None:
    """The line to a "how", "why", "who taught you", "how long" or "hardest part"
    question, from what the persona says of it; None when it says nothing of it."""
    npc = talk.npc
    names = {w for p in npc.people for w in p.name.split()} | set(npc.name.split())
    keep = {k[:5] for k in stems_of(talk.said) - _ASKING}
    fill: Callable[[str], str] = lambda p: speak.text("self_told", about=p)  # noqa: E731
    text = ""
    # The phrases come in tiers, "" between them: a later tier only when none of one fits.
    tiers = "\n".join(_PHRASES[sub](npc, talk.said)).split("\n\n")
    for tier in ([p for p in t.split("\n") if p.strip()] for t in tiers):
        said = [p if p.split()[0] in names or p.startswith(("I ", "I'")) else _low(p) for p in tier]
        text = text or in_own_words(fill, said, npc.persona, npc.name, keep=keep)
    return say(text, "player") if text else None


def how_less(talk: PlayerLine, speak: Speaker) -> SkillCall:
    """A short true line to a "how" the persona does not answer: practice, and its work."""
    return say(speak.text("self_how", job=_cap(job_phrases(talk.npc)[0])), "player")


def _mine(clause: str, name: str) -> str:
    """A clause said of the NPC, in its own first person ("twists hemp" -> "I twist hemp")."""
    if re.match(r"^(?:her|his|their|my)\b", clause, re.I):  # "her grandmother taught her"
        return first_person(clause, name)
    if re.match(r"^(?:she|he|they)\b", clause, re.I):
        return first_person(re.sub(r"^\w+", "I", clause), name)
    return first_person(f"I {clause[:1].lower()}{clause[1:]}", name)


def _said(clause: str) -> list[str]:
    """A first-person clause and the ways to say it short: its where or when said first,
    each of a pair of things it does on its own, split at "when", then cut."""
    out = [clause]
    for way in (clause, _when_first(clause)) if len(clause.split()) >= _LONG else ():
        front = fronted(way)
        counted = _COUNT & set(front.split(",")[0].lower().split())  # "in tallow twelve times"
        if front and not counted and not re.search(r", I \w+ of\b", front):  # "I carve of"
            out.append(front)
    out += _fronts(clause)
    out.append(_when_first(clause))
    shared = re.match(r"I (\w+) and (\w+) (\w.+)$", clause)  # "I mend and patch cloaks"
    if shared:  # each verb with the thing: "I patch cloaks...", "I mend cloaks..."
        out += [cut for verb in shared.group(2, 1) for cut in shorter(f"I {verb} {shared[3]}")]
    pair = _PAIR.match(clause)
    if pair:  # "I boil onion skins for yellow and madder root for red"
        for one in (f"{pair['verb']} {pair['one']}", f"{pair['verb']} {pair['other']}"):
            out += [one, *_fronts(one)]
    out.append(_TAUGHT_WHAT.sub(_KEEP, clause))  # "taught me the craft when" -> "taught me when"
    head, when, tail = clause.partition(" when ")
    if when and tail:
        out.append(f"{_TAUGHT_WHAT.sub(_KEEP, head)}. {_cap(tail)}")
    if _SAID_THAT.search(clause):  # "my gran said they sulk" -> "my gran told me they sulk"
        out.append(_SAID_THAT.sub("told me", clause, count=1))
    # not a pair cut in half ("I melt sand | and ash"), nor a saying cut from what it says
    cut = [
        c
        for c in shorter(clause)[1:]
        if not clause[len(c) :].startswith((" and ", " or ")) and c.split()[-1].lower() not in _SAYS
    ]
    return [o for o in dict.fromkeys([*out, *cut]) if o]


# A time said last ("keeping the furnace hot all night"), to say first.
_TIME_LAST = re.compile(
    r"^(?P<head>.+?)\s+(?P<when>(?:all|every|each|at|before|after|by|through the) (?:\w+ )?"
    r"(?:night|day|morning|evening|dawn|dusk|noon|winter|summer|spring|autumn|week|year|hour)s?"
    r"|once|twice|\w+ times)$",
    re.I,
)
# Two things done with one verb: "I boil onion skins for yellow and madder root for red".
_PAIR = re.compile(
    r"^(?P<verb>I \w+) (?P<one>(?!and |or )(?:[^\s,]+ ){2,}[^\s,]+?) and "
    r"(?P<other>(?!I\b|my\b)(?:[^\s,]+ ){2,}[^\s,]+)$"
)
_TAUGHT_WHAT = re.compile(
    r"\b((?:taught|showed|trained) me)(?: (?:the|my|this|that|her|his|all|how) )?[\w']+"
    r"(?= when| at| in| as| for|$)"
)


_KEEP = r"\1"
# Someone's words reported ("my gran said they sulk"), and verbs that need what follows.
_SAID_THAT = re.compile(r"(?<=\w )(?:said|says)(?: that)?(?= \w+ \w+)")
_SAYS = frozenset(
    "said says say told tells thinks think knows know believes swears means as like than".split()
)


_LONG = 7  # a clause of this many words may have a phrase said first; a shorter one is plain
# Where a phrase of how, where or what for starts, and words that carry it on.
_PREP = frozenset("from with for in on at under over into using near behind beside as".split())
# Words that start a count, which ends a phrase ("in tallow | twelve times").
_COUNT = frozenset("once twice two three four five six seven eight nine ten twelve".split())
_GOES_ON = frozenset("of a an the my his her their its some each every".split())


def _fronts(clause: str) -> list[str]:
    """The clause with each of its phrases of where, what with or what for said first
    ("I carve spoons from birch wood under the elm" -> "From birch wood, I carve spoons
    under the elm"); a phrase runs to the next one, and is of two to four words."""
    words = clause.split()
    out: list[str] = []
    if len(words) < _LONG:  # "I learned it from my father" is said as it is
        return out
    for at in range(3, len(words) - 1):
        if words[at].lower() not in _PREP or words[at - 1].lower() in _GOES_ON:
            continue
        ends = _PREP | _COUNT
        end = next((i for i in range(at + 1, len(words)) if words[i].lower() in ends), len(words))
        if 2 <= end - at <= 4 and words[end - 1].lower() not in _GOES_ON:
            rest = " ".join(words[:at] + words[end:]).rstrip(",;:")
            out.append(f"{_cap(' '.join(words[at:end]))}, {rest}")
    return out


def _when_first(clause: str) -> str:
    found = _TIME_LAST.match(clause)
    return f"{_cap(found['when'])}, {found['head']}" if found else ""


def _rank(said: str, items: list[str], known: set[str]) -> list[str]:
    """Items by the telling words they share with a question besides those `known` (its
    trade's), most first (ties keep their order)."""
    asked = stems_of(said) - {s[:5] for s in _ASKING} - known
    score = {item: len(asked & stems_of(item)) for item in items}
    return sorted(items, key=lambda item: -score[item])


def _touches(said: str, item: str) -> bool:
    return bool((stems_of(said) - {s[:5] for s in _ASKING}) & stems_of(item))


def _how(npc: VillagerFacts, said: str) -> list[str]:
    ways = _work_ways(npc)
    if not ways:
        return []
    ranked = _rank(said, ways, _job_stems(npc))
    best = ranked[0]
    first = [_mine(best, npc.name)]
    nxt = ways.index(best) + 1
    out: list[str] = []
    if nxt < len(ways) and _verb(ways[nxt]) != _verb(best):  # what it does next, said short
        then = [s for s in _said(_mine(ways[nxt], npc.name)) if len(s.split()) <= 6]
        out += [f"{a}. Then {b}" for a in _said(first[0]) for b in then[:2]]
    return out + _said(first[0])


def _daily(npc: VillagerFacts, said: str) -> list[str]:
    """Its day: its work, as ever, and what it does at it."""
    ways = _work_ways(npc)
    jobs = job_phrases(npc)
    said_so = [s for s in _said(_mine(ways[0], npc.name)) if len(s.split()) <= 8] if ways else []
    days = [f"{job}, as ever. {_cap(s)}" for s in said_so for job in jobs]
    return [*days, "", *(f"the usual. {job}" for job in jobs)]


# Where one way ends and another begins: "lives in the shed | and hunts rats", not "sews
# coats | and gowns in her shop" (a thing, with where after it).
_TWO_WAYS = re.compile(r",? and (?=[a-z]+[^s\W]s\b(?! (?:in|at|on|for|to|from|by|with|of)\b)(?!$))")


def _ways_in(way: str) -> list[str]:
    """The ways one sentence says, but not a verb cut from its thing ("cuts | and sews
    coats": one way)."""
    out: list[str] = []
    for part in _TWO_WAYS.split(way):
        if out and len(out[-1].split()) == 1:
            out[-1] = f"{out[-1]} and {part}"
        else:
            out.append(part)
    return out


def _work_ways(npc: VillagerFacts) -> list[str]:
    """The ways that say how it does its work: not its trade said once, and each with a
    how (with what, by doing what, what for, a reason), or of its work's things, or said in one
    sentence with one that is ("melts sand in a furnace and shapes the glass with a
    pipe"), or said after its trade ("is the seamstress: she mends..."); not "sleeps in a
    lean-to"."""
    sheet = npc.sheet
    work = stems_of(f"{sheet.role} {' '.join(sheet.wares)}")
    said = [s.lower() for s in sentences(npc.persona)]
    # "lives in the shed... and hunts rats in every barn": two ways, one of them its work
    parts = [p for w in sheet.ways for p in _ways_in(w)]
    ways = [w for w in parts if not _is_job(npc, w) and not _AT_HOME.match(w)]
    kept = [
        w
        for w in ways
        if _METHOD.search(w)
        or _PURPOSE.search(w)
        or work & stems_of(w)
        or w in sheet.reasons
        # "hunts rats" of a ratcatcher: a thing its trade's own name holds
        or any(len(s) > 2 and s in sheet.role.lower() for s in stems_of(w))
        or any(
            re.search(rf"\b{re.escape(sheet.role.lower())}\b.*{re.escape(w.lower())}", s)
            for s in said
        )
    ]
    for way in ways:
        held = [s for s in said if way.lower() in s]
        if way not in kept and any(k.lower() in s for k in kept for s in held):
            kept.append(way)
    return [w for w in ways if w in kept]


_AT_HOME = re.compile(r"(?:lives?|sleeps?|stays?|dwells?)\b", re.I)  # its home, not its work
_PURPOSE = re.compile(r"\b(?:for|into|before|after|until|so)\b", re.I)


def _verb(way: str) -> str:
    return way.split()[0].lower() if way.split() else ""


def _is_job(npc: VillagerFacts, way: str) -> bool:
    """Whether a way is its trade said ("blows glass in the glassworks"), and no how: not
    "carves spoons from birch wood", which says what from."""
    role = npc.sheet.role.lower()
    same = bool(role) and (way.lower() == role or way.lower().startswith(role.split(" in ")[0]))
    return same and not _METHOD.search(way)


_METHOD = re.compile(r"\b(?:from|with|using|out of)\b|\bby \w+ing\b", re.I)


def _learned(npc: VillagerFacts, said: str) -> list[str]:
    taught = [_mine(p, npc.name) for p in npc.sheet.past if _TAUGHT.search(p)]
    first = [t for p in taught for t in _teacher_first(p) if t]  # the teacher, if named
    return [*first, "", *(s for p in taught for s in _said(p))]


# Who taught it, said first: "I learned the work from my father, who was sexton before me"
# -> "My father taught me, who was..."; "since I was nine, when old Nance showed me how" ->
# "Old Nance showed me how, when I was nine". Not the persona's order, nor its words.
_FROM_WHOM = re.compile(
    r"\b(?:learned|learnt|picked up|had)\b[^,.;]*?\bfrom "
    r"(?P<who>(?:[Mm]y|[Oo]ld|[Tt]he) [\w' -]+?|[A-Z][\w']+)(?P<rest>,[^.;]*)?$"
)
_TAUGHT_BY = re.compile(
    r"(?P<who>\b(?:(?:[Mm]y|[Oo]ld|[Tt]he) )?(?:[a-z]*(?:mother|father)|uncle|aunt|master|"
    r"mistress|gran|granny|nan|[A-Z][\w']+))\s+(?P<verb>taught|showed|trained)\s+me"
    r"(?P<manner> how)?\b"
)
# How young it was: "nine", "twelve years old", "a girl of twelve", "a boy".
_YOUNG = r"(?P<age>a (?:\w+ )?(?:girl|boy|lad|lass|child)(?: of [\w-]+)?|[\w-]+(?: years? old)?)"
_AGE = re.compile(rf"\b(?:since|when) I was {_YOUNG}")
_HE = re.compile(rf"\b(?:{MAN})$")
_SHE = re.compile(rf"\b(?:{WOMAN})$")


def _teacher_first(clause: str) -> list[str]:
    """The clause said with its teacher first, the way a villager answers "who taught
    you?" (nothing when it names no teacher)."""
    found = _FROM_WHOM.search(clause)
    if found:
        who, rest = found["who"].strip(), (found["rest"] or "").strip(" ,")
        was = re.match(r"who (was|were) (?P<what>.+)$", rest)
        pronoun = "He" if _HE.search(who) else "She" if _SHE.search(who) else ""
        told = f"{_cap(who)} taught me"
        return [f"{told}. {pronoun} was {was['what']}" if was and pronoun else "", told]
    found = _TAUGHT_BY.search(clause)
    if not found:
        return []
    told = f"{_cap(found['who'].strip())} {found['verb']} me{found['manner'] or ''}"
    age = _AGE.search(clause)
    return [f"When I was {age['age']}, {_low(told)}" if age else "", told]


def _why(npc: VillagerFacts, said: str) -> list[str]:
    sheet = npc.sheet
    if re.search(r"\bhow did you\b", said, re.I):  # "how did you become a thatcher?"
        return _learned(npc, said)
    out: list[str] = []
    general = not (stems_of(said) - {s[:5] for s in _ASKING} - _job_stems(npc))
    for done, why in sheet.reasons.items():
        if general or _touches(said, f"{done} {why}"):
            out += _because(why, npc.name)
    for way in sheet.ways:  # "why do you walk backwards?": what walking backwards does
        by = _BY_DOING.match(way)
        if by and _asks_of(said, by.group("doing")[:-3]):
            verb, _, rest = _mine(by.group("head"), npc.name).partition(" ")[2].partition(" ")
            out += [f"that's how I {verb} {rest}".strip(), f"to {verb} {rest}".strip()]
    for belief in sheet.beliefs:
        if _touches(said, belief.what):
            what = first_person(belief.what, npc.name)
            out += [f"{_cap(what)}, I believe", _cap(what)]
    return out


def _asks_of(said: str, base: str) -> bool:
    """Whether a question asks of a doing by its verb ("walk" in "why walk backwards?")."""
    return len(base) > 2 and bool(re.search(rf"\b{re.escape(base)}", said, re.I))


def _because(why: str, name: str) -> list[str]:
    """A reason as the NPC says it: "she thinks grey cloth makes people sad" -> "grey
    cloth makes people sad, I think"; "she does not trust..." -> "because I don't trust"."""
    if why.lower().startswith("to "):
        return _said(why)
    # "she does not trust" is the NPC; "they burn slow" is what it makes
    own = re.match(r"^(?:she|he)\b", why, re.I) or verb_led(why)
    mine = _mine(why, name) if own else first_person(why, name)
    thought = re.match(r"^I (think|believe|reckon|feel)\s+(?:that\s+)?(?P<what>.+)$", mine)
    if thought:
        return [f"{_cap(thought.group('what'))}, I {thought.group(1)}"]
    return _said(mine)


def _years(npc: VillagerFacts, said: str) -> list[str]:
    if re.search(r"\bhow old\b|\bage\b", said, re.I):
        return []  # "how old are you?" is no "taught for forty years"
    for past in npc.sheet.past:
        found = _YEARS.search(past)
        if found and found.group(1).split()[0].lower() not in ("many", "some", "the"):
            return [f"{_cap(found.group(1))} now"]
    for past in npc.sheet.past:  # "since he was nine": since it was so young
        found = _SINCE_AGE.search(past)
        if found:
            return [f"since I was {found['age']}. Years and years", f"since I was {found['age']}"]
    return []


_SINCE_AGE = re.compile(rf"\b(?:since|when) (?:she|he|they|I) was {_YOUNG}")


def _hardest(npc: VillagerFacts, said: str) -> list[str]:
    found = _HARD.search(npc.persona)
    if found is None:
        return []
    what = first_person(found.group("what").strip(), npc.name)
    said_so = _said(what)
    return [f"{s}. That's the hard part" for s in said_so] + said_so


def _job_stems(npc: VillagerFacts) -> set[str]:
    return stems_of(f"{npc.sheet.role} {' '.join(npc.sheet.ways[:1])}")


def _low(text: str) -> str:
    return text[:1].lower() + text[1:]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


_PHRASES: dict[str, Callable[[VillagerFacts, str], list[str]]] = {
    "method": _how,
    "learned": _learned,
    "daily": _daily,
    "why": _why,
    "reason": _why,
    "years": _years,
    "hardest": _hardest,
}
