"""Continue resumes the latest save made on the map in play, not on another map."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from game.config import Settings
from game.save.format import PlayerState, SavedWorld
from game.save.slot_io import write_slot

from .conftest import ROOT, VILLAGE

TINY = ROOT / "maps" / "tiny.tmx"


def test_continue_resumes_the_latest_slot_on_the_map_in_play(tmp_path: Path) -> None:
    saved = (("v-old", "village", 1), ("t-new", "tiny", 3), ("v-new", "village", 2))
    for slot, map_id, when in saved:
        world = SavedWorld(map_id=map_id, player=PlayerState(tile=(2, 2)))
        assert write_slot(tmp_path, slot, world).ok
        meta = tmp_path / slot / "meta.json"
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "updated": when * 1000.0}))

    from game.ui.app import GameOptions, GameSession

    def latest(map_path: Path) -> str | None:
        options = GameOptions(map_path, Settings(provider="scripted"), tmp_path)
        window: Any = None  # the session reads no window to find the latest slot
        return GameSession(window, options).latest_slot()

    assert latest(VILLAGE) == "v-new"
    assert latest(TINY) == "t-new"
