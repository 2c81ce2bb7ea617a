"""What the brain knows of the player: their lines, the name they gave, what they said.

The player's earlier lines are read from the user messages, here and nowhere else: from
the trigger facts each one carries (`Message.trigger`); nothing parses the prose back.
The name and the things said are found in those lines and put back in the NPC's words
("I'm looking for my goat" -> "you're looking for your goat").
"""

from __future__ import annotations

import re

from game.agent.providers.base import Message
from game.npc.facts import VillagerFacts
from game.npc.reading.naming import FILLER, name_words, norm, stem, tokens

__all__ = ["player_line", "recall", "recalled", "swapped", "told_name"]


def player_line(message: Message) -> str | None:
    """The player's words in a user message, from the trigger facts it carries; None if
    the player did not speak it (a world observation, or a message without facts)."""
    trigger = message.trigger
    if trigger is None or trigger.kind != "player_message":
        return None
    return trigger.said if trigger.said is not None else trigger.text


# The name the player gives: "my name is ...", "call me ...", "I'm Quillon".
_NAME_TOLD = re.compile(
    r"\b(?:my name is|my name's|name's|names|i am called|i'm called|im called|call me|"
    r"they call me|people call me|you can call me|the name is|the name's|i go by)\s+"
    r"([a-z][a-z'-]{1,20})\b",
    re.I,
)
_IAM = re.compile(r"\b(?i:i am|i'm|im|it's|its|this is|i be)\s+([A-Z][a-zA-Z'-]{1,20})\b")
_NOT_NAMES = frozenset(
    """not so just here there fine good ok okay sorry new lost looking going back home sure
    glad happy sad tired hungry thirsty a an the very really from in on at with your you
    just only also still well ready done afraid scared bored busy curious interested
    i me what that this it nobody somebody someone nothing cold hot maybe anything
    whatever later soon afraid here monday tuesday wednesday thursday friday saturday sunday
    morning evening night noon midnight dusk today tonight tomorrow""".split()
)

# "It's April" tells the time of year, though "I'm April" tells a name.
_MONTHS = frozenset(
    """january february march april may june july august september october november december
    spring summer autumn winter""".split()
)


def told_name(text: str, npc: VillagerFacts | None = None) -> str | None:
    """The name the player gives for themself in this line ("I'm Quillon", "call me Q")."""
    text = text.replace("\u2019", "'")
    taken = set()
    if npc is not None:
        taken = {npc.npc_id, *name_words(npc.name)}
        for v in npc.people:
            taken |= {v.npc_id, *name_words(v.name)}
    for pattern in (_NAME_TOLD, _IAM):
        match = pattern.search(text)
        if match is None:
            continue
        word = match.group(1)
        if "'" in word or word.lower() in _NOT_NAMES or word.lower() in taken:
            continue
        if word.lower() in _MONTHS and match.group().lower().startswith(("it", "this")):
            continue
        return word[0].upper() + word[1:]
    return None


_SWAP = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "am": "are",
    "i'm": "you're",
    "im": "you're",
    "i've": "you've",
    "i'd": "you'd",
    "i'll": "you'll",
    "we": "you",
    "our": "your",
    "us": "you",
    "was": "were",
}


# Words after which "you" is who does something: "green ones if you have them" -> "if I".
_SUBJECT_AFTER = frozenset(
    "if when because that unless as while since and but so until whether once".split()
)


def swapped(text: str) -> str:
    """The player's words as the NPC says them back ("my pies" -> "your pies")."""
    out = []
    words = text.split()
    for i, word in enumerate(words):
        core = word.strip(",.!?;:\"'").lower()
        tail = word[len(word.rstrip(",.!?;:")) :]
        before = words[i - 1].lower() if i else ""
        if core in _SWAP:
            out.append(_SWAP[core] + tail)
        elif core == "you" and not tail and (not i or before in _SUBJECT_AFTER):
            out.append("I")  # the one who does it, not the one it is done to
        elif core in ("you", "your", "yours", "you're"):
            swapped = {"you": "me", "your": "my", "yours": "mine", "you're": "I'm"}[core]
            out.append(swapped + tail)
        else:
            out.append(word)
    return " ".join(out)


def recall(question: str, earlier: list[str]) -> str | None:
    """What the player told before that the question points at, as the NPC would put it
    back ("I'm looking for my goat" -> "you're looking for your goat"); None if nothing."""
    found = recalled(question, earlier)
    return swapped(found) if found is not None else None


def recalled(question: str, earlier: list[str]) -> str | None:
    """The sentence the player said before that the question points at, in the player's
    own words ("I'm looking for my goat"); None if nothing."""
    asked = {stem(w) for w in tokens(question) if w not in FILLER}
    asked -= {"say", "said", "tell", "told", "mention", "mentioned", "remember", "recall", "ask"}
    best: tuple[int, int] = (0, -1)
    found = ""
    for index, line in enumerate(earlier):
        for sentence in re.split(r"(?<=[.!?])\s+", line.strip()):
            if not sentence or sentence.endswith("?"):
                continue
            have = {stem(w) for w in tokens(sentence)}
            score = len(asked & have)
            if re.search(r"\b(?:i|i'm|im|my|we)\b", norm(sentence)):
                score += 1
            if (score, index) > best:
                best, found = (score, index), sentence
    if not found:
        return None
    found = found.strip().rstrip(".!")
    # "I'd like a blanket in deep blue, whenever you have the time": what was said, not
    # the words around it.
    head, _, rest = found.partition(", ")
    aside = re.match(r"(?:whenever|when|if|once|because|since|as soon as|please|thanks)\b", rest)
    return head if aside and len(head.split()) >= _CLAUSE_WORDS else found


_CLAUSE_WORDS = 4  # a first clause this long says the thing on its own
