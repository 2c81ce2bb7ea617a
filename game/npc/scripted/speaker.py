"""The persona brain's two sides of a line: the player's (`PlayerLine`: what was said and
what the NPC knows around it) and its own (`Speaker`: a line from the tables, picked by
the turn's seed, never one said recently, now and then with the player's name; `say`, the
call that says it). The mood a persona speaks in is `game.npc.scripted.moods`'.

The lines carry only a mood's tone: what an NPC does, sells, likes or believes reaches
them through slots filled from its character sheet and the map (`sheet_slots`: {role},
{work}, {ware}, {like}, {dislike}, {fear}, {refuse}, {belief}); a line whose slot the NPC
has nothing for is not said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.npc.facts import PlaceFact, SensedFacts, VillagerFacts
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.reading.naming import FILLER, place_label, stem, tokens
from game.npc.reading.player import told_name
from game.npc.reading.words import called, spelt_out
from game.npc.scripted.lines import clip, line_table, overlap, pick
from game.npc.scripted.moods import Mood, Question, mood_of
from game.npc.seeds import seed_of
from game.npc.skills import SAY, SkillCall
from game.npc.skills.say import SayArgs
from game.world.clock import part_of_day

__all__ = [
    "PlayerLine",
    "React",
    "Speaker",
    "Step",
    "good_hour",
    "is_late",
    "label_of",
    "place_named",
    "said_by",
    "say",
    "sheet_slots",
    "then",
]

_LIMIT = 0.5  # a line sharing more of its word pairs with one said recently is not said


@dataclass(frozen=True)
class React:
    """A step of a plan after an `ask`: the line said to the answer the player picked."""

    answers: dict[str, str]  # the option picked -> what the NPC says to it


# One step of the persona brain's plan: a skill call, or the reaction to an answer.
Step = SkillCall | React


def say(text: str, target: str | None = None) -> SkillCall:
    """A `say` call: one line of plain speech (no markup, braces or line breaks, which a
    recalled line of the player's could bring), at most 200 characters."""
    text = re.sub(r"[{}\[\]<>\\`|#*_~]", "", text).replace('"', "'")
    text = clip(re.sub(r"[\x00-\x1f\x7f]+", " ", text)) or "Hm."
    return SAY.call(text=text, target=target) if target else SAY.call(text=text)


def said_by(step: Step) -> SayArgs | None:
    """What a step says, if it is a `say`."""
    if isinstance(step, SkillCall) and isinstance(step.args, SayArgs):
        return step.args
    return None


@dataclass
class PlayerLine:
    """One player line and what the NPC knows around it, as facts."""

    npc: VillagerFacts
    said: str
    turn: int = 0  # exchanges before this one
    met: bool = False  # the player spoke to it or came up to it before
    earlier: list[str] = field(default_factory=list)  # the player's earlier lines, oldest first
    replies: list[str] = field(default_factory=list)  # what it said before, oldest first
    place: str | None = None  # the named place it stands in
    asked: bool = False  # it put a question to the player before
    talks: int = 0  # earlier lines of the player
    sensed: SensedFacts | None = None  # what it perceived, with the facts of the day

    def __post_init__(self) -> None:
        # As the player typed it, spelt out: "wheres ur hut" reads as "where's your hut".
        self.said = spelt_out(self.said)
        self.earlier = [spelt_out(line) for line in self.earlier]

    @property
    def mood(self) -> Mood:
        """The persona's mood, from its temperament and the sheet's ways of talking."""
        return mood_of(self.npc.persona, self.npc.sheet.talks)

    @property
    def question(self) -> Question | None:
        """The question the NPC's mood may put this turn, about what its sheet holds."""
        asked = self.mood.question_for(sheet_slots(self.npc, self.seed("sheet")))
        return Question(clip(asked.text), asked.answers) if asked is not None else None

    @property
    def player(self) -> str | None:
        """The player's name, from the newest line that told it."""
        for line in [self.said, *reversed(self.earlier)]:
            name = told_name(line, self.npc)
            if name is not None:
                return name
        return None

    @property
    def first_meeting(self) -> bool:
        """Nothing was said between them yet."""
        return not self.met and not self.replies and not self.earlier

    def seed(self, *parts: str) -> int:
        """The seed of a choice in this turn."""
        return seed_of(self.npc.npc_id or self.npc.name, self.said, str(self.turn), *parts)


def is_late(sensed: SensedFacts | None) -> bool:
    """Whether it is late for the NPC: it was just woken, or the evening or night came."""
    if sensed is None:
        return False
    return sensed.woken or (sensed.hour is not None and part_of_day(sensed.hour) in _LATE)


_LATE = ("evening", "night")  # the parts of the day that are late
# The hello of each part of the day ("Good evening"); "Good day" when the hour is unknown.
_GOOD = {"morning": "Good morning", "dawn": "Good morning", "midday": "Good day"}
_GOOD |= {"afternoon": "Good afternoon", "dusk": "Good evening", "evening": "Good evening"}


_SAID_GOOD = re.compile(r"\bgood (morning|afternoon|evening|day)\b", re.I)


def good_hour(sensed: SensedFacts | None, said: str = "") -> str:
    """The hello of the hour the NPC sensed ("Good evening"), or the one the player just
    said to it, returned; "Good day" by default."""
    given = _SAID_GOOD.search(said)
    if given is not None:
        return f"Good {given.group(1).lower()}"
    if sensed is None or sensed.hour is None:
        return "Good day"
    return _GOOD.get(part_of_day(sensed.hour), "Good evening")


# A line that speaks of the day as now: "the day's not done", "the sun says noon".
_DAYTIME = re.compile(
    r"\b(?:the day\b|plenty of day|today|this morning|my morning|the sun\b|daylight's|"
    r"let me work|work left|good hours)",
    re.I,
)


class Speaker:
    """Picks the line of one turn: by the turn's seed, never one said recently."""

    def __init__(self, talk: PlayerLine, intent: Intent) -> None:
        self.talk = talk
        self.intent = intent
        npc = talk.npc
        others = [v.name for v in npc.people] or [npc.name]
        self.facts: dict[str, str] = {
            "name": npc.name,
            "first": called(npc.name),
            "good": good_hour(talk.sensed, talk.said),
            "other": others[talk.seed("other") % len(others)],
        }
        home = place_named(npc, npc.home)
        if home is not None:
            self.facts["home"] = label_of(home)
        self.facts |= sheet_slots(npc, talk.seed("sheet"))
        self.used = [*talk.replies[-12:]]
        if npc.greeting:
            self.used.append(npc.greeting)

    def line(self, table: str, **facts: str) -> SkillCall:
        """A `say` to the player from a table of lines, filled with facts (which win over
        the NPC's own: the person tables' {role} is the other villager's)."""
        return say(self.text(table, **facts), "player")

    def text(self, table: str, **facts: str) -> str:
        """The words of a line from `table` (and from chat if every one was said lately).
        A question it cannot answer sends the player on only to one whose work the
        question's words touch ("ask Wren" of fish), else says it does not know."""
        talk = self.talk
        filled = {**self.facts, **facts}
        if table == Kind.QUESTION and "other" not in facts:
            related = _related(talk)
            if related:
                filled["other"] = related
            else:
                filled.pop("other", None)
        text = pick(self.lines(table), talk.seed(table), self.used, filled)
        if self.stale(text):
            text = pick(self.lines(Kind.CHAT), talk.seed(Kind.CHAT), self.used, filled)
        return self.named(text)

    def lines(self, table: str) -> tuple[str, ...]:
        """The mood's lines of `table`; late, those that do not speak of the day as now
        ("Plenty of day left!" at midnight), while any are left."""
        lines = line_table(table, self.talk.mood)
        if not is_late(self.talk.sensed):
            return lines
        return tuple(line for line in lines if not _DAYTIME.search(line)) or lines

    def stale(self, text: str) -> bool:
        """Whether a line mostly repeats one said recently."""
        return any(overlap(text, u) > _LIMIT for u in self.used)

    def named(self, text: str) -> str:
        """Now and then, the player's name in the line, once the player has told it."""
        player = self.talk.player
        kind = self.intent.kind
        if not player or player in text or kind in (Kind.TELL_NAME, Kind.ASK_NAME):
            return text
        if self.talk.seed("name") % 3:
            return text
        match = re.search(r"[.!?](?:\s|$)", text)
        if match is None or match.start() < 2:
            return text
        return f"{text[: match.start()]}, {player}{text[match.start() :]}"[:200]


def place_named(npc: VillagerFacts, name: str) -> PlaceFact | None:
    """The place of the NPC's facts by its name (None: no such place, or no name)."""
    return next((p for p in npc.places if p.name == name), None) if name else None


def label_of(place: PlaceFact) -> str:
    """A place as a line says it: "the old bridge", "Beacon Hill"."""
    return place_label(place)


def opening_label(place: PlaceFact) -> str:
    """A place as a line opens on it: "The old bridge", "Beacon Hill"."""
    label = place_label(place)
    return label[:1].upper() + label[1:]


# The sheet's lists a line may name one item of, by the slot it fills.
_SHEET_LISTS = {
    "ware": "wares",
    "like": "likes",
    "dislike": "dislikes",
    "fear": "fears",
    "refuse": "refuses",
}
# The most words of a fear a line names as a thing ("the old bridge", "heights"): a longer
# one is a whole worry ("Tamsin spends too many nights alone...").
_THING_WORDS = 4
# A belief a question can put as it is: not one that opens on a word pointing elsewhere
# ("it snarls the threads").
_POINTING = re.compile(r"^(?:it|they|he|she|this|that|these|those|there|so)\b", re.I)


def sheet_slots(npc: VillagerFacts, seed: int) -> dict[str, str]:
    """The NPC's character sheet as line slots: its role when it is a trade's name, its work
    place as a line says it, and one of its wares, likes, dislikes, fears, refusals and
    beliefs, picked by `seed`. A slot the sheet has nothing for is left out."""
    sheet = npc.sheet
    slots: dict[str, str] = {}
    if _is_trade(sheet.role):
        slots["role"] = sheet.role
    work = place_named(npc, sheet.work)
    if work is not None:
        slots["work"] = label_of(work)
    lists = {slot: getattr(sheet, field) for slot, field in _SHEET_LISTS.items()}
    lists["fear"] = tuple(f for f in sheet.fears if len(f.split()) <= _THING_WORDS)
    lists["belief"] = tuple(b.what for b in sheet.beliefs if not _POINTING.match(b.what))
    for slot, items in lists.items():
        if items:
            slots[slot] = items[seed % len(items)]
    return slots


def _is_trade(role: str) -> bool:
    """Whether a sheet's role names a trade ("miller", "tavern keeper"), not what the NPC
    does ("grows herbs", "keeps the inn")."""
    words = role.split()
    return 0 < len(words) <= 2 and (len(words) == 1 or not words[0].endswith("s"))


def _related(talk: PlayerLine) -> str:
    """The villager whose work, role or wares the player's words touch most, or ""."""
    asked = {stem(w) for w in tokens(talk.said) if len(w) > 3 and w not in FILLER}
    best, found = 0, ""
    for person in talk.npc.people:
        theirs = " ".join([person.trade, person.role, person.does, *person.wares])
        score = len(asked & {stem(w) for w in tokens(theirs) if len(w) > 3})
        if score > best:
            best, found = score, person.name
    return found


# A mood's sound a line opens with: "Oh,", "Mm.", "...", "Ha!".
_SOUND = re.compile(
    r"^(?:\.\.\.\s*)?(?:(?:oh|mm|ha|ah|aye|well|ooh|hm|hmph)\b[,.!]*\s+)?(?<=\s|\.)", re.I
)


def then(first: str, second: str) -> str:
    """Two of a mood's lines said as one, the second without the sound it opens with
    ("Oh, of course! Oh, I'm a fletcher..." -> "Oh, of course! I'm a fletcher...")."""
    rest = _SOUND.sub("", second) if _SOUND.match(first) or first.startswith("...") else second
    rest = rest[:1].upper() + rest[1:]
    return f"{first} {rest}".strip()
