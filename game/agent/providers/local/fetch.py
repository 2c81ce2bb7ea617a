"""The bytes of one model file, fetched by the game's own GET (httpx): where a hub's auth
may go, how far a body may run, and how a pull resumes.

`Download.run` asks for the rest of a file after the bytes its part already holds (a
`Range` request), follows redirects by hand (at most `MAX_DOWNLOAD_REDIRECTS`), sends the
hub's headers with its `Authorization` only to the hub's own origin (scheme, host and
port: a CDN or any other host never sees the token), and writes at most the size the hub
declared: a body that runs past it is cut off and what came deleted. Each failure is one
`PullError` line; a Cancel is a `PullCancelled`, the part kept. `local.hub` asks the hub
what to fetch and checks what came.

    PullError(LocalModelError)       why a pull failed, in one line
      PullCancelled(PullError)       the player cancelled it (the part is kept)
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from game.agent.providers.local.model import LocalModelError, ProgressCallback
from game.limits import MAX_DOWNLOAD_REDIRECTS
from game.urls import url_problem

__all__ = ["Download", "PullCancelled", "PullError", "human_size", "origin"]

_MB = 1024 * 1024
_CHUNK = _MB  # bytes written (and reported, and a cancel looked for) at a time
_PORTS = {"http": 80, "https": 443}


class PullError(LocalModelError):
    """A pull failed; the message is one line saying why and what to do."""


class PullCancelled(PullError):
    """The pull was cancelled; what was downloaded is kept for the next pull."""


def human_size(size: float) -> str:
    """Bytes as a player reads them: "512 MB", "2.33 GB"."""
    return f"{size / _MB:.0f} MB" if size < 1024 * _MB else f"{size / 1024 / _MB:.2f} GB"


def origin(url: str) -> tuple[str, str, int | None]:
    """Who a URL reaches: scheme, host and port (the scheme's own when none is given)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or _PORTS.get(scheme)


class Download:
    """One file's GET: the hub's auth headers go to the hub's own origin only, redirects
    are followed by hand (a few), and no byte past the declared size is written."""

    def __init__(
        self,
        label: str,
        size: int,
        headers: dict[str, str],
        home: tuple[str, str, int | None],
        report: ProgressCallback,
        cancel: threading.Event | None,
    ) -> None:
        self.label, self.size, self.headers, self.home = label, size, headers, home
        self.report, self.cancel = report, cancel

    def run(self, base: str, location: str, part: Path, have: int) -> None:
        """Fetch the rest of the file from `location` (relative to `base`) into `part`,
        after its first `have` bytes."""
        import httpx

        if have >= self.size:
            return
        url = self._redirect(base, location)
        from huggingface_hub import constants

        timeout = httpx.Timeout(float(constants.HF_HUB_DOWNLOAD_TIMEOUT), connect=10.0)
        try:
            with httpx.Client(timeout=timeout, follow_redirects=False) as client:
                for _ in range(MAX_DOWNLOAD_REDIRECTS + 1):
                    ask = self._headers_for(url, have)
                    with client.stream("GET", url, headers=ask) as response:
                        if not response.has_redirect_location:
                            self._receive(response, part, have)
                            return
                        url = self._redirect(url, response.headers["Location"])
        except httpx.HTTPError as exc:
            host = urlsplit(url).hostname or url
            raise PullError(
                f"the connection to {host} failed while downloading {self.label} "
                f"({type(exc).__name__}); check the connection and pull again to resume"
            ) from exc
        raise PullError(
            f"the download of {self.label} was redirected more than "
            f"{MAX_DOWNLOAD_REDIRECTS} times; pull again later"
        )

    def _headers_for(self, url: str, have: int) -> dict[str, str]:
        """The hub's headers, less its authorization off its own origin; the range asked."""
        headers = dict(self.headers)
        if origin(url) != self.home:
            headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
        headers["Accept-Encoding"] = "identity"  # the bytes the hub hashed, as they are
        if have:
            headers["Range"] = f"bytes={have}-"
        return headers

    def _redirect(self, url: str, location: str) -> str:
        """Where a redirect leads; PullError if that is no http(s) address."""
        target = urljoin(url, location)
        problem = url_problem(target)
        if problem is not None:
            raise PullError(
                f"the download of {self.label} was redirected to an address that {problem}"
                "; pull again later"
            )
        return target

    def _receive(self, response: Any, part: Path, have: int) -> None:
        """Write the response's body after the `have` bytes of `part`, within the size."""
        label, size = self.label, self.size
        host = response.url.host
        status = response.status_code
        if status == 200 and have:
            have = 0  # the server ignored the range: start over
        elif status == 206:
            if not response.headers.get("Content-Range", "").startswith(f"bytes {have}-"):
                raise PullError(
                    f"{host} answered another part of {label} than the one asked for; pull "
                    "again later"
                )
        elif status == 416:
            part.unlink(missing_ok=True)  # the part is not a start of this file
            raise PullError(f"{host} refused to resume {label}; pull again to start over")
        elif status != 200:
            raise PullError(f"{host} answered {status} for {label}; pull again later to resume")
        declared = response.headers.get("Content-Length")
        if declared is not None and declared.strip() != str(size - have):
            raise PullError(
                f"{host} sends another length of {label} than the {size - have} bytes the hub "
                "declared; pull again later"
            )
        done = have
        with part.open("ab") as out:
            out.truncate(have)
            for chunk in response.iter_raw(_CHUNK):
                if done + len(chunk) > size:
                    out.close()
                    part.unlink(missing_ok=True)
                    raise PullError(
                        f"{host} sent more than the {size} bytes the hub declared for {label}; "
                        "what came was deleted: pull again later"
                    )
                out.write(chunk)
                done += len(chunk)
                self.report(
                    done / size * 0.95,
                    f"downloading {label}: {human_size(done)} of {human_size(size)}",
                )
                if self.cancel is not None and self.cancel.is_set():
                    raise PullCancelled(
                        f"the download of {label} was cancelled; pull it again to resume"
                    )
        if done < size:
            raise PullError(
                f"{host} ended the download of {label} at {human_size(done)} of "
                f"{human_size(size)}; pull again to resume"
            )
