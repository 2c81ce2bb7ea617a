"""Every bound of a slot (`game.limits`, the slot section) walked at its edge.

At a bound a value reads, saves and reads back the same. Just past it costs one warning
and that record set aside (a record of a life file: `<file>.rejected` after the next
save) or that file (world.json, meta.json, a file past its size: `<file>.damaged`, and
the previous save loads); everything else is kept.
"""

from __future__ import annotations

import copy
import json
import math
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.limits import (
    MAX_CLOCK_S,
    MAX_COORD,
    MAX_DAY_MINUTES,
    MAX_ID_CHARS,
    MAX_NAME_CHARS,
    MAX_PATH_CHARS,
    MAX_SAVED_IDS,
    MAX_SAVED_NEWS,
    MAX_SAVED_PASSES,
    MAX_SAVED_POSTS,
    MAX_SHORT_CHARS,
    MAX_TEXT_CHARS,
    MAX_UNIX_TIME,
    SLOT_FILE_BYTES,
)
from game.save.format import NpcState, PlayerState, SavedWorld
from game.save.slot_io import SlotData, read_slot, write_slot

SLOT = "edge"
EDGE = settings(max_examples=60, deadline=None)

NEWS_ITEM = {"kind": "lost", "origin": "player", "origin_name": "Ada", "subject": "a red key",
             "place": "well", "when": "", "hour": None, "key": "key", "clock": 2.0}  # fmt: skip
HEARD = {"source": "player", "source_name": "Ada", "clock": 2.0, "place": "bakery", "how": "told"}
PASS = {"news_id": "n-key", "source": "player", "to": "tobin", "clock": 2.0, "hour": 21.0,
        "place": "bakery", "how": "told"}  # fmt: skip
POST = {"index": 0, "author": "brenna", "author_name": "Brenna", "clock": 6.0, "hour": 21.2,
        "about": "n-key", "text": "Lost: a red key."}  # fmt: skip
FEELING = {"value": 0.3, "reason": "told me her name", "name": "Ada", "changes": 1, "clock": 2.0}
LIFE: dict[str, dict[str, Any]] = {
    "news.json": {
        "format": 2,
        "news": {"n-key": NEWS_ITEM},
        "known": {"tobin": {"n-key": HEARD}},
        "told": {"tobin>brenna": ["n-key"]},
        "passes": [PASS],
    },
    "board.json": {
        "format": 2,
        "boards": {
            "notice_board": {
                "participants": ["*"],
                "name": "notice_board",
                "tile": [3, 4],
                "posts": [POST],
                "count": 1,
            },
        },
    },
    "feelings.json": {"format": 2, "of": {"tobin": {"player": FEELING}}},
}


@contextmanager
def slot_with(files: dict[str, dict[str, Any]] | None = None) -> Iterator[Path]:
    """A saves dir with a played slot (world.json, its .bak, meta.json) and `files`."""
    with tempfile.TemporaryDirectory() as tmp:
        saves = Path(tmp)
        world = SavedWorld(
            map_id="village", clock=60.0, player=PlayerState(tile=(3, 4), name="Ada"),
            npcs={"tobin": NpcState(tile=(5, 6))},
        )  # fmt: skip
        for _ in range(2):  # the second keeps the first as world.json.bak
            assert write_slot(saves, SLOT, world, fsync=False).ok
        for name, data in (files or LIFE).items():
            (saves / SLOT / name).write_text(json.dumps(data))
        yield saves


def saved_again(saves: Path, data: SlotData) -> SlotData:
    """Save what was read, then read it back."""
    assert data.world is not None
    result = write_slot(saves, SLOT, data.world, life=data.life, fsync=False)
    assert result.ok, result.message
    return read_slot(saves, SLOT)


def world_fields(data: SlotData) -> dict[str, Any]:
    assert data.world is not None
    return data.world.model_dump(exclude={"saved_at", "sessions"})


def near(bound: float) -> st.SearchStrategy[float]:
    """Numbers at, just under and just past `bound`."""
    step = max(abs(bound) * 1e-9, 1e-9)
    return st.sampled_from(
        [bound, math.nextafter(bound, math.inf), math.nextafter(bound, 0.0)]
    ) | st.floats(bound - 4 * step, bound + 4 * step, allow_nan=False)


def chars(bound: int) -> st.SearchStrategy[str]:
    """Texts of one character repeated, from two under `bound` to two past it."""
    letter = st.characters(codec="utf-8", exclude_categories=["Cs"])
    return st.builds(lambda c, n: c * n, letter, st.integers(bound - 2, bound + 2))


# --- world.json: the file is the record ------------------------------------------------


def _set(path: str) -> Callable[[dict[str, Any], Any], None]:
    def put(world: dict[str, Any], value: Any) -> None:
        *parents, last = path.split(".")
        for part in parents:
            world = world[part]
        world[last] = value

    return put


WORLD_EDGES: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], bool], str]] = {
    # field: (values near its bound, whether a value is within it, where it is)
    "clock": (near(MAX_CLOCK_S), lambda v: 0 <= v <= MAX_CLOCK_S, "clock"),
    "time_minutes": (near(MAX_DAY_MINUTES), lambda v: 0 <= v <= MAX_DAY_MINUTES, "time_minutes"),
    "saved_at": (near(MAX_UNIX_TIME), lambda v: 0 <= v <= MAX_UNIX_TIME, "saved_at"),
    "x": (st.integers(MAX_COORD - 2, MAX_COORD + 2), lambda v: v <= MAX_COORD, "player.tile"),
    "-y": (st.integers(-MAX_COORD - 2, -MAX_COORD + 2), lambda v: v >= -MAX_COORD, "player.tile"),
    "name": (chars(MAX_NAME_CHARS), lambda v: len(v) <= MAX_NAME_CHARS, "player.name"),
    "map_id": (chars(MAX_SHORT_CHARS), lambda v: len(v) <= MAX_SHORT_CHARS, "map_id"),
    "map_file": (chars(MAX_PATH_CHARS), lambda v: len(v) <= MAX_PATH_CHARS, "map_file"),
}


@EDGE
@given(st.sampled_from(sorted(WORLD_EDGES)), st.data())
def test_world_json_at_and_past_each_bound(edge: str, draw: st.DataObject) -> None:
    values, within, where = WORLD_EDGES[edge]
    value = draw.draw(values, label=edge)
    with slot_with() as saves:
        path = saves / SLOT / "world.json"
        world = json.loads(path.read_text())
        if edge == "x":
            value_at = [value, 4]
        elif edge == "-y":
            value_at = [3, value]
        else:
            value_at = value
        _set(where)(world, value_at)
        path.write_text(json.dumps(world))
        data = read_slot(saves, SLOT)
        if within(value):
            assert not data.warnings, data.warnings
            assert data.world is not None
            assert _get(data.world.model_dump(), where) == _get(world, where)
            again = saved_again(saves, data)
            assert not again.warnings and world_fields(again) == world_fields(data)
            return
        assert len(data.warnings) == 1 and "world.json is damaged" in data.warnings[0]
        assert data.from_backup and world_fields(data)["clock"] == 60.0  # the previous save
        bad = path.read_bytes()
        again = saved_again(saves, data)
        assert (saves / SLOT / "world.json.damaged").read_bytes() == bad
        assert not again.warnings and again.life == data.life


def _get(data: dict[str, Any], path: str) -> Any:
    for part in path.split("."):
        data = data[part]
    return list(data) if isinstance(data, tuple) else data


@EDGE
@given(st.integers(-1, 1))
def test_world_json_naming_npcs_up_to_the_bound(offset: int) -> None:
    with slot_with() as saves:
        path = saves / SLOT / "world.json"
        world = json.loads(path.read_text())
        world["npcs"] = {f"n{i}": {"tile": [i, 0]} for i in range(MAX_SAVED_IDS + offset)}
        path.write_text(json.dumps(world))
        data = read_slot(saves, SLOT)
        if offset <= 0:
            assert not data.warnings and data.world is not None
            assert len(data.world.npcs) == MAX_SAVED_IDS + offset
            assert world_fields(saved_again(saves, data)) == world_fields(data)
        else:
            assert len(data.warnings) == 1 and "more than 10,000" in data.warnings[0]


# --- life files: a record is the record ------------------------------------------------


def _news_item(files: dict[str, Any], field: str, value: Any) -> Any:
    files["news.json"]["news"]["n-edge"] = {**NEWS_ITEM, "subject": "edge", field: value}
    return files["news.json"]["news"]["n-edge"]


def _news_id(files: dict[str, Any], _: str, value: str) -> Any:
    files["news.json"]["news"][value] = {**NEWS_ITEM, "subject": "edge"}
    return files["news.json"]["news"][value]


def _heard(files: dict[str, Any], field: str, value: Any) -> Any:
    files["news.json"]["known"]["brenna"] = {"n-key": {**HEARD, field: value}}
    return files["news.json"]["known"]["brenna"]["n-key"]


def _pass(files: dict[str, Any], field: str, value: Any) -> Any:
    files["news.json"]["passes"].append({**PASS, field: value})
    return files["news.json"]["passes"][-1]


def _post(files: dict[str, Any], field: str, value: Any) -> Any:
    posts = files["board.json"]["boards"]["notice_board"]["posts"]
    posts.append({**POST, "index": 1, field: value})
    return posts[-1]


def _board_tile(files: dict[str, Any], _: str, value: int) -> Any:
    board = {"participants": ["*"], "name": "other", "tile": [value, -value], "posts": []}
    files["board.json"]["boards"]["other"] = board
    return board


def _feeling(files: dict[str, Any], field: str, value: Any) -> Any:
    files["feelings.json"]["of"]["tobin"]["brenna"] = {**FEELING, field: value}
    return files["feelings.json"]["of"]["tobin"]["brenna"]


Put = Callable[[dict[str, Any], str, Any], Any]
LIFE_EDGES: dict[str, tuple[str, Put, str, st.SearchStrategy[Any], Callable[[Any], bool]]] = {
    # edge: (file, put the record, its field, values near the bound, whether within)
    "subject": ("news.json", _news_item, "subject", chars(MAX_TEXT_CHARS),
                lambda v: len(v) <= MAX_TEXT_CHARS),
    "origin": ("news.json", _news_item, "origin", chars(MAX_ID_CHARS),
               lambda v: len(v) <= MAX_ID_CHARS),
    "news id": ("news.json", _news_id, "", chars(MAX_ID_CHARS), lambda v: len(v) <= MAX_ID_CHARS),
    "news clock": ("news.json", _news_item, "clock", near(MAX_CLOCK_S),
                   lambda v: v <= MAX_CLOCK_S),
    "heard place": ("news.json", _heard, "place", chars(MAX_SHORT_CHARS),
                    lambda v: len(v) <= MAX_SHORT_CHARS),
    "heard name": ("news.json", _heard, "source_name", chars(MAX_NAME_CHARS),
                   lambda v: len(v) <= MAX_NAME_CHARS),
    "pass hour": ("news.json", _pass, "hour", near(24.0), lambda v: v <= 24.0),
    "post text": ("board.json", _post, "text", chars(MAX_TEXT_CHARS),
                  lambda v: len(v) <= MAX_TEXT_CHARS),
    "board tile": ("board.json", _board_tile, "", st.integers(MAX_COORD - 2, MAX_COORD + 2),
                   lambda v: v <= MAX_COORD),
    "feeling": ("feelings.json", _feeling, "value", near(1.0), lambda v: v <= 1.0),
    "reason": ("feelings.json", _feeling, "reason", chars(MAX_SHORT_CHARS),
               lambda v: len(v) <= MAX_SHORT_CHARS),
}  # fmt: skip


@EDGE
@given(st.sampled_from(sorted(LIFE_EDGES)), st.data())
def test_a_life_record_at_and_past_each_bound(edge: str, draw: st.DataObject) -> None:
    name, put, field, values, within = LIFE_EDGES[edge]
    value = draw.draw(values, label=edge)
    with slot_with() as saves:
        base = read_slot(saves, SLOT)
        files = copy.deepcopy(LIFE)
        record = put(files, field, value)
        (saves / SLOT / name).write_text(json.dumps(files[name]))
        data = read_slot(saves, SLOT)
        if within(value):
            assert not data.warnings, data.warnings
            assert data.life != base.life  # the record is there
            again = saved_again(saves, data)
            assert not again.warnings and again.life == data.life
            return
        assert len(data.warnings) == 1, data.warnings
        assert re.search(rf"\b1 of [\d,]+ records of {re.escape(name)}", data.warnings[0])
        assert data.life == base.life  # every other record, and only those
        saved_again(saves, data)
        aside = (saves / SLOT / f"{name}.rejected").read_text().splitlines()
        assert [json.loads(line)["record"] for line in aside] == [record]
        assert not read_slot(saves, SLOT).warnings


COUNT_EDGES: dict[str, tuple[str, int, Callable[[dict[str, Any], int], None]]] = {
    # edge: (file, bound, make that many records)
    "news": ("news.json", MAX_SAVED_NEWS, lambda f, n: f["news.json"].update(
        news={f"n-{i}": {**NEWS_ITEM, "subject": f"key {i}"} for i in range(n)})),
    "passes": ("news.json", MAX_SAVED_PASSES, lambda f, n: f["news.json"].update(
        passes=[{**PASS, "clock": float(i)} for i in range(n)])),
    "posts": ("board.json", MAX_SAVED_POSTS, lambda f, n: f["board.json"]["boards"][
        "notice_board"].update(posts=[{**POST, "index": i} for i in range(n)], count=n)),
    "feelings": ("feelings.json", MAX_SAVED_IDS, lambda f, n: f["feelings.json"].update(
        of={"tobin": {f"npc-{i}": FEELING for i in range(n)}})),
}  # fmt: skip


@pytest.mark.parametrize("offset", [-1, 0, 1, 2])  # every count around the edge
@pytest.mark.parametrize("edge", sorted(COUNT_EDGES))
def test_records_up_to_each_count_bound(edge: str, offset: int) -> None:
    name, bound, make = COUNT_EDGES[edge]
    files = copy.deepcopy(LIFE)
    make(files, bound + offset)
    with slot_with(files) as saves:
        data = read_slot(saves, SLOT)
        if offset <= 0:
            assert not data.warnings, data.warnings
            again = saved_again(saves, data)
            assert not again.warnings and again.life == data.life
            return
        assert len(data.warnings) == 1
        assert re.search(rf"\b{offset} of [\d,]+ records of {re.escape(name)}", data.warnings[0])
        saved_again(saves, data)
        aside = (saves / SLOT / f"{name}.rejected").read_text().splitlines()
        assert len(aside) == offset
        again = read_slot(saves, SLOT)
        assert not again.warnings and again.life == data.life


# --- file sizes ------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["meta.json", "world.json", *LIFE]), st.integers(-1, 1))
def test_a_file_at_and_past_its_size_bound(name: str, offset: int) -> None:
    with slot_with() as saves:
        path = saves / SLOT / name
        before = read_slot(saves, SLOT)
        raw = path.read_bytes().rstrip()
        size = SLOT_FILE_BYTES[name] + offset
        padded = raw + b" " * (size - len(raw))  # whitespace: the same JSON, that many bytes
        path.write_bytes(padded)
        data = read_slot(saves, SLOT)
        if offset <= 0:
            assert not data.warnings, data.warnings
            assert data.life == before.life and world_fields(data) == world_fields(before)
            assert world_fields(saved_again(saves, data)) == world_fields(data)
            return
        assert len(data.warnings) == 1 and f"{name} is damaged" in data.warnings[0]
        assert "more than the" in data.warnings[0]
        assert world_fields(data) == world_fields(before)  # world.json: the previous save
        again = saved_again(saves, data)
        assert (saves / SLOT / f"{name}.damaged").read_bytes() == padded
        assert not again.warnings
