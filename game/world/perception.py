"""What one NPC perceives right now, as text for its agent, within a token budget."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from game.tokens import estimate_tokens
from game.world.entities import Entity, Npc
from game.world.grid import Tile

if TYPE_CHECKING:
    from game.world.state import WorldState

SIGHT_TILES = 10
MAX_NEARBY = 5
SPEECH_WINDOW_S = 60.0
DEFAULT_BUDGET = 300
COMPASS = ("east", "southeast", "south", "southwest", "west", "northwest", "north", "northeast")
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def compass(dx: float, dy: float) -> str:
    """One of 8 directions for a tile offset (y grows south, as on the map)."""
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return COMPASS[int((angle + 22.5) // 45) % 8]


class Seen(NamedTuple):
    """Someone the NPC can see, `dx`, `dy` tiles away (y grows south)."""

    entity_id: str
    name: str
    distance: float
    dx: int
    dy: int
    activity: str

    @property
    def direction(self) -> str:
        """One of 8 compass directions (worked out when read: off the game thread)."""
        return compass(self.dx, self.dy)


class Heard(NamedTuple):
    """A line the NPC heard (`to_you` when it was addressed to this NPC)."""

    speaker: str
    text: str
    ago_s: float
    to_you: bool = False


class SeenBoard(NamedTuple):
    """A notice board in sight, `dx`, `dy` tiles away, with how many posts it holds."""

    board_id: str
    name: str
    distance: float
    dx: int
    dy: int
    posts: int

    def text(self) -> str:
        """As words: A notice board (3 posts) stands two tiles to the north."""
        where = "here"
        if self.distance >= 0.5:
            where = f"{_tiles(self.distance)} to the {compass(self.dx, self.dy)}"
        posts = f"{self.posts} post{'s' if self.posts != 1 else ''}"
        return f"A {self.name} ({posts}) stands {where}."


@dataclass
class Perception:
    """A snapshot of what one NPC perceives."""

    npc_id: str
    place: str | None
    tile: Tile
    activity: str
    nearby: list[Seen] = field(default_factory=list)
    heard: list[Heard] = field(default_factory=list)
    summary: str = ""
    map_name: str = ""
    board: SeenBoard | None = None  # the nearest notice board in sight

    def fit(
        self, budget: int = DEFAULT_BUDGET, count_tokens: Callable[[str], int] = estimate_tokens
    ) -> str:
        """Write the summary and keep within `budget` tokens: drop the farthest entities,
        then the oldest speech, then detail; return the text. Reads no world."""
        nearest = self.nearby[0] if self.nearby else None
        self.summary = _summary(self, nearest)
        while count_tokens(self.render()) > budget:
            if len(self.nearby) > 1:
                self.nearby.pop()  # the farthest first
            elif self.heard:
                self.heard.pop(0)  # then the oldest speech
            elif self.nearby:
                self.nearby.pop()  # the summary still names the nearest
            else:
                break
        if count_tokens(self.render()) > budget:
            self.summary = _summary(self, nearest, detailed=False)
            while self.summary and count_tokens(self.render()) > budget:
                self.summary = self.summary[: len(self.summary) * 4 // 5]
        return self.render()

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
        if self.board is not None:
            lines.append(self.board.text())
        if self.heard:
            lines.append("Heard: " + " | ".join(_heard_line(h) for h in self.heard))
        return "\n".join(lines)


def _heard_line(h: Heard) -> str:
    to = "to you, " if h.to_you else ""
    return f'{h.speaker} ({to}{int(h.ago_s)}s ago): "{h.text}"'


def _tiles(d: float) -> str:
    n = round(d)
    word = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{word} tile{'s' if n != 1 else ''}"


def _activity(ent: Entity, me: Entity, world: WorldState) -> str:
    heading = ent.heading(me.tile)
    if heading:
        return "walking toward you" if heading < 0 else "walking away"
    if ent is world.player:
        return "walking" if ent.moving else "standing"
    return ent.activity if isinstance(ent, Npc) else "idle"


def perceive(
    world: WorldState,
    npc_id: str,
    *,
    budget: int = DEFAULT_BUDGET,
    count_tokens: Callable[[str], int] = estimate_tokens,
) -> Perception:
    """Build the NPC's perception; over budget, drop far entities, old speech, then detail."""
    p = sense(world, npc_id)
    p.fit(budget, count_tokens)
    return p


def sense(world: WorldState, npc_id: str) -> Perception:
    """What the NPC perceives, as plain facts with no text yet: cheap enough for the game
    thread, and a snapshot that `Perception.fit` may render on any thread."""
    me = world.npcs[npc_id]
    place = world.map.place_at(me.tile)
    mx, my = me.tile
    near = [pair for pair in world.near(me.tile, SIGHT_TILES) if pair[1] is not me]
    seen = [
        Seen(
            other.entity_id,
            other.name,
            d,
            other.tile[0] - mx,
            other.tile[1] - my,
            _activity(other, me, world),
        )
        for d, other in near[:MAX_NEARBY]
    ]
    clock = world.clock
    heard = [
        Heard(s.speaker_name, s.text, clock - s.time, s.target_id == npc_id)
        for s in me.heard
        if clock - s.time <= SPEECH_WINDOW_S
    ]
    board_id = world.notice_board_near(me.tile, SIGHT_TILES)
    board = None
    if board_id is not None:
        bx, by = world.notice_boards[board_id]
        name = world.board.board(board_id).name.replace("_", " ") or "notice board"
        count = len(world.board.board(board_id).posts)
        board = SeenBoard(board_id, name, math.dist((bx, by), me.tile), bx - mx, by - my, count)
    return Perception(
        npc_id,
        place.name if place else None,
        me.tile,
        me.activity,
        seen,
        heard,
        map_name=world.map.name,
        board=board,
    )


def _summary(p: Perception, nearest: Seen | None, *, detailed: bool = True) -> str:
    where = f"You are at the {p.place.replace('_', ' ')}" if p.place else f"You are at {p.tile}"
    if not detailed:
        return where + "."
    if p.map_name:
        where += f" in {p.map_name}"
    parts = [where + "."]
    if nearest is not None:
        doing = nearest.activity
        doing = f", {doing}" if doing not in ("idle", "standing") else ""
        parts.append(
            f"{nearest.name} is {_tiles(nearest.distance)} to the {nearest.direction}{doing}."
        )
    else:
        parts.append("Nobody is near.")
    return " ".join(parts)
