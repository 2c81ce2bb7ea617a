"""A native crash of the local model costs one turn and a restart, never the game.

The worker's fault hook (`NPC_VILLAGE_LLAMA_FAULT`, read only by the worker process)
makes it die by a signal on load, at its first decode, or right after a reply's first
event, on every rung of the settings ladder or on one (`decode@default` is a CPU whose
AMX code faults). A test that needs a rung to work starts from `top_rung`, the first one
that runs on this CPU: CI's advertises AMX its kernel refuses, so there `default` dies of a
real SIGILL and the ladder starts at `safe`. Everything else is real: the bundled model, the
worker process, the probe cache on disk, the village, the command line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from game.agent.providers.base import Done, ProviderError, ToolCallStart
from game.agent.providers.fallback import FallbackProvider
from game.agent.providers.local.client import job as local_job
from game.agent.providers.local.client import ladder
from game.agent.providers.local.client.ladder import FIX_BUILD
from game.agent.providers.local.client.probe import ProbeCache, probe_key
from game.config import Settings
from game.npc.scripted.persona import PersonaProvider
from game.village import Village, local_provider

from .conftest import FAULT, npc_request, remembered, rung_below, skill_specs
from .test_local_llama import collect

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "maps" / "tiny.tmx"


async def test_the_probe_steps_past_a_build_that_faults_and_remembers(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FAULT, "decode@default")  # a CPU that advertises AMX it cannot run
    cache = tmp_path / "probe.json"
    p = local_provider(model_path, probe_cache=cache)
    try:
        assert await p.load() is None
        assert p.choice is not None and p.choice.settings == "safe"
        assert "default crashed (SIGSEGV) during the first decode" in p.choice.reason
        assert p.notice is None and p.crash_line() is None  # the probe's business, not a player's
        events, stats = await collect(p, npc_request("What is good today?"))
        assert isinstance(events[-1], Done) and stats.settings == "safe"
    finally:
        await p.aclose()
    again = local_provider(model_path, probe_cache=cache)
    try:
        assert await again.load() is None
        # Read back, not probed: a probe would have started (and crashed) a default worker.
        assert not again.probed_now and again.crashes == []
        report = again.settings_report() or ""
        assert report.startswith("safe (") and "default crashed (SIGSEGV)" in report
    finally:
        await again.aclose()


async def test_when_both_rungs_work_the_probe_times_them_alike_and_keeps_one(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top_rung: str
) -> None:
    monkeypatch.delenv(FAULT, raising=False)  # CI also runs the suite with a fault set
    # The ladder from the first rung this CPU runs: two rungs that work, as on most machines.
    top = [r.name for r in ladder.LADDER].index(top_rung)
    monkeypatch.setattr(ladder, "LADDER", ladder.LADDER[top:])
    first, second = ladder.LADDER[0].name, ladder.LADDER[1].name
    cache = tmp_path / "probe.json"
    p = local_provider(model_path, probe_cache=cache)
    try:
        assert await p.load() is None
        choice = p.choice
        assert choice is not None and set(choice.tried) == {first, second}
        assert all("tok/s prompt" in what for what in choice.tried.values())
        assert (choice.settings, choice.reason) in {
            (first, "the fastest setting works"),
            (second, f"faster than {first} in the probe"),
        }
        events, stats = await collect(p, npc_request("What is good today?"))
        assert isinstance(events[-1], Done) and stats.settings == choice.settings
    finally:
        await p.aclose()
    assert ProbeCache(cache).get(probe_key(model_path)) == choice


@pytest.mark.parametrize("how", ["SIGSEGV", "SIGILL", "SIGBUS", "SIGKILL"])
async def test_a_crash_mid_reply_ends_the_turn_and_the_worker_restarts(
    how: str, model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top_rung: str
) -> None:
    monkeypatch.setenv(FAULT, f"stream:{how}@{top_rung}")
    cache = remembered(tmp_path / "probe.json", model_path, top_rung)
    lower = rung_below(top_rung)
    p = local_provider(model_path, probe_cache=cache)
    try:
        events, stats = await collect(
            p, npc_request("Tell me about your bread.", skill_specs("say"))
        )
        assert isinstance(events[0], ToolCallStart)
        last = events[-1]
        assert isinstance(last, ProviderError) and last.kind == "crash", events
        assert how in last.message and "\n" not in last.message
        assert stats.outcome == "error: crash"
        notice = p.notice or ""
        assert f"crashed ({how})" in notice and f"restarting with {lower} settings" in notice
        events, stats = await collect(p, npc_request("And what else?"))
        assert isinstance(events[-1], Done) and stats.settings == lower
    finally:
        await p.aclose()
    kept = ProbeCache(cache).get(probe_key(model_path))
    assert kept is not None
    # A fault of the build's code is remembered; an OOM kill says nothing about the build.
    assert kept.settings == (top_rung if how == "SIGKILL" else lower)


async def test_a_worker_that_hangs_after_a_cancel_is_killed_and_replaced(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top_rung: str
) -> None:
    monkeypatch.setenv(FAULT, f"stream:HANG@{top_rung}")  # stuck in native code, deaf to cancel
    monkeypatch.setattr(local_job, "CANCEL_GRACE_S", 0.5)
    probe = remembered(tmp_path / "p.json", model_path, top_rung)
    p = local_provider(model_path, probe_cache=probe)
    try:
        stream = p.stream(npc_request("Tell me a story."))
        first = await stream.__anext__()
        assert isinstance(first, ToolCallStart)
        await stream.aclose()  # the watchdog's turn: the brain gave up on this reply
        stats = await stream.wait_finished()
        assert stats is not None and stats.outcome == "error: crash"
        assert [(c.how, c.settings) for c in p.crashes] == [("hung, killed", top_rung)]
        events, stats = await collect(p, npc_request("Are you there?"))
        assert isinstance(events[-1], Done) and stats.settings == rung_below(top_rung)
    finally:
        await p.aclose()


async def test_a_crash_before_any_event_is_answered_by_the_scripted_brain(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FAULT, "decode@default")  # the cache says default; the CPU says no
    local = local_provider(model_path, probe_cache=remembered(tmp_path / "p.json", model_path))
    provider = FallbackProvider(local, PersonaProvider())
    try:
        events = [e async for e in provider.stream(npc_request("What is good today?"))]
        assert isinstance(events[-1], Done)  # the persona brain answered the same request
        assert not [e for e in events if isinstance(e, ProviderError)]
        assert "crashed (SIGSEGV)" in (provider.notice or "")
        assert [c.phase for c in local.crashes] == ["a reply"]
    finally:
        await provider.aclose()


async def test_three_crashes_in_ten_minutes_leave_the_session_on_the_fallback(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top_rung: str
) -> None:
    monkeypatch.setenv(FAULT, "stream")  # every rung dies mid-reply
    probe = remembered(tmp_path / "p.json", model_path, top_rung)
    local = local_provider(model_path, probe_cache=probe)
    provider = FallbackProvider(local, PersonaProvider())
    try:
        for line in ("What is new?", "Is it raining?", "Anyone there?"):
            events = [e async for e in provider.stream(npc_request(line))]
            assert isinstance(events[-1], ProviderError) and events[-1].kind == "crash"
        assert [c.settings for c in local.crashes] == [rung_below(top_rung, n) for n in range(3)]
        assert local.gave_up
        assert FIX_BUILD in (provider.notice or "")
        start = time.perf_counter()
        events = [e async for e in provider.stream(npc_request("Still there?"))]
        assert isinstance(events[-1], Done)  # the scripted brain, at once
        assert time.perf_counter() - start < 1.0
    finally:
        await provider.aclose()


async def test_a_crash_on_load_with_every_setting_gives_up_with_the_fix(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FAULT, "load")
    cache = tmp_path / "p.json"
    p = local_provider(model_path, probe_cache=cache)
    try:
        error = await p.load()
        assert error is not None and error.kind == "crash"
        assert FIX_BUILD in error.message and "\n" not in error.message
        assert [(c.settings, c.phase) for c in p.crashes] == [
            ("default", "load"),
            ("safe", "load"),
            ("minimal", "load"),
        ]
        assert p.gave_up and FIX_BUILD in (p.notice or "")
        events, _ = await collect(p, npc_request("Hi"))
        assert len(events) == 1 and isinstance(events[0], ProviderError)
        assert events[0].kind == "crash"
    finally:
        await p.aclose()
    assert not cache.exists()  # nothing is remembered of a build that never worked


def play(village: Village, until: Any, timeout: float = 180.0) -> None:
    """Run frames as the window does (step, brain, spare time) until `until()` holds (a
    worker restarted on the lowest rung of a CPU that lacks the top one answers slowly)."""
    deadline = time.monotonic() + timeout
    last = time.monotonic()
    while not until():
        assert last < deadline, "the village never got there"
        time.sleep(1 / 60)  # frame pacing: the agent thread and the worker run meanwhile
        now = time.monotonic()
        dt, last = min(now - last, 0.1), now  # game time never outruns the wall clock
        village.world.step(dt)
        village.brain.update(dt)
        village.brain.spare_time(0.0)


def test_the_village_survives_a_crash_mid_reply(
    model_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top_rung: str
) -> None:
    monkeypatch.setenv(FAULT, f"stream@{top_rung}")
    probe = remembered(tmp_path / "p.json", model_path, top_rung)
    local = local_provider(model_path, probe_cache=probe)
    saves = tmp_path / "saves"
    village = Village.open(
        TINY,
        slot="crash",
        saves_dir=saves,
        provider=FallbackProvider(local, PersonaProvider()),
        settings=Settings(provider="scripted", idle_chatter=False),
    )
    try:
        tobin = village.world.npcs["tobin"]
        village.brain.player_talks("tobin", "Good morning, Tobin!")
        play(village, lambda: village.agents.fallbacks >= 1 and tobin.bubble is not None)
        assert [c.settings for c in local.crashes] == [top_rung]
        assert "crashed (SIGSEGV)" in (village.notice() or "")
        play(village, lambda: any(s.speaker_id == "tobin" for s in village.world.speech_log))
        served = len(local.stats)
        village.brain.player_talks("tobin", "Is the bread ready?")
        play(village, lambda: any(s.outcome == "tool_use" for s in list(local.stats)[served:]))
        answered = [s for s in list(local.stats)[served:] if s.outcome == "tool_use"]
        assert answered[0].settings == rung_below(top_rung)  # the restarted worker
    finally:
        village.close()
    for log in saves.rglob("*.jsonl"):
        for line in log.read_text(encoding="utf-8").splitlines():
            json.loads(line)  # no torn line anywhere


def run_game(*args: str, fault: str | None, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NPC_VILLAGE_CACHE_DIR": str(cache)}
    env.pop(FAULT, None)
    if fault:
        env[FAULT] = fault
    return subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), *args],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


def test_doctor_says_which_settings_and_why(model_cache: Path) -> None:
    out = run_game("doctor", "--provider", "local", fault="decode@default", cache=model_cache)
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("llama.cpp settings:"))
    assert line.startswith("llama.cpp settings: safe (plain CPU buffers")
    assert "default crashed (SIGSEGV) during the first decode in the probe" in line
    assert "tokens per second:" in out.stdout
    idle = next(x for x in out.stdout.splitlines() if x.startswith("idle NPCs:"))
    kept = re.search(r"keeps (\d+) NPCs thinking at the default pace", idle)
    assert kept is not None and int(kept.group(1)) >= 1, idle
    assert "Traceback" not in out.stderr


def test_doctor_reports_a_crash_in_one_line(
    model_cache: Path, model_path: Path, top_rung: str
) -> None:
    remembered(model_cache / "llama_probe.json", model_path, top_rung)
    out = run_game("doctor", "--provider", "local", fault="stream", cache=model_cache)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    errors = [x for x in out.stderr.splitlines() if x.startswith("error:")]
    assert errors == [
        "error: crash: the local model crashed once (SIGSEGV during a reply); "
        f"it restarts with {rung_below(top_rung)} settings"
    ]


def test_doctor_on_a_build_that_always_crashes_names_the_fix(model_cache: Path) -> None:
    out = run_game("doctor", "--provider", "local", fault="load", cache=model_cache)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert out.stderr.splitlines()[-1].startswith("error: crash: the local model crashed 3 times")
    assert FIX_BUILD in out.stderr.splitlines()[-1]


def test_chat_reports_a_crash_and_keeps_what_was_saved(model_cache: Path, tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    first = run_game(
        "chat", "tobin", "Good morning!", "--map", str(TINY), "--provider", "scripted",
        "--saves-dir", str(saves), "--slot", "kept", fault=None, cache=model_cache,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    log = saves / "kept" / "npcs" / "tobin" / "session" / "events.jsonl"
    before = log.read_text(encoding="utf-8")
    crashed = run_game(
        "chat", "tobin", "Is the bread ready?", "--map", str(TINY), "--provider", "local",
        "--saves-dir", str(saves), "--slot", "kept", fault="stream", cache=model_cache,
    )  # fmt: skip
    assert crashed.returncode == 1
    assert "Traceback" not in crashed.stderr
    errors = [x for x in crashed.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1 and "the local model crashed" in errors[0], crashed.stderr
    after = log.read_text(encoding="utf-8")
    assert after.startswith(before)  # the first exchange is all still there
    for line in after.splitlines():
        json.loads(line)
