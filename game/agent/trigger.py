"""Why an NPC thinks now: the trigger of a turn, as words for models and as facts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, SerializeAsAny, model_validator

from game.agent.events import TRIGGER_PRIORITY, UserMessage, WorldObservation
from game.agent.facts import Facts

__all__ = ["Trigger", "TriggerKind"]

TriggerKind = Literal["player_message", "heard", "player_near", "news", "idle"]


class Trigger(BaseModel):
    """Why an NPC thinks now: the player spoke, it heard something, an idle tick...

    `text` and `perception` are written for models; `speaker`, `said` and `sensed` are the
    same facts as data, for the providers that plan (see `game.agent.facts`).
    """

    kind: TriggerKind
    text: str
    perception: str | None = None
    source: str | None = None
    priority: int = -1  # < 0: the kind's default (player_message highest)
    speaker: str | None = None  # who spoke (a heard line; the player's name)
    said: str | None = None  # what they said, word for word
    sensed: SerializeAsAny[Facts] | None = None  # the game's facts, carried as they are

    @model_validator(mode="after")
    def _default_priority(self) -> Trigger:
        if self.priority < 0:
            self.priority = TRIGGER_PRIORITY[self.kind]
        return self

    @classmethod
    def player(
        cls, text: str, perception: str | None = None, sensed: Facts | None = None
    ) -> Trigger:
        """What the player typed to this NPC."""
        return cls(
            kind="player_message",
            text=text,
            perception=perception,
            source="player",
            said=text,
            sensed=sensed,
        )

    def to_event(self) -> UserMessage | WorldObservation:
        """The event that records this trigger in the log (the text is what was said)."""
        if self.kind == "player_message":
            return UserMessage(
                text=self.text, perception=self.perception, speaker=self.speaker, sensed=self.sensed
            )
        return WorldObservation(
            kind=self.kind,
            text=self.text,
            perception=self.perception,
            source=self.source,
            speaker=self.speaker,
            said=self.said,
            sensed=self.sensed,
        )
