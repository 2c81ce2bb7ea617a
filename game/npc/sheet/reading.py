"""Reading a persona's sentences into a character sheet, once, when the village opens."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.limits import SHEET_ITEMS, SHEET_PHRASE_CHARS
from game.npc.reading.workplace import named_work, place_index
from game.npc.scripted.clauses import clauses_of, verb_led
from game.npc.scripted.first_person import first_person, own_object, present, unending
from game.npc.scripted.lines import sentences
from game.npc.sheet.model import COUNTER_REFUSALS, NOT_ALLOWED, Belief, CharacterSheet, Sureness
from game.npc.sheet.opinions import opinion, phrase
from game.npc.sheet.stated import stated
from game.npc.sheet.talking import TALK_WORDS, talks_of
from game.npc.sheet.turns import turned, unreasoned
from game.npc.sheet.ways import past_of, reasons_of, ways_of
from game.world.tiled import MapData, NpcSpawn

__all__ = ["read_sheet", "read_sheets", "trade_of"]

_PRONOUN = re.compile(r"^(?:she|he|they|it)\s+", re.I)

# A trade named: "is a cheerful, loud miller", "is Hollowtown's baker", "is the old
# lighthouse keeper". The noun is the last word before a clause goes on.
_TRADE = re.compile(
    r"(?:\b(?:is|am)|'m)\s+(?:[\w-]+(?:\s+years\s+old)?\s+and\s+)?"  # "is nine and the..."
    r"(?:(?:a|an|the)\s+|\w+'s\s+)([\w ,'-]+?)"
    r"(?=\s+(?:who|that|with|from|in|at|on|of|by|and|for|whose|everyone|everybody|anyone|"
    r"nobody|folk|people)\b|[.:;!?]|"
    r",\s*(?:who|that|with|and)\b|$)",
    re.I,
)
# Words for someone who keeps, makes or mends: the word before them is part of the trade
# ("tavern keeper", "clock maker").
_COMPOUND = re.compile(
    r"^(?:keeper|maker|master|mistress|man|woman|wife|hand|herd|wright|monger|sister|brother)$"
)
_NOT_TRADE = frozenset("person soul one sort kind type fellow man woman creature character".split())
# "Hob Garret, the cooper, builds barrels": the trade said beside the name.
_BESIDE_NAME = re.compile(r"^[A-Z][\w' -]*?,\s+(?:a|an|the)\s+([\w' -]+?),\s", re.I)
# A word that says how someone is, not what they do ("Quiet.", "cheerful", "careless").
_HOW = re.compile(r"(?:y|ful|ous|ive|ish|ed|less|ly)$")

_BELIEFS: tuple[tuple[Sureness, re.Pattern[str]], ...] = (
    (
        "certain",
        re.compile(
            r"\b(?:is|am) (?:quite |utterly |dead )?(?:certain|sure|convinced|positive)"
            r"(?: that)?\s+|"
            # "swears he saw a serpent", not "swears mildly ('blast it')": how it talks
            r"\bswears?(?!\s+(?:mildly|a lot|constantly|often|freely|loudly|like|under|at|too|"
            r"when|and|a blue streak)\b|\s*[(,])(?: that)?\s+|"
            r"\bknows for (?:certain|sure|a fact)(?: that)?\s+|"
            # "boasts that he will be the richest man in the county": sure of it, aloud
            r"\b(?:boasts?|brags?|insists?) that\s+",
            re.I,
        ),
    ),
    (
        "suspects",
        re.compile(
            r"\bsuspects?(?: that)?\s+|\bwonders? (?:if|whether)\s+|\bhalf[- ]believes?(?: that)?"
            r"\s+|\bis not sure(?: that| if| whether)?\s+",
            re.I,
        ),
    ),
    (
        "thinks",
        re.compile(
            # "thinks little of Pell" judges someone: a dislike, not a belief
            # "does not believe in luck" disbelieves; "holds them in contempt" judges
            r"(?<!not )(?<!n't )(?<!never )"
            r"\b(?:thinks?|believes?|reckons?|insists?|holds?|feels? sure)(?: that)?\s+"
            r"(?!of\b|(?:much|highly|well|little|poorly|ill|less) of\b|in (?:contempt|scorn)\b|"
            # "thinks a long time before he answers" is how it talks, no belief
            r"(?:a (?:long )?(?:time|while|moment)|long|hard|twice|carefully|slowly|aloud|"
            r"about|before)\b)",
            re.I,
        ),
    ),
)
# A person a belief speaks of before any "his" or "her" in it: theirs, not the NPC's.
_SOMEONE_ELSE = re.compile(
    r"\b(?:a|an|the|any|every|each)\s+(?:\w+\s+)?(?:man|woman|person|one|lad|lass|boy|girl|"
    r"child|body|fellow|stranger|traveller|soul)(?:'s)?\b.*\b(?:his|her)\b",
    re.I,
)
_FEARS = re.compile(
    r"\b(?:is |am )?(?:(?:deathly|terribly|very|a little|secretly) )?(?:afraid|scared|frightened|"
    r"terrified|fearful)(?: (?:stiff|to death|witless|silly|half to death))? (?:of|that)\s+|"
    r"\b(?:fears?|dreads?)\s+|\bworr(?:ies|y|ied) (?:about|over|that)\s+",
    re.I,
)
_DISLIKES = re.compile(
    r"\b(?:hates?|dislikes?|detests?|loathes?|despises?|scolds?|resents?|frowns? on|"
    r"(?:can't|cannot|can not|won't|will not) (?:stand|abide|bear)(?: for)?|"
    r"(?:has|with) (?:no|little) (?:time|patience|use) for|is short on patience for|grumbles about|"
    r"is tired of|is sick of|(?:dis|mis)trusts?|(?:trusts?|believes? in) nothing|"
    r"(?:doesn't|does not|don't|do not) think (?:much|highly|well) of|"
    r"thinks? (?:little|poorly|ill|less) of|"
    r"(?:has|puts) no (?:faith|stock|trust) in|scoffs? at|"
    r"(?:doesn't|does not|don't|do not|never) believes? in)\s+",
    re.I,
)
# Of a whole kind, the things named most: "nothing she cannot see, least of all charms".
_MOST_OF_ALL = re.compile(r"\b(?:least of all|most of all|above all|especially)\s+", re.I)
# "collects the rents" is work; "keeps a secret like a locked chest" likes no chest
_LIKES = re.compile(
    r"\b(?:loves?|likes|like(?!\s+(?:a|an)\s)|enjoys?|adores?|is fond of|delights? in|"
    r"takes? (?:\w+ )?pride in|(?:day)?dreams? (?:of|about)|longs? (?:for|to)|treasures?|lives for|"
    r"has a soft spot for|cherishes?|collects?(?!\s+the\b)|prefers?)\s+",
    re.I,
)
# What may come before its own verb of liking: "also loves", "is fond of", "does like";
# "hemp burns like straw" or "his lamps smoke like chimneys" is a likeness, no liking.
_OWN_LIKING = re.compile(
    r"^(?:(?:\w+ly|also|still|always|really|even|just|does|do|did|will|would|has|have)\s+)*$",
    re.I,
)
_NOT_EVEN = re.compile(r"\b(?:not even|even|least of all|not to)\s+$", re.I)
_SELLS = re.compile(r"\b(?:sells?|trades?|peddles?|hawks?|deals? in|offers?)\s+", re.I)
# Something kept to oneself, not a refusal: "would never say so", "will never admit it".
_KEPT_QUIET = re.compile(r"(?:say|admit|confess|let on|tell(?: \w+)?) (?:so|it|that)$", re.I)
# What may stand before a verb of selling that is the clause's own ("also sells", "is glad
# to trade"): "hawks sit on her arm" and "keeps hawks in the mews" sell nothing.
_SELLS_AS_VERB = re.compile(
    r"^(?:(?:\w+ly|also|still|only|even|now|will|would|and|or)\s+){0,2}$|\bto\s+$", re.I
)
_NEVER = re.compile(
    r"^(?:(?:will|would|does|do) )?(?:never|not|refuses? to|won't|will not|doesn't|does not|"
    # what it may not do it does not do: "is not allowed past the harbour wall"
    r"(?:is|are)(?: not|n't) (?:allowed|permitted)(?: to)?|is forbidden(?: to)?|mustn't|must not|"
    # what it cannot do it will not do ("cannot swim"); "can't stand" is a dislike
    r"(?:cannot|can't|can not)(?! (?:stand|abide|bear|help|resist|wait|believe|see why)\b))"
    r"(?: ever| once)? (?!been\b|gone\b|once\b|seen\b|think (?:much|highly|well) of\b)",
    re.I,
)
# What it keeps away from, it will not go near: "keeps well away from the mere".
_AVOIDS = re.compile(
    r"^(?:keeps?|stays?) (?:well |far )?(?:away|clear) (?:from|of) |^avoids? ", re.I
)
# Whom it sends out, it does not let in: "sends quarrellers outside", "throws drunks out".
_SENDS_OUT = re.compile(
    r"(?:^|\band )(?:sends?|turns?|throws?|puts?|shows?|shoos?|chases?) "
    r"(?P<who>(?:\w+ ){0,2}?\w+) "
    r"(?:outside|away|out)$",
    re.I,
)
# Whom it lets do nothing: "lets nobody through without paying".
_LETS_NOBODY = re.compile(r"^lets? (?:nobody|no one|no-one|none)\b", re.I)
# Refusals of the kinds a player meets at a counter (`COUNTER_REFUSALS`, in its order), by
# what a persona says of them.
_REFUSAL_KINDS = tuple(
    zip(
        COUNTER_REFUSALS,
        (
            re.compile(
                r"\b(?:credit|on tick|on the slate|on account)\b|\b(?:no|a) (?:slate|tab)\b|"
                r"\b(?:money|coin|cash|payment) on the nail\b|"
                r"\bpays? (?:first|up front|in advance)\b|"
                r"\b(?:coin|cash|money|payment) (?:first|up front|in advance)\b",
                re.I,
            ),
            re.compile(
                r"\bhaggl|\bhard bargain|\bnothing (?:is |comes )?(?:for )?free\b|"
                r"\bcoin (?:first|up front)\b|\bpay(?:s|ment)? (?:first|up front)\b|"
                r"\bfor nothing\b|\bfree (?:tastes?|samples?|bites?|nibbles?|drinks?|cups?|goods|"
                r"gifts?|slices?|helpings?)\b|\bgives? (?:nothing|anything) away\b",
                re.I,
            ),
            re.compile(
                r"\b(?:gossip|chatter|idle talk|small talk|chit-?chat|idle chatter|prattle)\b", re.I
            ),
        ),
        strict=True,
    )
)
_REFUSING = re.compile(
    r"\b(?:never|no|not|won't|will not|refuses?|hates?|dislikes?|can't stand|without)\b|"
    r"\bhaggl|\bhard bargain|\bshort on patience|\bno (?:time|patience)|"
    r"\b(?:first|up front|in advance)$",  # "sells to anyone who pays first"
    re.I,
)


def trade_of(persona: str) -> str:
    """The trade a persona names ("miller", "tavern keeper"), or ""."""
    first = sentences(persona)[:2]
    if first and (terse := _noted(first[0])):
        return terse
    for sentence in first:
        found = _TRADE.search(sentence) or _BESIDE_NAME.search(sentence)
        if not found:
            continue
        # "cheerful, loud miller": the last part of two words or more, else the last part.
        parts = [p.split() for p in found.group(1).split(",") if p.strip()]
        words = next((p for p in parts if len(p) > 1 and p[-1].lower() in _KIN), [])
        words = words or next(
            (p for p in reversed(parts) if len(p) > 1), parts[-1] if parts else []
        )
        if not words or words[-1].lower() in _NOT_TRADE:
            continue
        if len(words) > 1 and _COMPOUND.search(words[-1].lower()):
            return f"{words[-2]} {words[-1]}".lower()
        if words[-1].lower() in _KIN:  # "the ferryman's lazy son": whose son says what he is
            at = found.group(1).find(" ".join(words))
            before = sentence[: found.start(1) + max(at, 0)] + " ".join(words[:-1])
            whose = re.search(r"([\w-]+'s)\s*(?:[\w-]+\s*)?$", before)
            if whose:
                whose_name = whose.group(1)  # a name keeps its capital: "Orla's daughter"
                if not whose_name[:1].isupper():
                    whose_name = whose_name.lower()
                return f"{whose_name} {words[-1].lower()}"
        return words[-1].lower()
    return ""


_NOTE_WORDS = 6  # the most words of an item of notes ("sure that nettle tea cures all")


def _noted(sentence: str) -> str:
    """The trade of a persona written as notes ("Toll keeper.", "Beekeeper, widow, sharp
    tongue."): its first item when it names a thing, not a doing or a way of being."""
    items = re.split(r"\s*[,;:]\s*", sentence.rstrip(".!?"))
    if any(len(i.split()) > _NOTE_WORDS for i in items) or re.search(
        r"\b(?:I|she|he|they|[A-Z]\w*)\b", sentence[1:].replace("I'", "")
    ):
        return ""  # a sentence, or one that names someone: not notes
    item = items[0]
    words = item.split()
    if not 0 < len(words) <= 3 or not all(w.isalpha() for w in words):
        return ""
    if verb_led(item) or words[0].lower() in ("a", "an", "the", "i", "she", "he", "they"):
        return ""
    if _HOW.search(words[-1].lower()) or any(p.search(item) for _, p in TALK_WORDS):
        return ""
    return item.lower()


# Words that say whose someone is: said with the one they belong to ("the cooper's boy").
_KIN = frozenset(
    """son daughter boy girl lad lass wife husband widow apprentice helper child niece
    nephew grandson granddaughter assistant""".split()
)


_WHERE = frozenset(
    """in on at by from under above below for with near beside across behind since down up
    over out all along around through""".split()
)


_PLAIN_PERSON = frozenset({"girl", "boy", "lad", "lass", "child"})  # say no trade
# Titles a name may carry that say what the NPC is ("Elder Maren", "Captain Ives").
_TITLES = frozenset(
    """elder sister brother father mother captain doctor friar abbot abbess reverend mayor
    sergeant priest deacon granny nan uncle aunt widow chief""".split()
)


def _role(persona: str, name: str) -> str:
    """The trade named, else what the first clause says the NPC does, up to where or how
    long ("keeps the inn", "has worked the copper mine"). A title of the name the persona
    calls the NPC wins over a trade that lacks it ("the wise elder", of Elder Maren)."""
    trade = trade_of(persona)
    title = name.split()[0].lower() if len(name.split()) > 1 else ""
    if title in _TITLES and title not in trade.split():
        called = persona.lower().replace(name.lower(), "")
        if re.search(rf"\b{title}\b", called):
            return title
    plain = trade in _PLAIN_PERSON  # "a girl who looks after the geese": what she does
    if trade and not plain:
        return trade
    # The first clause that says what the NPC does ("mends nets", not "Oh, where to begin").
    clauses = [c for c in clauses_of(persona, name) if not (plain and re.match(r"is\b", c))]
    doing = next((c for c in clauses if verb_led(present(c))), "")
    if not doing:
        return trade
    doing = doing.split(":")[0]  # "runs the harbour: she keeps the office": runs it
    words = present(phrase(doing, name)).split()  # "has made the cheese": "makes"
    while len(words) > 2 and words[0].lower() in ("still", "also", "now", "mostly", "usually"):
        words = words[1:]  # "still keeps the little library": keeps it
    end = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in _WHERE), len(words))
    return " ".join(words[:end])


def _after(pattern: re.Pattern[str], clause: str) -> str:
    found = pattern.search(clause)
    return clause[found.end() :] if found else ""


def _items(text: str) -> list[str]:
    """A list said in words ("lobster and rope", "pots, needles and oil") as its items."""
    text = re.split(r"\s+(?:for|to|at|in|from|on)\s+", text, maxsplit=1)[0]
    return [i.strip() for i in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text) if i.strip()]


# A thing said again as a pronoun ("makes the cheese and butter, and sells them").
_PRONOUN_THING = re.compile(r"^(?:them|it|these|those|they|some|all of them)$", re.I)


def _done_to(clause: str) -> str:
    """What a clause says the NPC does something to, up to where or how long ("has made
    the cheese and butter in the dairy" -> "cheese and butter"), or ""."""
    words = present(clause).split()[1:]
    end = next((i for i, w in enumerate(words) if w.lower() in _WHERE), len(words))
    return re.sub(r"^(?:the|a|an|some|his|her|their)\s+", "", " ".join(words[:end]), flags=re.I)


def _others(npc: NpcSpawn, spawns: Sequence[NpcSpawn]) -> list[tuple[str, re.Pattern[str]]]:
    """The other NPCs and how a persona may name them: by name, or by their trade."""
    out = []
    for other in spawns:
        if other.npc_id == npc.npc_id:
            continue
        names = {other.name, other.name.split()[0]}
        trade = trade_of(other.persona)
        words = [re.escape(n) for n in names] + ([rf"the {re.escape(trade)}"] if trade else [])
        out.append((other.npc_id, re.compile(r"\b(?:" + "|".join(words) + r")\b", re.I)))
    return out


class _Sheet:
    """The fields of a sheet as they are gathered."""

    def __init__(self) -> None:
        self.lists: dict[str, list[str]] = {
            k: [] for k in ("likes", "dislikes", "fears", "refuses", "wares")
        }
        self.beliefs: list[Belief] = []
        self.opinions: dict[str, str] = {}
        self.reasons: dict[str, str] = {}  # "not allowed past the wall": why it will not
        self.own_object = ""  # its "him" or "her", when its persona says which

    def add(self, field: str, phrase: str) -> None:
        items = self.lists[field]
        if phrase and phrase not in items and len(items) < SHEET_ITEMS:
            items.append(phrase)


# Who is suspected of what: "(suspects) Osric of smuggling", said "Osric is smuggling".
_SUSPECTED = re.compile(r"^([A-Z][\w'-]*) of ([a-z]+ing)\b")


def _read_clause(
    clause: str, name: str, others: list[tuple[str, re.Pattern[str]]], s: _Sheet, before: str = ""
) -> None:
    """What one clause says, put on the sheet; `before`, the clause before it, says what
    a pronoun in it stands for."""
    named = [(other_id, found) for other_id, p in others if (found := p.search(clause))]
    own = not named
    for sure, pattern in _BELIEFS:
        what = _SUSPECTED.sub(r"\1 is \2", _after(pattern, clause))  # "Osric of smuggling"
        if what and len(s.beliefs) < SHEET_ITEMS:
            # "a man's boots tell you his character": his is the man's, not the NPC's
            mine = own and not _SOMEONE_ELSE.search(what)
            s.beliefs.append(Belief(what=phrase(what, name, mine, s.own_object), sure=sure))
            break
    # "scared stiff of Ulric and of the dark under the trees": two fears
    for fear in re.split(r",?\s+(?:and|or) of\s+", unreasoned(_after(_FEARS, clause))):
        if fear:
            s.add("fears", phrase(fear, name, own, s.own_object))
    dislike = unreasoned(_after(_DISLIKES, clause))
    for field, turn in turned(clause, before):  # "deep water frightens her", "rather... than"
        s.add(field, phrase(turn, name, own, s.own_object))
    if _MOST_OF_ALL.search(dislike):
        dislike = _after(_MOST_OF_ALL, dislike)
    # "can't stand Thatcher and calls him a windbag": Thatcher (what of him is its opinion)
    person = next(
        (f.group() for _, f in named if dislike.lower().startswith(f.group().lower())), ""
    )
    if dislike:
        s.add("dislikes", person or phrase(dislike, name, own, s.own_object))
    liking = _LIKES.search(clause)
    like = clause[liking.end() :] if liking and _OWN_LIKING.match(clause[: liking.start()]) else ""
    liked_one = any(like.lower().startswith(f.group().lower()) for _, f in named)
    if like and not dislike and not liked_one:  # "adores Jory": an opinion, not a like
        like = _LONGED.sub("", unreasoned(like))  # "seeing the great city one day": the city
        s.add("likes", phrase(like, name, own, s.own_object))  # "Patch more than anything"
    never = _NEVER.search(clause)
    selling = _SELLS.search(clause)
    sold = clause[selling.end() :] if selling else ""
    if selling and not _SELLS_AS_VERB.search(clause[: selling.start()]):
        sold = ""
    if sold and not never:
        items = _items(sold)
        if len(items) == 1 and _PRONOUN_THING.match(items[0]):  # "sells them": what it made
            items = _items(_done_to(before))
        for item in items:
            if not re.match(r"(?:nothing|none|no)\b", item, re.I):  # "hawks nothing"
                s.add("wares", phrase(re.sub(r"^(?:the|some)\s+", "", item, flags=re.I), name))
    refusing = _REFUSING.search(clause)
    kinds = [kind for kind, p in _REFUSAL_KINDS if refusing and p.search(clause)]
    for kind in kinds:
        s.add("refuses", kind)
    deed = clause[never.end() :] if never else ""
    if not deed and (nobody := _LETS_NOBODY.search(clause)):
        deed = f"let anybody{clause[nobody.end() :]}"
    if not deed and (avoids := _AVOIDS.search(clause)):
        deed = f"go near {clause[avoids.end() :]}"
    if not deed and (sent := _SENDS_OUT.search(clause)):
        deed = f"let {sent.group('who')} in"
    # "never below a penny", "not allowed past the harbour wall": no going there
    where = r"(?:below|under|less than|lower than|past|beyond|into|outside|near)\b"
    if never and re.search(r"allowed|permitted|forbidden", never.group()):  # "...on the lake"
        where = r"(?:below|past|beyond|into|outside|near|on|in|onto|out|up|down|across|over)\b"
    if re.match(where, deed):
        deed = f"go {deed}"
    if deed and not kinds and not _KEPT_QUIET.match(deed):
        said = first_person(f"I never {unending(deed)}", name)  # "never dropping a price"
        s.add("refuses", phrase(said.removeprefix("I never "), name))
        if never and re.search(r"allowed|permitted|forbidden", never.group()):
            s.reasons[phrase(said.removeprefix("I never "), name)] = NOT_ALLOWED
    for other_id, found in named:
        if _NOT_EVEN.search(clause[: found.start()]):  # "won't give credit, not even Hamm"
            continue
        if other_id not in s.opinions and len(s.opinions) < SHEET_ITEMS:
            s.opinions[other_id] = opinion(clause, found, name, s.own_object)


# What a longing says besides its thing: "(seeing) the great city (one day)".
_LONGED = re.compile(
    r"^(?:seeing|visiting|going to|sailing to|travelling to|traveling to|living in) |"
    r",? (?:one day|some ?day|before (?:she|he|they|I) (?:dies?|grows? old))$",
    re.I,
)
# A like that is a way of speaking ("answer a question with another question").
_SPEAKING = re.compile(r"(?:to )?(?:talk|answer|ask|speak|chat|tell|joke|tease)\b", re.I)


def read_sheet(
    npc: NpcSpawn,
    map_data: MapData,
    warnings: list[str] | None = None,
    places: dict[str, list[str]] | None = None,
) -> CharacterSheet:
    """The NPC's sheet: its persona read against the map's other NPCs and places (`places`:
    the map's `place_index`, made once for all its NPCs), its properties, and the fields
    the map maker states (which win); bad ones add to `warnings`."""
    name = npc.name
    s = _Sheet()
    s.own_object = own_object(npc.persona)
    others = _others(npc, map_data.npcs)
    before = ""
    for clause in clauses_of(npc.persona, name):
        _read_clause(clause, name, others, s, before)
        before = clause
    # "likes to answer a question with another question" is how it talks, not a like.
    s.lists["likes"] = [like for like in s.lists.get("likes", []) if not _SPEAKING.match(like)]
    wares = _items(npc.properties.get("wares", ""))
    if wares:
        s.lists["wares"] = [w[:SHEET_PHRASE_CHARS] for w in wares[:SHEET_ITEMS]]
    # No `work` property: the place the persona names as where it works, if it names one.
    if not npc.work and places is None:
        places = place_index(map_data.places)
    work = npc.work or named_work(npc.persona, name, places or {})
    role = _role(npc.persona, name) or (
        map_data.places[work].name if work in map_data.places else ""
    )
    fields: dict[str, object] = {
        "role": role or "villager",
        "work": work,
        **{k: tuple(v) for k, v in s.lists.items()},
        "beliefs": tuple(s.beliefs),
        "opinions": s.opinions,
        "talks": talks_of(npc.persona),
        "ways": ways_of(npc.persona, name),
        "reasons": s.reasons | reasons_of(npc.persona, name),
        "past": past_of(npc.persona, name),
    }
    ids = {other.npc_id for other in map_data.npcs if other.npc_id != npc.npc_id}
    fields |= stated(npc, ids, map_data.path.name, warnings if warnings is not None else [])
    return CharacterSheet.model_validate(fields)


def read_sheets(map_data: MapData, warnings: list[str] | None = None) -> dict[str, CharacterSheet]:
    """Every NPC's sheet of a map, by id."""
    places = place_index(map_data.places)
    return {npc.npc_id: read_sheet(npc, map_data, warnings, places) for npc in map_data.npcs}
