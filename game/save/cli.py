"""`run_game.py saves ...`: list, show, delete, export and import save slots.

Every expected failure prints one line on stderr and exits with code 2; nothing here
asks for input (delete needs `--yes`), so it runs the same in CI as in a terminal.

A slot may come from a shared folder: whatever it says (its name, the player's, the map's,
a warning, a path) is printed through `clean_line`, so no escape sequence, carriage return
or line break of its own reaches the terminal.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

from game.paths import saves_dir, validate_id
from game.save.catalog import delete_slot, list_slots, npc_event_counts, slot_info
from game.save.errors import SaveError
from game.save.tidy import tidy_saves
from game.save.transfer import export_slot, import_slot
from game.text import clean_line

__all__ = ["add_saves_parser", "format_date", "format_play_time", "run_saves"]

EXIT_USAGE = 2


def add_saves_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `saves` sub-command (with list/show/delete/export/import) to `sub`."""
    saves = sub.add_parser("saves", help="list, show, delete, export or import save slots")
    actions = saves.add_subparsers(dest="saves_action", metavar="ACTION", required=True)

    def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument(
            "--saves-dir",
            type=Path,
            default=None,
            help="where save slots live (default: the user data dir; env NPC_VILLAGE_SAVES_DIR)",
        )
        return parser

    common(actions.add_parser("list", help="every slot: name, date, play time, NPCs, format"))
    show = common(actions.add_parser("show", help="one slot in detail, with NPC event counts"))
    show.add_argument("slot")
    delete = common(actions.add_parser("delete", help="delete a slot (needs --yes)"))
    delete.add_argument("slot")
    delete.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")
    export = common(actions.add_parser("export", help="write a slot into a zip file"))
    export.add_argument("slot")
    export.add_argument("file", type=Path, help="the zip to write, e.g. my-save.zip")
    export.add_argument("--force", action="store_true", help="overwrite an existing file")
    imp = common(actions.add_parser("import", help="unpack a slot from a zip file"))
    imp.add_argument("file", type=Path, help="a zip written by `saves export`")
    imp.add_argument("slot", nargs="?", default=None, help="slot name (default: the archive's)")
    imp.add_argument("--force", action="store_true", help="replace an existing slot")


def run_saves(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run a `saves` action; returns the exit code (2 with one line on stderr on failure)."""
    out = out or sys.stdout
    root = saves_dir(getattr(args, "saves_dir", None))
    try:
        tidy_saves(root)  # what a killed import, delete or export left is put right first
        action = args.saves_action
        if action == "list":
            _list(root, out)
        elif action == "show":
            _show(root, args.slot, out)
        elif action == "delete":
            slot = validate_id(args.slot, "slot name")
            if not args.yes:
                raise SaveError(f"deleting slot {slot!r} cannot be undone: add --yes to confirm")
            delete_slot(root, slot)
            print(f"deleted slot {slot!r}", file=out)
        elif action == "export":
            files = export_slot(root, args.slot, args.file, force=args.force)
            print(f"exported slot {args.slot!r} ({len(files)} files) to {args.file}", file=out)
        elif action == "import":
            notes: list[str] = []
            slot, files = import_slot(root, args.file, args.slot, force=args.force, notes=notes)
            print(f"imported slot {slot!r} ({len(files)} files) into {root}", file=out)
            for note in notes:
                print(f"note: {note}", file=out)
        else:  # argparse makes this unreachable
            raise SaveError(f"unknown action {action!r}")
    except (SaveError, ValueError) as exc:
        print(f"error: {clean_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def format_play_time(seconds: float) -> str:
    """Play time as h:mm:ss."""
    total = int(max(0.0, seconds))
    return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"


def format_date(ts: float) -> str:
    """A local date and time, or "-" when unknown."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts > 0 else "-"


def _list(root: Path, out: TextIO) -> None:
    infos = list_slots(root)
    if not infos:
        print(f"no saves in {root}", file=out)
        return
    rows = [("SLOT", "NAME", "SAVED", "PLAY TIME", "NPCS", "FORMAT", "STATUS")]
    for info in infos:
        status = "ok" if info.error is None and not info.warnings else "damaged"
        if info.error is not None:
            status = "cannot load"
        rows.append(
            (
                info.slot,
                _clip(clean_line(info.name), 24),
                format_date(info.updated),
                format_play_time(info.play_time_s),
                str(info.npc_count),
                "?" if info.format is None else str(info.format),
                status,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip(), file=out
        )
    for info in infos:
        for problem in ([info.error] if info.error else []) + info.warnings:
            print(f"note: {clean_line(problem)}", file=out)


def _show(root: Path, slot: str, out: TextIO) -> None:
    info = slot_info(root, slot)
    lines = [
        f"slot:       {info.slot}",
        f"name:       {clean_line(info.name)}",
        f"path:       {clean_line(str(info.path))}",
        f"format:     {'?' if info.format is None else info.format}",
        f"map:        {clean_line(info.map_id) or '-'}",
        f"player:     {clean_line(info.player_name) or '-'}",
        f"created:    {format_date(info.created)}",
        f"saved:      {format_date(info.updated)}",
        f"play time:  {format_play_time(info.play_time_s)}",
        f"thumbnail:  {info.thumbnail.name if info.thumbnail else '-'}",
    ]
    counts = npc_event_counts(root, info.slot)
    lines.append(f"NPCs:       {len(counts)}")
    for npc_id, count in counts.items():
        lines.append(f"  {npc_id:<16} {'unreadable' if count < 0 else f'{count} events'}")
    if info.error:
        lines.append(f"error:      {clean_line(info.error)}")
    lines.extend(f"warning:    {clean_line(w)}" for w in info.warnings)
    print("\n".join(lines), file=out)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
