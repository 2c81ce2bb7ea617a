"""`read_board` and `post_to_board`: the blackboard as tools, for models that call tools.

A notice board is used within a few tiles of it; a board shared by a few villagers from
anywhere. Reading a post about news is hearing it from the poster. A post carries news
only when `about` names a piece the NPC has heard (and the post says its key word): a
model can phrase news on a board, never make it up. The bundled model's play script does
not offer these (it has no `offers`): its NPCs use the notice board as they pass it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from game.agent.tools import ToolContext, ToolResult
from game.npc.skills.base import Skill, do
from game.world.board import MAX_TEXT
from game.world.commands import PostToBoard, ReadBoard

BOARD = "A board's name (optional; the notice board in reach if left out)."


class ReadBoardArgs(BaseModel):
    """Read a board."""

    board: str = Field("", max_length=60, description=BOARD)
    since: int = Field(0, ge=0, description="Read from this post number on (default 0).")


class PostToBoardArgs(BaseModel):
    """Post a note to a board."""

    text: str = Field(..., min_length=1, max_length=MAX_TEXT, description="The note.")
    board: str = Field("", max_length=60, description=BOARD)
    about: str = Field(
        "",
        max_length=60,
        description="A word naming news you heard that the note passes on (optional).",
    )


async def read_board(ctx: ToolContext, args: ReadBoardArgs) -> ToolResult:
    """The board's posts from `since` on; news in them is heard from the posters."""
    return await do(ctx, ReadBoard(ctx.npc_id, args.board, args.since))


async def post_to_board(ctx: ToolContext, args: PostToBoardArgs) -> ToolResult:
    """Post the note; with `about`, it passes on that piece of news."""
    return await do(ctx, PostToBoard(ctx.npc_id, args.text, args.board, args.about))


READ = Skill(
    "read_board",
    "Read a notice board you stand by (or a board you share): its posts, who wrote them, "
    "when. News in a post is news heard from whoever posted it.",
    lambda: ReadBoardArgs,
    read_board,
    timeout_s=5.0,
    does=lambda args: "reads the board",
)

POST = Skill(
    "post_to_board",
    "Post a short note to a notice board you stand by (or a board you share). To pass on "
    "news you heard, name it in `about` and say it in the note.",
    lambda: PostToBoardArgs,
    post_to_board,
    timeout_s=5.0,
    does=lambda args: "posts a note on the board",
    acts=True,
)
