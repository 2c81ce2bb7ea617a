from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import ClassVar

from game.world.commands import (
    Ask,
    Emote,
    Face,
    GoTo,
    Halt,
    Impossible,
    Look,
    MoveSteps,
    MoveTo,
    Outcome,
    PathFound,
    Perceived,
    PostToBoard,
    ReadBoard,
    Say,
    SpeechCancel,
    SpeechDelta,
    SpeechStart,
    Success,
    Wait,
)
from game.world.entities import Npc
from game.world.events import Spoke
from game.world.world import Command, World

from .conftest import run_until


def test_player_walks_tile_by_tile_and_stops_at_walls(world: World) -> None:
    start = world.player.tile
    world.hold_direction("up")
    run_until(world, lambda: world.player.tile == (start[0], 1) and not world.player.moving)
    for _ in range(60):
        world.step(1 / 60)
    assert world.player.tile == (start[0], 1), "walked into the wall"
    world.hold_direction(None)


def test_player_motion_is_smooth(world: World) -> None:
    world.hold_direction("right")
    world.step(1 / 60)
    world.hold_direction(None)
    x0 = world.player.x
    world.step(1 / 60)
    assert world.player.tile[0] - 1 < world.player.x < world.player.tile[0]
    assert world.player.x > x0


def test_player_cannot_walk_into_water_or_npcs(world: World) -> None:
    world.player.place((2, 4))
    world.hold_direction("down")
    for _ in range(60):
        world.step(1 / 60)
    assert world.player.tile == (2, 4)
    world.player.place((7, 2))  # npc_a stands at (8, 2)
    world.hold_direction("right")
    for _ in range(60):
        world.step(1 / 60)
    assert world.player.tile == (7, 2)


def test_move_to_arrives_by_a_path_and_resolves_on_arrival(world: World) -> None:
    fut = world.submit(MoveTo("npc_a", (1, 1), label="the corner"))
    world.step(1 / 60)
    assert not fut.done()
    run_until(world, fut.done)
    result = fut.result()
    assert isinstance(result, Success), result
    assert world.npcs["npc_a"].tile == (1, 1)


def test_move_into_water_is_impossible_with_reason(world: World) -> None:
    fut = world.submit(MoveTo("npc_a", (2, 5), label="the pond"))
    world.step(1 / 60)
    result = fut.result(timeout=0)
    assert isinstance(result, Impossible)
    assert "(2, 5)" in result.reason


def test_move_steps_blocked_reports_the_wall(world: World) -> None:
    fut = world.submit(MoveSteps("npc_a", "up", 5))
    run_until(world, fut.done)
    result = fut.result()
    assert isinstance(result, Impossible)
    assert "blocked at (8, 0)" in result.reason
    assert world.npcs["npc_a"].tile == (8, 1)


def test_move_blocked_by_player_gives_up_with_reason(world: World) -> None:
    world.player.place((9, 3))
    fut = world.submit(MoveTo("npc_b", (9, 3)))
    run_until(world, fut.done)
    result = fut.result()
    assert isinstance(result, Impossible) and "blocked at (9, 3)" in result.reason


def test_streamed_speech_grows_then_finishes_and_is_heard(world: World) -> None:
    world.submit(SpeechStart("npc_a"))
    world.step(1 / 60)
    bubble = world.npcs["npc_a"].bubble
    assert bubble is not None and bubble.waiting
    for part in ("Hel", "lo the", "re!"):
        world.post(SpeechDelta("npc_a", part))
        world.step(1 / 60)
    grown = world.npcs["npc_a"].bubble
    assert grown is not None and grown.text == "Hello there!" and grown.streaming
    fut = world.submit(Say("npc_a", "Hello there!", target="player"))
    world.step(1 / 60)
    assert isinstance(fut.result(timeout=0), Success)
    bubble = world.npcs["npc_a"].bubble
    assert bubble is not None and not bubble.streaming and bubble.expires is not None
    spoke = [e for e in world.drain_events() if isinstance(e, Spoke)]
    assert spoke and spoke[0].text == "Hello there!"
    run_until(world, lambda: world.npcs["npc_a"].bubble is None)


def test_speech_cancel_drops_an_empty_thinking_bubble(world: World) -> None:
    world.post(SpeechStart("npc_a"))
    world.post(SpeechCancel("npc_a"))
    world.step(1 / 60)
    assert world.npcs["npc_a"].bubble is None


def test_emote_shows_then_expires_and_unknown_is_impossible(world: World) -> None:
    ok = world.submit(Emote("npc_a", "wave"))
    bad = world.submit(Emote("npc_a", "dance"))
    world.step(1 / 60)
    assert isinstance(ok.result(timeout=0), Success)
    assert isinstance(bad.result(timeout=0), Impossible)
    assert world.npcs["npc_a"].emote is not None
    run_until(world, lambda: world.npcs["npc_a"].emote is None)


def test_wait_runs_on_game_clock(world: World) -> None:
    fut = world.submit(Wait("npc_a", 2.0))
    start = world.clock
    run_until(world, fut.done)
    assert world.clock - start >= 2.0


def test_look_describes_places_and_surroundings(world: World) -> None:
    around = world.submit(Look("npc_a"))
    place = world.submit(Look("npc_a", "pond"))
    nothing = world.submit(Look("npc_a", "castle"))
    world.step(1 / 60)
    looked = around.result(timeout=0)
    assert isinstance(looked, Perceived)
    assert looked.perception.summary == "", "written up on the game thread"
    assert "You are at the yard" in looked.message
    assert "still pond" in place.result(timeout=0).message
    assert isinstance(nothing.result(timeout=0), Impossible)


def test_unknown_npc_command_is_impossible(world: World) -> None:
    fut = world.submit(Emote("ghost", "wave"))
    world.step(1 / 60)
    assert isinstance(fut.result(timeout=0), Impossible)


def test_commands_can_come_from_another_thread(world: World) -> None:
    futures = []

    def agent() -> None:
        for _ in range(50):
            futures.append(world.submit(Emote("npc_a", "nod")))

    t = threading.Thread(target=agent)
    t.start()
    t.join()
    world.step(1 / 60)
    assert len(futures) == 50 and all(f.done() for f in futures)


def test_a_deferring_world_leaves_costly_commands_for_run_costly_in_order(
    world: World,
) -> None:
    world.defer_costly = True
    looks = [world.submit(Look("npc_a")) for _ in range(2)]
    world.post(SpeechStart("npc_a"))  # cheap, but behind npc_a's looks: it waits its turn
    nod = world.submit(Emote("npc_b", "nod"))  # another NPC's cheap command goes ahead
    world.step(1 / 60)
    assert nod.done() and not any(f.done() for f in looks)
    assert world.costly_waiting == 2
    assert world.run_costly()
    assert [f.done() for f in looks] == [True, False]
    assert world.npcs["npc_a"].bubble is None
    world.step(1 / 60)
    assert world.run_costly() and all(f.done() for f in looks)
    assert world.npcs["npc_a"].bubble is not None, "what came after the last look ran with it"
    assert not world.run_costly() and world.costly_waiting == 0
    wave = world.submit(Emote("npc_a", "wave"))
    world.step(1 / 60)
    assert wave.done(), "nothing is left for npc_a's commands to wait behind"


def test_costly_commands_of_several_npcs_run_in_the_order_they_came(world: World) -> None:
    world.defer_costly = True
    b = world.submit(Look("npc_b"))
    a = world.submit(Look("npc_a"))
    world.step(1 / 60)
    assert world.run_costly() and b.done() and not a.done()
    assert world.run_costly() and a.done()


@dataclass(frozen=True)
class _Kneel(Command):
    """A command the world has never heard of: it brings its own apply."""

    costly: ClassVar[bool] = True

    npc_id: str
    seconds: float

    def apply(self, world: World, npc: Npc, fut: Future[Outcome] | None) -> Outcome | None:
        if self.seconds <= 0:
            return Impossible("kneel for some seconds")
        if fut is not None:
            world.wait(npc, self.seconds, fut)
        npc.activity = "kneeling"
        return None


def test_a_new_command_applies_itself_with_no_change_to_the_world(world: World) -> None:
    world.defer_costly = True
    kneel = world.submit(_Kneel("npc_a", 0.5))
    nobody = world.submit(_Kneel("ghost", 0.5))
    world.step(1 / 60)
    assert not kneel.done() and world.costly_waiting == 2, "its own `costly` is honoured"
    assert world.run_costly() and world.run_costly()
    assert nobody.result(timeout=0) == Impossible("there is no NPC with id 'ghost'")
    assert world.npcs["npc_a"].activity == "kneeling" and not kneel.done()
    run_until(world, kneel.done)
    assert kneel.result(timeout=0) == Success("you waited")
    refused = world.submit(_Kneel("npc_a", 0))
    world.step(1 / 60)
    world.run_costly()
    assert refused.result(timeout=0) == Impossible("kneel for some seconds")


def test_each_command_says_whether_it_is_costly() -> None:
    # What reads around the map or starts a walk waits for a frame's spare time.
    costly = {GoTo, MoveTo, Say, SpeechCancel, Look, Ask, PathFound}
    cheap = {Emote, Face, Halt, MoveSteps, PostToBoard, ReadBoard, SpeechDelta, SpeechStart, Wait}
    assert {c for c in costly | cheap if c.costly} == costly
