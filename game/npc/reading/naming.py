"""What a line names: the places and people of the facts, found by words and their families.

A listener hears "the smithy", "the blacksmith's", "Wren's place", "the lighthouse
keeper" or "who runs the windmill?" and knows which place or person is meant, if it knows
the village. This module does that against the facts a request carries (`VillagerFacts`:
the map's places with their descriptions, the villagers with their trades, places and
wares): a name said, a title, someone's place, a person by their trade and its place, a
place by its kind, a person by their trade or by what they make, and last a place by the
words of its description. Nothing here knows a particular map: the families of words are
the village's own and plain English (`game.npc.reading.families`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from game.npc.facts import PersonFact, PlaceFact, VillagerFacts
from game.npc.reading.families import (
    PARTS,
    Lexicon,
    families_in,
    families_of,
    lexicon,
    me_of,
    people_words,
    trades_of,
)
from game.npc.reading.kinds import Named, Target
from game.npc.reading.words import (
    FILLER,
    GENERIC_PLACES,
    PLACE_NOUNS,
    TITLES,
    name_words,
    norm,
    place_like,
    stem,
    tokens,
)

__all__ = [
    "FILLER",
    "PLACE_NOUNS",
    "TITLES",
    "described_by",
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
    "village_names",
    "whose",
    "without_village",
]

# Place names that are also everyday words: only a place after one of these.
_AMBIGUOUS_PLACES = {"well": frozenset({"the", "old", "stone", "that", "this", "village", "a"})}

_IS_NEXT = frozenset(
    "a an the so very not really always never quite too such been got gone just still".split()
)
# What is asked of a thing of someone's that asks of them: "what do you think of X's bees?"
_VIEW = re.compile(r"\b(?:think|make of|reckon|feel about|opinion|are|is)\b")
# "what's", "it's": a word and "is", not someone's.
_NOT_OWNERS = frozenset(
    "what where who it that there here he she let how why when this name everything".split()
)


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
    # "Odo's a good apothecary": "Odo is", not something of Odo's
    for i, (w, after) in enumerate(pairwise(out)):
        if w.owner and after.base in _IS_NEXT:
            out[i] = _Word(w.base, False, w.before)
    return out


def place_label(place: PlaceFact) -> str:
    """A place as a line says it: "the old bridge", or its own name as its description
    writes it ("Beacon Hill north of the village": "Beacon Hill", no "the")."""
    spoken = place.name.replace("_", " ")
    # "Thornwick Cross" whole, with the name before its id's word
    proper = re.search(
        rf"(?<!\bthe )(?<!\bThe )\b((?-i:[A-Z][a-z']+ )?{re.escape(spoken)})\b",
        place.description,
        re.I,
    )
    if proper and proper.start() == 0 and " " not in proper.group(1):  # "Market stalls..."
        proper = None
    if proper and len(spoken) > 1 and all(w[:1].isupper() for w in proper.group(1).split()):
        return proper.group(1)
    return "the " + spoken


def place_target(place: PlaceFact, weak: bool = False) -> Target:
    return Target(Named.PLACE, place.name, place_label(place), place.description, weak=weak)


def _person_target(v: PersonFact, lex: Lexicon, by_place: bool = False) -> Target:
    home = lex.place_of(v)
    return Target(Named.PERSON, v.name, v.name, v.role, home, by_place=by_place)


def _self_target(npc: VillagerFacts) -> Target:
    return Target(Named.SELF, npc.name, npc.name, npc.persona, npc.home)


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
    r"people|everyone|us|here|things))"
)


_MASTER = re.compile(r"\b(?!(?:your|their|whose|this|that)\b)([a-z]{4,}) ?(?:master|mistress)\b")
# "your work", "your trade": what someone does, not a place ("dyeworks").
_JOB_WORDS = frozenset({"work", "job", "trade", "craft", "business", "occupation"})


def find_target(text: str, npc: VillagerFacts) -> Target | None:
    """The place or person a piece of a line names, from the facts; None if none is."""
    text = _LEADS.sub("leads", norm(text))  # "who looks after the village?": the leader
    text = _MASTER.sub(r"\1 keeper", text)  # "the harbourmaster": who keeps the harbour
    text = re.sub(r"\bwho(?:'d|'ll)\b", "who would", text)  # "who'd sell me a belt?"
    lives = r"\b([a-z]+) (?:lives|stays|sleeps|works|fishes|bakes|trades|lived)\b"
    text = re.sub(lives, r"\1's place", text)  # "where Wren lives": her place
    words = _words(text)
    if not words:
        return None
    lex = lexicon(npc)
    bases = [w.base for w in words]
    people = [*npc.people]
    me = me_of(npc)
    # "A kid tore past your forge: who's that?" asks for a person before any place;
    # "who runs the windmill?" for whoever works there.
    if "who" in bases:
        found = _by_trade(words, npc, people, None, ("people",), lex) or _by_place(
            words, npc, [*people, me], lex
        )
        if found is not None:
            return found
    # Someone's place: "Wren's place", "the blacksmith's", "your forge".
    for w in words:
        if not w.owner and w.base != "your":
            continue
        if w.base == "your":
            rest = bases[bases.index(w.base) + 1 :]
            if rest[:1] and rest[0] in _JOB_WORDS:  # "what is your work?": its trade, no place
                return None
            owner: PersonFact | None = me
        else:
            owner = _villager_named(w.base, [*people, me]) or _villager_by_role(
                w.base, people, lex, before=w.before
            )
        if owner is None:
            continue
        rest = bases[bases.index(w.base) + 1 :]
        place = _possessed(owner.name.split()[-1], npc, lex.place_of(owner))
        named_place = _best_place(rest, npc, lex, literal_only=True)
        said = set(rest[:2]) - FILLER
        # "Pip's house" is Pip's place whatever else has a house; "your forge" is the forge.
        if place is not None and named_place is not None and said - GENERIC_PLACES:
            own = name_words(place.name) | {stem(t) for t in tokens(place.description)}
            if not {stem(t) for t in said} & own:
                return place_target(named_place)
        # "Winnie's bees", "your days at sea": a thing of theirs, not their place
        thing = bool(rest[:1]) and rest[0] not in FILLER and not names_a_place(rest[:1])
        viewed = thing and bool(_VIEW.search(text))  # "what do you think of X's bees?"
        if place is not None and (names_a_place(rest[:2]) or (w.owner and not viewed)):
            return place_target(place)
        if viewed and w.owner and owner is not me and named_place is None:
            return _person_target(owner, lex)  # "go and see Winnie's hives": her place
        if named_place is not None:
            return place_target(named_place)
    # Someone named ("Elder Maren" is Maren, not the elder's house).
    for w in words:
        v = _villager_named(w.base, people)
        if v is not None:
            return _person_target(v, lex)
        if w.base in name_words(npc.name) - TITLES or w.base == npc.npc_id:
            return _self_target(npc)
    # Someone by their trade and its place ("the lighthouse keeper"), before the place.
    if found := _by_trade(words, npc, people, me, ("people",), lex, compound=True):
        return found
    # A place named by its own name ("the tavern", "the elder's house") or by its kind.
    place = _best_place(bases, npc, lex, literal_only=True, words=words)
    if place is not None:
        # "Who's the one with all the hawks?": whoever works the place its words name.
        keeper = _keeper(place, npc, people, lex) if "who" in bases else None
        return keeper or place_target(place)
    # Someone by what they do ("the baker", "that fisher woman").
    if found := _by_trade(words, npc, people, me, ("people",), lex):
        return found
    # "Who could mend my wheel?", "where can I get a pot made?": by their trade.
    # "The cheese lady", "that candle woman": someone by their things too.
    if ("who" in bases or (_MAKING | _SOMEONE) & set(bases)) and (
        found := _by_things(words, npc, people, me, lex)
    ):
        return found
    place = _best_place(bases, npc, lex, literal_only=False, words=words)
    return place_target(place, weak=True) if place is not None else None


def _by_trade(
    words: list[_Word],
    npc: VillagerFacts,
    people: list[PersonFact],
    me: PersonFact | None,
    parts: tuple[str, ...],
    lex: Lexicon,
    compound: bool = False,
) -> Target | None:
    """The first villager (or the NPC itself, if `me` is given) whose trade a word names,
    by the families of words in `parts`, word by word; with `compound`, only one whose
    own words hold the word before it too ("the lighthouse keeper")."""
    for w in words:
        if (compound and not w.before) or w.before in ("my", "our"):  # "my boy": no villager
            continue
        v = _villager_by_role(w.base, people, lex, parts, before=w.before, only=compound)
        if v is not None:
            return _person_target(v, lex)
        if me is None or not lex.families([w.base], parts) & lex.of_person(me):
            continue
        if not compound or lex.own[me.npc_id].part_of(w.before) is not None:
            return _self_target(npc)
    return None


def _by_place(
    words: list[_Word], npc: VillagerFacts, people: list[PersonFact], lex: Lexicon
) -> Target | None:
    """Whoever a place named is the place of: "who runs the windmill?" is its miller, "who
    lives in the cottage?" whoever does (its worker first)."""
    for w in words:
        if w.base in FILLER:
            continue
        found = [v for v in people if lex.own[v.npc_id].part_of(w.base) == "places"]
        if not found:
            continue
        place = _best_place([w.base], npc, lex, literal_only=True)
        keeps = [v for v in found if place is not None and lex.keeps(v, place.name)]
        v = (keeps or found)[0]
        if v.npc_id == npc.npc_id:
            return _self_target(npc)
        return _person_target(v, lex, by_place=True)
    return None


def _keeper(
    place: PlaceFact, npc: VillagerFacts, people: list[PersonFact], lex: Lexicon
) -> Target | None:
    """Whoever works at a place (the NPC itself too), else keeps it as their own."""
    if npc.sheet.work == place.name:
        return _self_target(npc)
    v = next((p for p in people if p.work == place.name), None)
    v = v or next((p for p in people if lex.keeps(p, place.name)), None)
    return _person_target(v, lex, by_place=True) if v is not None else None


# Words that say "someone" of a villager known by their things ("the cheese lady").
_SOMEONE = frozenset(
    "lady woman man fellow guy chap lad lass girl boy bloke gent gentleman person folk".split()
)
# Words that ask for something made or mended: who does it, not where it is sold.
_MAKING = frozenset(
    "made make making mend mended mending fix fixed fixing repair repaired repairing shod "
    "sharpen sharpened sharpening forged".split()
)


def _by_things(
    words: list[_Word],
    npc: VillagerFacts,
    people: list[PersonFact],
    me: PersonFact,
    lex: Lexicon,
) -> Target | None:
    """The villager (or the NPC itself) whose trade the most words of the line name
    ("mend my cart wheel": the smith, two words to the merchant's one); ties go first."""
    bases = [w.base for w in words if w.base not in FILLER]
    best, found = 0, None
    said = [lex.families([b], ("things", "people", "places")) for b in bases]
    # A thing named counts twice a verb of making: "make charcoal" is the charcoal burner's,
    # not whoever's trade says "makes".
    weights = [1 if b in _MAKING else 2 for b in bases]
    for v in [*people, me]:
        mine = lex.of_person(v)
        count = sum(w * bool(f & mine) for w, f in zip(weights, said, strict=True))
        heads = {stem(w.split()[-1]) for w in v.wares if w}  # "eels", not "eel pies"
        count += bool(count and heads & {stem(b) for b in bases})
        if count > best:  # "who keeps eels?": the eel-catcher before the maker of eel pies
            best, found = count, v
    if found is None:
        return None
    return _self_target(npc) if found is me else _person_target(found, lex)


def whose(text: str, npc: VillagerFacts) -> Target | None:
    """Whose the things a line names are ("are these goats yours?"): the villager, or the
    NPC itself, whose trade and wares (twice) and families the most of its words name,
    the NPC itself on a tie; None if none."""
    lex, me = lexicon(npc), me_of(npc)
    bases = [w.base for w in _words(norm(text)) if w.base not in FILLER]
    said = [lex.families([b], ("things", "people", "places")) for b in bases]
    stems = {stem(b) for b in bases}
    best, found = 0, None
    for v in [me, *npc.people]:
        mine = lex.of_person(v)
        own = {stem(w) for w in tokens(" ".join([v.trade, *v.wares]))}
        count = sum(bool(families & mine) for families in said) + 2 * len(stems & own)
        if count > best:
            best, found = count, v
    if found is None:
        return None
    return _self_target(npc) if found is me else _person_target(found, lex)


def names_a_place(words: list[str]) -> bool:
    return any(place_like(w) or stem(w) in PLACE_NOUNS for w in words[:3])


def _villager_named(word: str, people: list[PersonFact]) -> PersonFact | None:
    for v in people:
        names = name_words(v.name) - TITLES
        if word == v.npc_id or word in names:
            return v
    return None


def _villager_by_role(
    word: str,
    people: list[PersonFact],
    lex: Lexicon,
    parts: tuple[str, ...] = ("people",),
    before: str = "",
    only: bool = False,
) -> PersonFact | None:
    """The villager whose trade a word names; of several, the one whose own words hold
    the word before it ("the lighthouse keeper", not the tavern keeper); with `only`,
    none but such a one."""
    families = lex.families([word], parts)
    if not families:
        return None
    found = [v for v in people if families & lex.of_person(v)]
    paired = [v for v in found if before and lex.own[v.npc_id].part_of(before) is not None]
    if only:
        return paired[0] if paired else None
    return next(iter(paired or found), None)


def _best_place(
    bases: list[str],
    npc: VillagerFacts,
    lex: Lexicon,
    *,
    literal_only: bool,
    words: list[_Word] | None = None,
) -> PlaceFact | None:
    """The place the words name best: its own name (or its kind, or whose it is), else
    its description."""
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
    # ...unless nobody here has that trade: "the cooper" with no cooper is his yard.
    held = set().union(*(lex.of_person(v) for v in [*npc.people, me_of(npc)]))
    people_words = {w for w in stems if lex.families([w], ("people",)) & held}
    kinds = lex.families(content, ("places",))
    things = lex.families(content, ("things",))
    best: tuple[int, int] = (0, 0)
    found: PlaceFact | None = None
    for index, place in enumerate(npc.places):
        own_words = name_words(place.name)
        desc = {stem(w) for w in tokens(place.description) if w not in FILLER}
        score = 0
        named = own_words & stems
        if named <= people_words:
            named = set()
        called = _called(place) & stems  # "the cooper's yard": by the name it is called
        if called - GENERIC_PLACES and not called <= people_words:
            named |= called
        if named <= _JOB_WORDS and not (own_words | _called(place)) - named & stems:
            named = set()  # "hard work" is no word on "the dye works"
        score += 4 * len(named)
        # "the bridge" is no word on "the market cross": a thing its name says is no kind
        own_families = families_in(own_words, ("people", "places")) | lex.of_place(place)
        score += 3 * len(kinds & own_families)
        if not literal_only:
            score += len(desc & stems)
            score += len(things & (families_in(desc, PARTS) | lex.of_place(place)))
            score += len(kinds & families_in(desc, ("places",)))
        if literal_only and score == 0:
            continue
        if score > best[0]:
            best, found = (score, -index), place
    return found


# Where the name a description opens with ends: "The cooper's yard | in the south-west".
_CALLED_ENDS = re.compile(
    r"[,:;.(]|\s(?:in|on|at|by|where|with|below|above|beside|behind|near|just|of|north|south|"
    r"east|west|that|which)\b"
)


def _called(place: PlaceFact) -> set[str]:
    """The words of the name a description calls its place by, when it opens with one
    ("The cooper's yard in the south-west corner", "Thornwick Cross, the market place"):
    its last word and whose it is, by their stems; none for "A low shed..."."""
    head = _CALLED_ENDS.split(place.description, maxsplit=1)[0].strip()
    if not re.match(r"The\s|[A-Z][a-z]+(?:'s\s|\s+[A-Z])", head):
        return set()
    words = tokens(head)
    # Whose, by a trade ("the cooper's"), not by a name: a person named is found first.
    said = set(re.findall(r"\b([a-z]+)'s\b", head))
    # "Thornwick Mere, a deep reedy pond south of the Cross": what kind of place it is.
    kind = _KIND.match(place.description)
    if kind:
        said.add(tokens(_CALLED_ENDS.split(kind.group(1), maxsplit=1)[0])[-1])
    return {stem(w) for w in {*said, words[-1].removesuffix("'s")} if w not in FILLER}


_KIND = re.compile(r"(?:The\s+)?[A-Z][\w']*(?:\s+[A-Z][\w']*)*,\s+(?:a|an|the)\s+(\w[^,;:.]*)")


def speaks_of_trade(line: str, npc: VillagerFacts) -> bool:
    """Whether a line asks the NPC about the things of its own trade."""
    lex = lexicon(npc)
    mine = lex.of_person(me_of(npc))
    said = lex.families(tokens(line), PARTS)
    return bool(mine & said) and bool(re.search(r"\byou(?:r)?\b", line))


def village_names(npc: VillagerFacts) -> set[str]:
    """The names the map's descriptions and the persona give within a sentence that are no
    villager's or place's: the village's own name ("the square in the middle of Stonereach")."""
    text = " ".join([npc.persona, *(p.description for p in npc.places)])
    found = {w.lower() for w in re.findall(r"(?<=[a-z,] )([A-Z][a-z]+)", text)}
    # and before a place's own noun: "Ashby Green", "Thornwick Cross"
    for word, noun in re.findall(r"\b([A-Z][a-z]+) ([A-Z][a-z]+)\b", text):
        if noun.lower() in PLACE_NOUNS | {"green", "cross", "common", "pond", "mere"}:
            found.add(word.lower())
    people = {w for v in [*npc.people] for w in name_words(v.name)} | name_words(npc.name)
    places = {w for p in npc.places for w in name_words(p.name)}
    return found - people - places


def described_by(words: str, target: Target) -> bool:
    """Whether words name a place by its own name or description ("the apple trees"), not
    only by what its keeper's persona says."""
    said = {stem(w) for w in tokens(words) if w not in FILLER}
    own = {stem(w) for w in tokens(f"{target.name.replace('_', ' ')} {target.about}")}
    return bool(said & own)


def without_village(line: str, npc: VillagerFacts) -> str:
    """A line without the village's own name: "the grumpiest person in Saltcombe" names
    no one who combs the beach."""
    home = village_names(npc)
    return " ".join(w for w in line.split() if w.strip("?!.,").lower() not in home)
