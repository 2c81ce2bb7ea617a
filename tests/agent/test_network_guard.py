"""The autouse guard in tests/conftest.py: the real network is out of reach, loopback is not."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import httpx
import pytest

# The guard lives in tests/conftest.py, which is not importable as a module: its fixture
# is the handle, and its error is a RuntimeError named NetworkBlocked.
NetworkGuard = Any


def test_connecting_to_a_remote_host_is_blocked(no_network: NetworkGuard) -> None:
    with pytest.raises(RuntimeError, match="real network") as caught:
        socket.create_connection(("203.0.113.7", 443), timeout=1)
    assert type(caught.value).__name__ == "NetworkBlocked"
    with socket.socket() as sock, pytest.raises(RuntimeError, match=r"198\.51\.100\.1"):
        sock.connect(("198.51.100.1", 80))
    with pytest.raises(RuntimeError, match=r"api\.openai\.com"):
        socket.getaddrinfo("api.openai.com", 443)
    assert len(no_network.attempts) == 3
    no_network.attempts.clear()  # this test meant to try


async def test_an_http_client_cannot_reach_a_provider(no_network: NetworkGuard) -> None:
    async with httpx.AsyncClient() as client:
        with pytest.raises(RuntimeError, match="real network"):
            await client.get("https://api.anthropic.com/v1/messages")
    assert no_network.attempts
    no_network.attempts.clear()


async def test_loopback_stays_reachable(no_network: NetworkGuard) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server, httpx.AsyncClient() as client:
        for host in ("127.0.0.1", "localhost"):
            response = await client.get(f"http://{host}:{port}/")
            assert response.text == "ok"
    assert no_network.attempts == []
