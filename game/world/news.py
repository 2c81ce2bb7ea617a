"""News as typed facts: what happened, who first told it, and who heard it from whom.

A piece of `News` is what the player (or a villager, like a merchant's wares) told that
matters: a name, a thing lost or found, an event at a place and time. It is data, never
prose read back: `subject`, `place` and `when` are the facts, `key` the word a line that
tells it must hold. `NewsBook` keeps who knows which piece and from whom (`Heard`), and
every pass from one character to another (`Pass`: who, whom, when, where, how: told
face to face, overheard in earshot, read on a board). Models only phrase what is here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["MAX_NEWS", "MAX_PASSES", "Heard", "How", "News", "NewsBook", "NewsKind", "Pass"]

NewsKind = Literal["name", "lost", "found", "event", "wares"]
How = Literal["told", "earshot", "board"]
MAX_NEWS = 200  # pieces kept (the oldest go first)
MAX_PASSES = 2000  # passes kept for the record


@dataclass(frozen=True)
class News:
    """One piece of news, as facts."""

    news_id: str
    kind: NewsKind
    origin: str  # the id of who first told it ("player")
    origin_name: str
    subject: str  # the name told, the thing lost or found, the event, the wares
    place: str = ""  # a place of the map, if the news names one
    when: str = ""  # when the event is, as said ("tonight at seven")
    hour: float | None = None  # the hour of an event, if it names one
    key: str = ""  # a word any line telling it holds
    clock: float = 0.0  # game seconds when it was first told

    def fact(self, person: Literal["", "you", "they"] = "") -> str:
        """The news as one plain clause, in the third person; with `person`, the one who
        first told it is "you" ("your name is Ana", said to them) or "they" ("they lost a
        silver ring", passed on as told by them)."""
        where = f" at the {self.place.replace('_', ' ')}" if self.place else ""
        who = person or self.origin_name
        if self.kind == "name":
            whose = {"you": "your", "they": "their"}.get(person, "the traveller's")
            return f"{whose} name is {self.subject}"
        if self.kind == "lost":
            return f"{who} lost {self.subject}{where}"
        if self.kind == "found":
            return f"{who} found {self.subject}{where}"
        if self.kind == "wares":
            return f"{self.origin_name} has new wares this week"
        when = f" {self.when}" if self.when else ""
        return f"there's {self.subject}{where}{when}"


@dataclass(frozen=True)
class Heard:
    """How one character came to know a piece of news."""

    news_id: str
    source: str  # the id of who it heard it from (or "player")
    source_name: str
    clock: float
    place: str = ""  # where it heard it
    how: How = "told"


@dataclass(frozen=True)
class Pass:
    """One pass of a piece of news, for the record."""

    news_id: str
    source: str
    to: str
    clock: float
    hour: float
    place: str
    how: How


@dataclass
class NewsBook:
    """Every piece of news, who knows it and from whom, and every pass."""

    news: dict[str, News] = field(default_factory=dict)
    known: dict[str, dict[str, Heard]] = field(default_factory=dict)  # npc -> news -> heard
    told: dict[str, set[str]] = field(default_factory=dict)  # "npc>other" -> news ids told
    passes: list[Pass] = field(default_factory=list)

    def add(self, news: News) -> News:
        """Record a new piece (or give back the one with the same facts)."""
        for old in self.news.values():
            if (old.kind, old.subject, old.place, old.origin) == (
                news.kind,
                news.subject,
                news.place,
                news.origin,
            ):
                return old
        self.news[news.news_id] = news
        if len(self.news) > MAX_NEWS:
            oldest = min(self.news.values(), key=lambda n: n.clock)
            self.forget(oldest.news_id)
        return news

    def forget(self, news_id: str) -> None:
        """Drop a piece everywhere."""
        self.news.pop(news_id, None)
        for known in self.known.values():
            known.pop(news_id, None)

    def learn(self, npc_id: str, heard: Heard, hour: float = 0.0) -> bool:
        """`npc_id` hears a piece; True when it is new to it (the first source is kept)."""
        if heard.news_id not in self.news or heard.source == npc_id:
            return False
        known = self.known.setdefault(npc_id, {})
        if heard.news_id in known:
            return False
        known[heard.news_id] = heard
        self.passes.append(
            Pass(heard.news_id, heard.source, npc_id, heard.clock, hour, heard.place, heard.how)
        )
        if len(self.passes) > MAX_PASSES:
            del self.passes[: len(self.passes) - MAX_PASSES]
        return True

    def knows(self, npc_id: str, news_id: str) -> Heard | None:
        """How `npc_id` came to know a piece, if it does."""
        return self.known.get(npc_id, {}).get(news_id)

    def known_by(self, npc_id: str) -> list[tuple[News, Heard]]:
        """What `npc_id` knows, newest heard first."""
        known = self.known.get(npc_id, {})
        pairs = [(self.news[i], h) for i, h in known.items() if i in self.news]
        return sorted(pairs, key=lambda pair: pair[1].clock, reverse=True)

    def untold(self, npc_id: str, other: str) -> list[News]:
        """What `npc_id` knows and has not yet told `other` (who has not told it to it),
        newest first."""
        told = self.told.get(f"{npc_id}>{other}", set())
        return [
            news
            for news, heard in self.known_by(npc_id)
            if news.news_id not in told
            and heard.source != other
            and news.origin != other
            and self.knows(other, news.news_id) is None
        ]

    def mark_told(self, npc_id: str, other: str, news_id: str) -> None:
        """Note that `npc_id` told `other` a piece (it will not tell it again)."""
        self.told.setdefault(f"{npc_id}>{other}", set()).add(news_id)
