"""E beside a notice board reads it: its posts newest first, E or Esc closes it, an NPC in
reach is talked to instead, and the game runs on underneath."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.npc.scripted.persona import PersonaProvider
from game.village import Village

from .daymap import BOARD, BOARD_ID, write_day_map


def press(window, key: int) -> None:  # type: ignore[no-untyped-def]
    """A key pressed and released, as the keyboard sends it."""
    window.dispatch_event("on_key_press", key, 0)
    window.dispatch_event("on_key_release", key, 0)
    window.dispatch_events()


@pytest.fixture
def play(window, tmp_path: Path) -> Iterator[tuple[Any, Village]]:  # type: ignore[no-untyped-def]
    import arcade

    from game.ui.game_view import GameView

    village = Village.open(
        write_day_map(tmp_path),
        slot="board",
        saves_dir=tmp_path / "saves",
        provider=PersonaProvider(delay_s=0.01),
    )
    view = GameView(village.world, village.brain)
    window.show_view(view)
    yield view, village
    village.close()
    window.show_view(arcade.View())


def by_the_board(village: Village) -> None:
    """The player two tiles from the board, the villager far away."""
    world = village.world
    world.npcs["v0"].place((2, 2))
    world.player.place((BOARD[0] - 2, BOARD[1]))


def test_e_by_the_board_shows_its_posts_newest_first_and_e_closes(window, play) -> None:  # type: ignore[no-untyped-def]
    import arcade

    view, village = play
    world = village.world
    world.board.post(
        BOARD_ID, "v0", "Lost: a blue scarf by the well.", author_name="Villager 0", hour=9.5
    )
    world.board.post(BOARD_ID, "player", "Bread at noon!", author_name="Ada", hour=14.25)
    by_the_board(village)
    assert world.npc_in_reach(1.5) is None
    press(window, arcade.key.E)
    panel = view.board_panel
    assert panel.open and panel.anchor.visible
    text = panel.posts.text
    assert "Notice board" in panel.title.text and "notice board" in panel.about.text
    assert "2:15 pm  Ada\nBread at noon!" in text
    assert "9:30 am  Villager 0\nLost: a blue scarf by the well." in text
    assert text.index("Bread at noon!") < text.index("blue scarf")  # newest first
    clock = world.clock
    view.on_update(1 / 60)
    view.on_draw()
    assert world.clock > clock  # the game runs on underneath
    world.board.post(BOARD_ID, "v0", "Fair tomorrow.", author_name="Villager 0", hour=15)
    view.on_update(1 / 60)
    assert panel.posts.text.startswith("3:00 pm  Villager 0\nFair tomorrow.")  # at once
    press(window, arcade.key.E)
    assert not panel.open and not panel.anchor.visible
    assert view.talking_to is None


def test_an_empty_board_says_so_and_esc_closes_it(window, play) -> None:  # type: ignore[no-untyped-def]
    import arcade

    view, village = play
    by_the_board(village)
    press(window, arcade.key.E)
    assert view.board_panel.open
    assert view.board_panel.posts.text == "The board is empty."
    press(window, arcade.key.PAGEDOWN)  # nothing to scroll: no harm
    press(window, arcade.key.ESCAPE)
    assert not view.board_panel.open


def test_the_hint_shows_by_the_board_and_nowhere_else(window, play) -> None:  # type: ignore[no-untyped-def]
    view, village = play
    drawn: list[str] = []
    view.board_hint.draw = lambda: drawn.append(view.board_hint.text)
    village.world.player.place((BOARD[0] - 5, BOARD[1]))
    view.on_draw()
    assert drawn == []
    by_the_board(village)
    view.on_draw()
    assert drawn == ["E: read the board"]


def test_an_npc_in_reach_wins_over_the_board(window, play) -> None:  # type: ignore[no-untyped-def]
    import arcade

    view, village = play
    by_the_board(village)
    village.world.npcs["v0"].place((BOARD[0] - 1, BOARD[1]))
    press(window, arcade.key.E)
    assert view.talking_to is not None and view.talking_to.entity_id == "v0"
    assert not view.board_panel.open


def test_walking_away_closes_the_board(window, play) -> None:  # type: ignore[no-untyped-def]
    import arcade

    view, village = play
    by_the_board(village)
    press(window, arcade.key.E)
    assert view.board_panel.open
    village.world.player.place((BOARD[0] - 6, BOARD[1]))
    view.on_update(1 / 60)
    assert not view.board_panel.open
