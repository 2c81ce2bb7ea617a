"""A map smaller than the window is drawn in its middle, not in a corner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from game.npc.scripted.persona import PersonaProvider
from game.village import Village
from tests.world.crowd import write_crowd_map

from .conftest import ROOT

HUD_PX = 48  # the bottom band where the place name and "F1: help" are written


def drawn_box(view: object, window: object) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom) of what one frame drew over the background,
    the HUD's bottom band left out."""
    import arcade

    from game.ui.game_view import BACKGROUND

    view.on_update(1 / 60)  # type: ignore[attr-defined]
    view.on_draw()  # type: ignore[attr-defined]
    w, h = window.width, window.height  # type: ignore[attr-defined]
    shot = arcade.get_image(0, 0, w, h).convert("RGB").crop((0, 0, w, h - HUD_PX))
    box = ImageChops.difference(shot, Image.new("RGB", shot.size, BACKGROUND)).getbbox()
    assert box is not None, "nothing was drawn"
    return box


@pytest.fixture
def shown(window, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    import arcade

    from game.ui.game_view import GameView

    opened: list[Village] = []

    def show(map_path: Path) -> object:
        village = Village.open(
            map_path, slot="small", saves_dir=tmp_path / "saves", provider=PersonaProvider()
        )
        opened.append(village)
        view = GameView(village.world, village.brain)
        window.show_view(view)
        return view

    yield show
    for village in opened:
        village.close()
    window.show_view(arcade.View())


@pytest.mark.parametrize("name", ["tiny.tmx", "tiny.tmj"])
def test_a_map_smaller_than_the_window_is_centred(window, shown, name: str) -> None:  # type: ignore[no-untyped-def]
    view = shown(ROOT / "maps" / name)
    map_w, map_h = view.map_px
    assert map_w < window.width and map_h < window.height - 2 * HUD_PX
    left, top, right, bottom = drawn_box(view, window)
    assert (right - left, bottom - top) == (map_w, map_h)  # the whole map, and only it
    assert abs(left - (window.width - right)) <= 1
    assert abs(top - (window.height - bottom)) <= 1


def test_a_wide_short_map_fills_the_width_and_is_centred_up_and_down(  # type: ignore[no-untyped-def]
    window, shown, tmp_path: Path
) -> None:
    view = shown(write_crowd_map(tmp_path, 3, size=(60, 9)))
    map_w, map_h = view.map_px
    assert map_w > window.width and map_h < window.height - 2 * HUD_PX
    left, top, right, bottom = drawn_box(view, window)
    assert (left, right) == (0, window.width)
    assert bottom - top == map_h
    assert abs(top - (window.height - bottom)) <= 1
