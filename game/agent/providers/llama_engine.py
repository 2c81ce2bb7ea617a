"""Everything that touches llama.cpp: loading a GGUF, prompts, KV states, sampling.

Used only inside the worker process (`llama_worker`), never in the game process.

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

import codecs
import ctypes
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from game.agent.providers.base import (
    Done,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.providers.errors import ContextOverflow, ToolCallFailure
from game.agent.providers.llama_protocol import JobStats, LlamaSettings, WorkerConfig
from game.agent.providers.llama_script import ScriptPlayer
from game.agent.providers.local_model import LocalModelError
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
from game.agent.providers.local_script import applies as script_applies

__all__ = [
    "Engine",
    "EngineJob",
    "build_llama",
    "load_engine",
    "quiet_llama_logs",
    "safe_model_params",
    "template_of",
]

PREFILL_CHUNK = 128  # tokens per prefill batch: cancellation is checked between batches
_TOP_K = 40
_TOP_P = 0.95
_MIN_P = 0.05
SCORING_SEQUENCES = 128  # sequences a context holds: two per candidate action, and the prompt
_CANDIDATE_SPREAD = 20.0  # logits this far below the best are negligible at temperature <= 1


class EngineJob(Protocol):
    """One request as the engine sees it: what to answer, where events go, when to stop."""

    request: ProviderRequest
    stats: JobStats
    cancelled: threading.Event
    submitted: float  # perf_counter() when the worker got it

    def emit(self, event: ProviderEvent) -> None: ...


@contextmanager
def safe_model_params(settings: LlamaSettings) -> Iterator[None]:
    """While open, every `llama_cpp.Llama` built gets `use_extra_bufts` from `settings`,
    and a context that holds the sequences the script protocol scores with.

    The `Llama` constructor takes neither field, so the defaults it starts from are
    changed for the time it runs. Used by the worker and by the server launcher.
    """
    from llama_cpp import llama_cpp as C

    real = C.llama_model_default_params
    real_context = C.llama_context_default_params

    def params() -> Any:
        p = real()
        p.use_extra_bufts = settings.extra_bufts
        return p

    def context_params() -> Any:
        p = real_context()
        # The script protocol scores its candidate actions as sequences branching off one
        # prompt, in a single decode over one shared (unified) cache.
        p.n_seq_max = min(SCORING_SEQUENCES, settings.batch or SCORING_SEQUENCES)
        p.kv_unified = True
        return p

    C.llama_model_default_params = params
    C.llama_context_default_params = context_params
    try:
        yield
    finally:
        C.llama_model_default_params = real
        C.llama_context_default_params = real_context


def build_llama(config: WorkerConfig, settings: LlamaSettings) -> Any:
    """The `Llama` the worker runs: the config's model and sizes, the rung's settings."""
    import llama_cpp

    if not config.verbose:
        quiet_llama_logs()
    threads = settings.threads or config.n_threads
    with safe_model_params(settings):
        return llama_cpp.Llama(
            model_path=config.model_path,
            n_ctx=config.n_ctx,
            n_batch=settings.batch or config.n_batch,
            n_threads=threads,
            n_threads_batch=threads,
            seed=config.seed,
            swa_full=True,  # keep every position so a prefix can be truncated and reused
            verbose=config.verbose,
        )


def template_of(llm: Any, config: WorkerConfig) -> str | None:
    """The chat template prompts are rendered with (None: the completion prompt)."""
    template = config.chat_template
    if template is None and config.prompt_format != "completion":
        template = llm.metadata.get("tokenizer.chat_template") or None
    return template


def load_engine(
    config: WorkerConfig, settings: LlamaSettings, report: Callable[[float, str], None]
) -> Engine:
    """Load the GGUF with the rung's settings; LocalModelError (one line) when it cannot."""
    name = Path(config.model_path).name
    report(0.9, f"loading {name}")
    try:
        llm = build_llama(config, settings)
    except Exception as exc:  # llama.cpp reports a bad file as a ValueError
        raise LocalModelError(f"cannot load local model {config.model_path}: {exc}") from exc
    template = template_of(llm, config)
    if config.prompt_format == "chat" and template is None:
        llm.close()
        raise LocalModelError(f"{name} has no chat template; use prompt_format='auto'")
    return Engine(config, llm, template)


_log = logging.getLogger(__name__)
_log_callback: Any = None  # keeps the ctypes callback alive while llama.cpp holds it


def quiet_llama_logs() -> None:
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


@dataclass
class _SavedState:
    tokens: list[int]
    data: bytes
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = len(self.data)


class Engine:
    """One loaded model: answers one request at a time (on the worker's serving thread)."""

    def __init__(self, config: WorkerConfig, llm: Any, template: str | None) -> None:
        import numpy as np
        from llama_cpp import llama_cpp as C

        self.np = np
        self.C = C
        self.config = config
        self.llm = llm
        self.template = template
        self.ctx = llm.ctx
        self.vocab = llm._model.vocab
        self.n_vocab: int = llm.n_vocab()
        self.rng = np.random.default_rng(config.seed)
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
        self.script = ScriptPlayer(self)
        self.bos_text = llm.detokenize([llm.token_bos()], special=True).decode("utf-8", "replace")
        self.eos_text = llm.detokenize([llm.token_eos()], special=True).decode("utf-8", "replace")

    def close(self) -> None:
        """Free the grammars, the saved states and the model."""
        for smpl in self.grammars.values():
            self.C.llama_sampler_free(smpl)
        self.grammars.clear()
        self.states.clear()
        self.script.close()
        self.llm.close()

    def probe(self, prompt_tokens: int = 256, new_tokens: int = 16) -> dict[str, float]:
        """Decode a prompt-sized batch and a few tokens, as a turn does; their speeds.

        A build whose CPU code faults does so here, in the first matrix multiply.
        """
        llm = self.llm
        sentence = llm.tokenize(b" The baker sells bread by the well in the village.", False)
        tokens = [llm.token_bos(), *(sentence * (prompt_tokens // len(sentence) + 1))]
        tokens = tokens[:prompt_tokens]
        start = time.perf_counter()
        llm.reset()
        for i in range(0, len(tokens), llm.n_batch):
            llm.eval(tokens[i : i + llm.n_batch])
        prefilled = time.perf_counter()
        for _ in range(new_tokens):
            logits = self.np.ctypeslib.as_array(
                self.C.llama_get_logits_ith(self.ctx, -1), shape=(self.n_vocab,)
            )
            llm.eval([int(logits.argmax())])
        end = time.perf_counter()
        llm.reset()
        self.C.llama_memory_clear(self.C.llama_get_memory(self.ctx), True)
        return {
            "s": round(end - start, 3),
            "prefill_tok_s": round(prompt_tokens / max(prefilled - start, 1e-9), 1),
            "gen_tok_s": round(new_tokens / max(end - prefilled, 1e-9), 1),
        }

    def warm(self, *, compute: bool = False) -> str | None:
        """Put what every prompt of the script protocol opens with in the KV cache, from
        disk or (if `compute`) by prefilling it (see ScriptPlayer.warm); None when it did
        not, or when the model has a chat template and uses the chat path instead."""
        if self.template is not None:
            return None
        folder = self.config.prefix_dir
        return self.script.warm(Path(folder) if folder else None, compute=compute)

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

    def _save(self, stats: JobStats) -> None:
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

    def _prefill(self, job: EngineJob, tokens: list[int]) -> int:
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

    def run(self, job: EngineJob) -> None:
        request = job.request
        assert request is not None
        if self.template is None and script_applies(request):
            self.script.run(job)
            return
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
        if not self.begin(job, tokens, max_out + 32):
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
            self.finish(job, stop, len(tokens))
        self._save(stats)

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
        stats.reused_tokens = self._prefill(job, tokens)
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

    def _sample(self, job: EngineJob, chain: Any, grammar: Any, temperature: float) -> int:
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

    def _text(self, job: EngineJob, request: ProviderRequest, chain: Any, max_out: int) -> str:
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
        self, job: EngineJob, request: ProviderRequest, grammar: Any, chain: Any, max_out: int
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
