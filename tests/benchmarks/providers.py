"""Provider benchmark: SSE decoding speed (ours vs httpx-sse), plus local-model figures.

Run: python tests/benchmarks/providers.py   -> one JSON line:

    sse_mb_per_s            our decoder over a 10 MB transcript, through an httpx response
                            (MockTransport streaming 4-16 KiB chunks), the providers' path
    sse_ratio_vs_httpx_sse  our speed / httpx-sse's speed over the same bytes and transport
    local_tok_per_s_ratio,  from `game.agent.providers.local_llama.local_figures()` when that
    ttft_warm_s,            function exists; null otherwise
    ttft_cold_s
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import EventSource

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.agent.providers.sse import SSEDecoder  # noqa: E402

TRANSCRIPTS = ROOT / "tests" / "providers" / "transcripts"
SIZE = 10 * 1000 * 1000
RUNS = 5
LOCAL_KEYS = ("local_tok_per_s_ratio", "ttft_warm_s", "ttft_cold_s")


def build_transcript(size: int = SIZE) -> bytes:
    """The recorded transcripts (all three wire formats) repeated up to `size` bytes."""
    parts = [p.read_bytes() for p in sorted(TRANSCRIPTS.glob("*.sse"))]
    one = b"".join(parts)
    return one * (size // len(one) + 1)


def chunked(data: bytes, seed: int = 7) -> list[bytes]:
    """Cut into realistic network reads of 4-16 KiB."""
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(data):
        n = rng.randint(4096, 16384)
        out.append(data[i : i + n])
        i += n
    return out


class _Body(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk


def _client(chunks: list[bytes]) -> httpx.AsyncClient:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, headers={"content-type": "text/event-stream"}, stream=_Body(chunks)
        )

    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def _ours(client: httpx.AsyncClient) -> int:
    count = 0
    async with client.stream("POST", "http://bench.test/") as response:
        decoder = SSEDecoder()
        async for chunk in response.aiter_bytes():
            count += len(decoder.feed(chunk))
    return count


async def _theirs(client: httpx.AsyncClient) -> int:
    count = 0
    async with client.stream("POST", "http://bench.test/") as response:
        async for _ in EventSource(response).aiter_sse():
            count += 1
    return count


async def sse_figures() -> dict[str, Any]:
    """Throughput of our decoder and its speed relative to httpx-sse."""
    data = build_transcript()
    chunks = chunked(data)
    best = {"ours": float("inf"), "theirs": float("inf")}
    counts = {}
    async with _client(chunks) as client:
        for _ in range(RUNS):
            for name, fn in (("ours", _ours), ("theirs", _theirs)):
                start = time.perf_counter()
                counts[name] = await fn(client)
                best[name] = min(best[name], time.perf_counter() - start)
    if counts["ours"] != counts["theirs"]:
        raise SystemExit(f"decoders disagree: {counts}")
    return {
        "sse_mb_per_s": round(len(data) / best["ours"] / 1e6, 1),
        "sse_ratio_vs_httpx_sse": round(best["theirs"] / best["ours"], 2),
    }


def local_figures() -> dict[str, Any]:
    """The local model's figures from its own module, or nulls when it offers none."""
    try:
        from game.agent.providers.local_llama import local_figures as figures
    except ImportError:
        return dict.fromkeys(LOCAL_KEYS)
    return {**dict.fromkeys(LOCAL_KEYS), **figures()}


def main() -> None:
    """Print the figures as one JSON line."""
    figures = {**asyncio.run(sse_figures()), **local_figures()}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
