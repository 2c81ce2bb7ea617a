"""The village's facts for the providers that plan: who an NPC is, what it senses.

The agent runtime carries them without reading them (`game.agent.facts.Facts`); the
readers here read them back with `of`, which gives the instance itself or, for a request
replayed from a log, its fields validated:

- `VillagerFacts`: who the NPC is, with its home, the places and the people it knows
  and its character sheet (`npc.sheet`), from the map (`npc.known.villager_facts`), on
  every request as `request.npc`.
- `SensedFacts`: what the NPC perceived when its trigger fired, with the facts of its day,
  logged with the trigger event (`trigger.sensed`, read with `sensed_of`); `sensed_facts`
  is the one builder, from the world's `Perception` and the village life's `DayFacts`.

Readers: the persona brain (`npc/scripted/`), the English reader (`npc/reading/`), the
play script (`npc/play/`) and the eval's judge.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from game.agent.facts import Facts, NpcFacts, TriggerFacts
from game.npc.sheet import CharacterSheet
from game.world.perception import Perception, compass

__all__ = [
    "BoardFact",
    "DayFacts",
    "FeelingFact",
    "HeardFact",
    "NewsFact",
    "PersonFact",
    "PlaceFact",
    "SeenFact",
    "SensedFacts",
    "VillagerFacts",
    "sensed_facts",
    "sensed_of",
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


class BoardFact(BaseModel):
    """A notice board in sight: which, how far (tiles), which way, how many posts."""

    board_id: str
    name: str
    distance: float
    direction: str
    posts: int = 0


class PlaceFact(BaseModel):
    """A named place of the map, with its area in tiles (x, y, width, height) if known."""

    name: str
    description: str = ""
    area: tuple[int, int, int, int] | None = None


class PersonFact(BaseModel):
    """Another character of the map: who they are in a line, and where they live."""

    npc_id: str
    name: str
    role: str = ""  # one line: the first sentence of their persona
    home: str = ""  # where they are found by day (their work place, else home), if given
    trade: str = ""  # their character sheet's role ("miller", "keeps the inn")
    work: str = ""  # their work place, if the map gives one
    lives: str = ""  # their home place, if the map gives one
    wares: list[str] = Field(default_factory=list)  # what they sell
    does: str = ""  # the persona's other sentences of what they do ("She runs the mill.")
    talks: list[str] = Field(default_factory=list)  # how they talk, by their sheet ("gloomy")
    mood: str = ""  # the mood their persona speaks in ("gruff", "cheerful"...)
    them: str = ""  # "him" or "her", when their persona says which


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


class DayFacts(BaseModel):
    """The facts of an NPC's day, taken on the game thread (`VillageLife.facts`)."""

    hour: float | None = None  # the time of day, 0-24
    woken: bool = False  # it was asleep when this came, and is awake now
    news: list[NewsFact] = Field(default_factory=list)  # what it has heard, newest first
    feelings: list[FeelingFact] = Field(default_factory=list)  # about the player, those near
    tell: NewsFact | None = None  # the news it means to pass on now
    tell_to: str | None = None  # the name of whom it tells


class SensedFacts(Facts):
    """What the NPC perceived at one moment (what its perception text says, as data)."""

    model_config = ConfigDict(extra="ignore")  # a field a newer game wrote: not ours

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
    board: BoardFact | None = None  # the nearest notice board in sight (None in old logs)


class VillagerFacts(NpcFacts):
    """Who the NPC is in the village: its home, and the places and people it knows."""

    model_config = ConfigDict(extra="ignore")

    home: str = ""  # the name of its home place, if the map gives one
    places: list[PlaceFact] = Field(default_factory=list)  # the named places it knows
    people: list[PersonFact] = Field(default_factory=list)  # the other characters of the map
    sheet: CharacterSheet = Field(default_factory=CharacterSheet)  # read once from the map
    # Its day: from which hour it is at which place, awake (the map's plan), in order.
    day: list[tuple[float, str]] = Field(default_factory=list)
    bed: float | None = None  # the hour it goes to sleep, if its plan says


def sensed_of(trigger: TriggerFacts | None) -> SensedFacts | None:
    """What the NPC sensed when the trigger came, as the village's facts (None: nothing
    was sensed, or there is no trigger)."""
    if trigger is None or trigger.sensed is None:
        return None
    return SensedFacts.of(trigger.sensed)


def sensed_facts(perception: Perception, day: DayFacts | None = None) -> SensedFacts:
    """What the NPC senses as facts: the world's perception (as fitted, when it was: the
    facts say what the text says) with the facts of its day."""
    p, day = perception, day or DayFacts()
    board = p.board
    return SensedFacts(
        place=p.place,
        tile=p.tile,
        activity=p.activity,
        map_name=p.map_name,
        nearby=[
            SeenFact(
                entity_id=s.entity_id,
                name=s.name,
                distance=round(s.distance, 1),  # tiles: a tenth is plenty, and logs stay short
                direction=s.direction,
                activity=s.activity,
            )
            for s in p.nearby
        ],
        heard=[
            HeardFact(speaker=h.speaker, text=h.text, ago_s=h.ago_s, to_you=h.to_you)
            for h in p.heard
        ],
        hour=day.hour,
        woken=day.woken,
        news=day.news,
        feelings=day.feelings,
        tell=day.tell,
        tell_to=day.tell_to,
        board=BoardFact(
            board_id=board.board_id,
            name=board.name,
            distance=round(board.distance, 1),
            direction=compass(board.dx, board.dy),
            posts=board.posts,
        )
        if board is not None
        else None,
    )
