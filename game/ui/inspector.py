"""F3: the agent inspector, a panel showing what the nearest NPC's agent is doing.

The panel reads only snapshots: every half second it asks the agent thread for the NPC's
status, token meter and (when the context view is on) its next provider input, and shows
the latest answer, with its character sheet in a few short lines under its activity.
Recent tool calls, results and errors come from a `TurnMonitor`. The
NPC's day (its plan, where it is due now, asleep or awake), its feelings and the news it
knows are world data, read on the game thread. What a model sent is shown through
`clean_text`, without control characters.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Callable
from typing import Any

import arcade

from game.agent.monitor import Snapshot, TurnMonitor
from game.npc.known import sheets_of
from game.text import clean_text
from game.ui.theme import ACCENT, INK, MONOSPACE, PANEL
from game.world.entities import Npc
from game.world.feelings import word_for
from game.world.world import World

WIDTH = 470
PAD = 12
REFRESH_S = 0.5
CONTEXT_LINES = 16
FEELINGS_SHOWN = 5  # the strongest
NEWS_SHOWN = 4  # the newest heard

SnapshotFn = Callable[[str, bool], concurrent.futures.Future[Snapshot]]


def _short(value: Any, limit: int = 90) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Inspector:
    """The F3 panel: Tab cycles NPCs (nearest first), C toggles the exact context."""

    def __init__(self, world: World, monitor: TurnMonitor, snapshot: SnapshotFn) -> None:
        self.world = world
        self.monitor = monitor
        self.snapshot = snapshot
        self.visible = False
        self.show_context = False
        self.offset = 0  # Tab: 0 = nearest NPC, 1 = next nearest, ...
        self._latest: Snapshot | None = None
        self._pending: concurrent.futures.Future[Snapshot] | None = None
        self._since = REFRESH_S
        self._body_source = ""
        self.title = arcade.Text("", 0, 0, ACCENT, 13, bold=True, anchor_y="top")
        self.body = arcade.Text(
            "",
            0,
            0,
            INK,
            10,
            width=WIDTH - 2 * PAD,
            multiline=True,
            anchor_y="top",
            font_name=MONOSPACE,
        )

    def toggle(self) -> None:
        """Show or hide the panel."""
        self.visible = not self.visible
        self._since = REFRESH_S

    def cycle(self) -> None:
        """Inspect the next NPC by distance."""
        self.offset = (self.offset + 1) % max(1, len(self.world.npcs))
        self._latest = None
        self._since = REFRESH_S

    def toggle_context(self) -> None:
        """Show or hide the exact perception and provider input."""
        self.show_context = not self.show_context
        self._since = REFRESH_S

    def target(self) -> str | None:
        """The inspected NPC's id."""
        if not self.world.npcs:
            return None
        player = self.world.player
        by_distance = sorted(self.world.npcs.values(), key=lambda n: self.world.distance(player, n))
        return by_distance[self.offset % len(by_distance)].entity_id

    def update(self, dt: float) -> None:
        """Ask for a fresh snapshot now and then; never waits for it."""
        if not self.visible:
            return
        if self._pending is not None and self._pending.done():
            if self._pending.exception() is None:
                self._latest = self._pending.result()
            self._pending = None
        self._since += dt
        npc_id = self.target()
        if npc_id and self._pending is None and self._since >= REFRESH_S:
            self._since = 0.0
            self._pending = self.snapshot(npc_id, self.show_context)

    def text(self) -> tuple[str, str]:
        """The panel's title and body as plain text, cleaned (also what tests read)."""
        npc_id = self.target()
        if npc_id is None:
            return "Inspector", "No NPCs on this map."
        npc = self.world.npcs[npc_id]
        snap = self._latest if self._latest and self._latest.npc_id == npc_id else None
        lines: list[str] = []
        if snap is None:
            lines.append("loading…")
        else:
            lines += [
                f"provider  {snap.provider} · {snap.model}",
                f"state     {snap.state}   queue {snap.queue_depth}",
                f"tokens    in {snap.tokens_in}  out {snap.tokens_out}   turns {snap.turns}",
            ]
        lines.append(f"activity  {npc.activity} at {npc.tile}")
        sheet = sheets_of(self.world).get(npc_id)
        if sheet is not None:
            lines += [line if len(line) <= 70 else line[:69] + "…" for line in sheet.lines()]
        lines += self.life_lines(npc)
        timings = self.monitor.timings(npc_id)[-4:]
        if timings:
            lines.append("recent turns (trigger: first token / total):")
            for t in reversed(timings):
                ttft = f"{t.first_token_s:.2f}s" if t.first_token_s is not None else "-"
                total = f"{t.duration_s:.2f}s" if t.duration_s is not None else "running"
                lines.append(f"  {t.trigger}: {ttft} / {total} {t.outcome or ''}".rstrip())
        shown = 4 if self.show_context else 8
        events = [e for e in self.monitor.recent(npc_id) if e.kind != "turn_started"][-shown:]
        if events:
            lines.append("last events:")
            for e in reversed(events):
                if e.kind == "tool_call":
                    lines.append(f"  call   {e.data.get('name')} {_short(e.data.get('arguments'))}")
                elif e.kind == "tool_result":
                    mark = "error " if e.data.get("is_error") else "result"
                    lines.append(f"  {mark} {_short(e.data.get('content'))}")
                elif e.kind == "error":
                    lines.append(f"  ERROR  {e.data.get('kind')}: {_short(e.data.get('message'))}")
                elif e.kind == "turn_finished":
                    lines.append(f"  end    {e.data.get('kind')} {_short(e.data.get('text', ''))}")
        if self.show_context and snap is not None and snap.context:
            # The newest part matters most: the latest messages and the perception.
            context = snap.context.splitlines()
            lines += ["", f"context (next provider input), last {CONTEXT_LINES} lines:"]
            lines += context[-CONTEXT_LINES:]
        title = f"{npc.name} ({npc_id})  ·  F3 close  Tab next  C context"
        return clean_text(title), clean_text("\n".join(lines))

    def life_lines(self, npc: Npc) -> list[str]:
        """The NPC's day plan and where it is due now, how it feels about others, and the
        news it knows with whom it came from (world data, on the game thread)."""
        npc_id = npc.entity_id
        world = self.world
        lines: list[str] = []
        plan = world.plans.get(npc_id)
        state = "asleep" if npc.asleep else "awake"
        if plan is not None:
            lines.append(f"plan      {plan.text()}")
            stop = plan.stop_at(world.day.hour)
            lines.append(f"now       {world.day.text()}: {stop.text()} · {state}")
        else:
            lines.append(f"now       {world.day.text()}: no plan · {state}")
        feelings = world.feelings.of.get(npc_id, {})
        if feelings:
            lines.append("feelings:")
            strongest = sorted(feelings.items(), key=lambda kv: (-abs(kv[1].value), kv[0]))
            for other, f in strongest[:FEELINGS_SHOWN]:
                why = f" ({_short(f.reason, 40)})" if f.reason else ""
                name = f.name or other
                lines.append(f"  {name}: {word_for(f.value)} {f.value:+.2f}{why}")
            if len(strongest) > FEELINGS_SHOWN:
                lines.append(f"  (and {len(strongest) - FEELINGS_SHOWN} more)")
        known = world.news.known_by(npc_id)
        if known:
            lines.append("news it knows:")
            for news, heard in known[:NEWS_SHOWN]:
                lines.append(f"  {_short(news.fact(), 60)}")
                lines.append(f"    from {heard.source_name or heard.source} ({heard.how})")
            if len(known) > NEWS_SHOWN:
                lines.append(f"  (and {len(known) - NEWS_SHOWN} more)")
        return lines

    def draw(self, width: int, height: int) -> None:
        """Draw the panel on the right edge of the screen."""
        if not self.visible:
            return
        title, body = self.text()
        left = width - WIDTH - 8
        arcade.draw_lrbt_rectangle_filled(left, width - 8, 8, height - 8, PANEL)
        self.title.text = title
        self.title.position = (left + PAD, height - 8 - PAD)
        self.title.draw()
        if body != self._body_source:
            self._body_source = body
            self.body.text = body
            lines = body.splitlines()
            while len(lines) > 1 and self.body.content_height > height - 70:
                lines = lines[: max(1, len(lines) - 3)]  # never run off the panel
                self.body.text = "\n".join(lines)
        self.body.position = (left + PAD, height - 8 - PAD - 26)
        self.body.draw()
