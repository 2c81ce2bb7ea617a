"""JSON from outside is refused past its depth bound before anything recurses into it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.limits import MAX_JSON_DEPTH
from game.safe_json import JsonTooDeep, check_depth, load_json

scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=40,
)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


@given(values, st.integers(min_value=0, max_value=8))
def test_the_measured_depth_is_the_nesting(value: Any, limit: int) -> None:
    text = json.dumps(value)
    if depth(value) > limit:
        with pytest.raises(JsonTooDeep):
            check_depth(text, limit)
    else:
        check_depth(text, limit)
        assert load_json(text, limit) == value


def test_a_hundred_thousand_nested_arrays_are_one_value_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ValueError, match="nested more than 64 levels"):
        load_json(deep)
    with pytest.raises(ValueError, match="nested more than"):
        load_json(deep.encode(), limit=10**6)  # past the interpreter's own depth too


def test_brackets_in_strings_and_escapes_do_not_count() -> None:
    text = json.dumps({"say": "[" * 500 + '\\"{' * 300, "list": [[["ok"]]]})
    assert load_json(text)["list"] == [[["ok"]]]


def test_the_bound_itself_loads() -> None:
    at = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert depth(load_json(at)) == MAX_JSON_DEPTH
    with pytest.raises(JsonTooDeep):
        load_json("[" + at + "]")


def test_damaged_text_is_still_json_s_value_error() -> None:
    with pytest.raises(ValueError):
        load_json(b"\xff{")
    with pytest.raises(json.JSONDecodeError):
        load_json("{")
