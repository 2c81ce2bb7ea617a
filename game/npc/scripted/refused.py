"""What a request asks, as a refusal or a fear reads it: its words by their stems and by
the family of one idea they belong to ("rowing" and "the ferry": the sea), and whether it
touches a refusal, by the deed refused, the thing it is refused of, or what it is refused
on ("work on a Sunday": "come out this Sunday?", not "come out today?"); and the no said on
a refusal's terms ("Not without seeing you first.").
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.naming import FILLER, stem, tokens
from game.npc.scripted.retell import CUT_BEFORE, bare, in_own_words, shorter
from game.npc.scripted.speaker import Speaker, say
from game.npc.skills import SkillCall

__all__ = [
    "ABOUT_ANOTHER",
    "DEALING",
    "FOR_ANOTHER",
    "NOT_BIDS",
    "UNLESS",
    "WITHHOLDS",
    "at_a_time",
    "deed_asked",
    "kind_named",
    "not_unless",
    "on_its_condition",
    "plural_of",
    "restricted",
    "stems_asked",
    "terms_met",
    "touches_refusal",
]

# One idea, several words: a request touches a fear or refusal by any of them.
_FAMILIES: tuple[frozenset[str], ...] = tuple(
    frozenset(words.split())
    for words in (
        "sea ocean boat ship sail sailing ferry swim waves tide voyage island aboard",
        "height heights high edge cliff climb top roof ladder tower hill hilltop peak summit",
        "dark night cave tunnel shadow underground",
        "ghost ghosts haunted haunting haunts spook spooks spooky phantom phantoms spectre",
        "hurry rush quick quickly fast hasten soon sooner",
        "quarrel fight argue row brawl shout shouting wrestle wrestling rowdy rough scrap racket "
        "yell brawling noise noisy thump punch smack clobber wallop thrash",
        "child children kid kids youngster youngsters lad lass boy girl baby underage minor",
        "ale alehouse inn tavern pub pint beer drink drinking cider drunk drunkard drunkards "
        "drunken",
        "remedy remedies cure draught potion medicine tonic salve syrup physic dose cough "
        "fever ache headache toothache poorly",
        "hold handle touch carry stroke pet borrow",
        "lend borrow loan",
        "price cheaper discount knock lower reduce bargain haggle drop pennies pence coppers",
        "thunder storm stormy lightning gale wind windy gusty blowing rain raining rainy wet",
        "crowd crowds festival packed throng",
        "poach poacher poachers poaching deer snare snares hunt hunts hunting hunter shoot "
        "shooting trap trapping pheasant pheasants rabbit rabbits hare hares",
        "dog dogs hound hounds puppy puppies pup pups cur mutt",
        "bee bees hive hives beehive beehives swarm swarms sting stings wasp wasps hornet hornets",
        "bird birds hawk hawks falcon falcons kestrel kestrels eagle eagles",
        "tree trees oak oaks elm elms beech yew pine birch sapling saplings fell felling chop",
        # a season by its months: "it's April" is spring
        "spring springtime march april",
        "summer summertime midsummer june july august",
        "autumn harvest september october november",
        "winter wintertime midwinter december january february",
    )
)
_NOT_TELLING = FILLER | frozenset(
    """anyone anybody everyone everybody someone nobody nothing anything whoever whatever
    never always ever really truly will would should could might must shall have has had
    give take make let want need single any not even""".split()
)


# Sayings whose words tell nothing alone, as the plain word of their family.
_SAYINGS = (
    (
        re.compile(r"\bhave (?:it|this|that) out\b|\bcome to blows\b|\bsettle the score\b"),
        "quarrel",
    ),
    # "let the children out early": leave; "it's pouring down": rain
    (re.compile(r"\b(?:out|go home|go|off) early\b|\bgo home\b|\bout of school\b"), "leave"),
    (re.compile(r"\b(?:a|for a|go for a) (?:dip|paddle)\b|\bpaddling\b|\bbathing\b"), "swim"),
    (
        re.compile(
            r"\bpouring(?: down)?\b|\bbucketing\b|\bchucking it down\b|\bdrizzl\w*|"
            r"\b(?:spitting|spotting)(?: with rain)?\b"
        ),
        "rain",
    ),
    # "she's nine", "my little brother": a child
    (
        re.compile(
            r"\b(?:she|he|they)(?:'s| is| are) (?:only |just )?(?:[1-9]|1[0-3]|one|two|three|four|"
            r"five|six|seven|eight|nine|ten|eleven|twelve|thirteen)\b(?! (?:o'clock|pence|"
            r"pennies|feet|foot|miles?|shillings?)\b)|\blittle (?:sister|brother|one|ones)\b"
        ),
        "child",
    ),
    # "the haunted mill": a ghost's
    (re.compile(r"\bhaunted\b"), "haunted ghost"),
    # "the deep water beyond the harbour wall": the sea's, as a boat is
    (re.compile(r"\b(?:deep|open|rough|dark) waters?\b"), "sea"),
    # "more than a day old", "from yesterday", "last week's": not fresh
    (
        re.compile(
            r"\bmore than (?:a|one|two|three) (?:days?|weeks?) old\b|\b(?:a |one )?day-? ?old\b|"
            r"\b(?:from )?yesterday\b|\blast (?:night|week)\b|\bleftovers?\b|\bnot fresh\b|"
            r"\bgone off\b|\bpast (?:its|their) best\b"
        ),
        "stale",
    ),
)


# The words a line opens with that bid nothing before "my" or "me" ("glad my cough's
# gone", "is my hat on?"), unlike a verb ("sweep my chimney").
NOT_BIDS = (
    r"(?:is|are|was|were|am|has|have|had|do|does|did|can|could|will|would|shall|should|may|"
    r"might|must|what|where|when|why|how|who|which|whose|and|but|so|or|all|of|in|on|to|for|"
    r"with|at|by|from|about|like|love|hate|miss|glad|sorry|thanks|thank|oh|ah|hi|hello|hey|"
    r"yes|no|yeah|ok|okay|well|excuse|pardon|forgive|tell|ask|bless|believe|trust|meet|saw|"
    r"met|see|hear|heard|guess|hope|bet|mind|morning|evening|afternoon|night|good|welcome|"
    r"cheers|happy|merry|poor|lucky|nice|lovely|dear|bye|goodbye|farewell|congratulations)"
)


# A deed asked of the NPC for tonight or the morning: a hurry.
_BY_TONIGHT = re.compile(r"\byou\b[^.?!]*\b(?:tonight|by (?:tomorrow|morning|dawn))\b")


def _deed(base: str) -> str:
    """A verb as its -ing or -er form left it: "swimm" -> "swim"."""
    return re.sub(r"([^aeiou])\1$", r"\1", base)


def stems_asked(text: str, families: bool = True) -> set[str]:
    """A line's telling words by their stems, and the families of one idea they touch."""
    text = re.sub(r"'s\b", "", text.lower())  # "the river's rising": the river
    for saying, word in _SAYINGS:
        text = saying.sub(word, text)
    words = {w for w in tokens(text) if len(w) > 2 and w not in _NOT_TELLING}
    if _BY_TONIGHT.search(text):  # "could you finish it tonight?", not "can I stay tonight?"
        words.add("hurry")
    found = {stem(w) for w in words}
    # the deed of "swimming", and of one who does it: "quarrellers", "climbers"
    found |= {_deed(w[:-3]) for w in found if len(w) > 6 and w.endswith("ing")}
    found |= {_deed(w[:-2]) for w in found if len(w) > 5 and w.endswith("ed")}  # "cracked"
    doers = {_deed(w[:-2]) for w in found if w.endswith("er")}
    for family in _FAMILIES if families else ():
        if (words | found | doers) & family or any(_compound_of(w, family) for w in words):
            found |= family
    return found


def _compound_of(word: str, family: frozenset[str]) -> bool:
    """Whether a long word is made with one of a family's ("thunderstorms": storm,
    "seasick": sea): a family word of four letters or more at its start or end."""
    return len(word) > 6 and any(
        len(f) > 3 and (word.startswith(f) or word.rstrip("s").endswith(f)) for f in family
    )


# A refusal on a condition: what the one asking must do, or must bring ("give a remedy to
# anyone who won't tell me what ails them", "take anyone below without a lamp").
UNLESS = re.compile(
    r"\b(?:anyone|anybody|someone|people|those|a \w+) who (?:won't|will not|doesn't|does not|"
    r"can't|cannot|don't|do not) (?P<must>.+)$|\bunless (?:they |you )?(?P<unless>.+)$|"
    r"\bwithout (?P<without>.+)$"
)
# A request that says it will not do what such a condition asks ("and don't ask me why").
WITHHOLDS = re.compile(
    r"\b(?:don't|do not|never) (?:ask|mind|question)\b|\bno questions\b|\bnone of your\b|"
    r"\b(?:won't|will not|shan't|can't) (?:say|tell|explain)\b|\bnot (?:saying|telling)\b|"
    r"\bnever mind (?:what|why|who)\b|\bwithout (?:a|an|any|the)\b|\bdon't need (?:a|an|any)\b|"
    r"\b(?:don't|do not|no) need (?:to |for you to )?(?:look|see|examine|check|ask)\b"
)
# A deed asked for someone not here: "it's for my sister".
_KIN = (
    r"(?:sister|brother|mother|mum|father|dad|wife|husband|son|daughter|friend|gran\w*|child|"
    r"kids?|baby|neighbour|master|mistress|cousin|aunt|uncle)"
)
# "it's for my sister", "my mum's poorly, can I take her some?": for someone not here
FOR_ANOTHER = re.compile(
    rf"\bfor (?:my|a|our) {_KIN}\b|\b(?:my|our) {_KIN}(?:'s| is| has) (?:\w+ )?(?:poorly|ill|sick|"
    r"unwell|ailing|laid up|a fever|a cough|a cold|the \w+)\b|"
    r"\btake (?:her|him|them) (?:some|a|an)\b|\bsomething for (?:her|him|them)\b"
)
# A line that speaks of someone else the deed may be for: "my mother", "don't ask who it's for".
ABOUT_ANOTHER = re.compile(
    rf"\b(?:my|our) {_KIN}\b|\bwho (?:it's|it is|its) for\b|"
    r"\bfor (?:someone|somebody|him|her|them)\b"
)


def terms_met(without: str, line: str) -> bool:
    """Whether a request does what a refusal's terms ask ("without seeing the patient
    first": "come and see my mother"), not saying it will not."""
    first = without.split()[0].lower() if without else ""
    if not first.endswith("ing") or WITHHOLDS.search(line):
        return False
    verb = _deed(first[:-3])  # asked of it: "come and see", "will you see", not "when I see him"
    asked = rf"\b(?:come (?:and |to )?|go (?:and |to )?|you (?:\w+ )?|and |to ){verb}\b"
    return re.search(asked, line.lower()) is not None


# The words of buying and selling: a sale asked touches a refusal by the thing, not by them.
DEALING = frozenset("sell buy purchase price cost charge pay".split())
# Asked to teach the deed, not to do it: "teach me to throw a pot" sells none; "fix my
# clock on the Sabbath" is work on it.
_OTHER_DEED = re.compile(
    r"\b(?:will|would|can|could) you (?:please )?(?P<verb>teach|show|train)\b|\bteach me\b|"
    r"\bshow me how\b"
)


def touches_refusal(line: str, asked: set[str], refused: str) -> bool:
    """Whether a request touches a refusal: by the thing it is refused of, when it names
    one ("dye anything black": not "teach me to dye wool"; "sell a pot with a crack": not
    "do you sell bread?"), and not when another deed is asked of that thing ("teach me to
    throw a pot" of one who will not sell a cracked pot)."""
    verb = stems_asked(refused.split()[0])
    things = stems_asked(_refused_thing(refused), False) - verb  # "hives": "hiv", "hive"
    limit = restricted(refused)
    # what it is refused of may name it ("a little crack"), but not when ("tonight")
    timed = limit is not None and at_a_time(limit.group("cond"))
    cond = stems_asked(limit.group("cond"), False) if limit and not timed else set()
    if not kind_named(refused, asked):
        return False
    cond |= _how_of(refused)
    deed = limit.group("deed") if timed and limit else _unqualified(refused)
    # by its words, but not by how its thing is left: "will you be burning today?" asks
    # no "leave a stack burning unwatched"; "a little crack" names "a pot with a crack"
    shared = asked & (stems_asked(deed) | cond)
    # a thing sold is named by the line's own words, not by their family ("see the bird
    # up close" asks for no hawk)
    plain = stems_asked(line, False) if verb & DEALING else asked
    named = any(a.startswith(t) or t.startswith(a) for a in plain - verb for t in things)
    named = named or bool(asked & cond)
    # "do you sell bread?" is no word on "sell a pot with a crack", nor "dye this wool
    # blue" on "dye anything black": what it is refused of is named, or not touched
    kind_of = bool(things) and bool(re.match(r"(?:any|some)(?:thing)? ", _refused_thing(refused)))
    if not shared or ((verb & DEALING or kind_of) and things and not named):
        return False
    # "let a stranger touch my birds": asked only by its touching ("whistle for your hawk")
    let = _LET_SOMEONE.match(refused)
    deeds = " ".join([let.group(1), *re.findall(r"\bor (\w+)", refused)]) if let else ""
    if let and not asked & stems_asked(deeds):  # "chase or pluck my geese": either
        return False
    other = _OTHER_DEED.search(line)
    taught = other.group("verb") or other.group(0).split()[0] if other else ""
    inside = bool(verb & stems_asked("open")) and " inside" in line  # "show me inside a hive"
    return other is None or inside or bool(verb & (stems_asked(taught) | stems_asked("teach show")))


def kind_named(refused: str, asked: set[str]) -> bool:
    """Whether a request names how the thing refused is, when the refusal says it before
    the thing: "sell a cracked pot" by "a tiny crack", not by "do you sell pots?";
    "yesterday's pies" by "yesterday", not by "eel pies"."""
    how = _how_of(refused)
    return not how or bool(asked & how)


def _how_of(refused: str) -> set[str]:
    words = re.findall(r"\b(?:[a-z]{3,}ed|[a-z]+'s)(?= \w)", _refused_thing(refused))
    return stems_asked(" ".join(words))


_LET_SOMEONE = re.compile(
    r"let (?:a |an |the |any )?(?:strangers?|anyone|anybody|someone|people|folk|child|children|"
    r"customers?|visitors?|outsiders?|them|him|her|you) "
    # its deed, not where it lets them: "let anyone into the forest" is asked by the forest
    r"(?!(?:into|in|through|past|near|onto|on|inside|up|down|across|over|out|behind|beyond)\b)"
    r"(\w+)"
)


def _refused_thing(refused: str) -> str:
    """What a refusal is refused of, after its verb and before what it adds: "leave a
    stack | burning unwatched", "go up a roof | in wind", "sell a pot | with a crack"."""
    kept: list[str] = []
    for word in refused.split()[1:]:
        low = word.lower().strip(",")
        content = [w for w in kept if w.lower() not in CUT_BEFORE | _LEADING]
        if content and (low in CUT_BEFORE or re.fullmatch(r"[a-z]{3,}(?:ing|ed)", low)):
            break
        kept.append(word)
        if word.endswith(","):
            break
    return " ".join(kept)


def _unqualified(refused: str) -> str:
    """A refusal without the -ing or -ed words that say how its thing is left ("leave a
    stack burning unwatched" -> "leave a stack"); "let strangers into the lighthouse" whole."""
    words = refused.split()
    return " ".join(
        w for i, w in enumerate(words) if i < 2 or not re.fullmatch(r"[a-z]{3,}(?:ing|ed),?", w)
    )


_LEADING = frozenset("a an the any my your some every each".split())


# "sell a hawk or let a stranger handle one": two deeds refused, the one asked said alone.
_OR_DEED = re.compile(r",?\s+or\s+(?=[a-z]+ (?:a|an|the|any|anyone|anybody|my|your|me|us|them)\b)")
# A deed refused only of some things: "sell a candle | that leans", "sell a cheese | before
# it has aged". Said whole it reads the persona back; cut short ("I don't sell a cheese"),
# it says what is not so: the no is said by what it is refused on.
RESTRICTED = re.compile(
    r"^(?P<deed>\S+(?: \S+){0,3}?) (?P<cond>(?:(?:that|which|with|before|until|while|"
    r"if|when|where)\b|for (?:anyone|anybody|people|those|a \w+) who\b|on (?:a |the )?(?:\w+ )?"
    r"(?:day|days|night|nights|sundays?|sabbath|\w+days?)\b|at night\b|"
    r"after (?:dark|sunset|sundown|dusk|nightfall)\b|"
    r"in (?:the |a )?(?:wind|rain|snow|storms?|fog|frost|ice|hail|thunder|dark|darkness|wet|"
    r"spring|summer|autumn|winter)\b|"
    r"under (?:a |the )?(?:full |new )?moon\b|"
    # to whom it is refused: "serve anyone who has had too much", "sell arrows to poachers"
    r"(?:to )?(?:anyone|anybody|people|folk) who\b|"
    r"to (?:\w+ )?(?:strangers|children|child|kids?|minors?|folk|\w+ers|\w+ards|\w+men)\b"
    r").*)$"
)


_NIGHTS = r"at night|after (?:dark|sunset|sundown|dusk|nightfall)|on (?:a |the )?nights?"
_AT_NIGHT = re.compile(rf"(?:{_NIGHTS})\b")
_TIMES = re.compile(
    rf"(?:{_NIGHTS}|in (?:the )?(?:spring|summer|autumn|winter)|"
    r"on (?:a |the )?(?:sundays?|sabbath|\w+days))\b"
)


def at_a_time(cond: str) -> bool:
    """Whether what a refusal is refused on is a time ("after dark", "in spring"): at
    another time the deed is done."""
    return _TIMES.match(cond) is not None


# A longer deed refused only at a time: "let anyone into the forest | after dark".
_AT_A_TIME = re.compile(r"^(?P<deed>\S+(?: \S+){4}) (?P<cond>" + _TIMES.pattern + r".*)$")


def restricted(refused: str) -> re.Match[str] | None:
    """A refusal of a deed only on some things or at some times, cut at what it is refused
    on (`RESTRICTED`), or None."""
    return RESTRICTED.match(refused) or _AT_A_TIME.match(refused)


def on_its_condition(
    refused: str, asked: set[str], named: bool = False, hour: float | None = None, line: str = ""
) -> bool:
    """Whether a request meets what a refusal is refused on, if it is refused only on some.
    A day or the weather holds when the request names it ("work on a Sunday": "come out
    this Sunday?", not "come out today?"), the night also when it is night (`hour`);
    anything else ("a kid before it's weaned", "for anyone who brews poison") holds unless
    said otherwise, or, `named`, only when the request names it. One on who asks ("anyone
    who has had too much") holds when the request's `line` says so in its own words ("I've
    only had eight"), not by a family ("a pint")."""
    limit = restricted(refused)
    if limit is not None and _WHO_IS.match(limit.group("cond")):
        return bool(_own_words(limit.group("cond")) & _own_words(line))
    if limit is None or asked & stems_asked(limit.group("cond")):
        return True
    cond = limit.group("cond")
    if cond.startswith(("to ", "where ")):  # "to poachers", "where a cat might step in it"
        return False
    if _AT_NIGHT.match(cond):  # named "tonight", or night now (or no clock to say)
        late = hour is None or hour >= 20 or hour < 6
        return late or bool(asked & _NIGHT_WORDS)
    return not named and not _A_DAY_OR_WEATHER.match(cond)


_WHO_IS = re.compile(r"(?:to )?(?:anyone|anybody|people|folk) who\b")
_NOT_WHO = frozenset(
    "anyone anybody people folk who has is are was a an the to of been any".split()
)


def _own_words(text: str) -> set[str]:
    return {stem(w) for w in tokens(text.lower())} - _NOT_WHO


# What is refused only on a day or in some weather, and only at night.
_A_DAY_OR_WEATHER = re.compile(r"(?:on|in|under|when|while|if)\b")
_NIGHT_WORDS = frozenset("tonight night late evening dark midnight dusk sunset sundown".split())


def deed_asked(refused: str, asked: set[str]) -> str:
    """Of a refusal of two deeds, the one the line asks ("let a stranger handle a hawk"),
    else the refusal whole."""
    deeds = _OR_DEED.split(refused)
    first = deeds[0].split(maxsplit=1)
    if len(first) == 2:  # "handle one": the thing the first names
        deeds = [deeds[0], *(re.sub(r"\bone$", first[1], d) for d in deeds[1:])]
    best = max(deeds, key=lambda d: len(asked & stems_asked(d)))
    before = deeds[0].split()
    if best == deeds[0] != deeds[-1] and len(before) >= 2 and before[-2].lower() not in _THE:
        best = f"{best} {deeds[-1].split(maxsplit=1)[-1]}"  # "let anyone chase | my geese"
    return best


_THE = frozenset("a an the my his her their its your any some".split())


def plural_of(phrase: str) -> str:
    """A phrase with its "a stranger" said as "strangers", "a cracked pot" as "cracked
    pots": the same no, in other words."""
    words = phrase.split()
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        rest = words[i + 1 : i + 4]
        if word in ("a", "an") and rest:
            # its thing: the word after one like "cracked", "broken"
            at = 1 if len(rest) > 1 and re.fullmatch(r"[a-z]+(?:ed|en)", rest[0]) else 0
            thing = rest[at]
            after = rest[at + 1] if len(rest) > at + 1 else ""
            if (
                re.fullmatch(r"[a-z]{2,}[^sxyh\W]", thing)
                and (at or len(thing) >= 4)
                and thing not in _NO_PLAIN_PLURAL
                # "a single goat", "a living oak": the thing is the word after
                and not (after and (thing in _BEFORE_THING or thing.endswith("ing")))
                and after != "of"
            ):
                out += [*rest[:at], f"{thing}s"]
                i += at + 2
                continue
        out.append(word)
        i += 1
    return " ".join(out)


# Words said before a thing, none a thing themselves.
_BEFORE_THING = frozenset(
    "single whole other second third little good fine new old big small great young proper "
    "real certain grown".split()
)
_NO_PLAIN_PLURAL = frozenset("woman child person goose sheep deer fish mouse tooth foot".split())


# The one the condition speaks of, as the one asking: "what ails them" -> "what ails you".
_TO_YOU = ((r"\b(?:them|him|her)\b", "you"), (r"\b(?:their|his)\b", "your"), (r"\bthey\b", "you"))


def not_unless(
    npc: VillagerFacts, speak: Speaker, unless: re.Match[str], to_you: bool
) -> SkillCall:
    """A no that says what would make it a yes, to the one it is for when `to_you`."""
    must, because, without = unless.group("must"), unless.group("unless"), unless.group("without")
    wanted = must or because
    if wanted:
        for pattern, you in _TO_YOU:
            wanted = re.sub(pattern, you, wanted)
        said = [f"unless you {p}" for p in shorter(wanted)]
    else:  # "Not without seeing you first.", of the one asking
        without = (
            re.sub(r"\bthe (?:patient|customer|buyer|sick)\b", "you", without)
            if to_you
            else without
        )
        said = [f"without {p}" for p in shorter(without) + bare(shorter(without))]
    text = in_own_words(lambda c: speak.text("refuse_unless", cond=c), said, npc.persona, npc.name)
    return say(text or speak.text("refuse", deed="do that"), "player")
