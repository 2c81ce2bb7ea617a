"""Command line: play (the default), chat with one NPC from the terminal.

Every expected failure (a bad map, slot or option) ends with one line on stderr naming
what was wrong and how to fix it, and exit code 2; never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from game.errors import GameError

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MAP = ROOT / "maps" / "village.tmx"
PROVIDER_CHOICES = ("auto", "local", "openai", "openai-chat", "anthropic", "scripted")
EXIT_USAGE = 2

log = logging.getLogger("game")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map",
        type=Path,
        default=DEFAULT_MAP,
        help="Tiled map to play, .tmx or .tmj (default: maps/village.tmx)",
    )
    parser.add_argument(
        "--slot",
        default="default",
        help="save slot name: a-z, 0-9, _ and -, up to 64 (default: default)",
    )
    parser.add_argument(
        "--saves-dir",
        type=Path,
        default=None,
        help="where save slots live (default: the user data dir; env NPC_VILLAGE_SAVES_DIR)",
    )
    parser.add_argument(
        "--provider",
        default="auto",
        choices=PROVIDER_CHOICES,
        help="who plays the NPCs (default: auto)",
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


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: play options at the top, sub-commands below."""
    parser = argparse.ArgumentParser(
        prog="run_game.py",
        description="NPC Village: walk a Tiled village and talk to NPCs that are LLM agents. "
        "Keys: arrows/WASD walk, E talks to the NPC next to you, Enter sends, Esc closes.",
    )
    _play_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    play = sub.add_parser("play", help="play the game (the default command)")
    _play_options(play)
    chat = sub.add_parser("chat", help="send one message to an NPC and stream its reply")
    chat.add_argument("npc_id", help="the NPC's id from the map, e.g. smith")
    chat.add_argument("message", help="what you say to the NPC")
    _common(chat)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        if args.command == "chat":
            return asyncio.run(_chat(args))
        return _play(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # every expected failure class below has a one-line message
        if not _expected(exc):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _expected(exc: BaseException) -> bool:
    from game.agent.errors import AgentError
    from game.world.errors import WorldError

    return isinstance(exc, GameError | WorldError | AgentError | ValueError)


def _play(args: argparse.Namespace) -> int:
    from game.errors import UsageError
    from game.village import Village, make_provider

    if (args.screenshot or args.script) and not args.headless:
        raise UsageError("--screenshot and --script need --headless")
    if args.frames < 1:
        raise UsageError("--frames must be at least 1")
    if args.headless:
        # Must be set before arcade (pyglet) is imported: render offscreen with EGL.
        os.environ["ARCADE_HEADLESS"] = "1"
    from game.ui.app import parse_script, run_window

    script = parse_script(args.script) if args.script else None
    village = Village.open(
        args.map, slot=args.slot, provider=make_provider(args.provider), saves_dir=args.saves_dir
    )
    run_window(
        village,
        headless=args.headless,
        frames=args.frames,
        screenshot=args.screenshot,
        script=script,
    )
    if args.screenshot:
        print(f"screenshot saved to {args.screenshot}")
    return 0


async def _chat(args: argparse.Namespace) -> int:
    from game.agent.loop import AgentRuntime, Trigger
    from game.errors import UsageError
    from game.npc.brain import profile_of
    from game.npc.skills import build_registry
    from game.paths import saves_dir, validate_id
    from game.village import make_provider
    from game.world.perception import perceive
    from game.world.tiled import load_map
    from game.world.world import World

    slot = validate_id(args.slot, "slot")
    world = World(load_map(args.map))
    if args.npc_id not in world.npcs:
        known = ", ".join(sorted(world.npcs))
        raise UsageError(f"no NPC {args.npc_id!r} on {args.map.name}; NPCs here: {known}")

    def on_text(npc_id: str, run_id: str, text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    runtime = AgentRuntime(
        saves_dir(args.saves_dir),
        provider=make_provider(args.provider),
        registry=build_registry(),
        on_text_delta=on_text,
    )
    runtime.register_npc(profile_of(world, args.npc_id), deps=world)
    _echo_tools(runtime)
    trigger = Trigger(
        kind="player_message",
        text=args.message,
        source="player",
        perception=perceive(world, args.npc_id).render(),
        priority=100,
    )
    world.player_said(args.message, to=world.npcs[args.npc_id].name)
    turn = asyncio.ensure_future(runtime.run_turn(slot, args.npc_id, trigger))
    # The world steps here, in this thread, like the game thread would.
    while not turn.done():
        world.step(1 / 60)
        await asyncio.sleep(1 / 240)
    outcome = turn.result()
    await runtime.aclose()
    print()
    if type(outcome).__name__ == "Failed":
        print(f"error: the turn failed: {getattr(outcome, 'error', outcome)}", file=sys.stderr)
        return 1
    return 0


def _echo_tools(runtime: object) -> None:
    """Stream `say` arguments to stdout and every tool call to stderr."""
    bus = getattr(runtime, "bus", None)
    if bus is None:
        return

    def show(event: object) -> None:
        kind = getattr(event, "kind", "")
        data = getattr(event, "data", {}) or {}
        if kind == "tool_call":
            print(f"[tool] {data.get('name')} {data.get('arguments', '')}", file=sys.stderr)
        elif kind == "tool_result":
            print(f"[result] {data.get('content', '')}", file=sys.stderr)

    bus.subscribe(show)
