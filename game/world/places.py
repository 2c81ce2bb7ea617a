"""A map's named places filed by square: which place a tile is in, a place by its name,
and which lie nearest a tile, each without reading every place of the map.

A map may name 10,000 places; perception asks which place an NPC stands in for every
thought, and a move or a look asks for a place by name. `Nearest` files named points by
square, for "the `count` nearest this tile" (the places near an NPC, the villagers who
start near it); `PlaceIndex` files each place under the squares it covers.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from game.world.grid import Tile

__all__ = ["Nearest", "Place", "PlaceIndex", "place_key"]

SQUARE = 8  # tiles a side of the squares points and places are filed under
_FILED_SQUARES = 16  # a place covering more squares than this is read for every tile


@dataclass(frozen=True)
class Place:
    """A named area of the map (forge, bakery, well...)."""

    name: str
    x: int
    y: int
    width: int
    height: int
    description: str = ""

    def contains(self, tile: Tile) -> bool:
        """Whether a tile lies inside this area."""
        return self.x <= tile[0] < self.x + self.width and self.y <= tile[1] < self.y + self.height

    @property
    def center(self) -> Tile:
        """The tile at the middle of the area."""
        return (self.x + self.width // 2, self.y + self.height // 2)


class Nearest:
    """Named points of a map filed by square, for "which `count` lie nearest this tile?".

    Ties go to the point given first, so an answer is the same every run.
    """

    def __init__(self, points: Iterable[tuple[str, Tile]], size: tuple[int, int], limit: int):
        self.order: dict[str, int] = {}
        self.squares: dict[Tile, list[tuple[int, int, int, str]]] = {}
        for name, (x, y) in points:
            order = self.order.setdefault(name, len(self.order))
            self.squares.setdefault((x // SQUARE, y // SQUARE), []).append((x, y, order, name))
        width, height = max(size[0], 1), max(size[1], 1)
        self.span = max(width, height)
        # Where `limit` points would lie around any tile, were they spread evenly.
        self.reach = max(
            2, math.ceil(math.sqrt(limit * width * height / max(1, len(self.order)) / math.pi))
        )

    def nearest(self, tile: Tile, count: int, skip: str | None = None) -> list[str]:
        """The names of the `count` points nearest `tile` (but `skip`), nearest first."""
        x, y = tile
        reach = self.reach
        while True:
            # Every point within `reach` tiles (a circle): the nearest are among them once
            # there are enough, as any point not read lies farther than `reach`.
            found: list[tuple[int, int, str]] = []
            for sx in range((x - reach) // SQUARE, (x + reach) // SQUARE + 1):
                for sy in range((y - reach) // SQUARE, (y + reach) // SQUARE + 1):
                    for ox, oy, order, name in self.squares.get((sx, sy), ()):
                        d2 = (ox - x) ** 2 + (oy - y) ** 2
                        if d2 <= reach * reach and name != skip:
                            found.append((d2, order, name))
            if len(found) >= count or reach >= 2 * self.span:
                return [name for *_, name in heapq.nsmallest(count, found)]
            reach = reach * 3 // 2


def place_key(name: str) -> str:
    """How a place is asked for: any case, spaces or underscores, with or without "the"."""
    return name.strip().lower().replace(" ", "_").removeprefix("the_")


class PlaceIndex:
    """The places of a map by square and by name (the map's order breaks ties)."""

    def __init__(self, places: Mapping[str, Place], size: tuple[int, int], limit: int) -> None:
        self.order = {name: i for i, name in enumerate(places)}
        self.squares: dict[Tile, list[Place]] = {}
        self.big: list[Place] = []  # those covering many squares: read for every tile
        self.by_key: dict[str, Place] = {}
        for place in places.values():
            self.by_key.setdefault(place.name.lower(), place)
            xs = range(place.x // SQUARE, (place.x + place.width - 1) // SQUARE + 1)
            ys = range(place.y // SQUARE, (place.y + place.height - 1) // SQUARE + 1)
            if len(xs) * len(ys) > _FILED_SQUARES:
                self.big.append(place)
                continue
            for sx in xs:
                for sy in ys:
                    self.squares.setdefault((sx, sy), []).append(place)
        self.nearest = Nearest(((p.name, p.center) for p in places.values()), size, limit)
        self.count = len(places)

    def at(self, tile: Tile) -> Place | None:
        """The smallest place containing `tile` (of two alike, the first of the map)."""
        square = self.squares.get((tile[0] // SQUARE, tile[1] // SQUARE), [])
        hits = [p for p in (*square, *self.big) if p.contains(tile)]
        if not hits:
            return None
        return min(hits, key=lambda p: (p.width * p.height, self.order[p.name]))

    def named(self, name: str) -> Place | None:
        """The place called `name` (see `place_key`), if any."""
        return self.by_key.get(place_key(name))

    def listed(self, tile: Tile, count: int) -> tuple[list[str], str]:
        """The place names a message offers: all of them, or on a bigger map the `count`
        nearest `tile`, with the words that say so ("" when all are listed)."""
        if self.count <= count:
            return list(self.order), ""
        return self.nearest.nearest(tile, count), f" (the {count} nearest of {self.count})"
