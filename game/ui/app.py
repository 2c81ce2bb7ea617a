"""The window: play interactively, or run the same loop headless for N frames.

A headless run paces frames at 60 per second of wall time, so agents on their own
thread stream at the speed a player would see, feeds key presses from a script, and
saves the last frame as a PNG.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import arcade
from PIL import Image

from game.assets import load_game_map
from game.atomic import replacing
from game.config import Settings
from game.errors import UsageError
from game.files import os_reason
from game.paths import slug_id
from game.save.catalog import SlotInfo, list_slots
from game.save.keeper import LoadResult
from game.save.writable import check_writable
from game.signals import StopRequest, end_by, stop_requests
from game.ui.game_view import GameView
from game.ui.inspector import Inspector
from game.ui.key_script import ScriptStep, by_frame, feed
from game.ui.menus import LoadListView
from game.ui.models_page import close_downloads
from game.ui.title import TitleView
from game.village import Progress, Village

WIDTH, HEIGHT = 1280, 720
TITLE = "NPC Village"
FPS = 60


@dataclass(frozen=True)
class GameOptions:
    """What every village of this run is opened with."""

    map_path: Path
    settings: Settings
    saves_dir: Path
    on_progress: Progress | None = None
    start_hour: float | None = None  # --hour: the time of day the first village opens at


class GameSession:
    """Opens villages for the title screen and the load list; owns the one playing."""

    def __init__(self, window: arcade.Window, options: GameOptions) -> None:
        self.window = window
        self.options = options
        self.village: Village | None = None
        self._start_hour = options.start_hour  # for the first village only

    @property
    def slot(self) -> str:
        """The slot in play, which the load list marks ("" from the title)."""
        return self.village.slot if self.village is not None else ""

    def open_slot(self, slot: str, player_name: str | None = None) -> Village:
        """Open (or create) a slot and show its play screen; a slot that cannot be written
        is refused (SaveError, one line) before anything is played in it."""
        o = self.options
        check_writable(o.saves_dir, slot)
        gc.unfreeze()  # what the last village froze may be garbage once it closes
        if self.village is not None and self.village.slot == slot:
            self.close()  # it holds the slot's lock: let it go before opening it again
        village = Village.open(
            o.map_path,
            slot=slot,
            settings=o.settings,
            saves_dir=o.saves_dir,
            on_progress=o.on_progress,
            player_name=player_name,
        )
        if self.village is not None:
            self.village.close()
        self.village = village
        if self._start_hour is not None:  # after the slot's own time was restored
            village.world.day.set_hour(self._start_hour)
            self._start_hour = None
        monitor, snapshot = village.inspector_feed()
        self.window.show_view(
            GameView(
                village.world,
                village.brain,
                notice=village.notice,
                saves=village.saves,
                history=village.history,
                progress=village.progress,
                inspector=Inspector(village.world, monitor, snapshot),
                text_speed=o.settings.text_speed,
                text_scale=o.settings.text_scale,
            )
        )
        freeze_loaded()
        return village

    # --- title.Launcher ---------------------------------------------------------------

    def new_game(self, player_name: str) -> None:
        """A new slot named after the player (ada, ada-2, ...)."""
        base = slug_id(player_name, "save", 40)
        taken = {info.slot for info in list_slots(self.options.saves_dir)}
        slot = base
        n = 2
        while slot in taken:
            slot, n = f"{base}-{n}", n + 1
        self.open_slot(slot, player_name)

    def latest_slot(self) -> str | None:
        """The most recently saved slot that can be loaded on the map in play."""
        map_id = self.options.map_path.stem
        loadable = [
            i for i in list_slots(self.options.saves_dir) if i.loadable and i.map_id in ("", map_id)
        ]
        return max(loadable, key=lambda i: i.updated).slot if loadable else None

    def continue_game(self) -> None:
        """Resume the latest slot."""
        slot = self.latest_slot()
        if slot is None:
            raise UsageError("there is no saved game yet: start a new one")
        self.open_slot(slot)

    def load_game(self, title: arcade.View) -> None:
        """The load list over the title screen."""
        self.window.show_view(LoadListView(title, self, back=title))

    # --- menus.SlotSource -------------------------------------------------------------

    def list_slots(self) -> list[SlotInfo]:
        """Every slot, newest first."""
        return list_slots(self.options.saves_dir)

    def load(self, slot: str) -> LoadResult:
        """Open a slot from the load list; a failure is one line on the list."""
        try:
            self.open_slot(slot)
        except Exception as exc:  # a broken slot must not end the game
            return LoadResult(False, slot, str(exc).splitlines()[0] if str(exc) else repr(exc))
        return LoadResult(True, slot, f"loaded {slot!r}")

    def close(self) -> None:
        """Close the village in play: autosave, stop its agents."""
        if self.village is not None:
            self.village.close()
            self.village = None
        gc.unfreeze()


def freeze_loaded() -> None:
    """Collect once, then keep what is loaded (tile sprites, textures, the village) out
    of every later collection.

    A 100x100 map is 10,000 tile sprites and 220,000 tracked objects; each full
    collection walked them all, a 130 ms hitch every few seconds of play. Frozen, a
    collection walks only what the game made since.
    """
    gc.collect()
    gc.freeze()


class CollectBetweenFrames:
    """Run Python's cyclic collections between frames, not inside them.

    Automatic collections run in whichever thread crosses an allocation count, often in
    the middle of a frame's update (a young-generation pass costs 0.05-0.5 ms). While the
    window runs they are switched off, and each call after a drawn frame does the pass the
    counts call for, with the interpreter's own thresholds.
    """

    def __enter__(self) -> CollectBetweenFrames:
        self._was_enabled = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._was_enabled:
            gc.enable()

    def __call__(self, delta_time: float = 0.0) -> None:
        """After a frame: collect the generations whose counts passed their thresholds."""
        count, threshold = gc.get_count(), gc.get_threshold()
        if count[0] < threshold[0]:
            return
        generation = 0
        if count[1] >= threshold[1]:
            generation = 2 if count[2] >= threshold[2] else 1
        gc.collect(generation)


def open_window(headless: bool) -> arcade.Window:
    """The game window; no display (or no OpenGL) is one clear line, not a traceback."""
    try:
        return arcade.Window(WIDTH, HEIGHT, TITLE, visible=not headless, vsync=False)
    except Exception as exc:  # pyglet raises per-platform classes for "no display"
        name = type(exc).__name__
        if "Display" in name or "Config" in name or "Window" in name:
            raise UsageError(
                f"cannot open the game window ({exc}): run it in a desktop session, "
                "or use --headless for a run without a screen"
            ) from exc
        raise


def run_window(
    options: GameOptions,
    *,
    slot: str | None,
    headless: bool = False,
    frames: int = 180,
    screenshot: bool = False,
    script: list[ScriptStep] | None = None,
    stop: StopRequest | None = None,
) -> Image.Image | None:
    """Open the window: the title screen, or straight into `slot`; headless stops after
    `frames` and returns the last one if asked for a `screenshot`, once the village has
    saved and closed.

    A `stop` signal ends the play at the next frame, as closing the window does: the
    village saves on the way out and no frame is returned. Stopped by a signal, or run
    headless, the process ends right after: the window is left for its end to free."""
    stop = stop if stop is not None else StopRequest()
    window = open_window(headless)
    session = GameSession(window, options)
    frame: Image.Image | None = None
    try:
        if slot is None:
            window.show_view(
                TitleView(session, options.map_path, load_game_map(options.map_path).name)
            )
        else:
            session.open_slot(slot)
        with CollectBetweenFrames() as collect:
            if headless:
                _run_frames(window, frames, by_frame(script or []), collect, stop)
                if screenshot and stop.signum is None:
                    frame = arcade.get_image(0, 0, WIDTH, HEIGHT).convert("RGB")
            else:

                def leave_if_stopped(delta_time: float) -> None:
                    if stop.signum is not None:
                        arcade.exit()

                window.set_update_rate(1 / FPS)
                arcade.schedule(collect, 1 / FPS)
                arcade.schedule(leave_if_stopped, 1 / FPS)
                arcade.run()
                arcade.unschedule(leave_if_stopped)
                arcade.unschedule(collect)
    finally:
        close_downloads(window)  # a model download ends with the game (the next one resumes)
        session.close()
        if not headless and stop.signum is None:  # else the process ends now and frees it
            window.close()  # (an offscreen context takes seconds to tear down)
    return frame


def play(
    options: GameOptions,
    *,
    slot: str | None,
    headless: bool,
    frames: int,
    screenshot: Path | None,
    script: list[ScriptStep] | None,
) -> int:
    """Play as the command line asks; the exit code.

    SIGTERM and SIGHUP end the play as closing the window does (the village saves), then
    the process dies by the signal. The screenshot's name is checked before the run; a
    write that still fails after it (a full disk) is one line and exit 1, the slot saved.
    """
    if screenshot is not None:
        check_screenshot(screenshot)
    # Ctrl-C too is only noted: a KeyboardInterrupt raised mid-frame could leave the
    # village half stepped and its save waiting on a turn that never ends.
    with stop_requests(also=(signal.SIGINT,)) as stop:
        frame = run_window(
            options,
            slot=slot,
            headless=headless,
            frames=frames,
            screenshot=screenshot is not None,
            script=script,
            stop=stop,
        )
        if stop.signum is not None:  # saved and closed: end as the signal would have
            end_by(stop.signum)
    if frame is None or screenshot is None:
        return 0
    try:
        with replacing(screenshot) as part:  # a failed write leaves no half PNG behind
            frame.save(part, format="PNG")
    except OSError as exc:
        print(
            f"error: could not save the screenshot {screenshot}: {os_reason(exc)} "
            "(the game itself was saved); free some space or choose another place",
            file=sys.stderr,
        )
        return 1
    print(f"screenshot saved to {screenshot}")
    return 0


def check_screenshot(path: Path) -> None:
    """`--screenshot` must name a .png file in a folder that can be written: else one
    UsageError line, before the run rather than after it."""
    where = f"--screenshot {path}"
    if path.is_dir():
        raise UsageError(f"{where} is a folder: give a file name in it, e.g. {path / 'shot.png'}")
    if path.exists() and not path.is_file():
        raise UsageError(f"{where} is not a regular file (a device or a pipe): give a .png file")
    if path.suffix.lower() != ".png":
        raise UsageError(f"{where}: the frame is saved as a PNG; give a name ending in .png")
    folder = next(p for p in path.absolute().parents if p.exists())  # made if missing
    if not folder.is_dir():
        raise UsageError(f"{where}: {folder} is not a folder; give a .png file in a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{where}: cannot write in {folder}; choose a folder you can write to")


def _run_frames(
    window: arcade.Window,
    frames: int,
    script: dict[int, list[ScriptStep]],
    between_frames: Callable[[], None],
    stop: StopRequest,
) -> None:
    dt = 1 / FPS
    start = time.perf_counter()
    for frame in range(frames):
        if stop.signum is not None:
            break  # a signal: leave as the window's close does, and save on the way out
        for step in script.get(frame, []):
            feed(window, step)
        window.dispatch_events()  # deliver queued input, as the event loop would
        view = window.current_view
        if view is None:
            break  # the game quit
        view.on_update(dt)
        view.on_draw()
        between_frames()
        # Keep wall time in step with game time so agent threads stream as in play.
        behind = start + (frame + 1) * dt - time.perf_counter()
        if behind > 0:
            time.sleep(behind)
