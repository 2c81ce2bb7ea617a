"""OpenAI-compatible Chat Completions over SSE (`POST {base_url}/chat/completions`).

Speaks to OpenAI, llama.cpp's server, Ollama, vLLM, LM Studio, Moonshot/Kimi, OpenRouter.
Request: a `system` message first, then the messages (assistant messages carry
`tool_calls`, tool results are `{"role": "tool", "tool_call_id", "content"}`), tools as
`{"type": "function", "function": {...}}`, `stream_options: {"include_usage": true}`.

Stream: `choices[0].delta.content` text; `delta.tool_calls[]` fragments keyed by `index`,
whose first fragment carries `id` and `function.name` (a missing id is synthesised as
`call_<index>`; a call that never gets a name is a `tool` failure); `finish_reason`; a final
chunk with empty (or null) `choices` and the `usage`; `data: [DONE]`. Servers that end the
stream after a `finish_reason` without `[DONE]` are accepted. An `{"error": ...}` chunk
(OpenRouter, vLLM) is mapped to the error taxonomy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

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
    ToolCallFailure,
    TransportFailure,
    failure_from_error_object,
)
from game.agent.providers.openai_responses import is_reasoning_model
from game.agent.providers.retry import RetryPolicy, SleepFn, SSEProvider
from game.agent.providers.sse import SSEEvent
from game.safe_json import load_json

_ERROR_PREFIX = "[error] "
_STOP_REASONS = {"stop": "stop", "tool_calls": "tool_calls", "function_call": "tool_calls"}


def _tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools
    ]


def _messages(system: str, messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for m in messages:
        if m.role == "user":
            out.append({"role": "user", "content": m.content})
        elif m.role == "assistant":
            msg: dict[str, Any] = {"role": "assistant", "content": m.content}
            if m.tool_calls:
                msg["content"] = m.content or None
                msg["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": c.arguments or "{}"},
                    }
                    for c in m.tool_calls
                ]
            out.append(msg)
        else:
            content = _ERROR_PREFIX + m.content if m.is_error else m.content
            out.append({"role": "tool", "tool_call_id": m.tool_call_id or "", "content": content})
    return out


@dataclass
class _Call:
    index: int
    id: str | None = None
    name: str = ""
    args: list[str] = field(default_factory=list)
    started: bool = False
    done: bool = False


class ChatParser:
    """Turns Chat Completions chunks into provider events."""

    def __init__(self, label: str = "openai-chat", secrets: tuple[str, ...] = ()) -> None:
        self.label = label
        self.secrets = secrets
        self.finished = False
        self._calls: dict[int, _Call] = {}
        self._finish: str | None = None
        self._usage: Usage | None = None

    def feed(self, sse: SSEEvent) -> list[ProviderEvent]:
        """Events for one SSE event."""
        data = sse.data
        if data == "[DONE]":
            return self._end()
        if not data.strip():
            return []
        try:
            chunk = load_json(data)
        except ValueError as exc:  # not JSON, or nested past MAX_JSON_DEPTH
            raise ParseFailure(
                f"{self.label}: malformed chunk JSON ({exc}): {data[:80]!r}"
            ) from exc
        if not isinstance(chunk, dict):
            raise ParseFailure(f"{self.label}: chunk is not a JSON object")
        if chunk.get("error") is not None or sse.event == "error":
            raise failure_from_error_object(self.label, chunk, secrets=self.secrets)
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            details = usage.get("prompt_tokens_details") or {}
            self._usage = Usage(
                input_tokens=int(usage.get("prompt_tokens") or 0),
                output_tokens=int(usage.get("completion_tokens") or 0),
                cached_tokens=int(details.get("cached_tokens") or 0)
                if isinstance(details, dict)
                else 0,
            )
        choices = chunk.get("choices")
        if not choices or not isinstance(choices, list):
            return []
        choice = choices[0]
        if not isinstance(choice, dict):
            return []
        out: list[ProviderEvent] = []
        delta = choice.get("delta")
        if isinstance(delta, dict):
            text = delta.get("content")
            if isinstance(text, str) and text:
                out.append(TextDelta(text=text))
            fragments = delta.get("tool_calls")
            if isinstance(fragments, list):
                for pos, frag in enumerate(fragments):
                    if isinstance(frag, dict):
                        self._fragment(pos, frag, out)
        reason = choice.get("finish_reason")
        if reason:
            self._finish = str(reason)
            out.extend(self._close_calls())
        return out

    def finish(self) -> list[ProviderEvent]:
        """End of bytes: fine after a `finish_reason`, a cut stream otherwise."""
        if self._finish is None:
            raise TransportFailure(f"{self.label}: stream ended before the response completed")
        return self._end()

    def _fragment(self, pos: int, frag: dict[str, Any], out: list[ProviderEvent]) -> None:
        index = frag.get("index")
        if not isinstance(index, int):
            index = pos
        call = self._calls.get(index)
        if call is None:
            call = self._calls[index] = _Call(index=index)
        if frag.get("id") and call.id is None:
            call.id = str(frag["id"])
        fn = frag.get("function") or {}
        if not isinstance(fn, dict):
            return
        if fn.get("name") and not call.name:
            call.name = str(fn["name"])
        args = fn.get("arguments")
        if isinstance(args, dict):  # a few servers send the object itself
            args = json.dumps(args)
        if not call.started and call.name:
            call.started = True
            if call.id is None:
                call.id = f"call_{index}"
            out.append(ToolCallStart(index=index, id=call.id, name=call.name))
            if call.args:
                out.append(ToolCallArgsDelta(index=index, delta="".join(call.args)))
        if isinstance(args, str) and args:
            call.args.append(args)
            if call.started:
                out.append(ToolCallArgsDelta(index=index, delta=args))

    def _close_calls(self) -> list[ProviderEvent]:
        out: list[ProviderEvent] = []
        for index in sorted(self._calls):
            call = self._calls[index]
            if call.done:
                continue
            if not call.started:
                raise ToolCallFailure(f"{self.label}: tool call {index} has no function name")
            call.done = True
            args = "".join(call.args)
            out.append(
                ToolCallDone(
                    index=index,
                    id=call.id or f"call_{index}",
                    name=call.name,
                    arguments=args if args.strip() else "{}",
                )
            )
        return out

    def _end(self) -> list[ProviderEvent]:
        out = self._close_calls()
        if self._usage is not None:
            out.append(self._usage)
        reason = _STOP_REASONS.get(self._finish or "stop", self._finish or "stop")
        if reason == "stop" and self._calls:
            reason = "tool_calls"  # some servers say "stop" after tool calls
        out.append(Done(stop_reason=reason))
        self.finished = True
        return out


class OpenAIChatProvider(SSEProvider):
    """Any OpenAI-compatible `/chat/completions` endpoint."""

    name = "openai-chat"

    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        api_key: str | None,
        model: str,
        base_url: str | None = None,
        max_retries: int = 3,
        timeout: httpx.Timeout | float | None = None,
        sleep: SleepFn | None = None,
        retry_policy: RetryPolicy | None = None,
        extra_headers: Mapping[str, str] | None = None,
        include_usage: bool = True,
        max_tokens_field: str = "max_tokens",
    ) -> None:
        super().__init__(
            client,
            api_key=api_key,
            model=model,
            base_url=base_url,
            max_retries=max_retries,
            timeout=timeout,
            sleep=sleep,
            retry_policy=retry_policy,
            extra_headers=extra_headers,
        )
        self.include_usage = include_usage
        self.max_tokens_field = max_tokens_field

    def _url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def _body(self, request: ProviderRequest) -> dict[str, Any]:
        model = request.model or self.model
        body: dict[str, Any] = {
            "model": model,
            "messages": _messages(request.system, request.messages),
            "stream": True,
        }
        if is_reasoning_model(model):
            body["max_completion_tokens"] = request.max_output_tokens
        else:
            body[self.max_tokens_field] = request.max_output_tokens
            body["temperature"] = request.temperature
        if self.include_usage:
            body["stream_options"] = {"include_usage": True}
        if request.tools:
            body["tools"] = _tools(request.tools)
        return body

    def _parser(self) -> ChatParser:
        return ChatParser(self.name, self._secrets)
