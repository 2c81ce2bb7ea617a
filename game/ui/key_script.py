"""Key scripts (`--script`): the keys a headless run presses, frame by frame.

A script is lines of `FRAME ACTION ARG` (`#` comments): `press KEY`, `release KEY`, `hold
KEY FRAMES`, `type TEXT`. It is read whole before the run (a bad line is one UsageError
naming it) and fed to the window as a keyboard would send it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import arcade

from game.errors import UsageError
from game.files import BadFile, mb, os_reason, read_capped
from game.limits import MAX_SCRIPT_BYTES, MAX_SCRIPT_FRAME

__all__ = ["ScriptStep", "by_frame", "feed", "parse_script"]

SCRIPT_MAX_BYTES = MAX_SCRIPT_BYTES  # a key script is a few lines
MAX_FRAME = MAX_SCRIPT_FRAME  # frames and hold counts in a script (about 46 hours)


@dataclass(frozen=True)
class ScriptStep:
    """One scripted input: at `frame`, do `action` (press, release, hold, type) with `arg`."""

    frame: int
    action: str
    arg: str
    count: int = 1


def parse_script(path: Path) -> list[ScriptStep]:
    """Read a key script: lines of `FRAME ACTION ARG`, `#` comments.

    Actions: `press KEY` (the press, then its text as pyglet sends it: "\r" for ENTER),
    `release KEY`, `hold KEY FRAMES` (press now, release later), `type TEXT` (the rest of
    the line, as text events only). The script is a regular UTF-8 file of at most 1 MB;
    frames and counts are ASCII digits up to ten million.
    """
    try:
        data = read_capped(path, SCRIPT_MAX_BYTES)
    except BadFile as exc:
        raise UsageError(
            f"cannot read script: {exc}; give --script a text file of up to {mb(SCRIPT_MAX_BYTES)}"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot read script {path}: {os_reason(exc)}") from None
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        number = data.count(b"\n", 0, exc.start) + 1
        raise UsageError(
            f"script {path} line {number}: byte {exc.start} is not UTF-8; save it as UTF-8"
        ) from None

    steps: list[ScriptStep] = []
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        parts = line.split(None, 2)
        where = f"script {path} line {number}"
        if len(parts) < 3:
            raise UsageError(f"{where}: expected 'FRAME ACTION ARG', got {raw.strip()!r}")
        frame, action, arg = _number(parts[0]), parts[1].lower(), parts[2]
        if frame is None:
            raise UsageError(
                f"{where}: the frame {parts[0]!r} must be a number from 0 to {MAX_FRAME} "
                "in the digits 0-9"
            )
        if action == "type":
            steps.append(ScriptStep(frame, action, arg))
            continue
        if action not in ("press", "release", "hold"):
            raise UsageError(f"{where}: unknown action {action!r}; use press, release, hold, type")
        key, _, rest = arg.partition(" ")
        if not hasattr(arcade.key, key.upper()):
            raise UsageError(f"{where}: unknown key {key!r} (use names like E, ENTER, LEFT)")
        count = _number(rest) if action == "hold" else 1
        if count is None:
            raise UsageError(
                f"{where}: 'hold KEY FRAMES' needs a number of frames from 0 to {MAX_FRAME} "
                "in the digits 0-9"
            )
        steps.append(ScriptStep(frame, action, key.upper(), count))
    return steps


def _number(text: str) -> int | None:
    """A frame number or count: ASCII digits, at most `MAX_FRAME` (None otherwise)."""
    text = text.strip()
    ok = text.isascii() and text.isdigit() and len(text) <= 8 and int(text) <= MAX_FRAME
    return int(text) if ok else None


def by_frame(steps: list[ScriptStep]) -> dict[int, list[ScriptStep]]:
    """The steps by the frame they happen at; a hold is its press and, later, its release."""
    by_frame: dict[int, list[ScriptStep]] = {}
    for step in steps:
        if step.action == "hold":
            by_frame.setdefault(step.frame, []).append(ScriptStep(step.frame, "press", step.arg))
            end = step.frame + step.count
            by_frame.setdefault(end, []).append(ScriptStep(end, "release", step.arg))
        else:
            by_frame.setdefault(step.frame, []).append(step)
    return by_frame


KEY_TEXT = {"ENTER": "\r", "RETURN": "\r", "TAB": "\t", "SPACE": " "}  # text events of keys


def feed(window: arcade.Window, step: ScriptStep) -> None:
    """Send one scripted input to the window, as a keyboard would."""
    if step.action == "type":
        for ch in step.arg:
            window.dispatch_event("on_text", ch)
        return
    symbol = getattr(arcade.key, step.arg)
    event = "on_key_press" if step.action == "press" else "on_key_release"
    window.dispatch_event(event, symbol, 0)
    text = KEY_TEXT.get(step.arg, step.arg.lower() if len(step.arg) == 1 else "")
    if step.action == "press" and text:
        # As pyglet delivers a key: the press, then its text ("\r" for Return); the talk
        # box and the name prompt must take neither as typed.
        window.dispatch_event("on_text", text)
