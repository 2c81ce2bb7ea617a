"""Building llama.cpp's `Llama` for a worker: the rung's settings, the chat template, quiet logs.

Used only where llama.cpp may run: the worker process (`local.worker`, through
`local.worker.engine.load_engine`) and the server launcher (`local.server`), never the game process.
"""

from __future__ import annotations

import ctypes
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from game.agent.providers.local.protocol import LlamaSettings, WorkerConfig

__all__ = [
    "SCORING_SEQUENCES",
    "build_llama",
    "quiet_llama_logs",
    "safe_model_params",
    "template_of",
]

SCORING_SEQUENCES = 128  # sequences a context holds: two per candidate action, and the prompt


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
