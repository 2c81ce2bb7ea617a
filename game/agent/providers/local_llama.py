"""The local provider: llama.cpp in process (llama-cpp-python) on one worker thread.

One model, one dedicated thread. Requests wait in a priority queue (`metadata["priority"]`,
higher first, FIFO within a priority); the worker pushes each event to the caller's loop
with `call_soon_threadsafe`, so the asyncio side never blocks on the model. llama.cpp
releases the GIL while it computes, and the worker uses cores - 1 threads, so the window
keeps a core.

With tools, the answer is grammar-constrained (see `local_prompt`): the prompt ends with
`{"name": "`, the grammar forces a known tool name and arguments valid for its schema, and
the forced text between name and arguments is fed in one batch instead of being sampled.
Arguments stream as `ToolCallArgsDelta`s while they are generated. Without tools the model
writes one line of plain text. Sampling tries the unconstrained top-k choice first and
applies the grammar to the whole vocabulary only when that choice is invalid (as llama.cpp's
own sampler does), because Gemma's 262k-token vocabulary makes grammar-first sampling slow.

Prefix reuse: the live KV cache is reused for the longest common prefix with the new
prompt, and after each turn the KV cache of that NPC is saved (keyed by `npc_id`, LRU within
a byte budget) so that NPCs taking turns in any order each resume from their own prefix.
"""

from __future__ import annotations

import asyncio
import codecs
import ctypes
import heapq
import itertools
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.agent.providers.base import (
    Done,
    ProviderError,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.providers.errors import (
    ContextOverflow,
    ProviderFailure,
    ToolCallFailure,
    TransportFailure,
)
from game.agent.providers.local_model import (
    INSTALL_HINT,
    LocalModelError,
    ProgressCallback,
    default_model_available,
    llama_cpp_available,
    resolve_model_path,
)
from game.agent.providers.local_prompt import (
    ARGS_WRAP,
    TOOL_PREFIX,
    ArgsScanner,
    GrammarError,
    allow_done,
    build_tool_grammar,
    done_name,
    render_chat_messages,
    render_completion_prompt,
)

__all__ = [
    "DEFAULT_MODEL_NAME",
    "JobStats",
    "LocalLlamaProvider",
    "default_threads",
    "local_available",
    "local_figures",
]

DEFAULT_MODEL_NAME = "gemma-3-270m-q4_k_m.gguf"
PREFILL_CHUNK = 128  # tokens per prefill batch: cancellation is checked between batches
_STATE_BUDGET = 256 * 1024 * 1024
_TOP_K = 40
_TOP_P = 0.95
_MIN_P = 0.05
_CANDIDATE_SPREAD = 20.0  # logits this far below the best are negligible at temperature <= 1


def default_threads() -> int:
    """Threads for llama.cpp: all cores but one (at least one), so the window keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


def local_available(model_path: Path | str | None = None) -> bool:
    """True when llama-cpp-python imports and a model exists (the bundled one or `model_path`)."""
    if not llama_cpp_available():
        return False
    if model_path is not None:
        return Path(model_path).expanduser().is_file()
    return default_model_available()


@dataclass
class JobStats:
    """What one request cost on the worker (times in seconds, from submission)."""

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

    @property
    def tokens_after_cancel(self) -> int:
        """Tokens generated after the cancel flag was raised (0 if never cancelled)."""
        if self.tokens_at_cancel is None:
            return 0
        return self.output_tokens - self.tokens_at_cancel


class _Job:
    """One request on its way through the worker: where its events go, and its cancel flag."""

    def __init__(
        self,
        request: ProviderRequest | None,
        loop: asyncio.AbstractEventLoop,
        priority: int,
        seq: int,
        kind: str = "stream",
    ) -> None:
        self.request = request
        self.kind = kind
        self.loop = loop
        self.queue: asyncio.Queue[ProviderEvent] = asyncio.Queue()
        self.cancelled = threading.Event()
        self.finished = asyncio.Event()  # set on the caller's loop once the worker is done
        self.submitted = time.perf_counter()
        npc = request.metadata.get("npc_id") if request is not None else None
        self.stats = JobStats(npc_id=str(npc) if npc else None, priority=priority, seq=seq)

    def cancel(self) -> None:
        if not self.cancelled.is_set():
            self.stats.tokens_at_cancel = self.stats.output_tokens
            self.cancelled.set()

    def mark_finished(self) -> None:
        try:
            self.loop.call_soon_threadsafe(self.finished.set)
        except RuntimeError:
            pass

    def emit(self, event: ProviderEvent) -> None:
        if self.stats.first_event_s is None and not isinstance(event, Usage | Done):
            self.stats.first_event_s = time.perf_counter() - self.submitted
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, event)
        except RuntimeError:  # the caller's loop is closed: nobody listens any more
            self.cancel()


class _LocalStream:
    """The async iterator `stream()` returns; enqueued at creation when a loop is running."""

    def __init__(self, provider: LocalLlamaProvider, request: ProviderRequest) -> None:
        self._provider = provider
        self._request = request
        self._job: _Job | None = None
        self._finished = False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._job = provider._submit(request)

    @property
    def stats(self) -> JobStats | None:
        """The worker's figures for this request (filled in as it runs)."""
        return self._job.stats if self._job is not None else None

    def __aiter__(self) -> _LocalStream:
        return self

    async def __anext__(self) -> ProviderEvent:
        if self._finished:
            raise StopAsyncIteration
        if self._job is None:
            self._job = self._provider._submit(self._request)
        try:
            event = await self._job.queue.get()
        except asyncio.CancelledError:
            self._job.cancel()
            self._finished = True
            raise
        if isinstance(event, Done | ProviderError):
            self._finished = True
        return event

    async def wait_finished(self) -> JobStats | None:
        """Wait until the worker is completely done with this request; its final stats."""
        if self._job is None:
            return None
        await self._job.finished.wait()
        return self._job.stats

    def cancel(self) -> None:
        """Stop generation (within one token); no more events are delivered."""
        self._finished = True
        if self._job is not None:
            self._job.cancel()

    async def aclose(self) -> None:
        """Same as `cancel()`: the async-generator way to stop a stream."""
        self.cancel()

    def __del__(self) -> None:
        job = getattr(self, "_job", None)
        if job is not None and not getattr(self, "_finished", True):
            job.cancel()


@dataclass
class _SavedState:
    tokens: list[int]
    data: bytes
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = len(self.data)


class LocalLlamaProvider:
    """llama.cpp in process on a dedicated worker thread; see the module docstring.

    The model is assembled (bundled GGUF) and loaded on the worker at the first request, or
    at `await load()`. `on_progress(fraction, message)` is called from the worker thread:
    0-0.9 while the bundled model is assembled or verified, 0.9 while loading, 1.0 when
    ready. `stats` keeps the `JobStats` of recent requests. Request metadata read here:
    `priority`, `npc_id` (KV cache per NPC), `name`/`greeting` (few-shot prompt),
    `tool_choice` ("none": plain text even with tools; "required"/"auto": never/always
    allow ending the turn without a call) and `stop` (plain-text stop strings, default
    a newline).
    """

    name = "local"

    def __init__(
        self,
        model_path: Path | str | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        on_progress: ProgressCallback | None = None,
        n_batch: int = 512,
        seed: int | None = None,
        state_cache_bytes: int = _STATE_BUDGET,
        prompt_format: str = "auto",
        chat_template: str | None = None,
        verbose: bool = False,
    ) -> None:
        if prompt_format not in ("auto", "chat", "completion"):
            raise ValueError(f"prompt_format must be auto, chat or completion: {prompt_format!r}")
        self._model_path = Path(model_path).expanduser() if model_path is not None else None
        self.model = self._model_path.name if self._model_path is not None else DEFAULT_MODEL_NAME
        self.n_ctx = n_ctx
        self.n_threads = n_threads if n_threads is not None else default_threads()
        self.n_batch = n_batch
        self.seed = seed if seed is not None else 0x5EED
        self.on_progress = on_progress
        self.state_cache_bytes = state_cache_bytes
        self.prompt_format = prompt_format
        self.chat_template = chat_template
        self.verbose = verbose
        self.stats: deque[JobStats] = deque(maxlen=256)
        self._cv = threading.Condition()
        self._heap: list[tuple[int, int, _Job]] = []
        self._seq = itertools.count()
        self._started = itertools.count()
        self._paused = False
        self._closing = False
        self._current: _Job | None = None
        self._llm: Any = None
        self._load_error: str | None = None
        self._engine: _Engine | None = None
        self._thread = threading.Thread(target=self._run, name="local-llama", daemon=True)
        self._thread.start()

    # --- public API ---------------------------------------------------------------------

    def stream(self, request: ProviderRequest) -> _LocalStream:
        """Stream the answer as events; the request is queued at once (by priority)."""
        return _LocalStream(self, request)

    async def load(self) -> ProviderError | None:
        """Assemble and load the model now (highest priority); the error, if it failed."""
        job = self._submit(None, kind="load", priority=1 << 30)
        event = await job.queue.get()
        return event if isinstance(event, ProviderError) else None

    def pause(self) -> None:
        """Let the running request finish but start no other until `resume()`."""
        with self._cv:
            self._paused = True

    def resume(self) -> None:
        """Start serving queued requests again."""
        with self._cv:
            self._paused = False
            self._cv.notify_all()

    def pending(self) -> int:
        """How many requests wait in the queue (the running one excluded)."""
        with self._cv:
            return len(self._heap)

    def close(self) -> None:
        """Cancel everything, stop the worker thread and free the model (blocking)."""
        with self._cv:
            self._closing = True
            queued = [job for _, _, job in self._heap]
            self._heap.clear()
            if self._current is not None:
                self._current.cancel()
            self._cv.notify_all()
        for job in queued:
            job.emit(ProviderError(kind="transport", message="the local model was closed"))
            job.cancel()
            job.mark_finished()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join()

    async def aclose(self) -> None:
        """Cancel everything, stop the worker thread (joined) and free the model."""
        await asyncio.to_thread(self.close)

    # --- queue and worker ------------------------------------------------------------------

    def _submit(
        self, request: ProviderRequest | None, *, kind: str = "stream", priority: int | None = None
    ) -> _Job:
        loop = asyncio.get_running_loop()
        if priority is None:
            priority = _priority(request)
        seq = next(self._seq)
        job = _Job(request, loop, priority, seq, kind)
        with self._cv:
            if self._closing:
                job.emit(ProviderError(kind="transport", message="the local model was closed"))
                job.mark_finished()
                return job
            heapq.heappush(self._heap, (-priority, seq, job))
            self._cv.notify()
        return job

    def _run(self) -> None:
        try:
            while True:
                with self._cv:
                    while not self._closing and (self._paused or not self._heap):
                        self._cv.wait()
                    if self._closing:
                        return
                    _, _, job = heapq.heappop(self._heap)
                    self._current = job
                try:
                    self._serve(job)
                finally:
                    with self._cv:
                        self._current = None
                    job.mark_finished()
        finally:
            self._free()

    def _serve(self, job: _Job) -> None:
        stats = job.stats
        stats.start_index = next(self._started)
        if job.cancelled.is_set():
            stats.cancelled, stats.outcome = True, "cancelled before start"
            self.stats.append(stats)
            return
        try:
            engine = self._ensure_engine()
            if job.kind == "load":
                job.emit(Done(stop_reason="loaded"))
                stats.outcome = "loaded"
                return
            assert job.request is not None
            engine.run(job)
        except ProviderFailure as failure:
            stats.outcome = f"error: {failure.kind}"
            job.emit(failure.to_event())
        except Exception as exc:  # never raise into the loop: report it as an event
            stats.outcome = "error: internal"
            job.emit(ProviderError(kind="transport", message=f"local model failed: {exc!r}"))
        finally:
            stats.total_s = time.perf_counter() - job.submitted
            stats.cancelled = job.cancelled.is_set()
            if job.kind != "load":
                self.stats.append(stats)

    def _ensure_engine(self) -> _Engine:
        if self._engine is not None:
            return self._engine
        if self._load_error is not None:
            raise TransportFailure(self._load_error)
        try:
            self._engine = self._load()
        except LocalModelError as exc:
            self._load_error = str(exc)
            raise TransportFailure(self._load_error) from exc
        return self._engine

    def _load(self) -> _Engine:
        report = self.on_progress or (lambda fraction, message: None)
        if not llama_cpp_available():
            raise LocalModelError(f"llama-cpp-python is not installed: {INSTALL_HINT}")
        import llama_cpp

        def assembling(fraction: float, message: str) -> None:
            report(0.9 * fraction, message)

        path = resolve_model_path(self._model_path, assembling)
        self.model = path.name
        report(0.9, f"loading {path.name}")
        if not self.verbose:
            _quiet_llama_logs()
        try:
            llm = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=self.n_ctx,
                n_batch=self.n_batch,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                seed=self.seed,
                swa_full=True,  # keep every position so a prefix can be truncated and reused
                verbose=self.verbose,
            )
        except Exception as exc:  # llama.cpp reports a bad file as a ValueError
            raise LocalModelError(f"cannot load local model {path}: {exc}") from exc
        self._llm = llm
        template = self.chat_template
        if template is None and self.prompt_format != "completion":
            template = llm.metadata.get("tokenizer.chat_template") or None
        if self.prompt_format == "chat" and template is None:
            raise LocalModelError(f"{path.name} has no chat template; use prompt_format='auto'")
        report(1.0, f"{path.name} loaded")
        return _Engine(self, llm, template)

    def _free(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close()
        llm, self._llm = self._llm, None
        if llm is not None:
            try:
                llm.close()
            except Exception:  # freeing is best effort at shutdown
                pass


_log = logging.getLogger(__name__)
_log_callback: Any = None  # keeps the ctypes callback alive while llama.cpp holds it


def _quiet_llama_logs() -> None:
    """Route llama.cpp's own log lines to `logging` (errors only) instead of stderr."""
    global _log_callback
    if _log_callback is not None:
        return
    from llama_cpp import llama_cpp as C

    @C.llama_log_callback
    def callback(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        if level == 4:  # GGML_LOG_LEVEL_ERROR (0 none, 1 debug, 2 info, 3 warn, 5 cont)
            _log.error("llama.cpp: %s", text.decode("utf-8", "replace").rstrip())

    _log_callback = callback
    C.llama_log_set(callback, ctypes.c_void_p(0))


def _stop_strings(request: ProviderRequest) -> list[str]:
    stops = request.metadata.get("stop", ["\n"])
    if isinstance(stops, str):
        stops = [stops]
    return [s for s in stops if isinstance(s, str) and s] if isinstance(stops, list) else ["\n"]


def _priority(request: ProviderRequest | None) -> int:
    if request is None:
        return 0
    try:
        return int(request.metadata.get("priority", 0))
    except (TypeError, ValueError):
        return 0


class _Engine:
    """Everything that touches llama.cpp; only ever used on the worker thread."""

    def __init__(self, provider: LocalLlamaProvider, llm: Any, template: str | None) -> None:
        import numpy as np
        from llama_cpp import llama_cpp as C

        self.np = np
        self.C = C
        self.provider = provider
        self.llm = llm
        self.template = template
        self.ctx = llm.ctx
        self.vocab = llm._model.vocab
        self.n_vocab: int = llm.n_vocab()
        self.rng = np.random.default_rng(provider.seed)
        self.states: OrderedDict[str, _SavedState] = OrderedDict()
        self.grammars: OrderedDict[str, Any] = OrderedDict()
        self.one = (C.llama_token_data * 1)()
        self.one_arr = C.llama_token_data_array(
            data=ctypes.cast(self.one, C.llama_token_data_p), size=1, selected=-1, sorted=False
        )
        self.cands = (C.llama_token_data * self.n_vocab)()
        self.cands_np = np.ctypeslib.as_array(self.cands)
        self.cands_arr = C.llama_token_data_array(
            data=ctypes.cast(self.cands, C.llama_token_data_p),
            size=self.n_vocab,
            selected=-1,
            sorted=False,
        )
        self.bos_text = llm.detokenize([llm.token_bos()], special=True).decode("utf-8", "replace")
        self.eos_text = llm.detokenize([llm.token_eos()], special=True).decode("utf-8", "replace")

    def close(self) -> None:
        for smpl in self.grammars.values():
            self.C.llama_sampler_free(smpl)
        self.grammars.clear()
        self.states.clear()

    # --- prompt ----------------------------------------------------------------------------

    def prompt_tokens(self, request: ProviderRequest, tool_mode: bool) -> list[int]:
        if self.template is None:
            text = render_completion_prompt(request, tool_mode=tool_mode)
            return list(self.llm.tokenize(text.encode("utf-8"), add_bos=True, special=False))
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        messages = render_chat_messages(request, tool_mode=tool_mode)
        formatter = Jinja2ChatFormatter(self.template, self.eos_text, self.bos_text)
        try:
            text = formatter(messages=messages).prompt  # type: ignore[arg-type]
        except Exception:
            # Templates without a system role: fold it into the first user turn.
            system = messages[0]["content"]
            rest = messages[1:]
            rest[0] = {"role": "user", "content": f"{system}\n\n{rest[0]['content']}"}
            text = formatter(messages=rest).prompt  # type: ignore[arg-type]
        if tool_mode:
            text += TOOL_PREFIX
        add_bos = not text.startswith(self.bos_text)
        return list(self.llm.tokenize(text.encode("utf-8"), add_bos=add_bos, special=True))

    # --- KV cache ----------------------------------------------------------------------------

    def _common_prefix(self, a: Any, b: list[int]) -> int:
        n = min(len(a), len(b))
        if n == 0:
            return 0
        np = self.np
        diff = np.nonzero(np.asarray(a[:n]) != np.asarray(b[:n], dtype=np.intc))[0]
        return int(diff[0]) if len(diff) else n

    def _restore(self, npc_id: str | None, tokens: list[int]) -> bool:
        """Load the NPC's saved KV cache if it shares a longer prefix than the live one."""
        saved = self.states.get(npc_id) if npc_id else None
        if saved is None:
            return False
        live = self._common_prefix(self.llm._input_ids, tokens)
        mine = self._common_prefix(saved.tokens, tokens)
        if mine <= live:
            return False
        C = self.C
        buf = (ctypes.c_uint8 * saved.size).from_buffer_copy(saved.data)
        C.llama_memory_clear(C.llama_get_memory(self.ctx), True)
        if C.llama_state_seq_set_data(self.ctx, buf, saved.size, 0) != saved.size:
            self.llm.reset()
            C.llama_memory_clear(C.llama_get_memory(self.ctx), True)
            return False
        n = len(saved.tokens)
        self.llm.input_ids[:n] = saved.tokens
        self.llm.n_tokens = n
        self.states.move_to_end(npc_id)  # type: ignore[arg-type]
        return True

    def _save(self, npc_id: str | None) -> None:
        if not npc_id or self.provider.state_cache_bytes <= 0:
            return
        C = self.C
        size = C.llama_state_seq_get_size(self.ctx, 0)
        buf = (ctypes.c_uint8 * size)()
        n = C.llama_state_seq_get_data(self.ctx, buf, size, 0)
        self.states.pop(npc_id, None)
        self.states[npc_id] = _SavedState(
            [int(t) for t in self.llm._input_ids], ctypes.string_at(buf, n)
        )
        total = sum(s.size for s in self.states.values())
        while total > self.provider.state_cache_bytes and len(self.states) > 1:
            _, old = self.states.popitem(last=False)
            total -= old.size

    def _prefill(self, job: _Job, tokens: list[int]) -> int:
        """Evaluate the prompt, reusing the cached prefix; return how many tokens were reused."""
        llm = self.llm
        reuse = self._common_prefix(llm._input_ids, tokens)
        if reuse >= len(tokens):
            reuse = len(tokens) - 1  # evaluate at least one token to get fresh logits
        if reuse > 0 and not llm._ctx.kv_cache_seq_rm(-1, reuse, -1):
            reuse = 0
        if reuse == 0:
            llm.reset()
            self.C.llama_memory_clear(self.C.llama_get_memory(self.ctx), True)
        llm.n_tokens = reuse
        rest = tokens[reuse:]
        for i in range(0, len(rest), PREFILL_CHUNK):
            if job.cancelled.is_set():
                break
            llm.eval(rest[i : i + PREFILL_CHUNK])
        return reuse

    # --- sampling ------------------------------------------------------------------------------

    def _grammar(self, gbnf: str) -> Any:
        smpl = self.grammars.get(gbnf)
        if smpl is None:
            smpl = self.C.llama_sampler_init_grammar(self.vocab, gbnf.encode("utf-8"), b"root")
            if not smpl:
                raise ToolCallFailure("the tools' JSON schemas do not give a valid grammar")
            self.grammars[gbnf] = smpl
            if len(self.grammars) > 16:
                _, old = self.grammars.popitem(last=False)
                self.C.llama_sampler_free(old)
        else:
            self.grammars.move_to_end(gbnf)
            self.C.llama_sampler_reset(smpl)
        return smpl

    def _chain(self, temperature: float) -> Any:
        C = self.C
        chain = C.llama_sampler_chain_init(C.llama_sampler_chain_default_params())
        if temperature <= 0:
            C.llama_sampler_chain_add(chain, C.llama_sampler_init_greedy())
            return chain
        for smpl in (
            C.llama_sampler_init_top_k(_TOP_K),
            C.llama_sampler_init_top_p(_TOP_P, 1),
            C.llama_sampler_init_min_p(_MIN_P, 1),
            C.llama_sampler_init_temp(temperature),
            C.llama_sampler_init_dist(int(self.rng.integers(0, 2**31))),
        ):
            C.llama_sampler_chain_add(chain, smpl)
        return chain

    def _valid(self, grammar: Any, token: int) -> bool:
        self.one[0].id = token  # type: ignore[assignment]  # ctypes accepts an int
        self.one[0].logit = 0.0
        self.one[0].p = 0.0
        self.one_arr.size = 1
        self.one_arr.selected = -1
        self.C.llama_sampler_apply(grammar, ctypes.byref(self.one_arr))
        return bool(self.one[0].logit != float("-inf"))

    def _constrained(self, grammar: Any, temperature: float) -> int:
        """Sample among grammar-valid tokens: near-best candidates first, else all of them."""
        np = self.np
        logits = np.ctypeslib.as_array(
            self.C.llama_get_logits_ith(self.ctx, -1), shape=(self.n_vocab,)
        )
        best = float(logits.max())
        for ids in (np.flatnonzero(logits >= best - _CANDIDATE_SPREAD), None):
            if ids is None:
                ids = np.arange(self.n_vocab, dtype=np.intc)
            n = len(ids)
            self.cands_np["id"][:n] = ids
            self.cands_np["logit"][:n] = logits[ids]
            self.cands_np["p"][:n] = 0.0
            self.cands_arr.size = n
            self.cands_arr.selected = -1
            self.cands_arr.sorted = False
            self.C.llama_sampler_apply(grammar, ctypes.byref(self.cands_arr))
            vals = self.cands_np["logit"][:n]
            ok = np.flatnonzero(np.isfinite(vals))
            if len(ok):
                return self._pick(self.cands_np["id"][:n][ok], vals[ok], temperature)
        raise ToolCallFailure("the grammar allows no token here")

    def _pick(self, ids: Any, logits: Any, temperature: float) -> int:
        np = self.np
        order = np.argsort(-logits)[:_TOP_K]
        ids, logits = ids[order], logits[order].astype(np.float64)
        if temperature <= 0 or len(ids) == 1:
            return int(ids[0])
        p = np.exp(logits - logits[0])
        p /= p.sum()
        keep = max(1, int(np.searchsorted(np.cumsum(p), _TOP_P) + 1))
        keep = min(keep, int((p >= _MIN_P * p[0]).sum()))
        keep = max(keep, 1)
        ids, logits = ids[:keep], logits[:keep] / temperature
        q = np.exp(logits - logits.max())
        q /= q.sum()
        return int(self.rng.choice(ids, p=q))

    # --- one request ---------------------------------------------------------------------------

    def run(self, job: _Job) -> None:
        request = job.request
        assert request is not None
        stats = job.stats
        tool_mode = bool(request.tools) and request.metadata.get("tool_choice") != "none"
        try:
            gbnf = (
                build_tool_grammar(request.tools, with_done=allow_done(request))
                if tool_mode
                else None
            )
            tokens = self.prompt_tokens(request, tool_mode)
        except GrammarError as exc:
            raise ToolCallFailure(f"cannot constrain the local model to the tools: {exc}") from exc
        max_out = max(1, request.max_output_tokens)
        if len(tokens) + max_out + 32 > self.provider.n_ctx:
            raise ContextOverflow(
                f"prompt of {len(tokens)} tokens + {max_out} output tokens does not fit "
                f"the local model's context of {self.provider.n_ctx}"
            )
        stats.prompt_tokens = len(tokens)
        stats.restored_state = self._restore(stats.npc_id, tokens)
        stats.reused_tokens = self._prefill(job, tokens)
        stats.prefill_s = time.perf_counter() - job.submitted
        if job.cancelled.is_set():
            stats.outcome = "cancelled"
            return
        chain = self._chain(request.temperature)
        try:
            if gbnf is not None:
                stop = self._tools(job, request, self._grammar(gbnf), chain, max_out)
            else:
                stop = self._text(job, request, chain, max_out)
        finally:
            self.C.llama_sampler_free(chain)
        if job.cancelled.is_set():
            stats.outcome = "cancelled"
        else:
            stats.outcome = stop
            job.emit(
                Usage(
                    input_tokens=len(tokens),
                    output_tokens=stats.output_tokens,
                    cached_tokens=stats.reused_tokens,
                )
            )
            job.emit(Done(stop_reason=stop))
        self._save(stats.npc_id)

    def _sample(self, job: _Job, chain: Any, grammar: Any, temperature: float) -> int:
        token = int(self.C.llama_sampler_sample(chain, self.ctx, -1))
        if grammar is not None:
            if not self._valid(grammar, token):
                job.stats.resamples += 1
                token = self._constrained(grammar, temperature)
            self.C.llama_sampler_accept(grammar, token)
        stats = job.stats
        stats.output_tokens += 1
        if stats.first_token_s is None:
            stats.first_token_s = time.perf_counter() - job.submitted
        return token

    def _piece(self, token: int) -> bytes:
        return bytes(self.llm.detokenize([token]))

    def _text(self, job: _Job, request: ProviderRequest, chain: Any, max_out: int) -> str:
        stops = _stop_strings(request)
        hold = max((len(s) - 1 for s in stops), default=0)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        out = ""  # the reply so far (leading whitespace dropped)
        sent = 0
        reason = "max_tokens"
        for _ in range(max_out):
            if job.cancelled.is_set():
                return "cancelled"
            token = self._sample(job, chain, None, 0.0)
            if self.C.llama_vocab_is_eog(self.vocab, token):
                reason = "stop"
                break
            out += decoder.decode(self._piece(token))
            if sent == 0:
                out = out.lstrip()
            cut = min(
                (i for i in (out.find(s, max(0, sent - hold)) for s in stops) if i >= 0), default=-1
            )
            if cut >= 0:
                out, reason = out[:cut], "stop"
                break
            safe = len(out) - hold
            if safe > sent:
                job.emit(TextDelta(text=out[sent:safe]))
                sent = safe
            self.llm.eval([token])
        if len(out) > sent and not job.cancelled.is_set():
            job.emit(TextDelta(text=out[sent:]))
        return reason

    def _tools(
        self, job: _Job, request: ProviderRequest, grammar: Any, chain: Any, max_out: int
    ) -> str:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        temperature = request.temperature
        done = done_name(request.tools)
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        head = ""  # generated text before the tool name's closing quote
        name: str | None = None
        wrap_left = ""  # wrapper text between the name and its arguments not yet seen
        scanner = ArgsScanner()
        for _ in range(max_out):
            if job.cancelled.is_set():
                return "cancelled"
            token = self._sample(job, chain, grammar, temperature)
            text = decoder.decode(self._piece(token))
            feed: list[int] = [token]
            if name is None:
                head += text
                quote = head.find('"')
                if quote < 0:
                    self.llm.eval(feed)
                    continue
                name, text = head[:quote], head[quote:]
                if name == done:
                    return "end_turn"
                job.emit(ToolCallStart(index=0, id=call_id, name=name))
                wrap_left = ARGS_WRAP[:-1]
                if len(text) < len(ARGS_WRAP):
                    forced = self._force(grammar, ARGS_WRAP[len(text) :])
                    feed += forced
                    text += self._piece_text(forced)
            if wrap_left:
                skip = min(len(wrap_left), len(text))
                wrap_left, text = wrap_left[skip:], text[skip:]
            delta = scanner.feed(text)
            if delta:
                job.emit(ToolCallArgsDelta(index=0, delta=delta))
            if scanner.done:
                break
            self.llm.eval(feed)
        if name is None:
            raise ToolCallFailure(f"the local model named no tool within {max_out} tokens")
        job.emit(ToolCallDone(index=0, id=call_id, name=name, arguments=scanner.text))
        return "tool_use" if scanner.done else "max_tokens"

    def _piece_text(self, tokens: list[int]) -> str:
        if not tokens:
            return ""
        return bytes(self.llm.detokenize(tokens)).decode("utf-8", "replace")

    def _force(self, grammar: Any, text: str) -> list[int]:
        """Tokens for text the grammar forces, accepted into it; fed with the next batch."""
        forced: list[int] = []
        for token in self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False):
            if not self._valid(grammar, token):
                break  # the rest is sampled token by token, which is always safe
            self.C.llama_sampler_accept(grammar, token)
            forced.append(int(token))
        return forced


def local_figures(model_path: Path | str | None = None, *, n_tokens: int = 48) -> dict[str, Any]:
    """Measure the bundled model: our tok/s vs raw llama-cpp-python, warm vs cold TTFT.

    Runs its own event loop (call it from synchronous code); see `local_bench`.
    """
    from game.agent.providers.local_bench import figures

    return figures(model_path, n_tokens=n_tokens)
