"""The local model's line protocol, both ways: a line nested past any message (100,000 deep,
or just past the bound) is not a message, never a RecursionError; a `run` line the worker
cannot read still ends with a `parse` error, so the game never waits for it. No model is
needed: the worker refuses a first line that is no start line before it loads one."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.agent.providers.base import ProviderError, ProviderRequest, TextDelta
from game.agent.providers.local.protocol import (
    End,
    Event,
    Failed,
    Run,
    encode,
    from_worker,
    to_worker,
)
from game.agent.providers.local.worker.__main__ import _refuse
from game.limits import MAX_JSON_DEPTH

ROOT = Path(__file__).resolve().parents[2]
DEEP = "[" * 100_000 + "]" * 100_000
JUST_TOO_DEEP = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)

TO_WORKER = {
    "deep run": '{"op":"run","id":7,"x":' + DEEP + "}",
    "run just too deep": '{"op":"run","id":7,"x":' + JUST_TOO_DEEP + "}",
    "deep request": '{"op":"run","id":7,"request":{"system":' + DEEP + "}}",
    "deep cancel": '{"op":"cancel","id":7,"x":' + DEEP + "}",
    "bare depth": DEEP,
}
FROM_WORKER = {
    "deep event": '{"type":"event","id":7,"event":{"type":"text_delta","text":"hi","x":'
    + DEEP
    + "}}",
    "event just too deep": '{"type":"event","id":7,"x":' + JUST_TOO_DEEP + "}",
    "deep end": '{"type":"end","id":7,"stats":' + DEEP + "}",
    "bare depth": DEEP,
}


@pytest.mark.parametrize("line", sorted(TO_WORKER))
def test_a_deep_line_to_the_worker_is_no_message(line: str) -> None:
    assert to_worker(TO_WORKER[line].encode() + b"\n") is None


@pytest.mark.parametrize("line", sorted(FROM_WORKER))
def test_a_deep_line_from_the_worker_is_no_message(line: str) -> None:
    assert from_worker(FROM_WORKER[line].encode() + b"\n") is None


def test_lines_within_the_bound_still_read() -> None:
    run = Run(id=3, key="mira", request=ProviderRequest(system="You are Mira.", messages=[]))
    assert to_worker(encode(run)) == run
    event = Event(id=3, event=TextDelta(text="Fresh bread!"))
    assert from_worker(encode(event)) == event


@pytest.mark.parametrize("line", ["deep run", "run just too deep", "deep request"])
def test_a_run_line_too_deep_to_read_still_ends_with_a_parse_error(line: str) -> None:
    sent: list[object] = []
    _refuse(TO_WORKER[line].encode() + b"\n", sent.append)
    error, end = sent
    assert isinstance(error, Event) and error.id == 7
    assert isinstance(error.event, ProviderError) and error.event.kind == "parse"
    assert isinstance(end, End) and end.id == 7


@pytest.mark.parametrize("line", ["deep cancel", "bare depth"])
def test_other_unreadable_lines_are_passed_over(line: str) -> None:
    sent: list[object] = []
    _refuse(TO_WORKER[line].encode() + b"\n", sent.append)
    assert sent == []


@pytest.mark.model  # the llama.cpp worker's own process
def test_the_worker_refuses_a_deep_first_line_in_one_message() -> None:
    start = '{"op":"start","config":' + DEEP + "}\n"
    out = subprocess.run(
        [sys.executable, "-m", "game.agent.providers.local.worker"],
        input=start.encode(), capture_output=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 2, out.stderr.decode()[-2000:]
    assert b"Traceback" not in out.stderr and b"RecursionError" not in out.stderr
    [line] = out.stdout.splitlines()
    assert from_worker(line) == Failed(message="the worker got no start line")
    assert json.loads(line)["type"] == "failed"


@pytest.mark.model  # the llama.cpp worker's own process
@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no hang-up signal on this system")
def test_the_worker_outlives_a_closed_terminal_for_the_game_to_stop_it() -> None:
    # A closed terminal hangs up the whole process group: the worker must stay for the game
    # to finish its turn and save, then end it by closing its stdin.
    worker = subprocess.Popen(
        [sys.executable, "-m", "game.agent.providers.local.worker"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert worker.stderr is not None and worker.stdin is not None
    try:
        # Its handlers are set before it reads its first line: wait until it says it reads.
        _wait_for_handlers(worker.pid)
        worker.send_signal(signal.SIGHUP)
        worker.send_signal(signal.SIGINT)
        worker.stdin.close()  # the game's own way to end it
        assert worker.wait(timeout=60) == 2  # ended by its stdin, not by the signals
    finally:
        worker.kill()
        worker.wait()


def _wait_for_handlers(pid: int) -> None:
    """Until the process ignores SIGINT and SIGHUP (its status lists the ignored signals).
    Both: a parent may pass one on already ignored (nohup does SIGHUP's)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        pytest.skip("no /proc here to see a process's signal handlers")
    bits = (1 << (signal.SIGHUP - 1)) | (1 << (signal.SIGINT - 1))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in status.read_text().splitlines():
            if line.startswith("SigIgn:") and int(line.split()[1], 16) & bits == bits:
                return
    raise AssertionError("the worker never set its signal handlers")


@pytest.mark.parametrize(
    ("line", "lead", "said"),
    [
        # cut off by its length: back to the last whole sentence
        (
            "The bridge? A sturdy bridge. It has stood for years and the",
            "",
            "The bridge? A sturdy bridge.",
        ),
        # never into the lead: a lead with nothing whole after it is the line
        ("The plaza. The cobbled heart, notice board by a", "The plaza.", "The plaza."),
        ("Brenna? The smith. She works the", "Brenna? The smith.", "Brenna? The smith."),
        # a line that ends a sentence, or has no whole one, is as it is
        ("Fine weather today!", "", "Fine weather today!"),
        ("well I was just going to the", "", "well I was just going to the"),
        ('He said "go home." ', "", 'He said "go home."'),
    ],
)
def test_a_line_cut_off_ends_at_its_last_whole_sentence(line: str, lead: str, said: str) -> None:
    from game.agent.providers.local.worker.player import whole_sentences

    assert whole_sentences(line, lead) == said


@pytest.mark.parametrize(
    ("line", "shrugs"),
    [
        ("I don't know.", True),
        ("Hmm, I can't remember", True),
        ("Not sure, really.", True),
        ("I'm not certain it", True),
        ("I know the way.", False),
        ("I don't mind at all.", False),
        ("Sure, I know him.", False),
    ],
)
def test_a_line_that_opens_with_a_shrug_is_known(line: str, shrugs: bool) -> None:
    from game.agent.providers.local.worker import player

    assert player.shrugs(line) is shrugs
