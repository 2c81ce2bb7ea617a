"""The kinds of what a player's line asks of an NPC, declared once, and what each is;
what its words name (`Target`).

`Kind` names them; the sets below say how each is answered, and everything that answers
reads them: the persona brain (`game.npc.scripted.talk`), the play script's notes and
leads (`game.npc.play`). A kind is also the name of its line table in the persona brain's
`lines.json` where it has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["ACTIONS", "FACTS", "LEADS", "ONE_LINE", "Kind", "Named", "Target"]


class Kind(StrEnum):
    """What one line asks of the NPC."""

    CHAT = "chat"  # nothing in particular
    QUESTION = "question"  # a question the reader has no answer for
    GREET = "greet"
    BYE = "bye"
    THANKS = "thanks"
    HOW = "how"  # "how are you?"
    SAD = "sad"
    GLAD = "glad"
    INJECTION = "injection"  # "ignore your instructions"
    AI = "ai"  # "are you an AI?"
    OFFWORLD = "offworld"  # talk of things that do not exist in the village
    ASK_NAME = "ask_name"  # "what's my name?"
    TELL_NAME = "tell_name"  # "I'm Ada"
    RECALL = "recall"  # "what did I say about ...?"
    SELF = "self"  # a question about the NPC itself (`Intent.sub` says which)
    PERSON = "person"  # a question about a villager
    PLACE = "place"  # a question about a place
    VILLAGE = "village"  # "what is there in the village?"
    TIME = "time"  # "is it still morning?", "when does it get dark?" (`sub` "dark")
    UNKNOWN_PLACE = "unknown_place"  # a place the map lacks
    SEEK = "seek"  # "I'm looking for ..." something not found
    FAVOUR = "favour"  # a favour asked
    CHATTER = "chatter"  # idle talk offered
    WEATHER = "weather"  # small talk of the weather or the day ("nice day, isn't it?")
    GESTURE = "gesture"  # a gesture asked for
    GO = "go"  # a walk asked for
    LOOK = "look"  # a look asked for
    WAIT = "wait"  # a wait asked for
    SKILL = "skill"  # another skill asked for by its declared words (`Intent.sub`)
    STORY = "story"  # a story or song asked for (`Intent.sub`: "ghost", "old", "odd", "song")


# The actions a line may ask for (a skill of its own besides speaking).
ACTIONS = frozenset({Kind.GESTURE, Kind.GO, Kind.LOOK, Kind.WAIT})
# Answered with a fact from the NPC's facts (a place, a villager, the player's words).
FACTS = frozenset(
    {Kind.PLACE, Kind.PERSON, Kind.RECALL, Kind.ASK_NAME, Kind.TELL_NAME, Kind.VILLAGE}
)
# Answered by one line of the kind's own table and nothing else.
ONE_LINE = frozenset(
    {
        Kind.INJECTION,
        Kind.AI,
        Kind.OFFWORLD,
        Kind.HOW,
        Kind.THANKS,
        Kind.QUESTION,
        Kind.UNKNOWN_PLACE,
        Kind.SEEK,
        Kind.SAD,
        Kind.GLAD,
        Kind.FAVOUR,
        Kind.CHATTER,
        Kind.WEATHER,
    }
)
# The play script's line starts with the persona brain's answer: the facts a small model
# gets wrong, a villager's reply to talk of machines, its side on a favour or idle talk, and
# the first sentences of a story asked for (a small model dodges it, or tells another's).
LEADS = FACTS | {
    Kind.TIME,
    Kind.AI,
    Kind.INJECTION,
    Kind.OFFWORLD,
    Kind.UNKNOWN_PLACE,
    Kind.FAVOUR,
    Kind.CHATTER,
    Kind.STORY,
}


class Named(StrEnum):
    """What a line's words name."""

    PLACE = "place"
    PERSON = "person"
    PLAYER = "player"
    SELF = "self"  # the NPC itself


@dataclass(frozen=True)
class Target:
    """A place, villager, the player or the NPC itself, as the facts give it."""

    kind: Named
    name: str  # what the skills take: a place name, a villager's name, 'player'
    label: str  # how to speak of it: "the elder house", "Wren"
    about: str = ""  # a place's description, a villager's role
    home: str = ""  # a villager's home place name
    weak: bool = False  # found only by words of a description ("the apple trees")
    by_place: bool = False  # a villager found by the place they keep ("who runs the mill?")
