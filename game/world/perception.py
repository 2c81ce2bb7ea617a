"""What one NPC perceives right now, as text for its agent, within a token budget."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.world.entities import EARSHOT_TILES, Entity

if TYPE_CHECKING:
    from game.world.world import World

SIGHT_TILES = 10
MAX_NEARBY = 5
SPEECH_WINDOW_S = 60.0
DEFAULT_BUDGET = 300
COMPASS = ("east", "southeast", "south", "southwest", "west", "northwest", "north", "northeast")
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def estimate_tokens(text: str) -> int:
    """A cheap token estimate: four characters a token."""
    return (len(text) + 3) // 4


def compass(dx: float, dy: float) -> str:
    """One of 8 directions for a tile offset (y grows south, as on the map)."""
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return COMPASS[int((angle + 22.5) // 45) % 8]


@dataclass(frozen=True)
class Seen:
    """Someone the NPC can see."""

    entity_id: str
    name: str
    distance: float
    direction: str
    activity: str


@dataclass(frozen=True)
class Heard:
    """A line the NPC heard."""

    speaker: str
    text: str
    ago_s: float


@dataclass
class Perception:
    """A snapshot of what one NPC perceives."""

    npc_id: str
    place: str | None
    tile: tuple[int, int]
    activity: str
    nearby: list[Seen] = field(default_factory=list)
    heard: list[Heard] = field(default_factory=list)
    summary: str = ""

    def render(self) -> str:
        """The text given to the agent."""
        lines = [self.summary]
        if self.nearby:
            lines.append(
                "Nearby: "
                + "; ".join(
                    f"{s.name}, {_tiles(s.distance)} {s.direction}, {s.activity}"
                    for s in self.nearby
                )
            )
        if self.heard:
            lines.append(
                "Heard: "
                + " | ".join(f'{h.speaker} ({int(h.ago_s)}s ago): "{h.text}"' for h in self.heard)
            )
        return "\n".join(lines)


def _tiles(d: float) -> str:
    n = round(d)
    word = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{word} tile{'s' if n != 1 else ''}"


def _activity(ent: Entity, world: World) -> str:
    if ent is world.player:
        return "walking" if ent.moving else "standing"
    return getattr(ent, "activity", "idle")


def perceive(
    world: World,
    npc_id: str,
    *,
    budget: int = DEFAULT_BUDGET,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> Perception:
    """Build the NPC's perception; over budget, drop far entities, old speech, then detail."""
    me = world.npcs[npc_id]
    place = world.map.place_at(me.tile)
    seen: list[Seen] = []
    for other in world.entities():
        if other is me:
            continue
        d = world.distance(me, other)
        if d > SIGHT_TILES:
            continue
        dx, dy = other.tile[0] - me.tile[0], other.tile[1] - me.tile[1]
        seen.append(Seen(other.entity_id, other.name, d, compass(dx, dy), _activity(other, world)))
    seen.sort(key=lambda s: s.distance)
    heard = [
        Heard(s.speaker_name, s.text, world.clock - s.time)
        for s in world.speech_log
        if world.clock - s.time <= SPEECH_WINDOW_S
        and s.speaker_id != npc_id
        and math.dist(s.tile, me.tile) <= EARSHOT_TILES
    ]
    p = Perception(
        npc_id, place.name if place else None, me.tile, me.activity, seen[:MAX_NEARBY], heard[-5:]
    )
    p.summary = _summary(p, detailed=True)
    while count_tokens(p.render()) > budget:
        if p.nearby and len(p.nearby) > 1:
            p.nearby.pop()
        elif p.heard:
            p.heard.pop(0)
        elif p.nearby:
            p.nearby.pop()
        elif len(p.summary) > 40:
            p.summary = _summary(p, detailed=False)
            if count_tokens(p.render()) > budget:
                p.summary = p.summary[: budget * 4 - 1]
                break
        else:
            break
        p.summary = _summary(p, detailed=True)
    return p


def _summary(p: Perception, *, detailed: bool) -> str:
    where = f"You are at the {p.place.replace('_', ' ')}" if p.place else f"You are at {p.tile}"
    if not detailed:
        return where + "."
    parts = [where + "."]
    if p.nearby:
        first = p.nearby[0]
        doing = f", {first.activity}" if first.activity not in ("idle", "standing") else ""
        parts.append(f"{first.name} is {_tiles(first.distance)} to the {first.direction}{doing}.")
    else:
        parts.append("Nobody is near.")
    return " ".join(parts)
