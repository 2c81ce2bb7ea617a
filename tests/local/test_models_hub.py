"""Pulling models from a loopback Hugging Face Hub: progress, resume, damage, refusals, offline.

Every test talks to `LoopbackHub` on 127.0.0.1 through huggingface_hub itself, with the
user cache in a temporary directory; nothing reaches the real network.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game.agent.providers.local import catalogue
from game.agent.providers.local import hub as hub_module
from game.agent.providers.local.catalogue import HubFile, parse_hf
from game.agent.providers.local.hub import (
    PullCancelled,
    PullError,
    downloaded,
    pull,
    remove,
    resolve_model_path,
)
from game.agent.providers.local.pick import Speed, SpeedBook, pick_downloaded
from game.cli import main
from game.config import Settings
from game.providers import select_provider

from .hub_server import LoopbackHub

REPO = "village/tiny-GGUF"
FILE = "tiny-q4.gguf"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
SIZE = 23 * 1024 * 1024 + 123  # 24 of the pull's 1 MB chunks
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def content() -> bytes:
    """A file's bytes: the GGUF magic, then noise (a pull never loads what it downloads)."""
    return b"GGUF" + os.urandom(SIZE - 4)


@pytest.fixture
def hub(content: bytes, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[LoopbackHub]:
    """A loopback hub serving the file; the user cache and config in this test's tmp dir."""
    with LoopbackHub() as server:
        server.add(REPO, FILE, content, commit=COMMIT)
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        monkeypatch.setenv("NPC_VILLAGE_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.setenv("NPC_VILLAGE_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        monkeypatch.delenv("HF_TOKEN", raising=False)
        meminfo = tmp_path / "meminfo"
        meminfo.write_text("MemTotal: 16000000 kB\nMemAvailable: 8000000 kB\n")
        monkeypatch.setattr(hub_module, "MEMINFO", meminfo)
        yield server


def tiny(content: bytes, **changes: Any) -> HubFile:
    """The served file as a catalogue entry pins it."""
    pinned = {
        "repo": REPO,
        "file": FILE,
        "revision": COMMIT,
        "size": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
        "name": "tiny",
    }
    return HubFile(**{**pinned, **changes})


def gets(server: LoopbackHub) -> list[tuple[str, str, str | None]]:
    return [r for r in server.requests if r[0] == "GET"]


def test_a_pull_downloads_verifies_and_then_serves_from_the_cache(
    hub: LoopbackHub, content: bytes
) -> None:
    model = tiny(content)
    seen: list[tuple[float, str]] = []
    path = pull(model, lambda f, m: seen.append((f, m)))
    assert path.read_bytes() == content
    assert downloaded(model) == path
    assert path.is_relative_to(Path(os.environ["NPC_VILLAGE_CACHE_DIR"]))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert sum("downloading tiny" in m for _, m in seen) >= 3  # one report per chunk
    assert any("verifying" in m for _, m in seen)
    before = len(hub.requests)
    assert pull(model) == path
    assert len(hub.requests) == before  # downloaded: nothing asked of the hub


def test_an_hf_address_is_pulled_and_checked_against_the_hubs_own_hash(
    hub: LoopbackHub, content: bytes
) -> None:
    address = f"hf://{REPO}/{FILE}"
    model = parse_hf(address)
    assert (model.repo, model.file, model.revision) == (REPO, FILE, "main")
    path = resolve_model_path(address)
    assert path.read_bytes() == content
    hub.corrupt(REPO, FILE)
    remove(model)
    with pytest.raises(PullError, match="damaged"):
        resolve_model_path(address)


def test_bad_hf_addresses_are_one_line_errors() -> None:
    for bad in ("hf://owner/file.gguf", "hf://o/r/model.bin", "hf://o/r/x.gguf@bad rev"):
        with pytest.raises(ValueError, match=r"hf://|gguf|revision"):
            parse_hf(bad)


def test_a_cancelled_pull_keeps_nothing_loadable_and_the_next_one_resumes(
    hub: LoopbackHub, content: bytes
) -> None:
    model = tiny(content)
    cancel = threading.Event()

    def report(fraction: float, message: str) -> None:
        if "MB of" in message and not message.startswith("downloading tiny: 0 MB"):
            cancel.set()  # after the first chunk arrived

    with pytest.raises(PullCancelled, match="pull it again to resume"):
        pull(model, report, cancel)
    target = hub_module.target_of(model)
    part = target.with_name(target.name + ".part")
    assert not target.exists() and downloaded(model) is None
    kept = part.stat().st_size
    assert 0 < kept < len(content)
    seen: list[str] = []
    path = pull(model, lambda f, m: seen.append(m))
    assert path.read_bytes() == content
    assert any(m.startswith("resuming tiny at") for m in seen), seen[:3]
    assert gets(hub)[-1][2] == f"bytes={kept}-"  # only the rest was asked for


def test_a_lost_connection_fails_in_one_line_and_the_next_pull_resumes(
    hub: LoopbackHub, content: bytes
) -> None:
    model = tiny(content)
    hub.cut_next_get(15 * 1024 * 1024, then_refuse=True)
    with pytest.raises(PullError) as failed:
        pull(model)
    assert "\n" not in str(failed.value) and "pull again" in str(failed.value)
    assert downloaded(model) is None
    hub.heal()
    seen: list[str] = []
    assert pull(model, lambda f, m: seen.append(m)).read_bytes() == content
    assert any(m.startswith("resuming tiny at 15 MB") for m in seen), seen[:3]  # all it got


def test_a_file_of_another_size_is_refused_before_the_download(
    hub: LoopbackHub, content: bytes
) -> None:
    with pytest.raises(PullError, match="catalogue pins"):
        pull(tiny(content, size=len(content) + 1))
    assert gets(hub) == []


def test_a_damaged_download_is_deleted_never_kept(hub: LoopbackHub, content: bytes) -> None:
    model = tiny(content)
    hub.corrupt(REPO, FILE)
    with pytest.raises(PullError, match=r"damaged.*deleted"):
        pull(model)
    target = hub_module.target_of(model)
    assert not target.exists() and not target.with_name(target.name + ".part").exists()
    assert downloaded(model) is None


def test_what_the_hub_refuses_is_one_line_each(hub: LoopbackHub, content: bytes) -> None:
    cases = {
        "has no file": tiny(content, file="missing.gguf"),
        "is not on the hub": tiny(content, repo="nobody/nothing"),
        "has no revision": tiny(content, revision="f" * 40),
    }
    for words, model in cases.items():
        with pytest.raises(PullError, match=words) as failed:
            pull(model)
        assert "\n" not in str(failed.value)
    hub.gate(REPO)
    with pytest.raises(PullError, match=r"gated: accept its licence at .* set HF_TOKEN"):
        pull(tiny(content))
    assert gets(hub) == []


def test_no_disk_space_is_refused_before_the_download(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    usage = shutil.disk_usage("/")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage._replace(free=1024 * 1024))
    with pytest.raises(PullError, match="more disk space"):
        pull(tiny(content))
    assert gets(hub) == []


def test_a_model_too_big_for_free_memory_is_refused_before_asking_the_hub(
    hub: LoopbackHub, content: bytes, tmp_path: Path
) -> None:
    hub_module.MEMINFO.write_text("MemTotal: 2000000 kB\nMemAvailable: 300000 kB\n")
    with pytest.raises(PullError, match=r"needs about .* MB of memory .* 292 MB free"):
        pull(tiny(content, size=2_000_000_000))
    assert hub.requests == []


def test_offline_a_downloaded_model_is_used_and_others_are_one_line(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tiny(content)
    path = pull(model)
    address = f"hf://{REPO}/{FILE}@{COMMIT}"
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    before = len(hub.requests)
    assert pull(model) == path
    assert resolve_model_path(address) == path  # same repo, file and revision: same file
    assert len(hub.requests) == before
    with pytest.raises(PullError, match="not downloaded and HF_HUB_OFFLINE is set"):
        pull(tiny(content, revision="main"))


def test_models_pull_use_and_rm_from_the_command_line(
    hub: LoopbackHub, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    address = f"hf://{REPO}/{FILE}"
    assert main(["models", "pull", address]) == 0
    out, err = capsys.readouterr()
    assert "[##############################] 100%" in err  # the bar, drawn on stderr
    assert "downloading" in err and f"{FILE}" in out
    assert main(["models", "use", address]) == 0
    config = Path(os.environ["NPC_VILLAGE_CONFIG_DIR"]) / "config.toml"
    text = config.read_text()
    assert 'provider = "local"' in text and f'model = "{address}"' in text
    assert main(["models", "rm", address]) == 0
    out, _ = capsys.readouterr()
    assert "removed" in out and "auto" in out
    assert 'model = "' not in config.read_text()
    assert downloaded(parse_hf(address)) is None
    assert main(["models", "pull", "no-such-model"]) == 2
    assert "no model 'no-such-model' in the catalogue" in capsys.readouterr().err


def test_auto_takes_the_strongest_downloaded_model_that_passes_here(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    strong, small = tiny(content), tiny(content, name="small", revision="main", sha256=None)
    monkeypatch.setattr(catalogue, "CATALOGUE", (strong, small))
    assert pick_downloaded().reason == "bundled model (no catalogue model downloaded)"
    book = SpeedBook()
    paths = {m.name: pull(m) for m in (strong, small)}
    assert "tiny: not measured" in pick_downloaded(book).reason
    book.put(paths["tiny"], Speed(first_letter_s=0.8, tokens_s=30.0, turns=3))
    book.put(paths["small"], Speed(first_letter_s=0.3, tokens_s=25.0, turns=3))
    pick = pick_downloaded(book)
    assert pick.model == small, pick.reason  # the stronger one is too slow to start here
    assert "tiny: first letter 0.80 s > 0.5 s" not in pick.reason  # the pick says its own
    assert pick.reason.startswith("downloaded model small: first letter 0.30 s, 25.0 tokens/s")
    book.put(paths["tiny"], Speed(first_letter_s=0.4, tokens_s=6.0, turns=3))
    assert pick_downloaded(book).model == small
    book.put(paths["tiny"], Speed(first_letter_s=0.4, tokens_s=12.0, turns=3))
    assert pick_downloaded(book).model == strong
    hub_module.MEMINFO.write_text("MemAvailable: 400000 kB\n")  # 390 MB: neither fits
    pick = pick_downloaded(book)
    assert pick.model is None
    assert pick.reason == (
        "bundled model (tiny: needs 478 MB, 390 MB free; small: needs 478 MB, 390 MB free)"
    )
    hub_module.MEMINFO.write_text("MemAvailable: 8000000 kB\n")
    chosen: list[str | None] = []

    def make_local(settings: Settings) -> Any:
        chosen.append(settings.model)
        from game.npc.scripted.persona import PersonaProvider

        return PersonaProvider()

    selection = select_provider(
        Settings(),
        None,  # type: ignore[arg-type]  # no remote provider is built
        local_available=lambda: True,
        make_local=make_local,
        make_scripted=lambda s: None,  # type: ignore[arg-type,return-value]
    )
    assert chosen == ["tiny"]
    assert selection.reason.startswith(
        "auto: no API key; local model installed; downloaded model tiny: first letter 0.40 s"
    )


# --- hostile hubs: a redirect off the hub, a body past its size, a page that is no file ---

TOKEN = "hf_secretsecretsecretsecretsecret0123"


@pytest.mark.parametrize("head", [True, False], ids=["head-and-get", "get-only"])
def test_a_redirect_to_another_host_gets_the_file_but_never_the_token(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch, head: bool
) -> None:
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    with LoopbackHub() as other:  # another port: another origin
        other.add(REPO, FILE, content, commit=COMMIT)
        hub.redirect(REPO, FILE, other.url, head=head)
        path = pull(tiny(content))
    assert path.read_bytes() == content and downloaded(tiny(content)) == path
    assert hub.authorizations and set(hub.authorizations) == {f"Bearer {TOKEN}"}  # the hub's
    assert [r[0] for r in other.requests] == ["GET"]
    assert other.authorizations == [None]


@pytest.mark.parametrize(
    ("content_length", "words"),
    [
        (False, "sent more than the 1048576 bytes the hub declared for small.gguf"),
        (True, "sends another length of small.gguf than the 1048576 bytes the hub declared"),
    ],
    ids=["no-length", "a-larger-length"],
)
def test_a_body_past_its_declared_size_is_cut_off_and_deleted(
    hub: LoopbackHub, content: bytes, content_length: bool, words: str
) -> None:
    small = content[: 1024 * 1024]  # declares 1 MiB
    hub.add(REPO, "small.gguf", small, commit=COMMIT)
    hub.overflow(REPO, "small.gguf", content_length=content_length)
    model = tiny(small, file="small.gguf", name="", sha256=None, size=None)
    seen: list[str] = []
    with pytest.raises(PullError) as failed:
        pull(model, lambda f, m: seen.append(m))
    assert words in str(failed.value) and "\n" not in str(failed.value)
    target = hub_module.target_of(model)
    assert not target.exists() and not target.with_name(target.name + ".part").exists()
    assert not any(m.startswith("downloading small.gguf: 2 MB") for m in seen), seen
    hub.close()  # joins the handler: what it sent is final
    assert hub.overflow_sent < 64 * 1024 * 1024  # the client hung up; the server stopped


def test_an_html_page_with_no_etag_is_refused_before_the_download(hub: LoopbackHub) -> None:
    hub.html_page(REPO, "model.gguf")
    address = f"hf://{REPO}/model.gguf"
    with pytest.raises(PullError, match=r"gives no sha256 \(ETag\) for model.gguf") as failed:
        resolve_model_path(address)
    assert "\n" not in str(failed.value)
    assert gets(hub) == []  # not a byte asked for
    target = hub_module.target_of(parse_hf(address))
    assert not target.parent.exists() or not any(target.parent.iterdir())
    assert downloaded(parse_hf(address)) is None


def test_a_vouched_file_without_the_gguf_magic_is_never_stamped(hub: LoopbackHub) -> None:
    page = b"<!doctype html><title>not a model</title>" * 100
    hub.add(REPO, "page.gguf", page, commit=COMMIT)
    address = f"hf://{REPO}/page.gguf"
    with pytest.raises(PullError, match=r"page.gguf is not a GGUF model file .*deleted"):
        resolve_model_path(address)
    target = hub_module.target_of(parse_hf(address))
    assert not target.exists() and not target.with_name(target.name + ".part").exists()
    assert downloaded(parse_hf(address)) is None


def test_a_hash_the_hub_gives_that_differs_from_the_catalogue_is_refused(
    hub: LoopbackHub, content: bytes
) -> None:
    with pytest.raises(PullError, match="catalogue pins"):
        pull(tiny(content, sha256="0" * 64))
    assert gets(hub) == []


def test_a_file_over_the_download_cap_is_refused_and_the_cap_can_be_set(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert hub_module.download_cap() == 16 * 1024**3
    model = parse_hf(f"hf://{REPO}/{FILE}")
    monkeypatch.setenv(hub_module.CAP_ENV, "0.01")  # 10 MB; the file is 23 MB
    over = rf"over the 10 MB a download may be: set {hub_module.CAP_ENV}"
    with pytest.raises(PullError, match=over):
        pull(model)
    assert gets(hub) == []
    for bad in ("lots", "0", "-1", "nan", "inf"):
        monkeypatch.setenv(hub_module.CAP_ENV, bad)
        with pytest.raises(PullError, match=rf"{hub_module.CAP_ENV}='{bad}' is not a number of GB"):
            pull(model)
    monkeypatch.setenv(hub_module.CAP_ENV, "1")
    assert pull(model).read_bytes() == content


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("http://[::1", "is not a URL"),
        ("ftp://mirror.example", "does not start with http:// or https://"),
        ("http://mirror.example:99999", "port that is not a number"),
        ("https://", "names no host"),
        ("https://mirror.example\r\nX: 1", "space or a control character"),
    ],
)
def test_a_bad_hf_endpoint_is_one_line(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch, value: str, problem: str
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", value)
    with pytest.raises(PullError) as failed:
        pull(tiny(content))
    message = str(failed.value)
    assert message.startswith("HF_ENDPOINT ") and problem in message
    assert "\n" not in message and "\r" not in message and "unset it" in message
    assert hub.requests == []


def test_a_bad_hf_endpoint_from_the_command_line_is_one_line_exit_2(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "HF_ENDPOINT": "http://[::1",
        "NPC_VILLAGE_CACHE_DIR": str(tmp_path / "cache"),
        "NPC_VILLAGE_CONFIG_DIR": str(tmp_path / "config"),
    }
    env.pop("HF_HUB_OFFLINE", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "models", "pull", f"hf://{REPO}/{FILE}"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1] == (
        "error: HF_ENDPOINT 'http://[::1' is not a URL: set it to a hub's address like "
        "https://huggingface.co, or unset it"
    ), done.stderr
    assert "Traceback" not in done.stderr


def test_a_token_is_never_sent_in_clear_text_off_this_machine(
    hub: LoopbackHub, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setenv("HF_ENDPOINT", "http://mirror.example")
    with pytest.raises(PullError, match=r"refusing to send HF_TOKEN in clear text to "
                       r"http://mirror.example \(HF_ENDPOINT\): use an https address"):  # fmt: skip
        pull(tiny(content))
    monkeypatch.setenv("HF_ENDPOINT", hub.url.replace("127.0.0.1", "localhost"))
    assert pull(tiny(content)).read_bytes() == content  # this machine's own hub: allowed
    assert set(hub.authorizations) == {f"Bearer {TOKEN}"}
