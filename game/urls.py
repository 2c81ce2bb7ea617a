"""URLs a player or the environment gave: whether one is a server's http(s) address, how a
message shows it, and whether what is sent to it crosses a network in clear text. Used by
the settings (a base URL), provider selection (an API key's way) and the model hub
(HF_ENDPOINT, a download's redirects)."""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from urllib.parse import urlsplit

__all__ = ["URL_EXAMPLE", "in_clear_text", "is_loopback", "shown_url", "url_problem"]

# What a message shows of a URL: a user name or password in it is left out.
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@")
_BAD_CHAR = {"Cc", "Cf", "Cs", "Zl", "Zp", "Zs"}  # controls, format marks, surrogates, spaces
URL_EXAMPLE = "https://api.example.com/v1, or http://127.0.0.1:8080/v1 for a local server"


def shown_url(url: str) -> str:
    """`url` as a message may show it: without a user name or password, at most 100 characters."""
    short = _USERINFO.sub(r"\1", url)
    return short if len(short) <= 100 else short[:99] + "…"


def url_problem(url: str) -> str | None:
    """What keeps `url` from being a server's http(s) address, as a phrase; None if nothing."""
    kinds = {unicodedata.category(ch) for ch in url}
    if "Cs" in kinds:  # bytes that are not UTF-8 arrive as lone surrogates
        return "has a byte that is not UTF-8 text"
    if kinds & _BAD_CHAR:
        return "has a space or a control character"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        if "port" in str(exc).lower():
            return "has a port that is not a number from 1 to 65535"
        return "is not a URL"
    if parts.scheme not in ("http", "https"):
        return "does not start with http:// or https://"
    if not parts.hostname:
        return "names no host"
    if port == 0:
        return "has a port that is not a number from 1 to 65535"
    import httpx  # only for a URL that got this far: the command line starts without it

    try:
        httpx.URL(url)
    except httpx.InvalidURL:
        return "is not a URL"
    return None


def is_loopback(host: str | None) -> bool:
    """Whether `host` is this machine: localhost, 127.0.0.0/8 or ::1."""
    if not host:
        return False
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def in_clear_text(url: str) -> bool:
    """Whether what is sent to `url` crosses a network unencrypted (http to another host)."""
    parts = urlsplit(url)
    return parts.scheme == "http" and not is_loopback(parts.hostname)
