"""What the game process and the model's worker process say to each other, typed.

The worker (`local.worker`) runs llama.cpp in a child process; the game side
(`local.client`) talks to it over the child's stdin and stdout, one JSON object a line,
each a pydantic model of the two unions below (discriminated by `op` one way, `type` the
other):

Game -> worker (`ToWorker`):

    Start(config)               first line: what to load and how (`WorkerConfig`)
    Run(id, request | script)   serve one request: a chat request, or a script job
    Cancel(id)                  stop it within a token
    Yield(id)                   stop it for a more urgent one, if it has sent no event
                                yet (its end says "preempted")
    Probe()                     time the probe's work again (when idle)
    (end of input)              free the model and exit

Worker -> game (`FromWorker`):

    Progress(fraction, message, probing)   loading
    ProbeTimes(seconds, prefill_tok_s, gen_tok_s)
    Ready(template)                        loaded (and probed, if asked)
    Failed(message)                        could not load: a one-line reason
    Event(id, event)                       one ProviderEvent of request `id`
    End(id, stats)                         request `id` is over (`WorkerStats`)

A worker that dies (SIGSEGV in native code, an OOM kill) simply stops writing: the game
sees the end of its output and the exit signal. A line that is not a message (native code
writing to stdout, or JSON nested deeper than any message) is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from game.agent.providers.base import ProviderEvent, ProviderRequest
from game.agent.providers.local.script import ScriptJob
from game.safe_json import check_depth

__all__ = [
    "FAULT_ENV",
    "LADDER",
    "PREEMPTED",
    "Cancel",
    "End",
    "Event",
    "Failed",
    "FromWorker",
    "JobStats",
    "LlamaSettings",
    "Probe",
    "ProbeTimes",
    "Progress",
    "Ready",
    "Run",
    "Start",
    "ToWorker",
    "WorkerConfig",
    "WorkerStats",
    "Yield",
    "encode",
    "from_worker",
    "settings_named",
    "to_worker",
]

FAULT_ENV = "NPC_VILLAGE_LLAMA_FAULT"  # read only by the worker; see `local.worker.Fault`
PREEMPTED = "preempted"  # the outcome of a request that gave way before its first event


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


class WorkerConfig(BaseModel):
    """What the worker loads, and how (the `Start` message)."""

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
    prefix_dir: str | None = None  # where a script's prefix KV cache is kept between runs
    script_prefix: str | None = None  # the prefix scripts open with: read back at start


class WorkerStats(BaseModel):
    """What the worker measures of one request (the rest `JobStats` keeps in the game)."""

    prompt_tokens: int = 0
    reused_tokens: int = 0
    output_tokens: int = 0
    restored_state: bool = False
    prefill_s: float = 0.0
    first_token_s: float | None = None
    resamples: int = 0
    tokens_at_cancel: int | None = None
    outcome: str = ""
    states_bytes: int = 0  # the worker's saved KV states after it, all NPCs together


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

    def worker_part(self) -> WorkerStats:
        """The worker's measurements, for the `End` message."""
        return WorkerStats(**{name: getattr(self, name) for name in WorkerStats.model_fields})

    def merge(self, stats: WorkerStats, offset_s: float) -> None:
        """Take the worker's measurements; its times count from when it got the job."""
        for name in WorkerStats.model_fields:
            setattr(self, name, getattr(stats, name))
        self.prefill_s += offset_s
        if self.first_token_s is not None:
            self.first_token_s += offset_s


# --- game -> worker ------------------------------------------------------------------------


class Start(BaseModel):
    """The first line: what to load and how."""

    op: Literal["start"] = "start"
    config: WorkerConfig


class Run(BaseModel):
    """Serve one request: a chat request, or a script job."""

    op: Literal["run"] = "run"
    id: int
    key: str | None = None  # whose KV state it resumes and keeps (an NPC's id)
    request: ProviderRequest | None = None
    script: ScriptJob | None = None


class Cancel(BaseModel):
    """Stop request `id` within a token."""

    op: Literal["cancel"] = "cancel"
    id: int


class Yield(BaseModel):
    """Give way to a more urgent request, if `id` has sent no event yet."""

    op: Literal["yield"] = "yield"
    id: int


class Probe(BaseModel):
    """Time the probe's work again."""

    op: Literal["probe"] = "probe"


ToWorker = Annotated[Start | Run | Cancel | Yield | Probe, Field(discriminator="op")]


# --- worker -> game ------------------------------------------------------------------------


class Progress(BaseModel):
    """How far loading has come."""

    type: Literal["progress"] = "progress"
    fraction: float
    message: str
    probing: bool = False  # the probe's decode runs now (a crash is the probe's)


class ProbeTimes(BaseModel):
    """The probe's figures: a prompt-sized batch and a few tokens, decoded as a turn does."""

    type: Literal["probe"] = "probe"
    seconds: float
    prefill_tok_s: float
    gen_tok_s: float


class Ready(BaseModel):
    """Loaded (and probed, if asked): `template` says whether it has a chat template."""

    type: Literal["ready"] = "ready"
    template: bool


class Failed(BaseModel):
    """It could not load: a one-line reason."""

    type: Literal["failed"] = "failed"
    message: str


class Event(BaseModel):
    """One event of request `id`."""

    type: Literal["event"] = "event"
    id: int
    event: ProviderEvent


class End(BaseModel):
    """Request `id` is over."""

    type: Literal["end"] = "end"
    id: int
    stats: WorkerStats


FromWorker = Annotated[
    Progress | ProbeTimes | Ready | Failed | Event | End, Field(discriminator="type")
]
_TO_WORKER: TypeAdapter[ToWorker] = TypeAdapter(ToWorker)
_FROM_WORKER: TypeAdapter[FromWorker] = TypeAdapter(FromWorker)


def encode(message: BaseModel) -> bytes:
    """One message as a JSON line."""
    return message.model_dump_json().encode("utf-8") + b"\n"


def to_worker(line: bytes) -> ToWorker | None:
    """A line the game wrote, as its message; None for anything else."""
    return _read(_TO_WORKER, line)


def from_worker(line: bytes) -> FromWorker | None:
    """A line the worker wrote, as its message; None for anything else (a stray line of
    native output)."""
    return _read(_FROM_WORKER, line)


def _read(adapter: TypeAdapter[Any], line: bytes) -> Any:
    if not line.strip():
        return None
    try:
        check_depth(line)  # pydantic's parser has a depth limit of its own, but far deeper
        return adapter.validate_json(line)
    except ValueError:  # a ValidationError, or JsonTooDeep
        return None
