"""The scenario files: they load, validate, cover the categories; a bad file is one line."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from game.errors import UsageError
from game.eval.scenarios import (
    CATEGORIES,
    HOME,
    LINE_CATEGORIES,
    IdleStep,
    OverheardStep,
    load_file,
    load_scenarios,
    load_villages,
    select,
)
from game.eval.suite import check
from game.world.tiled import load_map
from game.world.world import World

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
GESTURES = {"wave", "nod", "shake_head", "laugh", "think"}


def test_hollowbrooks_scenarios_cover_every_category_and_every_npc(tmp_path: Path) -> None:
    scenarios = load_scenarios()
    assert len(scenarios) >= 40
    # The kinds judged by their line came with the other villages: Hollowbrook asks them
    # as `villagers` and `persona`, as it was written; villagers talking came to all three.
    expected = set(CATEGORIES) - LINE_CATEGORIES | {"villager_talk"}
    assert set(Counter(s.category for s in scenarios)) == expected
    world = World(load_map(VILLAGE))
    assert {s.npc for s in scenarios} == set(world.npcs)
    asked = {
        name
        for s in scenarios
        if s.category == "gesture"
        for f in s.fits
        for name in f.accepted("name") or []
    }
    assert asked == GESTURES  # each of the five gestures is asked for
    long_talks = [s for s in scenarios if s.category == "long_talk"]
    assert long_talks and all(len(s.lines) >= 10 for s in long_talks)
    assert any(isinstance(step, OverheardStep) for s in scenarios for step in s.lines)
    assert any(isinstance(step, IdleStep) for s in scenarios for step in s.lines)
    check(scenarios, world, tmp_path)  # every NPC, place and name exists on the map


# The kinds of talk every village's set has (issue 37), and the categories that are each.
KINDS: dict[str, set[str]] = {
    "greetings and gestures": {"greeting", "gesture"},
    "walking somewhere and showing the way": {"go", "follow", "guide"},
    "where places are": {"places"},
    "who does what, asked by the job": {"role"},
    "yes/no questions the persona decides": {"stance"},
    "requests refused in character": {"refusal"},
    "memory": {"memory"},
    "robustness": {"injection", "fourth_wall", "off_world"},
    "village life": {"village_life"},
    "villagers talking to each other": {"overheard"},
}


def test_every_bundled_village_plays_on_its_own_map_and_the_new_ones_are_full_sets(
    tmp_path: Path,
) -> None:
    for village in load_villages():
        world = World(load_map(ROOT / "maps" / f"{village.map_id}.tmx"))
        check(village.scenarios, world, tmp_path)  # its NPCs, places and names are there
        if village.map_id == HOME:
            continue
        unjudged = [s.id for s in village.scenarios if s.line is None]
        assert not unjudged, f"{village.map_id}: no line check: {unjudged}"
        asked = {s.category for s in village.scenarios}
        missing = [kind for kind, categories in KINDS.items() if not asked & categories]
        assert not missing, f"{village.map_id} has no scenario of: {missing}"
        if village.untuned:
            assert len(village.scenarios) >= 40, village.map_id


def write(tmp: Path, data: Any, name: str = "group.json") -> Path:
    path = tmp / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


GOOD = {"id": "a", "npc": "tobin", "category": "gesture", "lines": ["Wave!"]}


@pytest.mark.parametrize(
    ("scenario", "where"),
    [
        ({**GOOD, "category": "dancing"}, "scenarios[0].category (scenario 'a')"),
        ({**GOOD, "fits": [{"skill": "fly"}]}, "scenarios[0].fits[0].skill (scenario 'a')"),
        ({**GOOD, "fits": [{"skill": "emote", "args": {"name": "bow"}}]}, "scenarios[0].fits[0]"),
        ({**GOOD, "fits": [{"skill": "look", "args": {"to": "well"}}]}, "scenarios[0].fits[0]"),
        ({**GOOD, "lines": [{"overheard": {"speaker": "pip"}}]},
         "scenarios[0].lines[0].overheard.text"),
        ({**GOOD, "lines": []}, "scenarios[0].lines"),
        ({**GOOD, "lines": ["  "]}, "scenarios[0].lines"),
        ({**GOOD, "pattern": "(unclosed"}, "scenarios[0].pattern"),
        ({**GOOD, "id": "Has Spaces"}, "scenarios[0].id"),
        ({**GOOD, "colour": "red"}, "scenarios[0].colour"),
        ({k: v for k, v in GOOD.items() if k != "npc"}, "scenarios[0].npc"),
        ({**GOOD, "hour": 25}, "scenarios[0].hour (scenario 'a'): Value error, 25 is no hour"),
        ({**GOOD, "hour": -0.5}, "scenarios[0].hour (scenario 'a'): Value error, -0.5 is no"),
        ({**GOOD, "hour": "9pm"}, "scenarios[0].hour (scenario 'a'): Value error, '9pm' is no"),
        ({**GOOD, "hour": True}, "scenarios[0].hour (scenario 'a'): Value error, True is no"),
    ],
)  # fmt: skip
def test_a_bad_scenario_is_one_line_naming_the_file_and_the_field(
    tmp_path: Path, scenario: dict[str, Any], where: str
) -> None:
    with pytest.raises(UsageError) as info:
        load_file(write(tmp_path, {"scenarios": [scenario]}))
    message = str(info.value)
    assert message.startswith(f"group.json: {where}"), message
    assert "\n" not in message


def test_a_scenario_may_name_the_hour_of_its_talk(tmp_path: Path) -> None:
    hours = [{**GOOD, "id": f"h{i}", "hour": h} for i, h in enumerate((0, 21.5, 24))]
    loaded = load_file(write(tmp_path, {"scenarios": [GOOD, *hours]}))
    assert [s.hour for s in loaded] == [None, 0, 21.5, 24]


def test_a_file_that_is_not_json_or_empty(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"^group\.json: not valid JSON"):
        load_file(write(tmp_path, "{nope"))
    with pytest.raises(UsageError, match=r"^group\.json: scenarios"):
        load_file(write(tmp_path, {"scenarios": []}))


def test_ids_are_unique_across_files(tmp_path: Path) -> None:
    write(tmp_path, {"scenarios": [GOOD]}, "a.json")
    write(tmp_path, {"scenarios": [GOOD]}, "b.json")
    with pytest.raises(UsageError, match=r"^b\.json: scenario id 'a' is taken in a\.json"):
        load_scenarios(tmp_path)


def test_check_names_what_the_map_lacks(tmp_path: Path) -> None:
    world = World(load_map(VILLAGE))
    cases = [
        ({**GOOD, "npc": "gandalf"}, "no NPC 'gandalf'"),
        ({**GOOD, "player_at": "moon"}, "player_at 'moon'"),
        ({**GOOD, "player_at": [0, 0]}, "player_at"),  # the map's edge is blocked
        ({**GOOD, "fits": [{"skill": "move", "args": {"to": "moon"}}]}, "'moon': unknown"),
        ({**GOOD, "lines": [{"overheard": {"speaker": "pip", "text": "Nice day."}}]},
         "does not name Tobin"),
        ({**GOOD, "lines": [{"overheard": {"speaker": "tobin", "text": "Tobin!"}}]},
         "not another NPC"),
    ]  # fmt: skip
    for data, expected in cases:
        scenarios = load_file(write(tmp_path, {"scenarios": [data]}))
        with pytest.raises(UsageError, match=expected):
            check(scenarios, world, tmp_path / "saves")
    (tmp_path / "saves" / "a").mkdir(parents=True)  # a fresh slot per scenario, never reused
    with pytest.raises(UsageError, match="slot 'a' exists"):
        check(load_file(write(tmp_path, {"scenarios": [GOOD]})), world, tmp_path / "saves")


def test_only_picks_ids_and_categories() -> None:
    scenarios = load_scenarios()
    gestures = select(scenarios, ["gesture"])
    assert gestures and all(s.category == "gesture" for s in gestures)
    one = scenarios[0].id
    assert [s.id for s in select(scenarios, [one])] == [one]
    assert len(select(scenarios, ["gesture", one])) == len(gestures) + (
        scenarios[0].category != "gesture"
    )
    assert select(scenarios, []) == scenarios
    with pytest.raises(UsageError, match="neither a scenario id nor a category"):
        select(scenarios, ["nonsense"])


def test_the_held_out_folder_marks_its_scenarios_and_they_cannot_say_so_themselves(
    tmp_path: Path,
) -> None:
    write(tmp_path, {"scenarios": [GOOD]}, "a.json")
    (tmp_path / "held_out").mkdir()
    write(tmp_path / "held_out", {"scenarios": [{**GOOD, "id": "b"}]}, "c.json")
    loaded = {s.id: s.held_out for s in load_scenarios(tmp_path)}
    assert loaded == {"a": False, "b": True}
    write(tmp_path, {"scenarios": [{**GOOD, "id": "d", "held_out": True}]}, "d.json")
    with pytest.raises(UsageError, match=r"^d\.json: scenario 'd': held_out is set by the folder"):
        load_scenarios(tmp_path)


def test_the_bundled_suite_judges_eighty_lines_thirty_of_them_held_out() -> None:
    judged = [s for s in load_scenarios() if s.line is not None]
    assert len(judged) >= 80
    assert sum(s.held_out for s in judged) >= 30
    assert all(s.line is not None for s in load_scenarios() if s.held_out)


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ({"says": ["(unclosed"]}, "scenarios[0].line.says"),
        ({"stance": "maybe"}, "scenarios[0].line.stance"),
        ({"mood": "happy"}, "scenarios[0].line.mood"),
    ],
)
def test_a_bad_line_check_is_one_line(tmp_path: Path, line: dict[str, Any], where: str) -> None:
    with pytest.raises(UsageError) as info:
        load_file(write(tmp_path, {"scenarios": [{**GOOD, "line": line}]}))
    assert str(info.value).startswith(f"group.json: {where}"), str(info.value)


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        ({"category": "role", "lines": ["Who runs the mill?"]}, "a role scenario is judged by"),
        ({"category": "village_life", "lines": ["Any news?"]}, "village_life scenario is judged"),
        ({"category": "stance", "lines": ["Sail with me?"], "line": {"says": ["sea"]}},
         'stance scenario\'s line needs stance "yes" or "no"'),
        ({"category": "refusal", "lines": ["Free bread?"], "line": {"stance": "yes"}},
         'refusal scenario\'s line needs stance "no"'),
    ],
)  # fmt: skip
def test_the_new_kinds_are_judged_by_their_line(
    tmp_path: Path, scenario: dict[str, Any], message: str
) -> None:
    file = write(tmp_path, {"scenarios": [{"id": "a", "npc": "x", **scenario}]})
    with pytest.raises(UsageError, match=message):
        load_file(file)
    fine = {**scenario, "line": {"stance": "no"}}
    assert load_file(write(tmp_path, {"scenarios": [{"id": "a", "npc": "x", **fine}]}))
