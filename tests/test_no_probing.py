"""Nothing in game/ asks a provider what it can do by probing it: no getattr/hasattr of a
provider's attributes (its capabilities and the base class's methods say it), and no
isinstance against a provider class or protocol in their place."""

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
