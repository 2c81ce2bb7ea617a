"""Downloading models from the Hugging Face Hub into the user cache: checked, resumable,
verified, and never half-loaded.

`pull(file)` asks the hub for the file's size and hash (huggingface_hub's own metadata
call, so `HF_ENDPOINT`, `HF_TOKEN` and the hub's error codes work as everywhere else),
and refuses with one line, before a byte of it is asked for, a file that will not fit
this machine's free memory or disk, that is over the download cap (`MAX_DOWNLOAD_BYTES`,
16 GB, unless `NPC_VILLAGE_MAX_DOWNLOAD_GB` sets another), or that nobody vouches for: its
sha256 must be pinned by the catalogue or, for an `hf://` address, given by the hub (its
ETag). The bytes come by the game's own GET (`local.fetch`: auth only to the hub's own
origin, never a byte past the declared size) into `<name>.part` beside the final place.
An interrupted pull (Ctrl-C, a lost connection, Cancel) keeps the part, and the next pull
resumes from it (with a `Range` request) and says so; a part from another revision starts
over. The finished file is checked (size, sha256, the GGUF magic) before it is renamed
into place with a stamp; a model is only ever loaded from a stamped file, so nothing
half-downloaded, corrupt or foreign is ever loaded.

A bad `HF_ENDPOINT` is one line (checked before huggingface_hub, which parses it on
import, is loaded), and so is a token that would go in clear text to an endpoint off this
machine. With `HF_HUB_OFFLINE` set, nothing is asked of the network: a downloaded model is
used, anything else is one line saying so. Every failure is a `PullError` (`local.fetch`)
line; a cancelled pull is a `PullCancelled`.
"""

from __future__ import annotations

import errno
import json
import logging
import math
import os
import re
import shutil
import threading
from pathlib import Path

from game.agent.providers.local.catalogue import HubFile
from game.agent.providers.local.fetch import (
    Download,
    PullCancelled,
    PullError,
    human_size,
    origin,
)
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
from game.limits import DOWNLOAD_DISK_MARGIN, GB, MAX_DOWNLOAD_BYTES
from game.urls import in_clear_text, shown_url, url_problem

__all__ = [
    "CAP_ENV",
    "MEMINFO",
    "PullCancelled",
    "PullError",
    "available_memory_mb",
    "download_cap",
    "downloaded",
    "endpoint",
    "offline",
    "pull",
    "remove",
    "resolve_model_path",
    "target_of",
]

MEMINFO = Path("/proc/meminfo")
CAP_ENV = "NPC_VILLAGE_MAX_DOWNLOAD_GB"
GGUF_MAGIC = b"GGUF"
_STAMP = ".verified.json"
_SHA256 = re.compile(r"[0-9a-f]{64}")


def endpoint() -> str:
    """The hub's address: `HF_ENDPOINT`, else huggingface.co; PullError for a bad one."""
    where = os.environ.get("HF_ENDPOINT", "").rstrip("/") or "https://huggingface.co"
    problem = url_problem(where)
    if problem is not None:
        raise PullError(
            f"HF_ENDPOINT {shown_url(where)!r} {problem}: set it to a hub's address like "
            "https://huggingface.co, or unset it"
        )
    return where


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


def _hub_error(hub: HubFile, where: str, exc: BaseException) -> PullError:
    """One line for what the hub (or the way to it) said when asked for the file's size."""
    from huggingface_hub import errors

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
    return PullError(
        f"cannot reach the hub at {where} ({type(exc).__name__}); check the connection and "
        "pull again to resume (HF_HUB_OFFLINE=1 uses only downloaded models)"
    )


def download_cap() -> int:
    """The largest file a pull takes, in bytes: `NPC_VILLAGE_MAX_DOWNLOAD_GB`, else 16 GB."""
    text = os.environ.get(CAP_ENV, "").strip()
    if not text:
        return MAX_DOWNLOAD_BYTES
    try:
        gb = float(text)
    except ValueError:
        gb = math.nan
    if not 0 < gb < 1e6:  # NaN fails too
        raise PullError(
            f"{CAP_ENV}={text!r} is not a number of GB: set it like 40, or unset it for "
            f"{MAX_DOWNLOAD_BYTES // GB} GB"
        )
    return int(gb * GB)


def _vouched(hub: HubFile, where: str, etag: str | None) -> str:
    """The sha256 the file must have: the catalogue's, else the hub's own (its ETag)."""
    sha = (etag or "").lower()
    hub_sha = sha if _SHA256.fullmatch(sha) else None
    if hub.sha256 and hub_sha and hub_sha != hub.sha256:
        raise PullError(
            f"the hub serves {hub.label} with sha256 {hub_sha[:12]}... but the catalogue pins "
            f"{hub.sha256[:12]}...: a different file; update the game"
        )
    expected = hub.sha256 or hub_sha
    if expected is None:
        raise PullError(
            f"the hub at {where} gives no sha256 (ETag) for {hub.label}, so it cannot be "
            "verified: it is not a model file on a hub; check the address and HF_ENDPOINT"
        )
    return expected


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
    where = endpoint()  # before huggingface_hub is imported: it parses HF_ENDPOINT then
    cap = download_cap()
    if hub.size:
        _check_cap(hub, hub.size, cap)
        check_memory(hub)  # before a byte is asked of the network
    # Its retries' warnings are not for players: each failure is one line of ours.
    logging.getLogger("huggingface_hub").setLevel(logging.ERROR)
    from huggingface_hub import constants, get_hf_file_metadata, hf_hub_url
    from huggingface_hub.utils import build_hf_headers

    constants.HF_HUB_DISABLE_TELEMETRY = True  # a game asks the hub for the file, nothing else
    headers = build_hf_headers(token=_token())  # HF_TOKEN, else a stored login, if any
    if "authorization" in headers and in_clear_text(where):
        raise PullError(
            f"refusing to send HF_TOKEN in clear text to {shown_url(where)} (HF_ENDPOINT): use "
            "an https address, or unset HF_TOKEN (and log out) for a public model"
        )
    url = hf_hub_url(hub.repo, hub.file, revision=hub.revision, endpoint=where)
    report(0.0, f"asking {where} for {hub.label}")
    try:
        meta = get_hf_file_metadata(url, token=_token(), endpoint=where)
    except Exception as exc:  # the hub's and the transport's errors, each as one line
        raise _hub_error(hub, where, exc) from exc
    size = meta.size
    if size is None:
        raise PullError(f"the hub at {where} did not say the size of {hub.label}")
    if hub.size and size != hub.size:
        raise PullError(
            f"the hub serves {size} bytes for {hub.label} but the catalogue pins {hub.size}: "
            "a different file; update the game"
        )
    _check_cap(hub, size, cap)
    check_memory(hub, size)
    expected = _vouched(hub, where, meta.etag)
    target = target_of(hub)
    part, info = _part(target), _part_info(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        have = _resumable(part, info, meta.commit_hash, expected, size)
        free = shutil.disk_usage(target.parent).free
    except OSError as exc:
        raise PullError(f"cannot write to {target.parent}: {os_reason(exc)}") from exc
    if free < size - have + DOWNLOAD_DISK_MARGIN:
        raise PullError(
            f"{hub.label} needs {human_size(size - have)} more disk space and {target.parent} has "
            f"{human_size(free)} free; free some space and pull again"
        )
    if have:
        done = f"{human_size(have)} of {human_size(size)}"
        report(have / size * 0.95, f"resuming {hub.label} at {done}")
    else:
        report(0.0, f"downloading {hub.label}: {human_size(size)}")
    job = Download(hub.label, size, headers, origin(url), report, cancel)
    try:
        write_atomic(info, json.dumps({"commit": meta.commit_hash, "sha256": expected}).encode())
        job.run(url, meta.location or url, part, have)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise PullError(
                f"the disk filled up while downloading {hub.label}; free some space and pull "
                "again to resume"
            ) from exc
        raise PullError(f"cannot write to {target.parent}: {os_reason(exc)}") from exc
    return _finish(hub, target, size, expected, report)


def _check_cap(hub: HubFile, size: int, cap: int) -> None:
    if size > cap:
        raise PullError(
            f"{hub.label} is {human_size(size)}, over the {human_size(cap)} a download may be: set "
            f"{CAP_ENV} to a larger number of GB if you mean it"
        )


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


def _finish(hub: HubFile, target: Path, size: int, expected: str, report: ProgressCallback) -> Path:
    """Check the whole part (size, sha256, the GGUF magic), move it into place, stamp it."""
    part = _part(target)
    got_size = part.stat().st_size
    got = file_sha256(part, lambda f, m: report(0.95 + 0.05 * f, f"verifying {hub.label}"))
    with part.open("rb") as f:
        head = f.read(len(GGUF_MAGIC))
    problem = None
    if got_size != size or got != expected:
        problem = (
            f"the download of {hub.label} is damaged ({got_size} bytes, sha256 {got[:12]}..., "
            f"expected {size} bytes, {expected[:12]}...)"
        )
    elif head != GGUF_MAGIC:
        problem = f"{hub.label} is not a GGUF model file (it starts with {head!r})"
    if problem is not None:
        part.unlink(missing_ok=True)
        _part_info(target).unlink(missing_ok=True)
        raise PullError(f"{problem}; it was deleted: pull again, or check the address")
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
