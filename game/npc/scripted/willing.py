"""What the NPC answers to a request its persona says it does, to a thing offered, to a
player's "shall I...?" and to "do you sell X?" of a thing it does not sell.

- "Will you dance with me?" of one who "still dances at every wedding", "can you keep a
  secret?" of one who "keeps a secret like a locked chest", "lend me a coin?" of one who
  "will lend a coin to anyone who asks": a yes, and the deed in its own words.
- "Want some cake?", "have one of these", "I brought you a pear": a glad yes to a like of
  its sheet, a no to what it dislikes or fears, else its thanks.
- "Shall I light a fire?" of one who cannot stand smoke: its no, and what it dislikes.
- "Do you sell lamp oil?" of a potter: not here, and what it sells instead.
"""

from __future__ import annotations

import re

from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.reading.naming import FILLER, stem, tokens
from game.npc.scripted.bargain import service_price
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.matching import fears_of, touched
from game.npc.scripted.retell import clauses, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named, say
from game.npc.skills import SkillCall

__all__ = ["does_it", "offers", "one_of", "willing"]

# A request of a deed: "will you dance?", "can you keep a secret?", "lend me a coin".
_ASKED = re.compile(
    r"\b(?:will|would|can|could) you (?:please |ever |still )?(?P<verb>[a-z]+)|"
    r"^(?:\w+,\s*)?(?:please )?(?P<bare>lend|spare|give) me\b",
    re.I,
)
# Verbs a persona's clause says of everyone or of nothing asked ("I have", "I tell").
_NO_DEED = frozenset(
    """be have do get go come tell say explain describe know think see hear remember
    recommend suggest name point believe mind talk speak ask imagine guess sell buy""".split()
)
_NEGATED = re.compile(r"\b(?:never|not|no|nobody|don't|won't|can't|cannot|wouldn't)\b", re.I)
# A thing offered: "want some cake?", "would you like a pear?", "have one of mine".
_OFFER = re.compile(
    r"^(?:\w+,\s*)?(?:do you |would you |d'you |you )?(?:want|fancy|like|care for) "
    r"(?P<a>(?:some|a|an|one)(?: (?:bit|piece|slice|cup|drop|taste|bite|sip|mug|bowl) of)?)\s+"
    r"(?P<thing>[^?.!,]+)|"
    r"\b(?:have|take|try) (?:some|a|an|one)(?: of)? (?:my|these|this|mine|our)\s*"
    r"(?P<mine>[^?.!,]*)|"
    r"\bi (?:brought|made|baked|saved|picked|got) you (?:a |an |some )?(?P<brought>[^?.!,]+)|"
    # "can I give you a sweet?", "here, have a sweet"
    r"\b(?:can|may|could|shall) i (?:give|offer) you (?:a |an |some |one of my )"
    r"(?P<given>[^?.!,]+)|"
    r"^(?:here,?\s*)?(?:have|take) (?:a|an|some) (?P<had>[^?.!,]+)",
    re.I,
)
# The player proposes a deed of its own: "shall I light a fire?", "I'll play my pipe".
_PROPOSES = re.compile(
    r"^(?:\w+,\s*)?(?:shall|should|may|can|could) i\b|^(?:\w+,\s*)?let me\b|"
    r"^(?:\w+,\s*)?i(?:'ll| will)\b|\bmind if i\b|"
    r"\b(?:is it|would it be) (?:ok|okay|all right|alright) if i\b",
    re.I,
)
# "Do you sell lamp oil?": a thing asked for sale.
_SELL_ASKED = re.compile(
    r"\b(?:do|does) you (?:\w+ )?(?:sell|stock|have any|carry|keep any)\s+(?:any |some |a |an )?"
    r"(?P<thing>[a-z][a-z' -]*?)\s*(?:\?|$|\bhere\b|\btoo\b|\bat all\b)",
    re.I,
)


def willing(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The NPC's answer to a thing offered, a deed proposed or asked that its sheet or
    persona answers, or a thing asked for sale that it does not sell; None otherwise."""
    return (
        _fear_liked(talk, speak)
        or _only_one(talk, speak)
        or _offered(talk, speak)
        or _proposed(talk, speak)
        or _visit(talk, speak)
        or _not_sold(talk, intent, speak)
        or (does_it(talk, intent, speak) if intent.kind is not Kind.GESTURE else None)
    )


# A belief that one thing only will do ("oak from the north slope is the only wood for a
# barrel"), and what a request says a thing is made from ("a barrel from this pine").
_ONLY = re.compile(r"^(?P<one>.+?) (?:is|are|makes?|make) the only (?P<what>.+)$", re.I)
_MADE_FROM = re.compile(
    r"\b(?:from|of|out of|with) (?:this|that|these|those|some|my|the)? ?(?P<made>[a-z]+)\b"
)


def _only_one(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """ "Make me a barrel from this pine" of one sure oak is the only wood for a barrel:
    no, and its belief; None when no such belief is touched."""
    made = _MADE_FROM.search(talk.said.lower())
    if made is None or not _ASKED_DEED.search(talk.said):
        return None
    asked = _things(talk.said)
    thing = made.group("made").capitalize()
    for belief in talk.npc.sheet.beliefs:
        only = _ONLY.match(belief.what)
        if only and asked & _things(only.group("what")) and not asked & _things(only.group("one")):
            said = claim_phrases(belief.what)
            text = in_own_words(
                lambda p: f"{thing}? {speak.text('belief_certain', what=p)}",
                said,
                talk.npc.persona,
                talk.npc.name,
            )
            return say(text, "player") if text else None
    return None


# A deed asked of the NPC, however put: "make me...", "could you build...".
_ASKED_DEED = re.compile(
    r"^(?:\w+,\s*)?(?:please )?[a-z]+ (?:me|us)\b|\b(?:will|would|can|could) you\b", re.I
)


_AFRAID = re.compile(r"\b(?:afraid|scared|frightened|terrified|fear|nervous) (?:of|about)\b", re.I)


def _fear_liked(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """ "Are you scared of thunder?" of one who loves a thunderstorm: no, it loves it."""
    sheet = talk.npc.sheet
    if not _AFRAID.search(talk.said) or touched(talk.said, sheet.fears):
        return None
    liked = touched(talk.said, sheet.likes)
    return _said(talk, speak, "fear_liked", liked) if liked else None


def offers(said: str) -> bool:
    """Whether the player offers the NPC a thing ("want a pear?", "have one of mine")."""
    found = _OFFER.search(said)
    return found is not None and not _NOT_OFFERED.match(_thing(found))


_NOT_OFFERED = re.compile(  # "fancy a long natter?" offers idle talk, no thing
    r"(?:to|me|us|help|company|hand)\b|.*\b(?:natter|chat|gossip|chinwag|talk|walk|game|dance|"
    r"song|swim|ride|sail|trip|climb|stroll|wander|ramble|jaunt|outing|hike|tour|visit|dip|"
    r"paddle|row|bathe|night|evening|afternoon|morning|day|look|peek|picnic|race|adventure|hunt|"
    r"seat|rest|break|breather|minute|moment|step|turn|chance|guess|hint|think|heart|care|go|one|"
    r"story|word)s?\b",
    re.I,
)


def _thing(found: re.Match[str]) -> str:
    groups = found.group("thing", "mine", "brought", "given", "had")
    return next(g for g in groups if g is not None).strip()


def _offered(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """A thing offered: a like's glad yes, a dislike's or fear's no, else thanks."""
    if not offers(talk.said):  # "want to come?", "want a hand?": no thing offered
        return None
    sheet = talk.npc.sheet
    liked = touched(talk.said, sheet.likes, kin=False)  # bread offered is no plum cake
    if liked:
        return _said(talk, speak, "offer_like", liked)
    disliked = touched(talk.said, [*sheet.dislikes, *_fears_named(talk)])
    if disliked:
        return _said(talk, speak, "offer_no", disliked)
    return speak.line("offer_thanks")


# What makes water or a wood a fear's: "deep water", "the dark wood".
_QUALIFIER = re.compile(
    r"\b(?P<qualifier>deep|open|dark|rough|high|wild|black|still|cold|fast|running|big)\s+(?P<what>\w+)",
    re.I,
)


def _fears_named(talk: PlayerLine) -> list[str]:
    """Its fears a line may touch: not one whose thing it names without what makes it
    feared ("a drink of water" of one afraid of the deep water)."""
    said = talk.said.lower()
    out = []
    for fear in fears_of(talk.npc.sheet.fears, talk.npc.persona):
        found = _QUALIFIER.search(fear)
        if found and found["what"].lower() in said and found["qualifier"].lower() not in said:
            continue
        out.append(fear)
    return out


def _proposed(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """A deed the player proposes that touches what the NPC dislikes or fears: its no."""
    if not _PROPOSES.search(talk.said):
        return None
    sheet = talk.npc.sheet
    disliked = touched(talk.said, [*sheet.dislikes, *_fears_named(talk)])
    return _said(talk, speak, "offer_no", disliked) if disliked else None


# A visit asked to the NPC's home: "can I come to yours for tea?", "can we pop round?"
_VISIT = re.compile(
    r"\b(?:can|could|may) (?:i|we) (?:come|pop|drop|call) (?:round |over |by |in )?(?:to |at )?"
    r"(?:yours|your (?:house|place|home|cottage|hut))\b",
    re.I,
)


def _visit(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """A yes to a visit at its home, named ("Oh, do! The cottage, any time!")."""
    npc = talk.npc
    home = place_named(npc, npc.home or npc.sheet.work) if _VISIT.search(talk.said) else None
    return speak.line("visit_yes", home=label_of(home)) if home is not None else None


# What one has that is never for sale: "any friends?", "a family?", "any regrets?".
_NOT_GOODS = re.compile(
    r"\b(?:friends?|family|famil(?:y|ies)|children|kids?|sons?|daughters?|brothers?|sisters?|"
    r"husband|wife|pets?|enemies|enemy|regrets?|plans?|news|ideas?|questions?|time|hobb(?:y|ies)|"
    r"sweetheart|secrets?|dreams?)\b",
    re.I,
)


def _not_sold(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """No to a thing asked for sale that the NPC neither sells nor names, with what it
    does sell; None when it names the thing at all, or sells nothing."""
    found = _SELL_ASKED.search(talk.said)
    wares = talk.npc.sheet.wares
    if found is None or not wares or intent.kind not in (Kind.SELF, Kind.QUESTION, Kind.CHAT):
        return None
    if _NOT_GOODS.search(found.group("thing")):  # "do you have any friends?" buys nothing
        return None
    asked = {stem(w) for w in tokens(found.group("thing").lower()) if w not in FILLER}
    own = {stem(w) for w in tokens(" ".join([talk.npc.persona, *wares]).lower())}
    if not asked or asked & own:
        return None
    sold = ", ".join(wares[:-1]) + f" and {wares[-1]}" if len(wares) > 1 else wares[0]
    return speak.line("not_sold", thing=found.group("thing").strip(), wares=sold)


def does_it(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """A yes to a deed asked that a clause of the persona says it does, the deed said in
    its own words ("Of course! I still dance at every wedding."); None when none does. A
    gesture asked ("will you dance with me?") is made too, by the caller."""
    if intent.kind not in (Kind.SELF, Kind.QUESTION, Kind.CHAT, Kind.FAVOUR, Kind.GESTURE):
        return None
    asked = _ASKED.search(talk.said)
    verb = (asked.group("verb") or asked.group("bare") or "").lower() if asked else ""
    if not verb or verb in _NO_DEED:
        return None
    npc = talk.npc
    does = re.compile(rf"^I (?P<how>(?:\w+ ){{0,2}}?){re.escape(verb)}(?:s|es)?\b", re.I)
    things = _things(talk.said[asked.end() :]) if asked else set()  # "a secret"
    found = [
        c
        for c in clauses(npc.persona, npc.name)
        if (m := does.match(c)) and not _NEGATED.search(m.group("how"))
    ]
    # the clause of the thing asked ("keep a secret", not "keep the tower clock wound")
    found = [c for c in found if not things or things & _things(c)]
    price = service_price(talk.said, npc.persona) if found else ""
    if price:  # "blow me a bottle?" of one whose bottle is "two groats": that
        return speak.line("price", price=price)
    yes = speak.text("ask_yes")
    for clause in found:
        options = [*one_of(clause, talk.said), *shorter(clause)]  # "a tub?": "I make tubs"
        text = in_own_words(lambda p: f"{yes} {p}.", options, npc.persona, npc.name)
        if text:
            return say(text, "player")
    return None


def one_of(deed: str, said: str) -> list[str]:
    """A deed of a list said of the one thing asked: "I make barrels, tubs and buckets in
    the cooperage" of a tub asked, "I make tubs"; none when no one thing is asked."""
    found = re.match(r"(I \w+) (.+?)(?= (?:in|at|on|for|by|from|to)\b|$)", deed)
    items = re.split(r",\s*|\s+(?:and|or)\s+", found.group(2)) if found else []
    asked = {stem(w) for w in tokens(said.lower())}
    hit = [i for i in items if asked & {stem(w) for w in tokens(i.lower())}]
    return [f"{found.group(1)} {hit[0]}"] if found and len(items) > 1 and len(hit) == 1 else []


def _things(text: str) -> set[str]:
    """The stems of a text's words that name something ("a secret": secret)."""
    return {stem(w) for w in tokens(text.lower()) if len(w) > 2 and w not in _NOT_THINGS}


_NOT_THINGS = FILLER | frozenset("me us you with for please again ever still some any one".split())


def _said(talk: PlayerLine, speak: Speaker, table: str, item: str) -> SkillCall:
    """A line of `table` with the item said in the NPC's own words: of a list ("smoke, or
    people who swat at bees"), the part the line touches."""
    npc = talk.npc
    parts = [p for p in re.split(r",?\s+(?:or|and)\s+|,\s+", item) if p]
    said = shorter(touched(talk.said, parts) or item)
    text = in_own_words(lambda p: speak.text(table, thing=p), said, npc.persona, npc.name)
    return say(text or speak.text("offer_thanks"), "player")
