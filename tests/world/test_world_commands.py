"""World commands added for living NPCs: GoTo, Halt, Ask, default say targets."""

from __future__ import annotations

from concurrent.futures import Future

from game.world.commands import (
    Ask,
    GoTo,
    Halt,
    Impossible,
    MoveTo,
    Outcome,
    PathFound,
    Say,
    Success,
    Wait,
)
from game.world.entities import PLAYER_ID
from game.world.events import Spoke
from game.world.grid import Grid
from game.world.motion import DETOUR_NODES, OBSTACLE_TILES
from game.world.perception import perceive
from game.world.world import World

from .conftest import map_from, run_until


def test_go_to_a_place_walks_to_a_free_tile_inside_it(world: World) -> None:
    fut = world.submit(GoTo("npc_b", "the yard"))
    run_until(world, fut.done)
    result = fut.result()
    assert isinstance(result, Success), result
    assert world.map.places["yard"].contains(world.npcs["npc_b"].tile)
    again = world.submit(GoTo("npc_b", "Yard"))
    world.step(1 / 60)
    assert again.result(timeout=0).message == "you are already at the yard"


def test_go_to_a_place_of_water_stops_on_its_shore(world: World) -> None:
    fut = world.submit(GoTo("npc_b", "pond"))
    run_until(world, fut.done)
    assert isinstance(fut.result(), Success)
    x, y = world.npcs["npc_b"].tile
    assert world.grid.walkable((x, y)) and (x, y + 1) in world.grid.blocked


def test_go_to_a_person_stops_beside_them(world: World) -> None:
    fut = world.submit(GoTo("npc_b", "Ada"))
    run_until(world, fut.done)
    a, b = world.npcs["npc_a"].tile, world.npcs["npc_b"].tile
    assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    me = world.submit(GoTo("npc_b", "Bda"))
    nobody = world.submit(GoTo("npc_b", "castle"))
    world.step(1 / 60)
    assert isinstance(me.result(timeout=0), Impossible)
    reason = nobody.result(timeout=0).message
    assert "unknown place 'castle'" in reason and "pond" in reason and "yard" in reason


def test_halt_stops_a_walk_and_ends_its_move(world: World) -> None:
    fut = world.submit(MoveTo("npc_a", (1, 1)))
    for _ in range(20):
        world.step(1 / 60)
    world.post(Halt("npc_a", "stopped to listen"))
    run_until(world, lambda: fut.done() and not world.npcs["npc_a"].moving)
    result = fut.result()
    assert isinstance(result, Impossible) and result.reason.startswith("stopped to listen at")
    tile = world.npcs["npc_a"].tile
    for _ in range(60):
        world.step(1 / 60)
    assert world.npcs["npc_a"].tile == tile and world.npcs["npc_a"].activity == "idle"


def test_say_without_target_speaks_to_the_nearest_listener(world: World) -> None:
    world.player.place((7, 2))  # next to npc_a at (8, 2); npc_b is farther
    fut = world.submit(Say("npc_a", "Hello!"))
    world.step(1 / 60)
    assert fut.result(timeout=0).message == "said to Traveller"
    spoke = next(e for e in world.drain_events() if isinstance(e, Spoke))
    assert spoke.target_id == PLAYER_ID and world.npcs["npc_a"].facing == "left"


def test_say_alone_is_said_but_unheard(world: World) -> None:
    world.npcs["npc_a"].place((10, 1))
    world.npcs["npc_b"].place((1, 4))
    world.player.place((1, 1))
    fut = world.submit(Say("npc_a", "Anyone?"))
    world.step(1 / 60)
    assert "nobody was near enough" in fut.result(timeout=0).message


def test_wait_ends_as_idle(world: World) -> None:
    fut = world.submit(Wait("npc_a", 1.0))
    world.step(1 / 60)
    assert world.npcs["npc_a"].activity == "waiting"
    run_until(world, fut.done)
    world.step(1 / 60)
    assert world.npcs["npc_a"].activity == "idle"


def test_ask_needs_the_player_near_then_takes_the_pick(world: World) -> None:
    far = world.submit(Ask("npc_a", "Tea?", ("Yes", "No")))
    world.step(1 / 60)
    assert "the player is not near" in far.result(timeout=0).message
    world.player.place((7, 2))
    fut = world.submit(Ask("npc_a", "Tea?", ("Yes", "No", "Later")))
    world.step(1 / 60)
    assert not fut.done() and world.ask is not None
    assert world.ask.options == ("Yes", "No", "Later")
    assert world.npcs["npc_a"].bubble is not None and world.npcs["npc_a"].bubble.text == "Tea?"
    assert isinstance(world.answer_ask(5), Impossible)
    assert world.answer_ask(2).ok
    assert fut.result(timeout=0).message == "the player chose: Later"
    assert world.ask is None and world.answer_ask(0).ok is False


def test_a_second_asker_waits_and_bad_options_are_refused(world: World) -> None:
    world.player.place((8, 3))
    world.npcs["npc_b"].place((8, 4))
    first = world.submit(Ask("npc_a", "Tea?", ("Yes", "No")))
    second = world.submit(Ask("npc_b", "Cake?", ("Yes", "No")))
    lonely = world.submit(Ask("npc_a", "Hm?", ("Only one",)))
    world.step(1 / 60)
    assert not first.done()
    assert "answering someone else" in second.result(timeout=0).message
    assert "2 to 4 options" in lonely.result(timeout=0).message


def test_ask_gives_up_when_the_player_leaves_or_never_answers(world: World) -> None:
    world.player.place((7, 2))
    fut = world.submit(Ask("npc_a", "Tea?", ("Yes", "No")))
    world.step(1 / 60)
    world.player.place((1, 4))
    world.step(1 / 60)
    assert "walked away" in fut.result(timeout=0).message and world.ask is None
    world.player.place((7, 2))
    slow = world.submit(Ask("npc_a", "Tea?", ("Yes", "No")))
    run_until(world, slow.done, limit_s=90)
    assert "did not answer" in slow.result().message


def test_perception_tells_who_walks_toward_you_and_names_the_map(world: World) -> None:
    world.npcs["npc_b"].place((8, 4))  # two tiles south of npc_a at (8, 2)
    world.hold_direction(None)
    fut = world.submit(MoveTo("npc_b", (8, 3)))
    world.step(1 / 60)
    world.step(1 / 60)
    p = perceive(world, "npc_a")
    assert p.nearby[0].name == "Bda" and p.nearby[0].activity == "walking toward you"
    assert "Bda is one tile to the south, walking toward you." in p.summary
    assert p.summary.startswith("You are at the yard in test.")
    run_until(world, fut.done)
    away = world.submit(MoveTo("npc_b", (8, 6)))
    world.step(1 / 60)
    world.step(1 / 60)
    assert perceive(world, "npc_a").nearby[0].activity == "walking away"
    run_until(world, away.done)


def test_heard_lines_say_when_they_were_for_you(world: World) -> None:
    world.player.place((7, 2))
    world.player_said("Ada, hello!", to="Ada")
    world.step(1 / 60)
    heard = perceive(world, "npc_a").heard
    assert heard and heard[0].to_you
    assert "(to you, 0s ago)" in perceive(world, "npc_a").render()


def _long_map() -> World:
    """An 80x40 field with a long wall: the way round needs hundreds of A* nodes."""
    rows = ["." * 80 for _ in range(40)]
    rows = [r[:40] + ("#" if 0 < y < 39 else ".") + r[41:] for y, r in enumerate(rows)]
    rows[20] = rows[20][:2] + "a" + rows[20][3:]
    rows[0] = "@" + rows[0][1:]
    return World(map_from("\n".join(rows)))


def test_a_long_search_spreads_over_steps_then_walks() -> None:
    from game.world.motion import PATH_NODES_PER_STEP

    world = _long_map()
    npc = world.npcs["npc_a"]
    fut = world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    assert not fut.done() and not npc.path and npc.tile == (2, 20), "still searching"
    assert npc.activity == "walking"
    steps = 1
    while not npc.path:
        world.step(1 / 60)
        steps += 1
    assert steps >= 3, f"a search of hundreds of nodes took {steps} steps of {PATH_NODES_PER_STEP}"
    run_until(world, fut.done, limit_s=60)
    assert isinstance(fut.result(), Success) and npc.tile == (77, 20)


def test_halt_or_a_new_move_ends_a_search() -> None:
    world = _long_map()
    first = world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    second = world.submit(MoveTo("npc_a", (78, 20)))
    world.step(1 / 60)
    assert "a new move replaced it" in first.result(timeout=0).message
    world.post(Halt("npc_a", "stopped to listen"))
    world.step(1 / 60)
    assert second.result(timeout=0).message.startswith("stopped to listen")
    assert world.npcs["npc_a"].activity == "idle" and not world.npcs["npc_a"].path


def test_no_path_is_found_in_the_end() -> None:
    rows = ["." * 30 for _ in range(30)]
    rows[10] = "." * 10 + "###" + "." * 17
    rows[11] = "." * 10 + "#." + "#" + "." * 17
    rows[12] = "." * 10 + "###" + "." * 17
    rows[0] = "@a" + rows[0][2:]
    world = World(map_from("\n".join(rows)))
    fut = world.submit(MoveTo("npc_a", (11, 11)))  # walled in on every side
    run_until(world, fut.done)
    assert fut.result().message.startswith("no path from (1, 0)")


def _answer(world: World, grid: Grid) -> list[int]:
    """Play the planner: answer every request the world handed out; their tokens."""
    tokens = []
    while not world.path_requests.empty():
        request = world.path_requests.get_nowait()
        path = request.run(grid)
        world.post(PathFound(request.npc_id, request.token, None if path is None else tuple(path)))
        tokens.append(request.token)
    return tokens


def test_a_world_that_plans_elsewhere_searches_nothing_in_its_step() -> None:
    world = _long_map()
    world.plan_elsewhere()
    npc = world.npcs["npc_a"]
    world.player.place((5, 20))  # in the way, at the time of asking
    fut = world.submit(MoveTo("npc_a", (77, 20)))
    for _ in range(30):  # half a second: no planner, no path, no search of its own
        world.step(1 / 60)
    assert not npc.path and not fut.done() and npc.activity == "walking"
    request = world.path_requests.get_nowait()
    assert (request.start, request.goal) == ((2, 20), (77, 20))
    assert (5, 20) in request.occupied and (2, 20) not in request.occupied
    world.path_requests.put(request)
    assert _answer(world, Grid(world.grid.width, world.grid.height, world.grid.blocked))
    world.step(1 / 60)
    assert npc.path and npc.path[-1] == (77, 20) and (5, 20) not in npc.path
    run_until(world, fut.done, limit_s=60)
    assert isinstance(fut.result(), Success) and npc.tile == (77, 20)


def test_only_others_near_the_walker_are_obstacles_to_its_path() -> None:
    """Someone far down the road will have moved on by the time the walker gets there."""
    world = _long_map()
    world.plan_elsewhere()
    world.player.place((5, 20))  # three tiles from npc_a at (2, 20)
    world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    assert (5, 20) in world.path_requests.get_nowait().occupied
    world.player.place((2 + OBSTACLE_TILES + 10, 20))  # on the way, but far off yet
    world.submit(MoveTo("npc_a", (77, 21)))
    world.step(1 / 60)
    assert not world.path_requests.get_nowait().occupied


def test_a_late_answer_for_a_replaced_move_is_ignored() -> None:
    world = _long_map()
    world.plan_elsewhere()
    grid = Grid(world.grid.width, world.grid.height, world.grid.blocked)
    first = world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    second = world.submit(MoveTo("npc_a", (30, 20)))
    world.step(1 / 60)
    assert "a new move replaced it" in first.result(timeout=0).message
    assert len(_answer(world, grid)) == 2  # both answers arrive, the stale one first
    run_until(world, second.done, limit_s=60)
    assert world.npcs["npc_a"].tile == (30, 20)


def test_unanswered_searches_run_in_the_world_after_a_timeout_or_when_planning_stops() -> None:
    from game.world.motion import PLAN_TIMEOUT_S

    world = _long_map()
    world.plan_elsewhere()
    fut = world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    steps = 1
    while not world.npcs["npc_a"].path:  # nobody answers
        world.step(1 / 60)
        steps += 1
    assert steps / 60 >= PLAN_TIMEOUT_S
    run_until(world, fut.done, limit_s=60)
    assert fut.result().ok

    world = _long_map()
    world.plan_elsewhere()
    fut = world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    world.plan_elsewhere(False)
    run_until(world, lambda: bool(world.npcs["npc_a"].path), limit_s=PLAN_TIMEOUT_S / 4)
    run_until(world, fut.done, limit_s=60)
    assert fut.result().ok


def test_a_planned_no_path_is_impossible() -> None:
    world = _long_map()
    world.plan_elsewhere()
    fut = world.submit(MoveTo("npc_a", (77, 20)))
    world.step(1 / 60)
    request = world.path_requests.get_nowait()
    world.post(PathFound("npc_a", request.token, None))
    world.step(1 / 60)
    assert fut.result(timeout=0).message.startswith("no path from (2, 20)")


def _blocked_on_the_way() -> tuple[World, Future[Outcome]]:
    """npc_a walks east along a lane of an open field; the player steps into the lane."""
    world = World(map_from("\n".join(["." * 10] * 5).replace(".", "a", 1).replace(".", "@", 1)))
    npc, player = world.npcs["npc_a"], world.player
    npc.place((1, 2))
    player.place((9, 4))
    fut = world.submit(MoveTo("npc_a", (8, 2)))
    world.step(1 / 60)
    player.place((5, 2))  # in the way, and staying there
    return world, fut


def test_a_blocked_walker_goes_round_whoever_stands_in_its_way() -> None:
    world, fut = _blocked_on_the_way()
    run_until(world, fut.done, limit_s=10)
    assert isinstance(fut.result(), Success) and world.npcs["npc_a"].tile == (8, 2)


def test_a_planner_finds_the_way_round_and_a_stale_answer_is_dropped() -> None:
    world, fut = _blocked_on_the_way()
    world.plan_elsewhere()
    npc = world.npcs["npc_a"]
    grid = Grid(world.grid.width, world.grid.height, world.grid.blocked)
    run_until(world, lambda: not world.path_requests.empty(), limit_s=2)
    request = world.path_requests.get_nowait()
    assert request.max_nodes == DETOUR_NODES and request.start == npc.tile == (4, 2)
    assert (5, 2) in request.occupied
    stale = request.run(grid)
    assert stale is not None
    world.post(PathFound("npc_a", request.token + 1000, tuple(stale)))  # not its token
    world.step(1 / 60)
    assert npc.path == [(5, 2), (6, 2), (7, 2), (8, 2)], "a stranger's answer was taken"
    world.post(PathFound("npc_a", request.token, tuple(stale)))
    world.step(1 / 60)
    assert (5, 2) not in npc.path
    run_until(world, fut.done, limit_s=10)
    assert isinstance(fut.result(), Success) and npc.tile == (8, 2)
