"""Tools: a name, a description, a pydantic model for the arguments and an async handler.

The registry turns its tools into `ToolSpec`s (the arguments' JSON schema); each provider
puts those into its own wire shape.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from game.agent.providers.base import ToolSpec

__all__ = [
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "ToolResult",
    "tool_spec_from_model",
]

_NAME_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")

ArgsT = TypeVar("ArgsT", bound=BaseModel)


@dataclass
class ToolContext:
    """What a handler knows about the call: who, where, which turn, and the NPC's deps."""

    npc_id: str
    slot: str
    run_id: str
    call_id: str
    deps: Any = None
    # Everything of the `stream_field` argument already streamed while the model wrote it.
    streamed_text: str = ""


class ToolResult(BaseModel):
    """What a tool returns to the model; `is_error` marks a result it should correct."""

    content: str
    is_error: bool = False
    data: dict[str, str] | None = None  # what `content` says, as facts for planners


StreamCallback = Callable[[ToolContext, str], None]


class Tool(Generic[ArgsT]):
    """A callable skill: validated arguments in, `ToolResult` (or plain text) out."""

    def __init__(
        self,
        name: str,
        description: str,
        args_model: type[ArgsT],
        handler: Callable[[ToolContext, ArgsT], Awaitable[ToolResult | str]],
        *,
        timeout_s: float = 30.0,
        stream_field: str | None = None,
        on_stream: StreamCallback | None = None,
        parallel_safe: bool = False,
        speech: str | None = None,
        acts: bool = False,
    ) -> None:
        if _NAME_RE.fullmatch(name) is None:
            raise ValueError(f"invalid tool name {name!r}: it must match [a-zA-Z0-9_-]{{1,64}}")
        for what, field in (("stream_field", stream_field), ("speech", speech)):
            if field is not None and field not in args_model.model_fields:
                raise ValueError(f"tool {name!r}: {what} {field!r} is not an argument")
        self.name = name
        self.description = description
        self.args_model = args_model
        self.handler = handler
        self.timeout_s = timeout_s
        self.stream_field = stream_field
        self.on_stream = on_stream
        # Calls to tools that are all parallel-safe (read-only, order-independent) in one
        # response run concurrently; any other call runs alone, in the model's order.
        self.parallel_safe = parallel_safe
        # The argument said out loud (what the character said, for memory and history),
        # the streamed one if there is one; and whether a call does something in the world
        # worth remembering (a walk, a gesture).
        self.speech = speech if speech is not None else stream_field
        self.acts = acts
        self._spec: ToolSpec | None = None

    @property
    def spec(self) -> ToolSpec:
        """The tool as the model sees it (built once)."""
        if self._spec is None:
            spec = tool_spec_from_model(self.name, self.description, self.args_model)
            self._spec = spec.model_copy(update={"speech": self.speech})
        return self._spec

    def __repr__(self) -> str:
        return f"Tool({self.name!r})"


class ToolRegistry:
    """An ordered set of tools with unique names."""

    def __init__(self, tools: list[Tool[Any]] | None = None) -> None:
        self._tools: dict[str, Tool[Any]] = {}
        self._specs: list[ToolSpec] | None = None
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool[Any]) -> Tool[Any]:
        """Add a tool; a duplicate name raises ValueError naming it."""
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        self._specs = None
        return tool

    def get(self, name: str) -> Tool[Any] | None:
        """The tool called `name`, or None."""
        return self._tools.get(name)

    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def spoken(self) -> dict[str, str]:
        """The tools that speak, and the argument each says out loud."""
        return {name: tool.speech for name, tool in self._tools.items() if tool.speech}

    def acting(self) -> frozenset[str]:
        """The tools whose calls do something in the world worth remembering."""
        return frozenset(name for name, tool in self._tools.items() if tool.acts)

    def specs(self) -> list[ToolSpec]:
        """Every tool's spec, in registration order."""
        if self._specs is None:
            self._specs = [tool.spec for tool in self._tools.values()]
        return list(self._specs)


def tool_spec_from_model(name: str, description: str, args_model: type[BaseModel]) -> ToolSpec:
    """Build a `ToolSpec` whose parameters are the JSON schema of `args_model`."""
    schema = _strip_titles(args_model.model_json_schema())
    schema.pop("description", None)  # the args model's docstring: the tool has its own
    parameters: dict[str, Any] = {"type": "object", "properties": {}}
    parameters.update(schema)
    return ToolSpec(name=name, description=description, parameters=parameters)


_NAMED_SCHEMAS = ("properties", "$defs", "definitions", "patternProperties")
_DATA_KEYS = ("default", "examples", "const", "enum")


def _strip_titles(node: Any) -> Any:
    """Drop pydantic's generated `title`s (tokens the model does not need) from a schema."""
    if isinstance(node, list):
        return [_strip_titles(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _DATA_KEYS:
            out[key] = value  # literal data, not a schema
        elif key in _NAMED_SCHEMAS and isinstance(value, dict):
            # A mapping of names to schemas: a property may itself be called "title".
            out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
        else:
            out[key] = _strip_titles(value)
    return out
