"""One exception tree: every exception class the game defines descends from `GameError`,
so the command line, which catches the root, turns each into one line. (A `BaseException`
that is no `Exception`, like the test fake's `UnexpectedCall`, is a signal, not an error.)"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

from game.errors import GameError

GAME = Path(__file__).resolve().parents[1] / "game"
BUILTIN_EXCEPTIONS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, Exception)
}


def exception_classes(root: Path) -> dict[str, tuple[str, set[str]]]:
    """Every class under `root` with a base that is an exception: name -> (file, bases)."""
    classes: dict[str, tuple[str, set[str]]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                }
                classes[node.name] = (str(path.relative_to(root.parent)), bases)
    exceptions: dict[str, tuple[str, set[str]]] = {}
    grew = True
    while grew:  # a class is an exception when one of its bases is
        grew = False
        for name, (file, bases) in classes.items():
            if name not in exceptions and bases & (BUILTIN_EXCEPTIONS | set(exceptions)):
                exceptions[name] = (file, bases)
                grew = True
    return exceptions


def rooted(name: str, exceptions: dict[str, tuple[str, set[str]]]) -> bool:
    if name == "GameError":
        return True
    bases = exceptions.get(name, ("", set()))[1]
    return any(rooted(base, exceptions) for base in bases if base in exceptions)


def test_every_exception_of_the_game_descends_from_game_error() -> None:
    exceptions = exception_classes(GAME)
    assert len(exceptions) > 20  # the walk finds the tree: save, world, agent, providers
    strays = sorted(
        f"{file}: {name}" for name, (file, _) in exceptions.items() if not rooted(name, exceptions)
    )
    assert not strays, f"exceptions outside the GameError tree: {strays}"


def test_the_walk_sees_a_stray(tmp_path: Path) -> None:
    package = tmp_path / "game"
    package.mkdir()
    (package / "m.py").write_text(
        "class GameError(Exception): ...\nclass Good(GameError): ...\n"
        "class Deeper(Good, KeyError): ...\nclass Stray(ValueError): ...\n"
    )
    exceptions = exception_classes(package)
    assert [n for n in exceptions if not rooted(n, exceptions)] == ["Stray"]


def test_the_package_roots_are_game_errors() -> None:
    from game.agent.errors import AgentError
    from game.agent.providers.errors import ProviderFailure
    from game.config import ConfigError
    from game.paths import InvalidId
    from game.save.errors import SaveError
    from game.world.errors import WorldError

    for root in (AgentError, ProviderFailure, ConfigError, InvalidId, SaveError, WorldError):
        assert issubclass(root, GameError), root
