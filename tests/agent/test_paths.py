"""Ids and locations: no id can escape the slot directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.paths import (
    APP_NAME,
    InvalidId,
    npc_events_file,
    npc_memory_file,
    npc_session_dir,
    npc_state_file,
    saves_dir,
    slot_dir,
    slot_path,
    user_cache_dir,
    user_config_dir,
    user_data_dir,
    validate_id,
)


@pytest.mark.parametrize("value", ["a", "slot-1", "npc_07", "x" * 64, "0", "-", "_"])
def test_valid_ids_pass_through(value: str) -> None:
    assert validate_id(value) == value


@pytest.mark.parametrize(
    "value",
    ["", "x" * 65, "..", "../etc", "a/b", "a\\b", "Mira", "a b", "é", "a.b", "a\x00", "/abs", "~"],
)
def test_invalid_ids_are_refused_with_the_value_and_the_rule(value: str) -> None:
    with pytest.raises(InvalidId) as caught:
        validate_id(value, "NPC id")
    message = str(caught.value)
    assert repr(value) in message
    assert "[a-z0-9_-]{1,64}" in message
    assert "NPC id" in message
    assert isinstance(caught.value, ValueError)


def test_non_strings_are_refused() -> None:
    with pytest.raises(InvalidId):
        validate_id(7)  # type: ignore[arg-type]


@given(st.text(max_size=80))
def test_a_valid_id_never_leaves_its_directory(value: str) -> None:
    base = Path("/saves")
    try:
        path = npc_session_dir(base, "slot", value)
    except InvalidId:
        return
    assert path.parent.parent == base / "slot" / "npcs"
    assert path.name == "session"
    assert ".." not in path.parts


def test_slot_and_session_dirs(tmp_path: Path) -> None:
    assert slot_dir(tmp_path, "one") == tmp_path / "one"
    assert (
        npc_session_dir(tmp_path, "one", "mira") == tmp_path / "one" / "npcs" / "mira" / "session"
    )
    with pytest.raises(InvalidId):
        slot_dir(tmp_path, "../one")
    with pytest.raises(InvalidId):
        npc_session_dir(tmp_path, "one", "../../x")


def test_every_slot_path_comes_from_slot_path(tmp_path: Path) -> None:
    one = tmp_path / "one"
    assert slot_path(tmp_path, "one") == one
    assert slot_path(tmp_path, "one", "world.json") == one / "world.json"
    assert npc_events_file(tmp_path, "one", "mira") == (
        one / "npcs" / "mira" / "session" / "events.jsonl"
    )
    assert (
        npc_state_file(tmp_path, "one", "mira") == one / "npcs" / "mira" / "session" / "state.json"
    )
    assert (
        npc_memory_file(tmp_path, "one", "mira") == one / "npcs" / "mira" / "memory" / "summary.txt"
    )
    with pytest.raises(InvalidId, match="slot id"):
        slot_path(tmp_path, "../one", "world.json")
    with pytest.raises(InvalidId, match="slot id"):
        npc_memory_file(tmp_path, "../one", "../x")  # the slot is checked first
    with pytest.raises(InvalidId, match="NPC id"):
        npc_events_file(tmp_path, "one", "../x")


def test_saves_dir_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NPC_VILLAGE_SAVES_DIR", raising=False)
    assert saves_dir() == user_data_dir() / "saves"
    monkeypatch.setenv("NPC_VILLAGE_SAVES_DIR", str(tmp_path / "env"))
    assert saves_dir() == tmp_path / "env"
    assert saves_dir(tmp_path / "explicit") == tmp_path / "explicit"


def test_user_dirs_are_named_after_the_app() -> None:
    assert APP_NAME == "npc-village"
    for directory in (user_data_dir(), user_config_dir(), user_cache_dir()):
        assert APP_NAME in directory.parts
