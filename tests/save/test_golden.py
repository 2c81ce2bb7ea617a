"""The golden slot in saves/golden must always load: a format change cannot break it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from game.agent.providers.fake import FakeProvider, reply
from game.save.format import FORMAT_VERSION
from game.save.layout import slot_files
from game.save.slot_io import read_slot
from game.save.thumbnail import png_size
from game.village import Village

from .conftest import GOLDEN, on_agents, talk


def test_the_golden_slot_reads_clean() -> None:
    data = read_slot(GOLDEN.parent, "golden")
    assert data.exists and not data.warnings and not data.from_backup
    assert data.meta.format <= FORMAT_VERSION and data.meta.map_id == "village"
    assert data.migrated_from is None  # golden/ is the current format; older ones: data/
    assert data.world is not None and data.world.sessions == {"brenna": 4, "tobin": 8}
    assert data.world.time_minutes == 780.0  # 9 pm
    life = data.life
    assert {n.kind: n.subject for n in life.news.news.values()} == {
        "name": "Ada",
        "lost": "a red key",
    }
    assert set(life.news.known) == {"brenna", "tobin"} and len(life.news.passes) == 4
    assert set(life.boards) == {"notice_board", "b-114374369ce5"}
    assert life.boards["b-114374369ce5"].participants == {"brenna", "tobin"}
    assert life.feelings["tobin"]["player"].value == 0.3
    assert png_size((GOLDEN / "thumbnail.png").read_bytes()) == (256, 144)
    assert sorted(slot_files(GOLDEN)) == sorted(
        p.relative_to(GOLDEN).as_posix() for p in GOLDEN.rglob("*") if p.is_file()
    )


def test_the_golden_slot_plays_on(open_village: Callable[..., Village], saves: Path) -> None:
    shutil.copytree(GOLDEN, saves / "golden")
    provider = FakeProvider([reply("You are Ada, and the rye was warm.")])
    village = open_village("golden", provider)
    world = village.world
    assert world.player.tile == (12, 16) and world.player.facing == "left"
    assert world.npcs["tobin"].tile == (10, 15) and world.npcs["tobin"].facing == "right"
    assert world.npcs["brenna"].tile == (9, 24) and world.npcs["brenna"].facing == "up"
    assert world.clock == 754.25
    assert world.day.hour == 21.0 and world.day.text() == "Day 1, 9:00 pm"
    tobin_knows = world.news.known_by("tobin")
    assert [(n.kind, h.source, h.how, h.place) for n, h in tobin_knows] == [
        ("lost", "brenna", "board", "plaza"),
        ("name", "player", "told", "bakery"),
    ]
    assert "Ada lost a red key at the well" in [n.fact() for n, _ in tobin_knows]
    assert [n.subject for n in world.news.untold("tobin", "brenna")] == []
    notice = world.board.read("notice_board")
    assert [p.author for p in notice] == ["brenna"] and "red key" in notice[0].text
    assert world.board.my_boards("tobin") == ["notice_board", "b-114374369ce5"]
    assert world.feelings.about("brenna", "tobin").reason == "shared news"  # type: ignore[union-attr]

    brenna = on_agents(village, lambda: village.runtime.build_request("golden", "brenna"))
    contents = [m.content for m in brenna.messages]  # type: ignore[attr-defined]
    assert any("Have you seen a red key?" in c for c in contents)
    assert "The red key? Aye, I saw it by the well this morning." in "\n".join(contents)
    assert "the spring flood" in brenna.system  # type: ignore[attr-defined]

    talk(village, "tobin", "Do you remember my name?")
    request = provider.calls[0]
    text = "\n".join(m.content for m in request.messages)
    assert "Hello! My name is Ada." in text
    calls = [c for m in request.messages for c in m.tool_calls]
    assert calls and "Welcome to Hollowbrook" in calls[0].arguments
    assert "liked the rye" in request.system and "the spring flood" in request.system
    # Playing on appends to the old log: nothing before is rewritten.
    log = (saves / "golden" / "npcs" / "tobin" / "session" / "events.jsonl").read_text()
    assert log.startswith((GOLDEN / "npcs" / "tobin" / "session" / "events.jsonl").read_text())
    assert '"seq":9,' in log
