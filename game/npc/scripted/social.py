"""The short social lines of a villager, in its own voice: its first hello to a player it
has never met (`first_greeting`: the map maker's `greeting`, else a hello of its mood with
its name, trade or work place and the hour in it), its answer to a gesture the player makes
("*bows*", "I offer my hand": `gestured`), and to praise or an insult aimed at it
(`praised_or_insulted`).

What the player does is read by word families of the gesture (a wave, a bow, a hug, a hand
held out, a smile), never by whole sentences; what the NPC says back is a line of its mood's
table for that gesture, so a gruff one shrugs off a hug a cheerful one returns.
"""

from __future__ import annotations

import re

from game.gestures import LAUGH, NOD, SHAKE_HEAD, WAVE, Gesture
from game.npc.life.feelings import read_feeling
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.reading.naming import norm
from game.npc.reading.phrases import HELLO
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.matching import stems_of
from game.npc.scripted.moods import GRUFF, temperament
from game.npc.scripted.retell import DEED, clauses, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, Step, say
from game.npc.scripted.whereabouts import asks_the_way
from game.npc.skills import EMOTE, SkillCall

__all__ = [
    "cold",
    "first_greeting",
    "gestured",
    "hello_again",
    "passing_hello",
    "player_act",
    "player_gesture",
    "praised_or_insulted",
]

# What the player may do, by the words that do it; the first found wins.
_DOES: tuple[tuple[str, str], ...] = (
    (
        "hand",
        r"\b(?:offers?|offering|holds? out|holding out|extends?|extending|puts? out|"
        r"sticks? out)\b(?: \w+){0,2} hands?\b|\bshak(?:e|es|ing) (?:your|her|his|their) "
        r"hands?\b|\bhandshake\b|\bhigh[- ]?fives?\b|\bfist[- ]?bumps?\b",
    ),
    ("hug", r"\b(?:hug|hugs|hugging|embrace|embraces|embracing|cuddles?)\b"),
    ("bow", r"\b(?:bow|bows|bowing|curtsy|curtsey|curtsies|curtseys|doffs?|tips?)\b"),
    ("wave", r"\b(?:wave|waves|waving)\b"),
    ("wink", r"\b(?:wink|winks|winking)\b"),
    ("smile", r"\b(?:smile|smiles|smiling|grin|grins|grinning)\b"),
    # a touch, a thing held out to it, applause: "*pats your back*", "*gives you an apple*"
    (
        "pat",
        r"\b(?:pats?|patting|nudges?|nudging|pokes?|poking|taps?|tapping|elbows?)\b|"
        r"\b(?:slaps?|claps?) (?:you|him|her|them)\b",
    ),
    (
        "rough",
        r"\b(?:throws?|tosses|flicks?|spits?)\b[^.!?]*\bat (?:you|him|her|them)\b|"
        r"\b(?:kicks?|shoves?|pushes|punch(?:es)?|hits?|trips?|pinches)\b[^.!?]*"
        r"\b(?:you|him|her|them)\b",
    ),
    (
        "gift",
        r"\b(?:hands?|gives?|offers?|passes|presents?|holds? out|tosses|throws|slips)\b"
        r"[^.!?]*\b(?:you|him|her|them)\b",
    ),
    ("clap", r"\b(?:claps?|clapping|applauds?|applauding)\b"),
)
# The verbs a gesture of the player's opens with, as "I" says them and as an action is
# written ("I offer my hand", "offers a hand"); "wave at me" asks the NPC for one.
_VERB = (
    r"(?:offer|hold|extend|put|stick|shake|hug|embrace|bow|doff|tip|wave|smile|grin|wink|give|"
    r"hand|pat|clap|applaud)"
)
_VERBS = (
    r"(?:offers|holds|extends|puts|sticks|shakes|hugs|embraces|bows|curtsies|curtseys|"
    r"doffs|tips|waves|smiles|grins|winks|gives|pats|applauds)"
)
# A line that is an action of the player's, not words: "*waves*", "(bows)", "I wave",
# "waves at you", "tips my hat".
_ACTION = re.compile(
    rf"^\s*(?:[*(_~].+[*)_~]|(?:i|we)\s+(?:\w+ly\s+)?(?:{_VERB}|curts(?:e?y))\b[^.!?]*|"
    rf"(?:\w+ly\s+)?{_VERBS}\b[^.!?]*)[.!\s]*$",
    re.I,
)
# A line that opens as a question does ("do you like...", "why are you so...").
# An act written as one, between stars or brackets: "*sits on the grass*".
_WRITTEN = re.compile(r"^\s*[*(_~][^*()_~]*[^\W\d_][^*()_~]*[*)_~][.!\s]*$")
_ASKS = re.compile(
    r"^\W*(?:do|does|did|are|is|was|were|have|has|can|could|will|would|shall|should|may|"
    r"what|why|how|who|where|when|which|whose|aren't|don't|isn't)\b",
    re.I,
)
_AT_ME = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)
_FINE = (
    r"(?:tidy|fine|finest|lovely|beautiful|nice|good|great|wonderful|splendid|excellent|"
    r"handsome|pretty|clever|neat|grand|marvell?ous|impressive|gorgeous|fantastic|superb|"
    r"perfect|sweet)"
)
# Praise of the NPC or of its own, said to it: "your hives are the finest", "you keep a
# very tidy hall", "what a lovely voice you have".
_OWN_PRAISE = re.compile(rf"^\W*(?:you|your|what an?)\b[^.!]*\b(?:{_FINE}|kind|best)\b", re.I)
# Praise put the other way round: "fine saddles you make", "grand work you do here".
_PRAISE_FIRST = re.compile(
    rf"^\W*(?:such |what |so )?(?:an? )?(?:really |very |truly )?(?:{_FINE}|skilful|skillful)"
    r"\b[^.!?]*\byou(?:r|'re)?\b",
    re.I,
)
# Praise in two or three words: "nice hat!", "lovely work".
_PRAISE_SHORT = re.compile(
    r"^\W*(?:very |really )?(?:nice|lovely|fine|beautiful|handsome|pretty|splendid|grand|"
    r"gorgeous|great|excellent|marvell?ous|smart|dashing)(?: \w+){1,2}[.!\s]*$",
    re.I,
)
# Scorn of the NPC or of its own, said to it: "your wheels wobble", "you reek of the moss".
_OWN = re.compile(r"^\W*(?:you|you're|you are|your|yours)\b|\byour\b", re.I)
_SCORN = re.compile(
    r"\b(?:rubbish|junk|crooked|wobbl\w*|shoddy|awful|terrible|dreadful|horrible|bad|worst|"
    r"cheap|broken|filthy|dirty|lousy|crap|crappy|garbage|trash|disgusting|stinks?|stinky|"
    r"reeks?|reeking|smells?|smelly|leaks?|leaky|rotten|poor|ugly|useless|worthless|stale|"
    r"watered|watery|sour|mouldy|moldy|rusty|burnt|bland|tasteless|dishwater|swill|muck|soggy|"
    r"overpriced|blunt|mangy|moth-eaten|threadbare|flimsy)\b",
    re.I,
)
_NOT = re.compile(r"\b(?:not|never|no|nothing|hardly)\b|n't\b", re.I)
_ASKS_DONE = frozenset({Kind.GO, Kind.LOOK, Kind.WAIT, Kind.GESTURE, Kind.BYE, Kind.THANKS})
# Kinds a kind word is said in without praising: "good morning to you", "nice weather".
_NOT_PRAISE = _ASKS_DONE | {Kind.GREET, Kind.WEATHER, Kind.TELL_NAME, Kind.HOW, Kind.VILLAGE}
_COLD = ("cross", "wary")  # the feelings that greet the player coldly
# The praise or insult of `read_feeling` the NPC answers as such, by its table.
_FELT = {"praised you": "praised", "insulted you": "insulted"}
# The kinds of line praise or an insult may read as and still be answered as one: none
# that asks a fact, an action or a story.
_SOCIAL = frozenset({Kind.CHAT, Kind.QUESTION, Kind.SELF, Kind.GLAD, Kind.SAD, Kind.PERSON})


def player_gesture(said: str) -> str | None:
    """The gesture the player's line makes at the NPC ("*offers a hand*": "hand"), or None
    when the line is not an action of the player's, or none of a gesture."""
    text = said.strip()
    if not _ACTION.match(text) or "?" in text:
        return None
    return next((name for name, words in _DOES if re.search(words, text, re.I)), None)


def _of_its_own(talk: PlayerLine) -> bool:
    """Whether the line names one of the NPC's wares or its home: "worst saddle I bought"."""
    npc = talk.npc
    own = {w[:5] for w in re.findall(r"[a-z]{4,}", " ".join((*npc.sheet.wares, npc.home)).lower())}
    return any(w[:5] in own for w in re.findall(r"[a-z]{4,}", talk.said.lower()))


def player_act(said: str) -> str | None:
    """`player_gesture`, else "act" for any other act written as one ("*sits down*")."""
    found = player_gesture(said)
    if found is None and _WRITTEN.match(said) and "?" not in said:
        return "act"
    return found


def _back(gesture: str, talk: PlayerLine) -> Gesture:
    """The gesture the NPC answers one with: a wave for a wave, a nod for a bow, a hand or a
    smile, and for a hug its mood's: a laugh, or a shake of the head from a gruff one."""
    if gesture == "wave":
        return WAVE
    mood = talk.mood
    if gesture == "hug" and mood is GRUFF:
        return SHAKE_HEAD
    if gesture in ("hug", "clap") and LAUGH in mood.gestures:
        return LAUGH
    return NOD


def cold(talk: PlayerLine) -> bool:
    """Whether the NPC is cross with, or wary of, the player."""
    sensed = talk.sensed
    feeling = next((f for f in sensed.feelings if f.other_id == "player"), None) if sensed else None
    return feeling is not None and feeling.word in _COLD


def hello_again(talk: PlayerLine, speak: Speaker) -> str:
    """Its hello to a player it has met: a cold one when it is cross with them."""
    return speak.text("greet_cold" if cold(talk) else "greet_again")


def first_greeting(talk: PlayerLine, speak: Speaker) -> str:
    """The NPC's first hello to the player: the map maker's greeting, else its mood's."""
    return talk.npc.greeting or speak.text("greet_first")


def passing_hello(talk: PlayerLine, intent: Intent) -> bool:
    """Whether a first hello names a place only in passing ("Evening! Busy night in the
    taproom?", "hey! been down the pit today?"): met with the first hello, not the place
    described; not when what follows asks where it is, what it is, or who keeps it."""
    if not talk.first_meeting or intent.kind is not Kind.PLACE or intent.sub:
        return False
    line = norm(talk.said)
    hello = HELLO.match(line)
    rest = line[hello.end() :] if hello else ""
    return bool(rest) and not (asks_the_way(rest) or _ASKS_OF_IT.search(rest))


_ASKS_OF_IT = re.compile(r"\b(?:what|tell me|describe|who|how|why|show me|take me|can i|may i)\b")


def gestured(talk: PlayerLine, speak: Speaker) -> list[Step] | None:
    """The NPC's answer to a gesture the player makes at it: the gesture back and a line
    on it (on a first meeting a wave or a hand is met with its first hello); None when the
    line makes no gesture."""
    gesture = player_act(talk.said)
    if gesture is None:
        return None
    back = EMOTE.call(name=_back(gesture, talk).name)
    if talk.first_meeting and gesture in ("wave", "hand", "bow") and talk.npc.greeting:
        return [back, say(talk.npc.greeting, "player")]
    return [back, speak.line(f"met_{gesture}")]


def praised_or_insulted(talk: PlayerLine, intent: Intent, speak: Speaker) -> Step | None:
    """The NPC's answer to praise or an insult aimed at it ("you're a cheat"), in its
    mood's words; None when the line is neither, or asks something besides."""
    if _BEST_ME.search(talk.said):  # "are you really the best shot around?"
        return _best(talk, speak)
    felt = read_feeling(talk.said)
    table = _FELT.get(felt[1]) if felt is not None else None
    statement = "?" not in talk.said and intent.kind not in _ASKS_DONE
    if (
        statement
        and not _NOT.search(talk.said)
        and ((table == "praised" and _AT_ME.search(talk.said)) or _OWN_PRAISE.search(talk.said))
    ):  # "you keep a very tidy hall", "your cloth is beautiful!": praise of its own
        return speak.line("praised")
    own = statement and intent.kind not in _NOT_PRAISE and not _NOT.search(talk.said)
    if own and (_PRAISE_FIRST.search(talk.said) or _PRAISE_SHORT.match(talk.said)):
        return speak.line("praised")  # "fine saddles you make", "nice hat!"
    scorn = table == "insulted" or _SCORN.search(talk.said)
    bid = _BID_FIRST.match(talk.said)  # "sell me eggs cheap, they're small" haggles
    if own and scorn and not bid and (_OWN.search(talk.said) or _of_its_own(talk)):
        return speak.line("insulted")  # "your baskets are ugly", whatever place it names
    if table is None or intent.kind not in _SOCIAL or not _AT_ME.search(talk.said):
        return None
    if _ASKS.match(talk.said):  # "do you like your work?" asks; "you're kind, eh?" does not
        return None
    return speak.line(table)


_BID_FIRST = re.compile(r"\W*(?:\w+, )?(?:please )?(?:sell|give|let|lend|make|get)\b", re.I)


# "Are you really the best shot around?": a boaster says so, with its boast; anyone else
# says less.
_BEST_ME = re.compile(
    r"\bare you (?:really |truly |honestly )?(?:the )?(?:best|finest|greatest|fastest|"
    r"strongest|quickest)\b",
    re.I,
)
_BOASTS = re.compile(
    r"\bboast|\bbrag|\bvain\b|\bshow(?:s|ing)?[- ]off|\bcocky\b|\bswagger|\bconceited\b",
    re.I,
)


def _best(talk: PlayerLine, speak: Speaker) -> Step:
    npc = talk.npc
    if not _BOASTS.search(temperament(npc.persona)):
        return speak.line("best_me_no")
    yes = speak.text("best_me_yes")
    boast = next((b.what for b in npc.sheet.beliefs if re.match(r"I\b", b.what)), "")
    said = [p for p in claim_phrases(boast) if p.startswith("I ")]  # not "An arrow. I..."
    told = in_own_words(lambda p: f"{yes} {p}!", said, npc.persona, npc.name)
    return say(told if boast and told else yes, "player")


# "The chapel bell woke me at dawn. Was that you?": its own doing, or not.
_WAS_IT_YOU = re.compile(r"\b(?:was (?:that|it|this) you|were you the one)\b", re.I)


def was_it_me(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """Whether what the player tells was the NPC's doing: yes, with the deed of its
    persona the line touches ("Aye, that was me. I ring the chapel bell."), else not it;
    None when the line does not ask."""
    if not _WAS_IT_YOU.search(talk.said):
        return None
    npc = talk.npc
    asked = stems_of(talk.said) - stems_of("was that you were the one me")
    deeds = [c for c in clauses(npc.persona, npc.name) if DEED.match(c) and asked & stems_of(c)]
    if not deeds:
        return speak.line("not_me")
    yes = speak.text("was_me")
    told = in_own_words(lambda p: f"{yes} {p}.", shorter(deeds[0]), npc.persona, npc.name)
    return say(told or yes, "player")
