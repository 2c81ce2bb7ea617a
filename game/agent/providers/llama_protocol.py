"""What the game process and the llama.cpp worker process share: settings, stats, messages.

The worker (`llama_worker`) runs llama.cpp in a child process; the provider
(`local_llama`) talks to it over the child's stdin and stdout, one JSON object a line.

Game -> worker (stdin):

    {"op": "start", ...WorkerConfig}            first line: what to load and how
    {"op": "run", "id": N, "request": {...}}    serve one ProviderRequest
    {"op": "cancel", "id": N}                   stop it within a token
    {"op": "yield", "id": N}                    stop it for a more urgent one, if it has
                                                sent no event yet (its end says "preempted")
    {"op": "probe"}                             time the probe's work again (when idle)
    (end of input)                              free the model and exit

Worker -> game (stdout):

    {"t": "progress", "f": 0.95, "m": "..."}    loading
    {"t": "probe", "s": 1.3, "prefill_tok_s": ..., "gen_tok_s": ...}
    {"t": "ready", "template": true}            loaded (and probed, if asked)
    {"t": "failed", "message": "..."}           could not load: a one-line reason
    {"t": "ev", "id": N, "e": {...}}            one ProviderEvent of request N
    {"t": "end", "id": N, "stats": {...}}       request N is over

A worker that dies (SIGSEGV in native code, an OOM kill) simply stops writing: the
provider sees the end of its output and the exit signal.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = [
    "FAULT_ENV",
    "LADDER",
    "PREEMPTED",
    "PRIME",
    "JobStats",
    "LlamaSettings",
    "WorkerConfig",
    "decode",
    "encode",
    "settings_named",
]

FAULT_ENV = "NPC_VILLAGE_LLAMA_FAULT"  # read only by the worker; see `llama_worker.Fault`


@dataclass(frozen=True)
class LlamaSettings:
    """One rung of the ladder from fastest to safest way of running llama.cpp."""

    name: str
    extra_bufts: bool  # llama_model_params.use_extra_bufts: AMX and repacked weight buffers
    threads: int | None = None  # None: the provider's own thread count
    batch: int | None = None  # None: the provider's own batch size
    description: str = ""


LADDER: tuple[LlamaSettings, ...] = (
    LlamaSettings("default", True, description="llama.cpp's own buffers (AMX or repacked weights)"),
    LlamaSettings("safe", False, description="plain CPU buffers (use_extra_bufts off)"),
    LlamaSettings(
        "minimal", False, 1, 64, description="plain CPU buffers, one thread, batches of 64"
    ),
)


def settings_named(name: str) -> LlamaSettings:
    """The ladder rung called `name` (ValueError naming the rungs if there is none)."""
    for rung in LADDER:
        if rung.name == name:
            return rung
    raise ValueError(f"no llama.cpp settings {name!r}; known: {', '.join(r.name for r in LADDER)}")


@dataclass
class WorkerConfig:
    """What the worker loads, and how (the `start` line)."""

    model_path: str
    settings: str = "default"
    n_ctx: int = 4096
    n_threads: int = 1
    n_batch: int = 512
    seed: int = 0x5EED
    state_cache_bytes: int = 256 * 1024 * 1024
    prompt_format: str = "auto"
    chat_template: str | None = None
    verbose: bool = False
    probe: bool = False
    prefix_dir: str | None = None  # where the script's example block is kept between runs

    def to_json(self) -> dict[str, Any]:
        """The `start` message."""
        return {"op": "start", **asdict(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WorkerConfig:
        """Read a `start` message (unknown keys ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


# A request whose metadata holds PRIME reads the NPC's context ahead of its turn (the
# player is still typing) and answers nothing; the turn after it resumes from that.
PRIME = "prime"
PREEMPTED = "preempted"  # the outcome of a request that gave way before its first event


@dataclass
class JobStats:
    """What one request cost (times in seconds, from submission in the game process)."""

    npc_id: str | None
    priority: int
    seq: int
    start_index: int | None = None  # the order in which the worker began serving requests
    prompt_tokens: int = 0
    reused_tokens: int = 0
    output_tokens: int = 0
    restored_state: bool = False
    prefill_s: float = 0.0
    first_token_s: float | None = None
    first_event_s: float | None = None
    total_s: float = 0.0
    resamples: int = 0
    cancelled: bool = False
    tokens_at_cancel: int | None = None
    outcome: str = ""
    settings: str = ""  # the ladder rung that served it
    states_bytes: int = 0  # the worker's saved KV states after it, all NPCs together

    @property
    def tokens_after_cancel(self) -> int:
        """Tokens generated after the cancel reached the worker (0 if never cancelled)."""
        if self.tokens_at_cancel is None:
            return 0
        return self.output_tokens - self.tokens_at_cancel

    # The fields the worker measures; the game process keeps the rest.
    WORKER_FIELDS = (
        "prompt_tokens",
        "reused_tokens",
        "output_tokens",
        "restored_state",
        "prefill_s",
        "first_token_s",
        "resamples",
        "tokens_at_cancel",
        "outcome",
        "states_bytes",
    )

    def worker_part(self) -> dict[str, Any]:
        """The worker's measurements, for the `end` message."""
        return {name: getattr(self, name) for name in self.WORKER_FIELDS}

    def merge(self, data: dict[str, Any], offset_s: float) -> None:
        """Take the worker's measurements; its times count from when it got the job."""
        for name in self.WORKER_FIELDS:
            if name in data:
                setattr(self, name, data[name])
        self.prefill_s += offset_s
        if self.first_token_s is not None:
            self.first_token_s += offset_s


def encode(message: dict[str, Any]) -> bytes:
    """One message as a JSON line."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


def decode(line: bytes) -> dict[str, Any] | None:
    """A JSON line as a message; None for anything else (a stray line of native output)."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None
