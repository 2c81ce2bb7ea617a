"""The persona told short: its clauses, and what one says of a thing once it is named.

A persona is written about the NPC ("Brenna takes fierce pride in honest work and quietly
worries about the old bridge."). A line that says such a sentence back in the first
person sounds like a card read aloud; asked about the bridge, Brenna says "I worry about
it." instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable

from game.npc.reading.naming import families_of
from game.npc.scripted.clauses import clauses_of, verb_led
from game.npc.scripted.first_person import base_verb, first_person, present
from game.npc.scripted.lines import sentences
from game.npc.scripted.said_well import capital_misplaced, garbled
from game.npc.scripted.spoken import contracted, spoken_form, trimmed

__all__ = [
    "CUT_BEFORE",
    "DANGLING",
    "DEED",
    "MAX_RUN",
    "WHERE_WHEN",
    "about_it",
    "bare",
    "capital",
    "clauses",
    "closest",
    "fronted",
    "in_own_words",
    "present",
    "said_as_mine",
    "shared_run",
    "shorter",
    "side_on",
    "verb_at",
    "words_of",
]

_PREPOSITIONS = frozenset(
    "of in on at by to for with from about past over under like into than before after".split()
)
_SUBJECT = re.compile(r"^(?:i'm|i am|i|am|is|have|i have)\s+", re.I)
_ADVERBS = frozenset("always never often quietly still also just really sometimes very".split())


def clauses(persona: str, name: str) -> list[str]:
    """The persona's clauses in the first person, in order ("I dream of being an
    adventurer", "I'm afraid of deep water", ...), each of two words or more: a clause
    that says what the NPC does or is with "I"; one that names a thing ("toll keeper",
    "woad blue") as it is, not the NPC's to say."""
    out: list[str] = []
    for clause in clauses_of(persona, name):
        if verb_led(clause):
            clause = first_person(f"I {clause[:1].lower()}{clause[1:]}", name)
        elif _FEELING.match(clause):  # "Afraid of deep water": how the NPC is
            clause = first_person(f"I'm {clause[:1].lower()}{clause[1:]}", name)
        else:
            clause = first_person(clause, name)
        if len(clause.split()) >= 2:
            out.append(clause)
    return out


# How someone is towards a thing, said as notes without "is": "afraid of", "fond of".
_FEELING = re.compile(
    r"^(?:\w+(?:id|ed|ful|ous|ive)|fond|proud|sure|certain|wary|keen|jealous|patient|kind|"
    r"short|quick|slow|good|bad|handy|deaf|shy|sick|tired)\s+(?:of|about|with|at|on|to)\b",
    re.I,
)


def said_as_mine(clause: str, persona: str) -> str:
    """A clause said as a sentence of the NPC's own ("am certain a dragon lives past the
    river" -> "I am certain a dragon lives past the river."); "" when the clause has no
    verb of its own to say it with ("short on patience", "a cart full of curiosities")."""
    words = clause.split()
    if not words:
        return ""
    if words[0] in ("I", "I'm"):
        return f"{clause}."
    verb = next((w for w in words if w.lower() not in _ADVERBS), "").lower()
    third = {w.lower() for w in re.findall(r"[A-Za-z]+", persona)}
    if verb == "am" or {f"{verb}s", f"{verb}es", f"{verb[:-1]}ies"} & third:
        return f"I {clause}."
    return ""


def side_on(question: str, persona: str, name: str) -> str:
    """The persona's side on what a question asks, as the NPC says it ("I am certain a
    dragon lives past the river."): the closest clause it can say as its own, or ""."""
    mine = [said_as_mine(c, persona) for c in clauses(persona, name)]
    return closest(question, [m for m in mine if m]) or ""


def about_it(clause: str) -> str:
    """A clause about a thing, said once the thing is named: "quietly worry about the old
    bridge" -> "I worry about it."; "" when its verb is not one word."""
    words = [w for w in _SUBJECT.sub("", clause).split() if w.lower() not in _ADVERBS]
    at = next((i for i, w in enumerate(words) if w.lower() in _PREPOSITIONS), None)
    if at != 1:
        return ""
    being = re.match(r"(?:i'm|i am|am|is)\s", clause, re.I)  # "am afraid of the mine"
    return f"{'I am' if being else 'I'} {words[0].lower()} {words[1].lower()} it."


def closest(question: str, options: list[str]) -> str | None:
    """The sentence or clause that shares the most telling words with the question (by
    their first five letters: "curious" finds "curiosities"; or by their family: "smith"
    finds "blacksmith"), if any shares one."""
    asked, kinds = _keys(question), families_of(question)
    best, found = 0, None
    for option in options:
        score = len(asked & _keys(option)) + len(kinds & families_of(option))
        if score > best:
            best, found = score, option
    return found


def _keys(text: str) -> set[str]:
    words = re.findall(r"[a-z]+", text.lower())
    return {w[:5] for w in words if len(w) > 3 and w not in _COMMON}


_COMMON = frozenset(
    """what when where which with your yours this that these those there here have from
    they them their does about like just really very much many some thing things come
    comes coming going soon tell know would could should will into over than then think
    thinks reckon suppose good nice fine great""".split()  # "is business good?": no "no good"
)


# --- a sheet phrase in the NPC's own words ----------------------------------------------
# A reply may share at most MAX_RUN words in a row with its persona (the rule: six
# would be read back); fewer than a player's read-back (four, the eval's judge) is better.
MAX_RUN = 5
_READ_BACK = 4
_WORD = re.compile(r"[a-z0-9']+")
# Where a phrase may be cut short and still say its thing: before a preposition, a joining
# word or a relative ("a sea serpent | off the point", "the ticking | of a hundred clocks").
CUT_BEFORE = _PREPOSITIONS | frozenset(
    """and or but while when whenever because since though although unless until so that
    which who whom whose where before after during without within across along among
    behind beyond near off up down out around through above below beside between beneath
    inside outside toward towards upon against""".split()
)
# Words a cut phrase may not end on: it would say nothing ("the goats can", "a day before").
DANGLING = (
    CUT_BEFORE
    | _ADVERBS
    | frozenset(
        """a an the my your his her its our their this that these those every each some any
    no not is are was were be been am has have had can could will would may might must
    shall should do does did too so very more most less many much few all both""".split()
    )
)


# Words a clause's subject opens on: "the moon makes | the cream sour" keeps its thing.
_SUBJECT_OPENS = frozenset("a an the my his her their its our your it they he she".split())
_DETERMINERS = frozenset("a an the my his her their its our your every each some".split())
# Words after which the next word is a verb: cut after it, the verb lacks its thing.
_LEADS_VERB = frozenset("and or but who that which to i".split())
_PERSONS = frozenset("i i'm i've i'll i'd me my it they them we you he she".split())


def words_of(text: str) -> list[str]:
    """A text's lower-case word tokens, as the read-back rule compares them."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def shared_run(text: str, persona: str, name: str = "") -> int:
    """The most words in a row a line shares with its persona, as written or as the NPC
    says it in the first person."""
    said = words_of(text)
    longest = 0
    for sentence in sentences(persona):
        for own in {sentence, first_person(sentence, name) if name else sentence}:
            theirs = words_of(own)
            longest = max(longest, _longest_common(said, theirs))
    return longest


def _longest_common(a: list[str], b: list[str]) -> int:
    best = 0
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b, 1):
            here = row[j]
            row[j] = prev + 1 if x == y else 0
            best = max(best, row[j])
            prev = here
    return best


_COMPASS = re.compile(r"(?:north|south|east|west)(?:-?(?:east|west))?")
_KEEPS_FROM = frozenset(
    "keep keeps kept stop stops protect protects save saves prevent prevents".split()
)
_CONDITION_WORDS = 3  # the fewest words of a condition kept after its "if"
_CONDITIONS = frozenset({"if", "unless", "whenever"})
_WHERE_ALONE = frozenset("below above inside outside behind beneath underneath nearby".split())
_HOW_LONG = frozenset("long many some a years ages centuries".split())


def shorter(phrase: str) -> list[str]:
    """A phrase and the shorter ways to say it, longest first: cut before a preposition,
    a joining word, a relative or an article, never on a word that leaves it hanging;
    then each of them contracted ("I've worked the mine")."""
    words = phrase.split()
    out = [phrase]
    # "turns sour if a redhead looks": a condition is said with what it is on, or not at all
    cond = next((i for i, w in enumerate(words) if w.lower() in _CONDITIONS), None)
    # a last word ("thunder is about") is kept, but for a where said alone ("is lit below")
    last = len(words) - (1 if words and words[-1].lower().strip(".,!") in _WHERE_ALONE else 2)
    for end in range(last, 0, -1):
        word = words[end].lower().strip(",;:")
        if cond is not None and cond < end <= cond + _CONDITION_WORDS:
            continue
        # "can smell a storm | a day": before an article too, once something is said.
        # An article once a thing is said: "can smell a storm | a day", not "the moon
        # makes | the cream sour" (a verb would lose its thing).
        said = words[0].lower() not in _SUBJECT_OPENS or any(
            w.lower() in _DETERMINERS for w in words[1:end]
        )
        # "set there by real giants | long ago": the when of a tale is said or not
        ago = words[-1].lower().strip(".,!") == "ago" and end >= len(words) - 3
        cut_here = word in CUT_BEFORE | _WH_CLAUSE or end == cond or (ago and word in _HOW_LONG)
        if not cut_here and not (word in ("a", "an", "the") and end >= 3 and said):
            continue
        head = words[:end]
        # "keeps | out bad luck", "was set there | by real giants": the verb keeps its
        # particle, and a deed its doer
        if word in _PARTICLES and re.fullmatch(r"[a-z]+(?:s|ed)", head[-1].lower()):
            if head[-2:-1] and head[-2].lower() not in _DETERMINERS:
                continue
        if word == "by" and _PASSIVE & {w.lower() for w in head[-3:]}:
            continue
        # "keeps the ale | from souring", "tells everyone | about her mare": the point
        if word == "from" and any(w.lower() in _KEEPS_FROM for w in words[:end]):
            continue
        if word == "about" and any(w.lower() in _TELLS for w in head[-3:]):
            continue
        # "sells ribbons, buttons | and thread": a list is said whole.
        if word in ("and", "or") and any(w.endswith(",") for w in head[-3:]):
            continue
        if word in ("and", "or") and len(head) == 2 and head[0] == "I":  # "I cut | and sew"
            continue
        # "I take | in washing", "I look | after sheep": a verb's particle, not a where
        after = words[end + 1].lower() if end + 1 < len(words) else ""
        if len(head) == 2 and head[0] == "I" and word in _PARTICLES | {"in", "after", "over"}:
            if after not in _DETERMINERS:
                continue
        # "who lets | a line fray", "and ring | the hours": a verb keeps its thing.
        if word in ("a", "an", "the") and len(head) >= 2 and head[-2].lower() in _LEADS_VERB:
            continue
        while head and head[-1].lower().strip(",;:") in DANGLING and not _ends_on_amount(head):
            head.pop()
        after = words[len(head)].lower() if len(head) < len(words) else ""
        if after == "of" and head and _COMPASS.fullmatch(head[-1].lower()):  # "east | of the"
            head.pop()
        cut = " ".join(head).rstrip(",;:")
        # "means someone | in the room has lied", "tell anyone what goes | into my cordials":
        # what is meant or told is a whole clause.
        if len(head) >= 2 and head[-2].lower() in _SAYS_THAT | _WH_CLAUSE:
            continue
        if len(head) >= 2 and cut not in out:
            out.append(cut)
    out += [p for p in map(_as_people, out) if p]
    said_short = [contracted(o) for o in out]
    return list(dict.fromkeys(out + said_short))


_WH_CLAUSE = frozenset("what where how which whatever".split())
_ANYONE_WHO = re.compile(
    r"\b(?:anyone|anybody|someone|somebody|whoever|everyone) who (\w+)\b", re.I
)


def _ends_on_amount(head: list[str]) -> bool:
    """Whether a phrase ends on an amount that is whole: "talks too much", "so many"."""
    amount = head[-1].lower().strip(",;:") in ("much", "many", "more", "less", "little")
    return amount and len(head) >= 3 and head[-2].lower() in ("too", "so", "very")


def _as_people(phrase: str) -> str:
    """ "anyone who lets a line fray" said of people: "people who let a line fray"; ""
    when the phrase is of no one so."""
    found = _ANYONE_WHO.search(phrase)
    if found is None or not re.fullmatch(r"[a-z]+s", found.group(1)):
        return ""
    verb = "are" if found.group(1) == "is" else "have" if found.group(1) == "has" else ""
    said = f"people who {verb or base_verb(found.group(1))}{phrase[found.end() :]}"
    return phrase[: found.start()] + said


def _head(phrase: str) -> str:
    """A phrase's first few words, what a long one is about ("the dark water"); "" when
    they would cut a clause ("the bells keep | the fog away")."""
    words = phrase.split()
    head = words[:3]
    at = verb_at(words)
    if (at is not None and at < len(head)) or {"who", "that", "which"} & set(head[1:]):
        return ""  # "the bells keep | the fog", "anyone who lets | a line fray"
    while len(head) > 1 and head[-1].lower().strip(",;:") in DANGLING:
        head.pop()
    return " ".join(head).rstrip(",;:?")  # "The brine? It..." is about "The brine"


_SAYS_THAT = frozenset("means meant mean says said shows proves knows know swears".split())


# Where and when, said first as one says it ("Before dawn, I bake"); "of the boats", "than
# the church" and "like a hawk" belong to what they follow.
WHERE_WHEN = frozenset(
    "in on at by past over under before after behind beyond near across below above".split()
)


def fronted(phrase: str) -> str:
    """A phrase with its "when" or "where" said first ("I bake the bread before dawn" ->
    "Before dawn, I bake the bread"), or "" when it has none to move."""
    words = phrase.split()
    at = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in WHERE_WHEN), None)
    if at == 2 and words[0] == "I" and words[3:4] and words[3].lower() not in _DETERMINERS:
        at = None  # "I take in washing": the verb's, not a where
    if at is None:
        return ""
    end = next((i for i in range(at + 1, len(words)) if words[i].lower() in CUT_BEFORE), len(words))
    if end - at > 4 or end - at < 2:
        return ""
    head = " ".join(words[:at] + words[end:]).rstrip(",;:")
    return f"{capital(' '.join(words[at:end]))}, {head}"


def bare(phrases: Iterable[str]) -> list[str]:
    """Phrases with the articles of a pair dropped ("without a lamp and a helmet" ->
    "without lamp and helmet"): terse, as a no is said, and further from the persona."""
    pair = re.compile(r"\b(?:a|an|the) (\w+) (and|or) (?:a|an|the) (\w+)\b", re.I)
    out = [pair.sub(r"\1 \2 \3", p) for p in phrases]
    return [p for p in dict.fromkeys(out) if p not in phrases]


def in_own_words(
    fill: Callable[[str], str],
    phrases: Iterable[str],
    persona: str,
    name: str = "",
    keep: Collection[str] = (),
) -> str:
    """The line `fill` makes of the first phrase that, said in it, shares fewer words in a
    row with the persona than a player reads back (else no more than MAX_RUN): phrases that
    keep more of the words in `keep` (stems of what was asked) first, then the fuller; a
    phrase of one telling word only when nothing else can be said, and the first one's
    first few words when none can. "" when every one would read the persona back."""
    options = list(phrases)
    kept = [sum(w[:5] in keep for w in words_of(p)) for p in options]
    most = max(kept, default=0)
    best: tuple[tuple[int, bool, bool, bool], str] | None = None
    # The names a phrase may open on mid-line: those the persona writes with a capital.
    names = set(re.findall(r"\b[A-Z][\w-]*", persona)) | set(name.split())
    for phrase, count in zip(options, kept, strict=True):
        line = fill(phrase)
        if not line or _garbled_by(line, phrase) or capital_misplaced(line, phrase, names):
            continue
        run = shared_run(line, persona, name)
        telling = sum(w not in DANGLING and w not in _PERSONS for w in words_of(phrase)) >= 2
        # "There's a wolf living deep" cut from "...deep in the wood": worse than a few
        # of the persona's words said again
        cut = any(o != phrase and o.startswith(f"{phrase} ") for o in options)
        rank = (most - count, not telling, cut, run >= _READ_BACK)
        if run <= MAX_RUN and (best is None or rank < best[0]):
            best = (rank, line)
    spoken = [v for v in map(spoken_form, options) if v not in options]
    spoken += [v for v in map(trimmed, options[:1]) if v not in (*options, *spoken)]
    if best is None and spoken:  # "Joss's needles? Only good thing he sells.": as said
        return in_own_words(fill, spoken, persona, name, keep)
    if best is None:  # last, what the first phrase is about, in a few words
        line = fill(_head(options[0])) if options else ""
        fits = line and not garbled(line, None) and shared_run(line, persona, name) <= MAX_RUN
        return line if fits else ""
    return best[1]


# Verbs that say what a clause's subject does or is, besides a verb's -s.
_AUX = frozenset(
    """is are was were has have had can could will would may might must shall should does
    won't can't cannot don't doesn't isn't aren't wasn't weren't hasn't haven't""".split()
)


_OFTEN = frozenset("never always often seldom rarely sometimes still".split())


_OPENS_CLAUSE = frozenset(
    "if unless when whenever because while since until although though whereas".split()
)


def verb_at(words: list[str]) -> int | None:
    """Where a clause's verb is ("the old tower | is haunted", "a giant | sleeps"): the
    first helping verb, or a word with a verb's -s after the subject; None if not found."""
    for i, word in enumerate(words[1:], 1):
        low = word.lower()
        if low in _AUX:
            return i
        if low in _OPENS_CLAUSE:  # "...for a moment whenever someone | tells": not its verb
            return None
        before = words[i - 1].lower()
        after = words[i + 1].lower() if i + 1 < len(words) else ""
        if low in _OFTEN and re.fullmatch(r"[a-z]+[^s']s", after):  # "| never leaks"
            return i
        # "the bells | keep the fog away": a plain verb after a plural, before its thing
        if (
            re.fullmatch(r"[a-z]+[^s']s", before)
            and i >= 2
            and (words[i - 2].lower() in _DETERMINERS or words[i - 2].endswith("'s"))
            and (
                after in _DETERMINERS
                or after in ("you", "me", "us", "them", "him", "her")
                # "the rats | hold meetings": a plain verb before a bare thing
                or (re.fullmatch(r"[a-z]+s", after) and not re.search(r"(?:ing|ed|ly)$", low))
            )
            and low not in DANGLING
        ):
            return i
        # "the mill stones | are older": a plural before its verb is the subject's; "a
        # man's boots" is a thing, not a verb
        if (
            re.fullmatch(r"[a-z]+[^s']s", low)
            and before not in DANGLING
            and not before.endswith("'s")
            and after not in _AUX
            and i <= 4
        ):
            return i
        # "hops picked at dawn | make the sweetest ale": a plain verb before its thing,
        # after a plural said with how it was done
        if (
            i >= 3
            and re.fullmatch(r"[a-z]+[^s'\W]s", words[0].lower())
            and re.fullmatch(r"[a-z]+ed", words[1].lower())
            and after in _DETERMINERS
            and before not in DANGLING
            and low not in DANGLING
        ):
            return i
        # "a sprig of rosemary under the pillow | keeps bad dreams away": a long subject
        # that opens on an article ends on a thing, then its verb
        if (
            i > 4
            and words[0].lower() in _DETERMINERS
            and low not in _DETERMINERS | DANGLING
            and re.fullmatch(r"[a-z]+[^s'\W]s", low)
            # "three | times" is no verb; "three times | means" is
            and (re.fullmatch(r"[a-z]+[^s\W]", before) or words[i - 2].lower() in _COUNTS)
            and before not in DANGLING | _COUNTS
            and after
            and (after not in CUT_BEFORE or after in _PARTICLES)  # "keeps | out bad luck"
        ):
            return i
    return None


# Words that finish a verb ("keeps out", "gives up"): a phrase is not cut between them.
_PARTICLES = frozenset("out up off away down back".split())
_COUNTS = frozenset("two three four five six seven eight nine ten many several few".split())
_TELLS = frozenset("tell tells talk talks boast boasts brag brags speak speaks".split())
_PASSIVE = frozenset("is are was were be been being".split())


def _garbled_by(line: str, phrase: str) -> str:
    """What is wrong in the sentences of a line that say the phrase, not in the mood's own
    words around it ("...! But it's a secret!" is a whole line's, not a cut)."""
    said = set(words_of(phrase))
    own = [s for s in re.split(r"(?<=[.!?])\s+", line) if said & set(words_of(s))]
    return garbled(" ".join(own) or line, None)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# A clause of what the NPC does, not what it holds, fears or will not do.
DEED = re.compile(
    r"^I (?!(?:think|believe|swear|refuse|will|won't|never|am|dream|hate|love|like|fear|"
    r"worry|suspect|reckon|talk|speak|brag|boast|grumble|complain|mutter|mumble|scold|tease|"
    r"chatter|gossip|sigh|frown|scowl|giggle|blush|stammer|stutter|laugh)\b)[a-z]+\b"
)
