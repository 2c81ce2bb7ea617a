"""Playing a script job on llama.cpp: score the options, pick by the job's rule, sample the
line, emit the calls. Runs in the worker process; knows nothing of what the words mean
(`local.script` describes the job; the game writes it).

One step:

1. `finished`: end the turn; `say`: say that line as it is (no model);
2. options to choose from: score their texts in one batched decode (`scoring`), each a
   sequence branching off the prompt's KV cache (and off the neutral document's, which
   shares all but its newest line), and pick one by the job's rule; an option whose calls
   come alone is emitted and the step ends (its line comes in the next step); one with
   `line_first` has its line sampled first and both go in one answer, the line first;
3. otherwise: sample the line after `after` and stream it as the line's call.

The line is sampled token by token from the model's top candidates, leaving out tokens
that would put markup, braces, quotes or control characters in it, start a banned word,
or continue three tokens of an earlier line; it ends at the newline. A short line that
still mostly repeats an earlier one is sampled again before it is shown.

The `prefix` opens every document, so its KV cache is computed once and kept, live and on
disk (`prefix.PrefixCache`).
"""

from __future__ import annotations

import json
import re
import uuid
from collections import deque
from typing import Any

from game.agent.providers.base import ToolCallArgsDelta, ToolCallDone, ToolCallStart
from game.agent.providers.local.script import Call, LineSpec, Option, ScriptJob
from game.agent.providers.local.worker.decoder import Decoder, EngineJob
from game.agent.providers.local.worker.prefix import PrefixCache
from game.agent.providers.local.worker.scoring import Scorer
from game.wording import overlap

__all__ = ["ScriptPlayer", "shrugs", "whole_sentences"]

MAX_LINE_TOKENS = 48
_ENDED = re.compile(r"[.!?][\"')\]]*$")  # a line or lead that ends a sentence
OPEN_LEAD_MORE = 4  # tokens the model adds at least after a lead cut mid-sentence
HOLD_WORDS = 3  # a line is held back until this many words, to catch a short repeat
RECENT_LINES = 32  # lines a character said, in this process, not to be said again
REPEAT_LIMIT = 0.6  # word-pair overlap with an earlier line that counts as repeating
_TOP = 48
_BAD_CHARS = re.compile(r'[\x00-\x09\x0b-\x1f\x7f{}()\[\]<>"\\|*#_~=`@^$%]')
NOTE_BOOST = 2.0  # logits given to the words the line is nudged towards
REPEAT_PENALTY = 1.5  # logits taken from a token the line already has
# A line never copies this many tokens in a row of `LineSpec.own` (the persona): fewer
# tokens than the words of the runs a reader calls reading the persona back (six).
OWN_RUN = 6


# A line that opens by saying it cannot answer ("I don't know...", "Not sure."): a small
# model says it to anything it has no note on, and a player reads it as a dodge.
_SHRUG = re.compile(
    r"^\W*(?:(?:well|hmm+|oh|ah|mm+|um+|er+)\W+)?(?:i (?:don'?t|do not|can'?t|cannot|couldn'?t) "
    r"(?:know|remember|recall|say|tell|think so)|i'?m not (?:sure|certain)|i have no idea|"
    r"no idea|not sure|who knows|i'?ve no idea)\b",
    re.I,
)


def shrugs(line: str) -> bool:
    """Whether a line opens with a shrug ("I don't know", "Not sure")."""
    return bool(_SHRUG.search(line))


def whole_sentences(line: str, lead: str = "") -> str:
    """A line cut off by its length, back to its last whole sentence (never into its
    lead); as it is when it ends a sentence or has no whole one."""
    line = line.rstrip()
    if _ENDED.search(line):
        return line
    cut = max(line.rfind(f"{mark} ") for mark in ".!?")
    return line[: cut + 1] if cut > 0 and cut + 1 >= len(lead.strip()) else line


class ScriptPlayer:
    """Plays script jobs on one decoder (one model)."""

    def __init__(self, decoder: Decoder) -> None:
        self.decoder = decoder
        self.np = decoder.np
        self.C = decoder.C
        self.llm = decoder.llm
        self.scorer = Scorer(decoder)
        self._ok: dict[int, bool] = {}  # token -> may appear in a line
        self._break: dict[int, bool] = {}  # token -> holds a line break
        self._join: dict[int, bool] = {}  # token -> carries on the word before it
        self._banned: tuple[str, ...] = ()  # the banned words `_ok` was built with
        self._banned_re: re.Pattern[str] | None = None
        self.prefix = PrefixCache(decoder)
        self._recent: dict[str, deque[str]] = {}  # key -> its latest lines, any slot
        self._boost: Any = decoder.np.zeros(0, dtype=decoder.np.intc)
        self._own: set[tuple[int, ...]] = set()  # the runs of `LineSpec.own` not to copy
        self._prefix_lines: dict[str, set[tuple[int, int, int]]] = {}
        self.newline = set(self.llm.tokenize(b"\n", add_bos=False, special=False))

    def close(self) -> None:
        """Free the scorer's batch."""
        self.scorer.close()

    # --- a step --------------------------------------------------------------------------

    def run(self, job: EngineJob, script: ScriptJob) -> None:
        """Play one step of a turn (see the module docstring)."""
        stats = job.stats
        decoder = self.decoder
        if script.finished:
            decoder.finish(job, "end_turn", 0)
            return
        if script.say is not None and script.line is not None:
            self._say(job, script.line, script.say)
            decoder.finish(job, "tool_use", 0)
            return
        if self.prefix.warmed != script.prefix:  # the first script job of a worker, or a new prefix
            self.prefix.warm(script.prefix, compute=True)
        prompt = self._tokens(script.prefix + script.prompt)
        if not decoder.begin(job, prompt, MAX_LINE_TOKENS + 64):  # the option, the line
            return
        option = self._pick(job, script, prompt) if len(script.options) > 1 else None
        if option is None and script.options:
            option = script.options[0]
        if option is not None and option.calls:
            stats.output_tokens += len(self._piece_tokens(option.text))  # the model's choice
            index = 0
            if option.line_first and script.line is not None:  # said as it sets off
                said = self._line(
                    job, script, self._tokens(script.prefix + script.prompt + option.text)
                )
                if job.cancelled.is_set():
                    stats.outcome = "cancelled"
                    return
                index = int(said is not None)
            for offset, call in enumerate(option.calls):
                self._call(job, call, index + offset)
            decoder.finish(job, "tool_use", len(prompt))
            decoder.save_state(stats)
            return
        after = option.text if option is not None else script.after
        line = None
        if script.line is not None:
            line = self._line(job, script, self._tokens(script.prefix + script.prompt + after))
        if job.cancelled.is_set():
            stats.outcome = "cancelled"
            return
        # Nothing sayable came out: the turn ends quietly.
        decoder.finish(job, "end_turn" if line is None else "tool_use", len(prompt))
        decoder.save_state(stats)

    def prime(self, job: EngineJob, script: ScriptJob) -> None:
        """Read the character's document up to where its newest line will go (still being
        typed) and keep the KV cache as its own: the answer then reads only the line."""
        if self.prefix.warmed != script.prefix:
            self.prefix.warm(script.prefix, compute=True)
        head = self._tokens(script.prefix + script.prompt)
        if self.decoder.begin(job, head, MAX_LINE_TOKENS + 64):
            self.decoder.finish(job, "primed", 0)
            self.decoder.save_state(job.stats)

    def _tokens(self, text: str) -> list[int]:
        return list(self.llm.tokenize(text.encode("utf-8"), add_bos=True, special=False))

    def _piece_tokens(self, text: str) -> list[int]:
        return list(self.llm.tokenize(text.encode(), add_bos=False, special=False))

    # --- choosing the option -----------------------------------------------------------------

    def _pick(self, job: EngineJob, script: ScriptJob, prompt: list[int]) -> Option:
        """The option the job's rule picks from the scores."""
        neutral = self._tokens(script.prefix + script.neutral) if script.neutral else None
        texts = [self._piece_tokens(o.text) for o in script.options]
        per = 1 if neutral is None else 2  # sequences an option takes, beside the prompt's
        group = max(1, (self.C.llama_n_seq_max(self.decoder.ctx) - 1) // per)
        scores: list[tuple[float, float]] = []
        for start in range(0, len(texts), group):
            scores += self.scorer.score(prompt, neutral, texts[start : start + group])
        return script.pick(scores, float(self.decoder.rng.random()))

    # --- the line ---------------------------------------------------------------------------

    def _breaks(self, token: int) -> bool:
        """Whether a token holds a line break ("\n\n", ".\n"): it ends the line as "\n" does."""
        found = self._break.get(token)
        if found is None:
            found = self._break[token] = b"\n" in bytes(self.llm.detokenize([token]))
        return found

    def _sayable(self, token: int) -> bool:
        ok = self._ok.get(token)
        if ok is None:
            text = bytes(self.llm.detokenize([token])).decode("utf-8", "replace")
            banned = self._banned_re is not None and self._banned_re.match(text)
            ok = not _BAD_CHARS.search(text) and not banned
            ok = (
                ok
                and "\ufffd" not in text
                and not self.C.llama_vocab_is_eog(self.decoder.vocab, token)
            )
            self._ok[token] = ok
        return ok

    def _ban(self, words: list[str]) -> None:
        """The words no token of a line may start (kept while the jobs name the same)."""
        banned = tuple(words)
        if banned != self._banned:
            self._banned, self._ok = banned, {}
            alternatives = "|".join(re.escape(w) for w in banned)
            self._banned_re = re.compile(rf"^\s*(?:{alternatives})\b", re.I) if banned else None

    def _joins(self, token: int) -> bool:
        """Whether the token carries on the word before it (its text starts with no space)."""
        joins = self._join.get(token)
        if joins is None:
            text = bytes(self.llm.detokenize([token])).decode("utf-8", "replace")
            joins = self._join[token] = bool(text) and not text[0].isspace()
        return joins

    def _first_tokens(self, words: list[str]) -> set[int]:
        return {
            int(t[0])
            for word in words
            for form in (word, " " + word)
            if (t := self._piece_tokens(form))
        }

    def _line(self, job: EngineJob, script: ScriptJob, tokens: list[int]) -> str | None:
        """Sample the line after `tokens` and stream it as the line's call (None: nothing)."""
        spec = script.line
        assert spec is not None
        recent = self._recent.setdefault(script.key, deque(maxlen=RECENT_LINES))
        earlier = [*spec.avoid, *recent]
        seen = self._trigrams(earlier) | self._prefix_trigrams(script.prefix)
        self._boost = self.np.asarray(sorted(self._first_tokens(spec.boost)), dtype=self.np.intc)
        self._own = self._runs(spec.own)
        self._hold = False  # the line may not end yet (while a lead cut mid-sentence goes on)
        self._ban(spec.banned_words)
        banned_first = self._first_tokens(spec.banned_first)
        temperature = script.temperature
        if spec.lead:
            return self._led(job, script, tokens, seen)
        self.decoder.prefill(job, tokens)
        for attempt in range(3):
            if attempt:
                self.decoder.prefill(job, tokens)  # back to the end of the prompt
            text, ids, first, ended = self._sample_line(job, seen, banned_first, temperature)
            if job.cancelled.is_set():
                return None
            if not text:
                continue
            # A line that ended within the held words is whole: if it mostly repeats an
            # earlier one, it is sampled again without its first token.
            repeats = ended and any(overlap(text, old) >= REPEAT_LIMIT for old in earlier)
            if (repeats or shrugs(text)) and attempt < 2:  # nor one that opens with a shrug
                banned_first = {*banned_first, first}
                continue
            call = self._open_line(job, spec)
            self._line_delta(job, text)
            shown = self._go_on(job, spec, seen, ids, text, temperature)
            self._close_line(job, spec, call, shown)
            recent.append(shown)
            return shown
        return None

    def _led(
        self, job: EngineJob, script: ScriptJob, tokens: list[int], seen: set[tuple[int, int, int]]
    ) -> str | None:
        """The line that starts with `line.lead`: the lead shown at once, then the model's
        words after it as they come (never three tokens of an earlier line), until the
        newline."""
        spec = script.line
        assert spec is not None
        shown = " ".join(spec.lead.split())
        ids = self._piece_tokens(" " + shown)
        call = self._open_line(job, spec)  # shown before the model reads it: the first letter
        self._line_delta(job, shown)
        self.decoder.prefill(job, tokens + ids)
        job.stats.output_tokens += len(ids)  # the reply's tokens, though not sampled
        shown = self._go_on(job, spec, seen, ids, shown, script.temperature)
        self._close_line(job, spec, call, shown)
        self._recent.setdefault(script.key, deque(maxlen=RECENT_LINES)).append(shown)
        return shown

    def _go_on(
        self,
        job: EngineJob,
        spec: LineSpec,
        seen: set[tuple[int, int, int]],
        ids: list[int],
        shown: str,
        temperature: float,
    ) -> str:
        """Sample the rest of a line already shown up to `shown`, streaming it; the whole line.
        A lead that stops mid-sentence ("I am certain") gets `OPEN_LEAD_MORE` tokens at least."""
        start, after = len(ids), len(shown)
        whole_lead = bool(spec.lead) and bool(_ENDED.search(spec.lead))
        open_lead = bool(spec.lead) and not whole_lead
        ended = False
        while len(ids) < MAX_LINE_TOKENS and len(shown) < spec.max_chars:
            self._hold = open_lead and len(ids) - start < OPEN_LEAD_MORE
            more, ids = self._continue(job, seen, ids, temperature)
            if more is None:
                ended = True
                break
            shown += more
            self._line_delta(job, more)
            if whole_lead and _ENDED.search(shown[after:].strip()):
                break  # one sentence of its own after a whole lead: a small model wanders
        return shown.rstrip() if ended else whole_sentences(shown, spec.lead)

    def _prefix_trigrams(self, prefix: str) -> set[tuple[int, int, int]]:
        """What the prefix's speakers say is theirs: a line never copies three tokens of it."""
        found = self._prefix_lines.get(prefix)
        if found is None:
            said = [line.split(":", 1)[1] for line in prefix.splitlines() if ": " in line]
            found = self._prefix_lines[prefix] = self._trigrams([s for s in said if s.strip()])
        return found

    def _runs(self, text: str) -> set[tuple[int, ...]]:
        """Every `OWN_RUN` tokens in a row of a text."""
        if not text:
            return set()
        ids = self._piece_tokens(" " + " ".join(text.split()))
        return {tuple(ids[i : i + OWN_RUN]) for i in range(len(ids) - OWN_RUN + 1)}

    def _trigrams(self, lines: list[str]) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for line in lines:
            ids = self._piece_tokens(" " + line)
            out.update(zip(ids, ids[1:], ids[2:], strict=False))
        return out

    def _next(
        self,
        job: EngineJob,
        seen: set[tuple[int, int, int]],
        ids: list[int],
        banned: set[int],
        temperature: float,
    ) -> int | None:
        """The next token of the line (None: the line ends here; never while `_hold`)."""
        np = self.np
        logits = self.decoder.logits(-1).copy()
        # Pieces that carry on a word ("'m" after "I") are neither penalised nor banned:
        # else "I'm", said once in the examples, comes out as "I'M" or "I' m".
        used = self.np.asarray([t for t in ids if not self._joins(t)], dtype=self.np.intc)
        if len(self._boost):
            # A boosted word is nudged until the line has said it, not after: else the
            # nudge outweighs the repeat penalty and the line says the name over and over.
            logits[np.setdiff1d(self._boost, used, assume_unique=False)] += NOTE_BOOST
        if len(used):
            logits[used] -= REPEAT_PENALTY  # a line that says the same word again and again
        top = np.argpartition(-logits, _TOP)[:_TOP]
        top = top[np.argsort(-logits[top])]
        keep: list[int] = []
        for token in (int(t) for t in top):
            if token in self.newline or self._breaks(token):
                if ids and not self._hold:
                    if not keep:
                        return None  # the likeliest thing is to end the line
                    break
                continue
            if token in banned or not self._sayable(token):
                continue
            if len(ids) >= 2 and (ids[-2], ids[-1], token) in seen and not self._joins(token):
                continue
            if self._own and (*ids[1 - OWN_RUN :], token) in self._own:
                continue
            keep.append(token)
        if not keep:
            return None
        chosen = self.decoder.pick(np.asarray(keep, dtype=np.intc), logits[keep], temperature)
        self.decoder.counted(job)
        return chosen

    def _sample_line(
        self,
        job: EngineJob,
        seen: set[tuple[int, int, int]],
        banned_first: set[int],
        temperature: float,
    ) -> tuple[str, list[int], int, bool]:
        """The line's first words (up to `HOLD_WORDS`), its tokens, its first token, and
        whether the line ended there."""
        ids: list[int] = []
        text = ""
        first = -1
        while len(ids) < MAX_LINE_TOKENS:
            if job.cancelled.is_set():
                break
            token = self._next(job, seen, ids, banned_first if not ids else set(), temperature)
            if token is None:
                return text.lstrip(), ids, first, True
            if not ids:
                first = token
            ids.append(token)
            text = self._text(ids)
            self.llm.eval([token])
            if len(text.split()) > HOLD_WORDS:
                break
        return text.lstrip(), ids, first, False

    def _continue(
        self, job: EngineJob, seen: set[tuple[int, int, int]], ids: list[int], temperature: float
    ) -> tuple[str | None, list[int]]:
        if job.cancelled.is_set():
            return None, ids
        token = self._next(job, seen, ids, set(), temperature)
        if token is None:
            return None, ids
        before = self._text(ids)
        ids = [*ids, token]
        self.llm.eval([token])
        return self._text(ids)[len(before) :], ids

    def _text(self, ids: list[int]) -> str:
        return bytes(self.llm.detokenize(ids)).decode("utf-8", "replace").lstrip()

    # --- calls ------------------------------------------------------------------------------

    def _call(self, job: EngineJob, call: Call, index: int = 0) -> None:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        text = json.dumps(call.args)
        job.emit(ToolCallStart(index=index, id=call_id, name=call.tool))
        job.emit(ToolCallArgsDelta(index=index, delta=text))
        job.emit(ToolCallDone(index=index, id=call_id, name=call.tool, arguments=text))

    def _say(self, job: EngineJob, spec: LineSpec, text: str) -> None:
        call = self._open_line(job, spec)
        self._line_delta(job, text)
        self._close_line(job, spec, call, text)

    def _open_line(self, job: EngineJob, spec: LineSpec) -> str:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        job.emit(ToolCallStart(index=0, id=call_id, name=spec.tool))
        job.emit(ToolCallArgsDelta(index=0, delta=f'{{{json.dumps(spec.field)}: "'))
        return call_id

    def _line_delta(self, job: EngineJob, text: str) -> None:
        if text:
            job.emit(ToolCallArgsDelta(index=0, delta=json.dumps(text)[1:-1]))

    def _close_line(self, job: EngineJob, spec: LineSpec, call_id: str, text: str) -> None:
        extra = json.dumps(spec.extra)[1:-1]
        job.emit(ToolCallArgsDelta(index=0, delta='"' + (f", {extra}}}" if extra else "}")))
        args = json.dumps({spec.field: text, **spec.extra})
        job.emit(ToolCallDone(index=0, id=call_id, name=spec.tool, arguments=args))
