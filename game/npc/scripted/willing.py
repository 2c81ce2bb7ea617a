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
from game.npc.scripted.matching import fears_of, touched
from game.npc.scripted.retell import clauses, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.skills import SkillCall

__all__ = ["does_it", "offers", "willing"]

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
    r"\bi (?:brought|made|baked|saved|picked|got) you (?:a |an |some )?(?P<brought>[^?.!,]+)",
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
        or _offered(talk, speak)
        or _proposed(talk, speak)
        or _not_sold(talk, intent, speak)
        or (does_it(talk, intent, speak) if intent.kind is not Kind.GESTURE else None)
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
    r"song|swim|ride|sail|trip|climb|stroll|wander|ramble|jaunt|outing|hike|tour|visit|"
    r"story|word)s?\b",
    re.I,
)


def _thing(found: re.Match[str]) -> str:
    return next(g for g in found.group("thing", "mine", "brought") if g is not None).strip()


def _offered(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """A thing offered: a like's glad yes, a dislike's or fear's no, else thanks."""
    if not offers(talk.said):  # "want to come?", "want a hand?": no thing offered
        return None
    sheet = talk.npc.sheet
    liked = touched(talk.said, sheet.likes, kin=False)  # bread offered is no plum cake
    if liked:
        return _said(talk, speak, "offer_like", liked)
    disliked = touched(talk.said, [*sheet.dislikes, *fears_of(sheet.fears, talk.npc.persona)])
    if disliked:
        return _said(talk, speak, "offer_no", disliked)
    return speak.line("offer_thanks")


def _proposed(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """A deed the player proposes that touches what the NPC dislikes or fears: its no."""
    if not _PROPOSES.search(talk.said):
        return None
    sheet = talk.npc.sheet
    disliked = touched(talk.said, [*sheet.dislikes, *fears_of(sheet.fears, talk.npc.persona)])
    return _said(talk, speak, "offer_no", disliked) if disliked else None


def _not_sold(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """No to a thing asked for sale that the NPC neither sells nor names, with what it
    does sell; None when it names the thing at all, or sells nothing."""
    found = _SELL_ASKED.search(talk.said)
    wares = talk.npc.sheet.wares
    if found is None or not wares or intent.kind not in (Kind.SELF, Kind.QUESTION, Kind.CHAT):
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
    yes = speak.text("ask_yes")
    for clause in found:
        text = in_own_words(lambda p: f"{yes} {p}.", shorter(clause), npc.persona, npc.name)
        if text:
            return say(text, "player")
    return None


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
