"""Tools and the registry: unique names, and golden wire shapes of the tool list as each
provider sends it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from game.agent.providers import anthropic, openai_chat, openai_responses
from game.agent.providers.base import ToolSpec
from game.agent.tools import Tool, ToolContext, ToolRegistry

GOLDEN = Path(__file__).parent / "golden"


class MoveArgs(BaseModel):
    """Where to walk."""

    x: int = Field(description="Tile column.", ge=0)
    y: int = Field(description="Tile row.", ge=0)
    run: bool = False


class EmoteArgs(BaseModel):
    """Which emote."""

    kind: Literal["wave", "laugh", "shrug"]


class Item(BaseModel):
    """An item (a nested model, so the schema has $defs)."""

    name: str
    count: int = 1
    title: str | None = Field(default=None, description="A property named title is kept.")


class GiveArgs(BaseModel):
    """What to give to whom."""

    to: str
    item: Item


async def _noop(ctx: ToolContext, args: BaseModel) -> str:
    return "ok"


def sample_registry() -> ToolRegistry:
    """The tool list the golden files pin."""
    return ToolRegistry(
        [
            Tool("move", "Walk to a tile.", MoveArgs, _noop),
            Tool("emote", "Show an emotion.", EmoteArgs, _noop),
            Tool("give_item", "Give an item to someone.", GiveArgs, _noop),
        ]
    )


# How each provider puts the tools into its request body.
SHAPES = {
    "openai_responses": openai_responses._tools,
    "chat_completions": openai_chat._tools,
    "anthropic": anthropic._tools,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_wire_shapes_match_the_golden_files(shape: str) -> None:
    produced = SHAPES[shape](sample_registry().specs())
    path = GOLDEN / f"tools_{shape}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(produced, indent=2, sort_keys=True) + "\n")
    assert produced == json.loads(path.read_text()), f"regenerate with UPDATE_GOLDEN=1: {path}"


def test_schemas_drop_generated_titles_but_keep_a_title_property() -> None:
    spec = sample_registry().get("give_item")
    assert spec is not None
    text = json.dumps(spec.spec.parameters)
    assert '"title": "' not in text.replace('"title": {', "")
    assert "title" in spec.spec.parameters["$defs"]["Item"]["properties"]


def test_an_empty_model_still_has_an_object_schema() -> None:
    class NoArgs(BaseModel):
        pass

    spec = Tool("wait", "Wait a moment.", NoArgs, _noop).spec
    assert spec == ToolSpec(
        name="wait", description="Wait a moment.", parameters={"type": "object", "properties": {}}
    )


def test_duplicate_names_are_refused_by_name() -> None:
    registry = sample_registry()
    with pytest.raises(ValueError, match="'move'"):
        registry.register(Tool("move", "Again.", MoveArgs, _noop))
    assert registry.names() == ["move", "emote", "give_item"]
    assert len(registry.specs()) == 3


def test_bad_tool_definitions_are_refused() -> None:
    with pytest.raises(ValueError, match="invalid tool name"):
        Tool("has space", "x", MoveArgs, _noop)
    with pytest.raises(ValueError, match="stream_field"):
        Tool("move", "x", MoveArgs, _noop, stream_field="nope")


def test_get_and_contains() -> None:
    registry = sample_registry()
    assert registry.get("emote") is not None
    assert registry.get("fly") is None
    assert "move" in registry and "fly" not in registry
