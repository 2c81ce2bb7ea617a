"""A map whose merchant has a megabyte of persona, greeting and wares plays headless as a
player would (`run_game.py --headless ... --map`): each text is cut at its bound with one
warning line, the wares reach the notice board, and the save on quit writes the village's
news, which loads again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.agent.store import SessionStore
from game.limits import MAX_EVENT_BYTES, NPC_TEXT_CHARS
from game.save.slot_io import read_slot

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
MB = 1024 * 1024


def _map(folder: Path) -> Path:
    """tiny.tmx with a notice board beside Tobin, whose texts are a megabyte each."""
    text = (MAPS / "tiny.tmx").read_text().replace("../assets", str(ROOT / "assets"))
    persona = "Tobin bakes. " * (MB // 13)
    greeting = "Hello! " * (MB // 7)
    wares = "warm rolls and " * (MB // 15) + "honey"
    old_persona = "Tobin is a cheerful baker who loves to chat. He always has bread to share."
    text = text.replace(f'value="{old_persona}"', f'value="{persona}"')
    text = text.replace("Hello there! Fancy a warm roll?", greeting)
    text = text.replace(
        '<property name="home"', f'<property name="wares" value="{wares}"/><property name="home"'
    )
    board = '<object id="20" name="board" type="board" x="208" y="176"><point/></object>'
    text = text.replace(
        '</objectgroup>\n <objectgroup id="5"', f'{board}</objectgroup>\n <objectgroup id="5"'
    )
    assert text.count(persona) == text.count(greeting) == text.count(wares) == 1
    path = folder / "bigtext.tmx"
    path.write_text(text)
    return path


def test_a_merchant_with_a_megabyte_of_text_plays_and_saves_the_news(tmp_path: Path) -> None:
    path = _map(tmp_path)
    saves = tmp_path / "saves"
    command = [
        sys.executable, str(ROOT / "run_game.py"), "--headless", "--frames", "120",
        "--provider", "scripted", "--map", str(path), "--saves-dir", str(saves), "--hour", "12",
    ]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stderr.splitlines()
    assert "Traceback" not in out.stderr and max(len(line) for line in lines) < 400
    for prop in ("persona", "greeting", "wares"):
        cut = [line for line in lines if f"its {prop} has" in line]
        assert len(cut) == 1 and f"only the first {NPC_TEXT_CHARS[prop]:,} are kept" in cut[0]
    assert not [line for line in lines if "not saved" in line or "skipping" in line], lines

    slot = saves / "bigtext"
    news = json.loads((slot / "news.json").read_text())
    [item] = news["news"].values()
    assert item["kind"] == "wares" and item["subject"].startswith("warm rolls and warm")
    assert len(item["subject"]) <= NPC_TEXT_CHARS["wares"]
    board = json.loads((slot / "board.json").read_text())
    assert any(
        "wares this week" in post["text"] for b in board["boards"].values() for post in b["posts"]
    )
    data = read_slot(saves, "bigtext")
    assert data.warnings == [] and data.world is not None
    assert [n.subject for n in data.life.news.news.values()] == [item["subject"]]
    events = SessionStore(saves, "bigtext").read("tobin")
    log = (slot / "npcs" / "tobin" / "session" / "events.jsonl").read_bytes()
    assert max(len(line) for line in log.splitlines()) < MAX_EVENT_BYTES // 100
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
