"""A harbour village no map of the game has (a miller who runs the windmill, a lighthouse
keeper, a chapel sister who keeps the records, a potter, a tavern keeper), written as a map
maker writes one, and the persona brain's line to the player there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.agent.facts import TriggerFacts
from game.agent.providers.base import Message, ProviderRequest
from game.agent.render import render_player_message
from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.known import villager_facts
from game.npc.scripted.persona import plan_for, situation_of
from game.world.tiled import load_map
from game.world.world import World
from tests.world.crowd import crowd_map, prop

from .conftest import shown_all

# (id, name, persona, more properties, where it stands): nobody of Hollowbrook's trades.
PEOPLE: list[tuple[str, str, str, dict[str, str], tuple[int, int]]] = [
    (
        "dagny",
        "Dagny",
        "Dagny is a cheerful, loud miller who is sure the wind speaks to her. She runs the "
        "windmill on the hill and scolds anyone who wastes bread.",
        {},  # no work property: the persona says where she works
        (3, 3),
    ),
    (
        "fenwick",
        "Fenwick",
        "Fenwick is a gloomy lighthouse keeper who talks in short sentences. He swears he saw "
        "a sea serpent off the point.",
        {},
        (17, 3),
    ),
    (
        "agathe",
        "Sister Agathe",
        "Sister Agathe is a stern chapel sister with no time for gossip. She keeps the chapel's "
        "records and suspects that the lighthouse keeper is hiding something.",
        {},
        (2, 11),
    ),
    (
        "tilde",
        "Tilde",
        "Tilde is a patient potter who throws jugs and bowls at her wheel. She hums while "
        "she works.",
        {"work": "pottery"},
        (16, 11),
    ),
    (
        "hobb",
        "Hobb",
        "Hobb is a nosy tavern keeper who trades rumours for coin and never pours on credit.",
        {"work": "tavern"},
        (14, 6),
    ),
]
# (name, x, y, width, height, description), in tiles.
PLACES: list[tuple[str, int, int, int, int, str]] = [
    ("square", 8, 5, 4, 3, "A cobbled square with a horse trough in the middle."),
    ("windmill", 1, 1, 4, 3, "A tall white windmill whose canvas sails creak in every wind."),
    ("lighthouse", 16, 1, 3, 3, "A striped tower with a great lamp at the top."),
    ("chapel", 1, 10, 4, 3, "A small grey chapel with one bell and a yew by the door."),
    ("pottery", 15, 10, 4, 3, "A low shed with a kiln behind it and shelves of drying jugs."),
    ("tavern", 13, 5, 3, 3, "A smoky, low-beamed room with a long bar and a fire."),
]


Person = tuple[str, str, str, dict[str, str], tuple[int, int]]
Place = tuple[str, int, int, int, int, str]


def harbour_map(folder: Path) -> Path:
    """The harbour village on disk, as a map maker draws it."""
    return village_map(folder, PEOPLE, PLACES, "Saltwick")


def village_map(folder: Path, people: list[Person], places: list[Place], name: str) -> Path:
    """A village of these people and places on disk, as a map maker draws it."""
    data: dict[str, Any] = crowd_map(len(people), size=(20, 14))
    layers = {layer["name"]: layer for layer in data["layers"]}
    for obj, (npc_id, npc_name, persona, more, (x, y)) in zip(
        layers["npcs"]["objects"], people, strict=True
    ):
        obj.update(name=npc_name, x=x * 32 + 16, y=y * 32 + 16)
        obj["properties"] = [
            prop("id", npc_id),
            prop("persona", persona),
            prop("greeting", "Well met."),
            prop("sprite", "fisher"),
            *(prop(k, v) for k, v in more.items()),
        ]
    layers["places"]["objects"] = [
        {
            "id": 500 + i,
            "name": name,
            "x": x * 32,
            "y": y * 32,
            "width": w * 32,
            "height": h * 32,
            "rotation": 0,
            "type": "place",
            "visible": True,
            "properties": [prop("description", desc)],
        }
        for i, (name, x, y, w, h, desc) in enumerate(places)
    ]
    data["properties"] = [prop("name", name)]
    path = folder / f"{name.lower()}.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def harbour_facts(folder: Path) -> dict[str, VillagerFacts]:
    """Every villager's facts of the harbour village, by id."""
    return facts_at(harbour_map(folder))


def facts_at(path: Path) -> dict[str, VillagerFacts]:
    """Every villager's facts of the village on disk at `path`, by id."""
    world = World(load_map(path))
    return {npc_id: villager_facts(world, npc_id) for npc_id in world.npcs}


def said(npc: VillagerFacts, line: str, people: list[Person] = PEOPLE) -> str:
    """The persona brain's line to the player, standing where the map puts the NPC."""
    return said_and_done(npc, line, people)[0]


def said_and_done(
    npc: VillagerFacts, line: str, people: list[Person] = PEOPLE
) -> tuple[str, list[str]]:
    """The persona brain's line to the player and the other skills it calls, standing where
    the map puts the NPC."""
    spot = next(p[4] for p in people if p[0] == npc.npc_id)
    sensed = SensedFacts(tile=spot)
    trigger = TriggerFacts(kind="player_message", text=line, source="player", said=line)
    trigger.sensed = sensed
    message = Message(role="user", content=render_player_message(line), trigger=trigger)
    request = ProviderRequest(system="", messages=[message], npc=npc, trigger=trigger)
    plan = shown_all(plan_for(situation_of(request)))
    says = [str(a["text"]) for n, a in plan if n == "say"]
    assert len(says) == 1, says
    return says[0], [f"{n} {a}" for n, a in plan if n != "say"]
