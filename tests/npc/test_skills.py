"""The skills on the real village map, called by a model through the agent runtime.

A `FakeProvider` plays the model: it calls one skill, and the next request it gets
holds the tool result the model would read. The world is stepped on the game clock.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

from game.agent.outcomes import Final
from game.agent.providers.base import Message
from game.agent.providers.fake import FakeProvider, step, tool_call
from game.agent.trigger import Trigger
from game.world.perception import perceive
from game.world.tiled import MapData

from .conftest import Life


async def act(life: Life, npc_id: str, name: str, args: dict[str, Any]) -> Message:
    """Have the model of `npc_id` call one skill; return the result it reads next."""
    provider = life.provider
    assert isinstance(provider, FakeProvider)
    provider.add(step(tool_call(name, args)), step())
    before = len(provider.calls)
    turn = asyncio.ensure_future(
        life.runtime.run_turn("test", npc_id, Trigger(kind="idle", text="A quiet moment."))
    )
    await life.run(until=turn.done)
    assert isinstance(turn.result(), Final)
    result = provider.calls[before + 1].messages[-1]
    assert result.role == "tool" and result.name == name
    return result


async def test_move_around_a_wall_arrives_by_a_path(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    tobin = world.npcs["tobin"]
    start = tobin.tile
    goal = world.map.places["garden"].center
    way = world.grid.find_path(start, goal)
    straight = abs(goal[0] - start[0]) + abs(goal[1] - start[1])
    assert way is not None and len(way) > straight, "the straight way must be walled"
    visited = [start]
    provider = life.provider
    assert isinstance(provider, FakeProvider)
    provider.add(step(tool_call("move", {"to": "garden"})), step())
    turn = asyncio.ensure_future(
        life.runtime.run_turn("test", "tobin", Trigger(kind="idle", text="A quiet moment."))
    )

    def track() -> bool:
        if tobin.tile != visited[-1]:
            visited.append(tobin.tile)
        return turn.done()

    await life.run(until=track)
    result = provider.calls[1].messages[-1]
    assert not result.is_error, result.content
    assert result.content == f"arrived at the garden {goal}"
    assert tobin.tile == goal and not tobin.moving and tobin.activity == "idle"
    for a, b in itertools.pairwise(visited):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1, f"jumped from {a} to {b}"
        assert world.grid.walkable(b), f"walked through {b}"
    await life.close()


async def test_move_into_water_is_impossible_with_the_reason(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    wren = life.world.npcs["wren"]
    assert wren.tile == (41, 26) and (40, 26) in life.world.map.blocked  # the pond
    result = await act(life, "wren", "move", {"direction": "left", "steps": 2})
    assert result.is_error
    assert "blocked at (40, 26)" in result.content
    assert wren.tile == (41, 26)
    await life.close()


async def test_move_to_unknown_place_lists_the_places(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    result = await act(life, "pip", "move", {"to": "the castle"})
    assert result.is_error and "unknown place 'the castle'" in result.content
    assert "bakery" in result.content and "forge" in result.content
    bad = await act(life, "pip", "move", {"direction": "up", "to": "well"})
    assert bad.is_error and "not both" in bad.content  # validation errors come back too
    await life.close()


async def test_move_to_a_person_stops_beside_them(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    result = await act(life, "cassius", "move", {"to": "Pip"})
    assert not result.is_error, result.content
    pip, cassius = life.world.npcs["pip"], life.world.npcs["cassius"]
    assert abs(pip.tile[0] - cassius.tile[0]) + abs(pip.tile[1] - cassius.tile[1]) == 1
    await life.close()


async def test_say_is_heard_in_earshot_and_not_beyond(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    near, far = world.npcs["cassius"], world.npcs["brenna"]
    pip = world.npcs["pip"]
    assert world.distance(pip, near) <= 8 < world.distance(pip, far)
    result = await act(life, "pip", "say", {"text": "Has anyone seen my shiny pebble?"})
    # No target: the nearest listener is spoken to, and the model is told who that was.
    assert result.content == "you said to Cassius: Has anyone seen my shiny pebble?"
    heard_near = [h.text for h in perceive(world, "cassius").heard]
    heard_far = [h.text for h in perceive(world, "brenna").heard]
    assert "Has anyone seen my shiny pebble?" in heard_near
    assert heard_far == []
    spoke = life.said_by("pip")[-1]
    assert near in world.listeners(spoke) and far not in world.listeners(spoke)
    await life.close()


async def test_say_to_someone_out_of_earshot_says_so(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    result = await act(life, "pip", "say", {"text": "Brenna! Hello!", "target": "Brenna"})
    assert not result.is_error
    assert "too far away to hear" in result.content
    await life.close()


async def test_look_and_emote_and_wait(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    around = await act(life, "brenna", "look", {})
    assert around.content.startswith("You are at the forge in Hollowbrook.")
    place = await act(life, "brenna", "look", {"at": "the bakery"})
    assert "brick oven" in place.content
    person = await act(life, "brenna", "look", {"at": "Tobin"})
    assert person.content.startswith("Tobin at ")
    wave = await act(life, "brenna", "emote", {"name": "wave"})
    assert wave.content == "you wave" and life.world.npcs["brenna"].emote is not None
    start = life.world.clock
    waited = await act(life, "brenna", "wait", {"seconds": 3})
    assert waited.content == "you waited" and life.world.clock - start >= 3
    assert life.world.npcs["brenna"].activity == "idle"
    await life.close()


async def test_ask_needs_the_player_near(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    result = await act(life, "pip", "ask", {"question": "Coming?", "options": ["Yes", "No"]})
    assert result.is_error and "the player is not near" in result.content
    await life.close()


async def test_ask_returns_the_players_pick(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    world.player.place((21, 19))  # beside Pip
    provider = life.provider
    assert isinstance(provider, FakeProvider)
    options = ["Yes, let's go!", "Maybe later"]
    provider.add(step(tool_call("ask", {"question": "Dragon hunt?", "options": options})), step())
    turn = asyncio.ensure_future(
        life.runtime.run_turn("test", "pip", Trigger.player("Hi Pip", "You are at the plaza."))
    )
    await life.run(until=lambda: world.ask is not None)
    assert world.npcs["pip"].bubble is not None
    assert world.npcs["pip"].bubble.text == "Dragon hunt?"
    assert world.answer_ask(1).ok
    await life.run(until=turn.done)
    result = provider.calls[1].messages[-1]
    assert result.content == "the player chose: Maybe later" and not result.is_error
    assert world.ask is None and world.player.bubble is not None
    assert world.player.bubble.text == "Maybe later"
    await life.close()


async def test_ask_resolves_when_the_player_walks_away(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    world.player.place((21, 19))
    provider = life.provider
    assert isinstance(provider, FakeProvider)
    provider.add(step(tool_call("ask", {"question": "Coming?", "options": ["Yes", "No"]})), step())
    turn = asyncio.ensure_future(
        life.runtime.run_turn("test", "pip", Trigger(kind="idle", text="hm"))
    )
    await life.run(until=lambda: world.ask is not None)
    world.player.place((17, 19))
    await life.run(until=turn.done)
    result = provider.calls[1].messages[-1]
    assert result.is_error and "walked away" in result.content
    await life.close()


async def test_a_map_maker_adds_an_npc_with_a_point_object(
    tmp_path: Path, village_map: MapData
) -> None:
    from .conftest import crowd

    crowd(village_map, 1, (19, 17))
    life = Life(tmp_path, provider=FakeProvider(), map_data=village_map)
    assert "villager0" in life.world.npcs
    assert life.runtime.profile("villager0").name == "Villager Number0"
    result = await act(life, "villager0", "look", {})
    assert result.content.startswith("You are at the plaza")
    await life.close()
