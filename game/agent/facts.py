"""Typed facts a request carries for the providers that plan: who the NPC is, why it
thinks, what it senses.

Facts travel as data, never as prose that another module parses back. The runtime knows
only what any NPC has (`NpcFacts`: id, name, persona, greeting) and why a turn runs
(`TriggerFacts`); what a game senses and knows of its NPCs is the game's own subclass of
`Facts`, carried here opaquely: kept as the instance it was handed, written whole into
the log and the local worker's JSON (`SerializeAsAny`), and read back from an old log as
a plain `Facts` whose fields are extras, which the game reads as its own model with
`TheirFacts.of(facts)`.

Who makes them and who reads them:

- `NpcFacts` (or a game's subclass): from the NPC's profile (`NpcProfile.facts`), put on
  every request by `ContextBuilder.build`.
- `TriggerFacts`: the newest trigger of the history (kind, who spoke, what they said, the
  sensed facts the game logged with it, the kinds of the earlier triggers in the window),
  built by `ContextBuilder.build` from the log.

Models that read prose get the same facts written as text (the perception and the
trigger text in the messages).
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, SerializeAsAny

__all__ = ["Facts", "NpcFacts", "TriggerFacts"]


class Facts(BaseModel):
    """Facts the runtime carries and never reads: a game subclasses it with its own.

    Fields it does not declare are kept (`extra="allow"`), so a subclass's facts read back
    from a log as `Facts` lose nothing until `of` reads them as that subclass again."""

    model_config = ConfigDict(extra="allow")

    @classmethod
    def of(cls, facts: Facts) -> Self:
        """`facts` as this model: the instance itself when it is one, else its fields
        (declared and extra) validated, as a log written earlier gives them back."""
        if isinstance(facts, cls):
            return facts
        return cls.model_validate(facts.model_dump())


class NpcFacts(Facts):
    """Who the NPC is, as the runtime knows any NPC (a game's subclass adds the rest)."""

    npc_id: str
    name: str
    persona: str = ""
    greeting: str = ""


class TriggerFacts(BaseModel):
    """Why the NPC thinks now: the newest trigger of its history."""

    kind: str  # player_message, heard, player_near, idle
    text: str = ""  # the trigger as written for models (what the player said, for theirs)
    source: str | None = None  # the entity that caused it (player, an NPC id)
    speaker: str | None = None  # the name of who spoke, if someone did
    said: str | None = None  # what they said, word for word
    perception: str | None = None  # the perception as written for models
    # The same perception as the game's facts (None in old logs), carried as they are.
    sensed: SerializeAsAny[Facts] | None = None
    earlier_kinds: list[str] = Field(default_factory=list)  # earlier triggers in the window
