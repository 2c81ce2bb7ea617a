"""What the NPC says to a request or a yes/no ask its fears, refusals and prices do not
answer: the answer the persona gives, else a plain yes, no or maybe in the NPC's voice.

- "Come with me to the green": one whose persona keeps it at its post ("never leaves the
  shop", "no time for idle chatter") says no, and why; asked for later, it is an
  invitation, not a walk now.
- "Will you teach me...?", "can you carve me one?": a yes when it is the NPC's own work
  (and the price, when the persona states one for it), a maybe when it is not.
- "Do you want to go...?": a yes when it touches a like or a dream of its sheet.
- "Do you believe in...?" of a belief it does not hold: no denial, no work line, an open
  mind in its own voice. "Will you marry me?": a no, in its voice.
"""

from __future__ import annotations

import re

from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind, Named
from game.npc.reading.naming import FILLER, speaks_of_trade, stem, tokens
from game.npc.scripted.about import said_as, sheet_side, side_of
from game.npc.scripted.bargain import service_price
from game.npc.scripted.job import job_line, job_phrases
from game.npc.scripted.matching import touched
from game.npc.scripted.retell import DEED, clauses, in_own_words, shorter, words_of
from game.npc.scripted.speaker import PlayerLine, Speaker, said_by, say, then
from game.npc.scripted.willing import one_of, willing
from game.npc.skills import SkillCall

__all__ = ["DEED_SIDES", "ask_answer", "asks_deed", "later"]

# The player asks the NPC along, not the way: "come with me to...", "will you come...".
_ALONG = re.compile(
    r"\b(?:with|join) (?:me|us)\b|\b(?:will|would|can|could|won't|wouldn't) you come\b|"
    r"^(?:\w+,\s*)?(?:come|let's go)\b",
    re.I,
)
# A time later than now: a walk asked for then is an invitation.
_LATER = re.compile(
    r"\b(?:tonight|tomorrow|later|this (?:evening|afternoon)|after (?:work|supper|dinner|dark)|"
    r"at (?:dusk|sundown|noon|midday))\b",
    re.I,
)
# A refusal that keeps the NPC at its post: "leave the shop in daylight", "go far from home".
_LEAVING = re.compile(
    r"^(?:leaves?|quit|desert|abandon|stray|wander|go (?:far|out|away)|step (?:out|away)|"
    r"set foot)\b",
    re.I,
)
# A request put to the NPC ("will you...?", "can you...?", "do you want to...?"), the verb
# after it in `verb`.
_REQUEST = re.compile(
    r"\b(?:will|would|can|could|won't|wouldn't) you (?:please |ever |come and |help me )?"
    r"(?P<verb>[a-z]+)|\b(?:do|would) you (?:want|like|fancy|care) to (?P<want>[a-z]+)|"
    r"^(?:\w+,\s*)?fancy (?P<fancy>a|an|some|going|coming)\b",
    re.I,
)
# A request put as a deed and a tag: "ring the bell for me, will you?".
_TAGGED = re.compile(
    r"^(?:\w+,\s*)?(?:please )?(?P<verb>[a-z]+)\b[^?.!]*,\s*(?:will|would|won't|can|could) "
    r"you\s*\??\s*$",
    re.I,
)
# A thing asked for in trade: "would you trade me a hawk for my horse?".
_DEALT = re.compile(
    r"\b(?:trade|swap|sell|give|exchange)\s+(?:me|us)\s+(?:a|an|one of your|your|the)?\s*"
    r"(?P<thing>[a-z]+)",
    re.I,
)
# A request put bare: "make me a barrel", "Cuthbert, please mend us a tub".
_BARE = re.compile(
    r"^(?:\w+,\s*)?(?:please )?(?!(?:is|are|was|were|do|does|did|has|have|had|can|could|will|"
    r"would|should|shall|may|might|must|what|who|how|why|where|when|which|whose)\b)"
    r"(?P<verb>[a-z]+) (?:me|us|this|that|these|those|my|our)\b",
    re.I,
)
# Verbs of asking what it knows or thinks: a question, not a request.
_TELLING = frozenset(
    """tell say explain describe recommend suggest remind remember know hear see think guess
    imagine name point help believe be have ask mind talk speak give lend sell""".split()
)
# Proposals no villager takes from a stranger.
_SILLY = re.compile(
    r"\b(?:marry|wed|kiss|elope|run away with (?:me|us)|be my (?:wife|husband|sweetheart|love|"
    r"bride|groom))\b",
    re.I,
)
_WH = re.compile(r"\b(?:what|how|where|when|why|which|who|whose)\b", re.I)
_TEACH = re.compile(r"\b(?:teach|train|show me how|learn)\b", re.I)
# "Do you believe in ghosts?", "is it really true...?": a belief asked of.
_BELIEF = re.compile(
    r"\b(?:do|does) you (?:really |still |truly )?believe\b|\bis (?:there|it|that) (?:really|"
    r"truly)\b|\bare (?:they|there) (?:really )?real\b|"
    # a charm's power asked: "will this lucky shell keep me safe?"
    r"\b(?:will|would|does|can) (?:this|that|my|a) (?:lucky )?\w+ (?:keep|protect|bring|ward|save)"
    r"\b[^?]*\b(?:safe|luck|harm|evil|off|away)\b",
    re.I,
)


# What a deed asked is answered by from the sheet: "would you dance at the wedding?" is no
# word on a belief that names a wedding.
DEED_SIDES = ("fears", "dislikes", "likes")


def asks_deed(said: str) -> bool:
    """Whether a line asks the NPC to do something ("would you dance with me?"), not what
    it thinks or knows ("can you tell me...?", "what would you...?")."""
    request = _REQUEST.search(said)
    if request is None or _WH.search(said[: request.start()]) or _BELIEF.search(said):
        return False
    return (request.group("verb") or "").lower() not in _TELLING


def later(talk: PlayerLine, intent: Intent) -> bool:
    """Whether a walk asked of the NPC is asked for later ("come to the mill tonight"): an
    invitation to be answered with when it will be there."""
    target = intent.target
    return (
        intent.kind is Kind.GO
        and target is not None
        and target.kind is Named.PLACE
        and bool(_LATER.search(talk.said))
    )


# Hunger told, to one whose persona feeds anyone: "I'm starving and I've no money".
_HUNGRY = re.compile(
    r"\b(?:i'm|i am|we're|we are) (?:so |really |half )?(?:starving|hungry|famished|ravenous)\b",
    re.I,
)
_FEEDS = re.compile(r"\bfeeds (?:everyone|anyone|anybody|the hungry|all)\b", re.I)
# What it will be one day: "do you want to be an actor when you grow up?"
_GROWN_UP = re.compile(
    r"\b(?:want|wanna|going|gonna|hope|like) (?:to )?be\b[^.?!]*\b(?:grow up|grown up|one day|"
    r"some ?day|older)\b",
    re.I,
)


def ask_answer(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The NPC's answer to a request or a yes/no ask its sheet's stances left open, or None
    when the line asks nothing of the kind (or its persona answers it another way)."""
    if intent.kind is Kind.GO:
        return _along(talk, intent, speak)
    answered = willing(talk, intent, speak)  # "want some cake?", "will you dance with me?"
    if answered is not None:
        return answered
    if intent.kind not in (Kind.SELF, Kind.QUESTION, Kind.CHAT):
        return None
    said = talk.said
    if _SILLY.search(said):
        return speak.line("ask_silly")
    if _GROWN_UP.search(said) and talk.npc.sheet.likes:  # its dream is said by its side
        return None
    if _HUNGRY.search(said) and _FEEDS.search(talk.npc.persona):  # "I'm starving", to a feeder
        return speak.line("favour")
    request = _REQUEST.search(said) or _TAGGED.search(said) or _BARE.search(said)
    belief = _BELIEF.search(said)
    if belief and not request and not _WH.search(said[: belief.start()]):
        if sheet_side(talk, speak, any_item=False) is not None or side_of(talk):
            return None  # what it holds (or doubts) is said by its side
        return speak.line("ask_unsure")
    if request is None or _WH.search(said[: request.start()]):
        return None  # "what would you change?" asks what it thinks, not for anything
    if (request.group("verb") or "").lower() in _TELLING:  # "can you tell me...?"
        return None
    sheet = talk.npc.sheet
    if request.groupdict().get("want") and touched(said, sheet.likes):  # "want to see the sea?"
        return speak.line("ask_like")
    if _BELIEF.search(said):
        return None  # a belief it names: said as the sheet says it
    side = sheet_side(talk, speak, any_item=False, only=DEED_SIDES)
    if side is not None:  # a fear, a dislike or a like the deed asked touches
        return side
    price = service_price(said, talk.npc.persona)
    if price:  # "teach me the pipes?" of one who teaches them "for a penny a lesson"
        return speak.line("price", price=price)
    teach = _TEACH.search(said)
    teacher = re.search(
        r"\b(?:taught|teach(?:es|er)|school(?:mistress|master|teacher))\b", talk.npc.persona
    )
    if teach and (_grants(said[teach.end() :], talk) or teacher):  # "will happily show..."
        return speak.line("teach_yes") if "work" in speak.facts else _yes_work(talk, speak)
    dealt = _DEALT.search(said)  # "trade me a hawk?" of one who sells none: its own
    if dealt and not touched(said, sheet.wares) and _its_work(dealt.group("thing"), talk):
        return speak.line("own_thing", thing=dealt.group("thing"))
    # "show me how you swing a pick": what the player says it does, of its work or not
    shown = bool(teach and re.search(r"\bhow you\b", said, re.I))
    if (
        shown
        or _its_work(said[teach.end() :] if teach else said[request.start() :], talk)
        or (not teach and speaks_of_trade(said, talk.npc))
    ):
        if teach:
            return speak.line("teach_yes") if "work" in speak.facts else _yes_work(talk, speak)
        return _yes_work(talk, speak)
    if request.groupdict().get("want") or teach or intent.kind is not Kind.CHAT:
        return speak.line("ask_maybe")  # "teach me to fly": maybe
    return None


def _along(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """No to coming along, when the NPC's sheet keeps it at its post: a refusal to leave
    it, said, or no time (it will not stand about idle); None otherwise."""
    target = intent.target
    sheet = talk.npc.sheet
    if not _ALONG.search(talk.said) or later(talk, intent):
        return None
    if target is not None and target.name in (sheet.work, talk.npc.home):
        return None  # to its own place: it goes
    bound = next((r for r in sheet.refuses if _LEAVING.match(r)), "")
    if bound:
        return said_as(talk, speak, "refuse", "deed", shorter(bound))
    if "idle talk" in sheet.refuses:
        return speak.line("busy_no")
    return None


# A persona's sentence that gladly teaches or shows something: "the knack of splitting a
# stone he will happily show to anyone who asks", "she gladly teaches anyone her knots".
_GRANTS = re.compile(
    r"\b(?:happily|gladly|glad to|happy to|willing to|loves? to|always)\b[^.]*?\b(?:show|teach)|"
    r"\b(?:show|teach)(?:es|s)?\b[^.]*?\b(?:anyone|anybody|whoever|all comers)\b",
    re.I,
)


def _grants(asked_for: str, talk: PlayerLine) -> bool:
    """Whether a sentence of the persona gladly teaches or shows what is asked (a word alike
    in its first four letters)."""
    asked = {w[:4] for w in tokens(asked_for.lower()) if len(w) > 3 and w not in FILLER}
    return any(
        asked & {w[:4] for w in tokens(sentence.lower()) if len(w) > 3}
        for sentence in re.split(r"(?<=[.!?])\s+", talk.npc.persona)
        if _GRANTS.search(sentence)
    )


def _its_work(asked_for: str, talk: PlayerLine) -> bool:
    """Whether what is asked names the NPC's work by a verb or thing of it ("carve me a
    stone" of one who carves gravestones): words alike in their first four letters."""
    npc = talk.npc
    work = " ".join([npc.sheet.role, *job_phrases(npc), *npc.sheet.ways, *npc.sheet.wares])
    return bool(_alike(work) & _alike(asked_for))


def _alike(text: str) -> set[str]:
    """A text's telling words by their first four letters and by their stems: "digs" and
    "dig", "tubs" and "tub" are alike."""
    words = [w for w in tokens(text.lower()) if len(w) > 2 and w not in FILLER]
    return {w[:4] for w in words} | {stem(w) for w in words}


def _yes_work(talk: PlayerLine, speak: Speaker) -> SkillCall:
    """A yes, then what the NPC does: "Aye. I carve gravestones at the stone yard."."""
    yes = speak.text("ask_yes")
    npc = talk.npc
    asked = _alike(talk.said)
    deeds = [  # "ring the bell for me, will you?": "I ring the chapel bell."
        shorter(c) for c in clauses(npc.persona, npc.name) if DEED.match(c) and asked & _alike(c)
    ]
    keep = {w[:5] for w in words_of(talk.said)}
    options = [*one_of(deeds[0][0], talk.said), *deeds[0]] if deeds else []
    said = in_own_words(lambda p: f"{yes} {p}.", options, npc.persona, keep=keep)
    if said:
        return say(said, "player")
    job = said_by(job_line(talk, speak, "my_work"))
    return say(then(yes, job.text if job else ""), "player")
