"""The prefix every script document opens with, kept as KV cache: in the live cache (each
prompt resumes from it), and in a file under the worker's `prefix_dir`, which the next
worker reads back as it starts (the game sends the prefix with the worker's
configuration), in milliseconds instead of prefilling it again (about 1.6 s on two
cores). The file is keyed by what its cache depends on: the model file, llama.cpp, the
context's shape and the prefix's tokens.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
from pathlib import Path

from game.agent.providers.local.worker.decoder import Decoder
from game.atomic import replacing

__all__ = ["PREFIX_FILES_KEPT", "PrefixCache"]

PREFIX_FILES_KEPT = 4  # prefix files kept (one per model and settings in use)


class PrefixCache:
    """The script prefix's KV cache on one decoder, live and on disk."""

    def __init__(self, decoder: Decoder) -> None:
        self.decoder = decoder
        self.C = decoder.C
        self.llm = decoder.llm
        self.warmed: str | None = None  # the prefix in the live cache (or on disk, read back)

    def warm(self, prefix: str, *, compute: bool) -> str | None:
        """Put `prefix` in the live KV cache: read back from the config's `prefix_dir` when
        an earlier run saved it there ("disk"), else, if asked to, prefilled and saved there
        ("computed"); None when neither."""
        prefix_dir = self.decoder.config.prefix_dir
        folder = Path(prefix_dir) if prefix_dir else None
        tokens = list(self.llm.tokenize(prefix.encode("utf-8"), add_bos=True, special=False))
        file = folder / f"script-prefix-{self._key(tokens)}.kv" if folder else None
        if file is not None and file.is_file() and self._load(file, tokens):
            self.warmed = prefix
            return "disk"
        if not compute:
            return None
        self.warmed = prefix
        self.llm.reset()
        self.decoder.clear_cache()
        for i in range(0, len(tokens), self.llm.n_batch):
            self.llm.eval(tokens[i : i + self.llm.n_batch])
        if file is not None:
            with contextlib.suppress(OSError):  # a cache that cannot be written is no cache
                self._save(file, tokens)
        return "computed"

    def _key(self, tokens: list[int]) -> str:
        """What the saved KV cache depends on: the model file, llama.cpp, the context's
        shape and the prefix's tokens."""
        import llama_cpp

        config = self.decoder.config
        model = Path(config.model_path).resolve()
        stat = model.stat()
        parts = (
            str(model),
            stat.st_size,
            stat.st_mtime_ns,
            llama_cpp.__version__,
            config.settings,
            config.n_ctx,
            self.llm.n_batch,
            tokens,
        )
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]

    def _load(self, file: Path, tokens: list[int]) -> bool:
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

    def _save(self, file: Path, tokens: list[int]) -> None:
        array = (self.C.llama_token * len(tokens))(*tokens)
        with replacing(file, fsync=False) as tmp:
            if not self.C.llama_state_seq_save_file(
                self.decoder.ctx, os.fsencode(tmp), 0, array, len(tokens)
            ):
                raise OSError(f"llama.cpp could not write {tmp}")
        files = sorted(file.parent.glob("script-prefix-*.kv"), key=lambda f: f.stat().st_mtime)
        for old in files[:-PREFIX_FILES_KEPT]:
            old.unlink(missing_ok=True)
