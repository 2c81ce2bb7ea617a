"""Whether a line asks something of the NPC, and what: a request or an offer ("will you
sell me one?", "do you sell goats?"), not a question of what it does ("how many goats do
you look after?"); a bid of a deed it refuses, whatever its verb ("dye my cloak black"); a
price; a telling asked of one who will not tell ("tell me about the battle", and "where do
you go at night?" of one who will not say where it goes at night).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.npc.scripted.matching import names_thing
from game.npc.scripted.refused import NOT_BIDS, stems_asked

__all__ = [
    "PRICE",
    "TELLING",
    "TOLD",
    "asked_for",
    "asked_of",
    "asks_withheld",
    "bids_refused",
    "requests",
]

_REQUEST = re.compile(
    r"\b(?:will|would|can|could|won't|wouldn't|do|did) you\b|"
    r"\b(?:can|could|may|might) (?:i|we|(?:my|our) \w+)\b|"  # "can my boy leave early?"
    r"\b(?:mind|okay|ok|all right|alright) if (?:i|we)\b|"  # "mind if I go hunting?"
    r"\bany chance (?:i|we|you) (?:could|can|might)\b|"
    r"\bdeal\b|\blet(?:'s| us| me)\b|\bhow about\b|\bwant to\b|"
    r"\bfancy (?:a|an|some|[a-z]+ing)\b|"
    # a dare or a come-along: "race you to the top!", "bet you won't", "you in?"
    r"\brace (?:you|ya)\b|\bbet (?:you|ya)\b|\b(?:you|u) in\b\s*\?|"
    # what the player offers to give or take: "I'll pay double", "I'll take it off you"
    r"\b(?:i'll|i will) (?:just )?(?:give|pay|take|buy|have|come|sit|wait|bring|leave|put)\b|"
    # something asked for the player: "have you got a bed for me?", "got any room for us?"
    r"\b(?:have|has) you got\b[^.!?]*\bfor (?:me|us)\b|"
    r"\bgot (?:a|an|any|some) (?:\w+ )?\w+ for (?:me|us)\b|"
    # "one more pint!", "another jug": one more asked for
    r"(?:^|[.!?]\s+)(?:\w+, )?(?:one more|another)\b|"
    # what the player says it will do there: "I'm going to have it out with him here"
    r"\bi(?:'m| am) (?:going to|gonna|about to)\b|"
    # an invitation after what is there: "there's a wasps' nest out back, come and look!"
    r",\s+(?:come|go) (?:and|with|see|look|here|over|quick)\b|"
    # what the player says it needs of it: "I need something strong for a draught"
    r"^(?:\w+, )?i (?:need|want|must have)\b|"
    # what someone of the player's needs, or a telling asked: "my girl needs to cross"
    r"\b(?:i|we|(?:my|our) (?:\w+ )?\w+) (?:need|needs|want|wants|has|have|must) to\b|"
    r"(?:^|[.!?,]\s+)(?:\w+, )?(?:please |just |now )?(?:come|go|take|give|sell|lend|pour|rush|"
    r"hurry|bring|fetch|walk|join|show|hand|make|weave|sail|row|climb|teach|let|put|knock|fix|"
    r"mend|cut|help|build|carve|tan|brew|sew|bake|dig|carry|move|lift|shoe|thatch|chop)\b|"
    # any other verb bid of someone's things: "sweep my chimney", "open a hive for me"
    r"(?:^|[.!?]\s+)(?:\w+, )?(?:please |just |now )?(?!" + NOT_BIDS + r"\b)[a-z]+ "
    r"(?:(?:my|our|me|us|them|him|her|these|those)\b|(?:a|an|the|this|that) \w+(?: \w+){0,4} for "
    r"(?:me|us)\b)"
)

# "Tell me about the battle", "what goes into it?" ask a telling of one who will not tell.
TELLING = frozenset("talk tell speak discuss mention say reveal explain admit share".split())
TOLD = re.compile(
    r"\b(?:tell|talk|speak|say|secret|recipe|what(?:'s| is| goes| do you put)|how do you make|"
    r"what happened|what went on|what was it like|how did it go)\b"
)
# A telling refused of a question's own kind: "say where I go at night" withholds "where do
# you go at night?"
_WITHHELD = re.compile(r"^\w+ (?:\w+ )?(?P<wh>where|what|who|why|how|when|whose)\b")


def asked_of(refused: str, line: str) -> bool:
    """Whether a line may touch a refusal: one to tell only when a telling is asked, or
    the very question it will not answer."""
    verb = refused.split()[0]  # "admit it, you were wrong": its own verb asked
    return (
        verb not in TELLING
        or bool(TOLD.search(line) or re.search(rf"\b{verb}\b", line))
        or asks_withheld(refused, line)
    )


def asks_withheld(refused: str, line: str) -> bool:
    """Whether a line asks what a refusal to tell withholds: its question word and two words
    of its own ("where do you go at night?" of "say where I go at night in my boat")."""
    withheld = _WITHHELD.match(refused) if refused.split()[0] in TELLING else None
    if withheld is None or not re.search(rf"\b{withheld['wh']}\b", line):
        return False
    shared = stems_asked(line, False) & stems_asked(refused[withheld.end() :], False)
    return len(shared) >= 2  # "where do you keep your boat?" asks not where it goes at night


# "How many goats do you keep?": a question of what it does asks for nothing; one of a
# price ("how much do you want for one?") is an offer.
_WH = re.compile(r"\b(?:what|how|where|when|why|which|who|whose)\b[^.!?]*$")
PRICE = re.compile(
    r"\bhow much\b|\bprice\b|\b(?:want|take|charge|ask|sell \w+) for\b|\bcost|"
    r"\b(?:is|are)\b[^.?!]*\b(?:cheap|dear|expensive|pricey)\b\s*\?"
)


def requests(line: str) -> bool:
    """Whether a line puts a request or an offer ("will you sell me one?", "do you sell
    goats?"), not a question of what it does ("how many goats do you look after?")."""
    if PRICE.search(line):
        return bool(_REQUEST.search(line))
    for found in _REQUEST.finditer(line):
        plain = re.fullmatch(r"(?:do|did) you", found.group())
        if plain and _FEELS.match(line, found.end()) and not _YOU_WILL.search(line, found.end()):
            continue  # "do you enjoy your work?" asks what it feels, not for anything
        if plain and _WH.search(line[: found.start()]):
            continue
        if re.match(r"\W*(?:where|how)\b", line) and re.match(r"(?:can|could|may)", found.group()):
            continue  # "where can I water my horse?" asks the way, not for anything
        return True
    return False


def bids_refused(line: str, refusals: list[str]) -> bool:
    """Whether a line opens by bidding the deed of one of its refusals, whatever its verb:
    "dye my cloak black, please" of one who will not dye anything black."""
    bid = _BID.match(line)
    return bid is not None and any(r.split()[0].lower() == bid.group(1) for r in refusals)


# The verb a line opens with, after a name or a please: "Perrin, please dye...".
_BID = re.compile(r"(?:\w+, )?(?:please |now |just |go on,? )?([a-z]+)\b(?! (?:you|i|we)\b)")
# What it will do, asked by what it thinks: "do you reckon you'll be on the roof today?"
_YOU_WILL = re.compile(
    r"\byou(?:'ll| will|'d| would| can| could)\b|\byou(?:'re| are) (?:going|gonna)\b"
)
_FEELS = re.compile(
    r" (?:really |still |ever |truly )?(?:like|love|enjoy|mind|miss|fear|hate|prefer|believe|think|"
    r"have to|hear|see|reckon|suppose|expect|guess|figure|"
    r"feel|trust|know|remember|worry|dislike|wish|dream|get (?:scared|frightened|afraid|"
    r"nervous|lonely|tired|bored|cold|sad|angry))\b"
)


# "Have you got a bed for me?", "do you have any needles?": something asked for.
_HAVE_YOU = re.compile(
    r"\b(?:have you got|do you have|you got|got) (?P<thing>(?:a|an|any|some|anything|something)\b"
    r"[^.?!]*?)(?P<mine> for (?:me|us))?\s*\?",
    re.I,
)


def asked_for(said: str, wares: Sequence[str]) -> str:
    """A line asking whether the NPC has something for the player, or one of its wares, as
    the request it is ("have you got a bed for me?" -> "could I have a bed?"); "" when it
    asks no such thing ("do you have any children?" asks of its family)."""
    found = _HAVE_YOU.search(said)
    if found is None:
        return ""
    thing = found.group("thing")
    if not found.group("mine") and not any(names_thing(thing, ware) for ware in wares):
        return ""
    return f"{said[: found.start()]}could I have {thing}?{said[found.end() :]}"
