"""UI tests run the real arcade window offscreen (EGL); set up before arcade loads."""

from __future__ import annotations

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"


@pytest.fixture(scope="session")
def window() -> Iterator[object]:
    import arcade

    import game.ui  # noqa: F401  (headless fix-ups before arcade.gui)

    win = arcade.Window(1280, 720, "test", visible=False)
    yield win
    win.close()


def frames_until(view: object, done: Callable[[], bool], limit: int = 1200) -> int:
    """Run game frames (update + draw) until `done()`; return how many it took."""
    import time

    for frame in range(limit):
        if done():
            return frame
        view.on_update(1 / 60)  # type: ignore[attr-defined]
        view.on_draw()  # type: ignore[attr-defined]
        time.sleep(0)  # let the agent thread run between frames
    raise AssertionError(f"condition not reached within {limit} frames")
