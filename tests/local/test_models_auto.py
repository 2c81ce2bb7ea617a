"""A catalogue model end to end: pulled from a loopback hub, measured here, listed, picked.

The model is the bundled GGUF with a chat template written in (a chat model as far as the
game can tell), served by `LoopbackHub` and listed as the catalogue's only entry.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.agent.providers.local import catalogue
from game.agent.providers.local import hub as hub_module
from game.agent.providers.local.catalogue import HubFile
from game.agent.providers.local.hub import downloaded
from game.agent.providers.local.pick import SpeedBook, pick_downloaded
from game.cli import main

from .chat_model import make_chat_gguf
from .hub_server import LoopbackHub
from .test_local_llama import GEMMA_TEMPLATE

COMMIT = "fedcba9876543210fedcba9876543210fedcba98"


@pytest.fixture
def listed(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, probe_cache: Path
) -> Iterator[HubFile]:
    """The chat model served by a loopback hub and listed as the catalogue's one entry."""
    gguf = make_chat_gguf(model_path, tmp_path / "served" / "chat.gguf", GEMMA_TEMPLATE)
    data = gguf.read_bytes()
    entry = HubFile(
        repo="village/chat-270m-GGUF",
        file="chat-270m.gguf",
        revision=COMMIT,
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        name="chat-270m",
        params="270M",
        licence="Gemma",
        good_for="tests",
    )
    with LoopbackHub() as hub:
        hub.add(entry.repo, entry.file, gguf, commit=COMMIT)
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.setenv("NPC_VILLAGE_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.setenv("NPC_VILLAGE_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        monkeypatch.setattr(catalogue, "CATALOGUE", (entry,))
        # This session's probe record: the measure's worker skips the probe it already did.
        (tmp_path / "cache").mkdir()
        if probe_cache.exists():
            (tmp_path / "cache" / probe_cache.name).write_bytes(probe_cache.read_bytes())
        yield entry


def test_a_pulled_model_is_measured_listed_and_picked_by_auto(
    listed: HubFile, capsys: pytest.CaptureFixture[str], working_rung: str
) -> None:
    assert main(["models", "pull", "chat-270m"]) == 0
    out, err = capsys.readouterr()
    assert "100%" in err and "downloading chat-270m" in err
    assert "on this machine: first letter" in out and "tokens/s" in out
    path = downloaded(listed)
    assert path is not None
    speed = SpeedBook().get(path)
    assert speed is not None and speed.turns == 3 and speed.tokens_s > 0
    assert main(["models", "list"]) == 0
    table, _ = capsys.readouterr()
    row = next(line for line in table.splitlines() if "chat-270m" in line)
    assert "yes" in row and speed.describe() in row
    pick = pick_downloaded()
    if speed.fails() is None and hub_module.available_memory_mb():
        assert pick.model == listed
        assert pick.reason.startswith(f"downloaded model chat-270m: {speed.describe()}")
    else:
        assert pick.model is None and f"chat-270m: {speed.fails()}" in pick.reason
    assert f"auto takes: {pick.reason}" in table
