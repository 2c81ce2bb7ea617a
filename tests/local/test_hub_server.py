"""The loopback hub answers huggingface_hub 2.4 as the Hub does; make_chat_gguf sets a template.

The hub tests drive huggingface_hub's own `get_hf_file_metadata` and `http_get`, not game code.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import io
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Without the local extra this file skips, rather than stop the collection.
pytest.importorskip(
    "huggingface_hub", reason="huggingface_hub is not installed: pip install -e '.[local,dev]'"
)
from huggingface_hub import constants, errors
from huggingface_hub.file_download import get_hf_file_metadata, hf_hub_url, http_get

from .chat_model import TEMPLATE_KEY, make_chat_gguf
from .hub_server import DEFAULT_COMMIT, LoopbackHub

REPO, FILE, COMMIT = "village/tiny", "weights/model.gguf", "ab" * 20
DATA = bytes(range(256)) * 4096  # 1 MiB


@pytest.fixture
def hub() -> Iterator[LoopbackHub]:
    with LoopbackHub() as hub:
        hub.add(REPO, FILE, DATA, commit=COMMIT)
        yield hub


def url(hub: LoopbackHub, repo: str = REPO, file: str = FILE, revision: str = "main") -> str:
    return hf_hub_url(repo, file, revision=revision, endpoint=hub.url)


def download(hub: LoopbackHub, **kw: Any) -> bytes:
    buf = io.BytesIO()
    http_get(url(hub), buf, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("revision", ["main", COMMIT])
def test_metadata_names_the_commit_size_and_sha256(hub: LoopbackHub, revision: str) -> None:
    meta = get_hf_file_metadata(url(hub, revision=revision), endpoint=hub.url)
    assert (meta.commit_hash, meta.size) == (COMMIT, len(DATA))
    assert meta.etag == hashlib.sha256(DATA).hexdigest()
    assert hub.requests == [("HEAD", f"/{REPO}/resolve/{revision}/{FILE}", None)]


def test_http_get_downloads_the_whole_file(hub: LoopbackHub) -> None:
    assert download(hub) == DATA


def test_resumed_download_sends_a_range_and_completes(hub: LoopbackHub) -> None:
    buf = io.BytesIO(DATA[:1000])
    buf.seek(1000)
    http_get(url(hub), buf, resume_size=1000, expected_size=len(DATA))
    assert buf.getvalue() == DATA
    assert hub.requests[-1][2] == "bytes=1000-"


def test_a_file_on_disk_streams_and_answers_a_closed_range(
    hub: LoopbackHub, tmp_path: Path
) -> None:
    path = tmp_path / "big.bin"
    path.write_bytes(DATA * 3)
    assert hub.add(REPO, "big.bin", path) == hashlib.sha256(DATA * 3).hexdigest()
    conn = http.client.HTTPConnection("127.0.0.1", int(hub.url.rsplit(":", 1)[1]), timeout=10)
    conn.request("GET", f"/{REPO}/resolve/main/big.bin", headers={"Range": "bytes=10-19"})
    answer = conn.getresponse()
    assert (answer.status, answer.read()) == (206, (DATA * 3)[10:20])
    assert answer.headers["Content-Range"] == f"bytes 10-19/{len(DATA) * 3}"
    conn.close()
    assert download(hub) == DATA  # an earlier add of the same repo keeps serving


def test_a_cut_then_refusal_makes_http_get_raise_until_healed(hub: LoopbackHub) -> None:
    hub.cut_next_get(5000)
    with pytest.raises(errors.HfHubHTTPError) as caught:  # one retry (1 s), answered 503
        download(hub)
    assert caught.value.response.status_code == 503
    assert [m for m, _, _ in hub.requests] == ["GET", "GET"]
    hub.heal()
    assert download(hub) == DATA


def test_a_cut_past_the_clients_chunk_resumes_with_a_range(hub: LoopbackHub) -> None:
    # http_get buffers DOWNLOAD_CHUNK_SIZE (10 MiB) before writing: an earlier cut restarts at 0.
    big = DATA * 11
    hub.add(REPO, FILE, big, commit=COMMIT)
    hub.cut_next_get(constants.DOWNLOAD_CHUNK_SIZE + 4096, then_refuse=False)
    assert download(hub) == big
    assert [r for _, _, r in hub.requests] == [None, f"bytes={constants.DOWNLOAD_CHUNK_SIZE}-"]


def test_corrupt_serves_the_same_size_with_other_bytes(hub: LoopbackHub) -> None:
    hub.corrupt(REPO, FILE)
    got = download(hub, expected_size=len(DATA))
    assert len(got) == len(DATA) and got[:-1] == DATA[:-1] and got[-1] != DATA[-1]
    meta = get_hf_file_metadata(url(hub), endpoint=hub.url)
    assert meta.etag == hashlib.sha256(DATA).hexdigest()


@pytest.mark.parametrize(
    ("repo", "file", "revision", "error"),
    [
        ("village/other", FILE, "main", errors.RepositoryNotFoundError),
        (REPO, "nope.gguf", "main", errors.RemoteEntryNotFoundError),
        (REPO, FILE, "v2", errors.RevisionNotFoundError),
        (REPO, FILE, DEFAULT_COMMIT, errors.RevisionNotFoundError),
    ],
)
def test_errors_map_to_huggingface_hub_exceptions(
    hub: LoopbackHub, repo: str, file: str, revision: str, error: type[Exception]
) -> None:
    with pytest.raises(error) as caught:
        get_hf_file_metadata(url(hub, repo, file, revision), endpoint=hub.url)
    assert type(caught.value) is error
    with pytest.raises(error):
        http_get(url(hub, repo, file, revision), io.BytesIO())


def test_gated_repo(hub: LoopbackHub) -> None:
    hub.gate(REPO)
    with pytest.raises(errors.GatedRepoError):
        get_hf_file_metadata(url(hub), endpoint=hub.url)
    with pytest.raises(errors.GatedRepoError):
        download(hub)


def test_close_is_quick_with_an_idle_connection_open() -> None:
    telemetry_off = constants.HF_HUB_DISABLE_TELEMETRY
    hub = LoopbackHub()
    assert constants.HF_HUB_DISABLE_TELEMETRY  # no agent lookup at huggingface.co meanwhile
    port = int(hub.url.rsplit(":", 1)[1])
    idle = socket.create_connection(("127.0.0.1", port), timeout=5)  # a keep-alive left open
    start = time.monotonic()
    hub.close()
    hub.close()  # twice is fine
    assert time.monotonic() - start < 2
    assert constants.HF_HUB_DISABLE_TELEMETRY == telemetry_off
    with contextlib.suppress(ConnectionResetError):  # a reset or an end of stream: both end it
        assert idle.recv(1) == b""
    idle.close()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5)


# --- make_chat_gguf, on the bundled model ---------------------------------------------------

TEMPLATE = "{% for m in messages %}<{{ m['role'] }}>{{ m['content'] }}\n{% endfor %}ü"


@pytest.fixture(scope="module")
def chat_gguf(model_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_chat_gguf(model_path, tmp_path_factory.mktemp("chat") / "chat.gguf", TEMPLATE)


LLAMA_CHECK = """
import json, sys
import numpy as np
from llama_cpp import Llama, llama_cpp as C

real = C.llama_model_default_params
def safe():  # plain CPU buffers: llama.cpp's own ones crash on some CPUs
    p = real()
    p.use_extra_bufts = False
    return p
C.llama_model_default_params = safe
out = []
for path in sys.argv[1:]:
    llm = Llama(model_path=path, n_ctx=256, n_threads=1, logits_all=True, verbose=False)
    tokens = llm.tokenize(b"Good morning, Mara! Fresh bread?", add_bos=True)
    llm.eval(tokens)
    logits = np.asarray(llm.scores[len(tokens) - 1])
    out.append({"metadata": llm.metadata, "tokens": tokens, "top": logits.argsort()[-5:].tolist(),
                "sum": float(logits.sum())})
    llm.close()
print(json.dumps(out))
"""


def test_chat_gguf_loads_in_llama_cpp_like_its_source(
    chat_gguf: Path, model_path: Path, tmp_path: Path
) -> None:
    again = make_chat_gguf(chat_gguf, tmp_path / "again.gguf", "{{ messages }}")  # replaces
    run = subprocess.run(
        [sys.executable, "-c", LLAMA_CHECK, str(model_path), str(chat_gguf), str(again)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    source, chat, replaced = json.loads(run.stdout)
    assert chat["metadata"].pop(TEMPLATE_KEY) == TEMPLATE
    assert replaced["metadata"].pop(TEMPLATE_KEY) == "{{ messages }}"
    source["metadata"].pop(TEMPLATE_KEY, None)
    assert source == chat == replaced
