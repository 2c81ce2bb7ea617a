"""OpenAI Responses API over SSE (`POST {base_url}/responses`, `stream: true`).

Request: `instructions` = system prompt, `input` = items rebuilt from the messages (user and
assistant messages, `function_call` items with their `call_id`, `function_call_output`
items), tools as `{"type": "function", "name", "description", "parameters"}`,
`store: false` (the log in the save slot is the memory, not OpenAI's).

Events used: `response.output_text.delta` (and `response.refusal.delta`, shown as text),
`response.output_item.added` / `response.function_call_arguments.delta` /
`response.function_call_arguments.done` / `response.output_item.done` for function calls,
`response.completed` (usage), `response.incomplete` (a reply cut by `max_output_tokens` ends
normally with `Done(stop_reason="length")`; other reasons are errors), `response.failed` and
`error` (mapped to the error taxonomy), and `[DONE]` if a proxy sends one. Everything else is
ignored. Tool calls are numbered 0, 1, 2 ... in the order they start.
"""

from __future__ import annotations

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
    HTTPFailure,
    ParseFailure,
    TransportFailure,
    failure_from_error_object,
)
from game.agent.providers.retry import SSEProvider
from game.agent.providers.sse import SSEEvent
from game.safe_json import load_json

_ERROR_PREFIX = "[error] "


def _tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "name": t.name,
            "description": t.description,
            "parameters": t.parameters,
        }
        for t in tools
    ]


def _input_items(messages: list[Message]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "user":
            items.append({"role": "user", "content": m.content})
        elif m.role == "assistant":
            if m.content:
                items.append({"role": "assistant", "content": m.content})
            for call in m.tool_calls:
                items.append(
                    {
                        "type": "function_call",
                        "call_id": call.id,
                        "name": call.name,
                        "arguments": call.arguments or "{}",
                    }
                )
        else:
            output = _ERROR_PREFIX + m.content if m.is_error else m.content
            items.append(
                {"type": "function_call_output", "call_id": m.tool_call_id or "", "output": output}
            )
    return items


def is_reasoning_model(model: str) -> bool:
    """OpenAI reasoning models reject `temperature` (and `max_tokens` in chat)."""
    return model.startswith(("o1", "o3", "o4", "gpt-5"))


@dataclass
class _Call:
    index: int
    id: str
    name: str
    args: list[str] = field(default_factory=list)
    final: str | None = None
    done: bool = False


class ResponsesParser:
    """Turns Responses API stream events into provider events."""

    def __init__(self, label: str = "openai", secrets: tuple[str, ...] = ()) -> None:
        self.label = label
        self.secrets = secrets
        self.finished = False
        self._calls: dict[str, _Call] = {}  # by item id (or output index as text)
        self._order: list[_Call] = []

    def feed(self, sse: SSEEvent) -> list[ProviderEvent]:
        """Events for one SSE event."""
        data = sse.data
        if data == "[DONE]":
            return self._end("stop", None)
        try:
            ev = load_json(data)
        except ValueError as exc:  # not JSON, or nested past MAX_JSON_DEPTH
            raise ParseFailure(
                f"{self.label}: malformed event JSON ({exc}): {data[:80]!r}"
            ) from exc
        if not isinstance(ev, dict):
            raise ParseFailure(f"{self.label}: event is not a JSON object")
        etype = ev.get("type") or sse.event
        if etype == "response.output_text.delta" or etype == "response.refusal.delta":
            delta = ev.get("delta")
            return [TextDelta(text=delta)] if isinstance(delta, str) and delta else []
        if etype == "response.function_call_arguments.delta":
            call = self._lookup(ev)
            delta = ev.get("delta")
            if call is None or not isinstance(delta, str) or not delta:
                return []
            call.args.append(delta)
            return [ToolCallArgsDelta(index=call.index, delta=delta)]
        if etype == "response.function_call_arguments.done":
            call = self._lookup(ev)
            if call is not None and isinstance(ev.get("arguments"), str):
                call.final = ev["arguments"]
            return []
        if etype == "response.output_item.added":
            return self._item_added(ev)
        if etype == "response.output_item.done":
            return self._item_done(ev)
        if etype == "response.completed":
            return self._end("stop", ev.get("response"))
        if etype == "response.incomplete":
            response = ev.get("response") or {}
            details = response.get("incomplete_details") or {}
            reason = details.get("reason") if isinstance(details, dict) else None
            if reason in ("max_output_tokens", "max_tokens"):
                return self._end("length", response)
            raise HTTPFailure(f"{self.label}: response incomplete: {reason or 'unknown reason'}")
        if etype == "response.failed":
            response = ev.get("response") or {}
            raise failure_from_error_object(
                self.label, {"error": response.get("error") or {}}, secrets=self.secrets
            )
        if etype == "error":
            raise failure_from_error_object(self.label, ev, secrets=self.secrets)
        return []

    def finish(self) -> list[ProviderEvent]:
        """The byte stream ended without `response.completed`: the stream was cut."""
        raise TransportFailure(f"{self.label}: stream ended before the response completed")

    def _lookup(self, ev: dict[str, Any]) -> _Call | None:
        key = ev.get("item_id")
        if isinstance(key, str) and key in self._calls:
            return self._calls[key]
        return self._calls.get(f"#{ev.get('output_index')}")

    def _item_added(self, ev: dict[str, Any]) -> list[ProviderEvent]:
        item = ev.get("item")
        if not isinstance(item, dict) or item.get("type") != "function_call":
            return []
        call = _Call(
            index=len(self._order),
            id=str(item.get("call_id") or item.get("id") or f"call_{len(self._order)}"),
            name=str(item.get("name") or ""),
        )
        if isinstance(item.get("id"), str):
            self._calls[item["id"]] = call
        self._calls[f"#{ev.get('output_index')}"] = call
        self._order.append(call)
        out: list[ProviderEvent] = [ToolCallStart(index=call.index, id=call.id, name=call.name)]
        initial = item.get("arguments")
        if isinstance(initial, str) and initial:
            call.args.append(initial)
            out.append(ToolCallArgsDelta(index=call.index, delta=initial))
        return out

    def _item_done(self, ev: dict[str, Any]) -> list[ProviderEvent]:
        item = ev.get("item")
        if not isinstance(item, dict) or item.get("type") != "function_call":
            return []
        out: list[ProviderEvent] = []
        call = self._lookup({"item_id": item.get("id"), "output_index": ev.get("output_index")})
        if call is None:  # a proxy that skipped `output_item.added`
            out.extend(self._item_added(ev))
            call = self._order[-1]
            call.args.clear()
        if isinstance(item.get("arguments"), str):
            call.final = item["arguments"]
        if item.get("name"):
            call.name = str(item["name"])
        out.append(self._done(call))
        return out

    def _done(self, call: _Call) -> ToolCallDone:
        call.done = True
        args = call.final if call.final is not None else "".join(call.args)
        return ToolCallDone(
            index=call.index, id=call.id, name=call.name, arguments=args if args.strip() else "{}"
        )

    def _end(self, reason: str, response: Any) -> list[ProviderEvent]:
        out: list[ProviderEvent] = [self._done(c) for c in self._order if not c.done]
        usage = response.get("usage") if isinstance(response, dict) else None
        if isinstance(usage, dict):
            details = usage.get("input_tokens_details") or {}
            out.append(
                Usage(
                    input_tokens=int(usage.get("input_tokens") or 0),
                    output_tokens=int(usage.get("output_tokens") or 0),
                    cached_tokens=int(details.get("cached_tokens") or 0)
                    if isinstance(details, dict)
                    else 0,
                )
            )
        if reason == "stop" and self._order:
            reason = "tool_calls"
        out.append(Done(stop_reason=reason))
        self.finished = True
        return out


class OpenAIResponsesProvider(SSEProvider):
    """OpenAI's Responses API (or any server that speaks it, e.g. through a proxy)."""

    name = "openai"

    def _url(self) -> str:
        return f"{self.base_url}/responses"

    def _body(self, request: ProviderRequest) -> dict[str, Any]:
        model = request.model or self.model
        body: dict[str, Any] = {
            "model": model,
            "instructions": request.system,
            "input": _input_items(request.messages),
            "stream": True,
            "store": False,
            "max_output_tokens": max(16, request.max_output_tokens),
        }
        if not is_reasoning_model(model):
            body["temperature"] = request.temperature
        if request.tools:
            body["tools"] = _tools(request.tools)
        return body

    def _parser(self) -> ResponsesParser:
        return ResponsesParser(self.name, self._secrets)
