"""More of the NPC itself than it said ("and what else?" after its work): another thing its
persona says it does, told with the things first ("Salves and teas. I make them."), its
wares, a part of its work place as it looks, a like or a belief; only what is mostly not
said yet, the nearest to what was talked of first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from game.npc.facts import VillagerFacts
from game.npc.reading.families import DOING
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.reading.words import tokens
from game.npc.scripted.about import mine_line, own, said_as, self_answer, sheet_side, stems_of
from game.npc.scripted.asked_of import HOLDS, asked_kind, asked_more, is_mine
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.describe import parts
from game.npc.scripted.first_person import first_person
from game.npc.scripted.job import said_list, wares_line
from game.npc.scripted.lines import sentences
from game.npc.scripted.retell import in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, Step, place_named, said_by, say
from game.npc.scripted.whereabouts import where_is
from game.npc.skills import EMOTE, SkillCall
from game.wording import overlap

__all__ = ["all_told", "more_of_itself", "more_reply"]

_SAID = 0.5  # a part of a description this much in what was said was said (in other words)


def _with(speak: Speaker, table: str, job: str) -> str:
    """A line of `table` that says `job` ("" when every one was said lately)."""
    text = speak.text(table, job=job)
    return text if job[:12].lower() in text.lower() else ""


# A verb of doing: one of the usual ones, or any verb's -s with a thing after it ("soaks
# them in oak bark", "poles the ferry"; "tans hides" only right after its name), not one
# of thinking or feeling ("thinks the pigeons carry letters").
_NOT_DOING = (
    "thinks|believes|knows|feels|seems|looks|says|swears|suspects|hopes|wants|needs|likes|"
    "loves|hates|fears|dreads|wishes|means|stays|is|was|has|does|prefers|hears|remembers|"
    "asks|loses|spends|admires|sees|watches|tells|calls|sends|answers|speaks|talks|mixes"
)
_DOES = (
    DOING.pattern + rf"|(?-i:\b(?!(?:{_NOT_DOING})\b)[a-z]{{2,}}(?:[^s'\s]s|[cs]hes|sses)\b)"
    r"(?=\s+(?P<thing>the|a|an|them|it|his|her|their|its|every|all|[a-z]+s)\b)"
)
# Where a doing ends: the next thing said of it ("and thinks...", ", but he will never").
_DOING_ENDS = re.compile(
    rf",?\s+and\s+(?:(?:she|he|they)\s+)?(?=(?:{_NOT_DOING}|will|can|never)\b)|,\s*but\b|"
    r",\s+(?=[a-z]+[^s'\s]s\s+(?!and\b|or\b))",  # "sweeps the yard, hauls staves"
    re.I,
)
_OWN_THINGS = frozenset("the a an them it his her their its every all".split())


def _doings(npc: VillagerFacts) -> list[str]:
    """What its persona says it does, each in the first person, in order ("I grow herbs in
    the fenced garden by my cottage", "I make salves and teas for anyone who is ailing"):
    from one verb of doing to the next, so that a list ("pots, kettles and lamps") holds;
    "it" or "them" after a doing is the thing of the one before ("I haul the ferry")."""
    out: list[str] = []
    names = "|".join(map(re.escape, {w.lower() for w in npc.name.split()} | {"she", "he", "they"}))
    for clause in sentences(npc.persona):
        found = []
        for verb in re.finditer(_DOES, clause, re.I):
            before = clause[: verb.start()]
            thing = (verb.group("thing") or "").lower()
            if thing and thing not in _OWN_THINGS:  # "tans hides": right after its name
                own = re.search(rf"(?:^|\b(?:{names}))\s*$", before, re.I)
            else:  # its own doings: "Ilse works herself to the bone" is not
                own = re.search(rf"(?:^|\b(?:{names}|and|who|also)|,)\s*$", before, re.I)
            if own:
                found.append(verb)
        for at, verb in enumerate(found):
            end = found[at + 1].start() if at + 1 < len(found) else len(clause)
            rest = clause[verb.end() : end].strip(" ,.!?")
            rest = _DOING_ENDS.split(rest)[0]
            rest = re.sub(r"(?:,?\s+and)$", "", rest)
            rest = re.sub(r"\b(?:his|her|their)\b", "my", rest)
            said = first_person(f"I {verb.group()}", npc.name)
            last = _thing_of(out[-1].split()) if out else ""
            if last and not _PRONOUN_THING.match(last):
                rest = re.sub(r"^(?:it|them)\b", last, rest)
            if rest:
                out.append(f"{said} {rest}")
    return out


_OBJECT_ENDS = frozenset(
    """of in on at by to for from with about into under over near behind who which that
    across along through past around onto upon beside below above between during when while
    because if as every where""".split()
)


def _thing_of(words: list[str]) -> str:
    """The thing a doing ("I pole the ferry across the river") is done to: "the ferry"."""
    at = next((i for i, w in enumerate(words) if i > 2 and w.lower() in _OBJECT_ENDS), len(words))
    return " ".join(words[2:at]).rstrip(",")


# A thing a doing names by a pronoun ("sells them"): what it sells, from its sheet.
_PRONOUN_THING = re.compile(r"^(?:them|it|these|those|some)$", re.I)


def _doing_phrases(doing: str, wares: tuple[str, ...] = ()) -> list[str]:
    """What the NPC does ("I sell charcoal by the sack to anyone who pays first"), the
    things first ("Charcoal. I sell it by the sack to anyone who pays first."), then cut
    short at each word that starts a part ("Charcoal. I sell it by the sack."); a thing
    named by a pronoun is its wares."""
    words = doing.split()
    ends = [i for i, w in enumerate(words) if i > 2 and w.lower() in _OBJECT_ENDS]
    at = ends[0] if ends else len(words)
    thing = _thing_of(words)
    if _PRONOUN_THING.match(thing):
        thing = said_list(wares[:_WARES_SAID])
    out = []
    if len(words) > 2 and thing:
        many = " and " in thing or re.search(r"[^s]s$", thing)
        told = f"{thing}. I {words[1]} {'them' if many else 'it'}"  # {Job} capitalises it
        out += [f"{told} {' '.join(words[at:end])}".strip() for end in [len(words), *ends[1:]]]
        out.append(told)
    return out or shorter(doing)  # never cut within a list ("pots, kettles | and lamps")


_WARES_SAID = 3  # wares named for a thing said as "them"


def _told(phrase: str) -> str:
    """What a phrase tells past the thing it names first ("Hides. I soak them in oak bark"
    -> "I soak them in oak bark")."""
    return phrase.split(". ", 1)[-1]


def more_of_itself(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """More of itself than was said ("and what else?" after its work): another thing its
    persona says it does, its wares, a part of its work place's description, a like or a
    belief; of those with more new than said, the one nearest what the player asked of
    (its words; the place, to "how"), the first on a tie; None when all were said."""
    npc = talk.npc
    said = stems_of(" ".join(talk.replies))
    asked = stems_of(" ".join(talk.earlier))
    named = (npc.persona, npc.name)

    def new(text: str, least: int = 1) -> bool:
        own = stems_of(text) - stems_of(npc.name)
        fresh = len(own - said)
        return bool(text) and fresh * 2 > len(own) and fresh >= least and not speak.stale(text)

    how = bool(talk.earlier) and re.search(r"\bhow\b", talk.earlier[-1], re.I) is not None

    def near(text: str, place: bool = False) -> int:
        """How near what the player asked about: its words, and a "how" the place shows."""
        return len(stems_of(text) & asked) + (place and how)

    found: list[tuple[str, SkillCall, bool]] = []  # (what it says, the line, of its place)
    for doing in _doings(npc):
        words = doing.split()
        if stems_of(" ".join([*words[:2], _thing_of(words)])) <= said:
            continue  # this doing was told: the next one
        # two new things at least; the thing it is done to may be said again
        phrases = [
            p
            for p in _doing_phrases(doing, npc.sheet.wares)
            if new(p, 2) or (new(_told(p)) and len(stems_of(p) - said) >= 2)
        ]
        text = in_own_words(lambda j: _with(speak, "my_work", j), phrases, *named)
        told = next((p for p in phrases if p.lower() in text.lower()), "") if text else ""
        if told:  # not the few words of a phrase that would read the persona back
            found.append((told, say(text, "player"), False))
    if npc.sheet.wares:
        found.append((" ".join(npc.sheet.wares), wares_line(talk, speak), False))
    work = place_named(npc, npc.sheet.work or npc.home)
    for part in parts(work.description) if work is not None else []:
        text = own(part, npc)
        found.append((text, say(text, "player"), True))
    for like in npc.sheet.likes:
        found.append((like, mine_line(talk, speak, "my_like", like), False))
    for belief in npc.sheet.beliefs:
        line = said_as(talk, speak, f"belief_{belief.sure}", "what", claim_phrases(belief.what))
        found.append((belief.what, line, False))
    # Of as near to what was asked, not its place as it looks: "and?" after "what cheeses
    # do you make?" is not its dairy's roof.
    ranked = [
        (near(what, place), near(what, place) > 0 and not place, -at, line)
        for at, (what, line, place) in enumerate(found)
        if new(_told(what)) and new(said_by(line).text)  # type: ignore[union-attr]
    ]
    return max(ranked, key=lambda t: t[:3])[3] if ranked else None


def all_told(asked: str, told: str, speak: Speaker) -> SkillCall:
    """ "What else?" after its side on a thing was told: that this is all it knows of the
    thing, named by the player's words the side said ("That's all I know of the dragon!"),
    not its side said again nor a line of chat that skips the question."""
    own = stems_of(told)
    run: list[str] = []
    for word in tokens(asked):
        if stems_of(word) and stems_of(word) <= own:
            run.append(word)
        elif run:
            break
    return speak.line("all_told", thing=f"the {' '.join(run)}" if run else "it")


def more_reply(talk: PlayerLine, answer: Callable[[PlayerLine], list[Step]]) -> list[Step]:
    """More of what was just talked of ("tell me more"): the player's line before it
    answered again (by `answer`), its line not one said before; for a place, what its
    description says past what was said."""
    before = replace(talk, said=talk.earlier[-1], earlier=talk.earlier[:-1])
    intent = read_intent(before.said, talk.npc)
    said = " ".join(talk.replies)
    place = place_named(talk.npc, intent.target.name) if intent.target is not None else None
    if intent.kind in (Kind.PLACE, Kind.LOOK) and place is not None:
        speak = Speaker(talk, intent)
        if asked_kind(before.said)[0] == HOLDS and is_mine(talk.npc, place):
            mine = sheet_side(before, speak, any_item=False)  # what its sheet holds of it
            if mine is not None:
                return [mine]
        in_kind = asked_more(talk, before.said, place, speak)
        if in_kind is not None:  # more of its tale, its state, what is in it
            return [in_kind]
    if intent.kind is Kind.PLACE and place is not None and intent.target is not None:
        rest = [s for s in parts(place.description) if overlap(s, said) < _SAID]
        if rest:
            return [say(own(rest[0], talk.npc), "player")]
        speak = Speaker(talk, intent)
        side = sheet_side(before, speak, any_item=False)  # what its sheet holds of it
        if side is not None:
            return [side]
        if place.name in (talk.npc.sheet.work, talk.npc.home):  # its own place: its work
            return [self_answer(talk, "work", speak)]
        way = where_is(talk, intent.target, asked=True)  # nothing more of it: the way
        if way and way not in said:
            return [say(way, "player")]
    if intent.kind is Kind.SELF:  # more of itself: what else it does, sells, keeps
        more = more_of_itself(talk, Speaker(talk, intent))
        if more is not None:
            return [more]
    # A story of its own the line was about ("tell me about the dragon"): its sheet's side
    # on it, if not said yet (seen as if never said: said again, it would be chat instead);
    # if said, that is all it knows of it.
    fresh = replace(before, replies=[])
    side = sheet_side(fresh, Speaker(fresh, intent), any_item=False)
    told = said_by(side) if side is not None else None
    if side is not None and told is not None and overlap(told.text, said) < _SAID:
        return [sheet_side(before, Speaker(talk, intent), any_item=False) or side]
    if told is not None:
        return [all_told(before.said, told.text, Speaker(talk, intent))]
    steps = [s for s in answer(before) if said_by(s) is not None or _is_gesture(s)]
    return steps or [Speaker(talk, intent).line(Kind.CHAT)]


def _is_gesture(step: Step) -> bool:
    return isinstance(step, SkillCall) and step.skill is EMOTE
