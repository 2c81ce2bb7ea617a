"""Why the NPC said no: "why not?" after a refusal of its sheet is answered with the fear
behind it ("Deep water, if I'm honest."), the reason its persona gives, or its mood's word
that a rule is a rule; never "I have no answer to that one" to what it just refused.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.npc.reading.intent import read_intent
from game.npc.reading.naming import stem, tokens
from game.npc.scripted.matching import fears_of, stems_of
from game.npc.scripted.retell import clauses, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.scripted.stance import refusal, touches_fear
from game.npc.skills import SkillCall

__all__ = ["why_me", "why_refused", "why_so"]

_WHY_WONT = re.compile(
    r"^\W*why (?:won't|will not|don't|do not|wouldn't|never|do you never|do you refuse to|"
    r"can't|cannot|can you not|mustn't|aren't you allowed to|are you not allowed to) "
    r"(?:you )?(?P<deed>[^?]+)",
    re.I,
)
_BECAUSE = re.compile(r",\s*(?:because|since|as|when|while) (?P<why>[^,]+)$")

# "why not?", "but why?", "how come?", "why's that? I'll be careful"
_WHY_NOT = re.compile(
    r"^\W*(?:(?:but|and|oh|aw|come on)\W+)?(?:why(?: not)?|how come|what for|why'?s that|"
    r"why is that|why ever not)\b",
    re.I,
)


def why_refused(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC's reason for the no it just gave, when the line asks why; None when the
    line asks no why or the line before was not refused."""
    itself = _WHY_WONT.match(talk.said)  # "why won't you fell trees in spring?": asked here
    if itself:
        before = replace(talk, said=f"will you {itself.group('deed')}")
    elif talk.earlier and _WHY_NOT.search(talk.said):
        before = replace(
            talk, said=talk.earlier[-1], earlier=talk.earlier[:-1], replies=talk.replies[:-1]
        )
    else:
        return None
    intent = read_intent(before.said, before.npc)
    if refusal(before, intent, Speaker(before, intent)) is None:
        return _never(talk, speak, itself["deed"]) if itself else None
    npc = talk.npc
    fears = fears_of(npc.sheet.fears, npc.persona)
    fear = next((f for f in fears if touches_fear(before, intent, f)), "")
    if fear:  # "come fishing at the pond" of one afraid of deep water
        return speak.line("why_fear", thing=fear)
    asked = stems_of(before.said)
    for done, why in npc.sheet.reasons.items():
        said = in_own_words(
            lambda p: speak.text("why_reason", why=p), shorter(why), npc.persona, npc.name
        )
        if asked & stems_of(done) and said:  # "since it cracks the glaze"
            return say(said, "player")
    for refused in npc.sheet.refuses:  # "fell a tree in spring, when the sap is rising"
        said_why = _BECAUSE.search(refused)
        if said_why and asked & stems_of(refused[: said_why.start()]):
            return speak.line("why_reason", why=said_why.group("why"))
    return speak.line("why_rule")


def _never(talk: PlayerLine, speak: Speaker, deed: str) -> SkillCall | None:
    """ "Why don't you come to the village more?" of one who never goes into the village on
    market day: what it never does, by the words they share; None when none is shared."""
    npc = talk.npc
    asked = _words(deed) - _words("come more often ever much with")
    for refused in npc.sheet.refuses:
        if asked & _words(refused):
            said = in_own_words(
                lambda p: speak.text("why_never", deed=p), shorter(refused), npc.persona, npc.name
            )
            if said:
                return say(said, "player")
    return None


def _words(text: str) -> set[str]:
    return {stem(w) for w in tokens(text.lower()) if len(w) > 3}


_HOLDS = re.compile(r"I (?:believe|think|swear|reckon|suspect|know|am sure|'m sure|am certain)\b")


def why_me(talk: PlayerLine) -> str:
    """The persona's clause, in the first person, that shares two or more of the words a
    "why" of the NPC asks ("why are your hands blue?": "...and my hands are always blue")."""
    asked = stems_of(talk.said) - stems_of("why are is you your do does so always")
    npc = talk.npc
    found = [  # a belief is said as one, by the sheet's side
        c
        for c in clauses(npc.persona, npc.name)
        if len(asked & stems_of(c)) >= 2 and not _HOLDS.match(c)
    ]
    return found[0] if found else ""


# "Why are you so gloomy?", "how come you're always so cheerful?"
_WHY_SO = re.compile(
    r"^\W*(?:why|how come)(?: are you| you're| is it you're)(?: always| ever)? so "
    r"(?P<manner>[a-z-]+)\b",
    re.I,
)


def why_so(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """ "Why are you so gloomy?" of one its persona or mood calls gloomy: that is how it is,
    in its mood's words; of anyone else, it is not; None when the line asks no such thing."""
    found = _WHY_SO.match(talk.said)
    if found is None:
        return None
    how = found["manner"].lower()
    # its own word, or a word of its mood ("grumpy" of one "surly and short")
    mine = re.search(rf"\b{re.escape(how[:5])}", talk.npc.persona.lower()) or any(
        w.startswith(how[:4]) for w in talk.mood.words
    )
    return speak.line("why_so" if mine else "why_so_not", manner=how)
