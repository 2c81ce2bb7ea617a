"""Shared test setup: no test may reach the real network (loopback stays allowed).

The autouse `no_network` fixture makes every socket connection, DNS lookup and
`create_connection` to a non-loopback host raise `NetworkBlocked`, and fails the test
even if the code under test swallowed that error. Tests of providers use servers on
127.0.0.1, which stay reachable.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


class NetworkBlocked(RuntimeError):
    """A test tried to reach a non-loopback host."""


class NetworkGuard:
    """What the guard refused during one test (a test of the guard may clear it)."""

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def check(self, host: Any, what: str) -> None:
        """Raise NetworkBlocked unless `host` is loopback (or not a network address)."""
        if _is_loopback(host):
            return
        self.attempts.append(f"{what} {host!r}")
        raise NetworkBlocked(
            f"test tried to reach {host!r} ({what}): tests must not use the real network. "
            "Use FakeProvider, an httpx.MockTransport, or a server on 127.0.0.1."
        )


def _is_loopback(host: Any) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    name = host.strip("[]").split("%")[0].lower()
    if name in _LOOPBACK_NAMES or name == "":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False  # any other host name


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[NetworkGuard]:
    """Refuse connections to non-loopback hosts; fail the test if any was attempted."""
    guard = NetworkGuard()
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_create_connection = socket.create_connection
    real_getaddrinfo = socket.getaddrinfo

    def _host(sock: socket.socket, address: Any) -> Any:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
            return address[0]
        return None  # AF_UNIX paths and the like are not network access

    def connect(self: socket.socket, address: Any) -> None:
        guard.check(_host(self, address), "socket.connect")
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        guard.check(_host(self, address), "socket.connect_ex")
        return real_connect_ex(self, address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        guard.check(address[0], "socket.create_connection")
        return real_create_connection(address, *args, **kwargs)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        guard.check(host, "socket.getaddrinfo")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield guard
    if guard.attempts:
        pytest.fail(
            "the test tried to reach the network: " + "; ".join(guard.attempts), pytrace=False
        )


_USER_ENV = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "NPC_VILLAGE_PROVIDER",
    "NPC_VILLAGE_MODEL",
    "NPC_VILLAGE_BASE_URL",
    "NPC_VILLAGE_SAVES_DIR",
)


@pytest.fixture(autouse=True)
def own_config(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never read the developer's config.toml, keys or saves (subprocesses too)."""
    for name in _USER_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NPC_VILLAGE_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("NPC_VILLAGE_SAVES_DIR", str(tmp_path_factory.mktemp("saves")))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """llama.cpp runs only in worker processes: a test that loads it here fails the run.

    A CPU whose llama.cpp build faults (AMX in a VM) would take pytest down with it.
    """
    import sys

    if "llama_cpp.llama_cpp" in sys.modules and exitstatus == 0:
        session.exitstatus = 1
        print("\nerror: llama.cpp was loaded in the pytest process; load it in a worker process")
