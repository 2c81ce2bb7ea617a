"""F3 shows the inspected NPC's day (its plan, where it is due now, asleep or awake), its
feelings about others and the news it knows, with whom each piece came from."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

from game.agent.bus import DebugBus
from game.agent.monitor import Snapshot, TurnMonitor
from game.world.news import Heard, News
from game.world.tiled import load_map
from game.world.world import World

from .daymap import write_day_map


def snapshot(npc_id: str, with_context: bool) -> concurrent.futures.Future[Snapshot]:
    fut: concurrent.futures.Future[Snapshot] = concurrent.futures.Future()
    fut.set_result(Snapshot(npc_id, "scripted", "persona", "idle", 0, 1, 2, 3, ""))
    return fut


def test_the_inspector_shows_the_plan_feelings_and_news(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from game.ui.inspector import Inspector

    world = World(load_map(write_day_map(tmp_path)))
    npc = world.npcs["v0"]
    world.feelings.change("v0", "player", 0.3, "thanked you", name="Ada", clock=1.0)
    world.feelings.change("v0", "v9", -0.6, "shouted at me\x1b[2J", name="Bram", clock=2.0)
    news = world.news.add(
        News("n1", "lost", "player", "Ada", "a blue scarf", place="well", key="scarf")
    )
    world.news.learn("v0", Heard("n1", "v9", "Bram", 3.0, place="green", how="earshot"))
    inspector = Inspector(world, TurnMonitor(DebugBus()), snapshot)
    inspector.toggle()

    _, body = inspector.text()
    assert "plan      6:30 green, 21:00 sleep" in body
    assert "now       Day 1, 8:00 am: 6:30 green · awake" in body
    assert "Ada: warm +0.30 (thanked you)" in body
    assert "Bram: cross -0.60 (shouted at me[2J)" in body  # no control character
    assert body.index("Bram") < body.index("Ada")  # the strongest feeling first
    assert news.fact() in body and "Ada lost a blue scarf at the well" in body
    assert "from Bram (earshot)" in body

    world.day.set_hour(22)
    npc.asleep = True
    _, body = inspector.text()
    assert "now       Day 1, 10:00 pm: 21:00 sleep · asleep" in body


def test_an_npc_without_feelings_news_or_plan_says_little(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from game.ui.inspector import Inspector

    world = World(load_map(write_day_map(tmp_path)))
    world.plans.clear()
    inspector = Inspector(world, TurnMonitor(DebugBus()), snapshot)
    _, body = inspector.text()
    assert "no plan · awake" in body
    assert "feelings:" not in body and "news it knows:" not in body
