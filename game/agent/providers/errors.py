"""Provider failures: one exception tree, mapped 1:1 onto `ProviderError.kind`.

    ProviderFailure(GameError)        kind, message, status, retry_after, retryable
    ├── AuthFailure                   "auth"             401 / 403, bad or missing key
    ├── RateLimited                   "rate_limited"     429 (retry_after from Retry-After)
    ├── TimeoutFailure                "timeout"          connect / read / write / pool timeout
    ├── ContextOverflow               "context_overflow" the prompt does not fit the model
    ├── HTTPFailure                   "http"             any other 4xx / 5xx, server error events
    ├── TransportFailure              "transport"        reset, refused, stream cut short
    ├── ParseFailure                  "parse"            malformed JSON in an event
    ├── ToolCallFailure               "tool"             a tool call the wire cannot describe
    └── CrashFailure                  "crash"            the local model's worker process died

Inside the providers these are raised `from` the original exception; `stream()` catches them
and yields `failure.to_event()`, so callers only ever see `ProviderError` values.

Tool call arguments that are not valid JSON (a truncated reply, a confused model) are *not*
a `tool` failure: they pass through unchanged in `ToolCallDone.arguments` and the tool runner
reports the invalid JSON back to the model as a tool result it can correct. `tool` is for
calls that cannot be represented at all (e.g. a call that never got a name).

No message built here ever contains an API key: every text that came from the network or
from an exception goes through `scrub()` with the provider's secrets.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import httpx

from game.agent.providers.base import ErrorKind, ProviderError
from game.errors import GameError
from game.safe_json import load_json

_MAX_MESSAGE = 300

_CONTEXT_MARKERS = (
    "context_length_exceeded",
    "prompt is too long",
    "maximum context length",
    "context length",
    "context window",
    "too many tokens",
    "exceeds the context",
)


class ProviderFailure(GameError):
    """Root of provider failures; `kind` is the `ProviderError.kind` it becomes."""

    kind: ClassVar[ErrorKind] = "http"
    retryable_default: ClassVar[bool] = False

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        retryable: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.retryable = self.retryable_default if retryable is None else retryable

    def to_event(self) -> ProviderError:
        """The `ProviderError` event that reports this failure."""
        return ProviderError(
            kind=self.kind, message=self.message, retry_after=self.retry_after, status=self.status
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(kind={self.kind!r}, message={self.message!r})"


class AuthFailure(ProviderFailure):
    """The key was rejected or is missing."""

    kind = "auth"


class RateLimited(ProviderFailure):
    """Too many requests; `retry_after` says how long the server asked us to wait."""

    kind = "rate_limited"
    retryable_default = True


class TimeoutFailure(ProviderFailure):
    """The server did not answer (or stopped answering) in time."""

    kind = "timeout"


class ContextOverflow(ProviderFailure):
    """The request is longer than the model's context window."""

    kind = "context_overflow"


class HTTPFailure(ProviderFailure):
    """Any other HTTP error status or server-side error event."""

    kind = "http"


class TransportFailure(ProviderFailure):
    """The connection failed or the stream ended before the response was complete."""

    kind = "transport"
    retryable_default = True


class ParseFailure(ProviderFailure):
    """An event could not be decoded."""

    kind = "parse"


class ToolCallFailure(ProviderFailure):
    """A tool call that cannot be represented (e.g. it has no name)."""

    kind = "tool"


class CrashFailure(ProviderFailure):
    """The local model's worker process died (a native crash, an OOM kill)."""

    kind = "crash"


def scrub(text: str, secrets: Iterable[str | None] = ()) -> str:
    """Remove every secret from `text`, cut it to one line of bounded length."""
    for secret in secrets:
        if secret and len(secret) >= 4 and secret in text:
            text = text.replace(secret, "[redacted]")
    text = " ".join(text.split())
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE - 1] + "…"
    return text


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms` or `Retry-After` (seconds or an HTTP date)."""
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            ms = float(raw_ms)
        except ValueError:
            ms = -1.0
        if ms >= 0:
            return ms / 1000.0
    raw = headers.get("retry-after")
    if not raw:
        return None
    raw = raw.strip()
    try:
        seconds = float(raw)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(raw)
        except (TypeError, ValueError, IndexError):
            return None
        current = time.time() if now is None else now
        return max(0.0, when.timestamp() - current)
    return seconds if seconds >= 0 else None


def error_details(body: Any) -> tuple[str, str, str]:
    """(code, type, message) from an OpenAI- or Anthropic-style error object."""
    if not isinstance(body, dict):
        return "", "", ""
    err = body.get("error", body)
    if isinstance(err, str):
        return "", "", err
    if not isinstance(err, dict):
        return "", "", ""
    code = err.get("code")
    etype = err.get("type")
    message = err.get("message")
    return (
        str(code) if code is not None else "",
        str(etype) if etype is not None else "",
        str(message) if message is not None else "",
    )


def is_context_overflow(code: str, etype: str, message: str) -> bool:
    """Whether an error's code, type or message says the prompt was too long."""
    if code == "context_length_exceeded" or etype == "request_too_large":
        return True
    lowered = message.lower()
    return any(marker in lowered for marker in _CONTEXT_MARKERS)


def failure_from_status(
    label: str,
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    *,
    secrets: Iterable[str | None] = (),
) -> ProviderFailure:
    """Map an HTTP error response to a failure with a one-line, key-free message."""
    try:
        parsed: Any = load_json(body) if body else None
    except ValueError:  # not JSON (nor UTF-8), or nested too deep
        parsed = None
    code, etype, detail = error_details(parsed)
    if not detail:
        detail = body[:200].decode("utf-8", "replace") if body else ""
    reason = httpx.codes.get_reason_phrase(status) or "error"
    message = scrub(f"{label}: HTTP {status} {reason}" + (f": {detail}" if detail else ""), secrets)
    if status in (401, 403):
        return AuthFailure(message, status=status)
    if status == 429:
        quota = code == "insufficient_quota" or etype == "insufficient_quota"
        return RateLimited(
            message, status=status, retry_after=parse_retry_after(headers), retryable=not quota
        )
    if status == 413 or (400 <= status < 500 and is_context_overflow(code, etype, detail)):
        return ContextOverflow(message, status=status)
    if status == 408:
        return TimeoutFailure(message, status=status, retryable=True)
    if status >= 500:
        return HTTPFailure(
            message, status=status, retry_after=parse_retry_after(headers), retryable=True
        )
    return HTTPFailure(message, status=status)


def failure_from_error_object(
    label: str, body: Any, *, secrets: Iterable[str | None] = ()
) -> ProviderFailure:
    """Map an error delivered inside the stream (an `error` event) to a failure."""
    code, etype, detail = error_details(body)
    kind_hint = f"{code or etype}: " if (code or etype) else ""
    message = scrub(f"{label}: {kind_hint}{detail or 'error event'}", secrets)
    tag = (code or etype).lower()
    if is_context_overflow(code, etype, detail):
        return ContextOverflow(message)
    if tag in ("rate_limit_exceeded", "rate_limit_error", "rate_limited"):
        return RateLimited(message, retryable=True)
    if tag in ("authentication_error", "permission_error", "invalid_api_key"):
        return AuthFailure(message)
    if tag in ("overloaded_error", "api_error", "server_error", "internal_error"):
        return HTTPFailure(message, retryable=True)
    return HTTPFailure(message)


def failure_from_exception(
    label: str, exc: BaseException, *, secrets: Iterable[str | None] = ()
) -> ProviderFailure:
    """Map an httpx (or socket) exception to a failure; the caller raises it `from exc`."""
    detail = scrub(str(exc) or type(exc).__name__, secrets)
    if isinstance(exc, httpx.ConnectTimeout):
        return TimeoutFailure(f"{label}: connect timeout: {detail}", retryable=True)
    if isinstance(exc, httpx.TimeoutException):
        return TimeoutFailure(f"{label}: timed out: {detail}")
    if isinstance(exc, (httpx.TransportError, OSError)):
        return TransportFailure(f"{label}: connection failed: {detail}")
    return TransportFailure(f"{label}: {type(exc).__name__}: {detail}")
