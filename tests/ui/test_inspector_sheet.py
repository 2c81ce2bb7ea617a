"""F3 shows the inspected NPC's character sheet in a few short lines, as read from the
map: its persona, and the properties the map maker stated."""

from __future__ import annotations

import concurrent.futures
import json
from pathlib import Path

from game.agent.bus import DebugBus
from game.agent.monitor import Snapshot, TurnMonitor
from game.world.tiled import load_map
from game.world.world import World
from tests.world.crowd import prop

from .daymap import write_day_map


def snapshot(npc_id: str, with_context: bool) -> concurrent.futures.Future[Snapshot]:
    fut: concurrent.futures.Future[Snapshot] = concurrent.futures.Future()
    fut.set_result(Snapshot(npc_id, "scripted", "persona", "idle", 0, 1, 2, 3, ""))
    return fut


def test_the_inspector_shows_the_sheet(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from game.ui.inspector import Inspector

    path = write_day_map(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    npcs = next(layer for layer in data["layers"] if layer["name"] == "npcs")
    props = npcs["objects"][0]["properties"]
    persona = next(p for p in props if p["name"] == "persona")
    persona["value"] = (
        "Villager 0 is a gloomy lighthouse keeper who talks in short sentences. He swears he "
        "saw a sea serpent and is afraid of deep water."
    )
    props.append(prop("refuses", "credit; idle talk"))
    path.write_text(json.dumps(data), encoding="utf-8")
    inspector = Inspector(World(load_map(path)), TurnMonitor(DebugBus()), snapshot)
    inspector.toggle()

    _, body = inspector.text()
    assert "role      lighthouse keeper" in body
    assert "believes  I saw a sea serpent (certain)" in body
    assert "fears     deep water" in body
    assert "refuses   credit; idle talk" in body  # the map maker's, over the persona's
    assert "talks     few words, gloomy" in body
    assert body.index("activity") < body.index("role") < body.index("plan")
