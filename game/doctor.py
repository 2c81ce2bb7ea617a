"""`run_game.py doctor`: which provider the NPCs would use and why, one tiny request timed
(the model loaded first, for a local one), and for a model that serves one request at a
time, how many NPCs it keeps thinking on this machine.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.agent.providers.base import Provider
    from game.config import Settings
    from game.village import Providers

__all__ = ["doctor"]

SLOWEST_PACE_S = 120.0  # one thought every two minutes: the least that still reads as alive
DOCTOR_NPCS = 4  # NPCs whose idle turns `doctor` times


async def _idle_capacity(args: argparse.Namespace, model: Provider) -> str:
    """How many NPCs a serial model keeps thinking here: idle turns of a few of the map's
    NPCs are timed on it (a first round warms each NPC's prompt; the second is measured)."""
    import statistics
    import tempfile

    from game.assets import load_game_map
    from game.harness import FAST_PACE, Talk
    from game.npc.pace import IdleSettings, npcs_kept_thinking
    from game.world.world import World

    world = World(load_game_map(args.map))
    stats = model.stats
    with tempfile.TemporaryDirectory(prefix="doctor-") as saves:
        talk = Talk(world, Path(saves), slot="doctor", provider=model, pace=FAST_PACE)
        seconds: list[float] = []
        for round_ in range(2):
            for npc_id in sorted(world.npcs)[:DOCTOR_NPCS]:
                before = len(stats) if stats is not None else 0
                report = await talk.idle(npc_id)
                if round_ and stats is not None:  # the model's own time, not the world's
                    seconds.append(sum(s.total_s for s in list(stats)[before:]))
                elif round_:
                    seconds.append(report.wall_s)
        await talk.aclose()
    turn_s = statistics.median(seconds)
    pace = IdleSettings(max_in_flight=1)
    default = npcs_kept_thinking(turn_s, pace)
    slowest = npcs_kept_thinking(turn_s, pace, SLOWEST_PACE_S)
    return (
        f"idle NPCs: a thought takes the model {turn_s:.2f} s here, so it keeps {default} "
        f"NPCs thinking at the default pace (a thought every {pace.min_s:.0f}-{pace.max_s:.0f}"
        f" s each, in half its time) and {slowest} at one thought every "
        f"{SLOWEST_PACE_S / 60:.0f} minutes each"
    )


async def doctor(
    args: argparse.Namespace, settings: Settings, progress: Callable[[float, str], None]
) -> int:
    """Print the chosen provider and why, then time one tiny request (exit code)."""
    from game.village import open_providers

    providers = await open_providers(settings, progress)
    try:
        code = await _examine(args, providers)
    finally:  # also when a signal cancels it: the local model's process is stopped first
        await providers.aclose()
    notice = providers.provider.notice
    if code == 0 and notice:
        print(f"note: {notice}")
    return code


async def _examine(args: argparse.Namespace, providers: Providers) -> int:
    """The doctor's report on open providers: load the model, time a request."""
    import time

    from game.agent.facts import NpcFacts, TriggerFacts
    from game.agent.providers.base import (
        Message,
        ProviderError,
        ProviderRequest,
        TextDelta,
        ToolCallArgsDelta,
        Usage,
    )

    print(f"provider: {providers.provider.name} ({providers.provider.model})")
    print(f"why: {providers.reason}")
    primary = providers.primary  # the model itself: the doctor looks past the fallback
    if primary.capabilities.needs_loading:
        start = time.perf_counter()
        failed = await primary.load()
        if isinstance(failed, ProviderError):
            print(f"error: {failed.kind}: {failed.message}", file=sys.stderr)
            return 1
        print(f"model loaded in {time.perf_counter() - start:.2f} s")
        report = primary.settings_report()
        if report is not None:
            print(f"llama.cpp settings: {report}")
    request = ProviderRequest(
        system="You are Ada, a cheerful village baker. Answer in one short sentence.",
        messages=[Message(role="user", content='Player says: """Good morning!"""')],
        max_output_tokens=32,
        npc=NpcFacts(npc_id="doctor", name="Ada", persona="A cheerful baker.", greeting="Morning!"),
        trigger=TriggerFacts(
            kind="player_message", text="Good morning!", source="player", said="Good morning!"
        ),
    )
    start = time.perf_counter()
    first: float | None = None
    tokens = 0
    text = []
    error: ProviderError | None = None
    async for event in primary.stream(request):
        if isinstance(event, TextDelta | ToolCallArgsDelta):
            first = first if first is not None else time.perf_counter() - start
            text.append(event.text if isinstance(event, TextDelta) else event.delta)
        elif isinstance(event, Usage):
            tokens = event.output_tokens
        elif isinstance(event, ProviderError):
            error = event
    total = time.perf_counter() - start
    if error is not None:
        print(f"error: {error.kind}: {error.message}", file=sys.stderr)
        return 1
    print(f"reply: {''.join(text).strip()[:120]}")
    if first is not None:
        print(f"time to first token: {first:.3f} s")
    if tokens and total > (first or 0):
        print(f"tokens per second: {tokens / max(total - (first or 0), 1e-6):.1f}")
    if primary.capabilities.serial:
        print(await _idle_capacity(args, primary))
    return 0
