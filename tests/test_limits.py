"""The docs state the bounds `game/limits.py` holds: one row of ROWS per bound a player may
meet, checked in every doc that lists it (the README's "Limits", `saves/README.md`'s "Size
bounds"). A row of those tables that no entry here checks is a failure too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.limits import (
    GB,
    KB,
    MAX_CLOCK_S,
    MAX_CONFIG_BYTES,
    MAX_COORD,
    MAX_DAY_MINUTES,
    MAX_DOWNLOAD_BYTES,
    MAX_DOWNLOAD_REDIRECTS,
    MAX_EVENT_BYTES,
    MAX_ID_CHARS,
    MAX_IMAGE_PX,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_INDEX_BYTES,
    MAX_IMPORT_MEMBERS,
    MAX_JSON_DEPTH,
    MAX_LAYER_TILES,
    MAX_MAP_FILE_BYTES,
    MAX_MAP_IMAGE_PIXELS,
    MAX_MAP_LAYERS,
    MAX_MAP_NODES,
    MAX_MAP_NPCS,
    MAX_MAP_OBJECTS,
    MAX_MAP_TILES,
    MAX_NAME_CHARS,
    MAX_NPC_PROPERTIES,
    MAX_NPC_PROPERTY_CHARS,
    MAX_NPC_PROPERTY_NAME,
    MAX_PATH_CHARS,
    MAX_REJECTED_BYTES,
    MAX_REPLY_CHARS,
    MAX_SAVED_IDS,
    MAX_SAVED_NEWS,
    MAX_SAVED_PASSES,
    MAX_SAVED_POSTS,
    MAX_SCRIPT_BYTES,
    MAX_SCRIPT_FRAME,
    MAX_SHORT_CHARS,
    MAX_SUMMARY_CHARS,
    MAX_TEXT_CHARS,
    MAX_THUMBNAIL_PIXELS,
    MAX_TILE_PX,
    MAX_TOOL_ARGS_CHARS,
    MAX_TOOL_CALLS,
    MAX_TOOL_NAME_CHARS,
    MAX_UNIX_TIME,
    MB,
    NPC_TEXT_CHARS,
    PROFILE_PLACES,
    PROFILE_VILLAGERS,
    SHEET_ITEMS,
    SHEET_PHRASE_CHARS,
    SLOT_FILE_BYTES,
)

ROOT = Path(__file__).resolve().parents[1]
# Each doc, and the heading of the section whose `| what | bound |` table lists bounds.
DOCS = {"README.md": "## Limits", "saves/README.md": "### Size bounds"}
SLOT = ("README.md", "saves/README.md")
README = ("README.md",)


def size(n: int) -> str:
    """A byte count as the docs write it: "64 KB", "16 MB", "1 GB"."""
    for unit, name in ((GB, "GB"), (MB, "MB"), (KB, "KB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n:,} bytes"


def number(n: float) -> str:
    """A whole number as the docs write it: "1,000,000"."""
    assert n == int(n)
    return f"{int(n):,}"


THUMBNAIL = f"{size(SLOT_FILE_BYTES['thumbnail.png'])}, and {number(MAX_THUMBNAIL_PIXELS)} pixels"
SUMMARY = (
    f"{size(SLOT_FILE_BYTES['summary.txt'])} (the first {number(MAX_SUMMARY_CHARS)} characters"
)
ID = "an id (an NPC, `player`, a piece of news, a board)"
NAME = "a name (the player's, a slot's, an NPC's, a board's)"
MEMBERS = (
    "members of an import zip (folders included: `8 * 1000 NPCs + 32`), read from its end "
    "record before anything else; no member named twice"
)
NODES = "XML elements, or JSON objects and arrays, in one of those files"
IMAGES = "a map's images (tilesets, image layers), all together"
PROPERTIES = f"{MAX_NPC_PROPERTIES}, each named in at most {MAX_NPC_PROPERTY_NAME} characters"
SCRIPT = f"{size(MAX_SCRIPT_BYTES)}, and frames up to {number(MAX_SCRIPT_FRAME)}"
SHEET_LIST = "items of one list of a character sheet (likes, beliefs, opinions, ...)"
OTHER_PROPERTY = "any other property of an NPC (`home`, `work`, `description`, your own)"


def chars(n: int) -> str:
    """A length as the docs write it: "2,000 characters"."""
    return f"{n:,} characters"


def chars_of(*keys: str) -> str:
    """The length the docs write for NPC properties sharing one row: all must agree."""
    bounds = {NPC_TEXT_CHARS[k] for k in keys}
    return chars(bounds.pop()) if len(bounds) == 1 else f"differ: {sorted(bounds)}"


# (the row's first cell, what its bound cell says, the docs that list it). One line a row.
ROWS: list[tuple[str, str, tuple[str, ...]]] = [
    ("`meta.json`", size(SLOT_FILE_BYTES["meta.json"]), SLOT),
    ("`world.json` (and `.bak`)", size(SLOT_FILE_BYTES["world.json"]), SLOT),
    ("`news.json`, `board.json`, `feelings.json`", size(SLOT_FILE_BYTES["news.json"]), SLOT),
    ("`thumbnail.png`", THUMBNAIL, SLOT),
    ("`world_summary.txt`, `memory/summary.txt`", SUMMARY, SLOT),
    ("`state.json`", size(SLOT_FILE_BYTES["state.json"]), SLOT),
    ("`events.jsonl`", size(SLOT_FILE_BYTES["events.jsonl"]), SLOT),
    ("a line of `events.jsonl`", size(MAX_EVENT_BYTES), SLOT),
    ("an import zip, its files added up", size(MAX_IMPORT_BYTES), SLOT),
    ("a `.rejected` file", size(MAX_REJECTED_BYTES), SLOT),
    ("JSON nesting, in any file", f"{MAX_JSON_DEPTH} levels", SLOT),
    ("the clock and play time", f"{number(MAX_CLOCK_S)} seconds", SLOT),
    ("the time of day", f"{number(MAX_DAY_MINUTES)} game minutes", SLOT),
    ("the dates of a save", number(MAX_UNIX_TIME), SLOT),
    ("a tile's x and y", f"-{number(MAX_COORD)} to {number(MAX_COORD)}", SLOT),
    (ID, f"{MAX_ID_CHARS} characters", SLOT),
    (NAME, f"{MAX_NAME_CHARS} characters", SLOT),
    ("a place, a when, a key, a reason, a map id", f"{MAX_SHORT_CHARS} characters", SLOT),
    ("a piece of news, a post", f"{number(MAX_TEXT_CHARS)} characters", SLOT),
    ("the map's path", f"{number(MAX_PATH_CHARS)} characters", SLOT),
    ("pieces of news, and pieces one character knows", number(MAX_SAVED_NEWS), SLOT),
    ("passes of news", number(MAX_SAVED_PASSES), SLOT),
    ("posts of one board", number(MAX_SAVED_POSTS), SLOT),
    ("NPCs, boards, pairs of characters in one file", number(MAX_SAVED_IDS), SLOT),
    (MEMBERS, number(MAX_IMPORT_MEMBERS), SLOT),
    ("an import zip's list of members", size(MAX_IMPORT_INDEX_BYTES), SLOT),
    # a map and its NPCs
    ("the map, and each tileset, template and image it names", size(MAX_MAP_FILE_BYTES), README),
    (NODES, number(MAX_MAP_NODES), README),
    ("tiles of one layer (and the map's width x height)", number(MAX_LAYER_TILES), README),
    ("tiles of all layers", number(MAX_MAP_TILES), README),
    ("layers, groups included", number(MAX_MAP_LAYERS), README),
    ("a tile's width and height", f"{MAX_TILE_PX} pixels", README),
    ("objects in all object layers", number(MAX_MAP_OBJECTS), README),
    ("NPCs (objects in the layer `npcs`)", number(MAX_MAP_NPCS), README),
    ("an image's width and height", f"{MAX_IMAGE_PX} pixels", README),
    (IMAGES, f"{number(MAX_MAP_IMAGE_PIXELS)} pixels", README),
    ("an NPC's name (its object name or `name` property)", chars(NPC_TEXT_CHARS["name"]), README),
    ("an NPC's `persona`", chars(NPC_TEXT_CHARS["persona"]), README),
    ("an NPC's `greeting`", chars(NPC_TEXT_CHARS["greeting"]), README),
    ("an NPC's `wares`", chars(NPC_TEXT_CHARS["wares"]), README),
    ("an NPC's `plan`", chars(NPC_TEXT_CHARS["plan"]), README),
    ("an NPC's `role`", chars(NPC_TEXT_CHARS["role"]), README),
    (
        "an NPC's `likes`, `dislikes`, `fears`, `refuses`",
        chars_of("likes", "dislikes", "fears", "refuses"),
        README,
    ),
    ("an NPC's `beliefs`, `opinions`", chars_of("beliefs", "opinions"), README),
    ("an NPC's `talks`", chars(NPC_TEXT_CHARS["talks"]), README),
    (SHEET_LIST, f"{SHEET_ITEMS}; more are left out", README),
    ("one phrase of a character sheet", chars(SHEET_PHRASE_CHARS), README),
    (OTHER_PROPERTY, chars(MAX_NPC_PROPERTY_CHARS), README),
    ("properties of one NPC", PROPERTIES, README),
    ("villagers an NPC knows of (on a map of more)", str(PROFILE_VILLAGERS), README),
    ("places an NPC knows by heart (on a map of more)", str(PROFILE_PLACES), README),
    # what a model sends back
    ("what a model says in one turn (plain text)", chars(MAX_REPLY_CHARS), README),
    ("the arguments of one tool call a model makes", chars(MAX_TOOL_ARGS_CHARS), README),
    ("tool calls in one model response", str(MAX_TOOL_CALLS), README),
    ("a tool call's name or id", chars(MAX_TOOL_NAME_CHARS), README),
    # downloads and files handed to the game
    ("a model file pulled (`models pull`, `--model hf://...`)", size(MAX_DOWNLOAD_BYTES), README),
    ("a pull's disk", "the size the hub declares", README),
    ("redirects from the hub to a model file", str(MAX_DOWNLOAD_REDIRECTS), README),
    ("`config.toml`, `.env`", size(MAX_CONFIG_BYTES), README),
    ("a `--script` key script", SCRIPT, README),
]


def table(doc: str) -> dict[str, str]:
    """The `| what | bound |` rows of a doc's bounds section: first cell -> second."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    heading = DOCS[doc]
    assert heading in text, f"{doc} has no {heading!r} section"
    section = text.split(heading, 1)[1]
    level = heading.split()[0]
    section = re.split(rf"^{level} ", section, maxsplit=1, flags=re.MULTILINE)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0] not in ("what", "---"):
            rows[cells[0]] = cells[1]
    return rows


@pytest.mark.parametrize(("what", "bound", "docs"), ROWS, ids=[row[0] for row in ROWS])
def test_the_docs_state_each_bound_of_the_table(what: str, bound: str, docs: tuple[str]) -> None:
    for doc in docs:
        rows = table(doc)
        assert what in rows, f"{doc} lists no bound for {what}: add the row `| {what} | ... |`"
        assert rows[what].startswith(bound), f"{doc} says {what}: {rows[what]!r}, not {bound!r}"


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_every_bound_a_doc_lists_is_checked(doc: str) -> None:
    checked = {what for what, _, docs in ROWS if doc in docs}
    unchecked = set(table(doc)) - checked
    assert not unchecked, f"{doc} lists bounds tests/test_limits.py does not check: {unchecked}"


def test_the_slot_rows_say_the_same_in_both_docs() -> None:
    slot = [what for what, _, docs in ROWS if docs == SLOT]
    readme, saves = table("README.md"), table("saves/README.md")
    assert {what: readme[what] for what in slot} == {what: saves[what] for what in slot}
