"""The window: play interactively, or run the same loop headless for N frames.

A headless run paces frames at 60 per second of wall time, so agents on their own
thread stream at the speed a player would see, feeds key presses from a script, and
saves the last frame as a PNG.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import arcade

from game.errors import UsageError
from game.ui.game_view import GameView
from game.village import Village

WIDTH, HEIGHT = 1280, 720
TITLE = "NPC Village"
FPS = 60


@dataclass(frozen=True)
class ScriptStep:
    """One scripted input: at `frame`, do `action` (press, release, hold, type) with `arg`."""

    frame: int
    action: str
    arg: str
    count: int = 1


def parse_script(path: Path) -> list[ScriptStep]:
    """Read a key script: lines of `FRAME ACTION ARG`, `#` comments.

    Actions: `press KEY`, `release KEY`, `hold KEY FRAMES` (press now, release later),
    `type TEXT` (the rest of the line).
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read script {path}: {exc.strerror or exc}") from exc
    steps: list[ScriptStep] = []
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        parts = line.split(None, 2)
        where = f"script {path} line {number}"
        if len(parts) < 3 or not parts[0].isdigit():
            raise UsageError(f"{where}: expected 'FRAME ACTION ARG', got {raw.strip()!r}")
        frame, action, arg = int(parts[0]), parts[1].lower(), parts[2]
        if action == "type":
            steps.append(ScriptStep(frame, action, arg))
            continue
        if action not in ("press", "release", "hold"):
            raise UsageError(f"{where}: unknown action {action!r}; use press, release, hold, type")
        key, _, rest = arg.partition(" ")
        if not hasattr(arcade.key, key.upper()):
            raise UsageError(f"{where}: unknown key {key!r} (use names like E, ENTER, LEFT)")
        count = 1
        if action == "hold":
            if not rest.strip().isdigit():
                raise UsageError(f"{where}: 'hold KEY FRAMES' needs a number of frames")
            count = int(rest)
        steps.append(ScriptStep(frame, action, key.upper(), count))
    return steps


def _expand(steps: list[ScriptStep]) -> dict[int, list[ScriptStep]]:
    by_frame: dict[int, list[ScriptStep]] = {}
    for step in steps:
        if step.action == "hold":
            by_frame.setdefault(step.frame, []).append(ScriptStep(step.frame, "press", step.arg))
            end = step.frame + step.count
            by_frame.setdefault(end, []).append(ScriptStep(end, "release", step.arg))
        else:
            by_frame.setdefault(step.frame, []).append(step)
    return by_frame


def _feed(window: arcade.Window, step: ScriptStep) -> None:
    if step.action == "type":
        for ch in step.arg:
            window.dispatch_event("on_text", ch)
        return
    symbol = getattr(arcade.key, step.arg)
    event = "on_key_press" if step.action == "press" else "on_key_release"
    window.dispatch_event(event, symbol, 0)
    if step.action == "press" and len(step.arg) == 1:
        # A real keyboard also sends the character; the talk box must cope with it.
        window.dispatch_event("on_text", step.arg.lower())


def run_window(
    village: Village,
    *,
    headless: bool = False,
    frames: int = 180,
    screenshot: Path | None = None,
    script: list[ScriptStep] | None = None,
) -> None:
    """Open the window on the village and play; headless runs stop after `frames`."""
    window = arcade.Window(WIDTH, HEIGHT, TITLE, visible=not headless, vsync=False)
    view = GameView(village.world, village.brain, notice=village.notice)
    window.show_view(view)
    try:
        if headless:
            _run_frames(window, view, frames, _expand(script or []))
            if screenshot is not None:
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB").save(screenshot)
        else:
            window.set_update_rate(1 / FPS)
            arcade.run()
    finally:
        village.close()
        window.close()


def _run_frames(
    window: arcade.Window, view: GameView, frames: int, script: dict[int, list[ScriptStep]]
) -> None:
    dt = 1 / FPS
    start = time.perf_counter()
    for frame in range(frames):
        for step in script.get(frame, []):
            _feed(window, step)
        window.dispatch_events()  # deliver queued input, as the event loop would
        view.on_update(dt)
        view.on_draw()
        # Keep wall time in step with game time so agent threads stream as in play.
        behind = start + (frame + 1) * dt - time.perf_counter()
        if behind > 0:
            time.sleep(behind)
