"""Each wire format: the request it sends and the events it makes of recorded transcripts."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from provider_kit import KEY, TEXT, collect, done, make_request, summarize, transcript

from game.agent.providers.anthropic import AnthropicProvider
from game.agent.providers.base import (
    Done,
    Message,
    ProviderError,
    TextDelta,
    ToolCall,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.providers.openai_responses import OpenAIResponsesProvider

SSE = {"content-type": "text/event-stream; charset=utf-8"}


class Recorder:
    """A MockTransport handler that records requests and replays fixed bodies."""

    def __init__(self, *bodies: bytes, status: int = 200, headers: dict[str, str] | None = None):
        self.bodies = list(bodies)
        self.status = status
        self.headers = headers or SSE
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(self.status, headers=self.headers, content=self.bodies.pop(0))

    @property
    def body(self) -> Any:
        return json.loads(self.requests[-1].content)


def mock_client(recorder: Recorder) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(recorder))


# --- OpenAI Responses -----------------------------------------------------------------------


async def test_responses_request_shape() -> None:
    rec = Recorder(transcript("openai_responses_text.sse"))
    async with mock_client(rec) as client:
        provider = OpenAIResponsesProvider(
            client, api_key=KEY, model="gpt-4o-mini", base_url="http://proxy.test/v1/"
        )
        await collect(provider)
    req = rec.requests[0]
    assert str(req.url) == "http://proxy.test/v1/responses"
    assert req.headers["authorization"] == f"Bearer {KEY}"
    assert req.headers["accept"] == "text/event-stream"
    body = rec.body
    assert body["model"] == "gpt-4o-mini"
    assert body["stream"] is True and body["store"] is False
    assert body["instructions"] == "You are Mira, the baker of Ashford."
    assert body["max_output_tokens"] == 128 and body["temperature"] == 0.5
    assert body["input"] == [
        {"role": "user", "content": "Hello Mira!"},
        {"role": "assistant", "content": "Hi!"},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "emote",
            "arguments": '{"emote":"wave"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        {"role": "user", "content": "What's fresh?"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "name": "say",
            "description": "Say something out loud.",
            "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
            },
        }
    ]


async def test_responses_request_model_override_and_no_tools() -> None:
    rec = Recorder(transcript("openai_responses_text.sse"))
    async with mock_client(rec) as client:
        provider = OpenAIResponsesProvider(client, api_key=None, model="gpt-4o-mini")
        await collect(provider, make_request(model="o4-mini", tools=[]))
    assert str(rec.requests[0].url) == "https://api.openai.com/v1/responses"
    assert "authorization" not in rec.requests[0].headers
    assert rec.body["model"] == "o4-mini"
    assert "tools" not in rec.body and "temperature" not in rec.body


async def test_responses_text_transcript() -> None:
    rec = Recorder(transcript("openai_responses_text.sse"))
    async with mock_client(rec) as client:
        events = await collect(OpenAIResponsesProvider(client, api_key=KEY, model="m"))
    assert all(isinstance(e, TextDelta) for e in events[:-2])
    assert summarize(events).text == TEXT
    assert events[-2] == Usage(input_tokens=812, output_tokens=11, cached_tokens=0)
    assert done(events).stop_reason == "stop"


async def test_responses_tool_transcript() -> None:
    rec = Recorder(transcript("openai_responses_tool.sse"))
    async with mock_client(rec) as client:
        events = await collect(OpenAIResponsesProvider(client, api_key=KEY, model="m"))
    s = summarize(events)
    assert s.text == "Let me walk over."
    assert s.calls == [
        (0, "call_Xq3RkYf0b0M2nTzL8pWvE1sA", "move", '{"to":"well"}'),
        (1, "call_Xq3RkYf0b1M2nTzL8pWvE1sA", "say", '{"text":"Grüße, café — ☕"}'),
    ]
    starts = [e for e in events if isinstance(e, ToolCallStart)]
    assert [(e.index, e.name) for e in starts] == [(0, "move"), (1, "say")]
    assert len([e for e in events if isinstance(e, ToolCallArgsDelta)]) == 13
    assert s.usage == Usage(input_tokens=1290, output_tokens=41, cached_tokens=1024)
    assert done(events).stop_reason == "tool_calls"


# --- Chat Completions --------------------------------------------------------------------------


async def test_chat_request_shape() -> None:
    rec = Recorder(transcript("openai_chat_text.sse"))
    async with mock_client(rec) as client:
        provider = OpenAIChatProvider(
            client, api_key=KEY, model="kimi-k2", base_url="http://127.0.0.1:8080/v1"
        )
        await collect(provider)
    req = rec.requests[0]
    assert str(req.url) == "http://127.0.0.1:8080/v1/chat/completions"
    assert req.headers["authorization"] == f"Bearer {KEY}"
    body = rec.body
    assert body["model"] == "kimi-k2" and body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_tokens"] == 128 and body["temperature"] == 0.5
    assert body["messages"] == [
        {"role": "system", "content": "You are Mira, the baker of Ashford."},
        {"role": "user", "content": "Hello Mira!"},
        {
            "role": "assistant",
            "content": "Hi!",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "emote", "arguments": '{"emote":"wave"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        {"role": "user", "content": "What's fresh?"},
    ]
    assert body["tools"][0] == {
        "type": "function",
        "function": {
            "name": "say",
            "description": "Say something out loud.",
            "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
            },
        },
    }


async def test_chat_keyless_local_server_and_error_results() -> None:
    rec = Recorder(transcript("openai_chat_text.sse"))
    request = make_request(
        messages=[
            Message(role="assistant", tool_calls=[ToolCall(id="c", name="move", arguments="")]),
            Message(role="tool", tool_call_id="c", content="blocked at (3, 4)", is_error=True),
        ]
    )
    async with mock_client(rec) as client:
        provider = OpenAIChatProvider(
            client, api_key=None, model="x", base_url="http://h/v1", include_usage=False
        )
        await collect(provider, request)
    assert "authorization" not in rec.requests[0].headers
    body = rec.body
    assert "stream_options" not in body
    assert body["messages"][1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "move", "arguments": "{}"}}
        ],
    }
    assert body["messages"][2]["content"] == "[error] blocked at (3, 4)"


async def test_chat_reasoning_model_gets_max_completion_tokens_and_no_temperature() -> None:
    rec = Recorder(transcript("openai_chat_text.sse"))
    async with mock_client(rec) as client:
        await collect(OpenAIChatProvider(client, api_key=KEY, model="o4-mini"))
    assert rec.body["max_completion_tokens"] == 128
    assert "max_tokens" not in rec.body and "temperature" not in rec.body


async def test_chat_text_transcript() -> None:
    rec = Recorder(transcript("openai_chat_text.sse"))
    async with mock_client(rec) as client:
        events = await collect(OpenAIChatProvider(client, api_key=KEY, model="m"))
    assert summarize(events).text == TEXT
    assert events[-2] == Usage(input_tokens=812, output_tokens=11, cached_tokens=0)
    assert done(events).stop_reason == "stop"


async def test_chat_tool_transcript() -> None:
    rec = Recorder(transcript("openai_chat_tool.sse"))
    async with mock_client(rec) as client:
        events = await collect(OpenAIChatProvider(client, api_key=KEY, model="m"))
    s = summarize(events)
    assert s.text == ""
    assert s.calls == [
        (0, "call_9aLpQ2xZ0vR7mN4bT1yK3hWc", "move", '{"to":"well"}'),
        (1, "call_4dFgH8jK2lZ6xC0vB9nM5qWe", "say", '{"text":"Grüße, café — ☕"}'),
    ]
    assert s.usage == Usage(input_tokens=1290, output_tokens=41, cached_tokens=1024)
    assert done(events).stop_reason == "tool_calls"


def chat_chunk(delta: dict[str, Any] | None, finish: str | None = None, **extra: Any) -> bytes:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return b"data: " + json.dumps({"choices": choices, **extra}).encode() + b"\n\n"


async def test_chat_server_quirks_missing_id_whole_call_no_done_null_choices() -> None:
    # llama.cpp / Ollama style: no id, whole call in one fragment without index, "stop"
    # after tool calls, usage with choices null, and no [DONE] before the close.
    body = (
        chat_chunk({"role": "assistant", "content": "Hm."})
        + chat_chunk({"tool_calls": [{"function": {"name": "wait", "arguments": {"s": 2}}}]})
        + chat_chunk({}, "stop")
        + b'data: {"choices": null, "usage": {"prompt_tokens": 5, "completion_tokens": 3}}\n\n'
    )
    rec = Recorder(body)
    async with mock_client(rec) as client:
        events = await collect(OpenAIChatProvider(client, api_key=None, model="m"))
    assert summarize(events).calls == [(0, "call_0", "wait", '{"s": 2}')]
    assert events[-2] == Usage(input_tokens=5, output_tokens=3)
    assert done(events).stop_reason == "tool_calls"


async def test_chat_error_chunk_mid_stream() -> None:
    body = chat_chunk({"content": "Hel"}) + (
        b'data: {"error": {"message": "Provider returned error", "code": 502}}\n\n'
    )
    rec = Recorder(body)
    async with mock_client(rec) as client:
        events = await collect(OpenAIChatProvider(client, api_key=None, model="m"))
    assert events[0] == TextDelta(text="Hel")
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "http"
    assert "Provider returned error" in events[-1].message


async def test_chat_tool_call_without_name_is_a_tool_failure() -> None:
    body = (
        chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]})
        + chat_chunk({}, "tool_calls")
        + b"data: [DONE]\n\n"
    )
    async with mock_client(Recorder(body)) as client:
        events = await collect(OpenAIChatProvider(client, api_key=None, model="m"))
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "tool"


# --- Anthropic ----------------------------------------------------------------------------------


async def test_anthropic_request_shape() -> None:
    rec = Recorder(transcript("anthropic_text.sse"))
    async with mock_client(rec) as client:
        provider = AnthropicProvider(client, api_key=KEY, model="claude-3-5-haiku-latest")
        await collect(provider, make_request(temperature=1.4))
    req = rec.requests[0]
    assert str(req.url) == "https://api.anthropic.com/v1/messages"
    assert req.headers["x-api-key"] == KEY
    assert req.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in req.headers
    body = rec.body
    assert body["model"] == "claude-3-5-haiku-latest" and body["stream"] is True
    assert body["max_tokens"] == 128 and body["temperature"] == 1.0
    assert body["system"] == "You are Mira, the baker of Ashford."
    assert body["tools"] == [
        {
            "name": "say",
            "description": "Say something out loud.",
            "input_schema": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
            },
        }
    ]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Hello Mira!"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Hi!"},
                {"type": "tool_use", "id": "call_1", "name": "emote", "input": {"emote": "wave"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": "ok"},
                {"type": "text", "text": "What's fresh?"},
            ],
        },
    ]


async def test_anthropic_merges_roles_orders_tool_results_and_opens_with_user() -> None:
    request = make_request(
        messages=[
            Message(role="assistant", content="Morning! "),
            Message(role="assistant", tool_calls=[ToolCall(id="t1", name="look", arguments="{")]),
            Message(role="user", content="hey"),
            Message(role="tool", tool_call_id="t1", content="a well", is_error=True),
            Message(role="user", content=""),
            Message(role="user", content="still there?"),
            Message(role="assistant", content="Yes. "),
        ]
    )
    rec = Recorder(transcript("anthropic_text.sse"))
    async with mock_client(rec) as client:
        await collect(AnthropicProvider(client, api_key=KEY, model="c"), request)
    msgs = rec.body["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant"]
    assert msgs[1]["content"] == [
        {"type": "text", "text": "Morning! "},
        {"type": "tool_use", "id": "t1", "name": "look", "input": {}},
    ]
    assert msgs[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "a well", "is_error": True},
        {"type": "text", "text": "hey"},
        {"type": "text", "text": "still there?"},
    ]
    assert msgs[3]["content"] == [{"type": "text", "text": "Yes."}]


async def test_anthropic_text_transcript() -> None:
    rec = Recorder(transcript("anthropic_text.sse"))
    async with mock_client(rec) as client:
        events = await collect(AnthropicProvider(client, api_key=KEY, model="c"))
    assert summarize(events).text == TEXT
    assert events[-2] == Usage(input_tokens=802, output_tokens=14, cached_tokens=0)
    assert done(events).stop_reason == "stop"


async def test_anthropic_tool_transcript() -> None:
    rec = Recorder(transcript("anthropic_tool.sse"))
    async with mock_client(rec) as client:
        events = await collect(AnthropicProvider(client, api_key=KEY, model="c"))
    s = summarize(events)
    assert s.text == "Let me walk over."
    assert s.calls == [
        (0, "toolu_01A09q90qw90lq917835lq9", "move", '{"to": "well"}'),
        (1, "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "say", '{"text": "Grüße, café — ☕"}'),
    ]
    # empty partial_json fragments are not forwarded
    assert all(e.delta for e in events if isinstance(e, ToolCallArgsDelta))
    assert s.usage == Usage(input_tokens=1301, output_tokens=89, cached_tokens=1024)
    assert done(events).stop_reason == "tool_calls"


async def test_anthropic_max_tokens_flushes_open_tool_call() -> None:
    body = (
        b'event: message_start\ndata: {"type":"message_start","message":{"usage":'
        b'{"input_tokens":9,"output_tokens":1}}}\n\n'
        b'event: content_block_start\ndata: {"type":"content_block_start","index":0,'
        b'"content_block":{"type":"tool_use","id":"toolu_1","name":"say","input":{}}}\n\n'
        b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
        b'"delta":{"type":"input_json_delta","partial_json":"{\\"text\\": \\"Gr"}}\n\n'
        b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":'
        b'"max_tokens"},"usage":{"output_tokens":16}}\n\n'
        b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )
    async with mock_client(Recorder(body)) as client:
        events = await collect(AnthropicProvider(client, api_key=KEY, model="c"))
    assert events[-3] == ToolCallDone(index=0, id="toolu_1", name="say", arguments='{"text": "Gr')
    assert events[-2] == Usage(input_tokens=9, output_tokens=16)
    assert events[-1] == Done(stop_reason="length")


# --- shared behaviour ---------------------------------------------------------------------------

UNKNOWN = {
    "openai_responses_text.sse": b'event: response.audio.delta\ndata: {"type":"response.audio.'
    b'delta","delta":"AAAA"}\n\ndata: {"type":"response.brand_new_thing","x":1}\n\n',
    "openai_chat_text.sse": b'data: {"choices":[{"index":0,"delta":{"reasoning_content":"hm"}'
    b',"finish_reason":null}]}\n\ndata: {"object":"chat.completion.chunk","choices":[]}\n\n',
    "anthropic_text.sse": b'event: ping\ndata: {"type": "ping"}\n\nevent: content_block_delta'
    b'\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta",'
    b'"thinking":"hm"}}\n\nevent: future\ndata: {"type":"future_event"}\n\n',
}
PROVIDERS = {
    "openai_responses_text.sse": OpenAIResponsesProvider,
    "openai_chat_text.sse": OpenAIChatProvider,
    "anthropic_text.sse": AnthropicProvider,
}


@pytest.mark.parametrize("name", sorted(UNKNOWN))
async def test_unknown_events_are_ignored(name: str) -> None:
    raw = transcript(name)
    first_blank = raw.index(b"\n\n") + 2
    body = raw[:first_blank] + UNKNOWN[name] + raw[first_blank:]
    async with mock_client(Recorder(body)) as client:
        events = await collect(PROVIDERS[name](client, api_key=KEY, model="m"))
    assert summarize(events).text == TEXT
    assert done(events)


@pytest.mark.parametrize("name", sorted(PROVIDERS))
async def test_malformed_event_is_a_parse_error_after_partial_text(name: str) -> None:
    raw = transcript(name)
    cut = raw.index("café".encode())
    cut = raw.index(b"\n\n", cut) + 2
    body = raw[:cut] + b'event: content_block_delta\ndata: {"type": "oops", \n\n' + raw[cut:]
    async with mock_client(Recorder(body)) as client:
        events = await collect(PROVIDERS[name](client, api_key=KEY, model="m"))
    assert summarize(events).text.startswith("Grüße, café")
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "parse"


async def test_json_error_body_with_200_is_reported() -> None:
    rec = Recorder(
        b'{"error": {"message": "model not loaded", "type": "server_error"}}',
        headers={"content-type": "application/json"},
    )
    async with mock_client(rec) as client:
        events = await collect(OpenAIChatProvider(client, api_key=None, model="m", max_retries=0))
    assert isinstance(events[-1], ProviderError) and "model not loaded" in events[-1].message


@pytest.mark.parametrize(
    ("event", "kind", "stop"),
    [
        (
            b'event: response.incomplete\ndata: {"type":"response.incomplete","response":'
            b'{"incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":3,'
            b'"output_tokens":16}}}\n\n',
            None,
            "length",
        ),
        (
            b'event: response.incomplete\ndata: {"type":"response.incomplete","response":'
            b'{"incomplete_details":{"reason":"content_filter"}}}\n\n',
            "http",
            None,
        ),
        (
            b'event: response.failed\ndata: {"type":"response.failed","response":{"error":'
            b'{"code":"server_error","message":"The model failed to generate a response."}}}\n\n',
            "http",
            None,
        ),
        (
            b'event: error\ndata: {"type":"error","code":"context_length_exceeded","message":'
            b'"Your input exceeds the context window of this model.","param":"input"}\n\n',
            "context_overflow",
            None,
        ),
        (
            b'event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":'
            b'"Rate limit reached","param":null}\n\n',
            "rate_limited",
            None,
        ),
    ],
)
async def test_responses_terminal_events(event: bytes, kind: str | None, stop: str | None) -> None:
    raw = transcript("openai_responses_text.sse")
    body = raw[: raw.index(b"event: response.output_text.done")] + event
    async with mock_client(Recorder(body)) as client:
        events = await collect(OpenAIResponsesProvider(client, api_key=KEY, model="m"))
    assert summarize(events).text == TEXT
    if kind is None:
        assert events[-1] == Done(stop_reason=stop or "")
        assert events[-2] == Usage(input_tokens=3, output_tokens=16)
    else:
        assert isinstance(events[-1], ProviderError) and events[-1].kind == kind
