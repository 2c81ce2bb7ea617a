"""HTTP streaming with retries: the request loop every remote provider shares.

`stream_sse()` POSTs a JSON body, checks the status, decodes the SSE byte stream and hands
each event to a wire-format parser. Failures are `ProviderFailure`s internally; what the
caller sees is a stream of `ProviderEvent`s ending with `Done` or one `ProviderError`.

Retry rules (only while no event has reached the caller, so nothing is ever shown twice):

- 429: wait `Retry-After` (seconds or HTTP date, or `retry-after-ms`); when the server asks
  for longer than `max_retry_after_s` (30 s) we do not wait at all and report
  `rate_limited(retry_after)` at once: an NPC should not freeze, the fallback can answer.
  Without the header: exponential backoff.
- 5xx, 408, connection errors, connect timeouts, a stream cut before its first event,
  server-side error events (`overloaded_error`, `server_error`): exponential backoff with
  jitter, `base_delay_s * 2**attempt` scaled into [50 %, 100 %], at most `max_delay_s`.
- Never: 4xx (other than 408/429), read timeouts (the turn already waited a whole timeout),
  parse errors, and anything after the first event was yielded (a cut stream then ends
  with `ProviderError(kind="transport")` after the partial events).

`max_retries` counts retries after the first attempt (3 -> at most 4 requests).
The sleep function is injectable so tests never really sleep.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
from pydantic import SecretStr

from game.agent.providers.base import Provider, ProviderEvent, ProviderRequest
from game.agent.providers.errors import (
    ParseFailure,
    ProviderFailure,
    failure_from_error_object,
    failure_from_exception,
    failure_from_status,
    scrub,
)
from game.agent.providers.registry import REGISTRY
from game.agent.providers.sse import SSEDecoder, SSEEvent
from game.safe_json import load_json

log = logging.getLogger("game.agent.providers")

SleepFn = Callable[[float], Awaitable[Any]]


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait before retrying a failed request."""

    max_retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    max_retry_after_s: float = 30.0
    sleep: SleepFn = field(default=asyncio.sleep, repr=False)
    random: Callable[[], float] = field(default=random.random, repr=False)

    def backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter for retry number `attempt` (0-based)."""
        delay = min(self.max_delay_s, self.base_delay_s * (2**attempt))
        return delay * (0.5 + 0.5 * self.random())

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before the next try, or None when the server asks too much."""
        if retry_after is None:
            return self.backoff(attempt)
        if retry_after > self.max_retry_after_s:
            return None
        return retry_after


class WireParser(Protocol):
    """Turns one wire format's SSE events into provider events."""

    finished: bool

    def feed(self, event: SSEEvent) -> list[ProviderEvent]:
        """Events for one SSE event; raises `ProviderFailure` for error events."""
        ...

    def finish(self) -> list[ProviderEvent]:
        """The byte stream ended: the final events, or raise `TransportFailure`."""
        ...


async def stream_sse(
    client: httpx.AsyncClient,
    *,
    label: str,
    url: str,
    headers: Mapping[str, str],
    body: dict[str, Any],
    make_parser: Callable[[], WireParser],
    policy: RetryPolicy,
    secrets: tuple[str, ...] = (),
    timeout: httpx.Timeout | float | None = None,
) -> AsyncGenerator[ProviderEvent, None]:
    """POST `body` and stream the parsed events, retrying per `policy` (see module doc)."""
    attempt = 0
    yielded = False
    extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
    while True:
        try:
            try:
                async with client.stream(
                    "POST", url, headers=dict(headers), json=body, **extra
                ) as response:
                    if response.status_code >= 400:
                        raw = await response.aread()
                        raise failure_from_status(
                            label, response.status_code, response.headers, raw, secrets=secrets
                        )
                    ctype = response.headers.get("content-type", "")
                    if "json" in ctype and "event-stream" not in ctype:
                        raise _json_instead_of_stream(label, await response.aread(), secrets)
                    parser = make_parser()
                    decoder = SSEDecoder()
                    async for chunk in response.aiter_bytes():
                        for sse in decoder.feed(chunk):
                            for event in _read(label, secrets, parser.feed, sse):
                                yielded = True
                                yield event
                            if parser.finished:
                                return
                    decoder.flush()
                    for event in _read(label, secrets, parser.finish):
                        yielded = True
                        yield event
                    return
            except (httpx.HTTPError, OSError) as exc:
                raise failure_from_exception(label, exc, secrets=secrets) from exc
        except ProviderFailure as failure:
            wait = None
            if not yielded and failure.retryable and attempt < policy.max_retries:
                wait = policy.delay(attempt, failure.retry_after)
            if wait is None:
                log.warning("%s", failure.message)
                yield failure.to_event()
                return
            attempt += 1
            log.info(
                "%s; retry %d/%d in %.2f s", failure.message, attempt, policy.max_retries, wait
            )
            await policy.sleep(wait)


def _read(
    label: str, secrets: tuple[str, ...], step: Callable[..., list[ProviderEvent]], *args: Any
) -> list[ProviderEvent]:
    """What a parser makes of an event. An event of the wrong shape (a number that is not
    one, a list for an object) is a parse failure, like malformed JSON: one line, never a
    traceback."""
    try:
        return step(*args)
    except ProviderFailure:
        raise
    except (ValueError, TypeError, LookupError, AttributeError) as exc:
        message = f"{label}: unreadable event ({type(exc).__name__}: {exc})"
        raise ParseFailure(scrub(message, secrets)) from exc


def _json_instead_of_stream(label: str, raw: bytes, secrets: tuple[str, ...]) -> ProviderFailure:
    try:
        parsed = load_json(raw)
    except ValueError:  # not JSON, or nested too deep
        parsed = None
    if isinstance(parsed, dict) and "error" in parsed:
        return failure_from_error_object(label, parsed, secrets=secrets)
    return ParseFailure(scrub(f"{label}: expected an event stream, got a JSON body", secrets))


class SSEProvider(Provider):
    """Shared plumbing of the HTTP providers: client, key, retries, the stream loop.

    A subclass's `name` is its registry entry: the default base URL and the capabilities
    are read from there.
    """

    name: str = "remote"

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
    ) -> None:
        spec = REGISTRY[self.name]
        self.client = client
        self.model = model
        self.capabilities = spec.capabilities
        self.base_url = (base_url or spec.base_url).rstrip("/")
        self._api_key = SecretStr(api_key) if api_key else None
        self.timeout = timeout
        self.extra_headers = dict(extra_headers or {})
        self.retry_policy = retry_policy or RetryPolicy(
            max_retries=max_retries, sleep=sleep or asyncio.sleep
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    @property
    def _secrets(self) -> tuple[str, ...]:
        return (self._api_key.get_secret_value(),) if self._api_key else ()

    def _key(self) -> str | None:
        return self._api_key.get_secret_value() if self._api_key else None

    def _url(self) -> str:
        raise NotImplementedError

    def _headers(self) -> dict[str, str]:
        """Authentication headers: a bearer token, as OpenAI-style servers take it."""
        key = self._key()
        return {"authorization": f"Bearer {key}"} if key else {}

    def _body(self, request: ProviderRequest) -> dict[str, Any]:
        raise NotImplementedError

    def _parser(self) -> WireParser:
        raise NotImplementedError

    def stream(self, request: ProviderRequest) -> AsyncGenerator[ProviderEvent, None]:
        """Stream the answer as typed events, ending with `Done` or `ProviderError`."""
        headers = {"accept": "text/event-stream", **self._headers(), **self.extra_headers}
        return stream_sse(
            self.client,
            label=self.name,
            url=self._url(),
            headers=headers,
            body=self._body(request),
            make_parser=self._parser,
            policy=self.retry_policy,
            secrets=self._secrets,
            timeout=self.timeout,
        )

    async def aclose(self) -> None:
        """Nothing to release: the shared `httpx.AsyncClient` belongs to the caller."""
