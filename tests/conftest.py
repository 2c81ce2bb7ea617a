"""Shared test setup: no test may reach the real network (loopback stays allowed), and
every test is marked with the kind of test it is.

The autouse `no_network` fixture makes every socket connection, DNS lookup and
`create_connection` to a non-loopback host raise `NetworkBlocked`, and fails the test
even if the code under test swallowed that error. Tests of providers use servers on
127.0.0.1, which stay reachable.

The kinds (pyproject's markers): `model` loads the bundled model (a llama.cpp worker or a
real llama.cpp server), `window` opens an arcade window in the pytest process, `subprocess`
starts another process, `unit` does none of these. `model` and `window` come from the
fixtures a test uses, `subprocess` from what its code names (below), and any of them from
a test's own marker; a test the rules miss is failed by `started_processes`, not mismarked.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType, FrameType, ModuleType
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
    if "llama_cpp.llama_cpp" in sys.modules and exitstatus == 0:
        session.exitstatus = 1
        print("\nerror: llama.cpp was loaded in the pytest process; load it in a worker process")


# --- the kinds of test --------------------------------------------------------------------

KINDS = ("model", "window", "subprocess")  # a test with none of them is `unit`
MODEL_FIXTURES = frozenset({"model_path", "llama_server"})  # the bundled GGUF, a llama server
WINDOW_FIXTURES = frozenset({"window"})  # tests/ui's offscreen arcade window
# What starts a process: these modules, asyncio's two functions, or os's functions.
SPAWN_MODULES = frozenset({"subprocess", "multiprocessing", "concurrent.futures.process"})
ASYNCIO_SPAWNS = frozenset({"create_subprocess_exec", "create_subprocess_shell"})
OS_SPAWNS = frozenset({"fork", "forkpty", "posix_spawn", "posix_spawnp", "system", "popen"})
FAULT_ENV = "NPC_VILLAGE_LLAMA_FAULT"  # the worker's fault hook (local.protocol.FAULT_ENV)
WORKER_MODULES = ("game.agent.providers.local.worker", "game.agent.providers.local.server")
TESTS = str(Path(__file__).parent)


def pytest_configure(config: pytest.Config) -> None:
    """Refuse `--dist loadgroup` where its groups do not work: the model tests would run
    side by side (pytest 9.2 no longer takes the group that pytest-xdist 3.8 writes into a
    node id, pytest-xdist issue 1386; the dev extra pins pytest below 9.2 until it does)."""
    if config.getoption("dist", "no") == "loadgroup" and pytest.version_tuple[:2] >= (9, 2):
        raise pytest.UsageError(
            f"pytest-xdist cannot group tests on pytest {pytest.__version__}: "
            "pip install -e '.[local,dev]' (pytest below 9.2), or run with -n 0"
        )


@pytest.hookimpl(tryfirst=True)  # before `-m` selects, and before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test with its kinds (`model`, `window`, `subprocess`, else `unit`), a
    model test that sets the fault hook itself `own_fault`, and its xdist group."""
    for item in items:
        kinds = {kind for kind in KINDS if item.get_closest_marker(kind)}
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & MODEL_FIXTURES:
            kinds.add("model")
        if fixtures & WINDOW_FIXTURES:
            kinds.add("window")
        if "model" in kinds or _reaches(item, _spawns):
            kinds.add("subprocess")  # the model runs in a process of its own
        for kind in kinds or {"unit"}:
            if not item.get_closest_marker(kind):
                item.add_marker(kind)
        if "model" in kinds and _reaches(item, _sets_fault):
            item.add_marker("own_fault")
        group = _group(item, kinds)
        if group is not None and item.config.pluginmanager.hasplugin("xdist"):
            item.add_marker(pytest.mark.xdist_group(group))


def _group(item: pytest.Item, kinds: set[str]) -> str | None:
    """The xdist worker group (`--dist loadgroup`): one llama.cpp worker at a time, so the
    model tests all run in one group, one after another; a test that shares a module-scoped
    fixture runs with its module, which then sets the fixture up once."""
    if "model" in kinds:
        return "model"
    if any(d.scope == "module" for chain in _fixture_defs(item) for d in chain):
        return item.nodeid.split("::")[0]
    return None  # any worker


def _fixture_defs(item: pytest.Item) -> list[Any]:
    info = getattr(item, "_fixtureinfo", None)
    return list(info.name2fixturedefs.values()) if info is not None else []


def _reaches(item: pytest.Item, found: Callable[[CodeType, dict[str, Any]], bool]) -> bool:
    """Whether `found` holds for the code of the test, of its fixtures or of the test
    helpers (functions, classes) they name, followed through the tests' own files only:
    game code and libraries are not read (the fixtures that load the model are)."""
    todo: list[Any] = [getattr(item, "function", None)]
    todo += [d.func for chain in _fixture_defs(item) for d in chain]
    seen: set[int] = set()
    while todo:
        named = todo.pop()
        func = getattr(named, "__func__", named)  # a static or class method's function
        code = getattr(func, "__code__", None)
        if not isinstance(code, CodeType) or id(code) in seen:
            continue
        if not code.co_filename.startswith(TESTS):
            continue
        space: dict[str, Any] = getattr(func, "__globals__", {})
        for inner in _codes(code):
            seen.add(id(inner))
            if found(inner, space):
                return True
            for name in inner.co_names:
                named = space.get(name)
                todo += list(vars(named).values()) if isinstance(named, type) else [named]
    return False


def _codes(code: CodeType) -> Iterator[CodeType]:
    """A code object and those nested in it (functions, lambdas, comprehensions)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


def _spawns(code: CodeType, space: dict[str, Any]) -> bool:
    """The code names a way to start a process."""
    names = set(code.co_names)
    if names & ASYNCIO_SPAWNS or ("os" in names and names & OS_SPAWNS and space.get("os") is os):
        return True
    for name in names:
        named = space.get(name)
        module = getattr(named, "__name__" if isinstance(named, ModuleType) else "__module__", "")
        if module in SPAWN_MODULES:  # `import subprocess`, `from subprocess import run`
            return True
    return False


def _sets_fault(code: CodeType, space: dict[str, Any]) -> bool:
    """The code names the fault hook's variable (to set it, or to clear it)."""
    return FAULT_ENV in code.co_consts or any(space.get(n) == FAULT_ENV for n in code.co_names)


# The processes the current test started (its fixtures' setup included), as the
# interpreter's audit events report them; `started_processes` checks them against the kind.
_started: list[str] = []
_llama_told: list[str] = []  # the test that loaded llama.cpp into this process


def _note_process(event: str, args: tuple[Any, ...]) -> None:
    if event == "subprocess.Popen" and _finds_a_library():
        return  # ctypes.util.find_library runs ldconfig: an import's doing, not the test's
    if event == "subprocess.Popen":
        _started.append(
            " ".join(map(str, args[1] if isinstance(args[1], (list, tuple)) else [args[1]]))
        )
    elif event in ("os.fork", "os.forkpty", "os.posix_spawn", "os.system", "os.exec"):
        _started.append(event)


def _finds_a_library() -> bool:
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.endswith(os.path.join("ctypes", "util.py")):
            return True
        frame = frame.f_back
    return False


sys.addaudithook(_note_process)  # for the whole session: audit hooks cannot be removed


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test's processes are counted from the start of its setup."""
    _started.clear()


@pytest.fixture(autouse=True)
def started_processes(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Fail a `unit` test that started a process, and one not marked `model` that started
    the llama.cpp worker or server itself: its marks must say what it does. Fail the test
    that loaded llama.cpp into this process (see `pytest_sessionfinish`)."""
    yield _started
    if "llama_cpp.llama_cpp" in sys.modules and not _llama_told:
        _llama_told.append(request.node.nodeid)  # once: the tests after it did not load it
        pytest.fail("llama.cpp was loaded in the pytest process; load it in a worker process")
    node = request.node
    if node.get_closest_marker("unit") and _started:
        pytest.fail(
            f"a unit test started a process ({_started[0]}): mark it subprocess",
            pytrace=False,
        )
    loads = [p for p in _started if any(f"-m {m}" in p for m in WORKER_MODULES)]
    if loads and not node.get_closest_marker("model"):
        pytest.fail(f"the test started the model ({loads[0]}): mark it model", pytrace=False)
