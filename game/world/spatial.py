"""Who stands where: entities filed by area, kept true as they move.

The world asks "who stands on this tile?" for every step an NPC takes, and "who is near
this tile?" whenever someone speaks, looks around or comes near the player. Scanning every
entity for each question touches the whole village; the index files each entity under its
square of `AREA_TILES` x `AREA_TILES` tiles, so a question reads only the squares it
covers. Entities report their own moves (`Entity.watch`), so a tile changed by anyone -
a step, a save being loaded, a test placing someone - keeps the index true.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.world.entities import Entity
from game.world.grid import Tile

AREA_TILES = 16


class SpatialIndex:
    """Entities by square of the map; every entity is filed under the square of its tile."""

    def __init__(self, entities: Iterable[Entity] = (), area: int = AREA_TILES) -> None:
        self._area = area
        self._squares: dict[tuple[int, int], dict[str, Entity]] = {}
        for ent in entities:
            self.add(ent)

    def add(self, ent: Entity) -> None:
        """File an entity and follow its moves from now on."""
        self._file(ent, ent.tile)
        ent.watch(self.moved)

    def moved(self, ent: Entity, old: Tile) -> None:
        """An entity left `old` for `ent.tile`: refile it if it changed square."""
        a = self._area
        new = ent.tile
        if old[0] // a == new[0] // a and old[1] // a == new[1] // a:
            return
        square = self._squares.get((old[0] // a, old[1] // a))
        if square is not None:
            square.pop(ent.entity_id, None)
        self._file(ent, new)

    def at(self, tile: Tile, exclude: Entity | None = None) -> Entity | None:
        """Someone (other than `exclude`) on the tile, if anyone."""
        a = self._area
        square = self._squares.get((tile[0] // a, tile[1] // a))
        if square:
            for ent in square.values():
                if ent.tile == tile and ent is not exclude:
                    return ent
        return None

    def near(self, tile: Tile, reach: float) -> list[Entity]:
        """Everyone within `reach` tiles of `tile` along both axes (a square, not a circle:
        callers that want a circle check the distance themselves)."""
        a = self._area
        x, y = tile
        r = int(reach)
        found: list[Entity] = []
        squares = self._squares
        for sx in range((x - r) // a, (x + r) // a + 1):
            for sy in range((y - r) // a, (y + r) // a + 1):
                square = squares.get((sx, sy))
                if not square:
                    continue
                for ent in square.values():
                    ex, ey = ent.tile
                    if -r <= ex - x <= r and -r <= ey - y <= r:
                        found.append(ent)
        return found

    def _file(self, ent: Entity, tile: Tile) -> None:
        a = self._area
        key = (tile[0] // a, tile[1] // a)
        square = self._squares.get(key)
        if square is None:
            square = self._squares[key] = {}
        square[ent.entity_id] = ent
