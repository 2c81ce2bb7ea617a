"""How the persona brain meets a piece of news the player tells it ("Did you hear? One of
Tamsin's goats ate Ilse's apron."): with a reaction in its mood that names what it is about,
and what it thinks of the villagers the news names, when its sheet holds an opinion of them.
"What do you make of that?" asks again of what was just told.
"""

from __future__ import annotations

import re

from game.npc.facts import PersonFact
from game.npc.life.news import told_news
from game.npc.scripted.claims import view_phrases
from game.npc.scripted.retell import in_own_words
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.skills import SkillCall
from game.npc.skills.base import MAX_SAY

__all__ = ["brawl", "denied", "harmed", "hearsay_asked", "reaction", "really"]

# A line that asks what the NPC makes of what was just said.
_BACK = re.compile(
    r"(?:\bwhat do you (?:make|think|say|reckon) (?:of|about|to) (?:that|it|this)|"
    r"\bwhat(?:'s| is) your (?:view|take)(?: on (?:that|it|this))?|\bhow about that|"
    r"\bwhat do you reckon|\bcan you believe (?:it|that)|\bfancy that|"
    r"\b(?:funny|mad|crazy|strange|odd|wild|awful),? (?:right|eh|huh|no)|"
    r"\b(?:isn't|ain't|wasn't) (?:that|it) (?:funny|awful|strange|odd|something))\W*$",
    re.I,
)

# What news names first when it names no villager: "the bridge got washed out", "there's
# a fox loose".
_THING = re.compile(
    r"(?:that\s+)?(?:there(?:'s| is| are|s)\s+)?((?:the|a|an|some|two|three)\s+[a-z]+)\b", re.I
)
# News of harm or loss, met as bad news whatever the mood.
_BAD = re.compile(
    r"\b(?:wash(?:ed)?|flood\w*|fire|burn\w*|dead|died|dying|hurt|sick|ill|broken|broke|lost|"
    r"stolen|stole|loose|storm|fell|fallen|collaps\w*|drown\w*|missing|attack\w*|thie\w*|"
    r"wolf|wolves|injured|killed)\b",
    re.I,
)
_TOLD_WORDS = 4  # the fewest words of a line the player told that "what of that?" asks of


def reaction(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC's reaction to news the player tells it, or to the news just told when the
    player asks what it makes of it; None when the line is neither."""
    told = told_news(talk.said)
    back = _BACK.search(talk.said)
    if not told and back:  # "Did you hear? ... What do you make of that?": the news
        told = told_news(talk.said[: back.start()].rstrip(" ,"))
    if not told and talk.earlier and _BACK.search(talk.said):
        before = talk.earlier[-1]  # news, or anything the player just told it
        told = told_news(before) or (
            before if "?" not in before and _TOLD_WORDS <= len(before.split()) else ""
        )
    if not told:
        return None
    named = [p for p in talk.npc.people if _names(p, told)]
    thing = _THING.match(told)
    echo = _echo(named, told) if named else (thing.group(1) if thing else "")
    sheet = talk.npc.sheet
    if named and echo and ("gossip" in sheet.dislikes or "idle talk" in sheet.refuses):
        return say(speak.text("news_gossip_no", echo=echo), "player")  # "Maud's mare? Gossip."
    if echo and _BAD.search(told):  # "the bridge got washed out": no laughing matter
        text = speak.text("news_react_bad", echo=echo)
    elif echo:
        text = speak.text("news_react", echo=echo)
    else:
        text = speak.text("news_react_none")
    view = _view_of(talk, speak, named)
    if view and len(text) + 1 + len(view) <= MAX_SAY:
        text = f"{text} {view}"
    return say(text, "player")


def _names(person: PersonFact, text: str) -> re.Match[str] | None:
    first = person.name.split()[0]
    return re.search(rf"\b{re.escape(first)}\b", text)


def _echo(named: list[PersonFact], told: str) -> str:
    """What the news is about, as a villager's name and the thing of theirs it names
    ("Tamsin's goats"), else the first name it names."""
    found = [m for p in named if (m := _names(p, told)) is not None]
    first = min(found, key=lambda m: m.start())
    whose = re.match(r"'s ([a-z]{2,15})\b", told[first.end() :])
    return f"{first.group(0)}'s {whose.group(1)}" if whose else first.group(0)


def _view_of(talk: PlayerLine, speak: Speaker, named: list[PersonFact]) -> str:
    """What the NPC thinks of the first villager the news names it has an opinion of
    ("Joss? A chancer, that one."), in its own words; "" when it has none."""
    npc = talk.npc
    for person in named:
        opinion = npc.sheet.opinions.get(person.npc_id, "")
        if not opinion:
            continue
        names = {person.name, *person.name.split(), "he", "she"}
        views = [v for v in view_phrases(opinion, names) if len(v.split()) >= 2]
        first = person.name.split()[0]

        def fill(view: str, who: str = first) -> str:
            return speak.text("opinion", who=who, view=view)

        text = in_own_words(fill, views, npc.persona, npc.name)
        if text and any(v in text for v in views):  # not cut to a word that says nothing
            return text
    return ""


# "really?", "are you sure?", "is that so?": what it just said, doubted.
_REALLY = re.compile(
    r"^\W*(?:oh\W+)?(?:really|seriously|truly|honestly|is that (?:so|true|right)|are you sure|"
    r"you sure|no way|for real)\W*$",
    re.I,
)


def really(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """Its word that what it just said stands, when the player doubts it ("really?");
    None when the line is no such doubt or nothing was said before."""
    if not talk.replies or not _REALLY.match(talk.said):
        return None
    return speak.line("really_yes")


# Harm the player owns up to: "I broke one of your jugs", "I've lost your ladder".
_HARMED = re.compile(
    # "I broke...", "my dog ate..."
    r"\b(?:I|my \w+)(?:'ve| have| has)? (?:just |accidentally |sort of )?(?:broke|broken|smashed|"
    r"cracked|spilled|spilt|lost|dropped|ruined|burnt|burned|tore|torn|knocked over|dented|bent|"
    r"ate|eaten|chewed|stole|stolen|trampled|muddied|soaked) "
    r"(?P<thing>(?:one of |some of |all of )?your(?: (?!(?:last|this|yesterday|today|by|when|"
    r"while|on|in|at|and|but|so|sorry|earlier)\b)\w+){1,3})",
    re.I,
)


def harmed(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC's answer to harm the player owns up to ("I broke one of your jugs. Sorry."):
    what was harmed, as its own ("One of my jugs?"), in its mood; None when none is told."""
    found = _HARMED.search(talk.said)
    if found is None or "?" in talk.said[found.end() :]:
        return None
    thing = re.sub(r"\byour\b", "my", found.group("thing").lower())
    return say(speak.text("harmed", thing=thing[:1].upper() + thing[1:]), "player")


# A blow the player says it will strike here: "I'm going to thump that tanner!", "I'll have
# it out with him right here".
_BRAWL = re.compile(
    r"\b(?:i(?:'m| am) (?:going to|gonna|about to)|i'll|i will|i'm gonna|let me at)\s+"
    r"(?:\w+\s+)?(?:thump|punch|hit|smack|clobber|wallop|thrash|fight|deck|flatten|sock|"
    r"kick|throttle|strangle|brain|bash|have it out with|knock \w+(?:'s)? (?:block|teeth|head)|"
    r"give \w+ (?:a|the) (?:thrashing|hiding|beating|good hiding|black eye|bloody nose))\b",
    re.I,
)


def brawl(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC's no to a fight the player says it will start ("I'm going to thump that
    tanner right here!"), in its mood; None when no blow is threatened."""
    if _BRAWL.search(talk.said) is None:
        return None
    return speak.line("brawl_no")


# A wrong the NPC is asked whether it does ("do you poison people?", as "Maud says you
# poison people. Is that true?" is asked): denied, unless its persona says it does.
_WRONGED = re.compile(
    r"^\W*(?:(?:do|did|have) you (?P<deed>(?:\w+ ){0,2}?(?:poison|steal|stole|cheat|lied? to|"
    r"tell lies|(?:kill|murder|curse)\w* (?:anyone|anybody|someone|people|folk|a man|men|him|"
    r"her|them)|hex|rob|swindle|short-change|overcharge|water\w* down)\w*(?: \w+){0,4})|"
    r"are you (?:really )?(?:a |an )?(?P<thing>thief|liar|cheat|witch|murderer|crook|spy|fraud|"
    r"poisoner|swindler))\W*$",
    re.I,
)


def denied(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC's denial of a wrong it is asked whether it does, in its mood; None when the
    line asks none, or its persona says it does it."""
    found = _WRONGED.match(talk.said)
    if found is None:
        return None
    deed = found.group("deed") or found.group("thing")
    verb = deed.split()[0].lower().rstrip("s")[:5]
    if re.search(rf"\b{re.escape(verb)}", talk.npc.persona, re.I):
        return None
    return say(speak.text("wrong_denied", deed=deed[:1].upper() + deed[1:]), "player")


# What is said of the NPC, heard from others or asked whether true: "people say you're
# scared of geese", "I heard you think giants set the stone. Is that right?", "is it true
# that you sleep with a lamp on?"
_HEARSAY = re.compile(
    r"^\W*(?:(?:so|and|but|oh|hey)\W+)?(?:(?:people|they|folk|folks|everyone|everybody|"
    r"someone|somebody|the others|word is|rumour (?:has it|is))"
    r"(?: say| says| said| tell me| told me| reckon)?|"
    r"(?-i:[A-Z][a-z]+) (?:says|said|told me|reckons)|"  # "Maud says you poison people"
    r"i(?:'ve)? heard|i hear|is it true|it'?s said|i'm told)\W*(?:that\s+)?"
    r"(?P<you>you(?:'re| are|'ve| have| can'?t| cannot| never| always| don'?t| do not| were|"
    r" was| will| can| could| did| had)?)\s+"
    r"(?P<rest>[^?.!]+)",
    re.I,
)
_ASKED_AS = {
    "you're": "are you",
    "you are": "are you",
    "you've": "have you",
    "you have": "have you",
    "you can't": "can you",
    "you cannot": "can you",
    "you never": "do you ever",
    "you always": "do you always",
    "you don't": "do you",
    "you do not": "do you",
    "you were": "were you",
    "you was": "were you",
    "you will": "will you",
    "you can": "can you",
    "you could": "could you",
    "you did": "did you",
    "you had": "had you",
}


def hearsay_asked(said: str) -> str:
    """A line telling what is said of the NPC, as the question it puts ("people say you're
    scared of geese" -> "are you scared of geese?", "I heard you think X" -> "do you think
    X?"); "" when the line tells nothing said of it."""
    found = _HEARSAY.search(said)
    if found is None:
        return ""
    you = " ".join(found.group("you").lower().split())
    return f"{_ASKED_AS.get(you, 'do you')} {found.group('rest').strip()}?"
