"""Provider benchmark: SSE decoding speed (ours vs httpx-sse), plus local-model figures.

Run: python tests/benchmarks/providers.py   -> one JSON line:

    sse_mb_per_s            our decoder over a 10 MB transcript, through an httpx response
                            (MockTransport streaming 4-16 KiB chunks), the providers' path
    sse_ratio_vs_httpx_sse  our speed / httpx-sse's speed over the same bytes and transport

and, from `local.model.figures()` (the sibling module; all null when llama-cpp-python or
the bundled model is missing), the local provider (llama.cpp in its worker process):

    local_tok_per_s_ratio   decode tok/s through the provider (event stamps in the game
                            process) / raw llama-cpp-python `create_completion(stream=True)`
                            in this process: same prompt tokens and llama.cpp settings,
                            greedy, best of 3 each, interleaved (target >= 0.95)
    local_tok_per_s,        the two rates, and the tokens each round generated
    raw_tok_per_s,
    tokens_compared
    ttft_cold_s             first request of a freshly loaded provider: stream() to the
                            first event (a realistic NPC turn with the game's skills)
    prompt_tokens_cold      that request's prompt length
    ttft_warm_s             the same NPC's next three turns, median (target <= 0.3 s)
    prefilled_tokens_warm   the most prompt tokens one warm turn evaluated (the rest reused)
    ttft_speedup            ttft_cold_s / ttft_warm_s
    cold_start_s            a new provider whose probe record exists (every start after the
                            first): construction to the first event of its first request
                            (worker spawn + model load + prefill + first token)
    first_run_probe_s       load() with no probe record yet (the first start on a machine)
    settings                the llama.cpp settings rung the probe chose ("default", "safe")
    n_threads               llama.cpp threads
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for _path in (ROOT, HERE):  # the game, and the sibling `local.model` module
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import local_model  # noqa: E402

from game.agent.providers.local.model import local_available  # noqa: E402
from game.agent.providers.sse import SSEDecoder  # noqa: E402

TRANSCRIPTS = ROOT / "tests" / "providers" / "transcripts"
SIZE = 10 * 1000 * 1000
RUNS = 5
LOCAL_KEYS = (
    "local_tok_per_s_ratio",
    "local_tok_per_s",
    "raw_tok_per_s",
    "tokens_compared",
    "ttft_cold_s",
    "prompt_tokens_cold",
    "ttft_warm_s",
    "prefilled_tokens_warm",
    "ttft_speedup",
    "cold_start_s",
    "first_run_probe_s",
    "settings",
    "n_threads",
)


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
    """The local provider's figures (`local.model.figures()`), or nulls when it cannot run."""
    if not local_available():
        return dict.fromkeys(LOCAL_KEYS)
    return {**dict.fromkeys(LOCAL_KEYS), **local_model.figures()}


def main() -> None:
    """Print the figures as one JSON line."""
    figures = {**asyncio.run(sse_figures()), **local_figures()}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
