"""Which llama.cpp settings work on this machine: probed once, remembered in the user cache.

A build of llama.cpp may take a CPU at its word and run instructions the machine cannot
(AMX in a VM that advertises it: a general protection fault in the first matrix multiply).
No check inside the process can foresee that, so the worker process tries the ladder's
rungs (`local.protocol.LADDER`) and the game process remembers what happened.

The record is keyed by what decides the answer: the built llama.cpp library files (path,
size, mtime: a rebuild with other flags probes again), the model file, the CPU's flags and
the ladder itself. Nothing here imports llama_cpp.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from game.agent.providers.local.protocol import LADDER
from game.atomic import write_atomic
from game.files import read_json_object

__all__ = ["PROBE_FILE", "Choice", "ProbeCache", "cpu_flags", "library_files", "probe_key"]

PROBE_FILE = "llama_probe.json"
_KEEP = 16  # records kept (one per build, model and CPU seen)
_LIB_SUFFIXES = (".so", ".dylib", ".dll")


def library_files() -> list[Path]:
    """The native libraries of the installed llama-cpp-python (found without loading them)."""
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return []
    package = Path(next(iter(spec.submodule_search_locations)))
    found = [
        p
        for folder in (package, package / "lib")
        if folder.is_dir()
        for p in folder.iterdir()
        if p.is_file() and any(s in p.name for s in _LIB_SUFFIXES)
    ]
    return sorted(found)


def cpu_flags() -> str:
    """The CPU's feature flags (Linux: /proc/cpuinfo), else what the platform says."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return " ".join(sorted(set(value.split())))
    return f"{platform.machine()} {platform.processor()}".strip()


def _stat(path: Path) -> list[Any]:
    path = path.resolve()  # a model reached through a link is the same model
    st = path.stat()
    return [str(path), st.st_size, st.st_mtime_ns]


def probe_key(model: Path) -> str:
    """What the probe's answer depends on, as one hex digest."""
    parts = {
        "ladder": [asdict(rung) for rung in LADDER],
        "libraries": [_stat(p) for p in library_files()],
        "model": _stat(model),
        "cpu": cpu_flags(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()


@dataclass
class Choice:
    """The settings picked for one key, why, and what each rung tried did."""

    key: str
    settings: str
    reason: str
    tried: dict[str, str] = field(default_factory=dict)
    when: float = field(default_factory=time.time)

    def describe(self) -> str:
        """`when`, as people read it."""
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.when))


class ProbeCache:
    """The probe records in one JSON file, written atomically; a bad file counts as empty."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, Any]:
        return read_json_object(self.path) or {}

    def get(self, key: str) -> Choice | None:
        """The record for `key`, if one was kept."""
        record = self._read().get(key)
        if not isinstance(record, dict):
            return None
        try:
            return Choice(**record)
        except TypeError:
            return None

    def put(self, choice: Choice) -> None:
        """Keep `choice` (the newest records win); best effort: a read-only cache is fine."""
        records = self._read()
        records.pop(choice.key, None)
        records[choice.key] = asdict(choice)
        newest = sorted(records.items(), key=lambda kv: kv[1].get("when", 0))[-_KEEP:]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps(dict(newest), indent=1).encode("utf-8"))
        except OSError:
            pass
