"""The village's day on screen: the HUD clock, the dark of the night with the lamps
glowing through it, the z over a sleeper, and `--hour` applied once the slot is loaded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image

from game.world.tiled import load_map
from game.world.world import World

from .daymap import LAMP, write_day_map

FAR = (LAMP[0] + 10, LAMP[1])  # grass well beyond the lamp's light
NEAR = (LAMP[0] + 1, LAMP[1])  # grass a tile from the lamp


class StillBrain:
    """No agents: nobody thinks or moves, so the pixels read are the map's own."""

    def update(self, dt: float) -> None:
        """Nothing to watch."""

    def spare_time(self, elapsed_s: float) -> None:
        """Nothing to do."""


@pytest.fixture
def shown(window, tmp_path: Path) -> Iterator[tuple[Any, World]]:  # type: ignore[no-untyped-def]
    import arcade

    from game.npc.brain import Brain
    from game.ui.game_view import GameView

    world = World(load_map(write_day_map(tmp_path)))
    view = GameView(world, cast(Brain, StillBrain()))
    window.show_view(view)
    yield view, world
    window.show_view(arcade.View())


def frame(view: Any, window: Any) -> Image.Image:
    """Update and draw one frame; the window's pixels (top-left origin)."""
    import arcade

    view.on_update(1 / 60)
    view.on_draw()
    return arcade.get_image(0, 0, window.width, window.height).convert("RGB")


def patch(view: Any, window: Any, shot: Image.Image, tile: tuple[int, int]) -> tuple[float, ...]:
    """The mean colour of a 12x12 px square in the middle of a tile on the screen."""
    from game.ui.sprites import tile_center

    wx, wy = tile_center(tile[0], tile[1], view.world.map.height, view.tile)
    cx, cy = view.camera.position
    sx, sy = wx - (cx - window.width / 2), wy - (cy - window.height / 2)
    x, y = round(sx), round(window.height - sy)
    pixels = list(shot.crop((x - 6, y - 6, x + 6, y + 6)).getdata())
    return tuple(sum(p[i] for p in pixels) / len(pixels) for i in range(3))


def test_the_hud_shows_the_time_of_day_and_follows_the_clock(window, shown) -> None:  # type: ignore[no-untyped-def]
    view, world = shown
    frame(view, window)
    clock = view.daylight.clock
    assert clock.text == world.day.text() == "Day 1, 8:00 am"
    clock.text = "untouched"
    frame(view, window)
    assert clock.text == "untouched"  # the same minute: the text is not made again
    world.day.set_hour(21.5)
    frame(view, window)
    assert view.daylight.clock is clock and clock.text == "Day 1, 9:30 pm"
    world.day.set_hour(7)
    frame(view, window)
    assert clock.text == "Day 2, 7:00 am"


def test_the_night_darkens_the_world_and_the_lamp_glows_through(window, shown) -> None:  # type: ignore[no-untyped-def]
    view, world = shown
    world.day.set_hour(12)
    day = frame(view, window)
    day_far, day_near = patch(view, window, day, FAR), patch(view, window, day, NEAR)
    assert view.daylight.glowing == 0
    assert max(abs(a - b) for a, b in zip(day_far, day_near, strict=True)) < 12  # both grass

    world.day.set_hour(23)
    night = frame(view, window)
    far, near = patch(view, window, night, FAR), patch(view, window, night, NEAR)
    assert view.daylight.glowing == 1
    # The dark: every channel down, blue the least.
    assert sum(far) < 0.6 * sum(day_far), (far, day_far)
    assert far[2] / day_far[2] > far[0] / day_far[0] + 0.1, (far, day_far)
    # The lamp: warm light added near it, none far from it.
    assert near[0] > far[0] + 40 and near[1] > far[1] + 25, (near, far)
    assert near[0] - far[0] > near[2] - far[2]  # warm: more red than blue
    # The HUD is not darkened: the clock's text is as bright as at noon.
    hud = night.crop((8, window.height - 52, 200, window.height - 30))
    assert max(max(p) for p in hud.getdata()) > 220


def test_the_lamps_are_out_by_day_and_lit_at_dusk(window, shown) -> None:  # type: ignore[no-untyped-def]
    view, world = shown
    for hour, lit in ((12, False), (19, False), (20, True), (3, True), (7, False)):
        world.day.set_hour(hour)
        frame(view, window)
        assert (view.daylight.glowing == 1) is lit, hour


def test_a_sleeper_shows_a_z(window, shown) -> None:  # type: ignore[no-untyped-def]
    view, world = shown
    npc = world.npcs["v0"]
    frame(view, window)
    assert len(view.daylight.sleepers) == 0
    npc.asleep = True
    frame(view, window)
    assert len(view.daylight.sleepers) == 1
    mark = view.daylight.sleepers[0]
    x, y = view._head(npc)
    assert abs(mark.center_x - x) < view.tile and y - 4 < mark.center_y < y + view.tile
    npc.asleep = False
    frame(view, window)
    assert len(view.daylight.sleepers) == 0


def test_the_start_hour_is_set_once_the_slot_is_loaded(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import arcade

    from game.config import Settings
    from game.ui.app import GameOptions, GameSession

    options = GameOptions(
        write_day_map(tmp_path),
        Settings(provider="scripted"),
        tmp_path / "saves",
        start_hour=20.5,
    )
    session = GameSession(window, options)
    try:
        first = session.open_slot("first")
        assert first.world.day.hour == pytest.approx(20.5)
        assert first.world.day.text() == "Day 1, 8:30 pm"
        second = session.open_slot("second")  # a later village keeps its own time
        assert second.world.day.hour == pytest.approx(8.0)
    finally:
        session.close()
        window.show_view(arcade.View())
