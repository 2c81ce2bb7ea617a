"""The moods a persona speaks in, declared once: the temperament words that speak in each,
the gestures it reaches for, its grumble on being woken and the questions it may put.

A mood is read from the persona's temperament words and the character sheet's `talks`
(`mood_of`), never from a trade; its `name` keys its lines in every table of `lines.json`
(`game.npc.scripted.lines` reads them by it). A mood's question is only a shape: what it
asks about (a ware to offer, a like, a belief) comes from the NPC's sheet
(`Mood.question_for`), and a mood asks nothing when the sheet has none of it. Everything
that knows moods reads them from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from game.gestures import LAUGH, NOD, SHAKE_HEAD, THINK, WAVE, Gesture

__all__ = [
    "CHEERFUL",
    "CURIOUS",
    "GRUFF",
    "MOODS",
    "QUIET",
    "SHREWD",
    "WISE",
    "Asking",
    "Mood",
    "Question",
    "mood_of",
    "mood_of_word",
    "temperament",
]


@dataclass(frozen=True)
class Question:
    """A question a mood puts to the player, and its reaction to each answer."""

    text: str
    answers: tuple[tuple[str, str], ...]  # (the option shown, the reaction to it)


@dataclass(frozen=True)
class Asking:
    """The shape of a question: the sheet slot it is about (`ware`, `like`, `belief`),
    its words with that `{slot}` in them, and the answers with the mood's reactions."""

    slot: str
    text: str
    answers: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Mood:
    """One way a persona speaks."""

    name: str  # its key in the line tables
    words: tuple[str, ...]  # the temperament words of a persona that speak in it
    gestures: tuple[Gesture, ...]  # reached for when nobody asked, likeliest first
    grumbles: tuple[str, ...]  # what its first line opens with when it was just woken, one of
    talks: tuple[str, ...] = ()  # the sheet's ways of talking that speak in it
    asks: tuple[Asking, ...] = ()  # the questions it may put, the first the sheet fills
    # The sheet's ways of talking its lines cannot carry: a formal speaker never says
    # "I nod, I nod!", however young it is.
    unlike: tuple[str, ...] = ()

    def question_for(self, slots: Mapping[str, str]) -> Question | None:
        """The mood's question about what the sheet's `slots` hold (None: it has none)."""
        for shape in self.asks:
            value = slots.get(shape.slot)
            if value:
                return Question(shape.text.replace("{" + shape.slot + "}", value), shape.answers)
        return None


GRUFF = Mood(
    "gruff",
    (
        *("gruff", "stern", "blunt", "grumpy", "surly", "dour"),
        *("curt", "brusque", "gloomy", "sharp-tongued", "strict", "severe", "crabby"),
        # how a grumbler is written, past adjectives: "grumbles about everything"
        *("grumbl", "grouch", "scowl", "sour", "sullen", "cranky", "irritable", "bitter"),
        *("moan", "complain", "miserable", "bad-tempered", "short-tempered", "glum"),
        # a sharp tongue or a mocker: a grumbler's lines, never a jolly one's
        *("sarcas", "sardonic", "mocking", "scornful", "caustic", "cynical", "prickly"),
        *("tetchy", "testy", "cantankerous", "crotchety", "waspish", "acid"),
    ),
    (SHAKE_HEAD, NOD, THINK),
    (
        "Hrmph. You woke me.",
        "Hm? What is it? I was asleep.",
        "Ugh. Awake now, no thanks to you.",
        "Eh? Who's there? ...Fine, I'm up.",
    ),
    ("brisk", "gloomy"),
    (
        Asking(
            "ware",
            "Need {ware}? Coin up front.",
            (("Yes", "Right. Coin first, then it's yours."), ("No", "Suit yourself.")),
        ),
    ),
)
CHEERFUL = Mood(
    "cheerful",
    (
        *("cheerful", "warm", "kind", "jolly", "friendly", "bright", "merry", "sunny", "chatt"),
        # "laughs at everything", "talks the ears off anyone": a cheerful one in deeds
        *("laugh", "smil", "talkative", "bubbly", "lively", "giggl", "happy", "beam"),
        *("outgoing", "sociable", "hearty", "boisterous", "talks the ears", "never stops talk"),
    ),
    (LAUGH, WAVE, NOD),
    (
        "Mmh? Oh! I was fast asleep.",
        "Oh! Goodness, you gave me a start. I must have dozed off.",
        "Hm? Oh, hello! I was miles away, fast asleep.",
        "Wha-? Oh, it's you! Sorry, I was napping.",
    ),
    ("cheerful", "jokes", "loud"),
    (
        Asking(
            "ware",
            "Would you like {ware}?",
            (
                ("Yes, please!", "Wonderful! I'll set it aside for you."),
                ("No, thank you", "Another time, then!"),
            ),
        ),
        Asking(
            "like",
            "Do you like {like} as much as I do?",
            (
                ("I do!", "Oh, wonderful! We'll get on famously."),
                ("Not really", "Ha! Each to their own, friend!"),
            ),
        ),
    ),
)
WISE = Mood(
    "wise",
    (
        # "patient", not "the patient" one treats
        *("wise", "calm", "(?<!the )(?<!any )(?<!every )patient", "gentle", "thoughtful", "serene"),
        *(
            "sayings",  # "speaks in old sayings", "full of proverbs"
            "proverb",
            "solemn",
            "grave(?=ly| and| in manner)",
            "pious",
            "devout",
            "measured",
            "soft-spoken",
            "like a priest",
            # a fortune teller, a mayor: "mysterious and dramatic", "pompous and long-winded"
            "mysterious",
            "speaks in riddles",
            "pompous",
            "long-winded",
            "dignified",
        ),
    ),
    (THINK, NOD),
    (
        "Hm... at this hour? Well, I am awake now.",
        "Ah. You have woken me. No matter.",
        "Mm... I was resting. Well, I am here now.",
        "Hm? Sleep can wait, I suppose.",
    ),
    ("formal",),
    (
        Asking(
            "ware",
            "Would {ware} be of use to you?",
            (
                ("Perhaps", "Then think on it. It will be here when you decide."),
                ("Not now", "Another day, then."),
            ),
        ),
    ),
)
QUIET = Mood(
    "quiet",
    (
        # "few words" is not here: it is a way of talking (the sheet's `talks`), which a
        # gruff one of few words shares, and it must not count twice against "gruff"
        *("quiet", "shy", "timid", "reserved", "silent", "taciturn"),
        *("nervous", "anxious", "fretful", "jumpy", "skittish", "meek"),
        *("bashful", "mumbl", "whisper", "hesitant", "blush", "mousy", "keeps to"),
        # one who takes its time: "slow and careful and thinks before he speaks"
        *("slow", "careful", "deliberate", "unhurried", "ponder"),
        "thinks (?:a long time |long |hard )?before",
    ),
    (NOD, THINK),
    (
        "...Mm. I was sleeping.",
        "...Oh. You woke me.",
        "Mm? ...I was asleep.",
        "...Hm. Awake now.",
    ),
    ("few words",),
    (
        Asking(
            "ware",
            "...Want {ware}?",
            (("Yes", "Mm. Yours, for the usual price."), ("No", "Fine.")),
        ),
    ),
    unlike=("loud",),
)
CURIOUS = Mood(
    "curious",
    ("curious", "young", "questions", "eager", "restless", "inquisitive"),
    (LAUGH, THINK, WAVE),
    (
        "Huh? Is it morning? ...No.",
        "Wha-? I'm awake! I'm awake!",
        "Huh? Oh! Did something happen?",
        "Mm? Who's that? Oh, you!",
    ),
    ("questions",),
    (
        Asking(
            "ware",
            "Want to see {ware}? It's the best!",
            (
                ("Show me!", "Isn't it great? I could look at it all day!"),
                ("Not now", "Aww. Later, then?"),
            ),
        ),
        Asking(
            "belief",
            "Do you believe {belief}?",
            (
                ("Yes!", "I knew it! I knew you'd see it too!"),
                ("Maybe", "Maybe is a start! We'll find out."),
                ("No", "It's true! You'll see!"),
            ),
        ),
        Asking(
            "like",
            "Do you like {like} too?",
            (
                ("Yes!", "Really? Me too! We'll be friends."),
                ("Not really", "Oh. Well, I still do!"),
            ),
        ),
    ),
    unlike=("formal",),
)
SHREWD = Mood(
    "shrewd",
    ("shrewd", "haggl", "bargain", "coin", "canny", "cunning", "thrifty"),
    (LAUGH, NOD, THINK),
    (
        "Ahem, closed for the night, friend... but go on.",
        "Hm? Asleep, I was. Still, you're here now.",
        "Eh? Woken for nothing, I hope not.",
        "Mm. Sleep's free, friend, but so is a word. Go on.",
    ),
    (),
    (
        Asking(
            "ware",
            "Care to see {ware}? For you, a fair price.",
            (
                ("Show me", "Fine quality, isn't it? Coin first, and it's yours."),
                ("Not today", "Your loss, friend. It won't wait forever."),
            ),
        ),
    ),
)
# Every mood; a persona's ties go to the first listed.
MOODS: dict[str, Mood] = {m.name: m for m in (GRUFF, CHEERFUL, WISE, QUIET, CURIOUS, SHREWD)}

_PERSONA_WEIGHT = 2  # a temperament the persona names outweighs a way of talking read from it

# What a persona says it likes, dislikes or fears, up to the end of its clause: "likes
# rain, quiet and being left alone" says nothing of how quiet it is itself ("likes to
# answer a question with a question" does).
_NOT_ITSELF = re.compile(
    r"\b(?:likes|loves|enjoys|prefers|dislikes|hates|loathes|can't stand|cannot stand|"
    r"fears|dreads|(?:is )?(?:afraid|frightened|scared|wary) of|keeps away from|avoids)\b"
    r"(?! to (?:talk|answer|ask|joke|tease|chat|speak|gossip|tell|sing)\b)"
    r"(?! (?:a |an )?(?:good )?(?:bargain|haggl|deal\b|profit|coin))"  # a shrewd one
    # up to its clause's end: "loves riddles and tells terrible jokes" jokes all the same
    r"(?:(?!,?\s+(?:and|but)\s+(?:tells|talks|says|speaks|laughs|jokes|asks|sings|giggles|"
    r"chatters|whistles|mutters|grumbles|is)\b)[^.;:])*",
    re.I,
)


# What a persona says the NPC thinks of someone else, up to the end of its clause: "says
# Osric has a good heart under all that grumbling" is no grumbling of its own.
_OF_OTHERS = re.compile(
    r"\b(?:thinks|reckons|says|considers|believes|finds|calls|swears|suspects|"
    r"is (?:sure|certain|convinced|fond of)|worries about)\s+(?:that\s+)?[A-Z][a-z]+[^.;:]*"
)


def mood_of_word(word: str) -> Mood | None:
    """The mood a word of temperament speaks for ("miserable", "grumpiest": a gruff one's;
    "loud": a cheerful one's), by its first letters, if any."""
    start = word.lower()[:5]
    return next(
        (m for m in MOODS.values() if any(w.startswith(start) for w in (*m.words, *m.talks))),
        None,
    )


def temperament(persona: str) -> str:
    """The persona's words of how the NPC is and talks, without what it likes, dislikes or
    fears ("dislikes loud voices" is no loud voice of its own) or thinks of someone else
    by name ("thinks Joss is a grumbler")."""
    return _NOT_ITSELF.sub(" ", _OF_OTHERS.sub(" ", persona))


# A temperament word said not to be so: "never smiles", "is not at all shy", "rarely laughs",
# and after it: "a laugh that comes rarely" (not "laughs and never complains").
_DENIED = r"\b(?:never|not|rarely|seldom|hardly|barely|no)\s+(?:\w+\s+){0,2}?"
_DENIED_AFTER = r"(?:\s+(?!and\b|but\b)[\w']+){0,3}?\s+(?:rarely|seldom|never)\b"


def _denials(word: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    said = rf"\b{re.escape(word)}[\w-]*"
    return re.compile(rf"{_DENIED}{said}"), re.compile(rf"{said}{_DENIED_AFTER}")


# Each mood's words, each with how it is denied before and after it: built once.
_DENIALS = tuple((mood, tuple(_denials(w) for w in mood.words)) for mood in MOODS.values())
_WORDS = {mood: tuple(re.compile(rf"\b{w}") for w in mood.words) for mood in MOODS.values()}


def _denied(text: str) -> tuple[str, int]:
    """The persona's text without its denied temperament words, and how many warm ones
    it denies ("never smiles", "not friendly": a grumbler's marks)."""
    warm = 0
    for mood, denials in _DENIALS:
        for before, after in denials:
            text, found = before.subn(" ", text)
            text = after.sub(" ", text)  # only not so: no grumbler
            warm += found if mood is CHEERFUL else 0
    return text, warm


def mood_of(persona: str, talks: Iterable[str] = ()) -> Mood:
    """The mood the persona's temperament words and the sheet's ways of talking name most
    (cheerful when they name none); never one whose lines cannot carry a way it talks.
    A warm word denied ("never smiles") speaks for a gruff one."""
    return _mood_of(persona, tuple(talks))


@lru_cache(maxsize=256)  # read once per NPC: a reply asks for its mood several times
def _mood_of(persona: str, said: tuple[str, ...]) -> Mood:
    # "likes quiet" is a liking, "loves the quiet of the churchyard" no quiet manner, and
    # "thinks Joss is a grumbler" no grumble of its own
    text, warm_denied = _denied(temperament(persona).lower())
    scores = {
        mood: _PERSONA_WEIGHT * sum(w.search(text) is not None for w in _WORDS[mood])
        + sum(t in mood.talks for t in said)
        + (_PERSONA_WEIGHT * warm_denied if mood is GRUFF else 0)
        for mood in MOODS.values()
        if not set(mood.unlike) & set(said)
    }
    best = max(scores, key=lambda m: scores[m])
    return best if scores[best] else CHEERFUL
