"""The character sheet's fields: who an NPC is, as typed data."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

__all__ = [
    "COUNTER_REFUSALS",
    "NOT_ALLOWED",
    "SURENESS",
    "TALKS",
    "Belief",
    "CharacterSheet",
    "Sureness",
    "Talk",
]

Sureness = Literal["certain", "thinks", "suspects"]
Talk = Literal[
    "few words", "questions", "jokes", "formal", "stammer", "loud", "gloomy", "cheerful", "brisk"
]
SURENESS: tuple[str, ...] = get_args(Sureness)
# The refusals read by kind, as the sheet names them; any other refusal is a phrase.
COUNTER_REFUSALS = ("credit", "free goods", "idle talk")
# The reason of a deed the persona says it may not do ("is not allowed past the wall").
NOT_ALLOWED = "I'm not allowed"
TALKS: tuple[str, ...] = get_args(Talk)


class Belief(BaseModel):
    """Something the NPC holds true, in its own words, and how sure it is."""

    model_config = ConfigDict(frozen=True)

    what: str
    sure: Sureness = "thinks"


class CharacterSheet(BaseModel):
    """Who an NPC is, as fields: what the persona and the map say of it, once."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    role: str = ""  # its trade ("miller") or, when no trade is named, what it does
    work: str = ""  # the id of its work place, if the map gives one
    likes: tuple[str, ...] = ()
    dislikes: tuple[str, ...] = ()
    beliefs: tuple[Belief, ...] = ()
    fears: tuple[str, ...] = ()
    refuses: tuple[str, ...] = ()  # what it will not do or give ("credit", "free goods")
    opinions: dict[str, str] = {}  # another NPC's id -> what it thinks of them
    talks: tuple[Talk, ...] = ()
    wares: tuple[str, ...] = ()
    ways: tuple[str, ...] = ()  # what it does at its work ("melts sand in a furnace")
    reasons: dict[str, str] = {}  # what it does -> why, as the persona says
    past: tuple[str, ...] = ()  # how it came to its work ("her grandmother taught her")

    def lines(self) -> list[str]:
        """The sheet as a few short lines (the inspector shows them)."""
        out = [f"role      {self.role}" + (f" (works at {self.work})" if self.work else "")]
        pairs = (
            ("likes", "; ".join(self.likes)),
            ("dislikes", "; ".join(self.dislikes)),
            ("believes", "; ".join(f"{b.what} ({b.sure})" for b in self.beliefs)),
            ("fears", "; ".join(self.fears)),
            ("refuses", "; ".join(self.refuses)),
            ("thinks of", "; ".join(f"{k}: {v}" for k, v in self.opinions.items())),
            ("talks", ", ".join(self.talks)),
            ("wares", ", ".join(self.wares)),
            ("does", "; ".join(self.ways)),
            ("because", "; ".join(f"{k}: {v}" for k, v in self.reasons.items())),
            ("past", "; ".join(self.past)),
        )
        return out + [f"{label:<9} {text}" for label, text in pairs if text]
