"""Providers against a real HTTP server on 127.0.0.1: chunking, faults, retries, secrecy."""

from __future__ import annotations

import email.utils
import json
import logging
import time
from typing import Literal

import httpx
import pytest
from provider_kit import (
    KEY,
    TEXT,
    Reply,
    SleepRecorder,
    SSEServer,
    collect,
    done,
    make_request,
    summarize,
    transcript,
)

from game.agent.providers.anthropic import AnthropicProvider
from game.agent.providers.base import Done, ProviderError, TextDelta, ToolCallDone
from game.agent.providers.errors import (
    AuthFailure,
    ProviderFailure,
    RateLimited,
    parse_retry_after,
)
from game.agent.providers.openai_chat import OpenAIChatProvider
from game.agent.providers.openai_responses import OpenAIResponsesProvider
from game.agent.providers.retry import RetryPolicy, SSEProvider

KINDS: dict[str, type[SSEProvider]] = {
    "openai_responses_tool.sse": OpenAIResponsesProvider,
    "openai_chat_tool.sse": OpenAIChatProvider,
    "anthropic_tool.sse": AnthropicProvider,
}


def chat(client: httpx.AsyncClient, server: SSEServer, sleeps: SleepRecorder, **kw):
    policy = RetryPolicy(max_retries=kw.pop("max_retries", 3), sleep=sleeps, random=lambda: 1.0)
    return OpenAIChatProvider(
        client, api_key=KEY, model="m", base_url=server.url + "/v1", retry_policy=policy, **kw
    )


def error(events: list[object]) -> ProviderError:
    assert isinstance(events[-1], ProviderError), events[-1]
    return events[-1]


# --- chunking over a real socket ------------------------------------------------------------


def split_points(raw: bytes) -> list[int]:
    """A sample of interesting cut points: inside multi-byte characters, inside `data:`."""
    points = {1, 2, 5, len(raw) // 3, len(raw) // 2, len(raw) - 3, len(raw) - 1}
    for needle in ("ü".encode(), "☕".encode(), "—".encode()):
        at = raw.index(needle)
        points.update({at + 1, at + len(needle) - 1})
    at = raw.index(b"data:", 50)
    points.update({at + 1, at + 3, at + 5, at - 1})
    at = raw.index(b"\n\n", 100)
    points.update({at, at + 1})
    return sorted(p for p in points if 0 < p < len(raw))


@pytest.mark.parametrize("name", sorted(KINDS))
async def test_transcript_over_socket_in_many_chunkings(
    name: str, server: SSEServer, client: httpx.AsyncClient
) -> None:
    raw = transcript(name)
    provider = KINDS[name](client, api_key=KEY, model="m", base_url=server.url)
    expected = await _run_with(server, provider, Reply(body=raw))
    assert expected.calls and expected.usage and isinstance(expected.end, Done)
    variants = [Reply(body=[raw[:k], raw[k:]]) for k in split_points(raw)]
    variants.append(Reply(body=raw, byte_writes=True))
    variants.append(Reply(body=raw.replace(b"\n", b"\r\n"), framing="close"))
    for reply in variants:
        assert await _run_with(server, provider, reply) == expected


async def _run_with(server: SSEServer, provider: SSEProvider, reply: Reply):
    server.replies.append(reply)
    return summarize(await collect(provider))


async def test_two_megabyte_reply_streams_fully(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    piece = "Grüße, café — ☕ " * 64
    chunk = (
        b"data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": piece}}]}).encode()
    )
    count = 2 * 1024 * 1024 // len(chunk) + 1
    body = (chunk + b"\n\n") * count
    body += b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    assert len(body) > 2 * 1024 * 1024
    server.replies.append(Reply(body=[body[i : i + 65536] for i in range(0, len(body), 65536)]))
    events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == piece * count
    assert done(events).stop_reason == "stop"


# --- faults -----------------------------------------------------------------------------------


async def test_401_is_auth_without_retry_and_never_shows_the_key(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    body = json.dumps(
        {"error": {"message": f"Incorrect API key provided: {KEY}.", "code": "invalid_api_key"}}
    )
    server.replies.append(
        Reply(status=401, body=body.encode(), headers={"content-type": "application/json"})
    )
    provider = chat(client, server, sleeps)
    events = await collect(provider)
    err = error(events)
    assert (err.kind, err.status) == ("auth", 401)
    assert "Incorrect API key" in err.message
    assert len(server.requests) == 1 and sleeps.delays == []
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    failure = AuthFailure(err.message, status=err.status)  # as a caller would raise it
    for text in (err.message, repr(err), str(err), repr(failure), str(failure), repr(provider)):
        assert KEY not in text
    assert KEY not in repr(vars(provider))
    assert caplog.records, "the failure should be logged"
    assert all(KEY not in r.getMessage() for r in caplog.records)
    assert KEY not in caplog.text


async def test_403_is_auth(server: SSEServer, client: httpx.AsyncClient, sleeps) -> None:
    server.replies.append(Reply(status=403, body=b"forbidden", headers={}))
    assert error(await collect(chat(client, server, sleeps))).kind == "auth"


async def test_429_retry_after_is_honoured(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    server.replies += [
        Reply(status=429, body=b"{}", headers={"retry-after": "2"}),
        Reply(status=429, body=b"{}", headers={"retry-after-ms": "250"}),
        Reply(body=transcript("openai_chat_text.sse")),
    ]
    events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == TEXT
    assert sleeps.delays == [2.0, 0.25]
    assert len(server.requests) == 3


async def test_429_with_http_date_and_too_long_waits(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    later = email.utils.formatdate(time.time() + 3600, usegmt=True)
    server.replies.append(Reply(status=429, body=b"{}", headers={"retry-after": later}))
    err = error(await collect(chat(client, server, sleeps)))
    assert err.kind == "rate_limited" and err.retry_after is not None
    assert 3500 < err.retry_after <= 3600
    assert sleeps.delays == [] and len(server.requests) == 1  # over the 30 s cap: no wait


async def test_429_exhausted_reports_rate_limited(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    server.reply_for = lambda seen: Reply(status=429, body=b"{}", headers={"retry-after": "1"})
    err = error(await collect(chat(client, server, sleeps, max_retries=2)))
    assert (err.kind, err.retry_after, err.status) == ("rate_limited", 1.0, 429)
    assert sleeps.delays == [1.0, 1.0] and len(server.requests) == 3


async def test_500_then_success_retries_with_backoff(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    server.replies += [
        Reply(status=500, body=b'{"error":{"message":"boom"}}'),
        Reply(body=transcript("openai_chat_tool.sse")),
    ]
    events = await collect(chat(client, server, sleeps))
    assert len(summarize(events).calls) == 2
    assert sleeps.delays == [0.5]


async def test_503_exhausted(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    server.reply_for = lambda seen: Reply(status=503, body=b"upstream unavailable", headers={})
    err = error(await collect(chat(client, server, sleeps)))
    assert (err.kind, err.status) == ("http", 503)
    assert "upstream unavailable" in err.message
    assert sleeps.delays == [0.5, 1.0, 2.0] and len(server.requests) == 4


async def test_reset_after_headers_is_retried(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    server.replies += [
        Reply(then="reset"),
        Reply(body=transcript("openai_chat_text.sse")),
    ]
    events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == TEXT
    assert len(sleeps.delays) == 1 and len(server.requests) == 2


async def test_reset_after_headers_every_time_is_transport(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    server.reply_for = lambda seen: Reply(then="reset")
    err = error(await collect(chat(client, server, sleeps, max_retries=1)))
    assert err.kind == "transport" and len(server.requests) == 2


@pytest.mark.parametrize("framing", ["chunked", "close"])
async def test_reset_mid_stream_keeps_partial_text_and_does_not_retry(
    framing: Literal["chunked", "close"],
    server: SSEServer,
    client: httpx.AsyncClient,
    sleeps: SleepRecorder,
) -> None:
    raw = transcript("openai_chat_text.sse")
    cut = raw.index("café".encode())
    server.reply_for = lambda seen: Reply(body=raw[:cut], then="reset", framing=framing)
    events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == "Grüße, "
    assert error(events).kind == "transport"
    assert len(server.requests) == 1 and sleeps.delays == []


async def test_clean_close_mid_tool_call_is_transport(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    raw = transcript("openai_chat_tool.sse")
    cut = raw.index(b"\n\n", raw.index("Grü".encode())) + 2
    server.replies.append(Reply(body=raw[:cut]))
    events = await collect(chat(client, server, sleeps))
    assert not any(isinstance(e, ToolCallDone) and e.name == "say" for e in events)
    assert error(events).kind == "transport" and len(server.requests) == 1


async def test_truncated_tool_arguments_pass_through(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    raw = transcript("openai_chat_tool.sse")
    cut = raw.index(b"\n\n", raw.index("Grü".encode())) + 2
    finish = b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n\n'
    server.replies.append(Reply(body=raw[:cut] + finish + b"data: [DONE]\n\n"))
    events = await collect(chat(client, server, sleeps))
    calls = summarize(events).calls
    assert calls[1][2:] == ("say", '{"text":"Grü')
    assert done(events).stop_reason == "length"


async def test_unknown_events_are_ignored_and_malformed_ones_are_parse_errors(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    raw = transcript("openai_chat_text.sse")
    first = raw.index(b"\n\n") + 2
    unknown = (
        b'data: {"object":"chat.completion.chunk","choices":[],"x_new":1}\n\n'
        b"event: vendor.metrics\ndata: {}\n\n: OPENROUTER PROCESSING\n\n"
    )
    server.replies.append(Reply(body=[raw[:first], unknown, raw[first:]]))
    events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == TEXT and done(events)

    cut = raw.index(b"\n\n", raw.index("café".encode())) + 2
    server.replies.append(Reply(body=[raw[:cut], b"data: {not json\n\n", raw[cut:]]))
    events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == "Grüße, café"
    assert error(events).kind == "parse"
    assert len(server.requests) == 2 and sleeps.delays == []


async def test_stall_past_read_timeout_is_timeout_without_retry(
    server: SSEServer, sleeps: SleepRecorder
) -> None:
    raw = transcript("openai_chat_text.sse")
    cut = raw.index("café".encode())
    server.reply_for = lambda seen: Reply(body=raw[:cut], then="hold")
    async with httpx.AsyncClient(timeout=httpx.Timeout(5.0, read=0.2)) as client:
        events = await collect(chat(client, server, sleeps))
    assert summarize(events).text == "Grüße, "
    assert error(events).kind == "timeout"
    assert len(server.requests) == 1 and sleeps.delays == []


async def test_stall_before_headers_is_timeout(server: SSEServer, sleeps: SleepRecorder) -> None:
    server.reply_for = lambda seen: Reply(then="hold")
    async with httpx.AsyncClient(timeout=httpx.Timeout(5.0, read=0.2)) as client:
        events = await collect(chat(client, server, sleeps))
    assert [type(e) for e in events] == [ProviderError]
    assert error(events).kind == "timeout"


async def test_connection_refused_is_transport_after_retries(
    client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    srv = SSEServer()
    await srv.start()
    url = srv.url
    await srv.stop()  # nothing listens on this port any more
    provider = OpenAIChatProvider(
        client,
        api_key=KEY,
        model="m",
        base_url=url,
        retry_policy=RetryPolicy(max_retries=2, sleep=sleeps, random=lambda: 0.0),
    )
    err = error(await collect(provider))
    assert err.kind == "transport"
    assert sleeps.delays == [0.25, 0.5]


@pytest.mark.parametrize(
    ("cls", "status", "body", "kind"),
    [
        (
            OpenAIResponsesProvider,
            400,
            {
                "error": {
                    "message": "Your input exceeds the context window of this model.",
                    "type": "invalid_request_error",
                    "param": "input",
                    "code": "context_length_exceeded",
                }
            },
            "context_overflow",
        ),
        (
            AnthropicProvider,
            400,
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "prompt is too long: 215004 tokens > 200000 maximum",
                },
            },
            "context_overflow",
        ),
        (
            OpenAIChatProvider,
            400,
            {"error": {"message": "Invalid value for 'tools'", "type": "invalid_request_error"}},
            "http",
        ),
        (
            AnthropicProvider,
            401,
            {"type": "error", "error": {"type": "authentication_error", "message": "x-api-key"}},
            "auth",
        ),
        (OpenAIChatProvider, 404, {"error": "model 'x' not found"}, "http"),
    ],
)
async def test_status_mapping(
    cls, status, body, kind, server: SSEServer, client: httpx.AsyncClient, sleeps
) -> None:
    server.replies.append(
        Reply(
            status=status,
            body=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
    )
    provider = cls(client, api_key=KEY, model="m", base_url=server.url, sleep=sleeps)
    err = error(await collect(provider))
    assert (err.kind, err.status) == (kind, status)
    assert len(server.requests) == 1


async def test_anthropic_overloaded_event_before_text_is_retried(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    overloaded = (
        b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
        b'"message": "Overloaded"}}\n\n'
    )
    server.replies += [Reply(body=overloaded), Reply(body=transcript("anthropic_text.sse"))]
    provider = AnthropicProvider(client, api_key=KEY, model="c", base_url=server.url, sleep=sleeps)
    events = await collect(provider)
    assert summarize(events).text == TEXT and len(sleeps.delays) == 1
    assert server.requests[0].headers["x-api-key"] == KEY


async def test_anthropic_overloaded_after_text_is_reported(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    raw = transcript("anthropic_text.sse")
    cut = raw.index(b"\n\n", raw.index("café".encode())) + 2
    overloaded = (
        b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", '
        b'"message": "Overloaded"}}\n\n'
    )
    server.replies.append(Reply(body=raw[:cut] + overloaded))
    provider = AnthropicProvider(client, api_key=KEY, model="c", base_url=server.url, sleep=sleeps)
    events = await collect(provider)
    assert isinstance(events[0], TextDelta)
    assert error(events).kind == "http" and "Overloaded" in error(events).message
    assert sleeps.delays == []


async def test_consumer_stopping_early_closes_the_response(
    server: SSEServer, client: httpx.AsyncClient, sleeps: SleepRecorder
) -> None:
    raw = transcript("openai_chat_text.sse")
    cut = raw.index(b"\n\n", raw.index("Grü".encode())) + 2
    server.reply_for = lambda seen: Reply(body=raw[:cut], then="hold")
    stream = chat(client, server, sleeps).stream(make_request())
    assert await stream.__anext__() == TextDelta(text="Grü")
    await stream.aclose()  # must not hang on the held connection
    assert len(server.requests) == 1


# --- pure helpers -------------------------------------------------------------------------------


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "1.5"}) == 1.5
    assert parse_retry_after({"retry-after-ms": "20", "retry-after": "9"}) == 0.02
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470) == 10
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


def test_backoff_grows_with_jitter_and_is_capped() -> None:
    lo = RetryPolicy(random=lambda: 0.0)
    hi = RetryPolicy(random=lambda: 1.0)
    assert [hi.backoff(n) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert [lo.backoff(n) for n in range(3)] == [0.25, 0.5, 1.0]
    assert hi.delay(0, 31.0) is None and hi.delay(0, 30.0) == 30.0


def test_failure_tree() -> None:
    failure = RateLimited("m", retry_after=2)
    assert isinstance(failure, RateLimited) and isinstance(failure, ProviderFailure)
    assert failure.to_event() == ProviderError(kind="rate_limited", message="m", retry_after=2)
