"""Nothing in game/ asks a provider what it can do by probing it: no getattr/hasattr of a
provider's attributes (its capabilities and the base class's methods say it), and no
isinstance against a provider class or protocol in their place. Nor does it probe any of
its own objects: what they have, their types say; the few probes left are of the standard
library's and third parties' objects, each allowed with why (`ALLOWED`)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from game.agent.providers.base import Provider
from game.agent.providers.registry import Capabilities

GAME = Path(__file__).resolve().parents[1] / "game"
# Everything the contract gives a provider, what its wrappers hold, and the capabilities'
# names (a probe of `serial` is a probe even though providers no longer have one).
PROVIDER_ATTRIBUTES = (
    {name for name in dir(Provider) if not name.startswith("_")}
    | set(Provider.__annotations__)
    | {field.name for field in dataclasses.fields(Capabilities)}
    | {"primary", "fallback", "fallbacks", "inner"}
)


def probes(source: str) -> list[str]:
    """Each probe in `source`: getattr/hasattr of a provider attribute named by a string,
    and isinstance/issubclass against a class whose name says it is a provider."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        call, args = node.func.id, node.args
        if call in ("getattr", "hasattr") and len(args) >= 2:
            name = args[1]
            if isinstance(name, ast.Constant) and name.value in PROVIDER_ATTRIBUTES:
                found.append(f"line {node.lineno}: {call}(..., {name.value!r})")
        elif call in ("isinstance", "issubclass") and len(args) == 2:
            kinds = args[1].elts if isinstance(args[1], ast.Tuple) else [args[1]]
            for kind in kinds:
                label = kind.id if isinstance(kind, ast.Name) else getattr(kind, "attr", "")
                if label.endswith("Provider") or label == "ProviderStream":
                    found.append(f"line {node.lineno}: {call}(..., {label})")
    return found


def test_the_scan_finds_probes() -> None:
    source = """
serial = getattr(chosen.primary, "serial", False)
if hasattr(provider, "prime"):
    pass
if isinstance(p, (FallbackProvider, int)):
    pass
if isinstance(p, base.Provider):
    pass
published = getattr(record, "published", False)
value = getattr(settings, field)
"""
    assert probes(source) == [
        "line 2: getattr(..., 'serial')",
        "line 3: hasattr(..., 'prime')",
        "line 5: isinstance(..., FallbackProvider)",
        "line 7: isinstance(..., Provider)",
    ]


def test_nothing_in_game_probes_a_provider() -> None:
    assert {"stream", "aclose", "prime", "load", "notice", "crash_line", "stats"} <= (
        PROVIDER_ATTRIBUTES
    )
    offenders = {
        str(path.relative_to(GAME)): found
        for path in sorted(GAME.rglob("*.py"))
        if (found := probes(path.read_text(encoding="utf-8")))
    }
    assert not offenders, f"providers probed instead of asked (capabilities): {offenders}"


# --- the project's own objects ----------------------------------------------------------

# Every getattr/hasattr in game/ that probes (a hasattr, a getattr of a name written as a
# string, or a getattr with a default) of something that is not a module imported from the
# standard library or a third party: each with why it may. The project's own objects
# say what they have by their types; the count of those probed is 0.
ALLOWED: dict[tuple[str, str], str] = {
    ("cli.py", "getattr(record, 'published', False)"): (
        "a logging.LogRecord: `published` is there only on records logged with it in `extra`"
    ),
    ("cli.py", "hasattr(args, name)"): "an argparse.Namespace: each command has its options",
    ("cli.py", "getattr(args, 'day_minutes', None)"): "an argparse.Namespace: play's option",
    ("save/cli.py", "getattr(args, 'saves_dir', None)"): "an argparse.Namespace: not all have",
    ("ui/__init__.py", "hasattr(_arcade, 'ControllerManager')"): (
        "the arcade module, imported by name for a headless run"
    ),
    ("ui/models_page.py", "getattr(widget, 'text', None)"): "an arcade.gui widget",
    ("ui/settings_view.py", "getattr(widget, 'text', None)"): "an arcade.gui widget",
    ("world/tiled_day.py", "getattr(obj, 'gid', None)"): (
        "a pytiled_parser object: only a tile object has a gid"
    ),
    ("world/tiled_day.py", "getattr(obj, 'class_', '')"): (
        "a pytiled_parser object: its class, where the version names it `class_`"
    ),
}


def _modules_imported(tree: ast.Module) -> set[str]:
    """The names a module binds to modules of the standard library or a third party."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "game":
                    names.add(alias.asname or alias.name.split(".")[0])
    return names


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def object_probes(source: str) -> list[str]:
    """Each probe in `source` of something other than an imported outside module, written
    as the call reads (`ast.unparse`): a hasattr; a getattr of a name in quotes or with a
    default. A getattr of a name held in a variable, with no default, is a lookup."""
    tree = ast.parse(source)
    modules = _modules_imported(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        call, args = node.func.id, node.args
        if call not in ("getattr", "hasattr") or len(args) < 2:
            continue
        probing = call == "hasattr" or isinstance(args[1], ast.Constant) or len(args) > 2
        if probing and _root(args[0]) not in modules:
            found.append(ast.unparse(node))
    return found


def test_the_object_scan_finds_probes_and_leaves_modules_and_lookups() -> None:
    source = """
import os
import arcade.key
from game.world import entities
flags = getattr(os, "O_BINARY", 0)
known = hasattr(arcade.key, name)
data = getattr(outcome, "data", None)
mood = getattr(npc, "activity")
value = getattr(settings, field)
other = getattr(entities, "Npc")
if hasattr(record, name):
    pass
"""
    assert object_probes(source) == [
        "getattr(outcome, 'data', None)",
        "getattr(npc, 'activity')",
        "getattr(entities, 'Npc')",
        "hasattr(record, name)",
    ]


def test_nothing_in_game_probes_its_own_objects() -> None:
    found = {
        (str(path.relative_to(GAME)), call)
        for path in sorted(GAME.rglob("*.py"))
        for call in object_probes(path.read_text(encoding="utf-8"))
    }
    probed = sorted(found - ALLOWED.keys())
    assert not probed, f"objects probed instead of typed (0 allowed): {probed}"
    stale = sorted(ALLOWED.keys() - found)
    assert not stale, f"allowed probes that are gone (drop them from ALLOWED): {stale}"
