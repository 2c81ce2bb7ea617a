"""llama-cpp-python's OpenAI-compatible server, run with the settings probed for this machine.

    python -m game.agent.providers.local.server [--settings NAME] -- --model PATH [options]

`python -m llama_cpp.server` builds its `Llama` with llama.cpp's own buffers, which fault on
a CPU that advertises AMX a VM does not allow. This launcher takes the settings the game
would use (`--settings auto`, the default: the probe's choice for this llama.cpp build,
model and CPU, probing first if there is none yet), says which on stderr in one line, and
runs the server with them. Everything after `--` goes to the server unchanged.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from game.agent.providers.local.client.probe import PROBE_FILE, ProbeCache, probe_key
from game.agent.providers.local.model import cache_dir
from game.agent.providers.local.protocol import LADDER, settings_named

__all__ = ["main", "probed_settings"]


def probed_settings(model: Path, probe_cache: Path | None = None) -> tuple[str, str]:
    """The rung the game would run `model` on, and why; probes (in workers) if need be."""
    cache = ProbeCache(probe_cache or cache_dir() / PROBE_FILE)
    choice = cache.get(probe_key(model))
    if choice is not None:
        return choice.settings, choice.reason
    from game.agent.providers.local.client.provider import LocalLlamaProvider

    provider = LocalLlamaProvider(model, probe_cache=cache.path)

    async def probe() -> str | None:
        try:
            error = await provider.load()
            return error.message if error is not None else None
        finally:
            await provider.aclose()

    failed = asyncio.run(probe())
    if failed is not None or provider.choice is None:
        raise SystemExit(f"error: {failed or 'the probe found no settings that work'}")
    return provider.choice.settings, provider.choice.reason


def _model_of(args: list[str]) -> Path | None:
    for i, arg in enumerate(args):
        if arg == "--model" and i + 1 < len(args):
            return Path(args[i + 1])
        if arg.startswith("--model="):
            return Path(arg.split("=", 1)[1])
    return None


def main(argv: list[str] | None = None) -> int:
    """Pick the settings, then hand the rest of the command line to `llama_cpp.server`."""
    parser = argparse.ArgumentParser(
        prog="python -m game.agent.providers.local.server",
        description="Run llama_cpp.server with the llama.cpp settings probed for this machine; "
        "the server's own options follow --.",
    )
    parser.add_argument("--settings", default="auto", choices=["auto", *(r.name for r in LADDER)])
    parser.add_argument("--probe-cache", type=Path, default=None, help="the probe's record file")
    ours, rest = parser.parse_known_args(argv)
    if rest[:1] == ["--"]:
        rest = rest[1:]
    name, why = ours.settings, "asked for on the command line"
    if name == "auto":
        model = _model_of(rest)
        if model is None or not model.is_file():
            print("error: give the server a GGUF file: -- --model PATH", file=sys.stderr)
            return 2
        name, why = probed_settings(model, ours.probe_cache)
    settings = settings_named(name)
    print(f"llama.cpp settings: {name} ({settings.description}): {why}", file=sys.stderr)
    from llama_cpp.server.__main__ import main as serve

    from game.agent.providers.local.worker.load import safe_model_params

    sys.argv = ["llama_cpp.server", *rest]
    with safe_model_params(settings):
        serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
