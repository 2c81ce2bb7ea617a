"""Hostile JSON over a real socket, for each wire: a stream chunk nested 100,000 deep, an
event of the wrong shape, a deep error body or JSON body. Each is a `ProviderError` of one
line (a `parse` one for the stream), after the text that came before it; never a
traceback, never a RecursionError."""

from __future__ import annotations

import httpx
import pytest
from provider_kit import KEY, TEXT, Reply, SleepRecorder, SSEServer, collect, summarize, transcript

from game.agent.providers.anthropic import AnthropicProvider
from game.agent.providers.base import ProviderError
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.providers.openai_responses import OpenAIResponsesProvider
from game.agent.providers.retry import RetryPolicy, SSEProvider
from game.limits import MAX_JSON_DEPTH

DEEP = "[" * 100_000 + "]" * 100_000

WIRES: dict[str, tuple[type[SSEProvider], str, str, str]] = {
    # provider, transcript, a deep event, an event of the wrong shape
    "openai-chat": (
        OpenAIChatProvider,
        "openai_chat_text.sse",
        'data: {"choices":[{"index":0,"delta":{"content":"x"}}],"x":' + DEEP + "}\n\n",
        'data: {"choices":[],"usage":{"prompt_tokens":"many"}}\n\n',
    ),
    "openai": (
        OpenAIResponsesProvider,
        "openai_responses_text.sse",
        "event: response.output_text.delta\n"
        'data: {"type":"response.output_text.delta","delta":"x","x":' + DEEP + "}\n\n",
        "event: response.completed\n"
        'data: {"type":"response.completed","response":{"usage":{"input_tokens":[1]}}}\n\n',
    ),
    "anthropic": (
        AnthropicProvider,
        "anthropic_text.sse",
        "event: content_block_delta\n"
        'data: {"type":"content_block_delta","index":0,"delta":' + DEEP + "}\n\n",
        "event: message_delta\n"
        'data: {"type":"message_delta","delta":{},"usage":{"output_tokens":"lots"}}\n\n',
    ),
}


def _provider(wire: str, client: httpx.AsyncClient, server: SSEServer) -> SSEProvider:
    policy = RetryPolicy(max_retries=2, sleep=SleepRecorder(), random=lambda: 1.0)
    kind = WIRES[wire][0]
    base = server.url + ("/v1" if wire != "anthropic" else "")
    return kind(client, api_key=KEY, model="m", base_url=base, retry_policy=policy)


def _error(events: list[object]) -> ProviderError:
    assert isinstance(events[-1], ProviderError), events[-1]
    message = events[-1].message
    assert "\n" not in message and len(message) < 400, message
    return events[-1]


def _after_first_text(raw: bytes, insert: str) -> bytes:
    """The transcript with `insert` after its first event that carries text."""
    at = raw.index(b"\n\n", raw.index("Grü".encode())) + 2
    return raw[:at] + insert.encode() + raw[at:]


@pytest.mark.parametrize("wire", sorted(WIRES))
async def test_a_deep_chunk_is_a_parse_error_after_the_text_before_it(
    wire: str, server: SSEServer, client: httpx.AsyncClient
) -> None:
    _, name, deep, _ = WIRES[wire]
    body = _after_first_text(transcript(name), deep)
    server.replies.append(Reply(body=body))
    events = await collect(_provider(wire, client, server))
    error = _error(events)
    assert error.kind == "parse"
    assert f"nested more than {MAX_JSON_DEPTH} levels deep" in error.message
    said = summarize(events).text
    assert said.startswith("Grü") and TEXT.startswith(said)  # what came before is kept
    assert len(server.requests) == 1  # the text already streamed: never asked again


@pytest.mark.parametrize("wire", sorted(WIRES))
async def test_an_event_of_the_wrong_shape_is_a_parse_error(
    wire: str, server: SSEServer, client: httpx.AsyncClient
) -> None:
    _, name, _, odd = WIRES[wire]
    body = _after_first_text(transcript(name), odd)
    server.replies.append(Reply(body=body))
    error = _error(await collect(_provider(wire, client, server)))
    assert error.kind == "parse" and "unreadable event" in error.message


@pytest.mark.parametrize("wire", sorted(WIRES))
@pytest.mark.parametrize("status", [200, 400])
async def test_a_deep_json_body_is_one_line(
    wire: str, status: int, server: SSEServer, client: httpx.AsyncClient
) -> None:
    body = ('{"error":' + DEEP + "}").encode()
    server.replies.append(
        Reply(status=status, body=body, headers={"content-type": "application/json"})
    )
    error = _error(await collect(_provider(wire, client, server)))
    assert error.kind == ("parse" if status == 200 else "http")
