"""A belief or an opinion as a line says it: split at its subject, cut short, never read
back from the persona ("the wind speaks to me" -> "The wind? It speaks to me.")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.npc.scripted.first_person import present_of
from game.npc.scripted.matching import COLD, WARM
from game.npc.scripted.retell import (
    CUT_BEFORE,
    DANGLING,
    WHERE_WHEN,
    capital,
    shorter,
    verb_at,
)

__all__ = ["claim_phrases", "reason_phrases", "view_phrases"]

_THINKING = re.compile(
    r"^(?:(?:thinks?|believes?|reckons?|suspects?|swears?|knows?|feels?|says?|worr(?:ies|y)"
    r"|(?:is|am) (?:quite )?(?:convinced|sure|certain|positive))(?: that)?\s+)+",
    re.I,
)
_PRONOUN_SUBJECTS = frozenset(
    "i it he she they this that we you there someone somebody anyone anybody nobody".split()
)
# A subject that is a person: "a stranger can..." is no "it" ("It can...").
_PERSON = frozenset(
    "man woman men women boy girl child children person stranger folk king queen lord lady".split()
)
_BEING = re.compile(r"^(?:is|are|was|were|seems|looks)\s+(?:like\s+)?", re.I)


def _what_it_means(pred: str) -> list[str]:
    """A sign's meaning said short by what its clause ends on: "means someone in the room
    has just told a lie" -> "means a lie"; none when it means a thing already."""
    words = pred.split()
    if len(words) < 5 or words[0].lower() not in ("means", "meant", "shows", "proves"):
        return []
    ends = [i for i, w in enumerate(words) if i > 1 and w.lower() in ("a", "an", "the")]
    if not ends or len(words) - ends[-1] > 4:
        return []
    return [f"{words[0]} {' '.join(words[ends[-1] :])}"]


# Verbs whose object is a whole clause: never cut one word after them.


_SAYS = frozenset("says means shows tells proves knows thinks warns promises".split())
_AUX_WORDS = frozenset("is are was were will would can could has have had".split())
_MODAL = frozenset("will would can could may might must shall should".split())
_BEFORE_VERB = frozenset("once never always often still also really truly even just".split())
# "a rat as big as a dog": a thing and its size, said apart ("A rat? Big as a dog!")
_SIZED = re.compile(r"^(?P<thing>.+?) as (?P<size>\w+ as .+)$", re.I)
_THERE = re.compile(
    r"^there(?: is|'s| are| lives?| lurks?)\s+(?P<thing>(?:a|an|the|some)\s.+)$", re.I
)
_WHERE_OR_DOING = re.compile(
    r"^(?:[a-z]+ing|in|on|at|under|beneath|below|behind|beyond|past|near|inside|that|who)$"
)


# "at all", "in truth": no where or when, though they open on "at" or "in".
_NOT_WHERE = re.compile(
    r"(?:at|in|on|for) (?:all|once|last|least|first|times|heart|fact|truth|purpose|earnest|"
    r"general|short|good)\b",
    re.I,
)
_PLURALS = frozenset(
    "geese sheep mice children people men women oxen feet teeth deer cattle folk".split()
)


def _many(thing: str) -> bool:
    """Whether a thing is said as "them": a plural, or a list."""
    words = thing.lower().split()
    last = words[-1] if words else ""
    return bool(re.search(r"[^s]s$", last)) or last in _PLURALS or " and " in f" {thing} "


def claim_phrases(what: str, named: bool = False, asked: str = "") -> list[str]:
    """A belief ("the wind speaks to me", "I saw a sea serpent off the point") as the ways
    to say it, the fullest first: split at its subject ("The wind? It speaks to me.",
    "A sea serpent. I saw it off the point."), then cut short. `named`: the player named
    its subject, so a long one may be said as "it" ("It never cracks"). `asked`: the
    player's line, whose way of naming a thing ("the bridge") is said too."""
    # "a giant pike older than the church lives in the mere": also "A giant pike? It lives..."
    plain = re.sub(r"^((?:a|an|the) \w+ \w+) \w+er than (?:the |a |an )?\w+", r"\1", what)
    claims = dict.fromkeys([what, plain, _as_they_say(what, asked)])
    return list(dict.fromkeys(p for claim in claims for p in _phrases(claim, named)))


def _as_they_say(what: str, asked: str) -> str:
    """A claim with a thing said as the player says it: "under the humpbacked bridge" to
    "are there fairies under the bridge?" -> "under the bridge"."""
    words = set(re.findall(r"[a-z]+", asked.lower()))

    def plain(found: re.Match[str]) -> str:
        the, said, thing = found["the"], found["said"].split(), found["thing"]
        if thing.lower() in words and not words & set(said) and the.lower() in words:
            return f"{the} {thing}"
        return found.group()

    return re.sub(
        r"\b(?P<the>the|a|an) (?P<said>(?:[a-z]+ ){1,3})(?P<thing>[a-z]+)\b(?! of\b)", plain, what
    )


def _phrases(what: str, named: bool) -> list[str]:
    words = what.split()
    out: list[str] = []
    verb_end = 1  # "I once saw": the adverbs go with the verb
    while verb_end < len(words) - 1 and words[verb_end].lower() in _BEFORE_VERB:
        verb_end += 1
    after_verb = words[verb_end + 1].lower() if len(words) > verb_end + 1 else ""
    if (
        len(words) >= verb_end + 2
        and words[0] == "I"
        and words[verb_end].lower() not in DANGLING
        and after_verb not in CUT_BEFORE  # "I take in washing": no thing to put first
    ):
        # "I saw a sea serpent off the point" -> "A sea serpent. I saw it off the point."
        verb, rest = " ".join(words[1 : verb_end + 1]), words[verb_end + 1 :]
        # "the sails of the boats", "ribbons, buttons and thread": one thing
        listed = any(w.endswith(",") for w in rest)
        ends = (
            i
            for i, w in enumerate(rest)
            if i >= 1
            and w.lower() in CUT_BEFORE
            and w.lower() != "of"
            and not (listed and w.lower() in ("and", "or"))
        )
        end = next(ends, len(rest))
        thing, after = " ".join(rest[:end]), rest[end:]
        them = "them" if _many(thing) else "it"  # "the goats": them
        if thing:
            sized = _SIZED.match(thing)
            named_as = (
                f"{capital(sized['thing'])}? {capital(sized['size'])}!" if sized else capital(thing)
            )
            for tail in shorter(" ".join(after)) if after else [""]:
                out.append(f"{named_as}{'' if sized else '.'} I {verb} {them} {tail}".strip())
    there = _THERE.match(what)
    if there:  # "there is a wolf living deep in the wood" -> "A wolf? Living deep in the wood!"
        told = there.group("thing").split()
        split = next((i for i, w in enumerate(told) if i >= 2 and _WHERE_OR_DOING.match(w)), 0)
        if split:
            head, tail_words = " ".join(told[:split]), told[split:]
            if tail_words[0].endswith("ing") and len(tail_words) > 2:  # "A wolf? Deep in the wood!"
                out.append(f"{capital(head)}? {capital(' '.join(tail_words[1:]))}")
            out.append(f"{capital(head)}? {capital(' '.join(tail_words))}")
    at = verb_at(words)
    if at is not None and words[0].lower() not in _PRONOUN_SUBJECTS:
        # "the old tower is haunted" -> "The old tower? Haunted."; "the goats can smell a
        # storm" -> "The goats? They can smell a storm."; a word between breaks the run.
        subject, pred = " ".join(words[:at]), " ".join(words[at:])
        low = subject.lower()
        # "a flame that gutters | means": the verb or the article says one, not the last word.
        one = re.match(r"(?:is|was|has|does|[a-z]*[^s\W]s)\b", pred.lower()) or (
            re.match(r"(?:a|an|one|every|each)\b", low)
            and not re.search(r"[^s'\W]s$", low)  # "a man's boots": they
        )
        # "the goats", or a bare plural said with more: "hops picked at dawn"
        first = low.split()[0]
        bare = re.fullmatch(r"[a-z]+[^s'\W]s", first) is not None and first not in ("his", "its")
        plural = not one and (
            (low.endswith("s") and not low.endswith("ss")) or bare or low.split()[-1] in _PLURALS
        )
        being = _BEING.match(pred) is not None
        # A person named gets "that one": "Ilse? That one works herself to the bone."
        pronoun = "that one" if subject[:1].isupper() else "they" if plural else "it"
        modal = re.match(r"(?:will|would|can|could|may)\b", pred)
        # "a man? It can...": said whole; a thing that will: "The queen'll return."
        person = low.split()[-1] in _PERSON or pred.startswith("will ")
        whole = pronoun == "it" and modal and person
        if whole and pred.startswith("will "):
            out += [f"{capital(subject)}'ll {cut}" for cut in shorter(pred[5:])]
        # a verb said without its thing says nothing: "Oak bark makes.", "Ned will make."
        least = (3 if modal else 2) - _alone(pred.split()[1 if modal else 0 :])
        cuts = [c for c in shorter(pred) if c == pred or len(c.split()) >= least]
        if being and re.match(r"\w+ \w+ by\b", pred):  # "Built." says nothing of "by the devil"
            cuts = [c for c in cuts if len(c.split()) > 2]
        for cut in [] if whole else [*_what_it_means(pred), *cuts]:
            said = cut
            if being:
                said = _BEING.sub("", said)
            elif pronoun:  # a thing, or people by a plural
                said = f"{pronoun} {said}"
            if said:
                out.append(f"{capital(subject)}? {capital(said)}")
            if cut == pred and pronoun and not being:
                # "A dragon? Past the river, it lives.": where it is said first.
                rest = pred.split()
                on = next(
                    (
                        i
                        for i, w in enumerate(rest)
                        if i and w in WHERE_WHEN and not _NOT_WHERE.match(" ".join(rest[i:]))
                    ),
                    None,
                )
                if on is not None and len(rest) - on <= 5:
                    head, where = " ".join(rest[:on]), " ".join(rest[on:])
                    out.append(f"{capital(subject)}? {capital(where)}, {pronoun} {head}")
        head = re.split(r" (?:\w+er than|that|who|which|with|from)\b", subject, maxsplit=1)[0]
        if head != subject and len(head.split()) >= 2 and pronoun and not being:
            # "a giant pike older than the church lives in the mere": "A giant pike? It lives..."
            out += [f"{capital(head)}? {capital(f'{pronoun} {cut}')}" for cut in cuts]
        fronted = _fronted(subject, pred)
        if fronted:  # "Fired on a full moon, a pot never cracks"
            out.append(fronted)
        done_to = _done_to(subject, pred)
        if done_to:  # "The only leather worth having? Oak bark makes it."
            out.append(done_to)
        out += _done_by(subject, pred)  # "The inn? Old Ned, a friendly ghost, haunts it."
        if named and len(subject.split()) >= 4 and pronoun and not being and not whole:
            # "a pot fired on a full moon? It never cracks" reads the persona back
            out += [f"{capital(pronoun)} {cut}" for cut in shorter(pred)]
    # cut short, but not before its verb: "a barrel made | in spring never leaks" says nothing
    out += [
        capital(s)
        for s in shorter(what)
        if (
            # "Every clock" says nothing of "every clock... stops"; "the old kiln" is a thing
            (_says_a_deed(s.split()) or not _says_a_deed(words))
            if at is None
            else len(s.split())
            > at
            + (2 if words[at].lower() in _MODAL else 1)
            - _alone(words[at + (words[at].lower() in _MODAL) :])
        )
        and (words[0] != "I" or len(s.split()) > verb_end + 1)
    ]
    return list(dict.fromkeys(o for o in out if o))


_THING_OPENS = frozenset("a an the every each some my his her their its our your".split())


def _says_a_deed(words: list[str]) -> bool:
    """Whether a cut says a deed: one that opens on a thing ("every clock...") has a verb
    past it, a helping verb or one in -s or -ed; one that opens otherwise does ("worry
    about the kiln", "I worry")."""
    if not words or words[0].lower() not in _THING_OPENS:
        return True
    return any(
        verb_at(words[i - 1 :]) == 1 or re.fullmatch(r"[a-z]+(?:[^s'\W]s|ed)", w.lower())
        for i, w in enumerate(words[1:], 1)
    )


def _alone(pred: list[str]) -> int:
    """1 when a claim's verb may be said without what follows it ("a ghost lives | in the
    tun": where, not a thing), else 0 ("oak bark makes | the only leather")."""
    return int(len(pred) < 2 or pred[1].lower() in CUT_BEFORE)


def _done_to(subject: str, pred: str) -> str:
    """A claim of what its subject does to a thing, the thing first ("oak bark | makes the
    only leather worth having" -> "The only leather worth having? Oak bark makes it."), or
    "" when its verb is not one of doing to a thing."""
    verb, _, thing = pred.partition(" ")
    words = thing.split()
    if (
        not re.fullmatch(r"[a-z]+[^s'\W]s", verb)
        or verb in _SAYS  # "says a storm is coming": what it says is no thing
        or any(w.lower() in _AUX_WORDS for w in words)
        or len(words) < 3
        or words[0].lower() not in ("a", "an", "the", "every", "all")
        or any(w.lower() in CUT_BEFORE for w in words)
    ):
        return ""
    them = "them" if _many(thing) else "it"
    return f"{capital(thing)}? {capital(subject)} {verb} {them}"


def _done_by(subject: str, pred: str) -> list[str]:
    """A claim of what is done to its subject said with the doer first ("the inn | is
    haunted by a friendly ghost called Old Ned" -> "The inn? Old Ned, a friendly ghost,
    haunts it."), the named one by their name; [] when it says no doer."""
    found = re.fullmatch(r"(?:is|are|was|were) (?P<verb>[a-z]+ed) by (?P<by>.+)", pred)
    verb = present_of(found["verb"]) if found else ""
    if found is None or not verb:
        return []
    by = found["by"]
    called = re.fullmatch(
        r"(?P<what>(?:a|an|the) [\w ]+?),? (?:called|named) (?P<name>[A-Z].*)", by
    )
    them = "them" if _many(subject) else "it"
    out = [f"{capital(subject)}? {capital(by)} {verb} {them}"]
    if called:
        out.insert(0, f"{capital(subject)}? {called['name']}, {called['what']}, {verb} {them}")
    return out


def _fronted(subject: str, pred: str) -> str:
    """A claim with what its subject's thing is said with moved before it ("a pot fired on
    a full moon | never cracks" -> "Fired on a full moon, a pot never cracks"), or "" when
    the subject is its thing alone."""
    words = subject.split()
    bare = re.fullmatch(r"[a-z]+[^s'\W]s", words[0].lower()) is not None  # "hops picked..."
    if len(words) < 3 or not (words[0].lower() in ("a", "an", "the", "every", "any") or bare):
        return ""
    if any(w.lower() in ("that", "which", "who") for w in words):  # "a bell that rings by..."
        return ""
    at = next(
        (
            i
            for i, w in enumerate(words)
            if i >= (1 if bare else 2)
            and (w.lower() in _FRONTED_BY | _MADE or re.fullmatch(r"[a-z]{3,}(?:ed|en)", w))
        ),
        0,
    )
    if not at or len(words) - at < 2:
        return ""
    return f"{capital(' '.join(words[at:]))}, {' '.join(words[:at])} {pred}"


_FRONTED_BY = frozenset("under in on at by from before after during near beside behind".split())
_MADE = frozenset(
    "made built kept sold caught told found brought bought taught grown sewn dug".split()
)


def view_phrases(
    opinion: str, names: Iterable[str], whose: str = "", halves: bool = False
) -> list[str]:
    """What an opinion of someone says of them, to follow their name, the fullest first:
    "is the bravest man alive" -> "The bravest man alive"; "thinks Hobb waters the ale"
    -> "Waters the ale"; "is hiding something" -> "Hiding something"; with `whose` ("her"),
    "thinks Joss's needles are blunt" -> "Her needles are blunt"; with `halves`, each half
    of one said with "but" ("means well | never stops talking")."""
    text = _THINKING.sub("", " ".join(opinion.split()).strip(" .!?"))
    for name in sorted(names, key=len, reverse=True):
        # "Hester the bell-ringer rings too early": what she does, not what she is called
        called = (
            r"(?:,?\s+the\s+[\w-]+,?(?=\s+(?:is|was|has|does|can|will|never|always|"
            r"[a-z]+[^s'\s]s)\b))?"
        )
        text = re.sub(rf"^(?:the\s+)?{re.escape(name)}\b{called}\s*", "", text, flags=re.I)
    if text.startswith("'s ") and not whose:  # "Joss's needles are ...": said whole
        return []
    if text.startswith("'s "):
        return [capital(s) for s in shorter(f"{whose} {text[3:]}")]
    text = _AS_AS.sub(r"\1 as ", _BEING.sub("", text))  # "as vain as a cock pheasant"
    if whose:  # "is fond of Wren the beekeeper": of her
        them = {"his": "him", "her": "her"}.get(whose, "them")
        for name in sorted(names, key=len, reverse=True):
            text = re.sub(rf"(?<=\s){re.escape(name)}(?:,? the [\w-]+)?\b(?!')", them, text)
    mixed = re.match(r"(?P<ill>.+?) with (?P<good>.+)$", text)
    if mixed and COLD.search(mixed["ill"]) and WARM.search(mixed["good"]) and not halves:
        # "a lazy lad with a good heart": its two sides, said as two ("..., but a good heart")
        text = f"{mixed['ill']}, but {mixed['good']}"
    parts = re.split(r",?\s+but\s+", text) if halves else [text]
    # A cut that ends on "as" or "than" compares with nothing: "vain as".
    said = [
        s
        for part in (parts if len(parts) > 1 or not halves else [])
        for s in shorter(part)
        if not re.search(r"\b(?:as|than|one)$", s, re.I)
    ]
    return [capital(s) for s in said]


_AS_AS = re.compile(r"^as (\w+) as ", re.I)


_REASON = re.compile(r",? (?:(?P<or>or(?: else)?)|because|since|so that) (?P<why>.+)$", re.I)


def reason_phrases(what: str, said: str) -> list[str]:
    """A belief's reason, when a "why" asks for it and the belief says one: "you must tell
    the bees when someone dies, or they will fly away" -> "Otherwise they will fly away";
    none when the line asks no why or the belief gives no reason."""
    found = _REASON.search(what)
    if found is None or not re.search(r"\bwhy\b", said, re.I):
        return []
    why = found.group("why")
    why = f"or {why}" if found.group("or") else f"because {why}"
    heads = shorter(what[: found.start()])  # "you must tell the bees", or less
    return [f"{head}, {why}" for head in heads] + [why]
