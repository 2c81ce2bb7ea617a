"""Families of words: one idea, several ways to say it. The plain-English ones hold for any
village (water, crowds, a crossing, food for the hungry, a smith for a broken axe); each
villager's own family is made from the map (`Lexicon`): its trade from its character
sheet, its work and home places, its wares and the words of what its persona says it does.
"a miller" is the one who "runs the windmill"; "the mill" is hers by the shared root.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.limits import LEXICONS_KEPT
from game.npc.facts import PersonFact, PlaceFact, VillagerFacts
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
    "DOING",
    "PARTS",
    "Lexicon",
    "doings",
    "families_in",
    "families_of",
    "lexicon",
    "me_of",
    "people_words",
    "trades_of",
]

# Families of plain English: one idea, several ways to say it, in any village. `people`
# name who does it, `places` where it is done, `things` what it is about. A villager's
# own words (its trade, its places, what it sells and does) come from the map: `Lexicon`.
_COMMON_FAMILIES: dict[str, dict[str, frozenset[str]]] = {
    "metal": {
        "people": frozenset({"smith", "blacksmith", "ironmonger", "farrier", "tinker"}),
        "places": frozenset({"smithy", "ironworks", "foundry"}),
        "things": frozenset(
            {"iron", "steel", "metal", "horseshoe", "horseshoes", "sword", "hammer", "kettle"}
            | {"mend", "mending", "repair", "repairs", "fix", "fixing", "weld", "nail", "nails"}
            | {"tool", "tools", "axe", "knife", "hinge", "wheel", "shoe", "sharpen", "kettles"}
        ),
    },
    "food": {
        "people": frozenset({"baker", "cook"}),
        "places": frozenset({"bakehouse", "kitchen"}),
        "things": frozenset(
            {"bread", "cake", "cakes", "pie", "pies", "stew", "soup", "dough", "flour", "bake"}
            | {"eat", "food", "hungry", "breakfast", "meal", "snack", "rolls", "tart", "tarts"}
            | {"baking", "baked", "bakes", "supper", "dinner", "lunch", "starving"}
            | {"cheese", "butter", "jam", "sausage", "sausages", "ham", "eggs", "pasty"}
            | {"roast", "porridge", "broth", "meat", "bacon", "mutton", "pudding", "dumplings"}
        ),
    },
    "drink": {
        "people": frozenset({"innkeeper", "brewer", "barkeep", "publican", "barmaid", "barman"}),
        "places": frozenset({"tavern", "inn", "pub", "alehouse", "taproom", "brewery"}),
        "things": frozenset({"ale", "beer", "wine", "cider", "mead", "pint", "pours", "pour"}),
    },
    "fish": {
        "people": frozenset({"fisher", "fisherman", "fisherwoman", "angler", "fishwife"}),
        "places": frozenset({"jetty", "pier", "wharf", "quay"}),
        "things": frozenset({"fish", "fishing", "fishes", "rowboat", "boat", "net", "nets"}),
    },
    "trade": {
        "people": frozenset(
            {"merchant", "trader", "peddler", "pedlar", "shopkeeper", "salesman", "vendor"}
        ),
        "places": frozenset({"shop", "store", "stall", "stalls", "market", "marketplace"}),
        "things": frozenset({"wares", "goods", "cart"}),
    },
    "elder": {
        "people": frozenset(
            {"elder", "eldest", "oldest", "leader", "chief", "mayor", "headman", "headwoman"}
            | {"ruler", "wisest", "leads", "governs", "lead", "reeve"}
        ),
        "places": frozenset(),
        "things": frozenset({"stories", "story", "history", "council", "advice", "peace"}),
    },
    "child": {
        "people": frozenset({"child", "kid", "boy", "girl", "youngster", "lad", "lass"}),
        "places": frozenset(),
        "things": frozenset({"adventurer", "toys", "games"}),
    },
    "clay": {
        "people": frozenset({"potter"}),
        "places": frozenset({"pottery", "kiln"}),
        "things": frozenset({"pot", "pots", "jug", "jugs", "bowl", "bowls", "clay", "vase"}),
    },
    "cloth": {
        "people": frozenset({"weaver", "tailor", "seamstress", "spinner", "dyer"}),
        "places": frozenset({"loom"}),
        "things": frozenset(
            {"cloth", "blanket", "blankets", "cloak", "cloaks", "wool", "thread", "yarn"}
            | {"coat", "shirt", "dress", "sew", "sewing", "weave", "weaving", "linen"}
        ),
    },
    "grain": {
        "people": frozenset({"miller", "farmer"}),
        "places": frozenset({"mill", "windmill", "granary"}),
        "things": frozenset({"flour", "grain", "wheat", "barley", "oats", "grind"}),
    },
    "wood": {
        "people": frozenset({"carpenter", "joiner", "cooper", "woodcutter", "wheelwright"}),
        "places": frozenset({"sawmill", "woodyard"}),
        "things": frozenset({"wood", "timber", "plank", "planks", "barrel", "barrels", "cask"}),
    },
    "healing": {
        "people": frozenset(
            {"healer", "herbalist", "midwife", "physician", "doctor", "apothecary"}
        ),
        "places": frozenset(),
        "things": frozenset(
            {"herb", "herbs", "remedy", "remedies", "salve", "salves", "medicine", "cure"}
            | {"ill", "sick", "ailing", "wound", "fever"}
        ),
    },
    "faith": {
        "people": frozenset({"priest", "priestess", "nun", "monk", "friar", "vicar", "parson"}),
        "places": frozenset({"chapel", "church", "temple", "shrine", "abbey"}),
        "things": frozenset({"prayer", "prayers", "pray", "bless", "blessing", "sermon"}),
    },
    "herd": {
        "people": frozenset({"shepherd", "shepherdess", "goatherd", "herdsman", "herder"}),
        "places": frozenset({"pasture", "stable", "stables", "fold"}),
        "things": frozenset({"sheep", "goat", "goats", "cow", "cows", "lamb", "lambs", "flock"}),
    },
    "boat": {
        "people": frozenset({"sailor", "ferryman", "ferrywoman", "boatman", "captain"}),
        "places": frozenset({"harbour", "harbor", "docks"}),
        "things": frozenset(
            {"ferry", "ship", "ships", "sail", "sails", "sailing", "voyage", "sea"}
        ),
    },
    "water": {
        "people": frozenset(),
        "places": frozenset({"lake", "river", "tarn", "pool", "stream", "brook"}),
        "things": frozenset({"water", "drink", "swim", "swimming", "ducks", "thirsty"}),
    },
    "crowd": {
        "people": frozenset(),
        "places": frozenset(),
        "things": frozenset(
            {"crowd", "crowds", "crowded", "packed", "busy", "festival", "festivals", "throng"}
        ),
    },
    "early": {
        "people": frozenset(),
        "places": frozenset(),
        "things": frozenset({"early", "dawn", "daybreak", "sunrise", "sunup", "cockcrow"}),
    },
    "cross": {
        "people": frozenset(),
        "places": frozenset({"bridge", "ford", "crossing"}),
        "things": frozenset({"cross", "across", "side", "bank", "over"}),
    },
}
_COMMON_OF: dict[str, set[tuple[str, str]]] = {}
for _family, _parts in _COMMON_FAMILIES.items():
    for _part, _words in _parts.items():
        for _word in _words:
            _COMMON_OF.setdefault(_word, set()).add((_family, _part))
PARTS = ("people", "places", "things")
# How the name of someone by their trade often ends ("miller", "gravedigger", "ferrywoman").
_PERSON_END = re.compile(
    r"(?:er|or|ist|ess|man|woman|wife|smith|herd|wright|monger|sister|brother)$"
)
# Words of a persona that say nothing of what someone does.
_BLAND = frozenset(
    """village villager villagers town people everyone everybody anyone someone nobody
    person day days time times year years life first last always never every stays
    thinks asks tells knows goes says whoever whatever certain sure only herself himself
    themselves something anything nothing
    who whose whom while when before after since than its his her their them they she he
    has have had was were been being with without from into onto upon under above
    most more less much many few very quite rather bit lot lots own same other others
    cheerful gruff quiet loud kind gentle stern patient curious restless nosy gloomy brisk
    shy proud calm warm dry sharp young old little big tall small good bad great""".split()
)
# What a persona says someone does, past its first sentence ("She runs the windmill").
DOING = re.compile(
    r"\b(?:runs|keeps|tends|minds|looks after|takes care of|works|mends|makes|sells|grows|"
    r"bakes|brews|weaves|herds|guards|owns|cares for|fixes|builds|trades|deals in)\b",
    re.I,
)


def _root(word: str) -> str:
    """What a word is made from, for words of one family: "miller", "mill" and "mills" are
    all `mil`; "baker", "bakery" and "baking" are `bak`; "ferrywoman" is `fer`."""
    for end in ("woman", "man", "wife"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            word = word[: -len(end)]
            break
    for end in ("ery", "ers", "er", "ies", "ing", "ed", "es", "s", "y", "e"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            word = word[: -len(end)]
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]  # "mill", "pott": one letter
    return word


def _variants(word: str) -> set[str]:
    """A word, its stem, and the word without -d/-ed/-ing ("forged", "baking", "fishes")."""
    found = {word, stem(word)}
    for end in ("d", "ed", "ing"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            found |= {word[: -len(end)], word[: -len(end)] + "e"}
    return found


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", " ".join(text.split()), maxsplit=1)[0]


def doings(persona: str, name: str = "") -> str:
    """What the persona says someone does past its first sentence, clause by clause ("She
    runs the windmill on the hill and scolds..." -> "runs the windmill on the hill"): its
    words are the villager's as much as its first sentence's are."""
    names = "|".join(re.escape(n) for n in {name, *name.split()} if n)
    subject = rf"(?:(?:she|he|they{'|' + names if names else ''})\s+)?(?:\w+ly\s+|also\s+)?"
    found = []
    for sentence in re.split(r"(?<=[.!?])\s+", " ".join(persona.split()))[1:]:
        for clause in re.split(r"\s*[,;:.!?]\s*|\s+(?:and|but)\s+", sentence):
            said = re.match(subject + r"(" + DOING.pattern + r".*)", clause, re.I)
            if said:
                found.append(said.group(1))
    return ". ".join(found)


class _Own:
    """One villager's own words, from the map: who it is (its trade), where (its work and
    home, the places its persona names) and what about (its wares, what it does)."""

    def __init__(self, v: PersonFact, place_ids: frozenset[str], names: frozenset[str]) -> None:
        self.key = f"@{v.npc_id}"
        skip = FILLER | _BLAND | TITLES | names  # anyone's name says who, not what
        parts: dict[str, set[str]] = {part: set() for part in PARTS}
        trade = tokens(v.trade)  # a name in it is a title ("chapel sister" of Sister Agathe)
        # "miller", "tavern keeper": a trade named; "keeps the inn": what it does.
        named = 0 < len(trade) <= 2 and not (len(trade) == 2 and trade[0].endswith("s"))
        if named:
            parts["people"].add(trade[-1])
            for w in trade[:-1]:
                parts["places" if w in place_ids or place_like(w) else "things"].add(w)
        else:
            parts["things"].update(w for w in trade if w not in skip)
        # Its own places: of its trade ("tavern keeper"), its work and home, and those its
        # persona says it keeps ("runs the windmill"); other places it names are weaker.
        mine = [w for w in trade[:-1] if named and w in place_ids]
        mine += [p for p in (v.work, v.lives, v.home) if p]
        said = norm(f"{v.role} {v.does}")
        for place in sorted(place_ids):
            spoken = re.escape(place.replace("_", " "))
            if re.search(rf"\b{spoken}\b", said):
                parts["places"].update(name_words(place))
            if re.search(DOING.pattern + rf"\s+(?:the |her |his |their |a |an )?{spoken}\b", said):
                mine.append(place)
        for place in mine:
            words = name_words(place)
            for w in words:  # "weaver_cottage": a weaver, and her cottage
                person = len(words) > 1 and bool(_PERSON_END.search(w)) and not place_like(w)
                parts["people" if person else "places"].add(w)
        self.places = tuple(dict.fromkeys(p for p in mine if p in place_ids))
        # a name said in passing is no word of its own: "on the east side of Ashby"
        proper = {w.lower() for w in re.findall(r"(?<=[a-z,] )([A-Z][a-z]+)", v.role)}
        for w in tokens(said):
            w = w.removesuffix("'s")
            if w in skip or len(w) < 3 or w in parts["people"] | parts["places"] | proper:
                continue
            parts["places" if w in PLACE_NOUNS else "things"].add(w)
        for ware in v.wares:
            parts["things"].update(w for w in tokens(ware) if w not in skip and len(w) >= 3)
        for words in parts.values():  # "the dye works" is no word on anyone's "hard work"
            words -= _WORK_WORDS
        self.parts = {part: frozenset(words) for part, words in parts.items()}
        self.forms: dict[str, str] = {}  # a word's spelling -> its part
        self.roots: dict[str, str] = {}  # a word's root -> its part
        self.heads: set[str] = set()  # roots a compound may end in ("smith", "mill")
        for part in reversed(PARTS):  # people win a word that is in two parts
            for word in parts[part]:
                for form in _variants(word):
                    self.forms[form] = part
                if len(word) >= 4:
                    self.roots[_root(word)] = part
                    if word not in GENERIC_PLACES and word not in PLACE_NOUNS - {"mill"}:
                        self.heads.add(_root(word))
        who = tokens(f"{v.trade} {v.role}")
        self.crafts = self._crafts(who)

    def _crafts(self, who: list[str]) -> frozenset[str]:
        """The plain families the villager is of: by a word of its trade or its first
        sentence for a kind of person ("a wise elder"), by its places, or by two words of
        what it does or sells ("bakes the bread": food)."""
        found = {f for w in who for f, kind in _common(w) if kind == "people"}
        things: dict[str, int] = {}
        for part in ("places", "things"):
            for word in self.parts[part]:
                for family, kind in _common(word):
                    if kind != part or not _COMMON_FAMILIES[family]["people"]:
                        continue
                    if part == "things":
                        things[family] = things.get(family, 0) + 1
                    else:
                        found.add(family)
        return frozenset(found | {family for family, count in things.items() if count >= 2})

    def part_of(self, word: str) -> str | None:
        """Which of the villager's parts a word said names: its own words in any spelling,
        a word of the same root ("the mill" of a miller), or a compound made with one
        ("smith" of a blacksmith, "windmill" of a mill, "school" of a schoolhouse); None
        if none."""
        for form in _variants(word):
            if form in self.forms:
                return self.forms[form]
        if len(word) < 3 or word in FILLER:
            return None
        root = _root(word)
        for own, part in self.roots.items():
            if len(own) < 3:
                continue
            same = own == root
            compound = (
                len(word) >= 4
                and own in self.heads
                and (
                    (root.endswith(own) and len(root) - len(own) >= 3)
                    or (own.endswith(root) and len(own) - len(root) >= 3 and len(root) >= 4)
                    # a place's word at its start: "school" of a schoolmistress
                    or (
                        own.startswith(root)
                        and len(own) - len(root) >= 3
                        and len(root) >= 4
                        and place_like(word)
                    )
                )
            )
            if same or compound:
                if place_like(word):
                    return "places"
                if _PERSON_END.search(word) or (compound and part == "people"):
                    return "people"
                return "things" if part == "people" else part
        return None


_WORK_WORDS = frozenset({"work", "works"})


def _common(word: str) -> set[tuple[str, str]]:
    """The plain families (and their parts) of a word in any of its spellings."""
    found: set[tuple[str, str]] = set()
    for form in _variants(word):
        found |= _COMMON_OF.get(form, set())
    return found


class Lexicon:
    """The families of words of one village: the plain ones, and each villager's own."""

    def __init__(self, people: tuple[PersonFact, ...], places: tuple[str, ...]) -> None:
        place_ids = frozenset(p.lower() for p in places)
        names = frozenset(w for v in people for w in name_words(v.name) | {v.npc_id.lower()})
        self.own = {v.npc_id: _Own(v, place_ids, names) for v in people}
        self.at: dict[str, set[str]] = {}  # a place id -> the families of who is there
        for v in people:
            own = self.own[v.npc_id]
            for place in own.places:
                self.at.setdefault(place, set()).update({own.key, *own.crafts})

    def families(self, words: Iterable[str], parts: tuple[str, ...] = PARTS) -> set[str]:
        """The families the words name in these parts: plain ones and villagers' own."""
        found: set[str] = set()
        for word in words:
            found |= {family for family, part in _common(word) if part in parts}
            for own in self.own.values():
                if own.part_of(word) in parts:
                    found.add(own.key)
        return found

    def of_person(self, v: PersonFact) -> set[str]:
        """The families a villager is of: its own, and the plain ones of its trade."""
        own = self.own.get(v.npc_id)
        return {own.key, *own.crafts} if own is not None else set()

    def place_of(self, v: PersonFact) -> str:
        """Where a villager is found: its work or home, else the place it keeps."""
        own = self.own.get(v.npc_id)
        return v.home or (own.places[0] if own is not None and own.places else "")

    def keeps(self, v: PersonFact, place: str) -> bool:
        """Whether a place is the villager's own (its work, home, or the one it keeps)."""
        own = self.own.get(v.npc_id)
        return own is not None and place in own.places

    def of_place(self, place: PlaceFact) -> set[str]:
        """The families of who works or lives at a place."""
        return self.at.get(place.name, set())


_LEXICONS: dict[tuple[tuple[str, ...], tuple[str, ...]], Lexicon] = {}


def lexicon(npc: VillagerFacts) -> Lexicon:
    """The families of the NPC's village: of the villagers and places it knows."""
    people = (*npc.people, me_of(npc))
    key = (tuple(v.model_dump_json() for v in people), tuple(p.name for p in npc.places))
    found = _LEXICONS.get(key)
    if found is None:
        if len(_LEXICONS) >= LEXICONS_KEPT:  # a few villages' worth: start afresh
            _LEXICONS.clear()
        found = _LEXICONS[key] = Lexicon(people, tuple(p.name for p in npc.places))
    return found


def families_in(
    words: Iterable[str], parts: tuple[str, ...], lex: Lexicon | None = None
) -> set[str]:
    """The families the words name in these parts: the village's (with a lexicon), or
    the plain ones."""
    if lex is not None:
        return lex.families(words, parts)
    return {family for word in words for family, part in _common(word) if part in parts}


def me_of(npc: VillagerFacts) -> PersonFact:
    """The NPC itself as a villager, from its persona, its sheet and its home."""
    sheet = npc.sheet
    return PersonFact(
        npc_id=npc.npc_id,
        name=npc.name,
        role=_first_sentence(npc.persona),
        home=npc.home,
        trade=sheet.role,
        work=sheet.work,
        lives=npc.home,
        wares=list(sheet.wares),
        does=doings(npc.persona, npc.name),
    )


def families_of(text: str) -> set[str]:
    """The plain families of words a text speaks of (metal, food, water, ...)."""
    return families_in(tokens(text), PARTS)


def people_words(families: set[str]) -> set[str]:
    """The words for the people of some families ("metal" -> smith, blacksmith, ...)."""
    return {word for family in families for word in _COMMON_FAMILIES[family]["people"]}


def trades_of(persona: str) -> set[str]:
    """The plain families of what someone does, by the first sentence of their persona
    ("bakes the bread before dawn" -> food)."""
    return families_in(tokens(_first_sentence(persona)), PARTS)
