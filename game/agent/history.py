"""The conversation between the player and one NPC, read back from its session log.

Every line passes `clean_text`: a log holds what a model sent, control characters too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from game.agent.events import AssistantMessage, EventBase, ToolResultEvent, ToolUse, UserMessage
from game.agent.providers.base import parse_arguments
from game.text import clean_text


@dataclass(frozen=True)
class Line:
    """One line of the talk panel's history."""

    speaker: Literal["player", "npc"]
    text: str
    interrupted: bool = False


def _said(arguments: str, field: str) -> str:
    text = parse_arguments(arguments).get(field)
    return clean_text(text).strip() if isinstance(text, str) else ""


def conversation(
    events: list[EventBase],
    spoken: Mapping[str, str],
    limit: int = 60,
    before_ts: float | None = None,
) -> list[Line]:
    """The player's lines and what the NPC said back in those turns, in order.

    `spoken` names the speaking tools and what each says out loud (`ToolRegistry.spoken`).
    A call that was cut off shows what reached the player, marked interrupted; one the
    world refused (an error result) is left out, and so is chatter of other turns.
    """
    lines: list[Line] = []
    says: dict[str, int] = {}  # call id -> index of its line
    player_turns: set[str | None] = set()
    for event in events:
        if before_ts is not None and event.ts >= before_ts:
            break  # the talk panel shows newer lines from the world itself
        if isinstance(event, UserMessage):
            player_turns.add(event.run_id)
            lines.append(Line("player", clean_text(event.text)))
        elif event.run_id not in player_turns:
            continue
        elif isinstance(event, ToolUse) and event.name in spoken:
            text = _said(event.arguments, spoken[event.name])
            if text:
                says[event.call_id] = len(lines)
                lines.append(Line("npc", text))
        elif isinstance(event, ToolResultEvent) and event.call_id in says and event.is_error:
            lines[says.pop(event.call_id)] = Line("npc", "")
        elif isinstance(event, AssistantMessage) and event.text.strip():
            if not event.tool_calls or event.interrupted:
                lines.append(Line("npc", clean_text(event.text).strip(), event.interrupted))
    return [line for line in lines if line.text][-limit:]
