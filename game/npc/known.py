"""Whom and what an NPC knows by heart: the villagers and places its profile names.

A profile goes on every request, so it is bounded, not the map: on a small map an NPC
knows every villager and every place; on a big one, the `PROFILE_VILLAGERS` who start
nearest to it (and those it has met), and its own places (home, work, the stops of its
day) with the places nearest to where it starts, `PROFILE_PLACES` in all. The facts are
made once per world and shared by every profile; the starts and the places are filed by
square (`game.world.places.Nearest`), so finding an NPC's nearest reads a few squares,
not the whole map. Every NPC's character sheet (`game.npc.sheet`) is read once per world
too, and goes on its profile.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from weakref import WeakKeyDictionary

from game.limits import PROFILE_PLACES, PROFILE_VILLAGERS
from game.npc.facts import PersonFact, PlaceFact, VillagerFacts
from game.npc.reading.families import doings
from game.npc.scripted.first_person import own_object
from game.npc.scripted.moods import mood_of
from game.npc.sheet import CharacterSheet, read_sheets
from game.world.places import Nearest
from game.world.world import World

__all__ = [
    "Places",
    "Villagers",
    "first_sentence",
    "places_of",
    "sheets_of",
    "villager_facts",
    "villagers_of",
]


class Villagers:
    """Every villager of a world as a fact, and whom each knows of.

    On a map of up to `PROFILE_VILLAGERS` others an NPC knows of everyone; on a bigger one,
    of the `PROFILE_VILLAGERS` who start nearest to it (tile distance between the map's
    spawns, so a profile is the same every run) and of those it has met.
    """

    def __init__(self, world: World, limit: int = PROFILE_VILLAGERS) -> None:
        self.limit = limit
        spawns = {spawn.npc_id: spawn.tile for spawn in world.map.npcs}
        sheets = sheets_of(world)
        self.facts = {}
        for npc in world.npcs.values():
            sheet = sheets.get(npc.entity_id, CharacterSheet())
            self.facts[npc.entity_id] = PersonFact(
                npc_id=npc.entity_id,
                name=npc.name,
                role=first_sentence(npc.persona),
                # Where others find them by day: their work place, else their home.
                home=npc.properties.get("work") or npc.properties.get("home") or sheet.work,
                trade=sheet.role,
                work=sheet.work,
                lives=npc.properties.get("home", ""),
                wares=list(sheet.wares),
                does=doings(npc.persona, npc.name),
                talks=list(sheet.talks),
                mood=mood_of(npc.persona, sheet.talks).name,
                them=own_object(npc.persona),
            )
        self.order = {npc_id: i for i, npc_id in enumerate(self.facts)}
        self.starts = {npc_id: spawns.get(npc_id, world.npcs[npc_id].tile) for npc_id in self.facts}
        size = (world.map.width, world.map.height)
        self.index = Nearest(self.starts.items(), size, limit)

    def known_to(self, npc_id: str, met: Collection[str] = ()) -> list[PersonFact]:
        """The villagers `npc_id` knows of, in map order: everyone on a small map, else the
        nearest and those in `met`."""
        if len(self.facts) - 1 <= self.limit:
            return [fact for other, fact in self.facts.items() if other != npc_id]
        known = set(self.nearest(npc_id, self.limit))
        known.update(m for m in met if m in self.facts and m != npc_id)
        return [self.facts[other] for other in sorted(known, key=self.order.__getitem__)]

    def nearest(self, npc_id: str, count: int) -> list[str]:
        """The `count` villagers who start nearest to `npc_id`'s start (ties: map order)."""
        return self.index.nearest(self.starts[npc_id], count, skip=npc_id)


class Places:
    """Every named place of a world as a fact, and which each NPC knows by heart.

    On a map of up to `PROFILE_PLACES` places an NPC knows them all; on a bigger one, its
    own (its home, its work, the places of its day's plan) and those whose middle lies
    nearest to where it starts, `PROFILE_PLACES` in all (its own ones first).
    """

    def __init__(self, world: World, limit: int = PROFILE_PLACES) -> None:
        self.limit = limit
        self.facts = {
            name: PlaceFact(
                name=place.name,
                description=place.description,
                area=(place.x, place.y, place.width, place.height),
            )
            for name, place in world.map.places.items()
        }
        self.every = list(self.facts.values())
        self.order = {name: i for i, name in enumerate(self.facts)}
        spawns = {spawn.npc_id: spawn for spawn in world.map.npcs}
        self.starts = {
            npc_id: spawns[npc_id].tile if npc_id in spawns else npc.tile
            for npc_id, npc in world.npcs.items()
        }
        self.own: dict[str, list[str]] = {}
        for npc_id, spawn in spawns.items():
            stops = spawn.plan.stops if spawn.plan is not None else ()
            self.own[npc_id] = [spawn.home, spawn.work, *(stop.place for stop in stops)]
        self.index = world.map.place_index.nearest  # the map's own, shared

    def known_to(self, npc_id: str) -> list[PlaceFact]:
        """The places `npc_id` knows by heart, in map order."""
        if len(self.facts) <= self.limit:
            return self.every
        known = dict.fromkeys(name for name in self.own.get(npc_id, ()) if name in self.facts)
        for name in self.index.nearest(self.starts[npc_id], self.limit):
            if len(known) >= self.limit:
                break
            known[name] = None
        return [self.facts[name] for name in sorted(known, key=self.order.__getitem__)]


log = logging.getLogger(__name__)
_VILLAGERS: WeakKeyDictionary[World, Villagers] = WeakKeyDictionary()
_PLACES: WeakKeyDictionary[World, Places] = WeakKeyDictionary()
_SHEETS: WeakKeyDictionary[World, dict[str, CharacterSheet]] = WeakKeyDictionary()


def villagers_of(world: World) -> Villagers:
    """The world's `Villagers`, built once (the NPCs of a world are those of its map)."""
    found = _VILLAGERS.get(world)
    if found is None:
        found = _VILLAGERS[world] = Villagers(world)
    return found


def places_of(world: World) -> Places:
    """The world's `Places`, built once (the places of a world are those of its map)."""
    found = _PLACES.get(world)
    if found is None:
        found = _PLACES[world] = Places(world)
    return found


def sheets_of(world: World) -> dict[str, CharacterSheet]:
    """Every NPC's character sheet by id, read once per world (when the village opens);
    a property that could not be read is one warning line, logged and on the map's."""
    found = _SHEETS.get(world)
    if found is None:
        warnings: list[str] = []
        found = _SHEETS[world] = read_sheets(world.map, warnings)
        for line in warnings:
            log.warning("%s", line)
        world.map.warnings.extend(w for w in warnings if w not in world.map.warnings)
    return found


def first_sentence(text: str) -> str:
    """The first sentence of a persona: who someone is, in one line."""
    text = " ".join(text.split())
    for i, ch in enumerate(text):
        # A full stop ends it unless it closes an abbreviation-like word ("St. Ives").
        if ch in ".!?" and (i + 1 == len(text) or text[i + 1] == " "):
            word = text[: i + 1].rsplit(" ", 1)[-1]
            if ch == "." and len(word) <= 3 and word[:1].isupper():
                continue
            return text[: i + 1]
    return text


def villager_facts(world: World, npc_id: str, met: Collection[str] = ()) -> VillagerFacts:
    """Who an NPC is as its requests carry it: its map properties, its home, the places
    and the villagers it knows of (`met`: the ids of those it has met)."""
    npc = world.npcs[npc_id]
    spawn = next((s for s in world.map.npcs if s.npc_id == npc_id), None)
    stops = spawn.plan.stops if spawn is not None and spawn.plan is not None else ()
    return VillagerFacts(
        npc_id=npc_id,
        name=npc.name,
        persona=npc.persona,
        greeting=npc.greeting,
        home=npc.properties.get("home", ""),
        places=places_of(world).known_to(npc_id),
        people=villagers_of(world).known_to(npc_id, met),
        sheet=sheets_of(world).get(npc_id, CharacterSheet()),
        day=[(stop.hour, stop.place) for stop in stops if not stop.asleep],
        bed=next((stop.hour for stop in stops if stop.asleep), None),
    )
