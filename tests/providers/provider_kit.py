"""Helpers for provider tests: transcripts, a raw-socket SSE server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx

from game.agent.providers.base import (
    Done,
    Message,
    Provider,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCall,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    ToolSpec,
    Usage,
)

TRANSCRIPTS = Path(__file__).parent / "transcripts"
TEXT = "Grüße, café — ☕ Fresh bread today!"
KEY = "sk-test-9f8e7d6c5b4a3210FEDCBA9876543210"


def transcript(name: str) -> bytes:
    """The bytes of one recorded transcript."""
    return (TRANSCRIPTS / name).read_bytes()


def make_request(**overrides: Any) -> ProviderRequest:
    """A request that exercises every message kind and one tool."""
    values: dict[str, Any] = {
        "system": "You are Mira, the baker of Ashford.",
        "messages": [
            Message(role="user", content="Hello Mira!"),
            Message(
                role="assistant",
                content="Hi!",
                tool_calls=[ToolCall(id="call_1", name="emote", arguments='{"emote":"wave"}')],
            ),
            Message(role="tool", tool_call_id="call_1", content="ok"),
            Message(role="user", content="What's fresh?"),
        ],
        "tools": [
            ToolSpec(
                name="say",
                description="Say something out loud.",
                parameters={
                    "type": "object",
                    "properties": {"text": {"type": "string"}},
                    "required": ["text"],
                },
            )
        ],
        "max_output_tokens": 128,
        "temperature": 0.5,
    }
    values.update(overrides)
    return ProviderRequest(**values)


async def collect(provider: Provider, request: ProviderRequest | None = None) -> list[Any]:
    """All events of one stream."""
    return [ev async for ev in provider.stream(request or make_request())]


@dataclass
class Summary:
    """What a stream said, reassembled."""

    text: str
    calls: list[tuple[int, str, str, str]]
    usage: Usage | None
    end: Any


def summarize(events: list[ProviderEvent]) -> Summary:
    """Reassemble a stream and check its internal consistency on the way."""
    text: list[str] = []
    started: dict[int, ToolCallStart] = {}
    deltas: dict[int, list[str]] = {}
    calls: list[tuple[int, str, str, str]] = []
    usage = None
    for i, ev in enumerate(events):
        if isinstance(ev, TextDelta):
            text.append(ev.text)
        elif isinstance(ev, ToolCallStart):
            assert ev.index not in started
            started[ev.index] = ev
            deltas[ev.index] = []
        elif isinstance(ev, ToolCallArgsDelta):
            assert ev.index in started
            deltas[ev.index].append(ev.delta)
        elif isinstance(ev, ToolCallDone):
            start = started[ev.index]
            assert (start.id, start.name) == (ev.id, ev.name)
            assert "".join(deltas[ev.index]) in (ev.arguments, "")
            calls.append((ev.index, ev.id, ev.name, ev.arguments))
        elif isinstance(ev, Usage):
            usage = ev
        else:
            assert i == len(events) - 1, f"terminal event {ev!r} is not last"
    return Summary("".join(text), calls, usage, events[-1] if events else None)


def chat_chunk(delta: dict[str, object], finish: str | None = None) -> bytes:
    """One Chat Completions stream event: a choice's delta (and how it finished)."""
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return b"data: " + json.dumps({"choices": [choice]}).encode() + b"\n\n"


# --- a raw-socket HTTP server ---------------------------------------------------------------


@dataclass
class Reply:
    """What the server does for one request."""

    status: int = 200
    body: bytes | list[bytes] = b""
    headers: dict[str, str] = field(default_factory=lambda: {"content-type": "text/event-stream"})
    framing: Literal["chunked", "close"] = "chunked"
    then: Literal["end", "reset", "hold"] = "end"
    byte_writes: bool = False  # write the body one byte per write


@dataclass
class Seen:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class SSEServer:
    """Answers each request with the next `Reply` (or `reply_for(request)`), raw bytes."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.reply_for: Callable[[Seen], Reply] | None = None
        self.requests: list[Seen] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._hold = asyncio.Event()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self._hold.set()
        if self._server is not None:
            self._server.close()
        if self._tasks:  # released from `hold`, the handlers finish by themselves
            _, pending = await asyncio.wait(list(self._tasks), timeout=5)
            for task in pending:
                task.cancel()
        if self._server is not None:
            await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if line:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        seen = Seen(method, path, headers, body)
        self.requests.append(seen)
        reply = self.reply_for(seen) if self.reply_for else self.replies.pop(0)

        out = [f"HTTP/1.1 {reply.status} {httpx.codes.get_reason_phrase(reply.status)}"]
        out += [f"{k}: {v}" for k, v in reply.headers.items()]
        if reply.framing == "chunked":
            out.append("transfer-encoding: chunked")
        out.append("connection: close")
        writer.write(("\r\n".join(out) + "\r\n\r\n").encode("latin-1"))
        await writer.drain()

        pieces = [reply.body] if isinstance(reply.body, bytes) else list(reply.body)
        if reply.byte_writes:
            pieces = [bytes([b]) for piece in pieces for b in piece]
        for piece in pieces:
            if not piece:
                continue
            if reply.framing == "chunked":
                writer.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            else:
                writer.write(piece)
            await writer.drain()
        if reply.then == "reset":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            return
        if reply.then == "hold":
            await self._hold.wait()
            return
        if reply.framing == "chunked":
            writer.write(b"0\r\n\r\n")
        await writer.drain()


class SleepRecorder:
    """An injected sleep that records the delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def done(events: list[Any]) -> Done:
    """The final event, asserted to be a normal end."""
    assert isinstance(events[-1], Done), events[-1]
    return events[-1]
