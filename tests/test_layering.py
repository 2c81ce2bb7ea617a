"""The rooms of the architecture: only game/ui imports arcade; game/world stays pure;
game/agent knows nothing of the game; game/save imports neither game/npc nor game/ui;
every import points down the order of rooms (`LAYERS`), and no modules import each other
in a circle (a strongly connected group of the import graph, TYPE_CHECKING imports
included)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"
DRAWING = {"arcade", "pyglet"}
IMPURE_FOR_WORLD = DRAWING | {"asyncio", "httpx", "httpx_sse", "socket", "threading"}
# What each package must not import (under TYPE_CHECKING neither: a type is a dependency).
# The agent runtime holds no game content: the persona brain lives in game/npc for that.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "agent": ("game.npc", "game.world", "game.save", "game.ui"),
    "save": ("game.npc", "game.ui"),
}


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


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_down_only(package: str) -> None:
    forbidden = FORBIDDEN[package]
    offenders = {
        str(p.relative_to(GAME)): sorted(m for m in imported_modules(p) if within(m, forbidden))
        for p in modules(package)
        if any(within(m, forbidden) for m in imported_modules(p))
    }
    assert not offenders, f"game/{package} must not import {forbidden}: {offenders}"


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import arcade.gui\nfrom pyglet import gl\n")
    assert imported_roots(sample) == {"arcade", "pyglet"}


@pytest.mark.parametrize(
    ("source", "package", "module"),
    [
        ("import game.npc.brain", "game.save", "game.npc.brain"),
        ("from game.npc.agents import NpcAgents", "game.save", "game.npc.agents"),
        ("from game import ui", "game.save", "game.ui"),
        ("from ..npc import skills", "game.save", "game.npc.skills"),
        ("from ...world.grid import Grid", "game.agent.providers", "game.world.grid"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.ui import menus",
            "game.save",
            "game.ui",
        ),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.save.cli import S",
            "game.agent",
            "game.save.cli",
        ),
    ],
)
def test_the_checker_sees_every_way_in(source: str, package: str, module: str) -> None:
    found = imports_of(source, package)
    root = package.split(".")[1]
    assert module in found and any(within(m, FORBIDDEN[root]) for m in found)


def test_the_checker_tells_a_package_from_its_prefix() -> None:
    assert not any(
        within(m, FORBIDDEN["save"]) for m in imports_of("import game.npcs", "game.save")
    )
    assert imports_of("from . import base", "game.agent.providers") >= {"game.agent.providers"}


def test_ui_does_import_arcade() -> None:
    assert any(imported_roots(p) & DRAWING for p in modules("ui"))


# --- modules of one idea each: small, and no import circles -------------------------------

MAX_LINES = 500


def module_name(path: Path) -> str:
    parts = path.relative_to(GAME.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(
    sources: dict[str, str], packages: frozenset[str] = frozenset()
) -> dict[str, set[str]]:
    """module -> the modules of `sources` it imports. A package (named in `packages`) is its
    `__init__`; `from game.x import y` counts as game.x.y when that is a module."""
    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        package = name if name in packages else name.rpartition(".")[0]
        found: set[str] = set()
        for module in imports_of(source, package):
            while module and module not in sources:
                module = module.rpartition(".")[0]
            if module and module != name:
                found.add(module)
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group: list[str] = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(p.relative_to(GAME)): n
        for p in GAME.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: split them by idea: {long}"


def test_no_import_circles_in_game() -> None:
    found = circles(game_graph())
    assert not found, f"import circles (TYPE_CHECKING imports count): {found}"


def test_the_circle_finder_sees_a_circle_through_type_checking() -> None:
    sources = {
        "game.a": "from game.b import B",
        "game.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.c import C",
        "game.c": "from . import a",
        "game.d": "import game.a",
    }
    assert circles(import_graph(sources)) == [["game.a", "game.b", "game.c"]]


# --- the order of the rooms: every import points down ------------------------------------

# game/'s rooms (its packages, and its top-level modules), lowest first. A module may import
# its own room and the rooms of lower layers; an import of a room in its own layer or above
# is an arrow up. Imports under TYPE_CHECKING count (a type is a dependency).
LAYERS: tuple[tuple[str, ...], ...] = (
    # pure data and helpers every room may use
    ("game", "errors", "limits", "text", "tokens", "wording", "gestures", "urls", "signals"),
    ("files", "safe_json", "paths"),  # files someone handed us, JSON, the saves' paths
    ("atomic",),  # the one crash-safe writer (reads through files)
    ("world",),  # pure: the map, the day, the commands
    ("agent", "bridge", "assets"),  # the runtime (knows no world); the mailbox; the art
    ("config",),  # the settings (reads the provider registry)
    ("providers", "npc", "save"),  # selection from the settings; the villagers; the slots
    ("harness", "village"),  # a world and a runtime on one thread; the assembly
    ("eval", "chat", "models", "doctor"),  # the commands built on them
    ("ui",),  # the only room that draws
    ("cli",),  # the command line, over everything
)


def room_of(module: str) -> str:
    """The room of a module of game/: its package, or the top-level module itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def arrows_up(graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...]) -> list[str]:
    """Each import from one room to another that is not in a lower layer."""
    level = {room: i for i, rooms in enumerate(layers) for room in rooms}
    return sorted(
        f"{module} -> {other}"
        for module, others in graph.items()
        for other in others
        if room_of(module) != room_of(other) and level[room_of(other)] >= level[room_of(module)]
    )


def game_graph() -> dict[str, set[str]]:
    paths = sorted(GAME.rglob("*.py"))
    sources = {module_name(p): p.read_text(encoding="utf-8") for p in paths}
    packages = frozenset(module_name(p) for p in paths if p.name == "__init__.py")
    return import_graph(sources, packages)


def test_every_room_has_one_place_in_the_order() -> None:
    placed = [room for rooms in LAYERS for room in rooms]
    rooms = {room_of(module) for module in game_graph()}
    assert len(placed) == len(set(placed)), "a room placed twice in LAYERS"
    assert rooms == set(placed), (
        f"rooms without a place in LAYERS: {sorted(rooms - set(placed))}; "
        f"places of rooms that are gone: {sorted(set(placed) - rooms)}"
    )


def test_every_import_points_down_the_order() -> None:
    found = arrows_up(game_graph(), LAYERS)
    assert not found, f"imports up the order of rooms (LAYERS): {found}"


def test_the_order_check_sees_an_arrow_up_and_a_sideways_one() -> None:
    sources = {
        "game.world.grid": "from game.npc.brain import Brain",  # up
        "game.npc.brain": "from game.world.grid import Grid\nimport game.save.keeper",
        "game.save.keeper": "from game.npc import brain",  # sideways: a peer of npc
        "game.save": "",
        "game.limits": "",
        "game.npc.cues": "from . import brain\nfrom game.limits import X",  # its own room, down
    }
    graph = import_graph(sources, frozenset({"game.save"}))
    assert arrows_up(graph, LAYERS) == [
        "game.npc.brain -> game.save.keeper",
        "game.save.keeper -> game.npc.brain",
        "game.world.grid -> game.npc.brain",
    ]


# game/agent is a runtime that knows nothing of villages: no village word and no skill's
# name in its identifiers or string literals (docstrings and comments may explain).
VILLAGE_WORDS = re.compile(r"(?i)(?<![a-z])(hollowbrook|villagers?|villages?)(?![a-z])")
APP_NAMES = re.compile(r"(?i)npc[-_]village")  # the app's own name (env vars, dirs)


def _skill_names() -> frozenset[str]:
    from game.npc.skills import SKILLS

    return frozenset(SKILLS)


def game_words(source: str, skills: frozenset[str]) -> list[str]:
    """The village words and skill names a module's code (not its docstrings) holds."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: list[str] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue
            if node.value in skills:
                found.append(f"line {node.lineno}: the skill name {node.value!r}")
            names.append(node.value)
        elif isinstance(node, ast.Name):
            names.append(node.id)
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.alias):
            names.append(node.asname or node.name)
        for name in names:
            words = re.sub(r"([a-z])([A-Z])", r"\1 \2", APP_NAMES.sub("", name)).replace("_", " ")
            if VILLAGE_WORDS.search(words):
                found.append(f"line {getattr(node, 'lineno', '?')}: {name[:60]!r}")
    return found


def test_the_agent_runtime_holds_no_village_words_or_skill_names() -> None:
    skills = _skill_names()
    offenders = {
        str(p.relative_to(GAME)): words
        for p in modules("agent")
        if (words := game_words(p.read_text(encoding="utf-8"), skills))
    }
    assert not offenders, f"game/agent must not know the village or its skills: {offenders}"


@pytest.mark.parametrize(
    "source",
    [
        'GREETING = "Welcome to the village!"',
        "class VillagerFact: ...",
        "def summary(villagers): ...",
        "x = facts.villagers",
        "from game.agent.facts import VillagerFact",
        'name = "Hollowbrook"',
        'if call.name == "say": ...',
        'SPEAKING = ("move", "emote")',
    ],
)
def test_the_word_check_sees_a_village_word_or_a_skill_name(source: str) -> None:
    assert game_words(source, frozenset({"say", "move", "emote"}))


@pytest.mark.parametrize(
    "source",
    [
        '"""The village\'s runtime: say, move."""',
        "FAULT = 'NPC_VILLAGE_LLAMA_FAULT'",
        'APP = "npc-village"',
        "# the village, in a comment",
        'x = "sayings"',
    ],
)
def test_the_word_check_leaves_docstrings_and_the_app_name_alone(source: str) -> None:
    assert not game_words(source, frozenset({"say", "move", "emote"}))
