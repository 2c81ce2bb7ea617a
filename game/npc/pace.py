"""How often NPCs may think, paced to the model and to the frame: the idle ticks'
settings and pace (`IdleSettings`, `IdlePace`, `npcs_kept_thinking`), how long two NPCs
talk before they cool down (`ChatterSettings`), and whether a frame has time to spare for
the agents' costly work (`SpareTime`). `Brain` reads them on the game thread.
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass

__all__ = [
    "MAX_PUT_OFF",
    "ChatterSettings",
    "IdlePace",
    "IdleSettings",
    "SpareTime",
    "npcs_kept_thinking",
]

MAX_PUT_OFF = 3  # frames in a row a busy frame may put off the agents' costly work


@dataclass
class IdleSettings:
    """Idle ticks: how often an NPC thinks on its own (game seconds); off switches them."""

    enabled: bool = True
    min_s: float = 8.0
    max_s: float = 20.0
    offscreen_factor: float = 2.5
    first_min_s: float = 4.0  # the first tick comes soon, staggered over one period
    per_frame: int = 2  # at most this many idle turns start in one frame; the rest wait
    # Pacing to what the model serves. An idle turn starts only while fewer turns than
    # `max_in_flight` are under way (a single local model: 1), else it comes a little
    # later; and periods stretch so that idle turns take at most `model_share` of the
    # model's time, judged by how long turns have been taking. The player's turns (and
    # answers to being spoken to) are never held back.
    max_in_flight: int = 64
    model_share: float = 0.5
    retry_s: float = 1.5  # a tick held back comes again after about this long


def npcs_kept_thinking(turn_s: float, settings: IdleSettings, period_s: float | None = None) -> int:
    """How many NPCs a model whose turns take `turn_s` keeps thinking once every `period_s`
    each (default: the mean of the idle period) within `model_share` of its time: what
    `IdlePace.period` allows, read the other way round."""
    period = period_s if period_s is not None else (settings.min_s + settings.max_s) / 2
    return int(period * settings.model_share * settings.max_in_flight / max(turn_s, 1e-9))


class IdlePace:
    """How often idle NPCs may think, from how long their turns have been taking."""

    def __init__(self, settings: IdleSettings, window: int = 16) -> None:
        self.settings = settings
        self.turn_s: deque[float] = deque(maxlen=window)  # newest turns, any kind

    def note(self, seconds: float) -> None:
        """A turn ended after `seconds` of game time, waiting for the model included."""
        self.turn_s.append(seconds)

    def may_start(self, in_flight: int) -> bool:
        """Whether an idle turn may start with `in_flight` turns under way."""
        return in_flight < self.settings.max_in_flight

    def period(self, base_s: float, npcs: int) -> float:
        """The idle period: `base_s`, or longer when turns have been slow, so that all
        `npcs` thinking idly keep the model at most `model_share` busy."""
        if not self.turn_s:
            return base_s
        typical = statistics.median(self.turn_s)
        lanes = max(1, min(self.settings.max_in_flight, npcs))
        return max(base_s, npcs * typical / (self.settings.model_share * lanes))


@dataclass
class ChatterSettings:
    """How long two NPCs may talk to each other before they cool down."""

    max_lines: int = 4
    cooldown_s: float = 30.0
    gap_s: float = 20.0  # a line later than this after the previous one starts a new exchange


class SpareTime:
    """Whether a frame has time to spare for a costly piece of agent work.

    A frame that took longer than usual so far (the usual: a running mean) puts the work
    off to a lighter one, but never more than `MAX_PUT_OFF` frames running: heavy frames
    get no heavier, and agent work waits a few frames at most.
    """

    def __init__(self) -> None:
        self.typical_s: float | None = None
        self.put_off = 0  # frames in a row too busy

    def ready(self, elapsed_s: float) -> bool:
        """Note this frame's time so far; True when the work may go ahead in it."""
        typical = self.typical_s
        self.typical_s = elapsed_s if typical is None else typical + (elapsed_s - typical) / 32
        if typical is not None and elapsed_s > typical and self.put_off < MAX_PUT_OFF:
            self.put_off += 1
            return False
        self.put_off = 0
        return True
