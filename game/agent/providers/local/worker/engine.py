"""The tool-and-text path on llama.cpp: a prompt, grammar-constrained tool calls, plain lines.

Used only inside the worker process (`local.worker`), never in the game process. `Engine`
answers one request at a time: a script job goes to the script player (`player`);
everything else comes here.

With tools, the answer is grammar-constrained (see `local.worker.prompt`): the prompt ends with
`{"name": "`, the grammar forces a known tool name and arguments valid for its schema, and
the forced text between name and arguments is fed in one batch instead of being sampled.
Arguments stream as `ToolCallArgsDelta`s while they are generated. Without tools the model
writes one line of plain text. Sampling tries the unconstrained top-k choice first and
applies the grammar to the whole vocabulary only when that choice is invalid (as llama.cpp's
own sampler does), because Gemma's 262k-token vocabulary makes grammar-first sampling slow.
"""

from __future__ import annotations

import codecs
import ctypes
import uuid
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.agent.providers.base import (
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
)
from game.agent.providers.errors import ToolCallFailure
from game.agent.providers.local.model import LocalModelError
from game.agent.providers.local.protocol import LlamaSettings, WorkerConfig
from game.agent.providers.local.worker.decoder import MIN_P, TOP_K, TOP_P, Decoder, EngineJob
from game.agent.providers.local.worker.load import build_llama, template_of
from game.agent.providers.local.worker.player import ScriptPlayer
from game.agent.providers.local.worker.prompt import (
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

__all__ = ["Engine", "load_engine"]

_TYPING = "\x00typing\x00"  # where the newest message goes while it is read ahead
_CANDIDATE_SPREAD = 20.0  # logits this far below the best are negligible at temperature <= 1


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


def _stop_strings(request: ProviderRequest) -> list[str]:
    stops = request.options.stop
    return ["\n"] if stops is None else [s for s in stops if s]


class Engine(Decoder):
    """One loaded model: answers one request at a time (on the worker's serving thread)."""

    def __init__(self, config: WorkerConfig, llm: Any, template: str | None) -> None:
        from llama_cpp import llama_cpp as C

        super().__init__(config, llm)
        self.template = template
        self.grammars: OrderedDict[str, Any] = OrderedDict()
        self.one = (C.llama_token_data * 1)()
        self.one_arr = C.llama_token_data_array(
            data=ctypes.cast(self.one, C.llama_token_data_p), size=1, selected=-1, sorted=False
        )
        self.cands = (C.llama_token_data * self.n_vocab)()
        self.cands_np = self.np.ctypeslib.as_array(self.cands)
        self.cands_arr = C.llama_token_data_array(
            data=ctypes.cast(self.cands, C.llama_token_data_p),
            size=self.n_vocab,
            selected=-1,
            sorted=False,
        )
        self.player = ScriptPlayer(self)
        self.bos_text = llm.detokenize([llm.token_bos()], special=True).decode("utf-8", "replace")
        self.eos_text = llm.detokenize([llm.token_eos()], special=True).decode("utf-8", "replace")

    def close(self) -> None:
        """Free the grammars, the script's batch, the saved states and the model."""
        for smpl in self.grammars.values():
            self.C.llama_sampler_free(smpl)
        self.grammars.clear()
        self.player.close()
        super().close()

    def warm(self, *, compute: bool = False) -> str | None:
        """Put the prefix every script opens with (the config's `script_prefix`) in the KV
        cache, from disk or (if `compute`) by prefilling it (see PrefixCache.warm); None
        when it did not, or when the model has a chat template and takes no scripts."""
        prefix = self.config.script_prefix
        if self.template is not None or not prefix:
            return None
        return self.player.prefix.warm(prefix, compute=compute)

    # --- prompt ----------------------------------------------------------------------------

    def prompt_tokens(self, request: ProviderRequest, tool_mode: bool) -> list[int]:
        """The request's prompt as tokens: the completion document, or the chat template's."""
        if self.template is None:
            text = render_completion_prompt(request, tool_mode=tool_mode)
            return list(self.llm.tokenize(text.encode("utf-8"), add_bos=True, special=False))
        text = self._chat_text(request, tool_mode)
        if tool_mode:
            text += TOOL_PREFIX
        return self._chat_tokens(text)

    def read_ahead_tokens(self, request: ProviderRequest, tool_mode: bool) -> list[int]:
        """A chat prompt up to where the newest message (the line still being typed)
        starts: what the turn's own prompt will begin with, so it reads only the line."""
        last = request.messages[-1].model_copy(update={"content": _TYPING})
        typing = request.model_copy(update={"messages": [*request.messages[:-1], last]})
        text = self._chat_text(typing, tool_mode)
        return self._chat_tokens(text[: text.find(_TYPING)])

    def _chat_text(self, request: ProviderRequest, tool_mode: bool) -> str:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        assert self.template is not None
        messages = render_chat_messages(request, tool_mode=tool_mode)
        formatter = Jinja2ChatFormatter(self.template, self.eos_text, self.bos_text)
        try:
            return formatter(messages=messages).prompt  # type: ignore[arg-type]
        except Exception:
            # Templates without a system role: fold it into the first user turn.
            system = messages[0]["content"]
            rest = messages[1:]
            rest[0] = {"role": "user", "content": f"{system}\n\n{rest[0]['content']}"}
            return formatter(messages=rest).prompt  # type: ignore[arg-type]

    def _chat_tokens(self, text: str) -> list[int]:
        add_bos = not text.startswith(self.bos_text)
        return list(self.llm.tokenize(text.encode("utf-8"), add_bos=add_bos, special=True))

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
            C.llama_sampler_init_top_k(TOP_K),
            C.llama_sampler_init_top_p(TOP_P, 1),
            C.llama_sampler_init_min_p(MIN_P, 1),
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
        logits = self.logits()
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
                return self.pick(self.cands_np["id"][:n][ok], vals[ok], temperature)
        raise ToolCallFailure("the grammar allows no token here")

    # --- one request ---------------------------------------------------------------------------

    def run(self, job: EngineJob) -> None:
        """Answer one request: a script job by the script player, a chat request by a
        tool call under the tools' grammar or by a line of plain text."""
        script = job.script
        if script is not None:
            if script.prime:
                self.player.prime(job, script)
            else:
                self.player.run(job, script)
            return
        request = job.request
        tool_mode = bool(request.tools) and request.options.tool_choice != "none"
        if request.options.prime:
            self._read_ahead(job, tool_mode)
            return
        stats = job.stats
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
        self.save_state(stats)

    def _read_ahead(self, job: EngineJob, tool_mode: bool) -> None:
        """Read a chat request's prompt up to its newest message and keep the NPC's state
        (a completion prompt is not read ahead: a base model plays scripts)."""
        if self.template is None or not job.request.messages:
            self.finish(job, "primed", 0)
            return
        tokens = self.read_ahead_tokens(job.request, tool_mode)
        if self.begin(job, tokens, 0):
            self.finish(job, "primed", len(tokens))
            self.save_state(job.stats)

    def _sample(self, job: EngineJob, chain: Any, grammar: Any, temperature: float) -> int:
        token = int(self.C.llama_sampler_sample(chain, self.ctx, -1))
        if grammar is not None:
            if not self._valid(grammar, token):
                job.stats.resamples += 1
                token = self._constrained(grammar, temperature)
            self.C.llama_sampler_accept(grammar, token)
        self.counted(job)
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
