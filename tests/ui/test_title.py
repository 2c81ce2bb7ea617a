"""The title screen and the name prompt, driven through their handlers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.config import Settings

from .conftest import VILLAGE, frames_until


@pytest.fixture
def session(window, tmp_path: Path) -> Iterator[object]:
    import arcade

    from game.ui.app import GameOptions, GameSession

    options = GameOptions(
        VILLAGE, Settings(provider="scripted", idle_chatter=False), tmp_path / "saves"
    )
    s = GameSession(window, options)
    yield s
    s.close()
    window.show_view(arcade.View())


def title_of(session, window):
    from game.ui.title import TitleView

    view = TitleView(session, VILLAGE, "Hollowbrook")
    window.show_view(view)
    view.on_draw()
    return view


def test_new_game_asks_the_name_and_npcs_perceive_it(window, session) -> None:
    import arcade

    from game.ui.game_view import GameView
    from game.ui.theme import click
    from game.ui.title import NameView
    from game.world.perception import perceive

    title = title_of(session, window)
    assert title.buttons["continue"].disabled  # nothing saved yet
    click(title.buttons["new"])
    prompt = window.current_view
    assert isinstance(prompt, NameView)
    prompt.name_input.activate()
    for ch in ["Ada", "\t", " Lovelace", "\r"]:  # a stray Tab or Return types nothing
        window.dispatch_event("on_text", ch)
    window.dispatch_events()
    assert prompt.name_input.text == "Ada Lovelace"
    prompt.on_key_press(arcade.key.ENTER, 0)
    game = window.current_view
    assert isinstance(game, GameView)
    village = session.village
    assert village.slot == "ada-lovelace"
    assert village.world.player.name == "Ada Lovelace"
    nearest = min(
        village.world.npcs,
        key=lambda n: village.world.distance(village.world.player, village.world.npcs[n]),
    )
    assert "Ada Lovelace" in perceive(village.world, nearest).render()


def test_continue_opens_the_latest_save(window, session) -> None:
    from game.ui.game_view import GameView
    from game.ui.theme import click

    session.new_game("Bo")
    fut = session.village.save()
    frames_until(window.current_view, fut.done)
    assert fut.result().ok
    session.close()
    title = title_of(session, window)
    assert not title.buttons["continue"].disabled
    assert "bo" in title.buttons["continue"].text
    click(title.buttons["continue"])
    assert isinstance(window.current_view, GameView)
    assert session.village.slot == "bo" and session.village.world.player.name == "Bo"


def test_second_player_with_the_same_name_gets_a_new_slot(window, session) -> None:
    session.new_game("Bo")
    fut = session.village.save()
    frames_until(window.current_view, fut.done)
    session.new_game("Bo")
    assert session.village.slot == "bo-2"


def test_load_from_the_title_lists_slots_and_opens_one(window, session) -> None:
    from game.ui.game_view import GameView
    from game.ui.menus import LoadListView
    from game.ui.theme import click

    session.new_game("Cy")
    fut = session.village.save()
    frames_until(window.current_view, fut.done)
    session.close()
    title = title_of(session, window)
    click(title.buttons["load"])
    listing = window.current_view
    assert isinstance(listing, LoadListView)
    listing.on_draw()
    click(listing.load_buttons["cy"])
    assert isinstance(window.current_view, GameView)
    assert session.village.slot == "cy"


def test_continue_with_nothing_saved_is_one_line(window, session) -> None:
    title = title_of(session, window)
    title.resume()
    assert title.status.text == "there is no saved game yet: start a new one"


def test_settings_and_back(window, session) -> None:
    from game.ui.settings_view import SettingsView
    from game.ui.theme import click

    title = title_of(session, window)
    click(title.buttons["settings"])
    assert isinstance(window.current_view, SettingsView)
    click(window.current_view.back_button)
    assert window.current_view is title


def test_a_loaded_village_is_frozen_and_let_go_when_another_loads(window, session) -> None:
    import gc

    session.open_slot("first")
    first = gc.get_freeze_count()
    assert first > 10_000, "the map's sprites stay out of every later collection"
    session.open_slot("second")
    session.open_slot("third")
    # Each village's cycles (sprites and their lists) would stay frozen, and never be
    # collected, if a reload did not unfreeze first: some 30,000 objects a load.
    assert gc.get_freeze_count() < first * 1.05
    session.close()
    assert gc.get_freeze_count() == 0
