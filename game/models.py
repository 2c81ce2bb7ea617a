"""Stronger minds for the NPCs: the catalogue's models listed, pulled, measured, used, removed.

The `models` command and the Settings screen's Models page share these. A pull downloads
(`local.hub`), then measures the model on this machine at once (`measure`: real NPC turns
on the village map, each read ahead as the game does while the player types) and keeps
the figures (`local.pick.SpeedBook`) for `auto`. `Downloads` runs one pull at a time on
a thread of its own, so the village keeps playing; the page reads its `state` each frame.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from game.agent.providers.local import catalogue as listed
from game.agent.providers.local.catalogue import HubFile, hub_file
from game.agent.providers.local.hub import (
    PullCancelled,
    PullError,
    check_memory,
    downloaded,
    pull,
    remove,
)
from game.agent.providers.local.model import LocalModelError, ProgressCallback, text_progress
from game.agent.providers.local.pick import Speed, SpeedBook, pick_downloaded
from game.assets import DEFAULT_MAP
from game.config import Settings, update_config
from game.errors import UsageError

__all__ = [
    "BUNDLED",
    "DownloadState",
    "Downloads",
    "ModelRow",
    "add_models_parser",
    "catalogue_rows",
    "measure",
    "model_of",
    "pull_and_measure",
    "remove_model",
    "run_models",
    "use_model",
]

BUNDLED = "bundled"  # `use bundled`: the Gemma 3 270M that ships with the game
# What the measure says to three villagers: a greeting, a place, an opinion.
MEASURE_LINES = (
    "Hello! What do you do here?",
    "Where is the well?",
    "What do you think of the weather today?",
)


@dataclass(frozen=True)
class ModelRow:
    """One catalogue model as a list shows it."""

    model: HubFile
    path: Path | None  # downloaded and verified
    speed: Speed | None  # measured on this machine
    in_use: bool  # the settings name it

    @property
    def size_text(self) -> str:
        """Its file size, as people read it."""
        size = self.model.size or 0
        return f"{size / 1e9:.2f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB"

    @property
    def speed_text(self) -> str:
        """Its speed here, or why there is none."""
        if self.speed is not None:
            return self.speed.describe()
        return "not measured" if self.path is not None else "-"


def model_of(name: str) -> HubFile:
    """The catalogue model or hf:// file `name` names; UsageError naming the choices."""
    try:
        found = hub_file(name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if found is None:
        names = ", ".join(m.name for m in listed.CATALOGUE)
        raise UsageError(f"no model {name!r} in the catalogue; choose one of: {names}")
    return found


def catalogue_rows(
    settings: Settings | None = None, book: SpeedBook | None = None
) -> list[ModelRow]:
    """Every catalogue model: downloaded or not, its speed here, whether it is in use."""
    book = book or SpeedBook()
    chosen = settings.model if settings is not None else None
    rows = []
    for model in listed.CATALOGUE:
        path = downloaded(model)
        speed = book.get(path) if path is not None else None
        rows.append(ModelRow(model, path, speed, chosen == model.name))
    return rows


async def measure(
    path: Path, map_path: Path = DEFAULT_MAP, report: ProgressCallback | None = None
) -> Speed:
    """Time real NPC turns of the model at `path` on this machine (see the module doc)."""
    from game.assets import load_game_map
    from game.harness import FAST_PACE, Talk
    from game.village import local_provider
    from game.world.world import World

    say = report or (lambda fraction, message: None)
    world = World(load_game_map(map_path))
    provider = local_provider(path)
    letters: list[float] = []
    try:
        failed = await provider.load()
        if failed is not None:
            raise LocalModelError(f"{path.name} does not load: {failed.message}")
        with tempfile.TemporaryDirectory(prefix="npc-measure-") as saves:
            talk = Talk(
                world,
                Path(saves),
                slot="measure",
                provider=provider,
                pace=FAST_PACE,
                read_ahead=True,
            )
            try:
                talks = zip(sorted(world.npcs), MEASURE_LINES, strict=False)
                for i, (npc_id, line) in enumerate(talks):
                    say(i / len(MEASURE_LINES), f"measuring {path.name}: turn {i + 1}")
                    turn = await talk.player_line(npc_id, line)
                    letters.append(turn.first_letter_s if turn.first_letter_s else float("inf"))
            finally:
                await talk.aclose()
        spoken = [s for s in provider.stats if s.outcome != "primed" and s.output_tokens >= 4]
        seconds = sum(s.total_s - (s.first_token_s or 0.0) for s in spoken)
        tokens = sum(s.output_tokens - 1 for s in spoken)
    finally:
        await provider.aclose()
    speed = Speed(
        first_letter_s=round(statistics.median(letters), 3) if letters else float("inf"),
        tokens_s=round(tokens / seconds, 1) if seconds > 0 else 0.0,
        turns=len(letters),
    )
    say(1.0, f"{path.name}: {speed.describe()}")
    return speed


def pull_and_measure(
    model: HubFile,
    report: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    book: SpeedBook | None = None,
) -> tuple[Path, Speed | None]:
    """Pull `model`, then measure it here once and keep the figures (a catalogue model:
    auto may take it); PullError when the pull fails, LocalModelError when it will not
    load."""
    say = report or (lambda fraction, message: None)
    book = book or SpeedBook()
    measured = bool(model.name)  # a catalogue model: auto may take it
    path = pull(model, lambda f, m: say(f * (0.8 if measured else 1.0), m), cancel)
    speed = book.get(path)
    if speed is None and measured:
        speed = asyncio.run(measure(path, report=lambda f, m: say(0.8 + 0.2 * f, m)))
        book.put(path, speed)
    say(1.0, f"{model.label} is ready")
    return path, speed


def use_model(name: str, config: Path | None = None) -> tuple[Settings, str]:
    """Write the choice to config.toml; the settings and one line saying what changed.

    `auto` lets the game choose again; `bundled` is the Gemma 3 270M that ships with it.
    """
    if name == "auto":
        settings = update_config({"provider": "auto", "model": None}, config)
        return settings, "the NPCs' model is chosen again at each start (auto)"
    if name == BUNDLED:
        settings = update_config({"provider": "local", "model": None}, config)
        return settings, "the NPCs use the bundled Gemma 3 270M"
    model = model_of(name)
    settings = update_config({"provider": "local", "model": name}, config)
    later = "" if downloaded(model) else " (it downloads at the next start; or pull it now)"
    return settings, f"the NPCs use {model.label}{later}"


def remove_model(name: str, settings: Settings | None = None, config: Path | None = None) -> str:
    """Delete a downloaded model; if the settings used it, they go back to auto."""
    model = model_of(name)
    if not remove(model):
        return f"{model.label} is not downloaded"
    line = f"removed {model.label}"
    if settings is not None and settings.model == name:
        update_config({"provider": "auto", "model": None}, config)
        line += "; the NPCs' model is chosen again at each start (auto)"
    return line


def auto_pick() -> str:
    """What `auto` takes today, in one line."""
    return pick_downloaded().reason


@dataclass(frozen=True)
class DownloadState:
    """Where the one download is: readable from the game thread at any time."""

    name: str
    fraction: float = 0.0
    message: str = ""
    error: str | None = None  # one line, when it failed
    done: bool = False  # finished: downloaded (and measured), failed or cancelled


class Downloads:
    """One pull (and its measuring) at a time, on a thread of its own."""

    def __init__(self, book: SpeedBook | None = None) -> None:
        self.book = book
        self.state: DownloadState | None = None  # replaced whole: a reader sees one state
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether a download is under way."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, name: str) -> str | None:
        """Begin pulling `name`; one line when it cannot begin (else None)."""
        if self.running:
            return "a download is already under way"
        try:
            model = model_of(name)
            check_memory(model)
        except (UsageError, PullError) as exc:
            self.state = DownloadState(name, error=str(exc), done=True)
            return str(exc)
        self._cancel = threading.Event()
        self.state = DownloadState(name, message=f"starting {name}")
        self._thread = threading.Thread(
            target=self._run, args=(model, self._cancel), name=f"pull-{name}", daemon=True
        )
        self._thread.start()
        return None

    def cancel(self) -> None:
        """Stop the download (what came is kept: the next pull resumes)."""
        self._cancel.set()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the download's thread to end (tests; closing the game)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self, model: HubFile, cancel: threading.Event) -> None:
        name = model.label

        def report(fraction: float, message: str) -> None:
            self.state = DownloadState(name, fraction, message)

        try:
            _, speed = pull_and_measure(model, report, cancel, self.book)
        except PullCancelled:
            self.state = DownloadState(name, message="cancelled; Download resumes it", done=True)
        except (LocalModelError, UsageError) as exc:
            self.state = DownloadState(name, error=str(exc), done=True)
        except Exception as exc:  # never a traceback on the page
            self.state = DownloadState(name, error=f"{type(exc).__name__}: {exc}", done=True)
        else:
            figures = f": {speed.describe()}" if speed is not None else ""
            self.state = DownloadState(name, 1.0, f"{name} downloaded{figures}", done=True)


# --- the `models` command ------------------------------------------------------------------


def add_models_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `models` sub-command (list, pull, use, rm) to `sub`."""
    models = sub.add_parser(
        "models",
        help="list, download, choose or remove the local models the NPCs can use",
        description="Stronger models for the NPCs, downloaded from the Hugging Face Hub into "
        "the user cache (HF_ENDPOINT, HF_TOKEN and HF_HUB_OFFLINE are honoured; "
        "NPC_VILLAGE_MAX_DOWNLOAD_GB caps a file, 16 GB unless set).",
    )
    actions = models.add_subparsers(dest="models_action", metavar="ACTION", required=True)
    actions.add_parser("list", help="the catalogue: size, licence, downloaded, speed here")
    pull_cmd = actions.add_parser(
        "pull", help="download a model (resumes an interrupted pull), then time it here"
    )
    pull_cmd.add_argument("name", help="a catalogue name, or hf://owner/repo/file.gguf")
    use = actions.add_parser("use", help="write the NPCs' model to config.toml")
    use.add_argument("name", help=f"a catalogue name, an hf:// address, {BUNDLED} or auto")
    rm = actions.add_parser("rm", help="delete a downloaded model")
    rm.add_argument("name", help="a catalogue name, or an hf:// address")


def run_models(args: argparse.Namespace, settings: Settings, out: TextIO | None = None) -> int:
    """Run one `models` action; expected failures raise a GameError (one line)."""
    out = out or sys.stdout
    action = args.models_action
    if action == "list":
        out.write(format_rows(catalogue_rows(settings)) + "\n")
        out.write(f"auto takes: {auto_pick()}\n")
        return 0
    if action == "use":
        _, line = use_model(args.name, settings.config_file)
        out.write(line + "\n")
        return 0
    if action == "rm":
        out.write(remove_model(args.name, settings, settings.config_file) + "\n")
        return 0
    model = model_of(args.name)
    bar = text_progress()
    drawing = [False]  # the bar's line is open: an error must start a line of its own

    def report(fraction: float, message: str) -> None:
        drawing[0] = fraction < 1.0
        bar(fraction, message)

    try:
        path, speed = pull_and_measure(model, report)
    except LocalModelError:
        if drawing[0]:
            sys.stderr.write("\n")
        raise
    except KeyboardInterrupt:
        out.write(f"\npull of {model.label} interrupted; run it again to resume\n")
        return 130
    out.write(f"{model.label}: {path}\n")
    if speed is not None:
        verdict = speed.fails()
        out.write(f"on this machine: {speed.describe()}")
        out.write(f" (auto will not take it: {verdict})\n" if verdict else "\n")
    out.write(f"use it: run_game.py models use {args.name}\n")
    return 0


def format_rows(rows: list[ModelRow]) -> str:
    """The catalogue as a table, strongest first."""
    head = ("", "name", "params", "size", "licence", "downloaded", "speed here", "good for")
    table = [head]
    for row in rows:
        m = row.model
        table.append(
            (
                "*" if row.in_use else "",
                m.name,
                m.params,
                row.size_text,
                m.licence,
                "yes" if row.path is not None else "no",
                row.speed_text,
                m.good_for,
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(head) - 1)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1]
        for r in table
    ]
    return "\n".join(line.rstrip() for line in lines)
