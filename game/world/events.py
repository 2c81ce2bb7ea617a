"""World events: what happened in the world that agents should know about, handed out
by `World.drain_events` oldest first."""

from __future__ import annotations

from dataclasses import dataclass

from game.world.grid import Tile


@dataclass(frozen=True)
class Spoke:
    """Someone finished saying something at a tile."""

    speaker_id: str
    speaker_name: str
    text: str
    tile: Tile
    target: str | None
    time: float
    target_id: str | None = None
    interrupted: bool = False
    heard_by: tuple[str, ...] = ()  # the NPCs within earshot, nearest first


WorldEvent = Spoke  # the one kind today; a new kind joins the union when something reads it
