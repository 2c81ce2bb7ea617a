"""Player and NPCs: tile position, smooth motion, facing, speech bubble, emote."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from game.world.events import Spoke
from game.world.grid import DIRECTIONS, Tile, direction

PLAYER_ID = "player"  # the player's entity id
EMOTE_SECONDS = 2.0
WALK_SPEED = 5.0  # tiles per second
EARSHOT_TILES = 8
HEARD_KEPT = 5  # the last lines each NPC heard, for its perception
ASK_REACH_TILES = 2.5  # the player must be this close for an NPC to ask a question


def reading_seconds(text: str) -> float:
    """How long a finished bubble stays up: enough time to read it."""
    return min(12.0, 2.5 + len(text) / 15.0)


@dataclass
class Bubble:
    """What an entity is saying: grows while streaming, fades after reading time."""

    text: str = ""
    streaming: bool = True
    started: float = 0.0
    expires: float | None = None
    target: str | None = None
    interrupted: bool = False

    @property
    def waiting(self) -> bool:
        """True while the speaker thinks and no text has arrived yet ("...")."""
        return self.streaming and not self.text


@dataclass
class EmoteState:
    """An icon above the head for a short while."""

    name: str
    started: float
    expires: float


@dataclass
class Entity:
    """Anything that stands on a tile and can walk, talk and emote."""

    entity_id: str
    name: str
    sprite: str
    tile: Tile
    facing: str = "down"
    speed: float = WALK_SPEED
    # Visual position in tiles; equals `tile` when at rest, between tiles while walking.
    x: float = 0.0
    y: float = 0.0
    moving: bool = False
    walk_time: float = 0.0
    bubble: Bubble | None = None
    emote: EmoteState | None = None
    # Told (entity, old tile) whenever the tile changes: the world's spatial index.
    _watcher: Callable[[Entity, Tile], None] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self.x, self.y = float(self.tile[0]), float(self.tile[1])

    def watch(self, watcher: Callable[[Entity, Tile], None]) -> None:
        """Call `watcher(entity, old_tile)` after every change of tile from now on."""
        self._watcher = watcher

    def start_step(self, direction: str) -> Tile:
        """Claim the next tile in a direction and begin walking to it."""
        dx, dy = DIRECTIONS[direction]
        self.facing = direction
        old = self.tile
        self.tile = (old[0] + dx, old[1] + dy)
        self.moving = True
        if self._watcher is not None:
            self._watcher(self, old)
        return self.tile

    def face(self, tile: Tile) -> None:
        """Turn toward a tile (unless standing on it)."""
        if tile != self.tile:
            self.facing = direction(self.tile, tile)

    def advance(self, dt: float) -> bool:
        """Move the visual position toward `tile`; True on arrival this frame."""
        if not self.moving:
            return False
        self.walk_time += dt
        tx, ty = self.tile
        dist = abs(tx - self.x) + abs(ty - self.y)
        travel = self.speed * dt
        if travel >= dist:
            self.x, self.y = float(tx), float(ty)
            self.moving = False
            return True
        self.x += (tx - self.x) / dist * travel
        self.y += (ty - self.y) / dist * travel
        return False

    def heading(self, toward: Tile) -> int:
        """-1 walking toward `toward`, 1 walking away, 0 standing or passing by."""
        if not self.moving:
            return 0
        before = abs(self.x - toward[0]) + abs(self.y - toward[1])
        after = abs(self.tile[0] - toward[0]) + abs(self.tile[1] - toward[1])
        if after < before - 0.01:
            return -1
        if after > before + 0.01:
            return 1
        return 0

    def place(self, tile: Tile, facing: str | None = None) -> None:
        """Put the entity on a tile at once (loading a save, spawning)."""
        old = self.tile
        self.tile = tile
        self.x, self.y = float(tile[0]), float(tile[1])
        self.moving = False
        if facing:
            self.facing = facing
        if self._watcher is not None:
            self._watcher(self, old)


@dataclass
class Player(Entity):
    """The one entity the keyboard drives."""


@dataclass
class Npc(Entity):
    """An entity whose actions come from its agent."""

    persona: str = ""
    greeting: str = ""
    properties: dict[str, str] = field(default_factory=dict)
    activity: str = "idle"
    asleep: bool = False  # its day plan has it asleep (at home), and nobody woke it
    path: list[Tile] = field(default_factory=list)
    blocked_for: float = 0.0
    repaths: int = 0  # detours tried since the NPC was last able to step
    # The last lines said within earshot while this NPC stood there, oldest first.
    heard: deque[Spoke] = field(default_factory=lambda: deque(maxlen=HEARD_KEPT))
