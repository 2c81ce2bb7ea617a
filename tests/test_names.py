"""Skill names and intent kinds are declared once: code refers to the declaration.

A skill's name is said only in its module of game/npc/skills/ (`MOVE.name`, `SKILLS`), an
intent kind only in game/npc/reading/kinds.py (`Kind.GO`). This test reads every module of
game/ and fails on a bare string literal that is such a name where code uses it as one:
compared with, looked up by (a subscript or `.get`), or passed as a `name`, `tool`,
`skill` or `kind`. Docstrings and comments are prose and are not read.
"""

from __future__ import annotations

import ast
from pathlib import Path

from game.npc.reading.kinds import Kind
from game.npc.skills import SKILLS

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"
SKILL_DECLARATIONS = {f"game/npc/skills/{m}.py" for m in ("base", "board")} | {
    f"game/npc/skills/{name}.py" for name in SKILLS
}
KIND_DECLARATION = "game/npc/reading/kinds.py"
# Words that are also a name here but mean something else in that file.
OTHER_MEANING = {
    ("game/cli.py", "chat"): "the chat command",
    ("game/agent/providers/local/client/provider.py", "chat"): "the chat prompt format",
    ("game/agent/providers/local/worker/engine.py", "chat"): "the chat prompt format",
}
NAMED_BY = {"name", "tool", "skill", "kind"}  # keyword arguments that take a name


def names() -> dict[str, str]:
    """Every declared name -> what it is."""
    found = {kind.value: "intent kind" for kind in Kind}
    found.update({name: "skill name" for name in SKILLS})
    return found


def used_as_names(tree: ast.AST) -> list[ast.Constant]:
    """The string literals a module uses as a name (see the module docstring)."""
    out: list[ast.Constant] = []

    def strings(node: ast.AST) -> list[ast.Constant]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node]
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return [c for e in node.elts for c in strings(e)]
        return []

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                out += strings(operand)
        elif isinstance(node, ast.Subscript):
            if not (isinstance(node.value, ast.Name) and node.value.id == "Literal"):
                out += strings(node.slice)  # a Literal declares words of its own
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
                out += strings(node.args[0])
            out += [c for kw in node.keywords if kw.arg in NAMED_BY for c in strings(kw.value)]
    return out


def offences() -> list[str]:
    """Where a name is a bare literal outside its declaration."""
    declared = names()
    found: list[str] = []
    for path in sorted(GAME.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for const in used_as_names(ast.parse(path.read_text(encoding="utf-8"))):
            what = declared.get(const.value)
            if what is None or (rel, const.value) in OTHER_MEANING:
                continue
            if what == "skill name" and rel in SKILL_DECLARATIONS:
                continue
            if what == "intent kind" and rel == KIND_DECLARATION:
                continue
            found.append(f"{rel}:{const.lineno}: {const.value!r} is a {what}")
    return found


def test_skill_names_and_intent_kinds_are_not_spelled_outside_their_declaration() -> None:
    found = offences()
    assert not found, "refer to the declaration (MOVE.name, Kind.GO):\n" + "\n".join(found)


def test_the_test_sees_a_name_used_as_one() -> None:
    tree = ast.parse(
        'if call.name == "move" or kind in ("go", "x"):\n'
        '    SKILLS["say"]; registry.get("ask"); f(kind="gesture")\n'
        '"""move"""  # a docstring-like literal used as nothing\n'
        'text = "look"  # a word in a sentence, not used as a name\n'
        'Category = Literal["go", "look"]  # a vocabulary of its own\n'
    )
    assert sorted(c.value for c in used_as_names(tree)) == [
        "ask",
        "gesture",
        "go",
        "move",
        "say",
        "x",
    ]
