"""Downloading models from the Hugging Face Hub into the user cache: checked, resumable,
verified, and never half-loaded.

`pull(file)` asks the hub for the file's size and hash (huggingface_hub's own metadata
call, so `HF_ENDPOINT`, `HF_TOKEN` and the hub's error codes work as everywhere else),
refuses with one line a file that will not fit this machine's free memory or disk, then
downloads into `<name>.part` beside its final place. An interrupted pull (Ctrl-C, a lost
connection, Cancel) keeps the part, and the next pull resumes from it (with a `Range`
request) and says so; a part from another revision starts over. The finished file is
checked (size, sha256) before it is renamed into place with a stamp; a model is only ever
loaded from a stamped file, so nothing half-downloaded or corrupt is ever loaded.

With `HF_HUB_OFFLINE` set, nothing is asked of the network: a downloaded model is used,
anything else is one line saying so.

    PullError(LocalModelError)       why a pull failed, in one line
      PullCancelled(PullError)       the player cancelled it (the part is kept)
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from game.agent.providers.local.catalogue import HubFile
from game.agent.providers.local.model import (
    LocalModelError,
    ProgressCallback,
    cache_dir,
    ensure_default_model,
    file_sha256,
    on_hub,
)
from game.atomic import write_atomic
from game.files import os_reason, read_json_object

__all__ = [
    "MEMINFO",
    "PullCancelled",
    "PullError",
    "available_memory_mb",
    "downloaded",
    "endpoint",
    "offline",
    "pull",
    "remove",
    "resolve_model_path",
    "target_of",
]

MEMINFO = Path("/proc/meminfo")
DISK_MARGIN = 64 * 1024 * 1024  # free space left after a pull, for saves and logs
_MB = 1024 * 1024
_STAMP = ".verified.json"


class PullError(LocalModelError):
    """A pull failed; the message is one line saying why and what to do."""


class PullCancelled(PullError):
    """The pull was cancelled; what was downloaded is kept for the next pull."""


def endpoint() -> str:
    """The hub's address: `HF_ENDPOINT`, else huggingface.co."""
    return os.environ.get("HF_ENDPOINT", "").rstrip("/") or "https://huggingface.co"


def offline() -> bool:
    """Whether `HF_HUB_OFFLINE` forbids the network."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _token() -> str | None:
    return os.environ.get("HF_TOKEN") or None  # None: huggingface_hub's stored login, if any


def models_root() -> Path:
    """Where downloaded models live: `<cache>/models/hub/<owner>--<repo>/<revision>/`."""
    return cache_dir() / "models" / "hub"


def target_of(hub: HubFile) -> Path:
    """Where `hub`'s file lives once downloaded."""
    return models_root() / hub.repo.replace("/", "--") / hub.revision / hub.file


def _stamp(target: Path) -> Path:
    return target.with_name(target.name + _STAMP)


def downloaded(hub: HubFile) -> Path | None:
    """The verified file of `hub`, if it was downloaded (and not changed since)."""
    target = target_of(hub)
    stamp = read_json_object(_stamp(target))
    try:
        st = target.stat()
    except OSError:
        return None
    if stamp is None:
        return None
    if stamp.get("size") != st.st_size or stamp.get("mtime_ns") != st.st_mtime_ns:
        return None
    if hub.sha256 and stamp.get("sha256") != hub.sha256:
        return None
    return target


def remove(hub: HubFile) -> bool:
    """Delete `hub`'s file, stamp and any part; whether there was anything to delete."""
    target = target_of(hub)
    found = False
    for path in (target, _stamp(target), _part(target), _part_info(target)):
        try:
            path.unlink()
            found = True
        except FileNotFoundError:
            pass
    for folder in (target.parent, target.parent.parent):  # empty revision and repo folders
        try:
            folder.rmdir()
        except OSError:
            break
    return found


def available_memory_mb() -> int | None:
    """Memory this machine can give a new process now (Linux: MemAvailable), else None."""
    try:
        text = MEMINFO.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key == "MemAvailable":
            try:
                return int(value.split()[0]) // 1024
            except (IndexError, ValueError):
                return None
    return None


def check_memory(hub: HubFile, size: int | None = None) -> None:
    """Refuse, in one line, a model that will not fit this machine's free memory."""
    free = available_memory_mb()
    need = hub.memory_mb(size)
    if free is not None and need > free:
        raise PullError(
            f"{hub.label} needs about {need} MB of memory and this machine has {free} MB "
            "free: choose a smaller model (run_game.py models list)"
        )


def _part(target: Path) -> Path:
    return target.with_name(target.name + ".part")


def _part_info(target: Path) -> Path:
    return target.with_name(target.name + ".part.json")


def _human(size: float) -> str:
    return f"{size / _MB:.0f} MB" if size < 1024 * _MB else f"{size / 1024 / _MB:.2f} GB"


class _Bar:
    """The progress object huggingface_hub's download updates: reports, and cancels."""

    def __init__(
        self, report: ProgressCallback, cancel: threading.Event | None, label: str, **kw: Any
    ) -> None:
        self.report = report
        self.cancel = cancel
        self.label = label
        self.done = int(kw.get("initial") or 0)
        self.total = int(kw.get("total") or 0)

    def __enter__(self) -> _Bar:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def update(self, n: int = 1) -> None:
        """`n` more bytes arrived (negative when a server ignored a Range)."""
        self.done += n
        if self.cancel is not None and self.cancel.is_set():
            raise PullCancelled(
                f"the download of {self.label} was cancelled; pull it again to resume"
            )
        total = max(self.total, 1)
        self.report(
            min(self.done / total, 1.0) * 0.95,
            f"downloading {self.label}: {_human(self.done)} of {_human(self.total)}",
        )

    def close(self) -> None:
        """Nothing to close."""


def _bar_class(report: ProgressCallback, cancel: threading.Event | None, label: str) -> type:
    class Bar(_Bar):
        def __init__(self, **kw: Any) -> None:
            super().__init__(report, cancel, label, **kw)

    return Bar


def _hub_error(hub: HubFile, exc: BaseException) -> PullError:
    """One line for what the hub (or the way to it) said."""
    from huggingface_hub import errors

    where = endpoint()
    page = f"{where}/{hub.repo}"
    if isinstance(exc, errors.GatedRepoError):
        return PullError(
            f"{hub.label} is gated: accept its licence at {page} while logged in, then set "
            "HF_TOKEN to a token of that account"
        )
    if isinstance(exc, errors.RepositoryNotFoundError):
        return PullError(
            f"{hub.repo} is not on the hub at {where} (or it is private: set HF_TOKEN)"
        )
    if isinstance(exc, errors.RevisionNotFoundError):
        return PullError(f"{hub.repo} has no revision {hub.revision} at {where}")
    if isinstance(exc, errors.EntryNotFoundError):
        return PullError(f"{hub.repo} has no file {hub.file} at revision {hub.revision}")
    if isinstance(exc, errors.HfHubHTTPError):
        status = exc.response.status_code if exc.response is not None else "?"
        return PullError(
            f"the hub at {where} answered {status} for {hub.label}; pull again later to resume"
        )
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return PullError(
            f"the disk filled up while downloading {hub.label}; free some space and pull again "
            "to resume"
        )
    return PullError(
        f"cannot reach the hub at {where} ({type(exc).__name__}); check the connection and "
        "pull again to resume (HF_HUB_OFFLINE=1 uses only downloaded models)"
    )


def pull(
    hub: HubFile,
    on_progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> Path:
    """Download `hub` (resuming a part), verify it and return its path; PullError if not."""
    report = on_progress or (lambda fraction, message: None)
    ready = downloaded(hub)
    if ready is not None:
        report(1.0, f"{hub.label} is downloaded")
        return ready
    if offline():
        raise PullError(
            f"{hub.label} is not downloaded and HF_HUB_OFFLINE is set: unset it to download"
        )
    if hub.size:
        check_memory(hub)  # before a byte is asked of the network
    # Its retries' warnings are not for players: each failure is one line of ours.
    logging.getLogger("huggingface_hub").setLevel(logging.ERROR)
    from huggingface_hub import constants, get_hf_file_metadata, hf_hub_url
    from huggingface_hub.file_download import http_get
    from huggingface_hub.utils import build_hf_headers

    constants.HF_HUB_DISABLE_TELEMETRY = True  # a game asks the hub for the file, nothing else
    where = endpoint()
    url = hf_hub_url(hub.repo, hub.file, revision=hub.revision, endpoint=where)
    report(0.0, f"asking {where} for {hub.label}")
    try:
        meta = get_hf_file_metadata(url, token=_token(), endpoint=where)
    except Exception as exc:  # the hub's and the transport's errors, each as one line
        raise _hub_error(hub, exc) from exc
    size = meta.size
    if size is None:
        raise PullError(f"the hub at {where} did not say the size of {hub.label}")
    if hub.size and size != hub.size:
        raise PullError(
            f"the hub serves {size} bytes for {hub.label} but the catalogue pins {hub.size}: "
            "a different file; update the game"
        )
    check_memory(hub, size)
    etag = (meta.etag or "").strip('"')
    expected = hub.sha256 or (etag if len(etag) == 64 else None)
    target = target_of(hub)
    part, info = _part(target), _part_info(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        have = _resumable(part, info, meta.commit_hash, expected, size)
        free = shutil.disk_usage(target.parent).free
    except OSError as exc:
        raise PullError(f"cannot write to {target.parent}: {os_reason(exc)}") from exc
    if free < size - have + DISK_MARGIN:
        raise PullError(
            f"{hub.label} needs {_human(size - have)} more disk space and {target.parent} has "
            f"{_human(free)} free; free some space and pull again"
        )
    if have:
        report(have / size * 0.95, f"resuming {hub.label} at {_human(have)} of {_human(size)}")
    else:
        report(0.0, f"downloading {hub.label}: {_human(size)}")
    try:
        write_atomic(info, json.dumps({"commit": meta.commit_hash, "sha256": expected}).encode())
        with part.open("ab") as out:
            http_get(
                meta.location or url,
                out,
                resume_size=have,
                headers=build_hf_headers(token=_token()),
                expected_size=size,
                displayed_filename=hub.file,
                tqdm_class=_bar_class(report, cancel, hub.label),
            )
    except PullError:
        raise
    except Exception as exc:
        raise _hub_error(hub, exc) from exc
    return _finish(hub, target, size, expected, report)


def _resumable(part: Path, info: Path, commit: str | None, sha: str | None, size: int) -> int:
    """Bytes of a part the pull may resume from (0: start over, the part removed)."""
    try:
        have = part.stat().st_size
    except OSError:
        have = 0
    was = read_json_object(info) or {}
    same = was.get("commit") == commit and was.get("sha256") == sha
    if have and same and have <= size:
        return have
    part.unlink(missing_ok=True)
    return 0


def _finish(
    hub: HubFile, target: Path, size: int, expected: str | None, report: ProgressCallback
) -> Path:
    """Check the whole part (size, sha256), move it into place and stamp it."""
    part = _part(target)
    got_size = part.stat().st_size
    got = file_sha256(part, lambda f, m: report(0.95 + 0.05 * f, f"verifying {hub.label}"))
    if got_size != size or (expected is not None and got != expected):
        part.unlink(missing_ok=True)
        _part_info(target).unlink(missing_ok=True)
        raise PullError(
            f"the download of {hub.label} is damaged ({got_size} bytes, sha256 {got[:12]}..., "
            f"expected {size} bytes, {(expected or '?')[:12]}...); it was deleted: pull again"
        )
    os.replace(part, target)
    _part_info(target).unlink(missing_ok=True)
    st = target.stat()
    stamp = {"sha256": got, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "repo": hub.repo}
    write_atomic(_stamp(target), json.dumps(stamp).encode("utf-8"))
    report(1.0, f"{hub.label} downloaded and verified")
    return target


def resolve_model_path(
    model: Path | str | None, on_progress: ProgressCallback | None = None
) -> Path:
    """The GGUF to load: a path (it must exist); a catalogue name or an hf:// address
    (downloaded on first use, with progress); else the bundled model."""
    if model is not None:
        hub = on_hub(model)
        if hub is not None:
            return pull(hub, on_progress)
        path = Path(model).expanduser()
        if not path.is_file():
            raise LocalModelError(f"local model file not found: {path}")
        return path
    return ensure_default_model(on_progress=on_progress)
