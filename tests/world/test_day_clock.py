"""The time of day, the blackboard, news and feelings as world data."""

from __future__ import annotations

import pytest

from game.world.board import PUBLIC, Blackboard, BoardError
from game.world.clock import DayClock, clock_text, darkness, lamps_lit, part_of_day
from game.world.feelings import Feelings, word_for
from game.world.news import Heard, News, NewsBook
from game.world.tiled import load_map
from game.world.world import World
from tests.npc.conftest import VILLAGE


def test_clock_zero_is_eight_in_the_morning_and_a_day_lasts_its_minutes() -> None:
    clock = DayClock(day_s=24 * 60)
    assert clock.hour == 8.0 and clock.day == 1 and clock.text() == "Day 1, 8:00 am"
    clock.advance(60 * 13.5)  # 13.5 real minutes: 13.5 game hours
    assert clock.text() == "Day 1, 9:30 pm"
    clock.advance(60 * 10.5)
    assert clock.day == 2 and clock.hour == pytest.approx(8.0)
    assert clock_text(0.0) == "12:00 am" and clock_text(12.25) == "12:15 pm"


def test_the_world_clock_moves_the_time_of_day() -> None:
    world = World(load_map(VILLAGE), day_s=120.0)
    for _ in range(60 * 30):  # 30 s of a 2-minute day: 6 game hours
        world.step(1 / 60)
    assert world.day.hour == pytest.approx(14.0, abs=0.01)
    world.day.set_hour(21)
    assert world.day.hour == pytest.approx(21.0) and world.day.day == 1


def test_light_by_the_hour() -> None:
    assert darkness(12) == 0 and darkness(23) == 1 and 0 < darkness(20) < 1
    assert lamps_lit(21) and lamps_lit(3) and not lamps_lit(12)
    assert part_of_day(20.5) == "evening" and part_of_day(12.5) == "midday"


def test_the_blackboard_api() -> None:
    board = Blackboard()
    pair = board.ensure_board(["tobin", "wren"])
    assert board.ensure_board(["wren", "tobin"]) == pair  # the same participants, one board
    first = board.post(pair, "tobin", "Bread at dawn", author_name="Tobin", about="n-1", hour=6)
    board.post(pair, "wren", "Fish at noon")
    assert [p.text for p in board.read(pair)] == ["Bread at dawn", "Fish at noon"]
    assert [p.index for p in board.read(pair, since_index=1)] == [1]
    assert first.author == "tobin" and first.about == "n-1" and first.hour == 6
    assert board.my_boards("wren") == [pair] and board.my_boards("pip") == []
    with pytest.raises(BoardError):
        board.post(pair, "pip", "let me in")
    notice = board.ensure_board([PUBLIC], board_id="notice_board")
    assert set(board.my_boards("pip")) == {notice}
    with pytest.raises(BoardError):
        board.read("nowhere")


def test_news_keeps_its_first_source_and_every_pass() -> None:
    book = NewsBook()
    news = book.add(News("n1", "lost", "player", "Ana", "a ring", "well", key="ring"))
    assert book.learn("tobin", Heard("n1", "player", "Ana", 1.0, "bakery", "told"), 9.0)
    assert not book.learn("tobin", Heard("n1", "wren", "Wren", 2.0, "plaza", "earshot"))
    assert book.learn("wren", Heard("n1", "tobin", "Tobin", 3.0, "plaza", "told"), 12.0)
    assert not book.learn("wren", Heard("nope", "tobin", "Tobin", 3.0))  # no such news
    assert [(p.source, p.to, p.how) for p in book.passes] == [
        ("player", "tobin", "told"),
        ("tobin", "wren", "told"),
    ]
    assert book.untold("tobin", "wren") == []  # wren knows it already
    assert book.untold("tobin", "pip") == [news]
    book.mark_told("tobin", "pip", "n1")
    assert book.untold("tobin", "pip") == []


def test_feelings_move_within_bounds() -> None:
    feelings = Feelings()
    for _ in range(10):
        feelings.change("tobin", "player", 0.15, "thanked you", name="Ana", clock=1.0)
    feeling = feelings.about("tobin", "player")
    assert feeling is not None and feeling.value == 1.0 and word_for(feeling.value) == "fond"
    feelings.change("brenna", "player", -0.3, "insulted you", clock=2.0)
    assert word_for(feelings.of["brenna"]["player"].value) == "wary"
