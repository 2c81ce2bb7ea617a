"""How the scripted brain answers the player: one line read, one short plan of skill calls.

`answer(talk)` reads what the player asked (`game.npc.reading.intent`) and plans at most one
gesture, walk, look or wait and one line (`game.npc.scripted.lines`): a gesture asked for is made
and then spoken to, a walk goes to a place or person that exists (else the NPC says it
knows no such place), questions about places and villagers are answered from the facts,
questions about the NPC from its persona, the player's name once told is used, and
nothing the NPC said recently is said again.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from game.npc.facts import PlaceFact, SensedFacts, VillagerFacts
from game.npc.life.news import asks_news, heard_line, news_answer, read_news
from game.npc.reading.intent import Intent, asks_yes_no, read_intent
from game.npc.reading.naming import Target
from game.npc.reading.player import recall, told_name
from game.npc.scripted.first_person import first_person
from game.npc.scripted.lines import clip, line_table, overlap, pick, sentences
from game.npc.scripted.retell import about_it, clauses, closest, side_on
from game.npc.seeds import seed_of
from game.npc.skills.base import MAX_SAY

__all__ = ["PlannedCall", "PlayerLine", "answer", "mood_of", "say", "setting_off", "side_of"]

PlannedCall = tuple[str, dict[str, Any]]

# Mood is read from the persona; each mood has its own turns of phrase.
_MOODS: dict[str, tuple[str, ...]] = {
    "gruff": ("gruff", "stern", "blunt", "grumpy", "smith", "forge"),
    "cheerful": ("cheerful", "warm", "kind", "jolly", "baker", "friendly", "bright"),
    "wise": ("wise", "elder", "old", "calm", "patient", "remembers"),
    "quiet": ("quiet", "shy", "fisher", "few words", "patient", "river"),
    "curious": ("curious", "child", "young", "questions", "eager", "adventure"),
    "shrewd": ("merchant", "trader", "travell", "bargain", "coin", "shrewd"),
}
# A question some moods put to the player: (question, [(option, reaction), ...]).
ASKS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "curious": (
        "Will you help me find the dragon past the river?",
        (
            ("Yes, let's go!", "Yes! I'll get my wooden sword!"),
            ("Maybe later", "Aww. Later, then. Promise?"),
            ("Dragons aren't real", "They are too! You'll see!"),
        ),
    ),
    "shrewd": (
        "Care to see something special from the mountains?",
        (
            ("Show me", "Behold: a compass that always points home. For you, a bargain!"),
            ("Not today", "Your loss, friend. My cart will be here... for now."),
        ),
    ),
    "cheerful": (
        "Would you like a warm bun?",
        (
            ("Yes, please!", "Here you are, fresh from the oven!"),
            ("No, thank you", "Another time, then! They're best in the morning."),
        ),
    ),
}
_LIMIT = 0.5  # a line sharing more of its word pairs with one said recently is not said


def mood_of(persona: str) -> str:
    """The mood whose words the persona uses most (ties go to the first listed)."""
    text = persona.lower()
    scores = {mood: sum(text.count(w) for w in words) for mood, words in _MOODS.items()}
    best = max(scores, key=lambda m: scores[m])
    return best if scores[best] else "cheerful"


def say(text: str, target: str | None = None) -> PlannedCall:
    """A `say` call: one line of plain speech (no markup, braces or line breaks, which a
    recalled line of the player's could bring), at most 200 characters."""
    text = re.sub(r"[{}\[\]<>\\`|#*_~]", "", text).replace('"', "'")
    text = clip(re.sub(r"[\x00-\x1f\x7f]+", " ", text)) or "Hm."
    args: dict[str, Any] = {"text": text}
    if target:
        args["target"] = target
    return ("say", args)


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

    @property
    def mood(self) -> str:
        """The persona's mood."""
        return mood_of(self.npc.persona)

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


# A sleeping NPC spoken to wakes grumbling: its first line opens with one of these.
GRUMBLES: dict[str, str] = {
    "gruff": "Hrmph. You woke me.",
    "cheerful": "Mmh? Oh! I was fast asleep.",
    "wise": "Hm... at this hour? Well, I am awake now.",
    "quiet": "...Mm. I was sleeping.",
    "curious": "Huh? Is it morning? ...No.",
    "shrewd": "Ahem, closed for the night, friend... but go on.",
}
ACTIONS = frozenset({"go", "gesture", "look", "wait", "bye"})


def opener(talk: PlayerLine) -> str:
    """What the line starts with before its answer: a grumble when it was just woken, a
    cold "Hmph." when it is cross with the player; "" otherwise."""
    sensed = talk.sensed
    if sensed is None:
        return ""
    if sensed.woken:
        return GRUMBLES.get(talk.mood, GRUMBLES["cheerful"])
    feeling = next((f for f in sensed.feelings if f.other_id == "player"), None)
    return "Hmph." if feeling is not None and feeling.word == "cross" else ""


def news_reply(talk: PlayerLine, intent: Intent | None = None) -> str:
    """The answer to a news question, from the news the NPC heard, or the news the player
    just told it said back ("" when the line is neither)."""
    intent = intent or read_intent(talk.said, talk.npc)
    if intent.kind in ACTIONS:
        return ""
    if asks_news(talk.said):
        first = opener(talk)  # what the line opens with takes its room first
        room = MAX_SAY - (len(first) + 1 if first else 0)
        return news_answer(talk.sensed.news if talk.sensed else [], talk.said, room=room)
    places = {p.name: p.name for p in talk.npc.places}
    told = read_news(
        talk.said,
        npc=talk.npc,
        player_id="player",
        player_name=talk.player or "traveller",
        find_place=lambda name: places.get(name.lower().removeprefix("the ").replace(" ", "_")),
        clock=0.0,
    )
    return next((line for line in map(heard_line, told) if line), "")


def answer(talk: PlayerLine) -> list[PlannedCall]:
    """The plan of the NPC's turn when the player says `talk.said`: at most one gesture,
    walk, look or wait, and one line to the player (a question with its reaction rarely),
    opened by a grumble when it was just woken."""
    plan = _answer(talk)
    first = opener(talk)
    if not first:
        return plan
    at = next((i for i, (tool, _) in enumerate(plan) if tool == "say"), None)
    if at is None:
        return [say(first, "player"), *plan]
    args = plan[at][1]
    return [*plan[:at], say(f"{first} {args['text']}", args.get("target")), *plan[at + 1 :]]


def _answer(talk: PlayerLine) -> list[PlannedCall]:
    intent = read_intent(talk.said, talk.npc)
    news = news_reply(talk, intent)
    if news:
        return [say(news, "player")]
    speak = _Speaker(talk, intent)
    kind = intent.kind
    if kind == "gesture" and intent.gesture:
        table = (
            "bye" if intent.gesture == "wave" and _bye(talk.said) else f"gesture_{intent.gesture}"
        )
        return [("emote", {"name": intent.gesture}), speak.line(table)]
    if kind == "go":
        return _walk(talk, intent, speak)
    if kind == "look":
        return _look(intent, speak)
    if kind == "wait":
        return [speak.line("wait"), ("wait", {"seconds": intent.seconds or 3.0})]
    if kind == "bye":
        return [("emote", {"name": "wave"}), speak.line("bye")]
    if kind == "greet":
        greeting = talk.npc.greeting
        if talk.first_meeting and greeting:
            return [("emote", {"name": "wave"}), say(greeting, "player")]
        return [speak.line("greet_again")]
    if kind == "tell_name":
        return [speak.line("tell_name", player=intent.name or "")]
    if kind == "ask_name":
        player = talk.player
        return [speak.line("ask_name", player=player) if player else speak.line("no_name")]
    if kind == "recall":
        earlier = recall(talk.said, talk.earlier)
        return [speak.line("recall", said=earlier) if earlier else speak.line("recall_none")]
    if kind == "place" and intent.target is not None:
        return [_place(talk, intent.target, speak)]
    if kind == "person" and intent.target is not None:
        return [_person(talk, intent, speak)]
    if kind == "self":
        return [_self(talk, intent.sub, speak)]
    if kind == "village":
        names = [_label(p).removeprefix("the ") for p in talk.npc.places]
        if names:
            pick_of = names[: min(5, len(names))]
            places = ", ".join(f"the {n}" for n in pick_of[:-1]) + f" and the {pick_of[-1]}"
            return [speak.line("village", places=places)]
        return [speak.line("question")]
    if kind in (
        "injection",
        "ai",
        "offworld",
        "how",
        "thanks",
        "question",
        "unknown_place",
        "seek",
        "sad",
        "glad",
        "favour",
        "chatter",
    ):
        return [speak.line(kind)]
    line = speak.line("chat")
    rng = random.Random(talk.seed("ask"))
    mood = talk.mood
    if talk.talks and mood in ASKS and not talk.asked and "?" not in talk.said:
        if rng.random() < 0.4:
            question, answers = ASKS[mood]
            return [
                line,
                ("ask", {"question": question, "options": [o for o, _ in answers]}),
                ("_react", {"answers": dict(answers)}),
            ]
    return [line]


def setting_off(talk: PlayerLine) -> str:
    """What the NPC says as it sets off on a walk it was asked for ("Follow me, it's just
    along here!"): said before the walk, where the plan's line is said on arriving."""
    return _Speaker(talk, read_intent(talk.said, talk.npc)).text("set_off")


def _bye(said: str) -> bool:
    return bool(re.search(r"\b(?:bye|goodbye|farewell|see you)\b", said.lower()))


class _Speaker:
    """Picks the line of one turn: by the turn's seed, never one said recently."""

    def __init__(self, talk: PlayerLine, intent: Intent) -> None:
        self.talk = talk
        self.intent = intent
        npc = talk.npc
        others = [v.name for v in npc.people] or [npc.name]
        self.facts: dict[str, str] = {
            "name": npc.name,
            "other": others[talk.seed("other") % len(others)],
        }
        home = _place_named(npc, npc.home)
        if home is not None:
            self.facts["home"] = _label(home)
        self.used = [*talk.replies[-12:]]
        if npc.greeting:
            self.used.append(npc.greeting)

    def line(self, table: str, **facts: str) -> PlannedCall:
        """A `say` to the player from a table of lines, filled with facts."""
        return say(self.text(table, **facts), "player")

    def text(self, table: str, **facts: str) -> str:
        """The words of a line from `table` (and from chat if every one was said lately)."""
        talk = self.talk
        filled = {**self.facts, **facts}
        text = pick(line_table(table, talk.mood), talk.seed(table), self.used, filled)
        if self.stale(text):
            text = pick(line_table("chat", talk.mood), talk.seed("chat"), self.used, filled)
        return self.named(text)

    def stale(self, text: str) -> bool:
        """Whether a line mostly repeats one said recently."""
        return any(overlap(text, u) > _LIMIT for u in self.used)

    def named(self, text: str) -> str:
        """Now and then, the player's name in the line, once the player has told it."""
        player = self.talk.player
        kind = self.intent.kind
        if not player or player in text or kind in ("tell_name", "ask_name"):
            return text
        if self.talk.seed("name") % 3:
            return text
        match = re.search(r"[.!?](?:\s|$)", text)
        if match is None or match.start() < 2:
            return text
        return f"{text[: match.start()]}, {player}{text[match.start() :]}"[:200]


def _place_named(npc: VillagerFacts, name: str) -> PlaceFact | None:
    return next((p for p in npc.places if p.name == name), None) if name else None


def _label(place: PlaceFact) -> str:
    return "the " + place.name.replace("_", " ")


def _own(description: str, npc: VillagerFacts) -> str:
    """A description as the NPC says it: its own name in it becomes "my" or "I"."""
    names = [npc.name, npc.name.split()[-1]] if npc.name else []
    if any(re.search(rf"\b{re.escape(n)}\b", description) for n in names):
        description = first_person(description, npc.name)
    return description[:1].upper() + description[1:]


def _bit(description: str) -> str:
    """The first part of a description ("A round stone well under a little red roof"), to
    say on arriving; empty if it is too long to say in passing."""
    head = re.split(r"[,;:.]", description, maxsplit=1)[0].strip()
    if not 0 < len(head) <= 70:
        return ""
    return head[:1].lower() + head[1:] if re.match(r"(?:A|An|The)\b", head) else head


def _mine(sentence: str) -> str:
    """A persona sentence that only names a kind of person ("A cheerful baker.") said as
    the NPC's own ("I'm a cheerful baker.")."""
    if re.match(r"(?:A|An|The)\b", sentence):
        return "I'm " + sentence[0].lower() + sentence[1:]
    return sentence


def _walk(talk: PlayerLine, intent: Intent, speak: _Speaker) -> list[PlannedCall]:
    target, sub = intent.target, intent.sub
    rng = random.Random(talk.seed("walk"))
    if sub == "unknown":
        return [speak.line("unknown_place")]
    if sub == "self":
        return [speak.line("go_self")]
    if sub == "away":
        direction = rng.choice(("up", "down", "left", "right"))
        return [("move", {"direction": direction, "steps": 3}), speak.line("away")]
    if intent.direction is not None:
        return [("move", {"direction": intent.direction, "steps": 3}), speak.line("follow")]
    if sub == "tour" and (target is None or target.kind != "place"):
        places = [p for p in talk.npc.places if p.name != talk.place]
        home = _place_named(talk.npc, talk.npc.home)
        if home is not None and talk.place != home.name:
            choice = home
        elif places:
            choice = places[rng.randrange(len(places))]
        else:
            return [speak.line("follow")]
        return [("move", {"to": choice.name}), speak.line("tour", place=_label(choice))]
    if target is None or target.kind == "player":
        return [("move", {"to": "player"}), speak.line("follow")]
    if target.kind == "person":
        return [("move", {"to": target.name}), speak.line("go_person", who=target.label)]
    table = "tour" if sub == "tour" else "go"
    place = _place_named(talk.npc, target.name)
    bit = _bit(_own(place.description, talk.npc)) if place is not None else ""
    return [("move", {"to": target.name}), speak.line(table, place=target.label, bit=bit)]


def _look(intent: Intent, speak: _Speaker) -> list[PlannedCall]:
    target = intent.target
    if target is None:
        return [("look", {}), speak.line("look_around")]
    if target.kind == "player":
        return [("look", {"at": "player"}), speak.line("look_you")]
    return [("look", {"at": target.name}), speak.line("look_at", thing=target.label)]


def _place(talk: PlayerLine, target: Target, speak: _Speaker) -> PlannedCall:
    npc = talk.npc
    place = _place_named(npc, target.name)
    desc = _own(place.description, npc) if place is not None and place.description else ""
    if not desc:
        desc = f"It's {target.label}. You can't miss it."
    table = "place_mine" if target.name == npc.home else "place"
    said = _persona_on(npc, target)
    if said and asks_yes_no(talk.said) and not speak.stale(said):
        # "Is the old bridge safe?": the NPC's side on it, not the bridge described.
        return say(f"{target.label[:1].upper()}{target.label[1:]}? {said}", "player")
    text = speak.text(table, place=target.label, desc=desc)
    if said and said not in text and len(text) + len(said) < 200 and not speak.stale(said):
        text = f"{text} {said}"
    if desc in text or not speak.stale(text):
        return say(text, "player")
    return speak.line("go", place=target.label)


def _persona_on(npc: VillagerFacts, target: Target) -> str:
    """What the NPC's persona says of a place, told short ("I worry about it." for "quietly
    worries about the old bridge"), if it says anything."""
    words = [w for w in target.name.split("_") if len(w) > 2]
    for clause in clauses(npc.persona, npc.name):
        if any(re.search(rf"\b{re.escape(w)}\b", clause, re.I) for w in words):
            return about_it(clause)
    return ""


def _person(talk: PlayerLine, intent: Intent, speak: _Speaker) -> PlannedCall:
    target = intent.target
    assert target is not None
    home = _place_named(talk.npc, target.home)
    facts = {"who": target.label, "role": target.about}
    if intent.sub == "where" and home is not None:
        return speak.line("person_where", home=_label(home), **facts)
    if intent.sub == "opinion":
        return speak.line("person_opinion", **facts)
    if not target.about:
        return speak.line("person_opinion", **facts)
    return speak.line("person_who", **facts)


# What a persona says the NPC carries ("collects shiny pebbles") and where its things come
# from ("curiosities from distant towns"): the words after these, for "have" and "origin".
_OBJECTS = {
    "have": re.compile(r"\b(?:collects?|carr(?:y|ies)|full of|sells?|hoards?)\s+(.+)$", re.I),
    "origin": re.compile(r"\bfrom\s+(.+)$", re.I),
}


def side_of(talk: PlayerLine) -> str:
    """The persona's side on what the player asks, as the NPC says it, or ""."""
    return side_on(talk.said, talk.npc.persona, talk.npc.name)


def _persona_object(npc: VillagerFacts, sub: str) -> str:
    """The words the first persona clause matching `_OBJECTS[sub]` says ("shiny pebbles",
    "distant towns"), or ""."""
    for clause in clauses(npc.persona, npc.name):
        found = _OBJECTS[sub].search(clause)
        if found:
            return found.group(1).strip()
    return ""


def _self(talk: PlayerLine, sub: str, speak: _Speaker) -> PlannedCall:
    npc = talk.npc
    said = [_mine(first_person(s, npc.name)) for s in sentences(npc.persona)]
    job = said[0] if said else f"I'm {npc.name}."
    if sub == "work":
        return speak.line("self_work", job=job)
    if sub == "trade":  # the persona sentence the question is about, else what it does
        return speak.line("self_work", job=closest(talk.said, said) or job)
    if sub in _OBJECTS:
        carried = _persona_object(npc, sub)
        if not carried:
            return speak.line("self_work", job=job)
        if sub == "have":
            carried = carried[:1].upper() + carried[1:]
        return speak.line(f"self_{sub}", thing=carried)
    if sub == "side":
        return speak.line("self_side", about=side_of(talk) or job)
    if sub in ("like", "about"):
        index = 1 if sub == "like" else 2
        about = said[min(index, len(said) - 1)] if said else job
        about = side_of(talk) or closest(talk.said, said) or about
        return speak.line(f"self_{sub}", about=about)
    home = _place_named(npc, npc.home)
    if sub == "home" and home is not None:
        return speak.line("self_home", home=_label(home), desc=_own(home.description, npc))
    return speak.line("self_who", job=job)
