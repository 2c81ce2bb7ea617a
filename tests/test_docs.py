"""docs/architecture.md stays true to the code: its package tree lists every module of
game/, and nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRY = re.compile(r"^( *)([a-z_]+/|[a-z_]+\.py(?:, [a-z_]+\.py)*)(?:\s|$)")


def listed(doc: str) -> set[str]:
    """The paths the tree under "## Packages and their rooms" names, by indentation."""
    block = doc.split("## Packages and their rooms", 1)[1].split("```")[1]
    folders: list[tuple[int, str]] = []  # (indent, name) of the folders we are in
    paths: set[str] = set()
    for line in block.splitlines():
        found = ENTRY.match(line)
        if found is None:
            continue
        indent = len(found[1])
        while folders and folders[-1][0] >= indent:
            folders.pop()
        where = "/".join(name for _, name in folders)
        for name in found[2].split(", "):
            if name.endswith("/"):
                folders.append((indent, name.rstrip("/")))
            else:
                paths.add(f"{where}/{name}" if where else name)
    return paths


def test_the_architecture_lists_every_module() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = {p for p in listed(doc) if p.startswith("game/")}
    modules = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "game").rglob("*.py")
        if p.name != "__init__.py" or p.parent.name == "game"
    }
    assert not modules - named, f"modules missing from docs/architecture.md: {modules - named}"
    assert not named - modules, f"docs/architecture.md names what is gone: {named - modules}"


def test_the_reader_follows_the_tree() -> None:
    doc = """## Packages and their rooms
```
run_game.py             thin
game/
  cli.py                argparse: play, chat
  world/                pure
    grid.py             A*
    a.py, b.py          two at once
  ui/
    app.py              window
```
"""
    assert listed(doc) == {
        "run_game.py",
        "game/cli.py",
        "game/world/grid.py",
        "game/world/a.py",
        "game/world/b.py",
        "game/ui/app.py",
    }
