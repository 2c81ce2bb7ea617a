"""F5, F9 and Esc on the play screen; the pause menu and the load list through their handlers."""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.config import Settings
from game.npc.scripted.persona import PersonaProvider
from game.save.thumbnail import png_size
from game.village import Village

from .conftest import VILLAGE, frames_until


@pytest.fixture
def play(window, tmp_path: Path) -> Iterator[tuple[object, Village, Path]]:
    import arcade

    from game.ui.game_view import GameView

    saves = tmp_path / "saves"
    village = Village.open(
        VILLAGE,
        slot="ui",
        saves_dir=saves,
        settings=Settings(provider="scripted", idle_chatter=False),
        provider=PersonaProvider(delay_s=0),
    )
    view = GameView(village.world, village.brain, notice=village.notice, saves=village.saves)
    window.show_view(view)
    yield view, village, saves
    village.close()
    window.show_view(arcade.View())


def press(window, key: int) -> None:
    window.dispatch_event("on_key_press", key, 0)
    window.dispatch_event("on_key_release", key, 0)
    window.dispatch_events()


def finish(view, fut: concurrent.futures.Future | None) -> Any:
    """Run frames of `view` until the save is written; return its result."""
    assert fut is not None
    frames_until(view, fut.done)
    view.on_update(1 / 60)
    return fut.result()


def test_f5_quick_saves_with_a_thumbnail(window, play) -> None:
    import arcade

    view, village, saves = play
    village.world.player.place(village.world.map.player_spawn, "up")
    press(window, arcade.key.F5)
    result = finish(view, village.saves.pending)
    assert result.ok, result.message
    assert png_size((saves / "ui" / "thumbnail.png").read_bytes()) == (256, 144)
    world = json.loads((saves / "ui" / "world.json").read_text())
    assert world["player"]["facing"] == "up"
    assert village.notice() == "saved 'ui'"
    assert window.current_view is view


def test_escape_opens_the_pause_menu_and_its_buttons_work(window, play) -> None:
    import arcade

    from game.ui.menus import LoadListView, PauseView
    from game.ui.settings_view import SettingsView
    from game.ui.theme import click

    view, village, saves = play
    press(window, arcade.key.ESCAPE)
    menu = window.current_view
    assert isinstance(menu, PauseView)
    assert list(menu.buttons) == ["resume", "save", "save_as", "load", "settings", "quit"]
    menu.on_draw()
    click(menu.buttons["settings"])
    settings = window.current_view
    assert isinstance(settings, SettingsView)
    click(settings.back_button)
    assert window.current_view is menu
    click(menu.buttons["save"])
    assert menu.status.text == "Saving…"
    finish(menu, menu.pending)
    assert menu.status.text == "saved 'ui'"
    assert (saves / "ui" / "thumbnail.png").is_file()
    click(menu.buttons["save_as"])
    finish(menu, menu.pending)
    assert village.slot == "save-1" and village.runtime.slot == "save-1"
    assert menu.slot_label.text == "Slot: save-1 (save-1)"
    assert (saves / "save-1" / "thumbnail.png").is_file()
    click(menu.buttons["load"])
    assert isinstance(window.current_view, LoadListView)
    window.current_view.back()
    assert window.current_view is menu
    press(window, arcade.key.ESCAPE)
    assert window.current_view is view


def test_quit_saves_and_quits(window, play) -> None:
    from game.ui.menus import PauseView
    from game.ui.theme import click

    view, village, saves = play
    quits: list[bool] = []
    menu = PauseView(view, village.saves, None, on_quit=lambda: quits.append(True))
    window.show_view(menu)
    click(menu.buttons["quit"])
    assert quits == [True]
    assert menu.pending is not None and menu.pending.result(timeout=10).ok
    assert (saves / "ui" / "world.json").is_file()


def test_f9_lists_slots_and_loads_one(window, play) -> None:
    import arcade

    from game.ui.menus import LoadListView
    from game.ui.theme import click

    view, village, saves = play
    start = village.world.player.tile
    assert finish(view, village.saves.save()).ok  # no thumbnail
    village.world.player.place(village.world.map.player_spawn, "right")
    press(window, arcade.key.F5)
    finish(view, village.saves.pending)
    (saves / "broken").mkdir()
    (saves / "broken" / "meta.json").write_text('{"format": 42}')
    village.world.player.place(start, "down")

    press(window, arcade.key.F9)
    menu = window.current_view
    assert isinstance(menu, LoadListView)
    menu.on_draw()
    assert {info.slot for info in menu.slots} == {"ui", "broken"}
    assert "ui" in menu.textures  # the thumbnail is shown
    assert menu.load_buttons["broken"].disabled
    assert "newer version" in menu.rows["broken"].text
    assert "played 0:00:" in menu.rows["ui"].text
    result = menu.load("broken")
    assert not result.ok and window.current_view is menu
    assert "newer version" in menu.status.text
    click(menu.load_buttons["ui"])
    assert window.current_view is view
    assert village.world.player.tile == village.world.map.player_spawn
    assert village.world.player.facing == "right"


def test_the_load_list_pages_and_says_when_empty(window, play, tmp_path: Path) -> None:
    from game.ui.menus import LoadListView

    view, village, saves = play
    empty = LoadListView(view, village.saves)
    window.show_view(empty)
    empty.on_draw()
    assert empty.slots == [] and empty.pages == 1
    for i in range(5):
        (saves / f"s{i}").mkdir(parents=True)
        (saves / f"s{i}" / "meta.json").write_text(json.dumps({"format": 1, "updated": i + 1}))
    menu = LoadListView(view, village.saves, page_size=2)
    window.show_view(menu)
    assert menu.pages == 3 and list(menu.load_buttons) == ["s4", "s3"]
    menu.next_page()
    menu.next_page()
    menu.next_page()
    assert menu.page == 2 and list(menu.load_buttons) == ["s0"]
    menu.previous_page()
    assert list(menu.load_buttons) == ["s2", "s1"]
    menu.on_draw()


def test_autosave_runs_while_playing(window, play) -> None:
    view, village, saves = play
    village.saves.autosave_s = 0.1
    frames_until(view, lambda: village.saves.pending is not None)
    result = finish(view, village.saves.pending)
    assert result.ok and village.notice() == "autosaved 'ui'"
    assert (saves / "ui" / "thumbnail.png").is_file()


def test_escape_with_the_talk_box_open_only_closes_it(window, play) -> None:
    import arcade

    view, village, _ = play
    tobin = village.world.npcs["tobin"]
    spot = village.world.grid.nearest_walkable(
        tobin.tile, free=lambda t: t != tobin.tile and village.world.occupant(t) is None
    )
    village.world.player.place(spot)
    press(window, arcade.key.E)
    assert view.talking_to is not None
    press(window, arcade.key.ESCAPE)
    assert view.talking_to is None and window.current_view is view


@pytest.mark.parametrize("kind", ["huge picture", "huge file", "not a picture", "fifo"])
def test_a_hostile_thumbnail_is_left_out_of_the_load_list(
    window, tmp_path: Path, kind: str
) -> None:
    import os

    from PIL import Image

    from game.ui.menus import thumbnail_texture

    path = tmp_path / "thumbnail.png"
    if kind == "huge picture":  # 40000x40000: a few KB of PNG, 6 GB of pixels
        Image.new("1", (40000, 40000)).save(path, optimize=True)
        assert path.stat().st_size < 1024 * 1024
    elif kind == "huge file":
        with open(path, "wb") as f:
            f.truncate(3 * 1024**3)
    elif kind == "not a picture":
        path.write_text("hello")
    else:
        os.mkfifo(path)
    assert thumbnail_texture(path) is None
    good = tmp_path / "good.png"
    Image.new("RGB", (256, 144)).save(good)
    assert thumbnail_texture(good) is not None
