"""`chat` and the window give an NPC the same senses on one slot: the news it heard and
from whom, its feelings, the time of day. News told in the window is answered through
`chat`, and news told through `chat` is in the window's world on the next load."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from game.config import Settings
from game.npc.scripted.moods import CHEERFUL
from game.npc.scripted.persona import PersonaProvider
from game.save.slot_io import read_slot
from game.village import Village
from game.world.clock import DayClock
from game.world.entities import PLAYER_ID

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
FRAME_S = 0.1  # the longest frame the window steps (a slow machine's): game time goes fast
WALL_LIMIT_S = 30.0  # a village that does not get there is a failure, not a hang


def chat(saves: Path, npc: str, message: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "chat", npc, message,
         "--provider", "scripted", "--saves-dir", str(saves), "--slot", "s"],
        capture_output=True, text=True, timeout=60, cwd=saves,
    )  # fmt: skip


def said(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def open_village(saves: Path) -> Village:
    """The village as the window builds it (no window), on slot "s", idle ticks off."""
    return Village.open(
        VILLAGE,
        slot="s",
        saves_dir=saves,
        settings=Settings(provider="scripted", idle_chatter=False),
        provider=PersonaProvider(delay_s=0),
    )


def play(village: Village, until: Callable[[], bool]) -> None:
    """Frames of the game thread, as the window runs them, until `until()`; after each
    the agent loop pumps the mailbox and takes a few turns (so game time never runs
    ahead of the NPCs' thinking, as it would not beside a window drawing frames)."""

    async def agent_side() -> None:
        village.mailbox.pump()
        for _ in range(4):
            await asyncio.sleep(0)

    deadline = time.monotonic() + WALL_LIMIT_S
    while not until():
        assert time.monotonic() < deadline, "the village never got there"
        village.world.step(FRAME_S)
        village.brain.update(FRAME_S)
        village.brain.spare_time(0.0)
        village.thread.submit(agent_side()).result(timeout=WALL_LIMIT_S)


def news_of(village: Village, npc_id: str, key: str) -> tuple[str, str] | None:
    """(source, how) of the news with key word `key` the NPC knows, if it does."""
    for news, heard in village.world.news.known_by(npc_id):
        if news.key == key:
            return heard.source, heard.how
    return None


def test_news_told_in_the_window_is_answered_through_chat(tmp_path: Path) -> None:
    village = open_village(tmp_path)
    try:
        world = village.world
        village.brain.life.plans = False  # who meets whom is the test's to say
        world.stand_by(world.npcs["cassius"], "wren")  # out of earshot: Pip alone hears it
        world.stand_player_by("pip")
        village.brain.player_talks("pip", "My name is Ada and I lost my ring at the well")
        play(village, lambda: news_of(village, "pip", "ring") == (PLAYER_ID, "told"))
        # The player walks off; Maren comes by Pip, and the day has Pip pass it on.
        world.player.place(world.map.player_spawn)
        world.stand_by(world.npcs["maren"], "pip")
        play(village, lambda: news_of(village, "maren", "ring") is not None)
        assert news_of(village, "maren", "ring") == ("pip", "told")
    finally:
        village.close()  # saves on quit, as the window does

    answer = said(chat(tmp_path, "pip", "Any news?"))
    assert "you told me you lost a ring at the well" in answer.lower(), answer
    answer = said(chat(tmp_path, "maren", "Any news?"))
    assert "Pip told me you lost a ring at the well" in answer, answer  # to the player: "you"


def test_news_and_feelings_told_through_chat_are_in_the_windows_world(tmp_path: Path) -> None:
    # A played slot: the window saved it with the player at the plaza.
    village = open_village(tmp_path)
    village.close()
    before = read_slot(tmp_path, "s").world
    assert before is not None

    answer = said(chat(tmp_path, "tobin", "Thank you, Tobin! I lost my ring at the well."))
    assert "ring" in answer, answer

    after = read_slot(tmp_path, "s").world
    assert after is not None and after.clock > before.clock  # the talk took game time
    assert (after.player, after.npcs) == (before.player, before.npcs)  # nobody was moved
    village = open_village(tmp_path)
    try:
        assert news_of(village, "tobin", "ring") == (PLAYER_ID, "told")
        feeling = village.world.feelings.about("tobin", PLAYER_ID)
        assert feeling is not None and feeling.value > 0 and feeling.reason == "thanked you"
    finally:
        village.close()
    # The next chat senses what the last one told, and so does the window after it.
    answer = said(chat(tmp_path, "tobin", "Any news?"))
    assert "You told me you lost a ring at the well." in answer, answer


def test_chat_keeps_the_slots_time_of_day_and_who_sleeps(tmp_path: Path) -> None:
    village = open_village(tmp_path)
    try:
        village.world.day.set_hour(21.5)  # Tobin sleeps in his bakery from 8 pm
        tobin = village.world.npcs["tobin"]
        play(village, lambda: tobin.asleep)
    finally:
        village.close()

    answer = said(chat(tmp_path, "tobin", "Where is the well?"))
    assert any(answer.startswith(grumble) for grumble in CHEERFUL.grumbles), answer
    assert "well" in answer.lower()
    saved = read_slot(tmp_path, "s").world
    assert saved is not None
    assert 21.5 <= DayClock(minutes=saved.time_minutes).hour < 21.6  # a few minutes on
    # Cassius keeps his stall until 10 pm: awake, he answers without a grumble.
    answer = said(chat(tmp_path, "cassius", "Where is the well?"))
    assert not any(answer.startswith(grumble) for grumble in CHEERFUL.grumbles), answer


def test_a_talk_chat_cannot_save_is_one_line_and_the_turn_is_kept(tmp_path: Path) -> None:
    # In the way of the save: a folder where news.json goes, and where it would be set aside.
    (tmp_path / "s" / "news.json").mkdir(parents=True)
    (tmp_path / "s" / "news.json.damaged" / "full").mkdir(parents=True)
    out = chat(tmp_path, "tobin", "I lost my ring at the well.")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith(("error", "ERROR"))]
    assert len(errors) == 1 and errors[0].startswith("error: what the talk changed was not kept")
    assert "ring" in out.stdout  # the reply came, and its log is in the slot
    assert (tmp_path / "s" / "npcs" / "tobin" / "session" / "events.jsonl").stat().st_size > 0
