"""What a question asks of a place besides its looks, answered in kind.

"What's the pond like this morning?" asks how the place is now; "who built the bridge?" its
past; "what fish live in the pond?" or "how deep is it?" what is in it and how big. The
map's description read out answers none of them, nor does "come and look". The kind is
read from the question's shape (never a place's name); the answer is made of the hour, the
place's description (its words of how it looks, its things), who works there and the NPC's
sheet: one who keeps the old stories tells the tale, one whose place it is answers from
its work, any other says what it has seen or what folk say, and names who would know.
"""

from __future__ import annotations

import re
from itertools import pairwise

from game.npc.facts import PersonFact, PlaceFact, VillagerFacts
from game.npc.reading.naming import FILLER, norm, stem, tokens
from game.npc.scripted.describe import keepers_of, spends_time_at
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named, say
from game.npc.skills import SkillCall
from game.world.clock import part_of_day

__all__ = [
    "HOLDS",
    "NOW",
    "OPINION",
    "PAST",
    "WHY",
    "asked_kind",
    "asked_more",
    "asked_of",
    "is_mine",
    "place_in",
]

NOW, PAST, HOLDS, WHY, OPINION = "now", "past", "holds", "why", "opinion"

_PAST_VERB = re.compile(
    r"\bwho (?:first )?(built|made|dug|raised|planted|founded|put up|laid|carved|named)\b"
)
_PAST = re.compile(
    r"\bhow old\b|\bcame to be\b|\bwhen was\b.*\b(?:built|made|dug|founded|planted)\b|"
    r"\b(?:tales?|stor(?:y|ies)|legends?|histor(?:y|ies)|myths?)\b"
)
# "why is the pond so dark?", "how come it's so windy?": why it is as it is.
_WHY = re.compile(r"^(?:but |and |so )?(?:why\b|how come\b)")
# What the NPC thinks of it: "what do you think of...", "do you like...", "the best thing
# about...", "why do you like...".
_OPINION = re.compile(
    r"\bwhat do you (?:think|make) of\b|\bdo you (?:like|love|enjoy)\b|"
    r"\bhow do you (?:like|find)\b|\bwhy do you (?:like|love)\b|"
    r"\b(?:best|nicest|favou?rite) (?:thing|part|bit) (?:about|of)\b|"
    r"\bwhat(?:'s| is) (?:so )?(?:good|special|nice|great) about\b|"
    r"\bany good\b|\bworth (?:a |the )?(?:visit|look|trip|seeing|going)\b|"
    r"\bis (?:it|the [a-z ]{1,20}?) (?:good|nice|pleasant|lovely)\b"
)
# "what kind of fish", "what birds nest there", "how deep", "are there any eels".
_HOLDS = re.compile(
    r"\bwhat (?:kinds?|sorts?|types?) of (?P<kind>[a-z]+)|"
    r"\bwhat (?P<thing>[a-z]+) (?:live|grow|swim|nest|are there|are in|can)\b|"
    r"\bwhat (?:lives|grows|swims|nests|is there to catch|can (?:i|you|we|one) catch)\b|"
    r"\bhow (?P<size>deep|big|wide|large|long|tall|high|many|much|cold|warm)\b|"
    r"\bare there (?:any|many) (?P<any>[a-z]+)"
)
_WHEN = r"this (?:morning|afternoon|evening)|today|tonight|right now|just now|now|yet|these days"
_NOW_TIME = re.compile(rf"\b(?:{_WHEN})\b")
_NOW_HOW = re.compile(r"\blike\b|\bhow(?:'s| is| are| does)\b|\bgoing on\b|\bhappening\b")
# "is the market busy today?", "are the apples ripe yet?": what is asked of, and how it is.
# The thing asked of is "it", "they" or "the" and at most two words ("is the square safe
# at night?" asks if the square is safe; "is the inn a good place to eat?" asks no state).
_STATE = re.compile(
    rf"^(?:is|are)\s+(?P<what>it|they|the (?:[a-z']+ )?[a-z']+)\s+"
    rf"(?!(?:{_WHEN}|night|a|an|the)\b)(?P<state>[a-z]+)"
    rf"(?:\s+(?:{_WHEN}|at (?:night|dusk|dawn)|after dark))?$"
)
_SIZES = {
    "deep": "deeper",
    "big": "bigger",
    "wide": "wider",
    "large": "larger",
    "long": "longer",
    "tall": "taller",
    "high": "higher",
    "cold": "colder",
    "warm": "warmer",
}
# How a place is that people make (busy, open) or its stillness (quiet, shut).
_LIVELY = frozenset("busy crowded open full lively packed bustling".split())
_STILL = frozenset("quiet empty closed shut calm still peaceful deserted".split())
# A persona that keeps the old stories ("remembers every story", "the oldest voice").
_TELLER = re.compile(r"\b(?:stor(?:y|ies|yteller)|tales?|legends?|remembers?|histor|oldest|elder)")
_SAY_WHEN = {
    "night": "at this hour",
    "dawn": "at first light",
    "morning": "this morning",
    "midday": "at midday",
    "afternoon": "this afternoon",
    "dusk": "at dusk",
    "evening": "this evening",
}


def _questions(said: str) -> list[str]:
    """The clauses of a line, lower case, a name called first apart ("Elder, is..."),
    "will it be busy" as "is it busy"."""
    clauses = [c.strip() for c in re.split(r"[?.!,;:]+", norm(said)) if c.strip()]
    return [re.sub(r"^will (.+?) be ", r"is \1 ", c) for c in clauses]  # "will it be busy"


def asked_kind(said: str) -> tuple[str, str]:
    """What a question about a place asks besides its looks, and the word it asks of:
    (PAST, verb), (HOLDS, thing or size), (NOW, how it is or ""); ("", "") for none."""
    text = norm(said)
    if _OPINION.search(text):
        return OPINION, ""
    verb = _PAST_VERB.search(text)
    if verb or _PAST.search(text):
        return PAST, verb.group(1) if verb else ""
    if any(_WHY.match(clause) for clause in _questions(said)):
        return WHY, ""
    holds = _HOLDS.search(text)
    if holds:
        return HOLDS, next((g for g in holds.groups() if g), "")
    for clause in _questions(said):
        state = _STATE.match(clause)
        if state and state["state"] in _SIZES:
            return HOLDS, state["state"]
        if state and state["state"] not in FILLER:
            return NOW, state["state"]
    if _NOW_TIME.search(text) and _NOW_HOW.search(text):
        return NOW, ""
    return "", ""


# A part of the day a question asks of ("is it busy this afternoon?"), said as asked.
_ASKED_PART = (
    ("this morning", "morning"),
    ("this afternoon", "afternoon"),
    ("this evening", "evening"),
    ("tonight", "night"),
    ("at night", "night"),
)


# The hours a part of the day asked of spans ("tonight" is the evening too).
_SPANS = {
    "morning": (5.0, 11.5),
    "afternoon": (12.0, 18.0),
    "evening": (18.0, 22.0),
    "night": (18.0, 24.0),
}


def _asked(talk: PlayerLine) -> tuple[str, str] | None:
    """The part of the day a line asks of, as said and by name, if it asks of one."""
    text = norm(talk.said)
    return next(((w, part) for w, part in _ASKED_PART if re.search(rf"\b{w}\b", text)), None)


def _there_then(npc: VillagerFacts, place: PlaceFact, part: str) -> bool:
    """Whether the NPC's own day has it at the place in that part of the day."""
    start, end = _SPANS.get(part, (0.0, 0.0))
    stops = [*npc.day, (24.0, "")]
    return any(
        at == place.name and h < end and nxt > start for (h, at), (nxt, _) in pairwise(stops)
    )


def _when(talk: PlayerLine) -> tuple[str, bool]:
    """The part of the day asked of, else the hour's, as said ("this morning"), and
    whether it is night."""
    asked = _asked(talk)
    if asked is not None:
        return asked[0], asked[1] == "night"
    hour = talk.sensed.hour if talk.sensed is not None else None
    if hour is None:
        return "today", False
    part = part_of_day(hour)
    return _SAY_WHEN[part], part == "night"


# Words of how a thing looks: by their endings ("reedy", "fenced", "wooden", "stony"),
# else a few plain ones of size, age, light and stillness.
# "rocky", "sandy"; not a quay, an abbey, a bakery or a ferry
_LOOK_ENDS = re.compile(r"(?:(?<![aeoru])y|ed|en|ful|ous|ish|less)$")
_LOOK_WORDS = frozenset(
    """wide deep quiet long broad tall low high old new warm cold calm still dark bright
    green grey gray white red black narrow huge great snug squat round smooth""".split()
)


_NP_ENDS = frozenset(
    """of with by on in at to into under over near beside behind between where and or
    that which from for""".split()
)


def _looks(place: PlaceFact) -> str:
    """How the place looks, in the words of its description that say it ("wide and
    quiet", of "A wide, quiet pond"; "deep and reedy", of "a deep reedy pond"); "" when
    it has none."""
    first = re.split(r"[.;:]", place.description, maxsplit=1)[0]
    for found in re.finditer(r"\b(?:[Aa]n?|[Tt]he)\s+([a-z][a-z ,-]*)", first):
        words = []
        for word in found.group(1).replace(",", " ").split():
            if word in _NP_ENDS or word.endswith("ing"):
                break
            words.append(word)
        kept = [
            w
            for w in words[:-1]  # the last is what it is ("pond"), the rest how it looks
            if w in _LOOK_WORDS or (len(w) > 3 and _LOOK_ENDS.search(w))
        ]
        if kept:
            return " and ".join([", ".join(kept[:-1]), kept[-1]] if len(kept) > 1 else kept)
    return ""


# The things a description says a place has: "with lily pads", "selling fruit and cloth".
_THINGS = re.compile(
    r"\b(?:with|of|selling|full of)\s+([a-z][a-z ,'-]*?)"
    r"(?=\s+(?:at|by|in|on|between|to|from|where|under|over|and (?:a|an|the)\b)\b|[.;:]|$)"
)


def _things(place: PlaceFact) -> str:
    """The things its description says it has ("lily pads", "old apple trees")."""
    text = place.description
    for at in re.finditer(r"\b(?:with|of|selling|full of)\s", text):  # each, overlapping
        found = _THINGS.match(text, at.start())
        things = found.group(1).strip(" ,") if found else ""
        # "cordwood waiting for the saw", "trodden ash ringed": the things, not what they do
        cut = r"\s(?=[a-z]+(?:ing|ed)\b|(?:out|put|hung|set|left|kept)\b)"
        short = re.split(cut, things, maxsplit=1)[0]
        # "baskets of herring": no "baskets of" (a herring is no doing)
        things = things if re.search(r"\s(?:of|and|with|for)$", short) else short
        if (
            things
            and not re.match(r"(?:a|an|the|its|their|his|her)\b", things)
            and len(things) < 40
        ):
            return things
    return ""


def place_in(npc: VillagerFacts, said: str) -> PlaceFact | None:
    """The place a line names first, if it names one."""
    text = norm(said)
    found = []
    for other in npc.places:
        words = [w for w in other.name.split("_") if len(w) > 2]
        at = [re.search(rf"\b{re.escape(w)}s?\b", text) for w in words]
        if words and all(at):
            found.append((min(m.start() for m in at if m), other))
    return min(found, key=lambda f: f[0])[1] if found else None


def _first_named(npc: VillagerFacts, said: str, place: PlaceFact) -> PlaceFact:
    """The place a line names first: "the well in the square" asks of the well."""
    return place_in(npc, said) or place


def _line(speak: Speaker, table: str, **facts: str) -> SkillCall:
    """A line of `table`, its empty slots' space trimmed."""
    return say(" ".join(speak.text(table, **facts).split()), "player")


def _told(word: str, place: PlaceFact) -> bool:
    """Whether the place's description tells of the thing asked ("fruit" at a market
    "selling fruit"): then its description is the answer."""
    name = {stem(w)[:4] for w in tokens(place.name.replace("_", " "))}
    told = {stem(w)[:4] for w in tokens(place.description)} - name
    return bool(word) and word not in _SIZES and stem(word)[:4] in told


def _keeper(npc: VillagerFacts, place: PlaceFact) -> PersonFact | None:
    return next(iter(keepers_of(npc, place.name)), None)


def _teller(npc: VillagerFacts) -> PersonFact | None:
    """Who else keeps the old stories, by what their persona says they do."""
    return next((p for p in npc.people if _TELLER.search(f"{p.role} {p.does}".lower())), None)


# A place named as where another thing is: "the inn on the square", "above the square".
_LANDMARK = re.compile(
    r"\b(?:above|below|beneath|near|beside|behind|past|across|beyond|on|off|over|facing) "
    r"(?:the|a) [\w-]+",
    re.I,
)


def is_mine(npc: VillagerFacts, place: PlaceFact) -> bool:
    """Whether the place is the NPC's own: its work or home, one its persona spends time
    at, or one its work place's description names ("a jetty reaching into the pond")."""
    if place.name in (npc.sheet.work, npc.home):
        return True
    shunned = " ".join([*npc.sheet.fears, *npc.sheet.dislikes, *npc.sheet.refuses])
    # "afraid of the mine", "the inn on the square": named, and no time spent there
    told = _LANDMARK.sub("", npc.persona)
    if spends_time_at(place.name, told) and not spends_time_at(place.name, shunned):
        return True
    work = place_named(npc, npc.sheet.work)
    return work is not None and spends_time_at(place.name, work.description)


def _trade(npc: VillagerFacts, place: PlaceFact) -> str:
    """Why the NPC would know: its trade at the place ("I'd know; I'm a fisher.")."""
    role = npc.sheet.role
    # Its trade as the persona names it ("a quiet fisher"), not a word of how it is.
    named = rf"\b(?:a|an|the|'s)\s+(?:[a-z]+\s+){{0,2}}{re.escape(role)}\b"
    if role and len(role.split()) <= 2 and re.search(named, npc.persona, re.I):
        return f"I'd know; I'm {'an' if role[:1] in 'aeiou' else 'a'} {role}."
    return f"I'd know; I'm at {label_of(place)} every day."


def asked_of(talk: PlayerLine, place: PlaceFact, speak: Speaker) -> SkillCall | None:
    """The answer to what a question asks of a place besides its looks (`asked_kind`):
    how it is now, its tale, what is in it or how big; None when it asks none of these."""
    kind, word = asked_kind(talk.said)
    place = _first_named(talk.npc, talk.said, place)
    if kind == NOW:
        return _now(talk, place, word, speak)
    if kind == PAST:
        return _past(talk, place, word, speak, more=False)
    if kind == HOLDS and not _told(word, place):
        return _holds(talk, place, word, speak, more=False)
    if kind == WHY:
        return _why(talk, place, speak)
    if kind == OPINION:
        return _opinion(talk, place, speak)
    return None


def asked_more(talk: PlayerLine, before: str, place: PlaceFact, speak: Speaker) -> SkillCall | None:
    """More after an answer in kind ("tell me more" after its tale): something new of the
    same kind, not the description again; None when `before` asked none of these."""
    kind, word = asked_kind(before)
    place = _first_named(talk.npc, before, place)
    if kind == PAST:
        return _past(talk, place, word, speak, more=True)
    if kind == NOW and word:  # after whether it is busy or ripe: how it looks now
        now = _now(talk, place, "", speak)
        if not speak.stale(now.arguments()["text"]):
            return now
    if kind in (HOLDS, NOW):
        return _holds(talk, place, word if kind == HOLDS else "", speak, more=True)
    return None


def _now(talk: PlayerLine, place: PlaceFact, how: str, speak: Speaker) -> SkillCall:
    """How the place is at this hour: from its looks, its things and who works there."""
    npc = talk.npc
    when, night = _when(talk)
    keeper = _keeper(npc, place)
    there = keeper.name if keeper is not None and not night else ""
    asked = _asked(talk)
    mine = asked is not None and _there_then(npc, place, asked[1])  # "I'll be there myself"
    if how in _LIVELY | _STILL:  # what people make of a place: the hour and who is there
        lively = mine or (not night and (bool(there) or how in _STILL))
        yes = lively == (how in _LIVELY)
        seen = f"{how}, yes" if yes else f"not {how}, no"
        if mine:
            seen += ". I'll be there myself"
        elif there:
            seen += f". {there} is there"
        elif night:
            seen += ". Everyone's abed"
    elif how in _UNSEEN:  # "is the churchyard haunted?": nothing it has seen says so
        seen = f"{how}? Not that I've ever seen"
    elif how:  # "are the apples ripe yet?": what it has seen of them
        what = _STATE.match(next((c for c in _questions(talk.said) if _STATE.match(c)), ""))
        subject = what["what"] if what and what["what"] not in ("it", "they") else label_of(place)
        verb = "looks" if subject == label_of(place) or not subject.endswith("s") else "look"
        seen = f"{subject} {verb} {how} enough to me"
        if night:
            seen = f"hard to tell in the dark. {seen[:1].upper()}{seen[1:]}"
    else:
        looks, things = _looks(place), _things(place)
        seen = "dark and still" if night else (f"{looks}, as ever" if looks else "much as ever")
        if things and not night:
            seen += f", {things} and all"
        if there:
            seen += f". {there} is there"
    return _line(speak, "place_now", place=label_of(place), when=when, seen=seen)


# A tale the NPC tells: "tells tall tales about the giants who dug the lake".
_TALE_OF = re.compile(r"\b(?:tales?|stor(?:y|ies)|legends?|yarns?) (?:about|of) (?P<about>.+)$")
# What a place may be said to be that no one sees by looking.
_UNSEEN = frozenset(
    "haunted cursed bewitched enchanted magic magical lucky unlucky evil holy sacred".split()
)


def _past(talk: PlayerLine, place: PlaceFact, verb: str, speak: Speaker, more: bool) -> SkillCall:
    """Its tale: told by one who keeps the old stories, else what folk say, and who
    keeps the tales."""
    npc = talk.npc
    facts = {"place": label_of(place), "verb": verb or "made"}
    asked = {stem(w) for w in tokens(talk.said)} - {stem(w) for w in tokens(label_of(place))}
    for way in npc.sheet.ways:  # "tells tall tales about the giants who dug the lake"
        tale = _TALE_OF.search(way)
        if tale and asked & {stem(w) for w in tokens(tale["about"])} - FILLER:
            told = re.sub(
                r"^(?:the |a |an )?(\w+(?: \w+)?) (?:who|that|which) ", r"\1 ", tale["about"]
            )
            return _line(speak, "tale_told", what=told)
    if _TELLER.search(npc.persona.lower()):
        return _line(speak, "place_tale_more" if more else "place_tale", **facts)
    teller = _teller(npc)
    tail = f"Ask {teller.name}, who keeps the old stories." if teller else ""
    if more:  # the tail was said: a new one
        tail = f"{teller.name} would know the rest." if teller else ""
    table = "place_tale_heard_more" if more else "place_tale_heard"
    return _line(speak, table, tail=tail or " ", **facts)


def _holds(talk: PlayerLine, place: PlaceFact, asked: str, speak: Speaker, more: bool) -> SkillCall:
    """What is in it or how big: from the NPC's trade when the place is its own, else what
    it has seen, and who would know."""
    npc = talk.npc
    things = _things(place)
    among = f"out among the {things}" if things else "if you know where to look"
    if asked in _SIZES:
        seen = f"{_SIZES[asked]} than it looks"
        among = f"out past the {things}" if things else "further than you'd think"
    elif asked in ("many", "much"):
        seen = "more than you'd think"
    else:
        seen = f"{asked}? All sorts" if asked else "all sorts"
    if is_mine(npc, place):
        return _line(
            speak,
            "place_holds_mine_more" if more else "place_holds_mine",
            place=label_of(place),
            seen=seen,
            among=among,
            trade=_trade(npc, place),
        )
    keeper = _keeper(npc, place)
    tail = f"Ask {keeper.name}, who's there every day." if keeper is not None else ""
    if more and keeper is not None:  # the tail was said: a new one
        tail = f"{keeper.name} would know better."
    return _line(
        speak,
        "place_holds_seen_more" if more else "place_holds_seen",
        place=label_of(place),
        seen=seen,
        among=among,
        tail=tail or " ",
    )


def _why(talk: PlayerLine, place: PlaceFact, speak: Speaker) -> SkillCall:
    """Why it is as it is: it has always been so, as far as the NPC knows (its looks), and
    who would know better: whoever keeps it, else whoever keeps the old stories."""
    npc = talk.npc
    looks = _looks(place)
    seen = f"always been {looks}" if looks else "always been that way"
    tail = ""
    if not is_mine(npc, place):
        keeper, teller = _keeper(npc, place), _teller(npc)
        if keeper is not None:
            tail = f"Ask {keeper.name}, who's there every day."
        elif teller is not None:
            tail = f"Ask {teller.name}, who keeps the old stories."
    return _line(speak, "place_why", place=label_of(place), seen=seen, tail=tail or " ")


def _opinion(talk: PlayerLine, place: PlaceFact, speak: Speaker) -> SkillCall:
    """What it thinks of the place: a mood's word on it, with how it looks; warmer when it
    is its own."""
    seen = _looks(place) or _things(place) or "much as ever"
    table = "place_opinion_mine" if is_mine(talk.npc, place) else "place_opinion"
    return _line(speak, table, place=label_of(place), seen=seen)
