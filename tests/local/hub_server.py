"""A loopback Hugging Face Hub for tests: `/resolve/` HEAD and GET as huggingface_hub 2.4 asks.

Besides the hub's own answers (files, gated repos, missing revisions, cut connections) it
plays three hostile ones a pull must survive: a redirect to another host (`redirect`), a
body that goes on past the size it declared (`overflow`), and an HTML page with no ETag
where a file should be (`html_page`).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

DEFAULT_COMMIT = "5eed0c0ffee0ddba11cafe0123456789abcdef01"
CHUNK = 1 << 20
OVERFLOW_LIMIT = 256 * CHUNK  # an overflowing body stops here even if nobody hangs up
HTML_PAGE = b"<html><body>Sign in, please.</body></html>\n"  # a captive portal's 43 bytes
_ROUTE = re.compile(r"/([^/]+)/([^/]+)/resolve/([^/]+)/(.+)")
_RANGE = re.compile(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*")
_OPEN: list[bool] = []  # one entry per open hub: the telemetry setting the first one found
_OPEN_LOCK = threading.Lock()


def _quiet_client(opening: bool) -> None:
    """Keep huggingface_hub's telemetry off while any hub is open: with it on, the first
    user agent fetches an agent list from huggingface.co, whatever endpoint is asked."""
    from huggingface_hub import constants

    with _OPEN_LOCK:
        if opening:
            _OPEN.append(_OPEN[0] if _OPEN else constants.HF_HUB_DISABLE_TELEMETRY)
            constants.HF_HUB_DISABLE_TELEMETRY = True
        else:
            saved = _OPEN.pop()
            if not _OPEN:
                constants.HF_HUB_DISABLE_TELEMETRY = saved


@dataclass
class _File:
    """One served file: bytes in memory or a path streamed from disk."""

    source: bytes | Path
    size: int
    sha256: str
    corrupt: bool = False
    redirect: str | None = None  # another server's base URL the file is sent to
    redirect_head: bool = True  # the HEAD is redirected too (as the hub does), or only the GET
    overflow: bool = False  # the GET sends past the size, without end
    overflow_length: bool = False  # ... under a Content-Length that says so
    html: bool = False  # an HTML page with no ETag is served instead

    def chunks(self, start: int, end: int) -> Iterator[bytes]:
        """Bytes [start, end) a chunk at a time; when corrupt, the file's last byte is flipped."""
        src = self.source
        with io.BytesIO(src) if isinstance(src, bytes) else src.open("rb") as f:
            f.seek(start)
            while start < end and (part := f.read(min(CHUNK, end - start))):
                if self.corrupt and start + len(part) == self.size:
                    part = part[:-1] + bytes([part[-1] ^ 0xFF])
                start += len(part)
                yield part


@dataclass
class _Repo:
    """A repo: its one commit, its files and whether it is gated."""

    commit: str = DEFAULT_COMMIT
    files: dict[str, _File] = field(default_factory=dict)
    gated: bool = False


class _Handler(BaseHTTPRequestHandler):
    """Answers one connection's requests for the hub."""

    protocol_version = "HTTP/1.1"
    timeout = 30  # a client that stalls this long is dropped, so close() never hangs
    hub: LoopbackHub  # set on the per-hub subclass

    def handle(self) -> None:
        """Serve the connection's requests, registered so that close() can cut it."""
        self.hub._track(self.connection, True)
        try:
            super().handle()
        finally:
            self.hub._track(self.connection, False)

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet."""

    def do_HEAD(self) -> None:
        """File metadata."""
        self._answer(body=False)

    def do_GET(self) -> None:
        """File content, whole or a range."""
        self._answer(body=True)

    def _answer(self, body: bool) -> None:
        """Serve the request, treating a vanished client as the end of the connection."""
        try:
            self.hub._serve(self, body)
        except _Refusal as r:
            self._error(r)
        except (ConnectionError, TimeoutError):
            self.close_connection = True

    def _error(self, r: _Refusal) -> None:
        """An error response with the hub's X-Error-Code / X-Error-Message headers."""
        data = json.dumps({"error": r.message}).encode() if self.command == "GET" else b""
        code = {"X-Error-Code": r.code} if r.code else {}
        message = {"X-Error-Message": r.message, "Content-Type": "application/json"}
        self.head(r.status, {**r.headers, **code, **message, "Content-Length": str(len(data))})
        self.wfile.write(data)

    def head(self, status: int, headers: dict[str, str]) -> None:
        """Send the status line and `headers`."""
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()


@dataclass
class _Refusal(Exception):
    """An error answer: status, X-Error-Code, X-Error-Message and extra headers."""

    status: int
    code: str | None
    message: str
    headers: dict[str, str] = field(default_factory=dict)


class LoopbackHub:
    """A Hugging Face Hub on 127.0.0.1 serving registered files as LFS files (and, while open,
    huggingface_hub's telemetry off, so that nothing it does leaves the machine)."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, str | None]] = []
        self.authorizations: list[str | None] = []  # each request's Authorization header
        self.overflow_sent = 0  # bytes an overflowing GET sent past the declared size
        self._repos: dict[str, _Repo] = {}
        self._lock = threading.Lock()
        self._conns: set[socket.socket] = set()
        self._cut: int | None = None
        self._then_refuse = False
        self._refusing = False
        self._closed = False
        handler = type("Handler", (_Handler,), {"hub": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)  # joins handlers on close
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        _quiet_client(True)

    def add(
        self, repo: str, filename: str, source: bytes | Path, *, commit: str = DEFAULT_COMMIT
    ) -> str:
        """Serve `source` as `repo`'s `filename` at `commit` (the repo's commit from now on)."""
        if isinstance(source, bytes):
            size, sha = len(source), hashlib.sha256(source).hexdigest()
        else:
            with source.open("rb") as f:
                size, sha = source.stat().st_size, hashlib.file_digest(f, "sha256").hexdigest()
        with self._lock:
            entry = self._repos.setdefault(repo, _Repo())
            entry.commit = commit
            entry.files[filename] = _File(source, size, sha)
        return sha

    def gate(self, repo: str) -> None:
        """Answer every request for `repo` with 403 GatedRepo."""
        with self._lock:
            self._repos.setdefault(repo, _Repo()).gated = True

    def cut_next_get(self, after_bytes: int, *, then_refuse: bool = True) -> None:
        """End the next file GET's body after `after_bytes` bytes; then 503 every GET if asked."""
        with self._lock:
            self._cut, self._then_refuse = after_bytes, then_refuse

    def heal(self) -> None:
        """Stop refusing GETs (and drop a cut not yet made)."""
        with self._lock:
            self._cut, self._refusing = None, False

    def corrupt(self, repo: str, filename: str) -> None:
        """Serve the file with its last byte flipped; size, ETag and sha256 stay the same."""
        with self._lock:
            self._repos[repo].files[filename].corrupt = True

    def redirect(self, repo: str, filename: str, to: str, *, head: bool = True) -> None:
        """Answer the file's GET (and HEAD, unless `head` is False) with a 302 to the same
        path on the server at `to`, carrying the file's size and ETag as the hub does."""
        with self._lock:
            file = self._repos[repo].files[filename]
            file.redirect, file.redirect_head = to.rstrip("/"), head

    def overflow(self, repo: str, filename: str, *, content_length: bool = False) -> None:
        """Declare the file's size (HEAD) but send its bytes and then more, without end (up
        to OVERFLOW_LIMIT); with `content_length` the GET also declares the larger size."""
        with self._lock:
            file = self._repos[repo].files[filename]
            file.overflow, file.overflow_length = True, content_length

    def html_page(self, repo: str, filename: str) -> None:
        """Serve a 43-byte HTML page with no ETag, size or commit as `repo`'s `filename`."""
        with self._lock:
            entry = self._repos.setdefault(repo, _Repo())
            entry.files[filename] = _File(HTML_PAGE, len(HTML_PAGE), "", html=True)

    def close(self) -> None:
        """Stop serving, cut open connections and join every thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._server.shutdown()
        with self._lock:
            for conn in self._conns:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
        self._server.server_close()
        self._thread.join()
        _quiet_client(False)

    def __enter__(self) -> LoopbackHub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _track(self, conn: socket.socket, is_open: bool) -> None:
        """Remember or forget an open connection; one accepted just as the hub closes (its
        handler starts after close() cut the others) is cut at once."""
        with self._lock:
            if is_open and self._closed:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
                return
            (self._conns.add if is_open else self._conns.discard)(conn)

    def _serve(self, h: _Handler, body: bool) -> None:
        """Answer one HEAD or GET of `/{repo}/resolve/{revision}/{path}`."""
        with self._lock:
            self.requests.append((h.command, h.path, h.headers.get("Range")))
            self.authorizations.append(h.headers.get("Authorization"))
            route = _ROUTE.fullmatch(urlsplit(h.path).path)
            repo = self._repos.get(unquote(f"{route[1]}/{route[2]}")) if route else None
            refusing = body and self._refusing
        if refusing:
            raise _Refusal(503, None, "Service unavailable (refusing, see LoopbackHub.heal)")
        if route is None or repo is None:
            raise _Refusal(401, "RepoNotFound", "Repository not found")
        if repo.gated:
            raise _Refusal(403, "GatedRepo", "Access to this repository is restricted.")
        if unquote(route[3]) not in (repo.commit, "main"):
            raise _Refusal(404, "RevisionNotFound", "Invalid rev id: " + unquote(route[3]))
        commit = {"X-Repo-Commit": repo.commit}
        file = repo.files.get(unquote(route[4]))
        if file is None:
            raise _Refusal(404, "EntryNotFound", "Entry not found", commit)
        if file.html:
            h.head(200, {"Content-Type": "text/html", "Content-Length": str(len(HTML_PAGE))})
            if body:
                h.wfile.write(HTML_PAGE)
            return
        etag = f'"{file.sha256}"'
        if file.redirect is not None and (body or file.redirect_head):
            linked = {"X-Linked-Etag": etag, "X-Linked-Size": str(file.size)}
            where = {"Location": file.redirect + h.path, "Content-Length": "0"}
            h.head(302, {**commit, **linked, **where})
            return
        if file.overflow and body:
            self._overflow(h, file)
            return
        start, end, status = 0, file.size, 200
        if (asked := h.headers.get("Range")) is not None:
            m = _RANGE.fullmatch(asked)
            if m and m[1]:
                start, end = int(m[1]), min(int(m[2]) + 1 if m[2] else file.size, file.size)
            elif m and m[2]:
                start = max(file.size - int(m[2]), 0)
            if not m or not (m[1] or m[2]) or start >= end:
                range_error = {**commit, "Content-Range": f"bytes */{file.size}"}
                raise _Refusal(416, None, "Range not satisfiable", range_error)
            status = 206
        ranged = {"Content-Range": f"bytes {start}-{end - 1}/{file.size}"} if status == 206 else {}
        h.head(
            status,
            {
                **commit,
                "ETag": etag,
                "X-Linked-Etag": etag,
                "X-Linked-Size": str(file.size),
                "Accept-Ranges": "bytes",
                "Content-Type": "application/octet-stream",
                "Content-Length": str(end - start),
                **ranged,
            },
        )
        if not body:
            return
        with self._lock:
            cut, self._cut = self._cut, None
            self._refusing = self._refusing or (cut is not None and self._then_refuse)
        stop = end if cut is None else min(end, start + cut)
        for part in file.chunks(start, stop):
            h.wfile.write(part)
        if stop < end:
            h.close_connection = True  # a short body: the client sees the connection drop

    def _overflow(self, h: _Handler, file: _File) -> None:
        """The whole file, then zeros until the client hangs up or OVERFLOW_LIMIT is sent."""
        length = {"Content-Length": str(file.size * 64)} if file.overflow_length else {}
        h.head(200, {"Content-Type": "application/octet-stream", "Connection": "close", **length})
        h.close_connection = True
        for part in file.chunks(0, file.size):
            h.wfile.write(part)
        zeros = bytes(CHUNK)
        while self.overflow_sent < OVERFLOW_LIMIT:
            h.wfile.write(zeros)  # a client that hung up makes this raise: the answer ends
            with self._lock:
                self.overflow_sent += len(zeros)
