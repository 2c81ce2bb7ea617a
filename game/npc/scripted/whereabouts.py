"""Where a place is, as a villager tells the way: which way from where it stands, and
near what, from the map's places (their areas) and the place's own description.

"Where is the tavern?" asks the way, not what the tavern looks like: "The tavern? East
of here, near the square." Where the NPC stands comes from what it senses; a
description's words of where ("in the south-east corner", "beside the vegetable
garden"), the place that holds the one asked of, or the nearest other place say near what.
"""

from __future__ import annotations

import math
import re

from game.npc.facts import PlaceFact, VillagerFacts
from game.npc.reading.kinds import Target
from game.npc.reading.naming import FILLER, find_target, name_words, norm, stem, tokens
from game.npc.scripted.speaker import PlayerLine, label_of, place_named
from game.world.clock import hour_words
from game.world.perception import compass

__all__ = ["asks_the_way", "goes_there", "way_to", "where_i_am_at", "where_is"]

# "where's the tavern?", "how do I get to the chapel?", "which way to the mill?"
_THE_WAY = re.compile(
    r"\bwhere(?:'s| is| are|s)\b|\bwhere (?:can|could|do|would|might) (?:i|we|one) find\b|"
    r"\bhow (?:do|can|could|would|should|might) (?:i|we|one) (?:get|go|walk|reach)"
    r"(?: (?:up|down|over|out|back|across|round|along))? ?(?:to|there)?\b|\bwhich way\b|"
    r"\bway to\b|\bdirections? to\b|\bhow far\b|\bhow do i find\b|"
    r"\bpoint (?:me |us )?(?:to|towards?|at|the way)\b|\bshow (?:me|us) (?:the way|where)\b"
)
_NEAR_TILES = 6  # a place this near is "just over there"
_LANDMARK_TILES = 12  # the nearest other place says where, if it is this near
# Words of a description that say where ("on the east side of the square").
_WHERE = re.compile(
    r"\b((?:just |right )?(?:on|in|at|by|beside|near|between|below|above|behind|past|across|"
    r"over|under|next to|(?:north|south|east|west)(?:-?(?:east|west))? of)\s+(?:the|a|an)\s+"
    r"(?:(?!\s(?:and|where|with)\s)[^,;.:!?])+)",
    re.I,
)
# A part word says where only of something ("at the edge of the wood", "in the north-east
# corner"): "crusted white at the edges" is how the place looks.
_WHERE_WORDS = re.compile(
    r"\b(?:north|south|east|west|shore|bank|river|hill)|"
    r"\b(?:corner|side|edge|middle|heart|end)s? of\b",
    re.I,
)


# "where can I water my horse?", "is there anywhere with a view?": a place sought by what
# it has, which the line names only by words of its description.
_SOUGHT = re.compile(
    r"\bwhere (?:can|could|do|should|might|would|may) (?:i|we|one)\b|"
    r"\b(?:any|some) ?(?:where|place|spot)\b"
)


def asks_the_way(said: str) -> bool:
    """Whether a line asks where a place is or how to get there."""
    return bool(_THE_WAY.search(norm(said)))


def _middle(place: PlaceFact) -> tuple[float, float] | None:
    if place.area is None:
        return None
    x, y, w, h = place.area
    return (x + w / 2, y + h / 2)


def _holds(place: PlaceFact, tile: tuple[float, float]) -> bool:
    if place.area is None:
        return False
    x, y, w, h = place.area
    return x <= tile[0] < x + w and y <= tile[1] < y + h


def _said_where(place: PlaceFact, npc: VillagerFacts) -> str:
    """The description's own words of where the place is, if it has some."""
    others = {w for p in npc.places if p.name != place.name for w in name_words(p.name)}
    for found in _WHERE.finditer(place.description):
        phrase = found.group(1).strip()
        words = set(re.findall(r"[a-z]+", phrase.lower()))
        if _WHERE_WORDS.search(phrase) or words & others:
            return phrase[:1].lower() + phrase[1:]
    return ""


def _landmark(place: PlaceFact, npc: VillagerFacts, here: str | None) -> str:
    """Near what the place is: its description's words of where, the place that holds it,
    or the nearest other place (not the one the NPC stands in)."""
    said = _said_where(place, npc)
    middle = _middle(place)
    if said or middle is None:
        return said
    others = [p for p in npc.places if p.name != place.name]
    # "In the green" said standing in the green tells nothing: a place near it does.
    holders = [
        (p.area[2] * p.area[3], p)
        for p in others
        if p.area and _holds(p, middle) and p.name != here
    ]
    if holders:
        return f"in {label_of(min(holders, key=lambda h: h[0])[1])}"
    best, found = float(_LANDMARK_TILES), None
    for other in others:
        at = _middle(other)
        if at is None or other.name == here:
            continue
        distance = math.dist(at, middle)
        if distance < best:
            best, found = distance, other
    return f"near {label_of(found)}" if found is not None else ""


_FROM_ANOTHER = re.compile(
    r"\b(?:north|south|east|west)[-a-z]*\s+(?:side\s+|end\s+|bank\s+)?of\s+"
    r"(?!(?:the\s+)?(?:village|town|hamlet|valley)\b)[a-z]+"
)
_THING_WORDS = 8  # a part of a description longer than this is no thing's name and place
# Where a thing of a description is in its place: "the notice board | by the north-east lamp".
_THING_AT = re.compile(r"\s(?=(?:by|beside|near|behind|under|above|below|next to|at|in|on)\s)")


def _thing_in(place: PlaceFact, said: str) -> tuple[str, str]:
    """The thing of a place's description a line names, and where in the place it is
    ("the notice board", "by the north-east lamp"); ("", "") if it names none."""
    asked = {stem(w) for w in tokens(said) if w not in FILLER and len(w) > 2}
    asked -= {stem(w) for w in name_words(place.name)}
    for part in re.split(r"[,;:.]|\band\b|\bwith\b", place.description):
        part = " ".join(part.split())
        if not part or len(part.split()) > _THING_WORDS:
            continue
        pieces = _THING_AT.split(part, maxsplit=1)
        head, near = pieces[0], (pieces[1] if len(pieces) > 1 else "")
        if re.match(r"(?:the|a|an)\s", head, re.I) and {stem(w) for w in tokens(head)} & asked:
            return "the " + head.split(None, 1)[1], near
    return "", ""


_OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _agreeing(way: str, landmark: str) -> str:
    """The way from here ("northeast" -> "north-east") as far as it agrees with the
    landmark's own words of where: the way to "the north-west corner" from its east side
    is "north", not "north-east"; "" when nothing of it agrees."""
    parts = re.findall(r"north|south|east|west", way)
    # "on the west side of the Cross" is where it is from another place: no contradiction.
    own = _FROM_ANOTHER.sub("", landmark.lower())
    said = set(re.findall(r"north|south|east|west", own))
    kept = [p for p in parts if _OPPOSITE[p] not in said]
    return "-".join(kept)


def where_is(talk: PlayerLine, target: Target, asked: bool = False) -> str:
    """The way to a place named in a line that asks for it, or to one already talked of
    (`asked`) ("The tavern? East of here, near the square."); "" when the line does not
    ask the way or nothing says where."""
    npc = talk.npc
    place = place_named(npc, target.name)
    sought = target.weak and bool(_SOUGHT.search(norm(talk.said)))
    if place is None or not (asked or sought or asks_the_way(talk.said)):
        return ""
    # "Where's the notice board?": a thing a place's description has, and where in it.
    thing, near = _thing_in(place, talk.said) if target.weak else ("", "")
    if target.weak and not (thing or sought):
        return ""
    label = thing or target.label
    name = f"{label[:1].upper()}{label[1:]}?" if not sought or thing else f"Try {label}."
    landmark = f"at {label_of(place)}{', ' + near if near else ''}" if thing else ""
    way = way_to(talk, place, landmark, near)
    return f"{name} {way}" if way else ""


def way_to(talk: PlayerLine, place: PlaceFact, landmark: str = "", near: str = "") -> str:
    """The way to a place from where the NPC stands, as it says it ("Just over there, to
    the west, near the tollhouse."), near `landmark` if given, else near what the map
    says; "" when nothing says where."""
    npc = talk.npc
    sensed = talk.sensed
    tile = sensed.tile if sensed is not None else None
    here = talk.place or (sensed.place if sensed is not None else None)
    if here == place.name or (tile is not None and _holds(place, (tile[0] + 0.5, tile[1] + 0.5))):
        return f"Right here{', ' + near if near else ', where we stand'}."
    parts = []
    middle = _middle(place)
    landmark = landmark or _landmark(place, npc, here)
    if tile is not None and middle is not None:
        dx, dy = middle[0] - (tile[0] + 0.5), middle[1] - (tile[1] + 0.5)
        way = _agreeing(compass(dx, dy), landmark)
        if way and math.hypot(dx, dy) <= _NEAR_TILES:
            parts.append(f"Just over there, to the {way}")
        elif way:
            parts.append(f"{way[:1].upper()}{way[1:]} of here")
    if landmark:
        parts.append(landmark if parts else f"It's {landmark}")
    if not parts:
        return ""
    return f"{', '.join(parts)}."


# A part of the day a line asks where the NPC is at: its words, an hour in it, how it is said.
_PARTS_OF_DAY = (
    (r"lunch|noon|midday|dinnertime", 12.0, "At midday"),
    (r"breakfast|mornings?|dawn|sunrise|first thing", 8.0, "Mornings"),
    (r"afternoons?", 15.0, "Afternoons"),
    (r"supper|dinner|evenings?|dusk|sundown|after work", 19.5, "Evenings"),
    (r"nights?|bedtime", 23.0, "At night"),
)
_WHERE_YOU = re.compile(r"\bwhere\b.*\byou\b|\byou\b.*\bwhere\b")


def where_i_am_at(talk: PlayerLine) -> str:
    """Where the NPC is at the part of the day a line asks of, from its day ("where do you
    have your lunch?": "At midday, I'm at the dairy, with Agathe, most days."); "" when
    the line asks no such thing or its day does not say."""
    said = norm(talk.said)
    npc = talk.npc
    if not _WHERE_YOU.search(said) or not npc.day:
        return ""
    asked = next(((h, w) for p, h, w in _PARTS_OF_DAY if re.search(rf"\b(?:{p})\b", said)), None)
    if asked is None:
        return ""
    hour, when = asked
    stops = [place for start, place in npc.day if start <= hour] or [npc.day[-1][1]]
    place = place_named(npc, stops[-1])
    if place is None:
        return ""
    keeper = next((p.name for p in npc.people if p.work == place.name), "")
    with_them = f", with {keeper}" if keeper else ""
    at = f"home, at {label_of(place)}" if place.name == npc.home else f"at {label_of(place)}"
    return f"{when}, I'm {at}{with_them}, most days."


# "do you ever go to the inn?", "are you often at the green?": whether its day takes it there.
_GO_THERE = re.compile(
    r"\bdo you (?:ever |often |much |usually |sometimes )?(?:go|get|head|pop|drop|stop) "
    r"(?:in(?:to)?|by|over|up|down|out)? ?(?:to|at)?\b|\bare you (?:ever|often) (?:at|in)\b|"
    r"\bdo you (?:ever |often )?visit\b"
)


def goes_there(talk: PlayerLine, target: Target) -> str:
    """Whether the NPC's day takes it to a place asked of ("do you ever go to the inn?":
    "Most days, around seven."), not what the place looks like; "" when the line asks no
    such thing, the place is its own, or it has no day."""
    npc = talk.npc
    if not _GO_THERE.search(norm(talk.said)) or not npc.day:
        return ""
    if target.name in (npc.home, npc.sheet.work):
        return ""
    at = next((start for start, place in npc.day if place == target.name), None)
    if at is not None:
        return f"Most days, around {hour_words(at, o_clock=True)}."
    own = place_named(npc, npc.sheet.work or npc.home)
    return f"Not often. I keep to {label_of(own)}." if own is not None else "Not often."


# When it goes to bed or gets up, starts or stops work, asked of the NPC.
_WHEN_YOU = re.compile(r"\b(?:when|what time|what hour|how late|how early)\b[^.!?]*\byou\b")
_WHEN = re.compile(r"\b(?:when|what time|what hour|how late|how early)\b")
_HOURS_ASKED = (
    ("bed", re.compile(r"\b(?:bed|sleep|turn in|retire|lie down)\b")),
    ("up", re.compile(r"\b(?:get up|wake|waken|rise|(?<!open )up in the morning|out of bed)\b")),
    ("start", re.compile(r"\b(?:start|begin|open)\b")),
    ("stop", re.compile(r"\b(?:finish|stop|close|shut|knock off|go home|head home|pack up)\b")),
)


_SAYS_WHEN = re.compile(
    r"\b(?:dawn|dusk|sunrise|sunset|noon|midday|morning|evening|night|o'clock|daybreak)\b", re.I
)


def _of_its_ways(said: str, npc: VillagerFacts) -> bool:
    """Whether a line names a thing of the NPC's work, the first thing its persona says it
    does ("your traps", of one who sets traps; not "your stick" of one who walks with one)."""
    words = {stem(w) for w in tokens(said) if len(w) > 3} - _NOT_WORK
    return any(words & {stem(w) for w in tokens(way) if len(w) > 3} for way in npc.sheet.ways[:1])


_NOT_WORK = frozenset("when what time hour your have does with from".split())


def my_hours(talk: PlayerLine) -> str:
    """When the NPC goes to bed, gets up, starts or stops work, as its plan says ("when
    do you go to bed?": "By ten o'clock, most nights. I'm up again at five."); "" when the
    line asks none of these or its plan does not say."""
    said = norm(talk.said)
    npc = talk.npc
    # "what time does school finish?" of the schoolmistress: its work's hours
    found = find_target(said, npc) if _WHEN.search(said) else None
    named = found is not None and found.name == npc.sheet.work
    if not (_WHEN_YOU.search(said) or named) or not npc.day:
        return ""
    asked = next((what for what, pattern in _HOURS_ASKED if pattern.search(said)), "")
    if not asked and _of_its_ways(said, npc):  # "when do you check your traps?": its hours
        asked = "start"
    up = next((h for h, _ in npc.day if npc.bed is not None and h > npc.bed), npc.day[0][0])
    if asked in ("bed", "up") and npc.bed is not None:
        bed_at, up_at = hour_words(npc.bed, o_clock=True), hour_words(up, o_clock=True)
        if asked == "bed":
            return f"By {bed_at}, most nights. I'm up again at {up_at}."
        return f"At {up_at}, most days. I'm abed by {bed_at}."
    work = npc.sheet.work
    at_work = [i for i, (_, place) in enumerate(npc.day) if place == work]
    if any(_SAYS_WHEN.search(w) for w in (npc.sheet.role, *npc.sheet.ways)):  # "before dawn"
        return ""
    if asked in ("start", "stop") and at_work:
        first = at_work[0]
        # its last stretch at work that something else follows (one who lives where it
        # works is "at work" again in the evening, at home)
        ends = [i for i in at_work if any(p != work for _, p in npc.day[i + 1 :])]
        last = ends[-1] if ends else at_work[-1]
        after = next((h for i, (h, p) in enumerate(npc.day) if i > last and p != work), None)
        if asked == "start":
            return f"At {hour_words(npc.day[first][0], o_clock=True)}, most days."
        if after is not None:
            return f"About {hour_words(after, o_clock=True)}, most days."
        return f"Not before {hour_words(npc.day[last][0], o_clock=True)}, most days."  # all day
    return ""
