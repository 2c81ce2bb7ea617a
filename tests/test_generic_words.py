"""Generic means generic: no word of Hollowbrook in the code and data under game/.

The words are read from the shipped map (maps/village.tmx): its name, its NPCs' ids and
names, the names of its places that are not places any village may have (`ANY_PLACE`), and
the things its personas, greetings and wares name: those issue 37 named (`THINGS`) and
every other word of those texts that is not a word any village may use (`ORDINARY`, and
the places any village may have).

A hit is such a word, whole and in any case (with its plural), in a string constant, an
identifier or a JSON data file under game/. Exempt: the eval's scenarios (they talk to
Hollowbrook's people), docstrings, comments, and the help of the command line (argparse's
`help=`, `description=`, `epilog=`). A hit is counted once per word, file and line.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from game.world.tiled import load_map

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
VILLAGE = ROOT / "maps" / "village.tmx"
EXEMPT_DIRS = (GAME / "eval" / "scenarios", GAME / "data")  # the suite's talks; the build's maps

# Places any village may have: a village's own kinds of place are the other names.
ANY_PLACE = frozenset(
    "plaza market square well garden bridge pond beach dock orchard cottage house home yard "
    "field meadow farm road lane path gate hill river stream lake shore harbour street town "
    "village green hall shop inn tavern mill chapel church wood woods forest board".split()
)
# The things Hollowbrook's people are made of, as issue 37 names them (more are derived).
THINGS = frozenset(
    [*"anvil oven bun loaf pebble heron dragon compass silk shanty".split(), "music box"]
)
# Words any village's people may use: the rest of its personas', greetings' and wares' words
# are Hollowbrook's things. People by their trade are here: a trade is not a thing.
ORDINARY = frozenset(
    # little words
    "about always and any anywhere are but can cannot did ever every everyone everything "
    "few for from has have her here his its like little long one over own past she that "
    "the there they this today when where while who will with won you ah hmph shh whoa never "
    # doing
    "answers ask asks bakes being biting care collects come dreams earn keeps knows likes "
    "lives make mind notices offering opens plays points prefers remembers resist rested "
    "seen sit speaks spends stand stay stays step still takes talk taste uses wait watches "
    "welcome work worries "
    # being so
    "blunt certain charming cheerful closer curious discerning distant east fierce finest "
    "first fresh full gentle good gruff harmless honest hundred idle kindly last old oldest "
    "patient quick quiet quietly ready restless short slowly straight tall warm wise "
    "favourite forgotten shiny "
    # people, their trades and their ways
    "adventurer blacksmith child customer elder fisher friend merchant newcomers traveller "
    "travelling chatter company crowds gossip haggle patience peace pride respect voice "
    "words questions story tale tongue "
    # the world, time and things any village has
    "before bit box bread cakes cart dawn days minute morning mountains music river road "
    "sea side silver something towns water wares iron".split()
)


# Hollowbrook's words that mean something else too, and where they do: no hit there.
OTHER_SENSES: dict[str, Callable[[str, str], bool]] = {
    # the package installer, in a line the player is told to run
    "pip": lambda kind, text: re.search(r"\bpip install\b", text) is not None,
    # the eight directions an NPC points in (game/world/perception.py's `compass`)
    "compass": lambda kind, text: kind == "identifier",
}


@cache
def terms() -> dict[str, str]:
    """Each Hollowbrook word or phrase (words joined by one space) and why it is one."""
    village = load_map(VILLAGE)
    found: dict[str, str] = {village.name.lower(): "the map's name"}
    for npc in village.npcs:
        found[npc.npc_id.lower()] = "an NPC's id"
        found[" ".join(words(npc.name))] = "an NPC's name"
    for place in village.places:
        if place not in ANY_PLACE:
            found[" ".join(words(place))] = "a place of its own"
    for thing in THINGS:
        found[thing] = "a thing its people name"
    for npc in village.npcs:
        for text in (npc.persona, npc.greeting, npc.properties.get("wares", "")):
            for word in words(text):
                known = any(form in found for form in forms(word))  # "pebbles": "pebble"
                if len(word) > 2 and word not in ORDINARY | ANY_PLACE and not known:
                    found[word] = "a word of its personas, greetings or wares"
    return found


def words(text: str) -> list[str]:
    """The words of a text or an identifier, lower case: `fisher_hut`, `FisherHut` and
    "Fisher hut" are all `fisher hut`."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return [w.lower() for w in re.findall(r"[A-Za-z]+", spaced)]


def forms(word: str) -> set[str]:
    """A word with its plural or singular: loaf/loaves, pebble/pebbles, pastry/pastries."""
    out = {word, word + "s", word + "es"}
    if word.endswith("y"):
        out.add(word[:-1] + "ies")
    if word.endswith("f"):
        out.add(word[:-1] + "ves")
    if word.endswith("ies"):
        out.add(word[:-3] + "y")
    if word.endswith("ves"):
        out.add(word[:-3] + "f")
    if word.endswith("s"):
        out.add(word[:-1])
    return out


@cache
def matchers() -> list[tuple[str, re.Pattern[str]]]:
    """Each term and the pattern that finds it in a text's words joined by spaces."""
    out = []
    for term in sorted(terms()):
        *head, last = term.split()
        ends = "|".join(sorted(re.escape(f) for f in forms(last)))
        lead = "".join(re.escape(w) + " " for w in head)
        out.append((term, re.compile(rf"(?<![a-z]){lead}(?:{ends})(?![a-z])")))
    return out


@cache
def firsts() -> frozenset[str]:
    """Every word a term may begin with, in all its spellings."""
    return frozenset(f for term in terms() for f in forms(term.split()[0]) | {term.split()[0]})


def hollowbrook_in(text: str, kind: str = "string") -> list[str]:
    """The Hollowbrook terms a text (a `string`, an `identifier`, JSON `data`) holds."""
    said = words(text)
    if not firsts() & set(said):  # most texts: no word any term begins with
        return []
    joined = " ".join(said)
    return [
        term
        for term, pattern in matchers()
        if pattern.search(joined) and not (term in OTHER_SENSES and OTHER_SENSES[term](kind, text))
    ]


# --- what generic code holds --------------------------------------------------------------

HELP_CALLS = frozenset({"add_argument", "add_parser", "ArgumentParser", "add_argument_group"})
HELP_KEYWORDS = frozenset({"help", "description", "epilog"})


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _help_strings(tree: ast.AST) -> set[int]:
    """The ids of every node under a command line's help= (description=, epilog=)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in HELP_CALLS:
            for keyword in node.keywords:
                if keyword.arg in HELP_KEYWORDS:
                    out.update(id(n) for n in ast.walk(keyword.value))
    return out


def python_texts(path: Path) -> Iterator[tuple[int, str, str]]:
    """Each string constant and identifier of a module: (line, kind, text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _docstrings(tree) | _help_strings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skipped:
                yield line, "string", node.value
        elif isinstance(node, ast.Name):
            yield line, "identifier", node.id
        elif isinstance(node, ast.Attribute):
            yield line, "identifier", node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, "identifier", node.name
        elif isinstance(node, ast.arg):
            yield line, "identifier", node.arg
        elif isinstance(node, ast.keyword) and node.arg is not None:
            yield line, "identifier", node.arg
        elif isinstance(node, ast.alias):
            yield line, "identifier", node.asname or node.name


def json_texts(path: Path) -> Iterator[tuple[int, str, str]]:
    """Each key and string of a JSON file, with the line it is on."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()

    def line_of(value: str, start: int) -> int:
        needle = json.dumps(value, ensure_ascii=False)
        for number in range(start, len(lines)):
            if needle in lines[number]:
                return number + 1
        return start + 1

    cursor = 0

    def walk(node: Any) -> Iterator[tuple[int, str, str]]:
        nonlocal cursor
        if isinstance(node, str):
            cursor = line_of(node, cursor) - 1
            yield cursor + 1, "data", node
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)
        elif isinstance(node, dict):
            for key, value in node.items():
                cursor = line_of(key, cursor) - 1
                yield cursor + 1, "data", key
                yield from walk(value)

    yield from walk(json.loads(text))


def generic_files() -> list[Path]:
    """The code and JSON data under game/, less the exempt folders."""
    found = sorted([*GAME.rglob("*.py"), *GAME.rglob("*.json")])
    return [p for p in found if not any(p.is_relative_to(d) for d in EXEMPT_DIRS)]


@cache
def hits() -> tuple[str, ...]:
    """Every Hollowbrook word in generic code: `file:line: kind 'word'`, once per line."""
    out: dict[str, None] = {}
    for path in generic_files():
        texts = python_texts(path) if path.suffix == ".py" else json_texts(path)
        for line, kind, text in texts:
            for term in hollowbrook_in(text, kind):
                out[f"{path.relative_to(ROOT)}:{line}: {kind} {term!r}"] = None
    return tuple(out)


def report() -> str:
    """The hits, with the files holding most of them first."""
    found = hits()
    by_file = Counter(h.split(":", 1)[0] for h in found)
    top = ", ".join(f"{name} {count}" for name, count in by_file.most_common(8))
    return f"{len(found)} Hollowbrook words in generic code (most in: {top}):\n" + "\n".join(found)


# --- the tests ----------------------------------------------------------------------------


def test_the_words_come_from_the_map() -> None:
    found = terms()
    for npc in ("brenna", "tobin", "maren", "wren", "pip", "cassius", "hollowbrook"):
        assert npc in found, npc
    for place in ("bakery", "forge", "fisher hut", "elder house"):
        assert found.get(place) == "a place of its own", place
    assert not {"plaza", "market", "well", "pond", "dock", "cottage"} & set(found)
    for derived in ("crust", "pastry", "blades", "trinket", "curiosities", "honey"):
        assert found.get(derived) == "a word of its personas, greetings or wares", derived


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Fresh buns and a warm LOAF!", ["bun", "loaf"]),
        ("loaves", ["loaf"]),
        ("go to the fisher_hut", ["fisher hut"]),
        ("FisherHut", ["fisher hut"]),
        ("bakery_words", ["bakery"]),
        ("Pip's dragon", ["dragon", "pip"]),
        ("a bunny by the ovenbird", []),  # whole words only
        ("the fisher's hut", []),  # a phrase is its words in a row
        ("the well by the plaza and the market", []),
        ("the elder_house", ["elder house"]),
        ("Hollowbrook", ["hollowbrook"]),
    ],
)
def test_a_word_is_found_whole_in_any_case_and_any_spelling(text: str, expected: list[str]) -> None:
    assert hollowbrook_in(text) == expected


def test_docstrings_comments_and_help_are_exempt(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        '"""The bakery."""\n'
        "import argparse\n"
        "# the forge\n"
        "def f(oven: int) -> str:\n"
        '    """Tobin\'s oven."""\n'
        '    argparse.ArgumentParser(description="Ask Wren").add_argument("-x", help="forge")\n'
        '    return "a bun"\n'
        "class Forge:\n"
        "    anvil = f\n",
        encoding="utf-8",
    )
    found = sorted(
        (line, kind, term)
        for line, kind, text in python_texts(source)
        for term in hollowbrook_in(text, kind)
    )
    assert found == [
        (4, "identifier", "oven"), (7, "string", "bun"),
        (8, "identifier", "forge"), (9, "identifier", "anvil"),
    ]  # fmt: skip


def test_no_hollowbrook_words_in_generic_code() -> None:
    assert not hits(), report()
