"""Anthropic Messages API over SSE (`POST {base_url}/v1/messages`, `stream: true`).

Request: headers `x-api-key` and `anthropic-version: 2023-06-01`; the system prompt as the
top-level `system`; `max_tokens` (required); tools as `{"name", "description",
"input_schema"}`. Messages must alternate user/assistant, so consecutive same-role messages
are merged; tool results become user `tool_result` blocks (placed first in their message, as
the API requires) and assistant tool calls `tool_use` blocks; empty text blocks are dropped
and a conversation that starts with the assistant gets a short user opener.

Stream: `message_start` (input and cache-read tokens), `content_block_start` (text or
`tool_use` with id and name), `content_block_delta` (`text_delta` / `input_json_delta`),
`content_block_stop`, `message_delta` (stop_reason, output tokens), `message_stop`,
`error`; `ping` and unknown events are ignored. Stop reasons map to the provider-neutral
ones: end_turn/stop_sequence -> "stop", tool_use -> "tool_calls", max_tokens -> "length".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from game.agent.providers.base import (
    Done,
    Message,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    ToolSpec,
    Usage,
)
from game.agent.providers.errors import (
    ParseFailure,
    TransportFailure,
    failure_from_error_object,
)
from game.agent.providers.retry import SSEProvider
from game.agent.providers.sse import SSEEvent
from game.safe_json import load_json

ANTHROPIC_VERSION = "2023-06-01"
_STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
}
_OPENER = "(The conversation begins.)"


def _tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
    ]


def _tool_input(arguments: str) -> dict[str, Any]:
    try:
        value = load_json(arguments) if arguments.strip() else {}
    except ValueError:  # not JSON, or nested too deep
        return {}
    return value if isinstance(value, dict) else {}


def _messages(messages: list[Message]) -> list[dict[str, Any]]:
    turns: list[tuple[str, list[dict[str, Any]]]] = []
    for m in messages:
        blocks: list[dict[str, Any]] = []
        if m.role == "user":
            role = "user"
            if m.content:
                blocks.append({"type": "text", "text": m.content})
        elif m.role == "assistant":
            role = "assistant"
            if m.content:
                blocks.append({"type": "text", "text": m.content})
            for call in m.tool_calls:
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": call.id,
                        "name": call.name,
                        "input": _tool_input(call.arguments),
                    }
                )
        else:
            role = "user"
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": m.tool_call_id or "",
                "content": m.content,
            }
            if m.is_error:
                block["is_error"] = True
            blocks.append(block)
        if not blocks:
            continue
        if turns and turns[-1][0] == role:
            turns[-1][1].extend(blocks)
        else:
            turns.append((role, blocks))
    out: list[dict[str, Any]] = []
    for role, blocks in turns:
        if role == "user":
            # tool_result blocks must open the user turn that answers a tool_use
            blocks.sort(key=lambda b: b["type"] != "tool_result")
        out.append({"role": role, "content": blocks})
    if out and out[0]["role"] == "assistant":
        out.insert(0, {"role": "user", "content": [{"type": "text", "text": _OPENER}]})
    if out and out[-1]["role"] == "assistant":
        # a trailing assistant turn is a prefill, which must not end in whitespace
        for block in out[-1]["content"]:
            if block["type"] == "text":
                block["text"] = block["text"].rstrip() or "…"
    return out


@dataclass
class _Call:
    index: int
    id: str
    name: str
    args: list[str] = field(default_factory=list)
    done: bool = False


class AnthropicParser:
    """Turns Messages API stream events into provider events."""

    def __init__(self, label: str = "anthropic", secrets: tuple[str, ...] = ()) -> None:
        self.label = label
        self.secrets = secrets
        self.finished = False
        self._calls: dict[int, _Call] = {}  # by content block index
        self._input = 0
        self._cached = 0
        self._output = 0
        self._stop: str | None = None

    def feed(self, sse: SSEEvent) -> list[ProviderEvent]:
        """Events for one SSE event."""
        try:
            ev = load_json(sse.data)
        except ValueError as exc:  # not JSON, or nested past MAX_JSON_DEPTH
            raise ParseFailure(
                f"{self.label}: malformed event JSON ({exc}): {sse.data[:80]!r}"
            ) from exc
        if not isinstance(ev, dict):
            raise ParseFailure(f"{self.label}: event is not a JSON object")
        etype = ev.get("type") or sse.event
        if etype == "content_block_delta":
            delta = ev.get("delta") or {}
            dtype = delta.get("type")
            if dtype == "text_delta":
                text = delta.get("text")
                return [TextDelta(text=text)] if isinstance(text, str) and text else []
            if dtype == "input_json_delta":
                call = self._calls.get(ev.get("index", -1))
                part = delta.get("partial_json")
                if call is None or not isinstance(part, str) or not part:
                    return []
                call.args.append(part)
                return [ToolCallArgsDelta(index=call.index, delta=part)]
            return []
        if etype == "content_block_start":
            block = ev.get("content_block") or {}
            btype = block.get("type")
            if btype == "text":
                text = block.get("text")
                return [TextDelta(text=text)] if isinstance(text, str) and text else []
            if btype == "tool_use":
                call = _Call(
                    index=len(self._calls),
                    id=str(block.get("id") or f"toolu_{len(self._calls)}"),
                    name=str(block.get("name") or ""),
                )
                self._calls[ev.get("index", len(self._calls))] = call
                out: list[ProviderEvent] = [
                    ToolCallStart(index=call.index, id=call.id, name=call.name)
                ]
                initial = block.get("input")
                if isinstance(initial, dict) and initial:  # some proxies send it whole
                    text = json.dumps(initial)
                    call.args.append(text)
                    out.append(ToolCallArgsDelta(index=call.index, delta=text))
                return out
            return []
        if etype == "content_block_stop":
            call = self._calls.get(ev.get("index", -1))
            return [self._done(call)] if call is not None and not call.done else []
        if etype == "message_start":
            usage = (ev.get("message") or {}).get("usage") or {}
            self._input = int(usage.get("input_tokens") or 0)
            self._cached = int(usage.get("cache_read_input_tokens") or 0)
            self._output = int(usage.get("output_tokens") or 0)
            return []
        if etype == "message_delta":
            stop = (ev.get("delta") or {}).get("stop_reason")
            if stop:
                self._stop = str(stop)
            usage = ev.get("usage") or {}
            if usage.get("output_tokens") is not None:
                self._output = int(usage["output_tokens"])
            if usage.get("input_tokens") is not None:
                self._input = int(usage["input_tokens"])
            if usage.get("cache_read_input_tokens") is not None:
                self._cached = int(usage["cache_read_input_tokens"])
            return []
        if etype == "message_stop":
            return self._end()
        if etype == "error":
            raise failure_from_error_object(self.label, ev, secrets=self.secrets)
        return []  # ping and anything new

    def finish(self) -> list[ProviderEvent]:
        """The byte stream ended without `message_stop`: the stream was cut."""
        raise TransportFailure(f"{self.label}: stream ended before the message completed")

    def _done(self, call: _Call) -> ToolCallDone:
        call.done = True
        args = "".join(call.args)
        return ToolCallDone(
            index=call.index, id=call.id, name=call.name, arguments=args if args.strip() else "{}"
        )

    def _end(self) -> list[ProviderEvent]:
        out: list[ProviderEvent] = [self._done(c) for c in self._calls.values() if not c.done]
        out.append(
            Usage(input_tokens=self._input, output_tokens=self._output, cached_tokens=self._cached)
        )
        stop = self._stop or "end_turn"
        out.append(Done(stop_reason=_STOP_REASONS.get(stop, stop)))
        self.finished = True
        return out


class AnthropicProvider(SSEProvider):
    """Anthropic's Messages API."""

    name = "anthropic"

    def _url(self) -> str:
        return f"{self.base_url}/v1/messages"

    def _headers(self) -> dict[str, str]:
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        key = self._key()
        if key:
            headers["x-api-key"] = key
        return headers

    def _body(self, request: ProviderRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": request.model or self.model,
            "max_tokens": max(1, request.max_output_tokens),
            "messages": _messages(request.messages),
            "stream": True,
            "temperature": min(1.0, max(0.0, request.temperature)),
        }
        if request.system:
            body["system"] = request.system
        if request.tools:
            body["tools"] = _tools(request.tools)
        return body

    def _parser(self) -> AnthropicParser:
        return AnthropicParser(self.name, self._secrets)
