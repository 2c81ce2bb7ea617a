"""What the player asked: the intent of one line, with the place or person it names.

The scripted brain reads a line the way a listener would, by families of words and short
patterns, never by whole sentences: a gesture asked for ("give us a wave", "nod if so"),
a walk ("come with me", "take me to the smithy"), a look, a wait, a question about a
place, a villager or the NPC itself, the player's name, a call back to something said
before, talk about prompts or machines, talk of things that do not exist in the village,
greetings, goodbyes and thanks. What is named is matched against the facts (the map's
places with their descriptions, the villagers with their roles and homes), never pasted
back: a reply speaks of the place or person found, or says it knows no such thing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from game.agent.facts import NpcFacts, PlaceFact, VillagerFact

__all__ = [
    "Intent",
    "Target",
    "find_target",
    "player_line",
    "read_intent",
    "recall",
    "told_name",
]

# Families of words: one idea, several ways to say it. `people` name who does it,
# `places` where it is done, `things` what it is about.
_FAMILIES: dict[str, dict[str, frozenset[str]]] = {
    "smith": {
        "people": frozenset({"smith", "blacksmith", "ironmonger"}),
        "places": frozenset({"smithy", "forge", "smithery", "ironworks"}),
        "things": frozenset(
            {"anvil", "iron", "horseshoe", "horseshoes", "blade", "blades", "sword", "hammer"}
            | {"mend", "mending", "repair", "repairs", "fix", "fixing", "weld", "nail", "nails"}
            | {"tool", "tools", "metal", "steel", "axe", "knife", "hinge", "wheel", "shoe"}
        ),
    },
    "bake": {
        "people": frozenset({"baker"}),
        "places": frozenset({"bakery", "bakehouse", "bakeshop", "oven"}),
        "things": frozenset(
            {"bread", "bun", "buns", "loaf", "loaves", "pastry", "pastries", "cake", "bakes"}
        ),
    },
    "fish": {
        "people": frozenset({"fisher", "fisherman", "fisherwoman", "angler", "fishwife"}),
        "places": frozenset({"jetty", "pier", "wharf"}),
        "things": frozenset({"fish", "fishing", "fishes", "rowboat", "boat", "herons", "heron"}),
    },
    "elder": {
        "people": frozenset(
            {"elder", "eldest", "oldest", "leader", "chief", "mayor", "headman", "headwoman"}
            | {"charge", "ruler", "wisest"}
        ),
        "places": frozenset(),
        "things": frozenset({"stories", "story", "history", "council", "advice", "peace"}),
    },
    "merchant": {
        "people": frozenset(
            {"merchant", "trader", "peddler", "pedlar", "shopkeeper", "salesman", "vendor"}
        ),
        "places": frozenset({"shop", "store", "stall", "stalls", "market", "marketplace"}),
        "things": frozenset({"wares", "trinket", "trinkets", "curiosities", "goods"}),
    },
    "child": {
        "people": frozenset({"child", "kid", "boy", "girl", "youngster", "lad", "lass"}),
        "places": frozenset(),
        "things": frozenset({"pebbles", "pebble", "dragon", "dragons", "adventurer"}),
    },
    "water": {
        "people": frozenset(),
        "places": frozenset({"lake", "river"}),
        "things": frozenset({"water", "drink", "swim", "swimming", "ducks"}),
    },
}
_FAMILY_OF: dict[str, tuple[str, str]] = {
    word: (family, part)
    for family, parts in _FAMILIES.items()
    for part, words in parts.items()
    for word in words
}
# Words that say nothing about which place or person is meant.
_FILLER = frozenset(
    """a an the to of in on at by for from with into onto over near by around about and or
    but so then now please pls quickly quick right away there here this that these those it
    its me us you your my our we i let lets let's can could would will just go going walk
    take show lead bring guide way where is are be was some one thing place spot somewhere
    friend mate sir madam again too also really very little bit together okay ok yes
    village town now today up down back way do does did how what which who whom
    whose want need like
    come came get got see look looks looking find out off all any kindly maybe perhaps
    if i'd i'm you're tell know""".split()
)
# Words that call a place; a line that names one the map lacks is about a place unknown.
_PLACE_NOUNS = frozenset(
    """tavern inn pub alehouse castle church temple chapel shrine tower mill windmill farm
    school library harbour harbor port station hospital bank palace mine cave caves
    lighthouse barn stable stables graveyard cemetery gate gates square hall townhall lake
    sea ocean mountain mountains forest woods wood field fields road city town house home
    hut cottage place shop store inn camp prison jail dungeon arena theatre theater museum
    zoo park docks garden bakery forge market well bridge beach pond orchard plaza dock
    street alley tree mansion manor keep fort fortress workshop studio cabin""".split()
)
# Place names that are also everyday words: only a place after one of these.
_AMBIGUOUS_PLACES = {"well": frozenset({"the", "old", "stone", "that", "this", "village", "a"})}

_COMPASS = {"north": "up", "south": "down", "east": "right", "west": "left"}
_DIRECTIONS = {**_COMPASS, "up": "up", "down": "down", "left": "left", "right": "right"}
# Titles go with a name but do not tell who is meant ("Elder Maren": Maren).
_TITLES = frozenset("elder old young little master mistress mister mr mrs miss sir lady".split())
# "what's", "it's": a word and "is", not someone's.
_NOT_OWNERS = frozenset(
    "what where who it that there here he she let how why when this name everything".split()
)


@dataclass(frozen=True)
class Target:
    """A place, villager, the player or the NPC itself, as the facts give it."""

    kind: str  # place, person, player, self
    name: str  # what the skills take: a place name, a villager's name, 'player'
    label: str  # how to speak of it: "the elder house", "Wren"
    about: str = ""  # a place's description, a villager's role
    home: str = ""  # a villager's home place name
    weak: bool = False  # found only by words of a description ("the apple trees")


@dataclass(frozen=True)
class Intent:
    """What one line asks of the NPC."""

    kind: str
    gesture: str | None = None  # wave, nod, shake_head, laugh, think
    target: Target | None = None
    direction: str | None = None  # up, down, left, right: a walk that way
    seconds: float = 0.0  # how long to wait
    sub: str = ""  # person/self questions: who, where, opinion, work, like, about, home
    name: str | None = None  # the name the player gave in this line
    words: tuple[str, ...] = field(default_factory=tuple)  # content words (recall)


# --- reading a line ---------------------------------------------------------------------


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return " ".join(text.lower().split())


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", _norm(text))


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in re.split(r"[.!?;:\n]+|,\s*(?:and|but|then)\s+", _norm(text)) if c]


def player_line(content: str) -> str | None:
    """The player's words in a user message as the context renders it (`Player says:
    \"\"\"...\"\"\"`), or None for other messages (world observations)."""
    match = re.search(r'Player says: """(.*)"""\s*$', content, re.S)
    return match.group(1) if match else None


# A request may open with an interjection, the NPC's name or a polite frame.
_OPENERS = (
    "hey|hi|hello|ok|okay|so|now|then|alright|all right|right|well|oh|please|go on|come on|"
    "listen|friend|mate|quick|and|but|sorry|excuse me|um|uh|er"
)
_POLITE = (
    r"(?:(?:(?:can|could|would|will|won't|wouldn't|can't|shall|should|may) (?:you|ya|u|we)"
    r"(?: please| just| maybe| now)?|please|would you mind|i(?: would|'d)? (?:want|need|like|love)"
    r" (?:you|ya) to|why don't you|why not|go ahead and|try to|do|just|let's|let us|you should|"
    r"you could|i dare you to|show me you can|how about you|kindly|quickly|now|you must|you need"
    r" to|could i ask you to|i'd love it if you|would you be so kind as to) )*"
)


def _request(clause: str, verbs: str, names: Iterable[str] = ()) -> re.Match[str] | None:
    """A clause that asks for `verbs` (a regex), after openers, the NPC's name, politeness."""
    who = "|".join(re.escape(n) for n in sorted({*names, *_TITLES}, key=len, reverse=True) if n)
    openers = f"{_OPENERS}|{who}"
    return re.match(rf"(?:(?:{openers})\b[, ]*)*{_POLITE}(?:{verbs})\b", clause)


def _negated(text: str, start: int) -> bool:
    before = text[max(0, start - 24) : start]
    return bool(
        re.search(r"\b(?:don't|dont|do not|never|stop|no need to|not|quit)\W+\w*\W*$", before)
    )


_GESTURES = (
    ("shake_head", r"\bshak(?:e|ing)(?: \w+)? heads?\b|\bhead ?shakes?\b"),
    ("wave", r"\bwav(?:e|ing)\b(?! (?:of|crash|lap))|\bwaves? (?:at|to|hello|goodbye|bye)\b"),
    ("nod", r"\bnod(?:s|ding|ded)?\b"),
    (
        "laugh",
        r"\blaugh|\bgiggle|\bchuckle|\bjoke|\bfunny\b|\bamuse me\b|\bcheer me up\b|"
        r"\bha(?:ha)+\b|\blol\b|\bjest\b|\bsomething silly\b",
    ),
    (
        "think",
        r"\bponder|\bmull\b|\bmull (?:it|that) over|\bcontemplate|\bhave a think\b|"
        r"\bthink (?:it|that|this) (?:over|through)\b|\bthink (?:about|on|over) (?:it|that|this)\b|"
        r"\bthink (?:hard|harder|carefully|deeply|a (?:moment|bit|while|little|second))\b|"
        r"\bgive (?:it|that|this) (?:some |a )?thought\b|\bthinking cap\b|\bthink of (?:a|an|"
        r"some)\b|"
        r"\bconsider (?:it|that|this)\b|\bsleep on it\b",
    ),
)
# Asking what the NPC thinks is a question, not a request to look thoughtful.
_OPINION = re.compile(
    r"\b(?:what|how) do (?:you|ya) (?:think|feel|reckon)\b|\bdo you think\b|"
    r"\byou think (?:of|about)\b|\bi think\b|\bthink so\b"
)


def _gesture(text: str, names: Iterable[str]) -> tuple[int, str] | None:
    found: list[tuple[int, str]] = []
    for name, pattern in _GESTURES:
        for match in re.finditer(pattern, text):
            if _negated(text, match.start()):
                continue
            if name == "think" and _OPINION.search(text):
                continue
            found.append((match.start(), name))
            break
    for clause in _clauses(text):  # "think!", "could you think for a bit"
        if _request(clause, r"think", names) and not _OPINION.search(clause):
            found.append((text.find(clause), "think"))
    return min(found) if found else None


# --- places and people ------------------------------------------------------------------


@dataclass(frozen=True)
class _Word:
    base: str
    owner: bool  # "wren's", "the blacksmith's"
    before: str  # the word before it


def _words(text: str) -> list[_Word]:
    out: list[_Word] = []
    previous = ""
    for token in _tokens(text):
        owner = token.endswith("'s") or token.endswith("s'")
        base = token[:-2] if token.endswith("'s") else token.rstrip("'")
        if base in _NOT_OWNERS:
            owner = False
        out.append(_Word(base, owner, previous))
        previous = base
    return out


def _stem(word: str) -> str:
    for end, repl in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            return word[: -len(end)] + repl
    return word


def _name_words(name: str) -> set[str]:
    return {w for w in _tokens(name.replace("_", " ")) if w}


def _families(words: Iterable[str], parts: tuple[str, ...]) -> set[str]:
    found = set()
    for word in words:
        for w in (word, _stem(word)):
            hit = _FAMILY_OF.get(w)
            if hit is not None and hit[1] in parts:
                found.add(hit[0])
    return found


def _place_label(place: PlaceFact) -> str:
    return "the " + place.name.replace("_", " ")


def _place_target(place: PlaceFact, weak: bool = False) -> Target:
    return Target("place", place.name, _place_label(place), place.description, weak=weak)


def _person_target(v: VillagerFact) -> Target:
    return Target("person", v.name, v.name, v.role, v.home)


def _villager_families(v: VillagerFact) -> set[str]:
    role = _tokens(v.role)
    return _families(role, ("people",)) | _families(_tokens(v.home.replace("_", " ")), ("places",))


def _possessed(who: str, npc: NpcFacts, home: str) -> PlaceFact | None:
    """The place that is someone's: its description says "Name's ...", else their home."""
    key = who.lower()
    for place in npc.places:
        if re.search(rf"\b{re.escape(key)}'s\b", _norm(place.description)):
            return place
    return next((p for p in npc.places if p.name == home), None)


def find_target(text: str, npc: NpcFacts) -> Target | None:
    """The place or person a piece of a line names, from the facts; None if none is."""
    # "where Wren lives", "where the baker works": their place.
    text = re.sub(
        r"\b([a-z]+) (?:lives|stays|sleeps|works|fishes|bakes|trades|lived)\b",
        r"\1's place",
        _norm(text),
    )
    words = _words(text)
    if not words:
        return None
    bases = [w.base for w in words]
    people = [*npc.villagers]
    me = VillagerFact(npc_id=npc.npc_id, name=npc.name, role=npc.persona, home=npc.home)
    # Someone's place: "Wren's place", "the blacksmith's", "your forge".
    for w in words:
        if not w.owner and w.base != "your":
            continue
        if w.base == "your":
            owner: VillagerFact | None = me
        else:
            owner = _villager_named(w.base, [*people, me]) or _villager_by_role(w.base, people)
        if owner is None:
            continue
        rest = bases[bases.index(w.base) + 1 :]
        named_place = _best_place(rest, npc, literal_only=True)
        if named_place is not None:
            return _place_target(named_place)
        place = _possessed(owner.name.split()[-1], npc, owner.home)
        if place is not None and (w.owner or _names_a_place(rest)):
            return _place_target(place)
    # A place named by its own name ("the bakery", "the elder's house") or by its kind.
    place = _best_place(bases, npc, literal_only=True, words=words)
    if place is not None:
        return _place_target(place)
    # Someone named, or someone by what they do ("the baker").
    for w in words:
        v = _villager_named(w.base, people)
        if v is not None:
            return _person_target(v)
        if w.base in _name_words(npc.name) - _TITLES or w.base == npc.npc_id:
            return Target("self", npc.name, npc.name, npc.persona, npc.home)
    for w in words:
        v = _villager_by_role(w.base, people)
        if v is not None:
            return _person_target(v)
        if _families([w.base], ("people",)) & _villager_families(me):
            return Target("self", npc.name, npc.name, npc.persona, npc.home)
    if "who" in bases:  # "who could mend my wheel?", "who sells bread?": by their trade
        for w in words:
            v = _villager_by_role(w.base, people, ("things",))
            if v is not None:
                return _person_target(v)
            if _families([w.base], ("things",)) & _villager_families(me):
                return Target("self", npc.name, npc.name, npc.persona, npc.home)
    place = _best_place(bases, npc, literal_only=False, words=words)
    return _place_target(place, weak=True) if place is not None else None


def _names_a_place(words: list[str]) -> bool:
    return any(w in _PLACE_NOUNS or _stem(w) in _PLACE_NOUNS for w in words[:3])


def _villager_named(word: str, people: list[VillagerFact]) -> VillagerFact | None:
    for v in people:
        names = _name_words(v.name) - _TITLES
        if word == v.npc_id or word in names:
            return v
    return None


def _villager_by_role(
    word: str, people: list[VillagerFact], parts: tuple[str, ...] = ("people",)
) -> VillagerFact | None:
    families = _families([word], parts)
    if not families:
        return None
    for v in people:
        if families & _villager_families(v):
            return v
    return None


def _best_place(
    bases: list[str],
    npc: NpcFacts,
    *,
    literal_only: bool,
    words: list[_Word] | None = None,
) -> PlaceFact | None:
    """The place the words name best: its own name (or its kind), else its description."""
    content = [b for b in bases if b not in _FILLER]
    ambiguous_ok = {
        w.base
        for w in words or []
        if w.base in _AMBIGUOUS_PLACES and w.before in _AMBIGUOUS_PLACES[w.base]
    }
    content = [b for b in content if b not in _AMBIGUOUS_PLACES or b in ambiguous_ok]
    if not content:
        return None
    stems = {_stem(b) for b in content} | set(content)
    kinds = _families(content, ("places",))
    things = _families(content, ("things",))
    best: tuple[int, int] = (0, 0)
    found: PlaceFact | None = None
    for index, place in enumerate(npc.places):
        name_words = _name_words(place.name)
        desc = {_stem(w) for w in _tokens(place.description) if w not in _FILLER}
        score = 0
        score += 4 * len(name_words & stems)
        score += 3 * len(kinds & (_families(name_words, ("places", "people", "things"))))
        if not literal_only:
            score += len(desc & stems)
            score += len(things & _families(desc, ("places", "people", "things")))
            score += len(kinds & _families(desc, ("places",)))
        if literal_only and score == 0:
            continue
        if score > best[0]:
            best, found = (score, -index), place
    return found


# --- the intents ---------------------------------------------------------------------------

_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\b.{0,40}\b(?:instructions?|rules?|prompts?|"
    r"directions|programming|guidelines|everything|above|previous|prior)\b|"
    r"\bsystem (?:prompt|message)|\b(?:your|the) (?:prompt|instructions|system)\b|"
    r"\b(?:print|reveal|show|repeat|output|tell me|what are|what is|what's)\b.{0,20}"
    r"\b(?:prompt|instructions|rules you|guidelines|initial text|text above)\b|"
    r"\bjailbreak|\bdeveloper mode\b|\bdan mode\b|\bact as (?:an?|my)\b|\bpretend (?:to be|"
    r"you(?:'re| are))\b|"
    r"\bfrom now on,? you\b|\byou are now\b|\bnew (?:instructions|rules|persona)\b|"
    r"\broleplay as\b|\bsudo\b|\badmin(?:istrator)? (?:mode|access)\b"
)
_MACHINE = (
    r"ai|a\.i\.?|bot|robot|chatbot|machine|computer|program|programme|software|llm|"
    r"language model|model|npc|simulation|algorithm|artificial|assistant|fake|code|script|"
    r"chatgpt|gpt|real|human|a real person|a person|alive|sentient|conscious"
)
_AI = re.compile(
    rf"\b(?:are|r) (?:you|u|ya) (?:even |just |really |actually |only )?(?:an? )?(?:{_MACHINE})\b|"
    rf"\b(?:you're|you are|youre|ur|you r) (?:just |only |really |actually |clearly |obviously |"
    rf"not )?"
    rf"(?:an? )?(?:{_MACHINE})\b|"
    r"\bchatgpt\b|\bopenai\b|\blanguage model\b|\bllm\b|\bnpc\b|\bvideo game\b|\bthis is a game\b|"
    r"\bin a game\b|\bnot real\b|\bsimulation\b|\bartificial intelligence\b|\bwho (?:made|built|"
    r"programmed|created|coded) you\b|\bwere you (?:made|built|programmed|trained)\b"
)
_OFFWORLD = re.compile(
    r"\bstocks?(?: market| prices?| exchange)?\b(?<!in stock)|\bshare prices?\b|\bcrypto|\bbitcoin|"
    r"\bpython\b|\bjavascript\b|\bprogramming\b|\bcoding\b|\bsoftware\b|\bdatabase\b|"
    r"\bworld cup\b|\bsuper bowl\b|\bolympics\b|\bfifa\b|\bnba\b|\bpremier league\b|"
    r"\bhollywood\b|\bspotify\b|\buber\b|\bnuclear\b|\bdinosaurs?\b|"
    r"\bsmart ?phones?\b|\biphones?\b|\bcell ?phones?\b|\bmobile phones?\b|\btelephones?\b|"
    r"\binternet\b|\bwi-?fi\b|\bonline\b|\bwebsites?\b|\be-?mails?\b|\bcomputers?\b|\blaptops?\b|"
    r"\btelevision\b|\btv\b|\bnetflix\b|\byoutube\b|\bgoogle\b|\bfacebook\b|\btwitter\b|"
    r"\binstagram\b|\btiktok\b|\bsocial media\b|\bcars?\b|\bairplanes?\b|\baeroplanes?\b|"
    r"\belectricity\b|\bvideo games?\b|\bmovies?\b|\bcinema\b|\bselfies?\b|\bapps?\b|\bemails?\b|"
    r"\bpresident\b|\belections?\b|\bnew york\b|\blondon\b|\bamerica\b|\bparis\b|\bdollars?\b|"
    r"\beuros?\b|\bnasdaq\b|\bspaceships?\b|\brockets?\b|\bsatellites?\b|\bpizza\b|\bhamburgers?\b|"
    r"\bcoffee shop\b|\bsupermarket\b|\bplaystation\b|\bxbox\b|\bnintendo\b|\bemoji|\bgps\b|"
    r"\btext me\b|\bcharger\b|\bbattery\b|\bbatteries\b|\bwebsite\b|\bpodcasts?\b|\bblockchain\b"
)
_NAME_TOLD = re.compile(
    r"\b(?:my name is|my name's|name's|names|i am called|i'm called|im called|call me|"
    r"they call me|people call me|you can call me|the name is|the name's|i go by)\s+"
    r"([a-z][a-z'-]{1,20})\b",
    re.I,
)
_IAM = re.compile(r"\b(?i:i am|i'm|im|it's|its|this is|i be)\s+([A-Z][a-zA-Z'-]{1,20})\b")
_NOT_NAMES = frozenset(
    """not so just here there fine good ok okay sorry new lost looking going back home sure
    glad happy sad tired hungry thirsty a an the very really from in on at with your you
    just only also still well ready done afraid scared bored busy curious interested
    i me what that this it nobody somebody someone nothing tobin hungry cold hot""".split()
)
_ASK_NAME = re.compile(
    r"\b(?:what(?:'s| is| was) my name|who am i\b|do you (?:remember|know|recall) (?:my name|"
    r"who i am)|"
    r"remember my name|say my name|my name again|what did i say my name|what am i called|"
    r"what do (?:you|people) call me|you know my name|tell me my name|what name did i)"
)
_RECALL = re.compile(
    r"\bwhat (?:did|do|have|had) i (?:just )?(?:say|said|tell|told|mention|mentioned|ask|asked)\b|"
    r"\bwhat was i (?:looking|searching|after|saying)\b|\bwhat am i (?:looking|searching) for\b|"
    r"\b(?:do|can) you (?:remember|recall)\b|\bremember what\b|\bwhat i (?:said|told you|"
    r"mentioned)\b|"
    r"\bdid i (?:say|tell you|mention)\b|\bwhat was it i\b|\bremind me what\b"
)
_BYE = re.compile(
    r"\b(?:good ?bye|bye|farewell|see (?:you|ya)|see you later|later,? then|good night|goodnight|"
    r"gotta go|got to go|have to go|must go|need to go|i'm off|i am off|i'm leaving|i am leaving|"
    r"take care|so long|cheerio|until next time|catch you later|be going now|be off now|"
    r"must be going|adieu|ciao|ta-ta|i'll be going)\b"
)
_HELLO = re.compile(
    r"^(?:(?:oh|well|and|why) )?(?:hello|hi|hiya|hey|heya|howdy|greetings|good (?:morning|"
    r"afternoon|"
    r"evening|day)|morning|evening|afternoon|yo|hail|well met|salutations|ahoy|g'day|hullo|hallo)\b"
)
_THANKS = re.compile(
    r"\b(?:thanks|thank you|thank ye|thankyou|thx|cheers|much obliged|appreciate it|"
    r"i appreciate|ta)\b"
)
_HOW_ARE_YOU = re.compile(
    r"\bhow (?:are|r) (?:you|u|ya)\b|\bhow(?:'s| is) (?:it going|life|things|your day|business|"
    r"work|the day)\b|\bhow do you do\b|\bhow have you been\b|\bwhat's up\b|\bwhats up\b|"
    r"\bwhat's new\b|\bhow goes it\b|\bhow are things\b|\bare you (?:ok|okay|well|alright|"
    r"all right)\b|"
    r"\bhow(?:'s| is) everything\b|\bhow you doing\b|\bhow are you doing\b|\byou (?:ok|okay|"
    r"alright)\b"
)
_QUESTION = re.compile(
    r"\?|^(?:who|what|where|when|why|how|which|is|are|do|does|did|can|could|would|will|have|"
    r"has|describe|know)\b"
)
_SELF = (
    (
        "who",
        r"\bwho (?:are|r) (?:you|u|ya)\b|\bwhat(?:'s| is) your name\b|\bwhat are you called\b|"
        r"\byour name\b|\bwho might you be\b|\bintroduce yourself\b|\bwho's this\b|"
        r"\bwho (?:is|am i) (?:this|talking)\b|\band you are\b|\bwhat do i call you\b|"
        r"\bwho are ya\b|\bwhat should i call you\b|\band you\?|\bwhat about you\b",
    ),
    (
        "home",
        r"\bwhere do you (?:live|stay|sleep|work)\b|\bwhere(?:'s| is) your (?:home|house|place|"
        r"shop|workshop|cottage|hut)\b|\bwhere are you from\b|\bwhere can i find you\b",
    ),
    (
        "like",
        r"\bdo you (?:like|enjoy|love|hate|mind|miss)\b|\bare you (?:happy|content|lonely|sad|"
        r"tired|bored|busy)\b|\bwhat do you (?:like|love|enjoy|want|dream|wish|hope|fear|worry)\b|"
        r"\bfavou?rite\b|\bhobb(?:y|ies)\b|\bfor fun\b|\bwhat makes you\b|\bwhat worries you\b|"
        r"\bwhat are you afraid\b|\bdo you have (?:a |any )?(?:family|friends|dreams)\b|"
        r"\bwhat's (?:the )?best (?:part|thing)\b|\bis it (?:hard|fun|good|nice)\b",
    ),
    (
        "work",
        r"\bwhat do you do\b|\byour (?:job|work|trade|craft|business|occupation|profession)\b|"
        r"\bwhat(?:'s| is) your (?:job|work|trade)\b|\bhow do you (?:make a living|earn)\b|"
        r"\bwhat are you doing\b|\bwhat(?:'re| are) you up to\b|\bwhat do you sell\b|"
        r"\bwhat do you make\b|\bwhat (?:work|job) do you\b|\bdo you work\b|"
        r"\bwhat do you do (?:here|all day|for a living)\b|\bwhat have you got\b|"
        r"\bwhat\b.{0,20}\byou do\b|\byou do all day\b|\bhow do you spend\b",
    ),
    (
        "about",
        r"\babout yourself\b|\babout you\b|\byour (?:story|life|past|family|day)\b|"
        r"\bhow long have you\b|\bwhat are you like\b|\bwho are you really\b|\btell me about you\b|"
        r"\bwhat kind of (?:person|man|woman)\b|\bhave you (?:always|ever)\b|\bare you (?:from|"
        r"new)\b|\b(?:your|yours)\b.{0,40}\bcome from\b|\bwhere did you (?:get|find|learn)\b|"
        r"\bwhy (?:are|do) you\b|\bhow did you (?:come|get|become|end up)\b",
    ),
)
_VILLAGE = re.compile(
    r"\b(?:tell me about|what(?:'s| is)|describe|what's it like in|how(?:'s| is)|what can i do in|"
    r"what is there (?:to do|to see)? ?in|show me) (?:this|the|your) (?:village|town|place)\b|"
    r"\bwhat is there to (?:do|see)\b|\bwhat(?:'s| is) (?:there )?(?:around|in) here\b|"
    r"\bwhere am i\b|\bwhat places\b|\bwhat(?:'s| is) (?:this|the) (?:village|town|"
    r"place) (?:called|like)\b"
)
_SEEK = re.compile(
    r"\b(?:i'm|i am|im|we're|we are) (?:looking|searching|hunting) for\b|\bhave you seen\b|"
    r"\bi(?:'ve| have)? lost\b|\bi can't find\b|\bi cannot find\b|\bi need to find\b"
)
_SAD = re.compile(
    r"\b(?:i'm|i am|im|i feel|feeling|i've been) (?:so |very |really |a bit |kind of )?(?:sad|"
    r"lonely|"
    r"tired|exhausted|scared|afraid|frightened|worried|upset|miserable|unhappy|down|lost|hungry|"
    r"cold|sick|ill|hurt|bored|homesick|angry)\b|\bbad day\b|\bi miss\b"
)
_GLAD = re.compile(
    r"\b(?:i'm|i am|im|i feel|feeling) (?:so |very |really |a bit )?(?:happy|glad|great|excited|"
    r"wonderful|good|fine|well|grand|cheerful|lucky)\b|\bgood day\b|\bwhat a (?:lovely|nice|"
    r"beautiful|great) day\b|\bi love (?:it|this|your) (?:here|village|place)\b"
)
_PERSON_SUB = (
    ("where", r"\bwhere\b|\bfind\b|\bsee (?:him|her|them)\b|\blives?\b|\blook for\b|\bmeet\b"),
    (
        "opinion",
        r"\bthink\b|\bfeel\b|\bopinion\b|\blike\b|\bmake of\b|\bget along\b|\btrust\b|\bfriends?\b|"
        r"\breckon\b|\bnice\b|\bkind\b|\bgood\b|\bmean\b|\bview\b|\bhow is\b|\bhow's\b|"
        r"\bthoughts\b",
    ),
)

_FOLLOW = (
    r"follow(?: me| us|ing me)?|come (?:with|along with) (?:me|us)|come along|come with|"
    r"walk with (?:me|us)|join (?:me|us)|tag along|accompany (?:me|us)|stick with (?:me|us)|"
    r"keep up|come here|come over(?: here)?|come closer|over here|this way|stay close|"
    r"stay with (?:me|us)|come on over|let's go together|let's walk|let's go|let us go|"
    r"shall we go|we should go|walk beside me|after me|on me|"
    r"come(?: on)? and (?:walk|come|stroll|wander|go)(?: with (?:me|us)| along| together)?|"
    r"keep me company|walk a while with (?:me|us)|take a walk with (?:me|us)"
)
_GO = (
    r"go(?: over| back| down| up| on)?(?: to| towards?| into| in)|go(?! on\b)|"
    r"(?:pop|nip|dash|hop|swing|skip|race|rush|march|trot|jog|zip|scoot|get)"
    r"(?: over| down| up| across| round| along| back)?(?: to| by)|"
    r"head(?: over| back)?(?: to|"
    r" towards?| for| over)?|walk(?: over| back)?(?: to| towards?)?|run(?: over)?(?: to)?|"
    r"step(?: to)?|take (?:me|us)(?: to| over to| back to)?|bring (?:me|us)(?: to)?|"
    r"lead (?:me|us)(?: to)?|lead the way(?: to)?|lead on|show (?:me|us) around|"
    r"show (?:me|us)(?: the way)?(?: to| where)?|guide (?:me|us)(?: to)?|walk (?:me|us)(?: to)?|"
    r"visit|meet (?:me|us) (?:at|by|in)|get (?:me|us) to|point (?:me|us) to|"
    r"escort (?:me|us)(?: to)?|come (?:to|over to)|direct (?:me|us) to|move(?: to)?|travel to|"
    r"get over to|give (?:me|us) a tour|wander(?: over)?(?: to)?|stroll(?: over)?(?: to)?|"
    r"hurry(?: over)?(?: to)?"
)
_LOOK = (
    r"look(?: over)?(?: at| around| about| over there| there| here| up| down| left| right|"
    r" out| behind you)?|have a look(?: at| around)?|take a look(?: at| around)?|"
    r"check out|check|see (?:that|this|the|over)|observe|watch|glance(?: at)?|peek(?: at)?|"
    r"turn around|inspect|examine|give (?:it|that) a look|gaze(?: at)?|stare(?: at)?"
)
_SEE = re.compile(
    r"\bwhat (?:do|can) you see\b|\bwhat(?:'s| is) (?:over )?there\b|\bdo you see\b|"
    r"\bcan you see\b|\bwhat are you looking at\b"
)
_WAIT = (
    r"wait(?: here| there| a (?:moment|minute|second|sec|bit|while|mo)| for me| up| right there)?|"
    r"hold on|hold up|hang on|hang about|one (?:moment|minute|second|sec|mo)|"
    r"just a (?:moment|minute|second|sec|mo)|a moment|stay(?: here| there| put| right there|"
    r" where you are)?|don't move|do not move|give me a (?:moment|minute|second|sec)|"
    r"be right back|brb|stop right there|stop there|pause|halt|freeze|stand still|remain here|"
    r"sit tight|stand by|take a break|rest a moment|stop for a (?:moment|minute|bit)|"
    r"hold still|stay still|keep still|await me"
)


def read_intent(text: str, npc: NpcFacts) -> Intent:
    """What the line asks of the NPC, and the place or person it names, from the facts."""
    line = _norm(text)
    names = {*(_name_words(npc.name) - _TITLES), npc.npc_id.lower()}
    name = told_name(text, npc)
    words = tuple(w for w in _tokens(line) if w not in _FILLER)
    if not line.strip(" .!?,"):
        return Intent("chat")
    if _INJECTION.search(line):
        return Intent("injection")
    if _AI.search(line):
        return Intent("ai")
    if _ASK_NAME.search(line):
        return Intent("ask_name", name=name)
    if _RECALL.search(line):
        return Intent("recall", words=words)
    action = _action(line, npc, names)
    if action is not None:
        return replace(action, name=name)
    if _BYE.search(line):
        return Intent("bye", name=name)
    if _OFFWORLD.search(line):
        return Intent("offworld", name=name)
    if name is not None:
        return Intent("tell_name", name=name, words=words)
    if _VILLAGE.search(line):
        return Intent("village")
    question = bool(_QUESTION.search(line)) or bool(re.search(r"\btell me (?:about|of)\b", line))
    target = find_target(_without_greeting(line), npc)
    self_sub = next((sub for sub, pattern in _SELF if re.search(pattern, line)), None)
    if target is not None and target.kind == "self":
        # "Tobin, ..." only calls the NPC; "are you the baker?" asks about it.
        if self_sub is None and question and not _addressed(line, names):
            if re.search(r"\bwhere\b|\bfind\b", line):
                self_sub = "home"
            else:
                self_sub = "who" if set(_tokens(line)) & names else "work"
        target = None
    if _SEEK.search(line):  # "I'm looking for Wren", "have you seen my goat?"
        if target is not None and target.kind == "person":
            return Intent("person", target=target, sub="where")
        if target is not None and not target.weak:
            return Intent("place", target=target)
        return Intent("seek")
    if target is not None and not target.weak and (question or _short(line)):
        return _about(target, line)
    if self_sub is not None:
        return Intent("self", sub=self_sub)
    if _HOW_ARE_YOU.search(line):
        return Intent("how")
    if question and _asks_where(line):
        return Intent("unknown_place")
    if target is not None and (_SEEKING.search(line) or _short(line)):
        return _about(target, line)  # "where can I get a drink?": the well, by its description
    if _HELLO.search(line):
        return Intent("greet")
    if _THANKS.search(line):
        return Intent("thanks")
    if target is not None and not target.weak:
        return _about(target, line)
    if not question and _SAD.search(line):
        return Intent("sad")
    if not question and _GLAD.search(line):
        return Intent("glad")
    return Intent("question" if question else "chat", words=words)


_SEEKING = re.compile(
    r"\b(?:where|what|which|is there|are there|tell me about|know (?:of|about)|how do i get|"
    r"find|get|buy|see)\b"
)


def _about(target: Target, line: str) -> Intent:
    if target.kind == "person":
        sub = next((s for s, p in _PERSON_SUB if re.search(p, line)), "who")
        return Intent("person", target=target, sub=sub)
    return Intent("place", target=target)


def _addressed(line: str, names: set[str]) -> bool:
    """The NPC's name only calls it: "Tobin, ...", "..., Tobin?", "Elder, ..."."""
    who = "|".join(re.escape(n) for n in {*names, *_TITLES} if n)
    return bool(re.search(rf"^(?:\w+ )?(?:{who})\b\s*,|,\s*(?:{who})\s*[.!?]*$", line))


def _without_greeting(line: str) -> str:
    return _HELLO.sub("", line).strip(" ,!")


def _short(line: str) -> bool:
    """A line that is little more than the name of a place or person ("The forge?")."""
    return len(_tokens(line)) <= 4


def _asks_where(line: str) -> bool:
    """A question for a place the map lacks ("is there a tavern?", "where is the castle?")."""
    if re.search(
        r"\bwhere(?:'s| is| are| can| do| would)\b|\bis there (?:a|an|any)\b|"
        r"\bare there any\b|\bhow do i get to\b|\bway to\b|\bdirections to\b",
        line,
    ):
        return any(w in _PLACE_NOUNS or _stem(w) in _PLACE_NOUNS for w in _tokens(line))
    return False


def _action(line: str, npc: NpcFacts, names: set[str]) -> Intent | None:
    """A gesture, a walk, a look or a wait asked for: the first one asked, if any."""
    found: list[tuple[int, Intent]] = []
    gesture = _gesture(line, names)
    if gesture is not None:
        found.append((gesture[0], Intent("gesture", gesture=gesture[1])))
    offset = 0
    for clause in _clauses(line):
        at = line.find(clause, offset)
        offset = max(offset, at)
        walk = _walk(clause, npc, names)
        if walk is not None:
            found.append((at, walk))
            continue
        look = _request(clause, _LOOK, names)
        if look is not None and not re.search(r"\blook(?:s|ing)? like\b|\bsee you\b", clause):
            rest = clause[look.end() :]
            target = find_target(rest, npc) if rest.strip() else None
            if re.match(r"\s*(?:at )?(?:me|us)\b", rest):
                target = Target("player", "player", "you")
            found.append((at, Intent("look", target=target)))
            continue
        if _SEE.search(clause):
            found.append((at, Intent("look")))
            continue
        wait = _request(clause, _WAIT, names)
        if wait is not None and _only_wait(line[at:], wait.end()):
            found.append((at, Intent("wait", seconds=_seconds(clause))))
    if not found:
        return None
    # The first thing asked; a walk to a place not found only if nothing else was asked.
    return min(found, key=lambda f: (f[1].sub == "unknown", f[0]))[1]


def _only_wait(rest_of_line: str, end: int) -> bool:
    """ "Wait, what did you say?" is an interjection; "wait here" or "hold on" are not."""
    rest = rest_of_line[end:].strip(" ,.!")
    if not rest:
        return True
    return not re.match(r"(?:who|what|where|why|how|is|are|do|did|you|that|i)\b", rest)


def _seconds(clause: str) -> float:
    if re.search(r"\bminute|\bwhile\b|\bbit\b", clause):
        return 8.0
    if re.search(r"\bsecond|\bsec\b|\bmo\b|\bmoment\b", clause):
        return 3.0
    return 5.0


_PLAYER = Target("player", "player", "you")


def _walk(clause: str, npc: NpcFacts, names: set[str]) -> Intent | None:
    """A walk asked for: where to, or to the player, or a way; None if not asked."""
    if re.search(r"\bhow (?:do|can|would|should|might) (?:i|we|one)\b|\bwhere do you\b", clause):
        return None  # "how do I get to the well?" asks for directions: a question
    follow = _request(clause, _FOLLOW, names)
    go = _request(clause, _GO, names)
    match = follow or go
    if match is None:
        return None
    asked, rest = clause[: match.end()], clause[match.end() :]
    if re.search(r"^\s*(?:away|off|along|elsewhere)\b", rest) and follow is None:
        return Intent("go", sub="away")
    if re.search(r"\baround\b|\ba tour\b", asked + rest[:8]) and not re.search(r"\bto\b", rest):
        return Intent("go", target=find_target(rest, npc), sub="tour")
    direction = next((_DIRECTIONS[w] for w in _tokens(rest)[:3] if w in _DIRECTIONS), None)
    target = find_target(rest, npc)
    if direction is not None and target is None:
        return Intent("go", direction=direction)
    if re.search(r"\bhome\b", rest) and not re.search(r"\b(?:my|his|her|their|your)\b", rest):
        if re.search(r"\b(?:take|bring|walk|lead|guide|show) (?:me|us)\b", asked):
            return Intent("go", sub="unknown")  # the player's home is not on the map
        home = next((p for p in npc.places if p.name == npc.home), None)
        if home is not None:
            return Intent("go", target=_place_target(home))
    if target is not None and target.kind == "self":
        return Intent("go", target=_PLAYER, sub="self")
    if target is not None:
        return Intent("go", target=target)
    content = [w for w in _tokens(rest) if w not in _FILLER]
    if follow is not None and (not content or not re.search(r"\bto\b", rest)):
        return Intent("go", target=_PLAYER, sub="follow")
    if not content:
        if re.search(r"\blead (?:the way|on)\b|\btake (?:me|us)\b|\bshow (?:me|us)\b", asked):
            return Intent("go", target=_PLAYER, sub="follow")
        return None
    if re.search(r"\b(?:to|towards?|into|where|at)\b", asked + rest) or _names_a_place(content):
        return Intent("go", sub="unknown")
    if re.match(r"(?:(?:" + _OPENERS + r")\b[, ]*)*(?:go|head|visit|take)\b", clause):
        return Intent("go", sub="unknown")
    return None


def told_name(text: str, npc: NpcFacts | None = None) -> str | None:
    """The name the player gives for themself in this line ("I'm Quillon", "call me Q")."""
    text = text.replace("\u2019", "'")
    taken = set()
    if npc is not None:
        taken = {npc.npc_id, *_name_words(npc.name)}
        for v in npc.villagers:
            taken |= {v.npc_id, *_name_words(v.name)}
    for pattern in (_NAME_TOLD, _IAM):
        match = pattern.search(text)
        if match is None:
            continue
        word = match.group(1)
        if "'" in word or word.lower() in _NOT_NAMES or word.lower() in taken:
            continue
        return word[0].upper() + word[1:]
    return None


# --- memory: what the player said before ------------------------------------------------

_SWAP = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "am": "are",
    "i'm": "you're",
    "im": "you're",
    "i've": "you've",
    "i'd": "you'd",
    "i'll": "you'll",
    "we": "you",
    "our": "your",
    "us": "you",
    "was": "were",
}


def _swap(text: str) -> str:
    out = []
    for word in text.split():
        core = word.strip(",.!?;:\"'").lower()
        tail = word[len(word.rstrip(",.!?;:")) :]
        if core in _SWAP:
            out.append(_SWAP[core] + tail)
        elif core in ("you", "your", "yours", "you're"):
            swapped = {"you": "me", "your": "my", "yours": "mine", "you're": "I'm"}[core]
            out.append(swapped + tail)
        else:
            out.append(word)
    return " ".join(out)


def recall(question: str, earlier: list[str]) -> str | None:
    """What the player told before that the question points at, as the NPC would put it
    back ("I'm looking for my goat" -> "you're looking for your goat"); None if nothing."""
    asked = {_stem(w) for w in _tokens(question) if w not in _FILLER}
    asked -= {"say", "said", "tell", "told", "mention", "mentioned", "remember", "recall", "ask"}
    best: tuple[int, int] = (0, -1)
    found = ""
    for index, line in enumerate(earlier):
        for sentence in re.split(r"(?<=[.!?])\s+", line.strip()):
            if not sentence or sentence.endswith("?"):
                continue
            have = {_stem(w) for w in _tokens(sentence)}
            score = len(asked & have)
            if re.search(r"\b(?:i|i'm|im|my|we)\b", _norm(sentence)):
                score += 1
            if (score, index) > best:
                best, found = (score, index), sentence
    if not found:
        return None
    return _swap(found.strip().rstrip(".!"))
