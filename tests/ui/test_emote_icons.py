"""Every gesture has its icon; one whose icon is missing or damaged is drawn as its words
on a label, said once in the log, and the game plays on (the real window, offscreen)."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from game.config import Settings
from game.gestures import GESTURES
from game.npc.scripted.persona import PersonaProvider
from game.village import Village
from game.world.commands import Emote

from .conftest import VILLAGE, frames_until
from .pixels import ASSETS, bubble_pixels, locate, own_colours


@pytest.mark.parametrize("name", sorted(GESTURES))
def test_every_gesture_has_its_icon(name: str) -> None:
    icon = ASSETS / "emotes" / f"{name}.png"
    assert icon.is_file(), f"the gesture {name!r} has no icon: add {icon}"
    with Image.open(icon) as image:
        image.verify()
        assert image.format == "PNG" and max(image.size) <= 32


@pytest.fixture
def broken_icons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The emote icons with `nod` missing and `think` damaged (only while the test runs)."""
    from game.ui import sprites

    icons = tmp_path / "emotes"
    shutil.copytree(ASSETS / "emotes", icons)
    (icons / "nod.png").unlink()
    (icons / "think.png").write_bytes(b"\x89PNG\r\n\x1a\n not an image")
    monkeypatch.setattr(sprites, "EMOTES", icons)
    sprites.emote_texture.cache_clear()
    yield icons
    sprites.emote_texture.cache_clear()  # the real icons for the tests after


def test_a_missing_icon_is_drawn_as_its_words_with_one_warning(
    window, broken_icons: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import arcade

    from game.ui.game_view import GameView

    caplog.set_level(logging.WARNING, logger="game.ui.sprites")
    village = Village.open(
        VILLAGE,
        slot="icons",
        saves_dir=tmp_path / "saves",
        settings=Settings(provider="scripted", idle_chatter=False),
        provider=PersonaProvider(delay_s=0.005),
    )
    try:
        view = GameView(village.world, village.brain)
        window.show_view(view)
        world = village.world
        village.brain.life.plans = False  # nobody walks off
        world.player.place((14, 19))  # out of greeting range: Pip says nothing
        world.npcs["pip"].place((21, 19))
        for name in ("nod", "think", "nod"):
            fut = world.submit(Emote("pip", name))
            frames_until(view, fut.done)
            assert fut.result().ok
        for _ in range(15):  # the label pops in fully
            view.on_update(1 / 60)
        view.on_draw()
        img = arcade.get_image(0, 0, 1280, 720).convert("RGB")
        assert world.npcs["pip"].bubble is None, "only the label is drawn above Pip"
    finally:
        village.close()
        window.show_view(arcade.View())

    warned = [r.getMessage() for r in caplog.records if "emote icon" in r.getMessage()]
    assert len(warned) == 2, warned  # once per icon, at load, however often it shows
    assert "nod.png cannot be read" in warned[0] and "think.png cannot be read" in warned[1]
    n_pip, px, py = locate(img, own_colours("child"))
    assert n_pip >= 40, "Pip is drawn"
    cream, ink = bubble_pixels(img.crop((px, py - 60, px + 80, py)))
    assert cream > 100 and ink > 10, f"no label above Pip's head ({cream}, {ink})"
