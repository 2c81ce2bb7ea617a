"""The rooms of the architecture: only game/ui imports arcade; game/world stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"
DRAWING = {"arcade", "pyglet"}
IMPURE_FOR_WORLD = DRAWING | {"asyncio", "httpx", "httpx_sse", "socket", "threading"}


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


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import arcade.gui\nfrom pyglet import gl\n")
    assert imported_roots(sample) == {"arcade", "pyglet"}


def test_ui_does_import_arcade() -> None:
    assert any(imported_roots(p) & DRAWING for p in modules("ui"))
