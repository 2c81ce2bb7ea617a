"""The time of day: a game day of a set number of real minutes, starting at 8 am.

`DayClock` counts game minutes since 8:00 am of day 1 (clock 0 is 8 am, so a slot saved
before there was a time of day loads in the morning). The light of an hour is pure data
here (`darkness`, `lamps_lit`); the window turns it into a tint.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DAY_MINUTES",
    "DEFAULT_DAY_S",
    "START_HOUR",
    "DayClock",
    "clock_text",
    "darkness",
    "lamps_lit",
    "part_of_day",
]

DAY_MINUTES = 24 * 60
START_HOUR = 8  # clock 0
DEFAULT_DAY_S = 24 * 60.0  # a game day lasts 24 real minutes: a game hour a real minute
MIN_DAY_S = 60.0
MAX_DAY_S = 7 * 24 * 3600.0
LAMPS_ON = 19.5  # lamps are lit from half past seven in the evening...
LAMPS_OFF = 6.5  # ...to half past six in the morning


@dataclass
class DayClock:
    """Game minutes since 8:00 am of day 1, moved on by real seconds at `day_s` a day."""

    day_s: float = DEFAULT_DAY_S
    minutes: float = 0.0

    def advance(self, dt: float) -> None:
        """Move on by `dt` real seconds."""
        self.minutes += dt * DAY_MINUTES / self.day_s

    @property
    def hour(self) -> float:
        """The hour of the day, 0.0 (midnight) to 24.0."""
        return ((START_HOUR * 60 + self.minutes) % DAY_MINUTES) / 60.0

    @property
    def day(self) -> int:
        """The day, 1 for the first."""
        return 1 + int((START_HOUR * 60 + self.minutes) // DAY_MINUTES)

    def set_hour(self, hour: float) -> None:
        """Move the clock forward to the next time it shows `hour` (tests, benchmarks)."""
        self.minutes += ((hour - self.hour) % 24.0) * 60.0

    def text(self) -> str:
        """What the HUD shows: "Day 2, 9:30 pm"."""
        return f"Day {self.day}, {clock_text(self.hour)}"


def clock_text(hour: float) -> str:
    """An hour as people say it: 0.0 -> "12:00 am", 13.5 -> "1:30 pm"."""
    total = round(hour * 60) % DAY_MINUTES
    h, m = divmod(total, 60)
    half = "am" if h < 12 else "pm"
    return f"{(h - 1) % 12 + 1}:{m:02d} {half}"


def part_of_day(hour: float) -> str:
    """ "night", "dawn", "morning", "midday", "afternoon", "dusk" or "evening"."""
    if hour < 5 or hour >= 22:
        return "night"
    if hour < 7:
        return "dawn"
    if hour < 11.5:
        return "morning"
    if hour < 14:
        return "midday"
    if hour < 18:
        return "afternoon"
    if hour < 20:
        return "dusk"
    return "evening"


DUSK_HOUR = 18.0  # the dark starts to fall
NIGHT_HOUR = 22.0  # full dark
DAWN_HOUR = 5.0  # the dark starts to lift
DAY_HOUR = 7.5  # full day


def darkness(hour: float) -> float:
    """How dark the map is, 0.0 (day) to 1.0 (deep night): it falls from 6 pm to 10 pm
    and lifts from 5 am to 7:30 am."""
    if DAY_HOUR <= hour < DUSK_HOUR:
        return 0.0
    if DUSK_HOUR <= hour < NIGHT_HOUR:
        return (hour - DUSK_HOUR) / (NIGHT_HOUR - DUSK_HOUR)
    if DAWN_HOUR <= hour < DAY_HOUR:
        return 1 - (hour - DAWN_HOUR) / (DAY_HOUR - DAWN_HOUR)
    return 1.0


def hour_words(hour: float, o_clock: bool = False) -> str:
    """An hour as a villager says it, to the nearest half: "six", "half past nine"; with
    `o_clock`, a whole hour as "six o'clock" (said alone, a bare "six" reads oddly)."""
    halves = round(hour * 2) % 48
    h, half = divmod(halves, 2)
    name = _HOUR_NAMES[h % 12]
    if half:
        return f"half past {name}"
    return f"{name} o'clock" if o_clock else name


_HOUR_NAMES = "twelve one two three four five six seven eight nine ten eleven".split()


def lamps_lit(hour: float) -> bool:
    """Whether the lamps burn at this hour."""
    return hour >= LAMPS_ON or hour < LAMPS_OFF
