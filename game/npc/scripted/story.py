"""A story asked for ("tell me a story", "any ghost stories?", "another one"): a short
telling made from the NPC's own sheet and map, never a dodge.

What is told comes from the sheet: a belief told as a tale, a fear with how it was met, an
opinion of a named villager, a place of the map with what its description says, a like,
its work; the lines carry only a telling's shape and the mood's opener. A storyteller (an
elder, a wise or old one, a persona that tells tales) tells it fuller, a gruff or quiet one
grudgingly and short. Asked again, it tells one not told yet, and says so when it has none
left. A song asked for is sung by one whose persona sings, else declined in its mood.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from game.npc.facts import PersonFact
from game.npc.reading.intent import Intent, read_intent
from game.npc.reading.kinds import Kind, Named, Target
from game.npc.reading.naming import norm
from game.npc.reading.phrases import MORE, STORY_AGAIN
from game.npc.scripted.about import (
    bit_of,
    own,
    stems_of,
    worried,
)
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.job import job_phrases
from game.npc.scripted.lines import pick, sentences
from game.npc.scripted.moods import GRUFF, QUIET, WISE
from game.npc.scripted.retell import in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, said_by, say
from game.npc.scripted.villagers import opinion_line
from game.npc.skills import SkillCall
from game.npc.skills.base import MAX_SAY

__all__ = ["story_reply"]

# A persona that tells tales, or is old or wise enough to: it tells a story fuller.
_TELLER = re.compile(
    r"\b(?:storytell\w*|stor(?:y|ies)|tales?|legends?|elder|oldest|ballads?)\b|\bis old\b|"
    r"\bold and\b",
    re.I,
)
_SINGS = re.compile(r"\b(?:sings?|singing|hums?|humming)\b", re.I)  # a persona that sings
# The sources of a telling, in the order each kind of story asked for tries them.
_ORDER = {
    "ghost": ("fear", "belief", "place", "opinion", "dislike", "like", "work"),
    "odd": ("belief", "place", "fear", "opinion", "dislike", "like", "work"),
    "old": ("belief", "place", "opinion", "fear", "dislike", "work", "like"),
    "": ("belief", "fear", "opinion", "dislike", "like", "place", "work"),
}
_DESCRIBED = 5  # words a place's description has for a telling of it ("The green." has not)
_ASKING = stems_of("tell story tale legend yarn myth fable song sing know")  # no subject
_BIT = 70  # characters of a description's sentence past which its first part is told
_SAID_LATELY = 8  # replies a told story is looked for in


def story_reply(talk: PlayerLine, intent: Intent) -> SkillCall | None:
    """The NPC's line when the player asks for a story or a song, or for another one after
    a story ("another one", "tell me more"); None when the line asks for none."""
    if intent.kind is Kind.STORY:
        return _told(talk, intent, again=False)
    line = norm(talk.said)
    if not talk.earlier or not (STORY_AGAIN.search(line) or MORE.search(line)):
        return None
    for before in reversed(talk.earlier):  # past "another one" and "go on" to the asking
        asked = read_intent(before, talk.npc)
        if asked.kind is Kind.STORY:
            return _told(talk, asked, again=True) if asked.sub != "song" else None
        said = norm(before)
        if not (STORY_AGAIN.search(said) or MORE.search(said)):
            return None
    return None


def _told(talk: PlayerLine, intent: Intent, again: bool) -> SkillCall:
    """One telling not told lately, in the mood's shape; its none-left line if none is."""
    speak = Speaker(talk, intent)
    npc = talk.npc
    if intent.sub == "song":
        refused = any(_SINGS.match(r) for r in npc.sheet.refuses)  # "rather starve than sing"
        return speak.line("song_yes" if _SINGS.search(npc.persona) and not refused else "song")
    full = talk.mood is WISE or bool(_TELLER.search(npc.persona))
    short = not full and (talk.mood in (GRUFF, QUIET) or "few words" in npc.sheet.talks)
    lately = talk.replies[-_SAID_LATELY:]
    tellings = [(item, b) for item, b in _bodies(talk, intent, speak) if b]
    asked = stems_of(talk.said) - _ASKING
    tellings.sort(key=lambda told: not stems_of(told[0]) & asked)  # what the line names first
    body = next((b for item, b in tellings if not _was_told(item, lately)), "")
    if not body:
        return speak.line("story_none")
    first = _shape(talk, speak, "story_again" if again else "story_open")
    close = _shape(talk, speak, "story_close", needed=False) if full and not short else ""
    parts = [first, body, close]
    while len(" ".join(p for p in parts if p)) > MAX_SAY and any(parts):
        parts[2 if parts[2] else 0] = ""  # the close goes first, then the opener
    return say(" ".join(p for p in parts if p), "player")


def _shape(talk: PlayerLine, speak: Speaker, table: str, needed: bool = True) -> str:
    """An opener or close of the mood, not one said lately; when every one was, one not
    said last if `needed` (its few shapes come round again when many stories are asked;
    what is told never does), else none."""
    lines = speak.lines(table)
    fresh = [line for line in lines if not any(line in r for r in talk.replies[-_SAID_LATELY:])]
    if not fresh and not needed:
        return ""
    return pick(fresh or lines, talk.seed(table), talk.replies[-1:], speak.facts)


def _was_told(item: str, lately: list[str]) -> bool:
    """Whether the sheet's item a telling is of was said in a reply lately, in any shape."""
    told = stems_of(item)
    return any(len(told & stems_of(reply)) * 2 > len(told) for reply in lately)


def _bodies(talk: PlayerLine, intent: Intent, speak: Speaker) -> Iterator[tuple[str, str]]:
    """The tellings the sheet and map give, in the order the kind of story asks; first
    of the villager the line names."""
    if intent.target is not None and intent.target.kind is Named.PERSON:
        yield from _of_person(talk, intent.target, speak)
    sources: dict[str, Callable[[PlayerLine, Speaker], Iterator[tuple[str, str]]]] = {
        "belief": _beliefs,
        "fear": _fears,
        "opinion": _opinions,
        "place": _places,
        "like": _likes,
        "dislike": _dislikes,
        "work": _work,
    }
    for source in _ORDER.get(intent.sub, _ORDER[""]):
        yield from sources[source](talk, speak)


def _shaped(
    talk: PlayerLine, table: str, slot: str, phrases: list[str], **facts: str
) -> tuple[str, str]:
    """A telling of `table`'s shape with `slot` filled by the first of `phrases` that does
    not read the persona back, and the phrase it tells (what a telling told is known by);
    ("", "") when each would."""
    npc = talk.npc
    lines = Speaker(talk, Intent(Kind.STORY)).lines(table)
    seed = talk.seed(table)
    lately = talk.replies[-_SAID_LATELY:]
    filled: dict[str, str] = {}

    def fill(phrase: str) -> str:
        text = pick(lines, seed, lately, {**facts, slot: phrase})  # a shape not said lately
        text = re.sub(r"(?<=[!?])\.|(?<=[^.]\.)\.(?=\s|$)", "", text)  # "river?." -> "river?"
        filled.setdefault(text, phrase)
        return text

    text = in_own_words(fill, phrases, npc.persona, npc.name) if phrases else ""
    return filled.get(text, text), text


def _people(talk: PlayerLine) -> dict[str, PersonFact]:
    return {p.npc_id: p for p in talk.npc.people}


def _beliefs(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """Each belief that is not of a villager (those are opinions), told as a tale."""
    people = talk.npc.people
    names = {w for p in people for w in p.name.split()}
    # "the scribe is a fraud": a villager by their trade is an opinion of them too
    roles = {w for p in people for w in stems_of(p.role)}
    for belief in talk.npc.sheet.beliefs:
        first = belief.what.split()[0] if belief.what.split() else ""
        first = re.sub(r"'s?$", "", first)  # "Joss's needles are...": of Joss
        if first in names or re.match(r"(?:it|they|he|she|this|that|so)\b", first, re.I):
            continue
        subject = re.match(r"the (\w+) (?:is|was|has)\b", belief.what, re.I)
        if subject and stems_of(subject.group(1)) & roles:
            continue
        yield _shaped(talk, f"story_belief_{belief.sure}", "what", claim_phrases(belief.what))


def _fears(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """Each fear, told as how it was met; a worry, as one not over yet."""
    for fear in talk.npc.sheet.fears:
        if worried(fear, talk.npc.persona):
            yield _shaped(talk, "story_worry", "thing", claim_phrases(fear))
        else:
            yield _shaped(talk, "story_fear", "thing", shorter(fear))


def _of_person(talk: PlayerLine, person: Target, speak: Speaker) -> Iterator[tuple[str, str]]:
    """A telling of one villager: what the NPC thinks of them, or what they do."""
    said = said_by(opinion_line(talk, person, speak))
    if said is not None and person.label in said.text:  # not the chat line of one said
        yield _shaped(talk, "story_opinion", "view", [said.text], who=person.label)


def _opinions(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """A telling of each villager the sheet holds an opinion of."""
    people = _people(talk)
    for npc_id in talk.npc.sheet.opinions:
        person = people.get(npc_id)
        if person is not None:
            target = Target(Named.PERSON, person.name, person.name, person.role, person.home)
            yield from _of_person(talk, target, speak)


def _places(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """A telling of the map's places with a description, others' first, from the turn's
    seed: what its description says, as a thing to wonder at."""
    npc = talk.npc
    places = [p for p in npc.places if len(p.description.split()) >= _DESCRIBED]
    if not places:
        return
    start = talk.seed("story_place") % len(places)
    ordered = places[start:] + places[:start]
    mine = (npc.home, npc.sheet.work)
    for place in [p for p in ordered if p.name not in mine] + [
        p for p in ordered if p.name in mine
    ]:
        first = sentences(place.description)[0].rstrip(".!?")
        bit = bit_of(first) if len(first) > _BIT else ""  # its first part, said in passing
        desc = own(bit or first, npc)
        yield _shaped(talk, "story_place", "desc", [desc], place=label_of(place))


def _likes(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """Each like, told as what makes a good day."""
    for like in talk.npc.sheet.likes:
        yield _shaped(talk, "story_like", "thing", shorter(like))


def _dislikes(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """Each dislike, told as what it has seen too much of."""
    for dislike in talk.npc.sheet.dislikes:
        yield _shaped(talk, "story_dislike", "thing", shorter(dislike))


def _work(talk: PlayerLine, speak: Speaker) -> Iterator[tuple[str, str]]:
    """Its work, told as its own plain tale."""
    yield _shaped(talk, "story_work", "job", job_phrases(talk.npc))
