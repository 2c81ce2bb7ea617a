"""`read_board` and `post_to_board`, called by a model through the agent runtime, on the
real village map: where a board can be used, news heard from a post's author, and a post
that can carry only news its author heard."""

from __future__ import annotations

from pathlib import Path

from game.agent.providers.fake import FakeProvider
from game.npc.skills import SKILLS, build_registry
from game.world.board import PUBLIC
from game.world.news import Heard
from tests.npc.conftest import Life
from tests.npc.test_skills import act
from tests.npc.test_village_day import ring


def knowing_the_ring(tmp: Path, npc_id: str, place: str, shares_with: str) -> tuple[Life, str]:
    """A village where `npc_id` was told of the ring at `place`, and shares a board with
    `shares_with`; the life and that board's id."""
    life = Life(tmp, provider=FakeProvider())
    life.world.news.add(ring())
    life.world.news.learn(npc_id, Heard("n-ring", "player", "Ana", 0.0, place, "told"))
    return life, life.world.board.ensure_board([npc_id, shares_with])


def by_the_board(life: Life, npc_id: str) -> str:
    """Stand an NPC beside the notice board; the board's id."""
    world = life.world
    board_id, tile = next(iter(world.notice_boards.items()))
    spot = world.grid.nearest_walkable(tile, free=lambda t: world.occupant(t) is None)
    assert spot is not None
    world.npcs[npc_id].place(spot)
    return board_id


def test_the_board_skills_are_tools_the_play_script_does_not_offer() -> None:
    specs = {spec.name: spec for spec in build_registry().specs()}
    assert {"read_board", "post_to_board"} <= set(specs)
    assert set(specs["post_to_board"].parameters["properties"]) == {"text", "board", "about"}
    assert specs["post_to_board"].parameters["required"] == ["text"]
    assert SKILLS["read_board"].offers is None and SKILLS["post_to_board"].offers is None


async def test_a_notice_board_is_read_only_within_reach(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    board_id, tile = next(iter(world.notice_boards.items()))
    world.board.post(board_id, "brenna", "The forge is open late on Fridays.", author_name="Brenna")
    far = await act(life, "wren", "read_board", {})
    assert far.is_error
    assert f"the notice board stands at {tile}" in far.content and "walk within 3" in far.content
    by_the_board(life, "wren")
    near = await act(life, "wren", "read_board", {"board": "the notice board"})
    assert not near.is_error, near.content
    assert near.content.startswith("Notice board:\n#0 ")
    assert "Brenna: The forge is open late on Fridays." in near.content
    # From an index on: nothing new, said plainly.
    again = await act(life, "wren", "read_board", {"since": 1})
    assert again.content == "Notice board: nothing new since post #1; 1 posts in all."
    await life.close()


async def test_a_long_board_is_read_a_page_at_a_time(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    board_id = by_the_board(life, "pip")
    for i in range(9):
        world.board.post(board_id, "maren", f"Notice number {i}.", author_name="Elder Maren")
    first = await act(life, "pip", "read_board", {})
    assert "Notice number 5." in first.content and "Notice number 6." not in first.content
    assert first.content.endswith("3 more: read again with since=6.")
    rest = await act(life, "pip", "read_board", {"since": 6})
    assert "Notice number 8." in rest.content and "more:" not in rest.content
    await life.close()


async def test_news_posted_by_a_model_is_heard_from_its_poster(tmp_path: Path) -> None:
    life, pair = knowing_the_ring(tmp_path, "wren", "dock", "tobin")  # shared: used anywhere
    world = life.world
    posted = await act(
        life, "wren", "post_to_board",
        {"text": "Ana lost a silver ring by the well.", "about": "ring"},
    )  # fmt: skip
    assert not posted.is_error, posted.content
    post = world.board.read(pair)[-1]
    assert (post.author, post.about, post.text) == (
        "wren", "n-ring", "Ana lost a silver ring by the well."
    )  # fmt: skip
    assert world.news.knows("tobin", "n-ring") is None
    read = await act(life, "tobin", "read_board", {})
    assert "Wren: Ana lost a silver ring by the well." in read.content
    heard = world.news.knows("tobin", "n-ring")
    assert heard is not None and (heard.source, heard.how) == ("wren", "board")
    assert world.news.passes[-1].to == "tobin" and world.news.passes[-1].how == "board"
    # Pip shares no board with them: it is not open to him.
    closed = await act(life, "pip", "read_board", {"board": pair})
    assert closed.is_error and closed.content == (
        f"no board called {pair!r} is open to you; your boards: notice board"
    )
    await life.close()


async def test_a_post_cannot_carry_news_its_author_never_heard(tmp_path: Path) -> None:
    life, pair = knowing_the_ring(tmp_path, "maren", "garden", "pip")
    world = life.world
    wolf = await act(
        life, "maren", "post_to_board", {"text": "A wolf was seen by the mill!", "about": "wolf"}
    )
    assert wolf.is_error
    assert wolf.content == "you have heard no news about 'wolf'; you have heard: ring"
    unsaid = await act(
        life, "maren", "post_to_board", {"text": "Something was lost.", "about": "ring"}
    )
    assert unsaid.is_error and "must say 'ring'" in unsaid.content
    assert not world.board.read(pair)
    # A plain note goes up, carrying no news: nobody learns anything from it.
    note = await act(life, "maren", "post_to_board", {"text": "A wolf was seen by the mill!"})
    assert note.content == "posted to the board shared with Pip as #0"
    assert world.board.read(pair)[0].about == ""
    news_before = dict(world.news.news)
    read = await act(life, "pip", "read_board", {"board": "the board shared with Elder Maren"})
    assert read.content.startswith("Board shared with Elder Maren:\n#0 ")
    assert "Elder Maren: A wolf was seen by the mill!" in read.content
    assert world.news.news == news_before and not world.news.known_by("pip")
    await life.close()


async def test_a_board_no_one_stands_by_is_named_with_where_it_is(tmp_path: Path) -> None:
    life = Life(tmp_path, provider=FakeProvider())
    world = life.world
    assert world.board.my_boards("tobin") == [next(iter(world.notice_boards))]
    result = await act(life, "tobin", "post_to_board", {"text": "Fresh bread!", "board": "mill"})
    assert result.is_error
    assert result.content == "no board called 'mill' is open to you; your boards: notice board"
    assert PUBLIC in world.board.board(next(iter(world.notice_boards))).participants
    await life.close()
