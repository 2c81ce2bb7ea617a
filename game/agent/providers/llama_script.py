"""The play-script protocol on llama.cpp: score the actions, sample the line, emit the calls.

Runs in the worker process (see `local_script` for the protocol itself). One step of a turn:

1. the turn already spoke (or an idle turn already acted): end it;
2. no action yet: score the candidate brackets in one batched decode (`llama_scoring`),
   each candidate a sequence branching off the prompt's KV cache (and off a neutral line's,
   which shares all but the newest line), and pick one (`Script.choose`); a gesture or look
   is emitted as its call and the line follows in the next step; a walk or a wait takes
   time, so its line is sampled first and both calls go in one answer, the line first;
3. otherwise: sample the line after `Name [action]:` and stream it as a `say` call.

The line is sampled token by token from the model's top candidates, leaving out tokens
that would put markup, braces, quotes or control characters in it or continue three tokens
of an earlier reply of this NPC; it ends at the newline. A short line that still mostly
repeats an earlier one is sampled again before it is shown.

The example block opens every NPC's prompt, so its KV cache is computed once (by the
worker's first script request) and kept: in the live cache (each prompt resumes from it),
and in a file under the worker's `prefix_dir`, which the next worker reads back as it
starts, in milliseconds instead of prefilling it again (about 1.6 s on two cores).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import os
import re
import uuid
from collections import deque
from pathlib import Path
from typing import Any

from game.agent.providers.base import (
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
)
from game.agent.providers.llama_decoder import Decoder, EngineJob
from game.agent.providers.llama_scoring import Scorer
from game.agent.providers.local_scene import EXAMPLES, MAX_LINE_CHARS
from game.agent.providers.local_script import Action, Script, build_script
from game.atomic import replacing
from game.wording import overlap

__all__ = ["ScriptPlayer"]

MAX_LINE_TOKENS = 48
# Actions that take time (a walk, a wait) come after the line, in the same answer: the
# player hears the reply at once, not when the NPC arrives.
SPOKEN_FIRST = frozenset({"move", "wait"})
HOLD_WORDS = 3  # a line is held back until this many words, to catch a short repeat
RECENT_LINES = 32  # lines an NPC remembers saying, in this process, to not say them again
REPEAT_LIMIT = 0.6  # word-pair overlap with an earlier reply that counts as repeating
_TOP = 48
_BAD_CHARS = re.compile(r'[\x00-\x09\x0b-\x1f\x7f{}()\[\]<>"\\|*#_~=`@^$%]')
# Words a villager has no use for: the examples' names, and talk of AIs and prompts.
_NOT_SAID = re.compile(
    r"^\s*(Odo|Mira|Jory|AI|A\.I|assistant|chatbot|prompt|instruction|program|robot|bot"
    r"|model|system|JSON|code|language|computer|machine|software|artificial|digital|internet)\b",
    re.IGNORECASE,
)
NOTE_BOOST = 2.0  # logits given to the words of the facts the newest line is about
REPEAT_PENALTY = 1.5  # logits taken from a token the line already has
LINE_TEMPERATURE = 0.4  # at most: a small model wanders off the scene when hotter
PREFIX_FILES_KEPT = 4  # example-block files kept (one per model and settings in use)


class ScriptPlayer:
    """Plays requests with the script protocol on one decoder (one model)."""

    def __init__(self, decoder: Decoder) -> None:
        self.decoder = decoder
        self.np = decoder.np
        self.C = decoder.C
        self.llm = decoder.llm
        self.scorer = Scorer(decoder)
        self._ok: dict[int, bool] = {}  # token -> may appear in a line
        self._join: dict[int, bool] = {}  # token -> carries on the word before it
        self.warmed = False  # the example block was computed or read back in this process
        self._recent: dict[str, deque[str]] = {}  # npc id -> its latest lines, any slot
        self._boost: Any = decoder.np.zeros(0, dtype=decoder.np.intc)
        # What the examples' villagers say is theirs: a line never copies three tokens of it.
        said = [line.split(":", 1)[1] for line in EXAMPLES.splitlines() if ": " in line]
        self._examples = self._trigrams([line for line in said if line.strip()])
        # First words of a yes, never the start of an answer to "are you a program?".
        self._yes = {
            int(t[0])
            for word in ("Yes", "Yeah", "Yep", "Aye", "Sure", "Indeed", "Of course")
            for form in (word, " " + word)
            if (t := self.llm.tokenize(form.encode(), add_bos=False, special=False))
        }
        self.newline = set(self.llm.tokenize(b"\n", add_bos=False, special=False))

    def close(self) -> None:
        """Free the scorer's batch."""
        self.scorer.close()

    # --- the example block ----------------------------------------------------------------

    def warm(self, *, compute: bool) -> str | None:
        """Put the example block in the live KV cache: read back from the config's
        `prefix_dir` when an earlier run saved it there ("disk"), else, if asked to,
        prefilled and saved there ("computed"); None when neither."""
        prefix_dir = self.decoder.config.prefix_dir
        folder = Path(prefix_dir) if prefix_dir else None
        tokens = self._tokens(EXAMPLES)
        file = folder / f"script-prefix-{self._prefix_key(tokens)}.kv" if folder else None
        if file is not None and file.is_file() and self._load_prefix(file, tokens):
            self.warmed = True
            return "disk"
        if not compute:
            return None
        self.warmed = True
        self.llm.reset()
        self.decoder.clear_cache()
        for i in range(0, len(tokens), self.llm.n_batch):
            self.llm.eval(tokens[i : i + self.llm.n_batch])
        if file is not None:
            with contextlib.suppress(OSError):  # a cache that cannot be written is no cache
                self._save_prefix(file, tokens)
        return "computed"

    def _prefix_key(self, tokens: list[int]) -> str:
        """What the saved KV cache depends on: the model file, llama.cpp, the context's
        shape and the example block's tokens."""
        import llama_cpp

        config = self.decoder.config
        model = Path(config.model_path).resolve()
        stat = model.stat()
        parts = (
            str(model), stat.st_size, stat.st_mtime_ns, llama_cpp.__version__,
            config.settings, config.n_ctx, self.llm.n_batch, tokens,
        )  # fmt: skip
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]

    def _load_prefix(self, file: Path, tokens: list[int]) -> bool:
        C = self.C
        self.decoder.clear_cache()
        out = (C.llama_token * (len(tokens) + 1))()
        count = ctypes.c_size_t(0)
        read = C.llama_state_seq_load_file(
            self.decoder.ctx, os.fsencode(file), 0, out, len(tokens) + 1, ctypes.byref(count)
        )
        if read == 0 or list(out[: count.value]) != tokens:
            self.decoder.clear_cache()
            self.llm.reset()
            return False
        self.llm.input_ids[: len(tokens)] = tokens
        self.llm.n_tokens = len(tokens)
        return True

    def _save_prefix(self, file: Path, tokens: list[int]) -> None:
        array = (self.C.llama_token * len(tokens))(*tokens)
        with replacing(file, fsync=False) as tmp:
            if not self.C.llama_state_seq_save_file(
                self.decoder.ctx, os.fsencode(tmp), 0, array, len(tokens)
            ):
                raise OSError(f"llama.cpp could not write {tmp}")
        files = sorted(file.parent.glob("script-prefix-*.kv"), key=lambda f: f.stat().st_mtime)
        for old in files[:-PREFIX_FILES_KEPT]:
            old.unlink(missing_ok=True)

    # --- a step --------------------------------------------------------------------------

    def run(self, job: EngineJob) -> None:
        """Play one step of a turn (see the module docstring)."""
        request = job.request
        script = build_script(request)
        stats = job.stats
        decoder = self.decoder
        if script.done():
            decoder.finish(job, "end_turn", 0)
            return
        if script.greets():
            self._say(job, script, script.greeting)
            decoder.finish(job, "tool_use", 0)
            return
        if not self.warmed:  # the first script request of a worker with no file on disk
            self.warm(compute=True)
        prompt = self._tokens(script.prompt)
        if not decoder.begin(job, prompt, MAX_LINE_TOKENS + 64):  # the bracket, the line
            return
        action = self._pick(job, script, prompt) if script.may_act() else None
        if action is not None and action.tool:
            stats.output_tokens += len(self._bracket(action))  # the choice is the model's
            index = 0
            if action.kind in SPOKEN_FIRST:  # "This way." as it sets off, not on arrival
                said = self._line(job, script, self._tokens(script.prompt + action.bracket))
                if job.cancelled.is_set():
                    stats.outcome = "cancelled"
                    return
                index = int(said is not None)
            self._call(job, action.tool, action.args, index)
            decoder.finish(job, "tool_use", len(prompt))
            decoder.save_state(stats)
            return
        bracket = f" [{script.doing}]:" if script.doing else ":"
        line = self._line(job, script, self._tokens(script.prompt + bracket))
        if job.cancelled.is_set():
            stats.outcome = "cancelled"
            return
        if line is None:  # nothing sayable came out: the turn ends quietly
            decoder.finish(job, "end_turn", len(prompt))
        else:
            decoder.finish(job, "tool_use", len(prompt))
        decoder.save_state(stats)

    def prime(self, job: EngineJob) -> None:
        """Read the NPC's document up to its newest line, which is still being typed, and
        keep the KV cache as the NPC's: the answer then reads only the line."""
        if not self.warmed:
            self.warm(compute=True)
        head = self._tokens(build_script(job.request).head)
        if self.decoder.begin(job, head, MAX_LINE_TOKENS + 64):
            self.decoder.finish(job, "primed", 0)
            self.decoder.save_state(job.stats)

    def _tokens(self, text: str) -> list[int]:
        return list(self.llm.tokenize(text.encode("utf-8"), add_bos=True, special=False))

    # --- choosing the action ---------------------------------------------------------------

    def _pick(self, job: EngineJob, script: Script, prompt: list[int]) -> Action:
        pool = script.pool(job.request.tools)
        if len(pool) == 1:
            return pool[0]
        # An idle step samples by the likelihoods alone; only an answer weighs them
        # against the neutral line (see Script.choose).
        neutral = self._tokens(script.neutral) if script.kind != "idle" else None
        options = [self._bracket(a) for a in pool]
        per = 1 if neutral is None else 2  # sequences an option takes, beside the prompt's
        group = max(1, (self.C.llama_n_seq_max(self.decoder.ctx) - 1) // per)
        scores: list[tuple[float, float]] = []
        for start in range(0, len(options), group):
            scores += self.scorer.score(prompt, neutral, options[start : start + group])
        draw = float(self.decoder.rng.random())
        return script.choose([(a, m, n) for a, (m, n) in zip(pool, scores, strict=True)], draw)

    def _bracket(self, action: Action) -> list[int]:
        return list(self.llm.tokenize(action.bracket.encode(), add_bos=False, special=False))

    # --- the line ---------------------------------------------------------------------------

    def _sayable(self, token: int) -> bool:
        ok = self._ok.get(token)
        if ok is None:
            text = bytes(self.llm.detokenize([token])).decode("utf-8", "replace")
            ok = not _BAD_CHARS.search(text) and not _NOT_SAID.match(text)
            ok = (
                ok
                and "\ufffd" not in text
                and not self.C.llama_vocab_is_eog(self.decoder.vocab, token)
            )
            self._ok[token] = ok
        return ok

    def _joins(self, token: int) -> bool:
        """Whether the token carries on the word before it (its text starts with no space)."""
        joins = self._join.get(token)
        if joins is None:
            text = bytes(self.llm.detokenize([token])).decode("utf-8", "replace")
            joins = self._join[token] = bool(text) and not text[0].isspace()
        return joins

    def _line(self, job: EngineJob, script: Script, tokens: list[int]) -> str | None:
        """Sample the line after `tokens` and stream it as a `say` call (None: nothing)."""
        recent = self._recent.setdefault(job.stats.npc_id or "", deque(maxlen=RECENT_LINES))
        earlier = [*script.earlier_replies, *recent]
        if script.greeting:
            earlier.append(script.greeting)
        seen = self._trigrams(earlier) | self._examples
        self._boost = self._note_tokens(script.notes)
        banned_first = self._yes if script.asked_if_machine() else set()
        self.decoder.prefill(job, tokens)
        for attempt in range(3):
            if attempt:
                self.decoder.prefill(job, tokens)  # back to the end of the prompt
            text, ids, first, ended = self._sample_line(job, seen, banned_first)
            if job.cancelled.is_set():
                return None
            if not text:
                continue
            # A line that ended within the held words is whole: if it mostly repeats an
            # earlier one, it is sampled again without its first token.
            repeats = ended and any(overlap(text, old) >= REPEAT_LIMIT for old in earlier)
            if repeats and attempt < 2:
                banned_first = {*banned_first, first}
                continue
            call = self._open_say(job, script)
            shown = text
            self._say_delta(job, shown)
            while len(ids) < MAX_LINE_TOKENS and not self._ended(shown):
                more, ids = self._continue(job, seen, ids)
                if more is None:
                    break
                shown += more
                self._say_delta(job, more)
            shown = shown.rstrip()
            self._close_say(job, call, script, shown)
            recent.append(shown)
            return shown
        return None

    def _ended(self, text: str) -> bool:
        return len(text) >= MAX_LINE_CHARS

    def _note_tokens(self, notes: str) -> Any:
        """The tokens of the notes' longer words, which the line is nudged towards."""
        ids: set[int] = set()
        for word in set(re.findall(r"[A-Za-z']{4,}", notes)):
            for form in (word, " " + word):
                pieces = self.llm.tokenize(form.encode(), add_bos=False, special=False)
                ids.update(int(t) for t in pieces[:1])
        return self.np.asarray(sorted(ids), dtype=self.np.intc)

    def _trigrams(self, lines: list[str]) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for line in lines:
            ids = list(self.llm.tokenize((" " + line).encode(), add_bos=False, special=False))
            out.update(zip(ids, ids[1:], ids[2:], strict=False))
        return out

    def _next(
        self, job: EngineJob, seen: set[tuple[int, int, int]], ids: list[int], banned: set[int]
    ) -> int | None:
        """The next token of the line (None: the line ends here)."""
        np = self.np
        logits = self.decoder.logits(-1).copy()
        # Pieces that carry on a word ("'m" after "I") are neither penalised nor banned:
        # else "I'm", said once in the examples, comes out as "I'M" or "I' m".
        used = self.np.asarray([t for t in ids if not self._joins(t)], dtype=self.np.intc)
        if len(self._boost):
            # A note's word is nudged until the line has said it, not after: else the
            # nudge outweighs the repeat penalty and the line says the name over and over.
            logits[np.setdiff1d(self._boost, used, assume_unique=False)] += NOTE_BOOST
        if len(used):
            logits[used] -= REPEAT_PENALTY  # a line that says the same word again and again
        top = np.argpartition(-logits, _TOP)[:_TOP]
        top = top[np.argsort(-logits[top])]
        keep: list[int] = []
        for token in (int(t) for t in top):
            if token in self.newline:
                if ids:
                    if not keep:
                        return None  # the likeliest thing is to end the line
                    break
                continue
            if token in banned or not self._sayable(token):
                continue
            if len(ids) >= 2 and (ids[-2], ids[-1], token) in seen and not self._joins(token):
                continue
            keep.append(token)
        if not keep:
            return None
        chosen = self.decoder.pick(
            np.asarray(keep, dtype=np.intc),
            logits[keep],
            min(job.request.temperature, LINE_TEMPERATURE),
        )
        self.decoder.counted(job)
        return chosen

    def _sample_line(
        self, job: EngineJob, seen: set[tuple[int, int, int]], banned_first: set[int]
    ) -> tuple[str, list[int], int, bool]:
        """The line's first words (up to `HOLD_WORDS`), its tokens, its first token, and
        whether the line ended there."""
        ids: list[int] = []
        text = ""
        first = -1
        while len(ids) < MAX_LINE_TOKENS:
            if job.cancelled.is_set():
                break
            token = self._next(job, seen, ids, banned_first if not ids else set())
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
        self, job: EngineJob, seen: set[tuple[int, int, int]], ids: list[int]
    ) -> tuple[str | None, list[int]]:
        if job.cancelled.is_set():
            return None, ids
        token = self._next(job, seen, ids, set())
        if token is None:
            return None, ids
        before = self._text(ids)
        ids = [*ids, token]
        self.llm.eval([token])
        return self._text(ids)[len(before) :], ids

    def _text(self, ids: list[int]) -> str:
        return bytes(self.llm.detokenize(ids)).decode("utf-8", "replace").lstrip()

    # --- calls ------------------------------------------------------------------------------

    def _call(self, job: EngineJob, tool: str, args: dict[str, Any], index: int = 0) -> None:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        text = json.dumps(args)
        job.emit(ToolCallStart(index=index, id=call_id, name=tool))
        job.emit(ToolCallArgsDelta(index=index, delta=text))
        job.emit(ToolCallDone(index=index, id=call_id, name=tool, arguments=text))

    def _say(self, job: EngineJob, script: Script, text: str) -> None:
        call = self._open_say(job, script)
        self._say_delta(job, text)
        self._close_say(job, call, script, text)

    def _open_say(self, job: EngineJob, script: Script) -> str:
        call_id = f"call_{uuid.uuid4().hex[:12]}"
        job.emit(ToolCallStart(index=0, id=call_id, name="say"))
        job.emit(ToolCallArgsDelta(index=0, delta='{"text": "'))
        return call_id

    def _say_delta(self, job: EngineJob, text: str) -> None:
        if text:
            job.emit(ToolCallArgsDelta(index=0, delta=json.dumps(text)[1:-1]))

    def _close_say(self, job: EngineJob, call_id: str, script: Script, text: str) -> None:
        target = script.speaker or "player"
        tail = f'", "target": {json.dumps(target)}}}'
        job.emit(ToolCallArgsDelta(index=0, delta=tail))
        args = json.dumps({"text": text, "target": target})
        job.emit(ToolCallDone(index=0, id=call_id, name="say", arguments=args))
