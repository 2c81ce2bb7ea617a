"""Day plans: where an NPC is at which hour, read from the map or made from its places.

A map maker writes a plan as the NPC's `plan` property, stops separated by commas or
semicolons, each an hour (24-hour clock, `7` or `7:30`) and where to be from then on:

    plan = "7 bakery, 12 plaza, 14 bakery, 19 home, 22 sleep"

A place is one of the map's named places, `home` or `work` (the NPC's `home` and `work`
properties), or `sleep`: asleep at home. The plan goes round the clock, so before its
first stop the last one holds. An NPC without a plan (or with one that does not read) gets
`default_plan`: asleep at home from 10 pm, at work from 7 am, on the plaza (else the
market) at midday, at work again from 2 pm and home from 7 pm; an NPC with no work place
spends the working hours at home. A plan is never read out of persona prose.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

__all__ = ["MIDDAY_PLACES", "Plan", "Stop", "default_plan", "parse_plan", "plan_example"]

MIDDAY_PLACES = ("plaza", "market", "square")  # where the village meets at midday
MAX_STOPS = 24
_STOP = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s+([A-Za-z0-9_ -]{1,64}?)\s*$")


@dataclass(frozen=True)
class Stop:
    """From `hour` on, the NPC is at `place` (asleep there, if `asleep`)."""

    hour: float
    place: str
    asleep: bool = False

    def text(self) -> str:
        """ "7:00 bakery", "22:00 sleep"."""
        h, m = divmod(round(self.hour * 60), 60)
        return f"{h}:{m:02d} {'sleep' if self.asleep else self.place}"


@dataclass(frozen=True)
class Plan:
    """An NPC's day: its stops in order of the hour."""

    stops: tuple[Stop, ...]

    def stop_at(self, hour: float) -> Stop:
        """The stop in force at `hour` (0-24)."""
        current = self.stops[-1]  # before the first stop, the last one of the day holds
        for stop in self.stops:
            if stop.hour <= hour:
                current = stop
        return current

    def text(self) -> str:
        """The plan as the map maker would write it."""
        return ", ".join(stop.text() for stop in self.stops)

    def places(self) -> list[str]:
        """The places of the plan, each once."""
        return list(dict.fromkeys(stop.place for stop in self.stops))


def plan_example(places: Collection[str], home: str = "", work: str = "") -> str:
    """A plan written with the map's own places, for an error to show how one reads
    ("7 mill, 12 square, 19 home, 22 sleep")."""
    names = sorted(p for p in places if p not in (home, work))
    first = work or (names[0] if names else "work")
    midday = next((p for p in MIDDAY_PLACES if p in places), names[-1] if names else first)
    return f"7 {first}, 12 {midday}, 19 home, 22 sleep"


def parse_plan(text: str, places: Collection[str], home: str, work: str) -> Plan | str:
    """The plan a `plan` property writes, or a one-line reason it does not read."""
    stops: list[Stop] = []
    parts = [part for part in re.split(r"[;,]", text) if part.strip()]
    if not parts:
        return "it is empty"
    if len(parts) > MAX_STOPS:
        return f"it has {len(parts)} stops; at most {MAX_STOPS}"
    for part in parts:
        found = _STOP.match(part)
        if found is None:
            first, midday = plan_example(places, home, work).split(", ")[:2]
            return f"{part.strip()!r} is not 'HOUR PLACE' (for example '{first}' or '{midday}')"
        h, m = int(found.group(1)), int(found.group(2) or 0)
        if h > 23 or m > 59:
            return f"{part.strip()!r}: the hour must be 0:00 to 23:59"
        where = found.group(3).strip().lower().replace(" ", "_")
        asleep = where == "sleep"
        if asleep or where == "home":
            if not home:
                return f"{part.strip()!r} needs a home property naming a place"
            where = home
        elif where == "work":
            if not work:
                return f"{part.strip()!r} needs a work property naming a place"
            where = work
        elif where not in places:
            return f"{part.strip()!r}: the map has no place named {where!r}"
        stops.append(Stop(h + m / 60, where, asleep))
    stops.sort(key=lambda stop: stop.hour)
    hours = [stop.hour for stop in stops]
    if len(set(hours)) != len(hours):
        return "two stops share an hour"
    return Plan(tuple(stops))


def default_plan(home: str, work: str, places: Collection[str]) -> Plan | None:
    """The plan of an NPC the map gives no plan: home, work and the midday meeting place
    (the first place by name when it has neither). None when there is no place at all."""
    base = home or work or min(places, default="")
    if not base:
        return None
    work = work or base
    midday = next((p for p in MIDDAY_PLACES if p in places), work)
    return Plan(
        (
            Stop(7.0, work),
            Stop(12.0, midday),
            Stop(14.0, work),
            Stop(19.0, base),
            Stop(22.0, base, asleep=True),
        )
    )
