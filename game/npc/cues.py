"""Why an NPC thinks, on its way from the game thread to the agent thread.

The game thread (`game.npc.brain.Brain`) hands over a `Cue`: the kind of trigger, a text
written for models, who spoke and what they said, with what the NPC perceived then as
`Sensed` facts. On the agent thread `trigger_for` makes the cue the `Trigger` a turn
runs on. `player_cue`, `heard_cue` and `idle_cue` are the cues of the player's line to an
NPC, of a line an NPC heard, and of an idle tick.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from game.agent.trigger import Trigger, TriggerKind
from game.npc.facts import DayFacts, SensedFacts, sensed_facts
from game.world.entities import PLAYER_ID, Npc
from game.world.events import Spoke
from game.world.perception import Perception
from game.world.world import World

IDLE_TEXTS = (
    "A quiet moment passes.",
    "Time passes; nobody needs you right now.",
    "A breeze moves through the village.",
)


class Cue(NamedTuple):
    """Why an NPC should think, as the game thread hands it over: a plain tuple, so the
    `Trigger` model is built and validated on the agent thread. `text` is written for
    models; `speaker` and `said` are who spoke and what they said, as facts."""

    kind: TriggerKind
    text: str
    source: str | None = None
    speaker: str | None = None
    said: str | None = None
    about: str | None = None  # the news a `news` cue passes on


@dataclass(frozen=True)
class Sensed:
    """An NPC's perception as facts taken on the game thread, to be written as text
    (summary, token budget, the local model's tokenizer) on the agent thread."""

    perception: Perception
    budget: int
    count_tokens: Callable[[str], int]
    day: DayFacts | None = None  # the facts of the day (`VillageLife.facts`)

    def text(self) -> str:
        """The perception as the agent reads it (fitted to the budget)."""
        return self.perception.fit(self.budget, self.count_tokens)

    def facts(self) -> SensedFacts:
        """The perception as typed facts: after `text`, what the text says."""
        return sensed_facts(self.perception, self.day)


def trigger_for(cue: Cue, sensed: Sensed | None) -> Trigger:
    """The `Trigger` of a cue: what the NPC sensed written up, and kept as facts."""
    perception = sensed.text() if sensed is not None else None  # fits to the budget
    return Trigger(
        kind=cue.kind,
        text=cue.text,
        source=cue.source,
        speaker=cue.speaker,
        said=cue.said,
        perception=perception,
        sensed=sensed.facts() if sensed is not None else None,
    )


def player_cue(world: World, text: str) -> Cue:
    """The cue of the player's line to an NPC: the line, and who said it."""
    return Cue("player_message", text, PLAYER_ID, world.player.name, text)


def heard_cue(spoke: Spoke, npc: Npc) -> Cue | None:
    """The cue of a line `npc` heard, if it is for the NPC to answer: its name was said,
    or another NPC spoke to it. The player's own line to it is not: `player_talks` (or the
    answer to an ask) covers that. None when it only heard the line."""
    addressed = spoke.target_id == npc.entity_id
    if spoke.speaker_id == PLAYER_ID and addressed:
        return None
    named = _names(npc, spoke.text.lower())
    if not (named or (addressed and spoke.speaker_id != PLAYER_ID)):
        return None  # heard, and in its perception, but not for it to answer
    how = "said to you" if addressed else "said (you heard your name)"
    text = f'{spoke.speaker_name} {how}: "{spoke.text}"'
    return Cue("heard", text, spoke.speaker_id, spoke.speaker_name, spoke.text)


def idle_cue(index: int = 0) -> Cue:
    """An idle tick's cue: one of the quiet-moment texts (any index, wrapped round)."""
    return Cue("idle", IDLE_TEXTS[index % len(IDLE_TEXTS)])


_NAME_PATTERNS: dict[str, re.Pattern[str]] = {}


def _names(npc: Npc, lowered: str) -> bool:
    """Whether a line (in lower case) calls the NPC by name (its full name or its last
    word, as a word)."""
    return name_pattern(npc.name).search(lowered) is not None


def name_pattern(name: str) -> re.Pattern[str]:
    """The compiled pattern for a name (compiling costs a frame ~0.1 ms: do it at load)."""
    pattern = _NAME_PATTERNS.get(name)
    if pattern is None:
        names = sorted({name.lower(), name.split()[-1].lower()} - {""})
        alternatives = "|".join(re.escape(n) for n in names) or "(?!)"
        pattern = _NAME_PATTERNS[name] = re.compile(rf"\b(?:{alternatives})\b")
    return pattern
