"""Village life as a villager tells it: the village's places with who works at each and
what they do there ("the ropewalk, where Wenna twists rope"), and, with no news heard, the
village going on as ever ("Pell the beekeeper works at the apiary, same as ever.").

Every fact is the map's: its places, and who works at each by their sheet (`work`, from
the map or read from their persona). The places with someone at work come first, picked
by the turn's seed, so the village is not told the same way to every question.
"""

from __future__ import annotations

import re

from game.npc.facts import NewsFact, PersonFact, PlaceFact, VillagerFacts
from game.npc.reading.naming import norm, village_names
from game.npc.scripted.describe import doing_at, keepers_of
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of
from game.npc.skills import SkillCall

__all__ = ["about_village", "as_ever", "at_work", "board_reply", "village_places"]

_TOLD = 3  # places said in one line of the village: more would not fit one breath


def _worked(npc: VillagerFacts) -> list[tuple[PlaceFact, PersonFact | None]]:
    """The places the NPC knows, each with who works there (not the NPC itself), those
    with someone first, in map order."""
    pairs: list[tuple[PlaceFact, PersonFact | None]] = []
    for place in npc.places:
        keepers = [p for p in keepers_of(npc, place.name) if p.work == place.name]
        pairs.append((place, keepers[0] if keepers else None))
    return [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]


def _turned(items: list, seed: int) -> list:
    """The items from a place the seed picks, round to the start."""
    if not items:
        return items
    start = seed % len(items)
    return items[start:] + items[:start]


def village_places(npc: VillagerFacts, seed: int) -> str:
    """A few of the village's places as a list a line says: "the ropewalk, where Wenna
    twists rope, the apiary, where Pell the beekeeper works, and the green"; "" with none."""
    pairs = _worked(npc)
    staffed = _turned([p for p in pairs if p[1] is not None], seed)
    bare = [p for p in pairs if p[1] is None]
    told = []
    for place, person in (staffed + bare)[:_TOLD]:
        label = label_of(place)
        if person is None:
            told.append(label)
            continue
        done = doing_at(person, place.name, "")
        # "where Brannoc keeps the Crooked Pike" says the place twice: whose it is says it once
        named = re.search(rf"\b{re.escape(place.name.replace('_', ' '))}\b", done, re.I)
        told.append(f"{label}, {person.name}'s" if named else f"{label}, where {done}")
    if not told:
        return ""
    if len(told) == 1:
        return told[0]
    # "where Osric works, and the apiary": the last comma says where one place's part ends.
    return ", ".join(told[:-1]) + f"{',' if len(told) > 2 else ''} and {told[-1]}"


def at_work(npc: VillagerFacts, seed: int) -> str:
    """One villager at work as ever, to "what's new?" with no news heard: "Wenna twists
    rope at the ropewalk, same as ever."; "" when no one works at a place the NPC knows."""
    staffed = _turned([p for p in _worked(npc) if p[1] is not None], seed)
    if not staffed:
        return ""
    place, person = staffed[0]
    assert person is not None
    return as_ever(person, place)


def as_ever(person: PersonFact, place: PlaceFact) -> str:
    """Someone at their work as ever: "Wenna twists rope at the ropewalk, same as ever."."""
    return f"{doing_at(person, place.name, ' at ' + label_of(place))}, same as ever."


# "what's on the notice board?", "anything pinned up on the board?", "any notices?",
# "where can I post a notice?": the board asked of, not the way to it.
_BOARD = re.compile(
    r"\b(?:what(?:'s| is| does)|anything|any|something|owt|is there)\b[^?.!]*"
    r"\b(?:notice ?board|board|notices?|posted|pinned|posts?)\b|"
    r"\b(?:post|pin|put up|stick up|leave)\b[^?.!]*\b(?:notice|message|note)\b",
    re.I,
)
# The board itself asked of: where it is, what it is made of, how it looks.
_NOT_ITS_POSTS = re.compile(
    r"\bwhere(?:'s| is)\b|\bmade of\b|\blook like\b|\bwho (?:made|built)\b|\bhow old\b", re.I
)
# The NPC's own post asked of: "I saw your name on the board", "you put up a notice".
_ITS_OWN_POST = re.compile(
    r"\byour (?:name|notice|note|post|message)\b[^.!?]*\bboard\b|"
    r"\bboard\b[^.!?]*\byour (?:name|notice|note|post|message)\b|"
    r"\byou (?:put|posted|pinned|stuck|left)(?: up)? (?:a|that|the|your) (?:notice|note|message)\b",
    re.I,
)
_KEEPS_BOARD = re.compile(r"\b(?:notices?|notice ?board)\b", re.I)


def board_reply(npc: VillagerFacts, said: str, news: list[NewsFact]) -> str:
    """What is on the village's notice board, asked of: the news the NPC read there, else
    that nothing new is up, on which place's board, and who pins the notices (the one whose
    persona says so, or the NPC itself); "" when the line asks no such thing or the map
    has no board a place's description names."""
    if _ITS_OWN_POST.search(said):  # "I saw your name on the notice board": its own post
        own = [n for n in news if n.origin_is_teller or n.source == npc.npc_id]
        if own:
            return f"That's mine. {own[0].fact[:1].upper()}{own[0].fact[1:]}."
        if re.search(
            r"\bwhat(?:'s| is| was| does) (?:it|that|this)(?: about| for| say)?\b", said, re.I
        ):
            return "Not mine, whatever it is. I've put nothing up on the board."
    if not _BOARD.search(said) or _NOT_ITS_POSTS.search(said):
        return ""
    read = [n for n in news if n.how == "board"]
    if read:
        return "The board says: " + " ".join(f"{n.fact[:1].upper()}{n.fact[1:]}." for n in read[:2])
    place = next((p for p in npc.places if _KEEPS_BOARD.search(p.description)), None)
    if place is None:
        return ""
    on = f"the board on {label_of(place)}"
    keeper = next((p for p in npc.people if _KEEPS_BOARD.search(f"{p.role} {p.does}")), None)
    if _KEEPS_BOARD.search(npc.persona) and keeper is None:
        return f"Nothing new up on {on}, and I'd know: the notices go up by my hand."
    ask = f" {keeper.name} pins up the notices; ask {keeper.name}." if keeper else ""
    if re.search(r"\b(?:post|pin|put up|stick up|leave)\b", said, re.I):
        return f"On {on}.{ask}"
    return f"Nothing new up on {on}, last I looked.{ask}"


# "what's this village called?", "where am I?": the village's name asked.
_NAME_ASKED = re.compile(
    r"\bwhat(?:'s| is) (?:this|the|your) (?:village|town|place|hamlet)(?:'s name| called)\b|"
    r"\bname of (?:this|the|your) (?:village|town|place|hamlet)\b|"
    r"\bwhat (?:village|town|place) is this\b|\bwhere am i\b"
)


def about_village(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The village's name asked ("is this Larkby?"), how its days go ("is it always this
    quiet?"), or what's for supper; None when the line asks none of these."""
    return _named(talk, speak) or _pace(talk, speak) or _meal(talk, speak)


def _named(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The village's name, to a line that asks it or asks if this is it ("is this
    Stonereach?"): from the map's name, else the name its descriptions give; None when the
    line asks neither or no name is known."""
    sensed = talk.sensed
    name = sensed.map_name if sensed is not None and sensed.map_name else ""
    if not name:
        found = sorted(village_names(talk.npc))
        name = found[0].capitalize() if len(found) == 1 else ""
    if not name:
        return None
    said = norm(talk.said)
    this = rf"{_THIS}[^?.!]*\b{re.escape(name.lower())}\b"
    if _NAME_ASKED.search(said) or re.search(this, said):
        return speak.line("village_name", village=name)
    other = re.search(rf"{_THIS}\s+([A-Z][a-z]+)\s*\?", talk.said, re.I)  # "is this Larkby?"
    names = [p.name for p in talk.npc.people] + [p.name for p in talk.npc.places]
    known = {w.lower() for n in names for w in n.split("_")}
    known |= _CALENDAR
    if other and other.group(1)[:1].isupper() and other.group(1).lower() not in known:
        return speak.line("village_name_not", village=name)
    return None


_CALENDAR = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december christmas easter""".split()
)
_THIS = r"\b(?:is this|am i in|are we in|this is|is that|welcome to)\b"


# "Is it always this quiet?", "is it usually so busy here?": how the village's days go.
_PACE = re.compile(
    r"\bis (?:it|this (?:place|village|town)|the village) (?:always|usually|often|ever|"
    r"normally)? ?(?:this|so|that|as) (?P<pace>quiet|peaceful|sleepy|still|dead|busy|lively|"
    r"loud|noisy)\b",
    re.I,
)


def _pace(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """How the village's days go, asked whether it is always so quiet or so busy, in the
    NPC's mood; None when the line asks no such thing."""
    found = _PACE.search(talk.said)
    if found is None:
        return None
    quiet = found["pace"].lower() in ("quiet", "peaceful", "sleepy", "still", "dead")
    return speak.line("pace_quiet" if quiet else "pace_busy")


# "What's for supper tonight?", "what are you having for lunch?"
_MEAL = re.compile(
    r"\bwhat(?:'s| is|'re you| are you| will you be)? ?(?:having |eating |cooking )?(?:for )"
    r"(?:supper|dinner|lunch|breakfast|tea)\b",
    re.I,
)


def _meal(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """What's for supper, asked of the NPC, in its mood; None when the line asks not."""
    return speak.line("meal") if _MEAL.search(talk.said) else None
