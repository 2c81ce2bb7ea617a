"""The models a player can download for the NPCs: a curated list, and `hf://` addresses.

Each catalogue entry pins one GGUF file by repository, file name and revision (a commit),
with its size and sha256, so a pull gets exactly the file these figures describe; the
list is ordered by rank, the strongest mind first (`auto` takes the first that passes
this machine's checks). Every entry's licence allows shipping it with a game.

`hf://owner/repo/path/file.gguf` (optionally `@revision` after the file) names any GGUF
on the Hub; such a file is verified against the hub's own size and sha256.

Nothing here touches the network or the disk (`local.hub` does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CATALOGUE", "HF_PREFIX", "HubFile", "find_model", "hub_file", "parse_hf"]

HF_PREFIX = "hf://"
_MB = 1024 * 1024
_HEX40 = re.compile(r"[0-9a-f]{40}")
_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}")


@dataclass(frozen=True)
class HubFile:
    """One GGUF file on the Hub, and what is known of it before it is downloaded."""

    repo: str  # owner/name
    file: str  # path inside the repository
    revision: str = "main"  # a commit (pinned), or a branch
    size: int | None = None  # bytes, when pinned
    sha256: str | None = None  # when pinned; else the hub's own (its LFS ETag) is checked
    name: str = ""  # the catalogue name; "" for an hf:// address
    title: str = ""
    params: str = ""  # "1.7B"
    licence: str = ""
    good_for: str = ""
    kv_mb: int = 0  # the KV cache at the game's context (4096 tokens), from the model's shape

    @property
    def label(self) -> str:
        """How messages name it: the catalogue name, else its file's name."""
        return self.name or self.file.rsplit("/", 1)[-1]

    @property
    def address(self) -> str:
        """Its hf:// address."""
        rev = "" if self.revision == "main" else f"@{self.revision}"
        return f"{HF_PREFIX}{self.repo}/{self.file}{rev}"

    @property
    def pinned(self) -> bool:
        """Whether revision, size and hash are all fixed in advance."""
        return bool(_HEX40.fullmatch(self.revision) and self.size and self.sha256)

    def memory_mb(self, size: int | None = None) -> int:
        """Memory the model's process needs with this file loaded: the weights, the KV
        cache and the worker's own (the bundled 270M model's process peaks at 711 MB with
        265 MB of weights; the rest is the runtime and 256 MB of saved NPC states)."""
        weights = (size or self.size or 0) / _MB
        kv = self.kv_mb or weights * 0.25  # unknown shape: a quarter of the weights
        return int(weights + kv + 450)


def _entry(
    name: str,
    title: str,
    params: str,
    repo: str,
    file: str,
    revision: str,
    size: int,
    sha256: str,
    licence: str,
    good_for: str,
    kv_mb: int,
) -> HubFile:
    return HubFile(
        repo, file, revision, size, sha256, name, title, params, licence, good_for, kv_mb
    )


# Strongest first. Every licence is Apache-2.0. KV sizes: layers x KV heads x head size x
# 2 (K and V) x 2 bytes x 4096 tokens. Revisions, sizes and hashes are the hub's (its
# commit, and the LFS pointer's size and sha256 at that commit).
CATALOGUE: tuple[HubFile, ...] = (
    _entry(
        "qwen3-4b", "Qwen3 4B", "4B", "Qwen/Qwen3-4B-GGUF", "Qwen3-4B-Q4_K_M.gguf",
        "bc640142c66e1fdd12af0bd68f40445458f3869b", 2497280256,
        "7485fe6f11af29433bc51cab58009521f205840f5b4ae3a32fa7f92e8534fdf5",
        "Apache-2.0", "the liveliest NPCs; wants a fast machine", 576,
    ),
    _entry(
        "qwen3-1.7b", "Qwen3 1.7B", "1.7B", "ggml-org/Qwen3-1.7B-GGUF",
        "Qwen3-1.7B-Q4_K_M.gguf", "daeb8e2d528a760970442092f6bf1e55c3b659eb", 1282439264,
        "d2387ca2dbfee2ffabce7120d3770dadca0b293052bc2f0e138fdc940d9bc7b5",
        "Apache-2.0", "sure actions and lively lines for its size", 448,
    ),
    _entry(
        "smollm2-1.7b", "SmolLM2 1.7B Instruct", "1.7B", "bartowski/SmolLM2-1.7B-Instruct-GGUF",
        "SmolLM2-1.7B-Instruct-Q4_K_M.gguf", "1f03464768bfcc0319fc50da8ff5fb20b6417ba2",
        1055609824, "77665ea4815999596525c636fbeb56ba8b080b46ae85efef4f0d986a139834d7",
        "Apache-2.0", "plain, friendly English chat", 768,
    ),
    _entry(
        "qwen2.5-1.5b", "Qwen2.5 1.5B Instruct", "1.5B", "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
        "qwen2.5-1.5b-instruct-q4_k_m.gguf", "91cad51170dc346986eccefdc2dd33a9da36ead9",
        1117320736, "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
        "Apache-2.0", "steady lines on a modest machine; a small KV cache", 112,
    ),
    _entry(
        "qwen3-0.6b", "Qwen3 0.6B", "0.6B", "unsloth/Qwen3-0.6B-GGUF", "Qwen3-0.6B-Q4_K_M.gguf",
        "50968a4468ef4233ed78cd7c3de230dd1d61a56b", 396705472,
        "ac2d97712095a558e31573f62f466a3f9d93990898b0ec79d7c974c1780d524a",
        "Apache-2.0", "small machines: a step up from the bundled model", 448,
    ),
    _entry(
        "qwen2.5-0.5b", "Qwen2.5 0.5B Instruct", "0.5B", "Qwen/Qwen2.5-0.5B-Instruct-GGUF",
        "qwen2.5-0.5b-instruct-q4_k_m.gguf", "9217f5db79a29953eb74d5343926648285ec7e67",
        491400032, "74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db",
        "Apache-2.0", "the smallest chat model; quick on two cores", 48,
    ),
)  # fmt: skip  # a table: each model a block of its pinned fields


def find_model(name: str) -> HubFile | None:
    """The catalogue entry called `name` (case-insensitive), or None."""
    wanted = name.strip().lower()
    return next((m for m in CATALOGUE if m.name == wanted), None)


def parse_hf(address: str) -> HubFile:
    """`hf://owner/repo/file.gguf[@revision]` as a HubFile; ValueError saying what is wrong."""
    if not address.startswith(HF_PREFIX):
        raise ValueError(f"{address!r} is not an hf:// address")
    rest, _, revision = address[len(HF_PREFIX) :].partition("@")
    parts = rest.split("/")
    if len(parts) < 3 or not all(_PART.fullmatch(p) for p in parts):
        raise ValueError(
            f"{address!r} is not hf://owner/repo/file.gguf (letters, digits, '.', '_', '-')"
        )
    if not parts[-1].lower().endswith(".gguf"):
        raise ValueError(f"{address!r} does not name a .gguf file")
    if revision and not _PART.fullmatch(revision):
        raise ValueError(f"{address!r} has a bad revision after '@'")
    return HubFile(repo="/".join(parts[:2]), file="/".join(parts[2:]), revision=revision or "main")


def hub_file(model: str) -> HubFile | None:
    """What `--model` names on the Hub: a catalogue name or an hf:// address; else None
    (a .gguf path, or a remote provider's model). ValueError for a bad hf:// address."""
    if model.startswith(HF_PREFIX):
        return parse_hf(model)
    return find_model(model)
