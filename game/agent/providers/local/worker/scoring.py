"""How likely each candidate continuation is after a prompt, in one batched llama.cpp decode.

Runs in the worker process. The play-script path (`local.worker.player`) scores its candidate
action brackets with it: every option is a sequence of its own, branching off the prompt's
KV cache (and off a neutral line's, which shares all but the newest line), so all of them
cost one decode instead of one each.
"""

from __future__ import annotations

from typing import Any

from game.agent.providers.local.worker.decoder import Decoder

__all__ = ["OUTPUT_ROWS", "Scorer"]

OUTPUT_ROWS = 64  # logits rows a scoring decode asks for (a megabyte each); fewer is slower

# (token, position, sequences, tag of its logits row if one is wanted, the tokens whose
# log-likelihood that row gives)
_Entry = tuple[int, int, list[int], Any, list[int]]


class Scorer:
    """Scores options on one decoder; keeps the llama.cpp batch it decodes them in."""

    def __init__(self, decoder: Decoder) -> None:
        self.decoder = decoder
        self._batch: Any = None
        self._batch_size = 0

    def close(self) -> None:
        """Free the batch."""
        if self._batch is not None:
            self.decoder.C.llama_batch_free(self._batch)
            self._batch = None

    def score(
        self, prompt: list[int], neutral: list[int] | None, options: list[list[int]]
    ) -> list[tuple[float, float]]:
        """Log-likelihood of each option after `prompt` (prefilled, in sequence 0) and after
        `neutral` (0.0 when None), in one decode: every option is a sequence of its own
        sharing the cache."""
        C = self.decoder.C
        mem = C.llama_get_memory(self.decoder.ctx)
        n = len(prompt)
        d = 0
        while neutral is not None and d < min(n, len(neutral)) - 1 and prompt[d] == neutral[d]:
            d += 1
        tail = neutral[d:] if neutral is not None else []
        k = len(options)
        main_ids = [1 + j for j in range(k)]
        neutral_ids = [1 + k + j for j in range(k)] if neutral is not None else []
        entries: list[_Entry] = []
        for j, option in enumerate(options):
            C.llama_memory_seq_cp(mem, 0, main_ids[j], -1, -1)
            if neutral_ids:
                C.llama_memory_seq_cp(mem, 0, neutral_ids[j], 0, d)
            entries += [
                (t, n + i, [main_ids[j]], ("m", j, i), [option[i + 1]])
                for i, t in enumerate(option[:-1])
            ]
        firsts = [option[0] for option in options]
        for i, t in enumerate(tail):
            last = i == len(tail) - 1
            entries.append((t, d + i, neutral_ids, "tail" if last else None, firsts))
        m = d + len(tail)
        for j, option in enumerate(options if neutral_ids else []):
            entries += [
                (t, m + i, [neutral_ids[j]], ("n", j, i), [option[i + 1]])
                for i, t in enumerate(option[:-1])
            ]
        # Read before the decode overwrites it.
        first = self._log_softmax(self.decoder.logits(-1))[firsts]
        try:
            rows = self._decode(entries)
            out: list[tuple[float, float]] = []
            for j, option in enumerate(options):
                main = float(first[j])
                other = float(rows["tail"][j]) if neutral_ids else 0.0
                for i in range(1, len(option)):
                    main += float(rows[("m", j, i - 1)][0])
                    if neutral_ids:
                        other += float(rows[("n", j, i - 1)][0])
                out.append((main, other))
        finally:
            for seq in (*main_ids, *neutral_ids):
                C.llama_memory_seq_rm(mem, seq, -1, -1)
        return out

    def _decode(self, entries: list[_Entry]) -> dict[Any, Any]:
        """Decode `entries` in batches the context takes, at most `OUTPUT_ROWS` logits rows
        a batch (each row is a megabyte of the vocabulary's logits, in llama.cpp's buffers
        and here); for each tagged row, the log-likelihoods of its wanted tokens."""
        C = self.decoder.C
        ctx = self.decoder.ctx
        size = max(1, min(C.llama_n_batch(ctx), C.llama_n_ubatch(ctx)))
        if self._batch is None:
            self._batch = C.llama_batch_init(size, 0, C.llama_n_seq_max(ctx))
            self._batch_size = size
        batch = self._batch
        rows: dict[Any, Any] = {}
        start = 0
        while start < len(entries):
            chunk: list[_Entry] = []
            outputs = 0
            for entry in entries[start:]:
                if len(chunk) == self._batch_size or (
                    entry[3] is not None and outputs == OUTPUT_ROWS
                ):
                    break
                chunk.append(entry)
                outputs += entry[3] is not None
            start += len(chunk)
            batch.n_tokens = len(chunk)
            for b, (token, pos, seqs, tag, _) in enumerate(chunk):
                batch.token[b] = token
                batch.pos[b] = pos
                batch.n_seq_id[b] = len(seqs)
                for i, seq in enumerate(seqs):
                    batch.seq_id[b][i] = seq
                batch.logits[b] = 1 if tag is not None else 0
            if C.llama_decode(ctx, batch) != 0:
                raise RuntimeError("llama_decode failed while scoring the actions")
            for b, (_, _, _, tag, wanted) in enumerate(chunk):
                if tag is not None:
                    rows[tag] = self._log_softmax(self.decoder.logits(b))[wanted]
        return rows

    def _log_softmax(self, logits: Any) -> Any:
        np = self.decoder.np
        top = logits.max()
        return logits - (top + np.log(np.exp(logits - top).sum()))
