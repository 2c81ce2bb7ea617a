"""Which downloaded model `auto` takes: the strongest that this machine runs fast enough.

A model's speed here is measured once, right after its pull (`game.models.measure`: real
NPC turns, each read ahead as the game does while the player types), and kept in the user
cache beside the probe's record, keyed by the file and the CPU. `pick_downloaded` walks
the catalogue strongest first and takes the first downloaded model that passes all three
checks: a primed first letter within `FIRST_LETTER_MAX_S`, at least `TOKENS_MIN_S` tokens
a second, and room in this machine's free memory. None passing: the bundled model, and a
reason naming what each downloaded model failed.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from game.agent.providers.local import catalogue as listed
from game.agent.providers.local.catalogue import HubFile
from game.agent.providers.local.client.probe import cpu_flags
from game.agent.providers.local.hub import available_memory_mb, downloaded
from game.agent.providers.local.model import cache_dir
from game.atomic import write_atomic
from game.files import read_json_object

__all__ = [
    "FIRST_LETTER_MAX_S",
    "SPEEDS_FILE",
    "TOKENS_MIN_S",
    "Pick",
    "Speed",
    "SpeedBook",
    "pick_downloaded",
]

SPEEDS_FILE = "model_speeds.json"
FIRST_LETTER_MAX_S = 0.5  # after Enter, the NPC's reply has begun
TOKENS_MIN_S = 8.0  # a line of 15 tokens is said within two seconds


@dataclass
class Speed:
    """What one model did on this machine."""

    first_letter_s: float  # median, after the player's Enter, the turn read ahead
    tokens_s: float  # generated tokens a second
    turns: int
    when: float = field(default_factory=time.time)

    def fails(self) -> str | None:
        """Which speed check it fails, as words; None when it passes both."""
        if self.first_letter_s > FIRST_LETTER_MAX_S:
            return f"first letter {self.first_letter_s:.2f} s > {FIRST_LETTER_MAX_S} s"
        if self.tokens_s < TOKENS_MIN_S:
            return f"{self.tokens_s:.1f} tokens/s < {TOKENS_MIN_S:.0f}"
        return None

    def describe(self) -> str:
        """The figures, as a list shows them."""
        return f"first letter {self.first_letter_s:.2f} s, {self.tokens_s:.1f} tokens/s"


def _key(path: Path) -> str:
    st = path.resolve().stat()
    return json.dumps([str(path.resolve()), st.st_size, st.st_mtime_ns, cpu_flags()])


class SpeedBook:
    """Measured speeds in one JSON file (written atomically; a bad file reads as empty)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or cache_dir() / SPEEDS_FILE

    def _read(self) -> dict[str, Any]:
        return read_json_object(self.path) or {}

    def get(self, model: Path) -> Speed | None:
        """The speed measured for this file on this machine, if any."""
        try:
            record = self._read().get(_key(model))
        except OSError:
            return None
        try:
            return Speed(**record) if isinstance(record, dict) else None
        except TypeError:
            return None

    def put(self, model: Path, speed: Speed) -> None:
        """Keep `speed` for this file (files no longer on disk are forgotten)."""
        records = {k: v for k, v in self._read().items() if Path(json.loads(k)[0]).is_file()}
        records[_key(model)] = asdict(speed)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(records, indent=1).encode("utf-8"))


@dataclass(frozen=True)
class Pick:
    """The downloaded model `auto` takes (None: the bundled one), and why."""

    model: HubFile | None
    reason: str


def pick_downloaded(book: SpeedBook | None = None) -> Pick:
    """The strongest downloaded model passing this machine's checks (see the module doc)."""
    book = book or SpeedBook()
    free = available_memory_mb()
    failed: list[str] = []
    for model in listed.CATALOGUE:
        path = downloaded(model)
        if path is None:
            continue
        speed = book.get(path)
        need = model.memory_mb(path.stat().st_size)
        if speed is None:
            why: str | None = "not measured (pull it again to measure)"
        elif free is not None and need > free:
            why = f"needs {need} MB, {free} MB free"
        else:
            why = speed.fails()
        if why is None:
            assert speed is not None
            room = f", {need} MB of {free} MB free" if free is not None else ""
            return Pick(model, f"downloaded model {model.name}: {speed.describe()}{room}")
        failed.append(f"{model.name}: {why}")
    if not failed:
        return Pick(None, "bundled model (no catalogue model downloaded)")
    return Pick(None, "bundled model (" + "; ".join(failed) + ")")
