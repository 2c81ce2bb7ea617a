"""One loaded llama.cpp model's decoding: the KV cache, the prompt's prefill, a request's ends.

Used only inside the worker process (`local.worker`), never in the game process. Both ways
of answering build on it: the tool-and-text path (`engine`) and script jobs (`player`).

Prefix reuse: the live KV cache is reused for the longest common prefix with the new
prompt, and after each turn the KV cache of that character is saved (keyed by the job's
key, LRU within a byte budget) so that characters taking turns in any order each resume
from their own prefix.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.agent.providers.base import Done, ProviderEvent, ProviderRequest, Usage
from game.agent.providers.errors import ContextOverflow
from game.agent.providers.local.protocol import JobStats, WorkerConfig
from game.agent.providers.local.script import ScriptJob

__all__ = ["MIN_P", "TOP_K", "TOP_P", "Decoder", "EngineJob"]

PREFILL_CHUNK = 128  # tokens per prefill batch: cancellation is checked between batches
TOP_K = 40
TOP_P = 0.95
MIN_P = 0.05


class EngineJob(Protocol):
    """One request as the engine sees it: what to answer, where events go, when to stop."""

    request: ProviderRequest  # a chat request (empty for a script job)
    script: ScriptJob | None
    stats: JobStats
    cancelled: threading.Event
    submitted: float  # perf_counter() when the worker got it

    def emit(self, event: ProviderEvent) -> None: ...


@dataclass
class _SavedState:
    tokens: list[int]
    data: bytes
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = len(self.data)


class Decoder:
    """One loaded model's context: prefill with prefix reuse, saved KV states, sampling."""

    def __init__(self, config: WorkerConfig, llm: Any) -> None:
        import numpy as np
        from llama_cpp import llama_cpp as C

        self.np = np
        self.C = C
        self.config = config
        self.llm = llm
        self.ctx = llm.ctx
        self.vocab = llm._model.vocab
        self.n_vocab: int = llm.n_vocab()
        self.rng = np.random.default_rng(config.seed)
        self.states: OrderedDict[str, _SavedState] = OrderedDict()

    def close(self) -> None:
        """Free the saved states and the model."""
        self.states.clear()
        self.llm.close()

    def clear_cache(self) -> None:
        """Empty llama.cpp's KV memory, every sequence of it."""
        self.C.llama_memory_clear(self.C.llama_get_memory(self.ctx), True)

    def logits(self, index: int = -1) -> Any:
        """The logits row of the batch's `index`th output (-1: the last), as a numpy view."""
        row = self.C.llama_get_logits_ith(self.ctx, index)
        return self.np.ctypeslib.as_array(row, shape=(self.n_vocab,))

    def probe(self, prompt_tokens: int = 256, new_tokens: int = 16) -> dict[str, float]:
        """Decode a prompt-sized batch and a few tokens, as a turn does; their speeds.

        A build whose CPU code faults does so here, in the first matrix multiply.
        """
        llm = self.llm
        sentence = llm.tokenize(b" The quick brown fox jumps over the lazy dog.", False)
        tokens = [llm.token_bos(), *(sentence * (prompt_tokens // len(sentence) + 1))]
        tokens = tokens[:prompt_tokens]
        start = time.perf_counter()
        llm.reset()
        for i in range(0, len(tokens), llm.n_batch):
            llm.eval(tokens[i : i + llm.n_batch])
        prefilled = time.perf_counter()
        for _ in range(new_tokens):
            llm.eval([int(self.logits().argmax())])
        end = time.perf_counter()
        llm.reset()
        self.clear_cache()
        return {
            "seconds": round(end - start, 3),
            "prefill_tok_s": round(prompt_tokens / max(prefilled - start, 1e-9), 1),
            "gen_tok_s": round(new_tokens / max(end - prefilled, 1e-9), 1),
        }

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
        buf = (ctypes.c_uint8 * saved.size).from_buffer_copy(saved.data)
        self.clear_cache()
        if self.C.llama_state_seq_set_data(self.ctx, buf, saved.size, 0) != saved.size:
            self.llm.reset()
            self.clear_cache()
            return False
        n = len(saved.tokens)
        self.llm.input_ids[:n] = saved.tokens
        self.llm.n_tokens = n
        self.states.move_to_end(npc_id)  # type: ignore[arg-type]
        return True

    def save_state(self, stats: JobStats) -> None:
        """Keep the request's NPC's KV cache (LRU within the byte budget); note the total."""
        self._keep_state(stats.npc_id)
        stats.states_bytes = sum(s.size for s in self.states.values())

    def _keep_state(self, npc_id: str | None) -> None:
        if not npc_id or self.config.state_cache_bytes <= 0:
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
        while total > self.config.state_cache_bytes and len(self.states) > 1:
            _, old = self.states.popitem(last=False)
            total -= old.size

    def prefill(self, job: EngineJob, tokens: list[int]) -> int:
        """Evaluate the prompt, reusing the cached prefix; return how many tokens were reused."""
        llm = self.llm
        reuse = self._common_prefix(llm._input_ids, tokens)
        if reuse >= len(tokens):
            reuse = len(tokens) - 1  # evaluate at least one token to get fresh logits
        if reuse > 0 and not llm._ctx.kv_cache_seq_rm(-1, reuse, -1):
            reuse = 0
        if reuse == 0:
            llm.reset()
            self.clear_cache()
        llm.n_tokens = reuse
        rest = tokens[reuse:]
        for i in range(0, len(rest), PREFILL_CHUNK):
            if job.cancelled.is_set():
                break
            llm.eval(rest[i : i + PREFILL_CHUNK])
        return reuse

    # --- a request's ends --------------------------------------------------------------------

    def begin(self, job: EngineJob, tokens: list[int], reserve: int) -> bool:
        """Check the prompt and `reserve` more tokens fit, resume the NPC's KV cache and
        prefill the rest; False when the request was cancelled meanwhile."""
        if len(tokens) + reserve > self.config.n_ctx:
            raise ContextOverflow(
                f"prompt of {len(tokens)} tokens + {reserve} for the answer does not fit "
                f"the local model's context of {self.config.n_ctx}"
            )
        stats = job.stats
        stats.prompt_tokens = len(tokens)
        stats.restored_state = self._restore(stats.npc_id, tokens)
        stats.reused_tokens = self.prefill(job, tokens)
        stats.prefill_s = time.perf_counter() - job.submitted
        if job.cancelled.is_set():
            stats.outcome = "cancelled"
            return False
        return True

    def finish(self, job: EngineJob, stop: str, prompt_tokens: int) -> None:
        """End the request: its usage, then `Done`."""
        job.stats.outcome = stop
        job.emit(
            Usage(
                input_tokens=prompt_tokens,
                output_tokens=job.stats.output_tokens,
                cached_tokens=job.stats.reused_tokens,
            )
        )
        job.emit(Done(stop_reason=stop))

    # --- sampling ------------------------------------------------------------------------------

    def pick(self, ids: Any, logits: Any, temperature: float) -> int:
        """Sample one of `ids` by its logit: top-k, top-p and min-p, then the temperature."""
        np = self.np
        order = np.argsort(-logits)[:TOP_K]
        ids, logits = ids[order], logits[order].astype(np.float64)
        if temperature <= 0 or len(ids) == 1:
            return int(ids[0])
        p = np.exp(logits - logits[0])
        p /= p.sum()
        keep = max(1, int(np.searchsorted(np.cumsum(p), TOP_P) + 1))
        keep = min(keep, int((p >= MIN_P * p[0]).sum()))
        keep = max(keep, 1)
        ids, logits = ids[:keep], logits[:keep] / temperature
        q = np.exp(logits - logits.max())
        q /= q.sum()
        return int(self.rng.choice(ids, p=q))

    def counted(self, job: EngineJob) -> None:
        """Count one generated token in the job's stats (and when the first came)."""
        stats = job.stats
        stats.output_tokens += 1
        if stats.first_token_s is None:
            stats.first_token_s = time.perf_counter() - job.submitted
