"""A persona's sentences cut into clauses, each said of the NPC without its subject.

"Bryony keeps the bees and sells honey to whoever comes up the hill" and "I keep the bees
and I sell honey..." both give "keeps the bees", "sells honey to whoever comes up the
hill": the verb as said of someone, whoever wrote the persona (by name, he/she/they, in
the first person, or as terse notes). The sheet reads its fields from these, and the
persona brain says them back in the first person (`game.npc.scripted.retell`).
"""

from __future__ import annotations

import re

from game.npc.scripted.lines import sentences

__all__ = ["clauses_of", "said_of_someone", "verb_led"]

# Words that may come between a subject and its verb ("never", "will").
_ADVERBS = "never|always|often|still|also|quietly|rarely|sometimes|will|won't|can't|cannot|is|has"
# Verbs that start what a persona states (a like, a belief, a trade...).
_CUES = (
    r"(?:loves|likes|hates|fears|dislikes|enjoys|adores|believes|thinks|suspects|sells|swears|"
    r"dreams|scolds|haggles|trades|keeps|runs|talks|tells|knows|worries|dreads|prefers|"
    r"collects|deals|mends|makes)"
)
# Where a sentence divides: ";", a dash, "but", "and" before a subject, "so" before one,
# and "and" or a comma when a verb follows (a cue, an adverb, or a word with a verb's -s
# before a thing: "and sells honey", ", settles quarrels"; not ", buttons and thread").
_SPLIT = re.compile(
    r"\s*;\s*|:\s+(?=(?:she|he|they)\s)|\s+[-\u2013\u2014]+\s+|,?\s+but\s+|,\s+(?:since|though|although|whoever|whatever|"
    r"unless)\s+|\s+(?:though|although)\s+(?=(?:she|he|they|I)\b)|"
    r",?\s+and\s+(?=(?:she|he|they|I|no|nobody|everyone|every)\b)|"
    r",\s+so\s+(?=(?:she|he|they|I)\b)|"  # "cannot swim, so she keeps away from the mere"
    # a comma between two sentences: "is afraid of dogs, she believes the geese see ghosts"
    r",\s+(?=(?:she|he|they)\s+(?:" + _ADVERBS + r"|" + _CUES + r"|[a-z]+[^s'\W]s)\b)|"
    r",\s+(?=[a-z]+[^s'\W]s\s+(?!and\b|or\b)[a-z])|"
    r"(?:,\s*|,?\s+and\s+)(?=(?:" + _ADVERBS + r"|" + _CUES + r")\b|[a-z]+s\s+"
    r"(?:a|an|the|to|of|in|on|at|for|with|about|that|his|her|their|its|every|each|all|anyone|"
    r"no|nothing|he|she|it)\b)"
)
# An age said of what the NPC is ("a boy of ten who combs the beach").
_AGE = (
    r"(?:\d+|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\w*|ten|eleven|twelve|"
    r"\w+teen)\b"
)
# "who" starts a clause of the NPC's own only after what the NPC is: "a cheerful dyer who
# stains cloth"; "anyone who wastes bread" and "folk who cannot write" are others.
_IS_A = re.compile(
    r"(?:\b(?:is|am|was)|'s|'m)\s+(?:a|an|the)\s"
    r"(?:(?!\b(?:to|for|of(?!\s+" + _AGE + r")|with|by|from|at|in|on|about|and)\b)[^;])*$"
    r"|^(?:a|an|the)\s[^,]*$",
    re.I,
)
_WHO = re.compile(r",?\s+who\s+")
# What is held or said of another, before "is a": "thinks Hamm is a careless fellow".
_HELD = re.compile(
    r"\b(?:thinks?|believes?|reckons?|says?|swears?|suspects?|feels?|knows?|sure|certain|"
    r"convinced)\b",
    re.I,
)
# ", which ..." tells of the thing before it ("rain, which rots hemp"): not the NPC's.
_WHICH = re.compile(r",\s+which\b.*$", re.I)
# A verb as it opens a clause said of someone: a helping verb or a word with its -s.
_VERB_LED = re.compile(
    r"^(?:(?:never|always|often|still|also|quietly|rarely|sometimes|only|even|just|"
    r"usually|mostly|really)\s+)*"
    r"(?:is|has|was|does|can|can't|cannot|could|will|won't|would|must|should|may|might|"
    r"[a-z]+[^s'\W]s|[a-z]+ies|[a-z]+(?:ch|sh|ss|x|o)es)\b",
    re.I,
)
_NOT_VERBS = frozenset(
    """this its his hers ours yours theirs always sometimes perhaps towards afterwards
    besides nowadays whereas thus yes news series species lots years days""".split()
)
_MODALS = frozenset(
    "can can't cannot could will won't would must should may might shall never".split()
)
_THIRD = {"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "'m": "is"}
_LEAD_ADVERBS = frozenset(
    "never always often still also quietly rarely sometimes only even just usually".split()
)


def said_of_someone(verb: str) -> str:
    """A verb as it is said of someone: "keep" -> "keeps", "carry" -> "carries", "am" ->
    "is"; a helping verb ("can", "won't") as it is."""
    low = verb.lower()
    if low in _THIRD:
        return _THIRD[low]
    if low in _MODALS or not low.isalpha():
        return verb
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    return verb + "s"


def verb_led(clause: str) -> bool:
    """Whether a clause without its subject opens on its verb ("counts every coin twice",
    "never lets anyone cross"), not on a thing ("toll keeper", "loud dyer")."""
    found = _VERB_LED.match(clause)
    return found is not None and found.group().split()[-1].lower() not in _NOT_VERBS


def _own_verb(rest: str) -> str:
    """What follows "I" or "they", said of someone: "keep the bees" -> "keeps the bees"."""
    words = rest.split(" ")
    at = 0
    while at < len(words) - 1 and words[at].lower() in _LEAD_ADVERBS:
        at += 1
    words[at] = said_of_someone(words[at])
    return " ".join(words)


# The end of a list's middle item before its "and": "throws jugs, bowls and pipkins on
# his wheel" goes on with the list, not with a new verb.
_IN_LIST = re.compile(r",\s+\w+$")
# A verb with no thing of its own yet, after its subject: "Old Peg guts (and sells fish)".
_BARE_VERB = re.compile(r"^(?:(?:[Oo]ld|[Yy]oung|[Ll]ittle|[Ss]he|[Hh]e|[A-Z]\w*)\s+){0,2}[a-z]+s$")
# A short aside on who or what ("will never hurry an order, whoever asks, and...").
_ASIDE = re.compile(r",\s+(?:whoever|whatever|whenever|wherever)(?:\s+\w+){1,2}(?=,|$)", re.I)
# A plural thing after "and", not a verb: "oatcakes at", not "sells at" or "keeps to".
_MORE_THINGS = re.compile(r"(?!(?:" + _ADVERBS + r"|" + _CUES + r")\b)[a-z]+s\s+(?:at|in|on|for)\b")
# A verb's things so far, with no word of where or of what before them ("bakes trout pies",
# not "is afraid of thunderstorms", which "and hides in the byre" goes on from).
_THINGS_SO_FAR = re.compile(r"^(?:(?!\b(?:of|in|at|on|for|with|to|from|by|about)\b).)*[a-z]s$")
# What opens a clause of its own after "but": a subject, a name, or a verb.
_NEW_CLAUSE = re.compile(
    r"(?:she|he|they|I|it|there|[A-Z]\w*|(?:never|always|often|still|also|rarely|only|"
    r"sometimes)\s+\w+|is|has|was|does|can|can't|cannot|could|will|won't|would|"
    r"[a-z]+[^s'\W]s|[a-z]+ies)\b"
)


_NONE_BUT = re.compile(
    r"\b(?:nobody|no one|no-one|none|nothing|anybody|anyone|everybody|everyone)$"
)
# What is held of someone named, and what opens a clause with a subject of its own.
_OF_NAMED = re.compile(r"\b(?:thinks|believes|reckons|says|swears|suspects|finds) (?:that )?[A-Z]")
_SUBJECT = re.compile(r"(?:she|he|they|I|it|there)\b|[A-Z]\w*\s+\w")


def _parts(sentence: str) -> list[str]:
    """A sentence cut where it divides (`_SPLIT`), not inside a list of things."""
    out, start = [], 0
    sentence = _ASIDE.sub("", sentence)
    for cut in _SPLIT.finditer(sentence):
        said = cut.group().strip(" ,")
        if said == "and" and _IN_LIST.search(sentence, 0, cut.start()):
            continue
        if said == "and" and _BARE_VERB.match(sentence[start : cut.start()]):
            continue  # "guts and sells fish": two verbs of one thing
        if (
            said == "and"
            and _MORE_THINGS.match(sentence, cut.end())
            and _THINGS_SO_FAR.search(sentence[start : cut.start()])
        ):
            continue  # "bakes trout pies and oatcakes at the oven": one more thing, no verb
        # "thinks Pell a rogue but an honest one": what follows "but" may go on with it
        if said == "but" and not _NEW_CLAUSE.match(sentence[cut.end() :]):
            continue
        # "trusts nobody but Marigold": but as "except", one clause
        if said == "but" and _NONE_BUT.search(sentence, start, cut.start()):
            continue
        # "thinks Wenna means well but never stops talking": Wenna's, to its end
        if said == "but" and _OF_NAMED.search(sentence, start, cut.start()):
            if not _SUBJECT.match(sentence[cut.end() :]):
                continue
        out.append(sentence[start : cut.start()])
        start = cut.end()
    return [*out, sentence[start:]]


def _split_who(part: str) -> list[str]:
    """A part cut at "who" where what follows is the NPC's own ("a dyer who stains")."""
    found = _WHO.search(part)
    before = part[: found.start()] if found else ""
    # "thinks Hamm is a careless fellow who leaves reed about": Hamm's doing, not its own
    if found and _IS_A.search(before) and not _HELD.search(before):
        return [part[: found.start()], *_split_who(part[found.end() :])]
    return [part]


def _unshortened(subject: re.Match[str]) -> str:
    """What a subject's short verb stood for ("She's fond of", "He'd never"), or ""."""
    short = subject.group("short") or ""
    if short == "'s":
        rest = subject.string[subject.end() :]
        return "has " if re.match(r"(?:been|got|had|never been)\b", rest) else "is "
    return {"'d": "would ", "'ll": "will "}.get(short, "")


def clauses_of(persona: str, name: str) -> list[str]:
    """The persona's clauses without their subject, said of the NPC ("loves bread", "is
    sure the wind speaks to her", "keeps the bees"), in order."""
    names = sorted({name, name.split()[0], name.split()[-1]}, key=len, reverse=True)
    subject = re.compile(
        r"^(?:(?:old|young|little) )?(?:" + "|".join(re.escape(n) for n in names) + r"|she|he)"
        r"(?P<short>'s|'d|'ll)?\s+",
        re.I,
    )
    mine = re.compile(r"^(?:they|I)(?P<short>'m|'re|'ve)?\s+", re.I)
    out: list[str] = []
    for sentence in sentences(persona):
        for part in _parts(sentence.rstrip(".!?")):
            for piece in _split_who(part):
                piece = _WHICH.sub("", subject.sub(_unshortened, piece.strip(" ,")))
                own = mine.match(piece)
                if own:
                    short = {"'m": "is", "'re": "is", "'ve": "has"}.get(own.group("short") or "")
                    rest = piece[own.end() :]
                    piece = f"{short} {rest}" if short else _own_verb(rest)
                piece = piece.strip(" ,")
                if piece:
                    out.append(piece)
    return out
