"""The play view driven through its handlers, with the real window offscreen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.npc.scripted.persona import PersonaProvider
from game.village import Village

from .conftest import VILLAGE, frames_until


@pytest.fixture
def play(window, tmp_path: Path) -> Iterator[tuple[object, Village]]:
    import arcade

    from game.ui.game_view import GameView

    village = Village.open(
        VILLAGE, slot="ui_test", saves_dir=tmp_path, provider=PersonaProvider(delay_s=0.01)
    )
    view = GameView(village.world, village.brain)
    window.show_view(view)
    yield view, village
    village.close()
    window.show_view(arcade.View())


def press(window, key: int) -> None:
    window.dispatch_event("on_key_press", key, 0)
    window.dispatch_event("on_key_release", key, 0)
    window.dispatch_events()


def walk_next_to(view, village: Village, npc_id: str) -> None:
    """Put the player beside the NPC (walking there is tested in the world tests)."""
    npc = village.world.npcs[npc_id]
    spot = village.world.grid.nearest_walkable(
        npc.tile, free=lambda t: t != npc.tile and village.world.occupant(t) is None
    )
    village.world.player.place(spot)


def test_e_does_nothing_far_from_npcs(window, play) -> None:
    import arcade

    view, village = play
    village.world.player.place(village.world.map.player_spawn)
    assert village.world.npc_in_reach(1.5) is None
    press(window, arcade.key.E)
    assert view.talking_to is None


def test_talk_streams_reply_into_a_growing_bubble(window, play) -> None:
    import arcade

    view, village = play
    walk_next_to(view, village, "tobin")
    press(window, arcade.key.E)
    assert view.talking_to is not None and view.talking_to.entity_id == "tobin"
    frames_until(view, lambda: view.talk_input.active)
    for ch in "what do you do?":
        window.dispatch_event("on_text", ch)
    window.dispatch_events()
    assert view.talk_input.text == "what do you do?"  # no stray "e" from the E key
    press(window, arcade.key.ENTER)
    tobin = village.world.npcs["tobin"]
    seen: list[str] = []

    def finished() -> bool:
        bubble = tobin.bubble
        if bubble is not None and bubble.text and (not seen or seen[-1] != bubble.text):
            seen.append(bubble.text)
        return bubble is not None and not bubble.streaming and bool(bubble.text)

    frames_until(view, finished)
    final = tobin.bubble.text
    assert "bread" in final  # what he does, from his persona
    partial = [s for s in seen if s != final]
    # A frame on a loaded machine may see several pieces land at once: one partial text
    # shown before the whole line is the stream; the whole line at once is the failure.
    assert partial, f"the bubble did not grow while streaming: {seen}"
    assert all(final.startswith(p) for p in partial)
    assert view.talk_input.text == ""


def test_escape_closes_the_talk_box(window, play) -> None:
    import arcade

    view, village = play
    walk_next_to(view, village, "tobin")
    press(window, arcade.key.E)
    assert view.talking_to is not None
    press(window, arcade.key.ESCAPE)
    assert view.talking_to is None and not view.talk_input.active


def test_arrow_keys_and_wasd_move_the_player(window, play) -> None:
    import arcade

    view, village = play
    player = village.world.player
    start = player.tile
    window.dispatch_event("on_key_press", arcade.key.D, 0)
    window.dispatch_events()
    frames_until(view, lambda: player.tile[0] == start[0] + 2)
    window.dispatch_event("on_key_release", arcade.key.D, 0)
    window.dispatch_event("on_key_press", arcade.key.LEFT, 0)
    window.dispatch_events()
    frames_until(view, lambda: player.tile[0] == start[0])
    window.dispatch_event("on_key_release", arcade.key.LEFT, 0)
    window.dispatch_events()
    frames_until(view, lambda: not player.moving)
    assert player.tile == start


def test_sprites_out_of_view_wait_and_catch_up_when_seen(window, play) -> None:
    from game.ui.sprites import tile_center
    from game.world.commands import MoveSteps

    view, village = play
    world = village.world
    world.player.place(world.grid.nearest_walkable((2, 2)))
    far = max(world.npcs.values(), key=lambda n: world.distance(world.player, n))
    sprite = view.sprites[far.entity_id]
    view.on_update(1 / 60)
    assert not view._tiles_in_view().holds(far.x, far.y), "the NPC starts out of view"
    before = sprite.position
    direction = next(
        d for d in ("left", "right", "up", "down") if world.grid.walkable(_step(far.tile, d))
    )
    world.post(MoveSteps(far.entity_id, direction, 1))
    frames_until(view, lambda: far.moving)
    frames_until(view, lambda: not far.moving)
    assert sprite.position == before, "an unseen walker costs the frame nothing"
    world.player.place(world.grid.nearest_walkable(far.tile, free=lambda t: t != far.tile))
    view.on_update(1 / 60)
    assert sprite.position == tile_center(far.x, far.y, world.map.height, view.tile)


def _step(tile: tuple[int, int], direction: str) -> tuple[int, int]:
    from game.world.grid import DIRECTIONS

    dx, dy = DIRECTIONS[direction]
    return tile[0] + dx, tile[1] + dy


def test_reveal_shows_a_line_that_came_since_the_last_drawn_frame(window, play) -> None:
    from game.world.commands import Say

    view, village = play
    walk_next_to(view, village, "pip")
    village.world.post(Say("pip", "A line that came between two frames."))
    view.on_update(1 / 60)
    view.reveal_all()  # Space, before the bubble was ever drawn
    view.on_draw()
    assert view.bubbles["pip"].label.text == "A line that came between two frames."


def test_a_notice_reads_on_a_dark_panel_over_the_map(window, play) -> None:
    import arcade

    view, _ = play
    view.hud.notice = lambda: "The local model crashed (SIGSEGV) and is restarting"
    view.on_update(1 / 60)
    view.on_draw()
    shot = arcade.get_image(0, 0, window.width, window.height).convert("RGB")
    text = view.hud.notice_text
    # A row across the panel, above the letters' baseline and below the window's edge.
    y = window.height - int(text.y) + 2
    row = [shot.getpixel((x, y)) for x in range(int(text.x), int(text.x + text.content_width))]
    dark = [p for p in row if max(p) < 60]
    assert len(dark) > 0.6 * len(row), row[:10]  # the panel, not grass and roofs
