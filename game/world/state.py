"""The world's state: tiles, entities, the clock and what was said, with the questions
asked of them (who stands where, who is near, what a name means).

`World` builds on it with the command inbox and the step; motion, speech and perception
read and change the world through it alone.
"""

from __future__ import annotations

import math
from collections import deque

from game.world.board import PUBLIC, Blackboard
from game.world.clock import DEFAULT_DAY_S, DayClock
from game.world.entities import PLAYER_ID, Entity, Npc, Player
from game.world.events import Spoke, WorldEvent
from game.world.feelings import Feelings
from game.world.grid import Grid, Tile
from game.world.news import Heard, How, NewsBook
from game.world.plans import Plan
from game.world.spatial import SpatialIndex
from game.world.tiled import MapData, Place


class WorldState:
    """Tiles, entities and the clock; no drawing, no threads of its own, no network."""

    def __init__(
        self, map_data: MapData, player_name: str = "Traveller", day_s: float = DEFAULT_DAY_S
    ) -> None:
        self.map = map_data
        self.grid = Grid(map_data.width, map_data.height, map_data.blocked)
        self.clock = 0.0  # game seconds of play
        self.day = DayClock(day_s)  # the time of day: clock 0 is 8 am
        self.plans: dict[str, Plan] = {s.npc_id: s.plan for s in map_data.npcs if s.plan}
        self.board = Blackboard()  # the notice boards of the map, and any others
        self.notice_boards: dict[str, Tile] = {}  # board id -> where it stands
        for spot in map_data.boards:
            board_id = self.board.ensure_board(
                (PUBLIC,), board_id=spot.name, name=spot.name, tile=spot.tile
            )
            self.notice_boards[board_id] = spot.tile
        self.news = NewsBook()  # what was told that matters, and who heard it from whom
        self.feelings = Feelings()  # how each NPC feels about the player and the others
        self.player = Player(PLAYER_ID, player_name, "player", map_data.player_spawn)
        self.npcs: dict[str, Npc] = {}
        for spawn in map_data.npcs:
            self.npcs[spawn.npc_id] = Npc(
                spawn.npc_id,
                spawn.name,
                spawn.sprite,
                spawn.tile,
                persona=spawn.persona,
                greeting=spawn.greeting,
                properties=dict(spawn.properties),
            )
        self.speech_log: deque[Spoke] = deque(maxlen=64)
        self._events: list[WorldEvent] = []
        # Who stands where, kept true by the entities themselves as they move.
        self.spatial = SpatialIndex(self.entities())
        # NPCs by lower-case name, for find_by_name (every NPC spawns with the map).
        self._names = {npc.name.lower(): npc for npc in self.npcs.values()}

    def entities(self) -> list[Entity]:
        """The player and every NPC."""
        return [self.player, *self.npcs.values()]

    def entity(self, entity_id: str) -> Entity | None:
        """An entity by id (the player's id is "player")."""
        return self.player if entity_id == PLAYER_ID else self.npcs.get(entity_id)

    def find_by_name(self, name: str) -> Entity | None:
        """An entity by display name or id, case-insensitively; "player" means the player."""
        key = name.strip().lower()
        if key in (PLAYER_ID, "you", self.player.name.lower()):
            return self.player
        return self.npcs.get(key) or self._names.get(key)

    def place_named(self, name: str) -> Place | None:
        """A named place, case-insensitively, with or without a leading "the"."""
        return self.map.place_index.named(name)

    def occupant(self, tile: Tile, exclude: Entity | None = None) -> Entity | None:
        """Whoever stands on (or is walking into) a tile."""
        return self.spatial.at(tile, exclude)

    def near(self, tile: Tile, reach: float) -> list[tuple[float, Entity]]:
        """Everyone within `reach` tiles (straight line) of a tile, with their distance,
        nearest first (ties by id, so the order never depends on who moved when)."""
        tx, ty = tile
        limit = reach * reach
        found = []
        for ent in self.spatial.near(tile, reach):
            x, y = ent.tile
            d2 = (x - tx) * (x - tx) + (y - ty) * (y - ty)
            if d2 <= limit:
                found.append((d2, ent.entity_id, ent))
        found.sort()  # ids are unique: entities themselves are never compared
        return [(math.sqrt(d2), ent) for d2, _, ent in found]

    def notice_board_near(self, tile: Tile, reach: float) -> str | None:
        """The id of the nearest notice board within `reach` tiles of `tile`, if any."""
        best: tuple[float, str] | None = None
        for board_id, spot in self.notice_boards.items():
            d = math.dist(spot, tile)
            if d <= reach and (best is None or d < best[0]):
                best = (d, board_id)
        return best[1] if best else None

    def distance(self, a: Entity, b: Entity) -> float:
        """Straight-line distance in tiles between two entities."""
        return math.dist(a.tile, b.tile)

    def npc_in_reach(self, reach: float = 1.5) -> Npc | None:
        """The nearest NPC next to the player (for the talk key), if any."""
        return next(
            (ent for _, ent in self.near(self.player.tile, reach) if isinstance(ent, Npc)), None
        )

    def listeners(self, spoke: Spoke) -> list[Npc]:
        """The NPCs that were within earshot of a line when it was said, nearest first."""
        return [self.npcs[npc_id] for npc_id in spoke.heard_by]

    def stand_player_by(self, npc_id: str) -> None:
        """Put the player on the free tile nearest the NPC, the two facing each other."""
        self.stand_by(self.player, npc_id)

    def stand_by(self, ent: Entity, npc_id: str) -> None:
        """Put `ent` on the free tile nearest the NPC, the two facing each other."""
        npc = self.npcs[npc_id]
        if ent is npc:
            return
        spot = self.grid.nearest_walkable(
            npc.tile, free=lambda t: t != npc.tile and self.occupant(t, exclude=ent) is None
        )
        if spot is None:
            return
        ent.place(spot)
        ent.face(npc.tile)
        npc.face(ent.tile)

    def forget_speech(self) -> None:
        """Drop every line said so far, and what each NPC heard (a save being loaded)."""
        self.speech_log.clear()
        for npc in self.npcs.values():
            npc.heard.clear()

    def hear(self, npc_id: str, news_id: str, source: str, name: str, how: How) -> bool:
        """An awake NPC hears a piece of news from `source`, here and now; True when it
        is new to it (the pass is recorded)."""
        npc = self.npcs.get(npc_id)
        if npc is None or npc.asleep:
            return False
        place = self.map.place_at(npc.tile)
        heard = Heard(news_id, source, name, self.clock, place.name if place else "", how)
        return self.news.learn(npc_id, heard, self.day.hour)

    def record(self, event: WorldEvent) -> None:
        """Queue a world event for `drain_events`."""
        self._events.append(event)

    def drain_events(self) -> list[WorldEvent]:
        """World events since the last call, oldest first."""
        events, self._events = self._events, []
        return events
