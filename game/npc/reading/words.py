"""The words of a line: spelt one way (`norm`, `tokens`, `stem`), the words that name
nothing, the words that call a place or go with a name: plain English, any village's."""

from __future__ import annotations

import re

__all__ = [
    "FILLER",
    "GENERIC_PLACES",
    "MAN",
    "NUMBER_WORDS",
    "PLACE_NOUNS",
    "TITLES",
    "WOMAN",
    "called",
    "name_words",
    "norm",
    "place_like",
    "spelt_out",
    "stem",
    "tokens",
]

# Words that say nothing about which place or person is meant.
FILLER = frozenset(
    """a an the to of in on at by for from with into onto over near by around about and or
    but so then now please pls quickly quick right away there here this that these those it
    its me us you your my our we i let lets let's can could would will just go going walk
    take show lead bring guide way where is are be was some one thing place spot somewhere
    friend mate sir madam again too also really very little bit together okay ok yes
    village town now today up down back way do does did how what which who whom
    whose when why want need like old new big small good nice great lovely pretty fine best
    come came get got see look looks looking find out off all any kindly maybe perhaps
    if i'd i'm you're tell know after before during since until while once""".split()
)
# The numbers as words, one to twenty: NUMBER_WORDS[n - 1] says n.
NUMBER_WORDS = tuple(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty""".split()
)
# Words that call a place; a line that names one the map lacks is about a place unknown.
PLACE_NOUNS = frozenset(
    """tavern inn pub alehouse castle church temple chapel shrine tower mill windmill farm
    school library harbour harbor port station hospital bank palace mine cave caves
    lighthouse barn stable stables graveyard cemetery gate gates square hall townhall lake
    sea ocean mountain mountains forest woods wood field fields road city town house home
    hut cottage place shop store inn camp prison jail dungeon arena theatre theater museum
    zoo park docks garden smithy market well bridge beach pond orchard plaza dock quay
    street alley tree mansion manor fort fortress workshop studio cabin kiln pit pits meadow
    shed lodging lodge pasture paddock yard quarry wharf pier jetty knoll hill croft""".split()
)
# How the name of a place often ends ("brewery", "granary", "bakehouse", "tinker_yard").
_PLACE_END = re.compile(r"(?:[a-z]{3}(?:ery|ary|ory)|house|shop|yard|works|hut)$")
# Words ending like a place that are not one.
_NOT_PLACES = frozenset(
    "every very bravery delivery misery mystery flattery scenery machinery recovery "
    "discovery battery lottery jewellery history story memory sorry worry glory theory "
    "victory salary library".split()
)
# Words for someone's place that do not say which place it is.
GENERIC_PLACES = frozenset(
    "house home place hut cottage shop spot workshop room door dwelling abode stall yard".split()
)
# Titles go with a name but do not tell who is meant ("Elder Maren": Maren).
# Words that say someone is a woman or a man ("a young woman who keeps the hives", "her
# mother"): alternatives for a regular expression.
WOMAN = (
    r"woman|girl|lass|wife|widow|mother|grandmother|sister|lady|daughter|aunt|mistress|gran|"
    r"granny|nan"
)
MAN = r"man|boy|lad|husband|widower|father|grandfather|brother|son|uncle|master|grandad|granddad"
TITLES = frozenset("elder old young little master mistress mister mr mrs miss sir lady".split())
# The words a name opens with that say what someone is to the village, not who ("Mother
# Gisla", "Brother Anselm", "Old Tom"): such a one is called by both words.
_HONORIFICS = TITLES | frozenset(
    """mother father brother sister granny gran grandma grandpa grandad gammer gaffer aunt
    auntie uncle dame goodwife goodman goody widow captain doctor doc dr""".split()
)


def called(name: str) -> str:
    """What a villager is called in a line, short: the first word of its name, or its
    first two when the first is a title ("Mother Gisla", never "Mother")."""
    words = name.split()
    if len(words) > 1 and words[0].lower().rstrip(".") in _HONORIFICS:
        return " ".join(words[:2])
    return words[0] if words else name


def norm(text: str) -> str:
    """A line in lower case, its quotes plain, its spaces single."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return " ".join(text.lower().split())


def tokens(text: str) -> list[str]:
    """The words of a line ("what's" and "wren's" kept whole)."""
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", norm(text))


# Plurals no ending rule undoes: "afraid of mice" is afraid of a mouse.
_IRREGULAR = {
    "mice": "mouse",
    "geese": "goose",
    "lice": "louse",
    "teeth": "tooth",
    "feet": "foot",
    "men": "man",
    "women": "woman",
    "children": "child",
    "oxen": "ox",
    "knives": "knife",
    "wives": "wife",
    "lives": "life",
    "wolves": "wolf",
    "calves": "calf",
}


def stem(word: str) -> str:
    """A word without its plural ending ("stories" -> "story", "mice" -> "mouse")."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for end, repl in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            if end == "es" and not re.search(r"(?:x|z|ch|sh|ss)es$", word):
                continue  # "horses" is a horse, "boxes" a box
            return word[: -len(end)] + repl
    return word


def place_like(word: str) -> bool:
    """Whether a word calls a place ("tavern", "brewery", "tinker_yard")."""
    return word in PLACE_NOUNS or (bool(_PLACE_END.search(word)) and word not in _NOT_PLACES)


def name_words(name: str) -> set[str]:
    """The words of a name or a place id ("fisher_hut" -> fisher, hut)."""
    return {w for w in tokens(name.replace("_", " ")) if w}


# How players type, spelt out: "wheres ur hut", "ill pay u next week", "gimme ten".
_SPELT = {
    "u": "you", "ya": "you", "yu": "you", "r": "are", "thru": "through", "wanna": "want to",
    "gonna": "going to", "gotta": "got to", "gimme": "give me", "lemme": "let me",
    "dunno": "don't know", "kinda": "kind of", "sorta": "sort of", "coz": "because",
    "cuz": "because", "cos": "because", "bc": "because", "pls": "please", "plz": "please",
    "thx": "thanks", "ty": "thank you", "im": "I'm", "ive": "I've", "dont": "don't",
    "cant": "can't", "wont": "won't", "didnt": "didn't", "doesnt": "doesn't", "isnt": "isn't",
    "wasnt": "wasn't", "arent": "aren't", "couldnt": "couldn't", "wouldnt": "wouldn't",
    "shouldnt": "shouldn't", "havent": "haven't", "hasnt": "hasn't", "whats": "what's",
    "wheres": "where's", "whos": "who's", "hows": "how's", "thats": "that's",
    "theres": "there's", "heres": "here's", "youre": "you're", "youve": "you've",
    "tho": "though", "abt": "about", "tmrw": "tomorrow", "tmr": "tomorrow", "b4": "before",
    "tonite": "tonight", "nite": "night", "idk": "I don't know", "btw": "by the way",
    "wat": "what", "wut": "what", "wot": "what", "wen": "when", "y": "why", "k": "ok",
    "kk": "ok", "okey": "okay", "yeh": "yeah", "yea": "yeah", "nah": "no", "plx": "please",
    "whatve": "what've", "whatcha": "what have you", "watcha": "what have you",
    "laterz": "laters", "cya": "see you", "seeya": "see you", "wassup": "what's up",
    "whassup": "what's up", "wazzup": "what's up",
    # letters swapped as fingers slip
    "hwo": "how", "teh": "the", "waht": "what", "whta": "what", "wehre": "where",
    "whree": "where", "adn": "and", "yuo": "you", "yoru": "your", "taht": "that",
    "ehre": "here", "hte": "the", "tehre": "there", "knwo": "know", "cna": "can",
}  # fmt: skip
_NAMES_TOO = frozenset("U R Y K Ya Yu Ty Bc Kk".split())  # capitalised, a name or a letter
# "ur": "you're" before what is said of someone, else "your"; "ill": "I'll" before a verb.
_YOU_ARE = re.compile(
    r"(?<![\w'-])ur\s+(?=(?:a|an|the|so|very|not|just|really|too|right|welcome|kidding|mad|crazy|"
    r"lying|joking|being|always|never|such|gonna|going|\w+ing|\w+ed)\b)"
)
_I_WILL = re.compile(
    r"(?:^|(?<=[.!?,;]\s)|(?<=\bthen\s)|(?<=\bso\s)|(?<=\band\s)|(?<=\bok\s))ill\s+(?=[a-z]+)",
    re.I,
)


def spelt_out(text: str) -> str:
    """A line as typed, its chat spellings written out ("wheres ur hut" -> "where's your
    hut"), a question put with a tag asked ("u scared or what" -> "...or what?"); anything
    else as it is."""
    text = _YOU_ARE.sub("you're ", text)
    text = re.sub(r"(?<![\w'-])(?:ur|yer)(?![\w'-])", "your", text)
    text = _I_WILL.sub("I'll ", text)
    text = re.sub(r"\bor (what|not)\s*$", r"or \1?", text, flags=re.I)  # "u scared or what"

    def spell(found: re.Match[str]) -> str:
        word = found.group()
        if word in _NAMES_TOO:
            return word  # "Vitamin K", a player called Ty
        return _SPELT.get(word.lower(), word)

    return re.sub(r"(?<![\w'-])[A-Za-z0-9]+(?![\w'-])", spell, text)
