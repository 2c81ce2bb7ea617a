"""What a line names: the places and people of the facts, found by words and their families.

A listener hears "the smithy", "the blacksmith's", "Wren's place" or "where the baker
lives" and knows which place or person is meant, if it knows the village. This module
does that against the facts a request carries (`VillagerFacts`: the map's places with their
descriptions, the villagers with their roles and homes): a name said, a title, someone's
place, a place by its kind, a person by their trade, and last a place by the words of its
description. Nothing here knows a particular map; the word families are plain English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from game.npc.facts import PersonFact, PlaceFact, VillagerFacts
from game.npc.reading.kinds import Named, Target

__all__ = [
    "FILLER",
    "PLACE_NOUNS",
    "TITLES",
    "families_of",
    "find_target",
    "name_words",
    "names_a_place",
    "norm",
    "people_words",
    "place_target",
    "speaks_of_trade",
    "stem",
    "tokens",
    "trades_of",
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
            | {"bake", "baking", "baked", "dough", "flour", "rye", "crust"}
            | {"eat", "food", "hungry", "breakfast", "meal", "snack", "rolls", "tart", "tarts"}
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
            | {"ruler", "wisest", "leads", "governs", "lead"}
        ),
        "places": frozenset(),
        "things": frozenset({"stories", "story", "history", "council", "advice", "peace"}),
    },
    "merchant": {
        "people": frozenset(
            {"merchant", "trader", "peddler", "pedlar", "shopkeeper", "salesman", "vendor"}
        ),
        "places": frozenset({"shop", "store", "stall", "stalls", "market", "marketplace"}),
        "things": frozenset({"wares", "trinket", "trinkets", "curiosities", "goods", "cart"}),
    },
    "child": {
        "people": frozenset({"child", "kid", "boy", "girl", "youngster", "lad", "lass"}),
        "places": frozenset(),
        "things": frozenset({"pebbles", "pebble", "dragon", "dragons", "adventurer"}),
    },
    "water": {
        "people": frozenset(),
        "places": frozenset({"lake", "river"}),
        "things": frozenset({"water", "drink", "swim", "swimming", "ducks", "thirsty"}),
    },
    "crowd": {
        "people": frozenset(),
        "places": frozenset(),
        "things": frozenset(
            {"crowd", "crowds", "crowded", "packed", "busy", "festival", "festivals", "throng"}
        ),
    },
    "cross": {
        "people": frozenset(),
        "places": frozenset({"bridge", "ford", "crossing"}),
        "things": frozenset({"cross", "across", "side", "bank", "over"}),
    },
}
_FAMILY_OF: dict[str, tuple[str, str]] = {
    word: (family, part)
    for family, parts in _FAMILIES.items()
    for part, words in parts.items()
    for word in words
}
# Words that say nothing about which place or person is meant.
FILLER = frozenset(
    """a an the to of in on at by for from with into onto over near by around about and or
    but so then now please pls quickly quick right away there here this that these those it
    its me us you your my our we i let lets let's can could would will just go going walk
    take show lead bring guide way where is are be was some one thing place spot somewhere
    friend mate sir madam again too also really very little bit together okay ok yes
    village town now today up down back way do does did how what which who whom
    whose want need like old new big small good nice great lovely pretty fine best
    come came get got see look looks looking find out off all any kindly maybe perhaps
    if i'd i'm you're tell know""".split()
)
# Words that call a place; a line that names one the map lacks is about a place unknown.
PLACE_NOUNS = frozenset(
    """tavern inn pub alehouse castle church temple chapel shrine tower mill windmill farm
    school library harbour harbor port station hospital bank palace mine cave caves
    lighthouse barn stable stables graveyard cemetery gate gates square hall townhall lake
    sea ocean mountain mountains forest woods wood field fields road city town house home
    hut cottage place shop store inn camp prison jail dungeon arena theatre theater museum
    zoo park docks garden bakery forge market well bridge beach pond orchard plaza dock
    street alley tree mansion manor fort fortress workshop studio cabin""".split()
)
# Words for someone's place that do not say which place it is.
_GENERIC_PLACES = frozenset(
    "house home place hut cottage shop spot workshop room door dwelling abode stall yard".split()
)
# Place names that are also everyday words: only a place after one of these.
_AMBIGUOUS_PLACES = {"well": frozenset({"the", "old", "stone", "that", "this", "village", "a"})}

# Titles go with a name but do not tell who is meant ("Elder Maren": Maren).
TITLES = frozenset("elder old young little master mistress mister mr mrs miss sir lady".split())
# "what's", "it's": a word and "is", not someone's.
_NOT_OWNERS = frozenset(
    "what where who it that there here he she let how why when this name everything".split()
)


def norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return " ".join(text.lower().split())


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", norm(text))


@dataclass(frozen=True)
class _Word:
    base: str
    owner: bool  # "wren's", "the blacksmith's"
    before: str  # the word before it


def _words(text: str) -> list[_Word]:
    out: list[_Word] = []
    previous = ""
    for token in tokens(text):
        owner = token.endswith("'s") or token.endswith("s'")
        base = token[:-2] if token.endswith("'s") else token.rstrip("'")
        if base in _NOT_OWNERS:
            owner = False
        out.append(_Word(base, owner, previous))
        previous = base
    return out


def stem(word: str) -> str:
    for end, repl in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            return word[: -len(end)] + repl
    return word


def name_words(name: str) -> set[str]:
    return {w for w in tokens(name.replace("_", " ")) if w}


def _families(words: Iterable[str], parts: tuple[str, ...]) -> set[str]:
    found = set()
    for word in words:
        # "forged", "baking", "fishes": the word, its stem, and the word without -d/-ed/-ing
        variants = {word, stem(word)}
        for end in ("d", "ed", "ing"):
            if word.endswith(end) and len(word) - len(end) >= 3:
                variants |= {word[: -len(end)], word[: -len(end)] + "e"}
        for w in variants:
            hit = _FAMILY_OF.get(w)
            if hit is not None and hit[1] in parts:
                found.add(hit[0])
    return found


def _place_label(place: PlaceFact) -> str:
    return "the " + place.name.replace("_", " ")


def place_target(place: PlaceFact, weak: bool = False) -> Target:
    return Target(Named.PLACE, place.name, _place_label(place), place.description, weak=weak)


def _person_target(v: PersonFact) -> Target:
    return Target(Named.PERSON, v.name, v.name, v.role, v.home)


def _self_target(npc: VillagerFacts) -> Target:
    return Target(Named.SELF, npc.name, npc.name, npc.persona, npc.home)


def _me(npc: VillagerFacts) -> PersonFact:
    """The NPC itself as a villager: its persona for a role."""
    return PersonFact(npc_id=npc.npc_id, name=npc.name, role=npc.persona, home=npc.home)


def _villager_families(v: PersonFact) -> set[str]:
    role = tokens(v.role)
    return _families(role, ("people",)) | _families(tokens(v.home.replace("_", " ")), ("places",))


def _possessed(who: str, npc: VillagerFacts, home: str) -> PlaceFact | None:
    """The place that is someone's: its description says "Name's ...", else their home."""
    key = who.lower()
    for place in npc.places:
        if re.search(rf"\b{re.escape(key)}'s\b", norm(place.description)):
            return place
    return next((p for p in npc.places if p.name == home), None)


_LEADS = re.compile(
    r"\b(?:looks? after|watch(?:es)? over|takes? care of|(?:is )?in charge(?: of)?|runs|rules|"
    r"oversees|heads|keeps the peace in|speaks for)\b(?= (?:the |this |our )?(?:village|town|place|"
    r"people|everyone|us|hollowbrook|here|things))"
)


def find_target(text: str, npc: VillagerFacts) -> Target | None:
    """The place or person a piece of a line names, from the facts; None if none is."""
    text = _LEADS.sub("leads", norm(text))  # "who looks after the village?": the leader
    # "where Wren lives", "where the baker works": their place.
    text = re.sub(
        r"\b([a-z]+) (?:lives|stays|sleeps|works|fishes|bakes|trades|lived)\b",
        r"\1's place",
        norm(text),
    )
    words = _words(text)
    if not words:
        return None
    bases = [w.base for w in words]
    people = [*npc.people]
    me = _me(npc)
    # "A kid tore past your forge: who's that?" asks for a person before any place.
    if "who" in bases and (found := _by_trade(words, npc, people, None, ("people",))):
        return found
    # Someone's place: "Wren's place", "the blacksmith's", "your forge".
    for w in words:
        if not w.owner and w.base != "your":
            continue
        if w.base == "your":
            owner: PersonFact | None = me
        else:
            owner = _villager_named(w.base, [*people, me]) or _villager_by_role(w.base, people)
        if owner is None:
            continue
        rest = bases[bases.index(w.base) + 1 :]
        place = _possessed(owner.name.split()[-1], npc, owner.home)
        named_place = _best_place(rest, npc, literal_only=True)
        said = set(rest[:2]) - FILLER
        # "Pip's house" is Pip's place whatever else has a house; "your forge" is the forge.
        if place is not None and named_place is not None and said - _GENERIC_PLACES:
            own = name_words(place.name) | {stem(t) for t in tokens(place.description)}
            if not {stem(t) for t in said} & own:
                return place_target(named_place)
        if place is not None and (w.owner or names_a_place(rest)):
            return place_target(place)
        if named_place is not None:
            return place_target(named_place)
    # Someone named ("Elder Maren" is Maren, not the elder's house).
    for w in words:
        v = _villager_named(w.base, people)
        if v is not None:
            return _person_target(v)
        if w.base in name_words(npc.name) - TITLES or w.base == npc.npc_id:
            return _self_target(npc)
    # A place named by its own name ("the bakery", "the elder's house") or by its kind.
    place = _best_place(bases, npc, literal_only=True, words=words)
    if place is not None:
        return place_target(place)
    # Someone by what they do ("the baker", "that fisher woman").
    if found := _by_trade(words, npc, people, me, ("people",)):
        return found
    # "Who could mend my wheel?", "where can I get a shoe made?": by their trade.
    if ("who" in bases or _MAKING & set(bases)) and (found := _by_things(words, npc, people, me)):
        return found
    place = _best_place(bases, npc, literal_only=False, words=words)
    return place_target(place, weak=True) if place is not None else None


def _by_trade(
    words: list[_Word],
    npc: VillagerFacts,
    people: list[PersonFact],
    me: PersonFact | None,
    parts: tuple[str, ...],
) -> Target | None:
    """The first villager (or the NPC itself, if `me` is given) whose trade a word names,
    by the families of words in `parts`, word by word."""
    for w in words:
        v = _villager_by_role(w.base, people, parts)
        if v is not None:
            return _person_target(v)
        if me is not None and _families([w.base], parts) & _villager_families(me):
            return _self_target(npc)
    return None


# Words that ask for something made or mended: who does it, not where it is sold.
_MAKING = frozenset(
    "made make making mend mended mending fix fixed fixing repair repaired repairing shod "
    "sharpen sharpened sharpening forged".split()
)


def _by_things(
    words: list[_Word], npc: VillagerFacts, people: list[PersonFact], me: PersonFact
) -> Target | None:
    """The villager (or the NPC itself) whose trade the most words of the line name
    ("mend my cart wheel": the smith, two words to the merchant's one); ties go first."""
    bases = [w.base for w in words]
    best, found = 0, None
    for v in [*people, me]:
        count = sum(bool(_families([b], ("things",)) & _villager_families(v)) for b in bases)
        if count > best:
            best, found = count, v
    if found is None:
        return None
    return _self_target(npc) if found is me else _person_target(found)


def names_a_place(words: list[str]) -> bool:
    return any(w in PLACE_NOUNS or stem(w) in PLACE_NOUNS for w in words[:3])


def _villager_named(word: str, people: list[PersonFact]) -> PersonFact | None:
    for v in people:
        names = name_words(v.name) - TITLES
        if word == v.npc_id or word in names:
            return v
    return None


def _villager_by_role(
    word: str, people: list[PersonFact], parts: tuple[str, ...] = ("people",)
) -> PersonFact | None:
    families = _families([word], parts)
    if not families:
        return None
    for v in people:
        if families & _villager_families(v):
            return v
    return None


def _best_place(
    bases: list[str],
    npc: VillagerFacts,
    *,
    literal_only: bool,
    words: list[_Word] | None = None,
) -> PlaceFact | None:
    """The place the words name best: its own name (or its kind), else its description."""
    content = [b for b in bases if b not in FILLER]
    ambiguous_ok = {
        w.base
        for w in words or []
        if w.base in _AMBIGUOUS_PLACES and w.before in _AMBIGUOUS_PLACES[w.base]
    }
    content = [b for b in content if b not in _AMBIGUOUS_PLACES or b in ambiguous_ok]
    if not content:
        return None
    stems = {stem(b) for b in content} | set(content)
    # "fisher" alone is a person; "the fisher hut" is the place.
    people_words = {w for w in stems if _families([w], ("people",))}
    kinds = _families(content, ("places",))
    things = _families(content, ("things",))
    best: tuple[int, int] = (0, 0)
    found: PlaceFact | None = None
    for index, place in enumerate(npc.places):
        own_words = name_words(place.name)
        desc = {stem(w) for w in tokens(place.description) if w not in FILLER}
        score = 0
        named = own_words & stems
        if named <= people_words:
            named = set()
        score += 4 * len(named)
        score += 3 * len(kinds & (_families(own_words, ("places", "people", "things"))))
        if not literal_only:
            score += len(desc & stems)
            score += len(things & _families(desc, ("places", "people", "things")))
            score += len(kinds & _families(desc, ("places",)))
        if literal_only and score == 0:
            continue
        if score > best[0]:
            best, found = (score, -index), place
    return found


def families_of(text: str) -> set[str]:
    """The families of words a text speaks of (smith, bake, fish, ...)."""
    return _families(tokens(text), ("people", "places", "things"))


def people_words(families: set[str]) -> set[str]:
    """The words for the people of some families ("smith" -> smith, blacksmith, ...)."""
    return {word for family in families for word in _FAMILIES[family]["people"]}


def trades_of(persona: str) -> set[str]:
    """The families of what someone does, by the first sentence of their persona ("Tobin
    bakes the village bread" -> bake)."""
    first = re.split(r"(?<=[.!?])\s", " ".join(persona.split()), maxsplit=1)[0]
    return _families(tokens(first), ("people", "places", "things"))


def speaks_of_trade(line: str, npc: VillagerFacts) -> bool:
    """Whether a line asks the NPC about the things of its own trade."""
    mine = _villager_families(_me(npc))
    said = _families(tokens(line), ("things", "people", "places"))
    return bool(mine & said) and bool(re.search(r"\byou(?:r)?\b", line))
