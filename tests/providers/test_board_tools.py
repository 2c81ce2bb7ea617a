"""The blackboard's tools over the wire: a real Chat Completions server on 127.0.0.1 is
handed `read_board` and `post_to_board` with an NPC's other skills, calls them, and reads
back what the village's notice board holds; what it posts goes up on that board."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
from provider_kit import Reply, SSEServer, chat_chunk

from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.trigger import Trigger
from game.world.news import Heard, News
from tests.npc.conftest import Life

DONE = b"data: [DONE]\n\n"


def call(name: str, args: dict[str, object]) -> Reply:
    """A model's reply that calls one tool, its arguments streamed in two pieces."""
    head = {"index": 0, "id": f"call_{name}", "type": "function"}
    text = json.dumps(args)
    return Reply(
        body=[
            chat_chunk({"tool_calls": [{**head, "function": {"name": name, "arguments": ""}}]}),
            chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": text[:9]}}]}),
            chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": text[9:]}}]}),
            chat_chunk({}, "tool_calls"),
            DONE,
        ]
    )


def stop() -> Reply:
    return Reply(body=[chat_chunk({"content": ""}, "stop"), DONE])


async def test_a_model_reads_the_notice_board_and_posts_news_it_heard(
    server: SSEServer, tmp_path: Path
) -> None:
    server.replies = [
        call("read_board", {}),
        call("post_to_board", {"text": "Ana's silver ring is lost at the well.", "about": "ring"}),
        stop(),
    ]
    async with httpx.AsyncClient() as client:
        provider = OpenAIChatProvider(client, api_key=None, model="m", base_url=server.url + "/v1")
        life = Life(tmp_path, provider=provider)
        world = life.world
        board_id, tile = next(iter(world.notice_boards.items()))
        ring = News("n-ring", "lost", "player", "Ana", "a silver ring", "well", key="ring")
        world.news.add(ring)
        world.news.learn("tobin", Heard("n-ring", "player", "Ana", 0.0, "bakery", "told"))
        at = {"clock": world.clock, "hour": world.day.hour}
        mended = "Horseshoes mended by noon."
        world.board.post(board_id, "brenna", mended, author_name="Brenna", **at)
        lost = "Lost: a silver ring, at the well."
        world.board.post(board_id, "wren", lost, author_name="Wren", about="n-ring", **at)
        spot = world.grid.nearest_walkable(tile, free=lambda t: world.occupant(t) is None)
        assert spot is not None
        world.npcs["tobin"].place(spot)
        turn = asyncio.ensure_future(
            life.runtime.run_turn("test", "tobin", Trigger(kind="idle", text="A quiet moment."))
        )
        await life.run(until=turn.done)
        await life.close()

    first = server.requests[0].json()
    tools = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert {"read_board", "post_to_board"} <= set(tools)
    assert tools["post_to_board"]["parameters"]["required"] == ["text"]
    read = server.requests[1].json()["messages"][-1]
    assert read["role"] == "tool" and read["tool_call_id"] == "call_read_board"
    assert read["content"] == (
        "Notice board:\n#0 8:00 am, Brenna: Horseshoes mended by noon."
        "\n#1 8:00 am, Wren: Lost: a silver ring, at the well."
    )
    posted = server.requests[2].json()["messages"][-1]
    assert posted["content"] == "posted to the notice board as #2", posted
    post = world.board.read(board_id)[2]
    assert (post.author, post.author_name, post.about) == ("tobin", "Tobin", "n-ring")
    assert post.text == "Ana's silver ring is lost at the well."
