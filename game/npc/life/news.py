"""News in the NPCs' mouths: what in a player's line is news, and the lines that tell it.

`read_news` finds the news in one player line, as facts: a name given ("I'm Ana"), a
thing lost or found ("I lost my silver ring near the well"), an event at a place and a
time ("There's a dance on the plaza tonight at seven"). Anything else is not news. The
lines are written only from `NewsFact`s: `tell_line` passes a piece on, `news_answer`
answers "any news?" with what the NPC heard and from whom; asked about a topic nobody
told it of, it says so. Nothing here makes a fact up: a line holds the facts it was given.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence

from game.npc.facts import NewsFact, VillagerFacts
from game.npc.reading.player import told_name
from game.npc.reading.words import NUMBER_WORDS
from game.npc.skills.base import MAX_SAY
from game.world.news import News, NewsKind

__all__ = [
    "asks_news",
    "heard_line",
    "news_answer",
    "news_topic",
    "read_news",
    "tell_line",
    "told_news",
]

_NUMBERS = {w: n for n, w in enumerate(NUMBER_WORDS[:12], 1)} | {"noon": 12, "midnight": 0}
_THING = r"(?:my|a|an|the|our|his|her)\s+(?P<thing>[a-z][a-z' -]{1,40}?)"
_AT = r"(?:\s+(?:near|at|by|in|on|around|behind|beside)\s+(?:the\s+)?(?P<place>[a-z_' ]{2,30}?))?"
_END = (
    r"\s*(?:[.!,;?]|$|\s+(?:yesterday|today|this|earlier|last|somewhere|again|off|down|into"
    r"|in|on|from|while|when|and|but|over|under)\b)"
)
_LOST = re.compile(rf"\bi(?:'ve| have)?\s+(?:lost|dropped|misplaced)\s+{_THING}{_AT}{_END}", re.I)
_FOUND = re.compile(rf"\bi(?:'ve| have)?\s+found\s+{_THING}{_AT}{_END}", re.I)
_EVENT = re.compile(
    r"\bthere(?:'s| is| will be|'ll be| is going to be)\s+(?:a|an|the)\s+"
    r"(?P<what>[a-z][a-z' -]{1,30}?)\s+(?:at|on|in|by|near)\s+(?:the\s+)?(?P<place>[a-z_' ]{2,30}?)"
    r"(?P<when>(?:\s+(?:tonight|tomorrow|today|this (?:evening|afternoon|morning)|at "
    r"(?:\d{1,2}(?::\d\d)?|[a-z]+)(?:\s*(?:am|pm|o'clock))?"
    r"|in the (?:evening|morning|afternoon)))*)"
    r"\s*(?:[.!,;?]|$)",
    re.I,
)
_WHEN_HOUR = re.compile(r"\bat (\d{1,2}|[a-z]+)(?::(\d\d))?\s*(am|pm|o'clock)?", re.I)
# An event asked after: "is there a dance on the square this week?"
_EVENT_ASKED = (
    r"\b(?:is|are) there (?P<event_a>a\s+|an\s+|any\s+)(?P<event>[a-z]+)\b"
    r"(?= (?:on|at|in|down|up|over)\b[^?.!]*"
    r"\b(?:this week|tonight|today|tomorrow|this evening|on \w+days?)\b)"
)
_ASKS = re.compile(
    r"\b(?:any|what(?:'s| is)?(?: the)?(?: latest)?) (?:news|gossip|rumou?rs?)\b|"
    r"\bwhat (?:have|did) you hear\b|\bheard (?:any|anything|about|of)\b|"
    r"\bhave you heard\b|\bwhat'?s new\b|\banything new\b|\bnews\b|"
    # "has anything happened today?", "what's been going on?"
    r"\b(?:has|did) (?:anything|something) (?:\w+ )?happen(?:ed)?\b|\bwhat(?:'s| has) been "
    r"(?:going on|happening)\b|\bwhat happened (?:today|lately|this week)\b|" + _EVENT_ASKED,
    re.I,
)
_TOPIC = re.compile(
    r"\b(?:about|of|regarding)\s+(?P<a>the\s+|a\s+|an\s+|any\s+)?(?P<topic>[a-z][a-z' -]{1,30})|"
    + _EVENT_ASKED,
    re.I,
)
_STOP = {"it", "that", "this", "them", "anything", "something", "news", "today", "lately", "late"}
_STOP |= {"recently", "yesterday", "tonight", "here", "round", "around", "you", "me", "us"}
_SMALL = {"the", "and", "for", "with", "from", "that", "this", "any", "some", "you", "your"}


def _news_id(*parts: str) -> str:
    return "n-" + hashlib.sha256("\n".join(parts).encode()).hexdigest()[:10]


def _key(phrase: str) -> str:
    words = [w for w in re.findall(r"[a-z']+", phrase.lower()) if len(w) > 2]
    return words[-1] if words else phrase.lower()


def _place(raw: str | None, find_place: Callable[[str], str | None]) -> str:
    return (find_place(raw.strip()) or "") if raw else ""


def _hour(when: str) -> float | None:
    found = _WHEN_HOUR.search(when)
    if found is None:
        return 20.0 if re.search(r"tonight|evening", when, re.I) else None
    raw = found.group(1).lower()
    hour = int(raw) if raw.isdigit() else _NUMBERS.get(raw)
    if hour is None or hour > 23:
        return None
    half = (found.group(3) or "").lower()
    if (
        half == "pm"
        or (half != "am" and 1 <= hour <= 7)
        or (hour < 12 and re.search(r"tonight|evening", when, re.I))
    ):
        hour = hour % 12 + 12
    return hour + int(found.group(2) or 0) / 60


def read_news(
    said: str,
    *,
    npc: VillagerFacts,
    player_id: str,
    player_name: str,
    find_place: Callable[[str], str | None],
    clock: float,
) -> list[News]:
    """The news in one player line, as facts (a name given, then a thing lost or found or
    an event); none when it tells nothing that matters."""
    text = " ".join(said.replace("\u2019", "'").split())
    name = told_name(text, npc)
    found: list[News] = []
    if name is not None:
        news_id = _news_id("name", name, player_id)
        found.append(News(news_id, "name", player_id, name, name, key=name.lower(), clock=clock))
    thing = _thing_news(text, name or player_name, player_id, find_place, clock)
    return found + ([thing] if thing is not None else [])


def _thing_news(
    text: str, who: str, player_id: str, find_place: Callable[[str], str | None], clock: float
) -> News | None:
    """A thing lost or found, or an event at a place, in a line."""
    who = "the traveller" if who.lower() == "traveller" else who
    things: tuple[tuple[re.Pattern[str], NewsKind], ...] = ((_LOST, "lost"), (_FOUND, "found"))
    for pattern, kind in things:
        found = pattern.search(text)
        if found is not None:
            thing = found.group("thing").strip().lower()
            if thing in _STOP:
                continue
            place = _place(found.group("place"), find_place)
            subject = f"a {thing}" if not thing.startswith(("a ", "an ")) else thing
            return News(
                _news_id(kind, subject, place, player_id),
                kind,
                player_id,
                who,
                subject,
                place,
                key=_key(thing),
                clock=clock,
            )
    event = _EVENT.search(text)
    if event is not None:
        place = _place(event.group("place"), find_place)
        what = event.group("what").strip().lower()
        when = " ".join(event.group("when").split()).lower()
        if place and what not in _STOP:
            subject = f"a {what}" if not what.startswith(("a ", "an ")) else what
            return News(
                _news_id("event", subject, place, player_id),
                "event",
                player_id,
                who,
                subject,
                place,
                when,
                _hour(when),
                key=_key(what),
                clock=clock,
            )
    return None


# An opener that tells news, not asks for it: "Did you hear? One of the goats ate...".
_TELLS = re.compile(
    r"^\W*(?:did you hear|have you heard|guess what|you'll never believe (?:it|this)|"
    r"listen to this|you know what)\W*?[?!.,:;-]+\s*(?P<told>\w.*)$",
    re.I,
)


# A hello before it: "hello! did you hear...", "yo whats up, heard..."
_HELLO_FIRST = re.compile(
    r"^\W*(?:hi|hello|hey|hiya|yo|oi|howdy|morning|evening|good (?:morning|afternoon|evening|"
    r"day))\b[^.!?,;]{0,20}[.!?,;]+\s*",
    re.I,
)
# News told in the opener's own sentence: "did you hear the bridge got washed out?",
# "heard there's a fox loose by the pond", "word is the mill's for sale".
_TELLS_IN = re.compile(
    r"^\W*(?:did you hear|have you heard|you hear|(?:i(?:'ve)? )?heard|word is|rumou?r (?:is|has "
    r"it))\s+(?:that\s+)?(?P<told>(?!(?:about|of|anything|any|what|the news|from|it|that)\b)"
    r"\w.*)$",
    re.I,
)
_TOLD_IN_WORDS = 4  # the fewest words of news told so: "did you hear the bell?" asks


def told_news(said: str) -> str:
    """The news a line tells after an opener that says it is news ("Did you hear? One
    of Tamsin's goats ate Ilse's apron." -> "One of Tamsin's goats ate Ilse's apron.",
    "heard there's a fox loose" -> "there's a fox loose"), a hello before it or not, or ""
    (a question after it asks for news: "have you heard? what's new?")."""
    line = _HELLO_FIRST.sub("", " ".join(said.split()))
    found = _TELLS.match(line)
    told = found.group("told") if found is not None else ""
    if found is None and (found := _TELLS_IN.match(line)) is not None:
        told = found.group("told").rstrip(" ?")
        told = told if len(told.split()) >= _TOLD_IN_WORDS else ""
    return "" if not told or told.rstrip().endswith("?") else told


def asks_news(said: str) -> bool:
    """Whether a line asks for news ("any news?", "what have you heard?"), not tells it."""
    return _ASKS.search(said) is not None and not told_news(said)


def news_topic(said: str) -> str:
    """What a news question is about ("heard anything about the mill?" -> "mill"), or ""."""
    found = _TOPIC.search(said)
    if found is None:
        return ""
    asked = found["topic"] or found["event"]  # "about the mill", "is there a dance..."
    phrase = re.split(r"\s+(?:in|at|on|near|by|from|of|with|around)\s+", asked.lower())[0]
    words = [w for w in phrase.split() if w not in _STOP]
    topic = " ".join(words[:3]).strip(" ?!.'")
    article = (found["a"] or found["event_a"] or "").strip().lower()
    return f"{article} {topic}" if topic and article in ("the", "a", "an") else topic


def _source(fact: NewsFact, listener: str) -> str:
    if fact.source == listener:
        return "you"
    if fact.source == "player":
        return "the traveller"  # to a villager, the player is the traveller
    return fact.source_name or "someone"


def _told(fact: NewsFact, listener: str, first: bool) -> str:
    source = _source(fact, listener)
    # To the player, their own news is theirs: "you told me you lost ...".
    clause = fact.fact_to_player if listener == "player" and fact.fact_to_player else fact.fact
    if fact.how == "board":
        on = " on the board" if first else ""  # a second note is on it too
        whose = "your" if source == "you" else f"{source}'s"
        said = f"{whose} note{on} says {clause}"
    elif source == "you":
        said = f"you told me {clause}"
    else:
        said = f"{source} told me {clause}" if first else f"{source} says {clause}"
    if first:
        return said[0].upper() + said[1:]
    return f"And {said}"


def _about(fact: NewsFact, topic: str) -> bool:
    words = set(re.findall(r"[a-z']+", f"{fact.fact} {fact.subject} {fact.place}".lower()))
    wanted = [w for w in re.findall(r"[a-z']+", topic.lower()) if len(w) > 2 and w not in _SMALL]
    return any(w in words or w.rstrip("s") in words for w in wanted)


def news_answer(
    news: Sequence[NewsFact],
    said: str,
    listener: str = "player",
    most: int = 3,
    room: int = MAX_SAY,
) -> str:
    """The answer to a news question, from what the NPC heard (newest first) and from whom,
    in whole sentences within `room` characters; about a topic nobody told it of, it says
    it heard nothing of it."""
    topic = news_topic(said)
    pieces = [n for n in news if _about(n, topic)] if topic else list(news)
    if not pieces:
        if topic:
            return f"Nobody has told me anything about {topic}."
        return "I haven't heard any news today."
    pieces.sort(key=lambda fact: fact.kind == "wares")  # what was told first, wares last
    said = ""
    for fact in pieces[:most]:
        line = _told(fact, listener, not said) + "."
        if said and len(said) + 1 + len(line) > room:
            break  # whole sentences only
        said = f"{said} {line}" if said else line
    return said


def heard_line(news: News) -> str:
    """What an NPC says when the player tells it a thing lost or found, or an event: the
    facts said back, and that it will pass them on ("" for a name: that has its own)."""
    where = f" at the {news.place.replace('_', ' ')}" if news.place else ""
    if news.kind == "lost":
        thing = news.subject.removeprefix("a ").removeprefix("an ")
        return f"Your {thing}, lost{where}? I'll keep an eye out, and tell the others."
    if news.kind == "found":
        return f"You found {news.subject}{where}? I'll tell the others; someone will be glad."
    if news.kind == "event":
        when = f" {news.when}" if news.when else ""
        what = news.subject[0].upper() + news.subject[1:]
        return f"{what}{where}{when}? I'll spread the word!"
    return ""


def tell_line(fact: NewsFact, to_name: str) -> str:
    """What an NPC says to pass a piece on: "Tobin, have you heard? Wren told me ..."."""
    if fact.origin_is_teller and fact.kind == "wares":  # its own: no one told it
        said = f"I have new wares this week: {fact.subject}"
        if len(f"{to_name}, have you heard? {said}.") > MAX_SAY:
            said = "I have new wares this week, up on the notice board"
    elif fact.origin_is_teller:
        said = fact.fact[0].upper() + fact.fact[1:]
    else:
        said = _told(fact, "", True)
    return f"{to_name}, have you heard? {said}."
