"""The moods a persona speaks in, declared once: each mood's words in a persona, the
gestures it reaches for, its grumble on being woken and the question it may put.

A mood is read from the persona (`mood_of`); its `name` keys its lines in every table of
`lines.json` (`game.npc.scripted.lines` reads them by it). Everything that knows moods
reads them from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.gestures import LAUGH, NOD, SHAKE_HEAD, THINK, WAVE, Gesture

__all__ = [
    "CHEERFUL",
    "CURIOUS",
    "GRUFF",
    "MOODS",
    "QUIET",
    "SHREWD",
    "WISE",
    "Mood",
    "Question",
    "mood_of",
]


@dataclass(frozen=True)
class Question:
    """A question a mood puts to the player, and its reaction to each answer."""

    text: str
    answers: tuple[tuple[str, str], ...]  # (the option shown, the reaction to it)


@dataclass(frozen=True)
class Mood:
    """One way a persona speaks."""

    name: str  # its key in the line tables
    words: tuple[str, ...]  # the persona words that speak in it
    gestures: tuple[Gesture, ...]  # reached for when nobody asked, likeliest first
    grumble: str  # what its first line opens with when it was just woken
    question: Question | None = None


GRUFF = Mood(
    "gruff",
    ("gruff", "stern", "blunt", "grumpy", "smith", "forge"),
    (SHAKE_HEAD, NOD, THINK),
    "Hrmph. You woke me.",
)
CHEERFUL = Mood(
    "cheerful",
    ("cheerful", "warm", "kind", "jolly", "baker", "friendly", "bright"),
    (LAUGH, WAVE, NOD),
    "Mmh? Oh! I was fast asleep.",
    Question(
        "Would you like a warm bun?",
        (
            ("Yes, please!", "Here you are, fresh from the oven!"),
            ("No, thank you", "Another time, then! They're best in the morning."),
        ),
    ),
)
WISE = Mood(
    "wise",
    ("wise", "elder", "old", "calm", "patient", "remembers"),
    (THINK, NOD),
    "Hm... at this hour? Well, I am awake now.",
)
QUIET = Mood(
    "quiet",
    ("quiet", "shy", "fisher", "few words", "patient", "river"),
    (NOD, THINK),
    "...Mm. I was sleeping.",
)
CURIOUS = Mood(
    "curious",
    ("curious", "child", "young", "questions", "eager", "adventure"),
    (LAUGH, THINK, WAVE),
    "Huh? Is it morning? ...No.",
    Question(
        "Will you help me find the dragon past the river?",
        (
            ("Yes, let's go!", "Yes! I'll get my wooden sword!"),
            ("Maybe later", "Aww. Later, then. Promise?"),
            ("Dragons aren't real", "They are too! You'll see!"),
        ),
    ),
)
SHREWD = Mood(
    "shrewd",
    ("merchant", "trader", "travell", "bargain", "coin", "shrewd"),
    (LAUGH, NOD, THINK),
    "Ahem, closed for the night, friend... but go on.",
    Question(
        "Care to see something special from the mountains?",
        (
            ("Show me", "Behold: a compass that always points home. For you, a bargain!"),
            ("Not today", "Your loss, friend. My cart will be here... for now."),
        ),
    ),
)
# Every mood; a persona's ties go to the first listed.
MOODS: dict[str, Mood] = {m.name: m for m in (GRUFF, CHEERFUL, WISE, QUIET, CURIOUS, SHREWD)}


def mood_of(persona: str) -> Mood:
    """The mood whose words the persona uses most (cheerful when it uses none)."""
    text = persona.lower()
    scores = {mood: sum(text.count(w) for w in mood.words) for mood in MOODS.values()}
    best = max(scores, key=lambda m: scores[m])
    return best if scores[best] else CHEERFUL
