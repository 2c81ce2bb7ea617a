"""Command line: play (the default), chat with one NPC from the terminal, eval the NPCs,
manage save slots and the models the NPCs can use.

Every expected failure (a bad map, slot or option) ends with one line on stderr naming
what was wrong and how to fix it, and exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from game.agent.providers.registry import PROVIDER_NAMES
from game.assets import DEFAULT_MAP
from game.errors import GameError, UsageError
from game.signals import run_stoppable

if TYPE_CHECKING:
    from game.config import Settings

EXIT_USAGE = 2

log = logging.getLogger("game")


def _common(
    parser: argparse.ArgumentParser,
    *,
    slot: bool = True,
    saves_help: str = "where save slots live (default: the user data dir; env "
    "NPC_VILLAGE_SAVES_DIR)",
    map_default: Path | None = DEFAULT_MAP,
    map_help: str = "Tiled map to play, .tmx or .tmj (default: maps/village.tmx)",
) -> None:
    parser.add_argument("--map", type=Path, default=map_default, help=map_help)
    if slot:
        parser.add_argument(
            "--slot",
            default=None,
            help="save slot: a-z, 0-9, _ and -, up to 64; play starts straight in it, else at "
            "the title screen (--headless and chat: the map's own slot, 'default' for the "
            "village, else the map's name)",
        )
    parser.add_argument("--saves-dir", type=Path, default=None, help=saves_help)
    parser.add_argument(
        "--provider",
        default=None,
        choices=PROVIDER_NAMES,
        help="who plays the NPCs; 'scripted' is the persona brain: no model, each NPC "
        "answers from its persona (default: auto: an API key in the environment, else the "
        "local model if installed, else scripted)",
    )
    parser.add_argument(
        "--model",
        default=None,
        help="model name for remote providers; for local: a .gguf path, a catalogue name "
        "(run_game.py models list) or hf://owner/repo/file.gguf, downloaded on first use",
    )
    parser.add_argument(
        "--base-url",
        default=None,
        help="API base URL: a proxy, or an OpenAI-compatible server "
        "(llama.cpp, Ollama, vLLM, LM Studio)",
    )
    parser.add_argument(
        "--allow-insecure-key",
        action="store_true",
        default=None,
        help="let an API key go over plain http to a base URL off this machine "
        "(config.toml allow_insecure_key)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log more to stderr")


def _play_options(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument(
        "--headless",
        action="store_true",
        help="run offscreen with no window (for tests and screenshots)",
    )
    parser.add_argument(
        "--frames",
        type=int,
        default=180,
        help="frames to run when headless, at 60 per second (default: 180)",
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        default=None,
        help="with --headless: save the last frame as this PNG",
    )
    parser.add_argument(
        "--script",
        type=Path,
        default=None,
        help="with --headless: key presses by frame, lines of 'FRAME press|release|hold|type ARG'",
    )
    parser.add_argument(  # read by Settings, whose bounds make a bad value one line
        "--day-minutes",
        default=None,
        metavar="M",
        help="real minutes a game day lasts, 1 to 10080 (default: 24, a game hour a real "
        "minute; config.toml day_minutes, env NPC_VILLAGE_DAY_MINUTES)",
    )
    parser.add_argument(  # read by `start_hour`: a bad value is one line, not argparse's usage
        "--hour",
        default=None,
        metavar="H",
        help="start at this time of day once the slot is loaded, 0 to 24 (20.5 is 8:30 pm)",
    )
    parser.add_argument(
        "--title",
        action="store_true",
        help="start at the title screen even with --headless (headless otherwise plays the "
        "map's own slot: 'default' for the village)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: play options at the top, sub-commands below."""
    parser = argparse.ArgumentParser(
        prog="run_game.py",
        description="NPC Village: walk a Tiled village and talk to NPCs that are LLM agents. "
        "Keys: arrows/WASD walk, E talks to the NPC next to you, Enter sends, F1 lists every key.",
    )
    _play_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = sub.add_parser("play", help="play the game (the default command)")
    _play_options(play)
    chat = sub.add_parser("chat", help="send one message to an NPC and stream its reply")
    chat.add_argument("npc_id", help="the NPC's id from the map, e.g. smith")
    chat.add_argument("message", help="what you say to the NPC")
    _common(chat)
    doctor = sub.add_parser("doctor", help="show the chosen provider and time a tiny request")
    _common(doctor)
    judge = sub.add_parser(
        "eval",
        help="judge the NPCs: run the believability scenarios, print a table and the figures",
        description="Run the believability scenarios of every village (game/eval/scenarios/"
        "<map_id>/, each on maps/<map_id>.tmx) against a provider; print one row per "
        "scenario, then one JSON line of figures per village and one of the total.",
    )
    judge.add_argument(
        "--only",
        nargs="+",
        default=[],
        metavar="ID_OR_CATEGORY",
        help="run only these scenarios (ids) or categories (e.g. gesture memory), in "
        "every village that has them",
    )
    judge.add_argument(
        "--read",
        action="store_true",
        help="a blind read: 40 last lines of the village kept out of tuning and 40 of "
        "Hollowbrook (a fixed seed, shuffled together; one village's 40 when only one ran), "
        "with what was said before each, and no ids, villages, provider or figures, for a "
        "person to mark (figures go to --out)",
    )
    judge.add_argument(
        "--read-ahead",
        action="store_true",
        help="read each NPC's context ahead of the player's line, as the game does while "
        "the player types, so the first letter counts from Enter (a model with a chat "
        "template needs it to show its first letter as played)",
    )
    judge.add_argument(
        "--out",
        type=Path,
        default=None,
        help="write figures.json and transcript.json (every turn) into this directory",
    )
    _common(
        judge,
        slot=False,
        saves_help="where the scenarios' slots go, one per scenario; must not hold them yet "
        "(default: a temporary directory, removed after)",
        map_default=None,
        map_help="run one village's scenarios: a map id (village, or the name of another "
        "folder in game/eval/scenarios/) or a map file named after one (default: every "
        "village whose map is in maps/)",
    )
    from game.models import add_models_parser
    from game.save.cli import add_saves_parser

    add_saves_parser(sub)
    add_models_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command == "chat" and not args.verbose:
        # What the turn publishes (a log it could not write) `chat` says itself, in one line.
        for handler in logging.getLogger().handlers:
            handler.addFilter(lambda record: not getattr(record, "published", False))
    try:
        if args.command in ("chat", "doctor", "eval"):
            for name in ("message", "npc_id"):
                if hasattr(args, name):
                    _check_text(getattr(args, name), name.replace("_", " "))
        if args.command == "chat":
            from game.chat import chat

            return run_stoppable(chat(args, _settings(args), _cli_progress()))
        if args.command == "doctor":
            from game.doctor import doctor

            return run_stoppable(doctor(args, _settings(args), _cli_progress()))
        if args.command == "eval":
            from game.eval.command import run_eval

            return run_stoppable(run_eval(args, _settings(args), _cli_progress()))
        if args.command == "saves":
            from game.save.cli import run_saves

            return run_saves(args)
        if args.command == "models":
            from game.config import load_settings
            from game.models import run_models

            return run_models(args, load_settings())
        return _play(args)
    except KeyboardInterrupt:
        return 130
    except GameError as exc:  # the root of the project's one tree: each has a one-line message
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _check_text(text: str, what: str) -> None:
    """A command-line argument must be text: bytes that are not UTF-8 arrive as surrogates."""
    bad = next((i for i, ch in enumerate(text) if "\ud800" <= ch <= "\udfff"), None)
    if bad is not None:
        raise UsageError(
            f"the {what} has a byte that is not UTF-8 text (at character {bad + 1}): "
            "type it again in UTF-8"
        )


def _settings(args: argparse.Namespace) -> Settings:
    """Settings from flags > environment > .env > config.toml."""
    from game.config import load_settings

    flags = {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "allow_insecure_key": args.allow_insecure_key,
        "day_minutes": getattr(args, "day_minutes", None),  # a play option only
    }
    return load_settings({k: v for k, v in flags.items() if v is not None})


def _play(args: argparse.Namespace) -> int:
    from game.assets import load_game_map
    from game.paths import default_slot, saves_dir, validate_id
    from game.save.tidy import tidy_saves

    if (args.screenshot or args.script) and not args.headless:
        raise UsageError("--screenshot and --script need --headless")
    if args.frames < 1:
        raise UsageError("--frames must be at least 1")
    if args.title and args.slot is not None:
        raise UsageError("--title and --slot exclude each other: the title screen picks the slot")
    hour = start_hour(args.hour)
    slot = validate_id(args.slot, "slot") if args.slot is not None else None  # "" is refused
    map_data = load_game_map(args.map)  # a bad map is one line before any window opens
    if slot is None and args.headless and not args.title:
        slot = default_slot(map_data.map_id)
    saves = saves_dir(args.saves_dir)
    tidy_saves(saves)
    settings = _settings(args)
    if args.headless:
        # Must be set before arcade (pyglet) is imported: render offscreen with EGL.
        os.environ["ARCADE_HEADLESS"] = "1"
    from game.ui.app import GameOptions, play
    from game.ui.key_script import parse_script

    script = parse_script(args.script) if args.script else None
    options = GameOptions(args.map, settings, saves, _cli_progress(), start_hour=hour)
    return play(  # SIGTERM, SIGHUP: the play saves, then the process dies by the signal
        options,
        slot=slot,
        headless=args.headless,
        frames=args.frames,
        screenshot=args.screenshot,
        script=script,
    )


def start_hour(text: str | None) -> float | None:
    """The hour `--hour` names, 0 to 24 (None without it); else one UsageError line."""
    if text is None:
        return None
    try:
        hour = float(text)
    except ValueError:
        hour = math.nan
    if not 0 <= hour <= 24:  # NaN fails too
        raise UsageError(
            f"--hour {text!r} is no time of day: give an hour from 0 to 24 (20.5 is 8:30 pm)"
        )
    return hour


def _cli_progress() -> Callable[[float, str], None]:
    from game.agent.providers.local.model import text_progress

    return text_progress()
