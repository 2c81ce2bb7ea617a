"""Life on screen: an NPC's question answered with keys or clicks, bubbles and emotes drawn.

The real window runs offscreen; the view is driven through its handlers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from game.config import Settings
from game.npc.scripted.persona import PersonaProvider
from game.village import Village
from game.world.commands import Ask, Emote, Say, SpeechStart

from .conftest import VILLAGE, frames_until
from .pixels import ASSETS, bubble_pixels, locate, own_colours, own_colours_of


@pytest.fixture
def quiet(window, tmp_path: Path) -> Iterator[tuple[object, Village]]:
    """The village with idle ticks off, so only what a test does happens."""
    import arcade

    from game.ui.game_view import GameView

    village = Village.open(
        VILLAGE,
        slot="life",
        saves_dir=tmp_path,
        settings=Settings(provider="scripted", idle_chatter=False),
        provider=PersonaProvider(delay_s=0.005),
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


def test_an_npc_question_is_answered_with_a_number_key(window, quiet) -> None:
    import arcade

    view, village = quiet
    world = village.world
    world.player.place((21, 19))  # beside Pip
    fut = world.submit(Ask("pip", "Dragon hunt?", ("Yes!", "Later", "No such thing")))
    frames_until(view, lambda: view.ask_panel.visible)
    assert [b.text for b in view.ask_panel.buttons] == ["1. Yes!", "2. Later", "3. No such thing"]
    assert view.ask_panel.anchor.visible
    press(window, arcade.key.KEY_4)  # no fourth option: nothing happens
    assert not fut.done()
    press(window, arcade.key.KEY_3)
    frames_until(view, fut.done)
    assert fut.result().message == "the player chose: No such thing"
    frames_until(view, lambda: not view.ask_panel.visible)
    assert not view.ask_panel.anchor.visible


def test_an_npc_question_is_answered_with_a_click(window, quiet) -> None:
    view, village = quiet
    world = village.world
    world.player.place((21, 19))
    fut = world.submit(Ask("pip", "Pebble or feather?", ("Pebble", "Feather")))
    frames_until(view, lambda: view.ask_panel.visible)
    view.on_draw()  # lay the panel out
    button = view.ask_panel.buttons[1]
    x, y = button.rect.center
    window.dispatch_event("on_mouse_press", int(x), int(y), 1, 0)
    window.dispatch_event("on_mouse_release", int(x), int(y), 1, 0)
    window.dispatch_events()
    frames_until(view, fut.done)
    assert fut.result().message == "the player chose: Feather"


def test_number_keys_answer_even_while_the_talk_box_is_open(window, quiet) -> None:
    import arcade

    view, village = quiet
    world = village.world
    world.player.place((21, 19))
    press(window, arcade.key.E)
    frames_until(view, lambda: view.talk_input.active)
    fut = world.submit(Ask("pip", "Coming?", ("Yes", "No")))
    frames_until(view, lambda: view.ask_panel.visible)
    assert not view.talk_input.active, "keys answer the question, they do not type"
    press(window, arcade.key.KEY_1)
    frames_until(view, fut.done)
    assert fut.result().message == "the player chose: Yes"
    assert view.talk_input.text == ""


def test_screenshot_shows_bubbles_and_emotes_at_the_npcs(window, quiet, tmp_path: Path) -> None:
    import arcade

    view, village = quiet
    world = village.world
    village.brain.life.plans = False  # a staged scene: nobody sets off on their day plan
    world.player.place((20, 20))
    # The scene: the player greets Pip, who answers and waves (its persona's script);
    # Cassius laughs and comments; Tobin, to the left, is about to speak.
    world.npcs["cassius"].place((16, 18))  # out of greeting range
    world.npcs["tobin"].place((14, 21))
    village.brain.player_talks("pip", "Hello there!")
    frames_until(
        view,
        lambda: (
            world.npcs["pip"].emote is not None
            and world.npcs["pip"].bubble is not None
            and not world.npcs["pip"].bubble.streaming
        ),
    )
    world.post(Emote("cassius", "laugh"))
    world.post(Say("cassius", "Ha! A new friend for the little one.", target="player"))
    world.post(SpeechStart("tobin"))
    for _ in range(15):  # the emotes pop in fully
        view.on_update(1 / 60)
    view.reveal_all()  # the whole lines, not the typewriter's progress
    view.on_draw()
    shot = tmp_path / "life.png"
    arcade.get_image(0, 0, 1280, 720).convert("RGB").save(shot)
    img = Image.open(shot).convert("RGB")

    n_pip, px, py = locate(img, own_colours("child"))
    n_cas, cx, cy = locate(img, own_colours("merchant"))
    assert n_pip >= 40 and n_cas >= 40, "Pip and Cassius are drawn"
    # Pip's wave and Cassius's laugh sit just above and right of their heads.
    n_wave, wx, wy = locate(img, own_colours_of(ASSETS / "emotes" / "wave.png"))
    n_laugh, lx, ly = locate(img, own_colours_of(ASSETS / "emotes" / "laugh.png"))
    assert n_wave >= 20, "no wave icon on screen"
    assert 0 < wx - px < 40 and 0 < py - wy < 50, (wx, wy, px, py)
    assert n_laugh >= 20, "no laugh icon on screen"
    assert 0 < lx - cx < 40 and 0 < cy - ly < 50, (lx, ly, cx, cy)
    # Their speech bubbles hold text, right above their heads; Tobin's is still "...".
    assert world.npcs["pip"].bubble is not None and world.npcs["pip"].bubble.text
    for x, y, who in ((px, py, "Pip"), (cx, cy, "Cassius")):
        cream, ink = bubble_pixels(img.crop((x - 40, y - 90, x + 20, y - 24)))
        assert cream > 600 and ink > 30, f"no bubble with text above {who} ({cream}, {ink})"
    n_tobin, tx, ty = locate(img, own_colours("baker"))
    assert n_tobin >= 40
    dots = img.crop((tx - 30, ty - 60, tx + 30, ty - 24))
    cream, _ = bubble_pixels(dots)
    grey = sum(1 for r, g, b in dots.getdata() if abs(r - 110) + abs(g - 104) + abs(b - 120) < 30)
    assert cream > 300 and grey >= 20, f"no thinking dots above Tobin ({cream}, {grey})"
