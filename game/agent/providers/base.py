"""The provider protocol: one request shape in, one stream of typed events out.

Every wire format (OpenAI Responses, Chat Completions, Anthropic Messages, the local
llama.cpp model, the scripted brain) turns a `ProviderRequest` into an async stream of
`ProviderEvent`s. The agent loop never sees a wire format.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Sequence
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, Field, SerializeAsAny

from game.agent.facts import NpcFacts, TriggerFacts
from game.agent.providers.registry import Capabilities
from game.safe_json import load_json

# --- request ---------------------------------------------------------------------------


def parse_arguments(text: str) -> dict[str, Any]:
    """Tool-call arguments as an object ({} when they do not parse as one)."""
    try:
        value = load_json(text or "{}")
    except ValueError:  # not JSON, or nested too deep
        return {}
    return value if isinstance(value, dict) else {}


class ToolCall(BaseModel):
    """A tool call the model made: `arguments` is the raw JSON text it produced."""

    id: str
    name: str
    arguments: str = "{}"

    def parsed(self) -> dict[str, Any]:
        """The arguments as an object ({} when they do not parse as one)."""
        return parse_arguments(self.arguments)


class Message(BaseModel):
    """One provider-neutral chat message rebuilt from the session log.

    - `user`: player text or a world observation (`content`).
    - `assistant`: optional `content` text and zero or more `tool_calls`.
    - `tool`: the result of the call `tool_call_id` (`content`, `is_error`).
    """

    role: Literal["user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    data: dict[str, str] | None = None  # a tool result as facts, for providers that plan
    # A user message's trigger as facts (kind, who spoke, what was said; no perception),
    # so a provider that plans can read the whole conversation without parsing prose.
    trigger: TriggerFacts | None = None


class ToolSpec(BaseModel):
    """A tool as the model sees it: name, description, JSON schema of its arguments (and,
    for the providers that write examples, the argument it says out loud, if any)."""

    name: str
    description: str
    parameters: dict[str, Any]
    speech: str | None = None


class RequestOptions(BaseModel):
    """Per-call plumbing: how one call is run and accounted for, never what it says."""

    priority: int = 0  # the local model orders its queue by it (higher first)
    step: int | None = None  # the step of the turn (1, 2, ...)
    run_id: str | None = None  # the turn's run
    estimated_input_tokens: int = 0  # metered when the provider reports no usage
    stop: list[str] | None = None  # plain-text stop strings (None: the provider's own)
    # "none": plain text even with tools; "required"/"auto": never/always allow ending the
    # turn without a call (None: after a tool result only). Read by the local model.
    tool_choice: Literal["auto", "required", "none"] | None = None
    purpose: Literal["turn", "summary"] = "turn"
    prime: bool = False  # read the NPC's context ahead of its turn, answer nothing


class ProviderRequest(BaseModel):
    """Everything a provider needs for one model call."""

    system: str
    messages: list[Message]
    tools: list[ToolSpec] = Field(default_factory=list)
    model: str | None = None
    max_output_tokens: int = 256
    temperature: float = 0.7
    # Who asks and why, as typed facts (see `game.agent.facts`): the providers that plan
    # read them; the others read the prose above. None on a hand-made request. Shared
    # with the builder's cache and the log's events, like `messages`: read-only.
    npc: SerializeAsAny[NpcFacts] | None = None  # a game's subclass: written whole
    trigger: TriggerFacts | None = None
    options: RequestOptions = Field(default_factory=RequestOptions)

    @property
    def npc_id(self) -> str | None:
        """The id of the NPC asking, if the request says (the local model keys its KV
        states by it)."""
        return self.npc.npc_id if self.npc is not None else None


# --- events ----------------------------------------------------------------------------


class TextDelta(BaseModel):
    """A piece of the assistant's visible text."""

    type: Literal["text_delta"] = "text_delta"
    text: str


class ToolCallStart(BaseModel):
    """The model began a tool call at position `index` of this response."""

    type: Literal["tool_call_start"] = "tool_call_start"
    index: int
    id: str
    name: str


class ToolCallArgsDelta(BaseModel):
    """A fragment of the JSON arguments of the tool call at `index`."""

    type: Literal["tool_call_args_delta"] = "tool_call_args_delta"
    index: int
    delta: str


class ToolCallDone(BaseModel):
    """The tool call at `index` is complete; `arguments` is the whole JSON text."""

    type: Literal["tool_call_done"] = "tool_call_done"
    index: int
    id: str
    name: str
    arguments: str


class Usage(BaseModel):
    """Token counts reported by the provider (or estimated by it)."""

    type: Literal["usage"] = "usage"
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0


class Done(BaseModel):
    """The response finished normally."""

    type: Literal["done"] = "done"
    stop_reason: str = "stop"


ErrorKind = Literal[
    "auth",
    "rate_limited",
    "timeout",
    "context_overflow",
    "http",
    "transport",
    "parse",
    "tool",
    "crash",
]


class ProviderError(BaseModel):
    """The response failed; the stream ends after this event."""

    type: Literal["provider_error"] = "provider_error"
    kind: ErrorKind
    message: str
    retry_after: float | None = None
    status: int | None = None


ProviderEvent = Annotated[
    TextDelta | ToolCallStart | ToolCallArgsDelta | ToolCallDone | Usage | Done | ProviderError,
    Field(discriminator="type"),
]


class ProviderStream(Protocol):
    """What `stream()` returns: an async iterator of events that can be closed early (an
    async generator is one)."""

    def __aiter__(self) -> AsyncIterator[ProviderEvent]: ...

    def __anext__(self) -> Awaitable[ProviderEvent]: ...

    def aclose(self) -> Awaitable[None]: ...


class RequestTime(Protocol):
    """A provider's record of one request it served: `stats` lists them."""

    total_s: float  # from submission to the end, in seconds


class Provider(ABC):
    """Anything that streams a model's answer to a request.

    What only some providers do has a default here that does nothing, and `capabilities`
    says which of it a provider really does: callers read those, never probe.
    """

    name: str
    model: str
    capabilities: Capabilities = Capabilities()

    @abstractmethod
    def stream(self, request: ProviderRequest) -> ProviderStream:
        """Stream the answer as typed events, ending with `Done` or `ProviderError`."""

    async def aclose(self) -> None:
        """Release clients, threads or models the provider holds (none by default)."""
        return None

    def prime(self, request: ProviderRequest) -> None:
        """Read an NPC's context ahead of its turn (`capabilities.can_prime`; else nothing)."""
        return None

    async def primed(self) -> None:
        """Wait until what `prime` was asked has been read (at once by default)."""
        return None

    async def load(self) -> ProviderError | None:
        """Prepare the model now (`capabilities.needs_loading`); the error, if it failed."""
        return None

    @property
    def notice(self) -> str | None:
        """One line for the screen about the provider's trouble, else None."""
        return None

    def crash_line(self) -> str | None:
        """One line about crashes a player would have seen, else None."""
        return None

    def settings_report(self) -> str | None:
        """Which settings the model runs with and why, when it has such a choice."""
        return None

    @property
    def stats(self) -> Sequence[RequestTime] | None:
        """The recent requests it served, newest last, when it keeps them."""
        return None
