"""What villagers say to each other, each as itself: from the speaker's character sheet.

A villager spoken to by another answers what was said: a fear of its named with alarm
("Spiders?! Get it out, Gus!"), a jibe with its hurt, a deed asked of it with its yes, a
remark on a thing of its own with a word on it ("My goat? Ha."), a question as it would
the player's (to the one who asked, by their name, never the player's); anything else
with something of its own: what it thinks of the one in front of it, said to their
face ("Joss, you're a chancer."), news it heard, or its work. An idle villager with
another beside it says the same kinds of thing to them. Nothing here knows a village:
every fact is the sheet's or the day's, and no line says six words in a row of the
persona (`reads_back`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from game.npc.facts import NewsFact, SensedFacts, VillagerFacts
from game.npc.life.news import tell_line
from game.npc.reading.address import unaddressed
from game.npc.reading.intent import Intent, read_intent
from game.npc.reading.kinds import Kind
from game.npc.reading.phrases import HELLO
from game.npc.reading.words import FILLER, called, norm, stem, tokens
from game.npc.scripted.about import worried
from game.npc.scripted.lines import line_table, pick
from game.npc.scripted.moods import Mood
from game.npc.scripted.speaker import (
    PlayerLine,
    Speaker,
    Step,
    good_hour,
    label_of,
    place_named,
    said_by,
    say,
)
from game.npc.scripted.stance import refusal
from game.npc.scripted.talk import answer
from game.npc.scripted.voice import voiced
from game.npc.seeds import seed_of
from game.npc.skills import EMOTE, SkillCall
from game.wording import reads_back

__all__ = [
    "heard_plan",
    "to_a_villager",
    "to_their_face",
    "view_of",
]

# What a villager may ask another that is answered as the player's question would be.
_ANSWERED = frozenset(
    {Kind.PLACE, Kind.PERSON, Kind.SELF, Kind.VILLAGE, Kind.FAVOUR, Kind.RECALL, Kind.HOW}
)


# An opinion as the sheet holds it, and how it is said to its subject's face.
_VERB_S = re.compile(r"^(\w+?)(ies|es|s)\b")
_SECOND = (
    (r"\b(?:herself|himself|themselves)\b", "yourself"),
    (r"\b(?:her|his|their)\b", "your"),
    (r"\b(?:she|he|they)\b", "you"),
    (r"\bis\b", "are"),
    (r"\bwas\b", "were"),
    (r"\bhas\b", "have"),
)


def _base(verb: str) -> str:
    """A verb's form after "you" ("works" -> "work", "carries" -> "carry", "is" -> "are")."""
    special = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
    if verb in special:
        return special[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:sh|ch|ss|x|z)es$", verb):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


# The verbs that hold an opinion of someone: "thinks Hobb waters the ale".
_HOLDS = (
    r"(?:thinks|believes|says|knows|swears|suspects|reckons|feels"
    r"|is (?:sure|certain|convinced))"
)


def to_their_face(opinion: str, name: str) -> str:
    """An opinion of someone, said to them: "is a chancer" -> "you're a chancer";
    "thinks Ilse works herself to the bone" -> "you work yourself to the bone"; ""
    when it cannot be turned round (it speaks of their things, not of them)."""
    text = " ".join(opinion.split()).rstrip(".!")
    first = re.escape(name.split()[0])
    named = re.match(rf"^(?:considers|calls|finds) {first}\b ?", text)
    if named:  # "considers Hamlin a bad influence": "you're a bad influence"
        rest = _short(" " + text[named.end() :])
        return f"you're{rest}" if rest.strip() else ""
    text = re.sub(rf"^{_HOLDS}(?: that)? {first}\b ?", "", text)
    worried = re.match(rf"^worries(?: that)? {first}\b ?", text)
    if worried:
        text = text[worried.end() :]
    if re.match(rf"^{first}'s\b|\b{first}\b", text):
        return ""  # "Joss's needles are ...": about their things
    verb = _VERB_S.match(text) or re.match(r"^(\w+)", text)
    if verb is None:
        return ""
    head = _base(verb.group(0))
    rest = text[verb.end() :]
    for pattern, repl in _SECOND:
        rest = re.sub(pattern, repl, rest)
    rest = _short(rest)
    if not rest.strip():
        return ""
    said = "you're" + rest if head == "are" else f"you {head}{rest}"
    return f"I worry {said}" if worried else said


_BREAKS = frozenset("on in at to for with from before after about over under by".split())
SAID_WORDS = 4  # what an opinion says after its verb, at most, when it goes on further


def _short(rest: str) -> str:
    """What follows an opinion's verb, cut before its first preposition past its second
    word when it runs longer than `SAID_WORDS` ("" when it has none to cut at)."""
    words = rest.split()
    if len(words) <= SAID_WORDS:
        return rest
    cut = next((i for i in range(2, len(words)) if words[i] in _BREAKS), None)
    if cut is None or cut > SAID_WORDS + 1:
        return ""
    return " " + " ".join(words[:cut])


def view_of(held: str, other: str, name: str) -> str:
    """An opinion as a note of who holds it: "Garrow thinks Joss is a chancer"."""
    first = re.escape(other.split()[0])
    held = " ".join(held.split()).rstrip(".!")
    if re.match(rf"^(?:{_HOLDS}|worries)(?: that)? {first}\b", held):
        return f"{name} {held}"
    return f"{name} thinks {other} {held}"


def _opinion(npc: VillagerFacts, other_id: str, other: str) -> str:
    """What the NPC thinks of `other`, to their face ("" when it thinks nothing of them)."""
    held = npc.sheet.opinions.get(other_id, "")
    said = to_their_face(held, other) if held else ""
    return f"{other}, {said}." if said else ""


def _news(sensed: SensedFacts | None, other: str, other_id: str) -> str:
    """A piece of news the NPC heard that did not come from `other`, passed on to them."""
    news: Sequence[NewsFact] = sensed.news if sensed is not None else []
    fresh = [n for n in news if n.source != other_id and n.source_name != other]
    return tell_line(fresh[0], other) if fresh else ""


def _own(
    npc: VillagerFacts, mood: Mood, other: str, seed: int, used: list[str], table: str, good: str
) -> str:
    """A line of its own to `other` from the mood's `table`: often of its work (`good`:
    the hello of the hour, "Good day")."""
    facts = {"speaker": other, "who": other, "name": npc.name, "good": good or "Good day"}
    work = place_named(npc, npc.sheet.work) or place_named(npc, npc.home)
    if work is not None:
        facts["work"] = label_of(work)
    return pick(line_table(table, mood), seed, used, facts)


def to_a_villager(
    npc: VillagerFacts,
    mood: Mood,
    other: str,
    other_id: str,
    *,
    seed: int,
    used: list[str],
    sensed: SensedFacts | None = None,
    replying: bool = False,
    hello: str = "",
) -> str:
    """Something the NPC says to another villager that is its own: what it thinks of
    them, news, or its work, picked by the seed among those it has and has not said; a
    reply to them (`replying`), a hello back (`hello`: "Good morning") or a word it opens
    with."""
    found = [_opinion(npc, other_id, other), _news(sensed, other, other_id)]
    options = [t for t in found if t and t not in used and not reads_back(t, npc.persona)]
    rng = random.Random(seed)
    if options and rng.random() < 0.75:
        return voiced(options[rng.randrange(len(options))], npc.sheet.talks)
    table = "greet_villager" if hello else "heard" if replying else "to_villager"
    line = _own(npc, mood, other, seed, used, table, good=hello)
    return voiced(line, npc.sheet.talks)


def heard_plan(
    npc: VillagerFacts,
    mood: Mood,
    speaker: str,
    said: str,
    *,
    turn: int,
    replies: list[str],
    sensed: SensedFacts | None,
) -> list[Step]:
    """The NPC's turn when another villager (`speaker`, by name) speaks to it: a question
    answered as the player's would be, to them; anything else met with a line of its own."""
    other_id = next((p.npc_id for p in npc.people if p.name == speaker), speaker.lower())
    seed = seed_of(npc.npc_id, said, str(turn))
    asked = unaddressed(said, npc)
    intent = read_intent(asked, npc)
    kind = intent.kind
    talk = PlayerLine(npc=npc, said=asked, turn=turn, met=True, replies=replies, sensed=sensed)
    no = refusal(talk, intent, Speaker(talk, intent))  # "will you hurry my cloak?"
    said_no = said_by(no) if no is not None else None
    if said_no is not None and not reads_back(said_no.text, npc.persona):
        first = re.search(r"[.!?](?:\s|$)", said_no.text)  # "No, Joss. I don't hurry..."
        if first is None or first.start() < 2:
            return [say(f"{speaker}, {_after_address(said_no.text, npc)}", speaker)]
        text = said_no.text
        return [say(f"{text[: first.start()]}, {speaker}{text[first.start() :]}", speaker)]
    said_to = _said_to(npc, asked, talk, intent, speaker)
    if said_to:
        return [say(said_to, speaker)]
    greeted = bool(HELLO.search(norm(asked))) and (
        kind in _GREETED or (kind is Kind.SELF and intent.sub in _INTRODUCED)
    )
    if kind in _ANSWERED and (kind not in _TOLD or _QUESTION.search(asked)) and not greeted:
        plan = [s for s in answer(talk) if isinstance(s, SkillCall)]
        gestures = [s for s in plan if s.skill is EMOTE][:1]
        lines = [s for s in map(said_by, plan) if s is not None]
        text = _without_own_name(lines[0].text, npc) if lines else ""
        if text and not reads_back(text, npc.persona):
            return [*gestures, say(f"{speaker}, {_after_address(text, npc)}", speaker)]
    # "Good day to you, Osric. Fine weather?": a neighbour's hello, never a stranger's
    # ("they call me Osric, I thatch"): its word on them, news, else a hello back by name
    line = to_a_villager(
        npc,
        mood,
        speaker,
        other_id,
        seed=seed,
        used=replies,
        sensed=sensed,
        replying=True,
        hello=good_hour(sensed, asked) if greeted else "",
    )
    return [say(line, speaker)]


# What a neighbour's hello with small talk after it reads as: met with a hello back, by
# name and for the hour, never as a stranger's ("they call me Osric, I thatch").
_GREETED = frozenset({Kind.GREET, Kind.WEATHER, Kind.HOW, Kind.CHAT, Kind.QUESTION})
_INTRODUCED = frozenset({"who", "trade", "work"})  # what a stranger is told of the NPC
# A kind a villager's line is answered as only when it is a question ("you look tired
# today" asks nothing of the NPC).
_TOLD = frozenset({Kind.SELF})
_QUESTION = re.compile(
    r"\?\s*$|^(?:who|what|where|when|why|how|which|whose|is|are|do|does|did|can|could|will|"
    r"would|have|has)\b",
    re.I,
)
_WH = re.compile(r"\b(?:who|what|where|when|why|how|which|whose)\b", re.I)
_TAG = re.compile(
    r"(?:,\s*|\b)(?:eh|right|yeah|no|innit|isn't it|don't they|aren't they)\?\s*$", re.I
)
# A line that slights the one it is said to: a name called, or a jibe of "you".
_SLIGHT = re.compile(
    r"\b(?:snob|snobs|fool|idiot|oaf|lout|miser|skinflint|coward|liar|cheat|busybody|"
    r"windbag|show-?off|peacock|prig|bore|nag|grump|stuck-up|pompous|vain|lazy|rude|"
    r"useless|clumsy|daft|dim|nosy|stingy|tight-?fisted|good-for-nothing)\b|"
    r"\byou (?:preen|prattle|gossip|nag|whine|moan|grumble|boast|brag|show off|dawdle)\b|"
    r"\byou and your (?:precious|fancy|silly|stupid|blessed|damned?)\b|"
    r"\bwho do you think you are\b|\bmind your own\b",
    re.I,
)
# A deed asked of the NPC ("be a dear and mind my stall?", "would you fetch the cart?").
_ASKS_DEED = re.compile(
    r"\bbe a (?:dear|love|sport|pal|good \w+) and \w+|\b(?:would|will|could|can) you "
    r"(?:please |kindly |just )?(?!tell|say|know|remember|think|believe|show|take me|point)"
    r"[a-z]+\b|"
    r"^(?:please |kindly )?(?:fetch|sweep|carry|bring|mind|watch|help|hold|mend|lend) ",
    re.I,
)
# "your goat", "your precious books": a thing of the NPC's a line names.
_YOUR = re.compile(
    r"\byour (?:(?:precious|little|old|lovely|fine|silly|stupid|big|own|blessed|fancy) )?"
    r"([a-z][a-z-]+)\b",
    re.I,
)
_NOT_A_THING = frozenset(
    "way fault turn name word own self help place home house work job business day time".split()
)
_DESTAMMER = re.compile(r"\b(\w{1,2})-(?=\1)", re.I)  # "s-spider" -> "spider"


def _fear_in(npc: VillagerFacts, said: str) -> str:
    """The NPC's fear a line names ("there's a spider on your loom": spiders), or ""."""
    heard = {stem(w) for w in tokens(_DESTAMMER.sub("", said)) if len(w) > 2} - FILLER
    for fear in npc.sheet.fears:
        if heard & ({stem(w) for w in tokens(fear) if len(w) > 2} - FILLER):
            return fear
    return ""


def _said_to(npc: VillagerFacts, asked: str, talk: PlayerLine, intent: Intent, speaker: str) -> str:
    """What the NPC says back to what another villager said to it, when that is one of the
    things a line is met with by anyone: a fear of its named (alarm), a jibe at it (its
    hurt), a deed asked of it (its yes), a remark on a thing of its own ("My goat? Ha.");
    "" otherwise (a question is answered, else a word of its own)."""
    speak = Speaker(talk, intent)
    fear = _fear_in(npc, asked)
    if fear and not worried(fear, npc.persona):
        return speak.text("heard_fear", feared=fear, speaker=speaker)
    if _SLIGHT.search(asked):
        return speak.text("slighted", speaker=speaker)
    question = bool(_QUESTION.search(asked)) and not _TAG.search(asked)
    if _ASKS_DEED.search(asked) and not _WH.search(asked):
        return speak.text("asked_favour", speaker=speaker)
    thing = _YOUR.search(asked)
    if thing is not None and not question and thing.group(1).lower() not in _NOT_A_THING:
        return speak.text("of_mine", thing=thing.group(1).lower(), speaker=speaker)
    return ""


def _without_own_name(text: str, npc: VillagerFacts) -> str:
    """A line without the NPC's own name opening it ("Brenna. I run the forge.")."""
    first = re.escape(called(npc.name)) if npc.name else ""
    return re.sub(rf"^{first}[.!,]\s*", "", text) if first else text


def _after_address(text: str, npc: VillagerFacts) -> str:
    """A line as it goes on after a name it is addressed with: its first letter small,
    unless its first word is "I" or someone's name."""
    first = re.sub(r"\W+$", "", text.split(" ", 1)[0])
    names = {w for p in npc.people for w in p.name.split()} | set(npc.name.split())
    if first in ("I", "I'm", "I'll", "I've", "I'd") or first in names:
        return text
    return text[:1].lower() + text[1:]
