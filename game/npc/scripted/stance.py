"""What the NPC will not do, from its character sheet: a request that touches one of its
fears or refusals is answered no, in its mood, saying why.

A request touches a fear or a refusal by the words they share (by their stems: "goats"
finds "goat"), or by a family of plain English words for one idea ("boat" and "sail" are
the sea's, "rush" is a hurry's). A counter's refusals (credit, free goods, idle talk) are
touched by how the player asks: on credit, for nothing, a chat. A worry ("worries about
the old bridge") keeps no one away, and a refusal to turn someone away is a kindness, not
a no.
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind, Named
from game.npc.reading.naming import FILLER, stem, tokens
from game.npc.scripted.about import worried
from game.npc.scripted.retell import bare, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, place_named, say
from game.npc.skills import SkillCall

__all__ = ["refusal"]

# Kinds of line that ask the NPC to do or give something by what they are.
_ASKING = frozenset({Kind.GO, Kind.FAVOUR, Kind.CHATTER, Kind.SKILL})
# Kinds that may, when put as a request ("will you...?", "I'll give you ten silver").
_MAYBE = frozenset(
    {Kind.QUESTION, Kind.CHAT, Kind.SELF, Kind.PLACE, Kind.PERSON, Kind.SEEK, Kind.UNKNOWN_PLACE}
)
_REQUEST = re.compile(
    r"\b(?:will|would|can|could|won't|wouldn't|do|did) you\b|\b(?:can|could|may|might) (?:i|we)\b|"
    r"\bdeal\b|\blet(?:'s| us)\b|\bhow about\b|\bwant to\b|\b(?:i'll|i will) (?:give|pay)\b|"
    r"^(?:\w+, )?(?:please )?(?:come|go|take|give|sell|lend|pour|rush|hurry|bring|fetch|walk|"
    r"join|show|hand|make|weave|sail|row|climb)\b"
)
# One idea, several words: a request touches a fear or refusal by any of them.
_FAMILIES: tuple[frozenset[str], ...] = tuple(
    frozenset(words.split())
    for words in (
        "sea ocean boat ship sail sailing ferry swim waves tide voyage island aboard",
        "height heights high edge cliff climb top roof ladder tower",
        "dark night cave tunnel shadow underground",
        "hurry rush quick quickly fast tonight hasten soon sooner",
        "quarrel fight argue row brawl shout shouting",
        "lend borrow loan",
        "thunder storm lightning",
        "crowd crowds festival packed throng",
    )
)
_COUNTER: dict[str, tuple[tuple[str, ...], re.Pattern[str]]] = {
    # a counter's refusal: ways to say what the NPC does not do, and the words that ask it
    "credit": (
        ("give credit", "put anything on the slate", "sell on tick"),
        re.compile(
            r"\bcredit\b|\bon (?:tick|the slate|account)\b|\bowe\b|\bpay (?:you )?(?:back|later|"
            r"tomorrow|next)\b|\bnext (?:week|time|month)\b|\bpay you later\b|\bput it on\b",
        ),
    ),
    "free goods": (
        ("give my goods away for nothing", "hand out what I sell", "give things away"),
        re.compile(r"\bfree\b|\bfor nothing\b|\bgift\b|\bno charge\b|\bon the house\b"),
    ),
    "idle talk": (
        ("waste the day on idle chatter", "stand about gossiping", "natter the day away"),
        re.compile(r"\bchat|\bgossip|\bnatter|\bchinwag"),
    ),
}
_PAY = frozenset({"credit", "free goods"})
# A refusal to send someone away is a promise to take them in.
_KINDNESS = re.compile(r"\baway\b|^(?:turn|send|refuse|deny|abandon|leave|let \w+ down)\b")
_NOT_TELLING = FILLER | frozenset(
    """anyone anybody everyone everybody someone nobody nothing anything whoever whatever
    never always ever really truly will would should could might must shall have has had
    give take make let want need single any""".split()
)


def _stems(text: str) -> set[str]:
    words = {w for w in tokens(text) if len(w) > 2 and w not in _NOT_TELLING}
    found = {stem(w) for w in words}
    for family in _FAMILIES:
        if (words | found) & family:
            found |= family
    return found


# "How many goats do you keep?": a question of what it does asks for nothing; one of a
# price ("how much do you want for one?") is an offer.
_WH = re.compile(r"\b(?:what|how|where|when|why|which|who|whose)\b[^.!?]*$")
_PRICE = re.compile(r"\bhow much\b|\bprice\b|\b(?:want|take|charge|ask|sell \w+) for\b|\bcost")


def _requests(line: str) -> bool:
    """Whether a line puts a request or an offer ("will you sell me one?", "do you sell
    goats?"), not a question of what it does ("how many goats do you look after?")."""
    if _PRICE.search(line):
        return bool(_REQUEST.search(line))
    for found in _REQUEST.finditer(line):
        plain = re.fullmatch(r"(?:do|did) you", found.group())
        if not (plain and _WH.search(line[: found.start()])):
            return True
    return False


def _asked(talk: PlayerLine, intent: Intent) -> str:
    """The words of what is asked: the line, and a place walked to with its description."""
    said = talk.said
    target = intent.target
    if intent.kind is Kind.GO and target is not None and target.kind is Named.PLACE:
        place = place_named(talk.npc, target.name)
        said += " " + target.label + (f" {place.description}" if place is not None else "")
    return said


def refusal(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The NPC's no to a request that touches its fears or refusals, or None."""
    kind = intent.kind
    line = talk.said.lower()
    if kind not in _ASKING and not (kind in _MAYBE and _requests(line)):
        return None
    npc = talk.npc
    sheet = npc.sheet
    for refused in sheet.refuses:
        counter = _COUNTER.get(refused)
        if counter is None:
            continue
        deeds, asks = counter
        wanted = {"free goods": Kind.FAVOUR, "idle talk": Kind.CHATTER}.get(refused)
        if kind is wanted or asks.search(line):
            table = "refuse_pay" if refused in _PAY else "refuse"
            deed = deeds[talk.seed("deed") % len(deeds)]
            return say(speak.text(table, deed=deed), "player")
    # A fear is touched by where a walk goes too ("the quay": the sea); a refusal only by
    # what is asked ("fetch me rope from your goat hut" sells no goat).
    where = _stems(_asked(talk, intent))
    for fear in sheet.fears:
        if not worried(fear, npc.persona) and where & _stems(fear):
            return _no(npc, speak, "fear_no", "thing", fear, where)
    asked = _stems(talk.said)
    for refused in sheet.refuses:
        if refused in _COUNTER or _KINDNESS.search(refused):
            continue
        if asked & _stems(refused):
            return _no(npc, speak, "refuse", "deed", refused, asked)
    return None


def _no(
    npc: VillagerFacts, speak: Speaker, table: str, slot: str, item: str, asked: set[str]
) -> SkillCall:
    """A no from `table`, the item said in the NPC's own words, the words asked kept first."""
    said = shorter(item)
    said += bare(said)
    keep = {w[:5] for w in asked}
    text = in_own_words(lambda p: speak.text(table, **{slot: p}), said, npc.persona, npc.name, keep)
    return say(text or speak.text("refuse", deed="do that"), "player")
