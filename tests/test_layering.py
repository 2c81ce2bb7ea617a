"""The rooms of the architecture: only game/ui imports arcade; game/world stays pure;
game/save imports neither game/npc nor game/ui."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"
DRAWING = {"arcade", "pyglet"}
IMPURE_FOR_WORLD = DRAWING | {"asyncio", "httpx", "httpx_sse", "socket", "threading"}
ABOVE_SAVE = ("game.npc", "game.ui")


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


def imports_of(source: str, package: str) -> set[str]:
    """Every module `source` (a module of `package`) imports, dotted in full, relative
    imports resolved. Imports under `if TYPE_CHECKING:` count: a type is a dependency."""
    parts = package.split(".")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = parts[: len(parts) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # from game import ui
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant):
                found.add(str(node.args[0].value))
    return found


def imported_modules(path: Path) -> set[str]:
    package = ".".join(path.relative_to(GAME.parent).parts[:-1])
    return imports_of(path.read_text(encoding="utf-8"), package)


def within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


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


def test_save_imports_neither_npc_nor_ui() -> None:
    offenders = {
        str(p.relative_to(GAME)): sorted(m for m in imported_modules(p) if within(m, ABOVE_SAVE))
        for p in modules("save")
        if any(within(m, ABOVE_SAVE) for m in imported_modules(p))
    }
    assert not offenders, f"game/save must not import game.npc or game.ui: {offenders}"


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import arcade.gui\nfrom pyglet import gl\n")
    assert imported_roots(sample) == {"arcade", "pyglet"}


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("import game.npc.brain", "game.npc.brain"),
        ("from game.npc.brain import NpcAgents", "game.npc.brain"),
        ("from game import ui", "game.ui"),
        ("from ..npc import skills", "game.npc.skills"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.ui import menus",
            "game.ui",
        ),
    ],
)
def test_the_checker_sees_every_way_into_npc_and_ui(source: str, module: str) -> None:
    found = imports_of(source, "game.save")
    assert module in found and any(within(m, ABOVE_SAVE) for m in found)


def test_the_checker_tells_a_package_from_its_prefix() -> None:
    assert not any(within(m, ABOVE_SAVE) for m in imports_of("import game.npcs", "game.save"))


def test_ui_does_import_arcade() -> None:
    assert any(imported_roots(p) & DRAWING for p in modules("ui"))
