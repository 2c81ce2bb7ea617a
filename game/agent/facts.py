"""Typed facts for the providers that plan: who the NPC is, why it thinks, what it senses.

Facts travel as data, never as prose that another module parses back. Who makes them and
who reads them:

- `NpcFacts`: from the NPC's profile (`npc/agents.profile_of`: the map's properties, its
  named places and the other characters), put on every request by `ContextBuilder.build`.
- `SensedFacts`: what the NPC perceived when its trigger fired (`world/perception.sense`
  on the game thread, converted on the agent thread by `npc/brain.py`), logged with the
  trigger event, so replay gives them back.
- `TriggerFacts`: the newest trigger of the history (kind, who spoke, what they said, the
  sensed facts, the kinds of the earlier triggers in the window), built by
  `ContextBuilder.build` from the log.

Readers: the scripted brain (`npc/persona.py`) plans from them, the local model's
prompt takes the persona from them. Models that read prose get the same facts written
as text (the perception and the trigger text in the messages).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = [
    "FeelingFact",
    "HeardFact",
    "NewsFact",
    "NpcFacts",
    "PersonFact",
    "PlaceFact",
    "SeenFact",
    "SensedFacts",
    "TriggerFacts",
]


class SeenFact(BaseModel):
    """Someone the NPC sees: `distance` in tiles, `direction` one of 8 compass points."""

    entity_id: str
    name: str
    distance: float
    direction: str
    activity: str


class HeardFact(BaseModel):
    """A line the NPC heard `ago_s` seconds ago (`to_you` when it was addressed to it)."""

    speaker: str
    text: str
    ago_s: float
    to_you: bool = False


class PlaceFact(BaseModel):
    """A named place of the map."""

    name: str
    description: str = ""


class PersonFact(BaseModel):
    """Another character of the map: who they are in a line, and where they live."""

    npc_id: str
    name: str
    role: str = ""  # one line: the first sentence of their persona
    home: str = ""  # where they are found by day (their work place, else home), if given


class NewsFact(BaseModel):
    """A piece of news the NPC knows, and from whom (`how`: told, earshot, board)."""

    news_id: str
    kind: str
    fact: str  # the news as one plain clause ("Ana lost a silver ring at the well")
    fact_to_player: str = ""  # the clause said to the player, if it is the player's news
    subject: str = ""
    place: str = ""
    key: str = ""  # the word any line telling it holds
    source: str = ""  # the id of who told it ("player")
    source_name: str = ""
    how: str = "told"
    origin_is_teller: bool = False  # the NPC's own news (it was told by no one)


class FeelingFact(BaseModel):
    """How the NPC feels about someone: -1 to 1, in a word, and the last reason."""

    other_id: str
    name: str
    value: float
    word: str
    reason: str = ""


class SensedFacts(BaseModel):
    """What the NPC perceived at one moment (what its perception text says, as data)."""

    place: str | None = None  # the named place it stands in, if any
    tile: tuple[int, int] | None = None
    activity: str = ""
    map_name: str = ""
    nearby: list[SeenFact] = Field(default_factory=list)  # nearest first
    heard: list[HeardFact] = Field(default_factory=list)  # oldest first
    hour: float | None = None  # the time of day, 0-24 (None in old logs)
    woken: bool = False  # it was asleep when this came, and is awake now
    news: list[NewsFact] = Field(default_factory=list)  # what it has heard, newest first
    feelings: list[FeelingFact] = Field(default_factory=list)  # about the player, those near
    tell: NewsFact | None = None  # the news it means to pass on now
    tell_to: str | None = None  # the name of whom it tells


class NpcFacts(BaseModel):
    """Who the NPC is."""

    npc_id: str
    name: str
    persona: str = ""
    greeting: str = ""
    home: str = ""  # the name of its home place, if the map gives one
    places: list[PlaceFact] = Field(default_factory=list)  # the named places it knows
    people: list[PersonFact] = Field(default_factory=list)  # the other characters of the map


class TriggerFacts(BaseModel):
    """Why the NPC thinks now: the newest trigger of its history."""

    kind: str  # player_message, heard, player_near, idle
    text: str = ""  # the trigger as written for models (what the player said, for theirs)
    source: str | None = None  # the entity that caused it (player, an NPC id)
    speaker: str | None = None  # the name of who spoke, if someone did
    said: str | None = None  # what they said, word for word
    perception: str | None = None  # the perception as written for models
    sensed: SensedFacts | None = None  # the same perception as facts (None in old logs)
    earlier_kinds: list[str] = Field(default_factory=list)  # earlier triggers in the window
