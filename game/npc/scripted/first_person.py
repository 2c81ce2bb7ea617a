"""The persona in the first person: a sentence about an NPC as the NPC would say it.

"Wren is a quiet fisher who spends her days on the dock" becomes "I'm a quiet fisher who
spends my days on the dock": the NPC's name and its he/she/his/her become I/my/me, and
the verbs of I lose their -s. Nothing else of the sentence changes.
"""

from __future__ import annotations

import re

__all__ = [
    "base_verb",
    "first_person",
    "object_me",
    "own_object",
    "present",
    "present_of",
    "unending",
]

_IRREGULAR = {"is": "am", "has": "have", "does": "do", "was": "was", "goes": "go"}
_OBJECT_AFTER = frozenset(
    """and or but to with for about of in on at by from than as when while so if . , ; :
    what who why how where whether that a an the""".split()
)


_NOT_VERBS = frozenset(
    """its this always sometimes perhaps was towards afterwards besides nowadays whereas thus
    yes whose hers ours yours theirs news series""".split()
)


# He and she are the NPC (a persona speaks of no one else that way); "they" may not be.
# In order: a pattern and what the NPC says instead ("her" before a word is done below).
_PRONOUNS = (
    (r"\b(?:She|He) is\b", "I am"),
    (r"\b(?:she|he) is\b", "I am"),
    (r"\b(?:She|He)\b", "I"),
    (r"\b(?:she|he)\b", "I"),
    (r"\bhis\b", "my"),
    (r"\bHis\b", "My"),
    (r"\bhim\b", "me"),
    (r"\b(?:himself|herself)\b", "myself"),
    (r"\bher\b(?=\s*(?:[.,;:!?]|$))", "me"),
)


def base_verb(word: str) -> str:
    """A verb as said of oneself: "sells" -> "sell", "carries" -> "carry", "is" -> "am"."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|zz)es$", word):  # "goes" is above; "shoes": "shoe"
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# Him or her as what is done to, not whose: "owes him three pennies", "hates her".
_OBJECTS = {
    "him": r"\bhim\b",
    "her": r"\bher\b(?=\s*(?:[.,;:!?]|$)|\s+(?:a|an|the|some|two|three)\b)",
}


def own_object(persona: str) -> str:
    """The NPC's own "him" or "her", by the pronoun its persona's sentences open with
    ("She keeps bees."): "" when they open with neither, or with both as often."""
    opens = re.findall(r"(?:^|[.!?;]\s+)(She|He)\b", persona)
    she, he = opens.count("She"), opens.count("He")
    return "" if she == he else "her" if she > he else "him"


def object_me(text: str, own: str = "") -> str:
    """A clause of someone else the persona names, with the NPC as what is done to said
    "me": "Hewitt owes him three pennies" -> "Hewitt owes me three pennies" (another
    named would be "himself"). `own`, the NPC's own "him" or "her" when known: the other
    is someone else ("she can't stand Thatcher and calls him a windbag")."""
    pattern = _OBJECTS.get(own) or "|".join(_OBJECTS.values())
    return re.sub(pattern, "me", text)


def first_person(text: str, name: str) -> str:
    """A persona sentence as the NPC would say it of itself ("Wren is a quiet fisher who
    spends her days on the dock" -> "I'm a quiet fisher who spends my days on the dock")."""
    names = [n for n in {name, name.split()[-1]} if n]
    out = text
    for n in sorted(names, key=len, reverse=True):
        for after, said in (("'s", "my"), (" is", "I am"), (" has", "I have"), ("", "I")):
            out = re.sub(rf"\b{re.escape(n)}{after}\b", said, out)
    for pattern, pronoun in _PRONOUNS:
        out = re.sub(pattern, pronoun, out)
    out = re.sub(
        r"\bher\b(?=\s+(\w+))",
        lambda m: "me" if (m.group(1) or "") in _OBJECT_AFTER else "my",
        out,
    )
    out = re.sub(r"\bHer\b", "My", out)
    # The verbs of I: "I bakes ... and stays" -> "I bake ... and stay".
    out = re.sub(
        r"\bI (always |never |often |quietly |still |also |just |really )?(\w+)\b",
        lambda m: f"I {m.group(1) or ''}{base_verb(m.group(2))}",
        out,
    )
    # And the verbs joined to them: "..., answers questions", "... and is certain".
    return re.sub(r"\bI am\b", "I'm", _joined_verbs(out), count=1)


_ADVERBS = frozenset("always never often quietly still also just really sometimes".split())
_HELD = frozenset("think believe reckon suspect swear find say that".split())


def _joined_verbs(text: str) -> str:
    """After "I <verb>", the verbs joined by a comma, "and", "but" or "or" lose their -s.
    A word in a list of things ("buns and cakes.") is followed by a comma, "and" or the
    end, and is left alone."""
    out: list[str] = []
    for sentence in re.split(r"(?<=[.;:!?])\s+", text):
        words = sentence.split(" ")
        subject = False
        for i, word in enumerate(words):
            if word == "I":
                subject = True
                continue
            if word[:1].isupper() and words[i - 1] in _HELD:  # "I think Wenna ... stops"
                subject = False
            if not subject or i == 0:
                continue
            joined = words[i - 1].endswith(",") or words[i - 1] in ("and", "but", "or")
            j = i
            if joined and word in _ADVERBS and i + 1 < len(words):
                j = i + 1
            candidate = words[j]
            follow = words[j + 1] if j + 1 < len(words) else ""
            if (
                joined
                and re.fullmatch(r"[a-z]+s", candidate)
                and candidate not in _NOT_VERBS
                and not candidate.endswith(("ous", "ss", "us"))
                and (candidate == "is" or not candidate.endswith("is"))
                and follow not in ("and", "or", "")
                # "jugs and bowls by the kiln": a list of things, not a verb joined
                and not (
                    words[i - 1] == "and"
                    and i >= 2
                    and re.fullmatch(r"[a-z]+s", words[i - 2])
                    and follow.lower() in _OBJECT_AFTER
                )
            ):
                words[j] = base_verb(candidate)
        out.append(" ".join(words))
    return " ".join(out)


# Past participles that do not end in "-ed", and their present ("has made" -> "makes").
_PARTICIPLES = {
    "made": "makes",
    "kept": "keeps",
    "sold": "sells",
    "run": "runs",
    "grown": "grows",
    "built": "builds",
    "taught": "teaches",
    "caught": "catches",
    "brought": "brings",
    "done": "does",
    "held": "holds",
    "led": "leads",
    "fed": "feeds",
    "spun": "spins",
    "dug": "digs",
    "woven": "weaves",
    "sewn": "sews",
    "drawn": "draws",
    "ground": "grinds",
    "told": "tells",
    "swept": "sweeps",
    "bred": "breeds",
    "shod": "shoes",
    "lit": "lights",
    "mown": "mows",
    "shorn": "shears",
    "sung": "sings",
    "rung": "rings",
    "struck": "strikes",
    "written": "writes",
    "driven": "drives",
    "ridden": "rides",
    "thrown": "throws",
    "flown": "flies",
    "dealt": "deals",
    "bent": "bends",
    "sent": "sends",
    "spent": "spends",
    "minded": "minds",
    "stood": "stands",
    "sat": "sits",
    "slept": "sleeps",
    "had": "has",
}
# Stems that drop an "e" before "-ed" ("bak|ed", "carv|ed", "danc|ed", "tickl|ed", "cur|ed",
# "pol|ed").
_SILENT_E = re.compile(
    r"(?:[^aeiou][aeiou][bcdgkmpstvz]|[vcgsz]|[^aeioul]l|[aeiou]{2}[svcz])$|^[^aeiou]*[aeiou][rl]$"
)
_PERFECT = re.compile(r"^(?:has|have)\s+(?:(?:always|long|since)\s+)?([a-z]+)\b", re.I)


def present_of(participle: str) -> str:
    """A participle's present, said of someone ("brewed" -> "brews", "baked" -> "bakes");
    "" when it is no participle."""
    word = participle.lower()
    if word in _PARTICIPLES:
        return _PARTICIPLES[word]
    if not word.endswith("ed") or len(word) < 4:
        return ""
    stem = word[:-2]
    if stem.endswith("i"):
        return stem[:-1] + "ies"  # carried
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        stem = stem[:-1]  # tanned
    elif re.search(r"(?:sh|ch|ss|x)$", stem):
        return stem + "es"  # fished, watched
    elif _SILENT_E.search(stem):
        stem += "e"  # baked, carved, danced, tickled
    return stem + "s"


def present(phrase: str) -> str:
    """What someone has long done, said as what they do: "has made the cheese for fifty
    years" -> "makes the cheese for fifty years"; the phrase as it is otherwise."""
    found = _PERFECT.match(phrase)
    verb = present_of(found.group(1)) if found else ""
    if found is None or not verb:
        return phrase
    return verb + phrase[found.end() :]


def unending(phrase: str) -> str:
    """A phrase that opens on a verb in -ing said with its plain verb ("dropping a price"
    -> "drop a price", "making rope" -> "make rope"), else the phrase as it is."""
    words = phrase.split(maxsplit=1)
    if not words or not re.fullmatch(r"[a-z]{2,}ing", words[0]) or words[0] in ("bring", "sing"):
        return phrase
    verb = words[0][:-3]
    if len(verb) >= 3 and verb[-1] == verb[-2] and verb[-1] not in "lsfz":
        verb = verb[:-1]  # "dropping": drop
    elif re.search(r"(?:[vcz]|[^aeiou][aeiou]k|[^n]g)$", verb):
        verb += "e"  # "giving": give, "making": make, "charging": charge
    return " ".join([verb, *words[1:]])
