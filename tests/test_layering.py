"""The rooms of the architecture: only game/ui imports arcade; game/world stays pure;
game/agent (the runtime) knows nothing of the game it runs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"
DRAWING = {"arcade", "pyglet"}
IMPURE_FOR_WORLD = DRAWING | {"asyncio", "httpx", "httpx_sse", "socket", "threading"}
# The agent runtime holds no game content: it imports none of these (under TYPE_CHECKING
# neither). The persona brain lives in game/npc for that reason.
NOT_FOR_AGENT = ("game.npc", "game.world", "game.save", "game.ui")
# TODO(world/save): game/agent still imports these from game.world / game.save; another
# change moves them out. Remove an entry once its import is gone (the test says when).
# Every other import of game.world or game.save under game/agent fails the test now.
AGENT_TODO: set[tuple[str, str]] = set()


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant):
                roots.add(str(node.args[0].value).split(".")[0])
    return roots


def imported_names(path: Path, root: Path = GAME.parent) -> list[tuple[int, str]]:
    """(line, name) for every name an import brings in, in full: `from a.b import c` is
    `a.b.c`, and relative imports are resolved against `path`'s package under `root`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(root).parts[:-1])
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant):
                names.append((node.lineno, str(node.args[0].value)))
    return names


def _under(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def modules(package: str) -> list[Path]:
    return sorted((GAME / package).rglob("*.py")) if package else sorted(GAME.glob("*.py"))


@pytest.mark.parametrize("package", ["world", "agent", "npc", "save", ""])
def test_only_ui_imports_arcade(package: str) -> None:
    offenders = [p for p in modules(package) if imported_roots(p) & DRAWING]
    assert not offenders, f"arcade/pyglet imported outside game/ui: {offenders}"


def test_world_is_pure() -> None:
    offenders = {
        str(p.relative_to(GAME)): sorted(imported_roots(p) & IMPURE_FOR_WORLD)
        for p in modules("world")
        if imported_roots(p) & IMPURE_FOR_WORLD
    }
    assert not offenders, f"game/world must stay pure: {offenders}"


def test_agent_knows_nothing_of_the_game() -> None:
    found = {
        (str(p.relative_to(GAME)), name): line
        for p in modules("agent")
        for line, name in imported_names(p)
        if _under(name, NOT_FOR_AGENT)
    }
    offenders = [
        f"{f}:{line} imports {name}"
        for (f, name), line in found.items()
        if (f, name) not in AGENT_TODO
    ]
    assert not offenders, f"game/agent must not import {NOT_FOR_AGENT}: {offenders}"
    gone = sorted(AGENT_TODO - found.keys())
    assert not gone, f"no longer imported: remove from AGENT_TODO in this test: {gone}"


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import arcade.gui\nfrom pyglet import gl\n")
    assert imported_roots(sample) == {"arcade", "pyglet"}


def test_the_checker_sees_full_names_also_under_type_checking(tmp_path: Path) -> None:
    sample = tmp_path / "game" / "agent" / "providers" / "m.py"
    sample.parent.mkdir(parents=True)
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "import game.ui.app\n"
        "from game import npc\n"
        "from ...world.grid import Grid\n"
        "from . import base\n"
        "if TYPE_CHECKING:\n"
        "    from game.save.slot import SaveResult\n"
    )
    names = [name for _, name in imported_names(sample, root=tmp_path)]
    assert "game.agent.providers.base" in names
    assert {n for n in names if _under(n, NOT_FOR_AGENT)} == {
        "game.ui.app",
        "game.npc",
        "game.world.grid.Grid",
        "game.save.slot.SaveResult",
    }


def test_ui_does_import_arcade() -> None:
    assert any(imported_roots(p) & DRAWING for p in modules("ui"))
