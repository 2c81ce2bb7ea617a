"""The village's day as Tiled files hold it: lamps, notice boards and day plans, read by
`load_map` from the shipped maps and from a small .tmj written here (a tileset with a lamp
tile, a `lamps` object layer, a board object, NPCs with good, bad and no plans)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.world.tiled import MapData, load_map
from game.world.tiled_day import Lamp

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
SHEET = ROOT / "assets" / "tiles" / "village_tiles.png"
PLAZA_CORNERS = {(14, 13), (24, 13), (14, 21), (24, 21)}
GRASS, WALL, LAMP = 1, 2, 3  # gids of the test's tileset
W, H = 10, 8


@pytest.fixture(scope="module", params=["village.tmx", "village.tmj"])
def village(request: pytest.FixtureRequest) -> MapData:
    return load_map(MAPS / request.param)


def test_the_village_reads_without_warnings(village: MapData) -> None:
    assert village.warnings == []
    assert {n.npc_id for n in village.npcs} == {
        "brenna",
        "tobin",
        "maren",
        "wren",
        "pip",
        "cassius",
    }


def test_the_village_lamps_are_its_lamp_posts(village: MapData) -> None:
    assert {lamp.tile for lamp in village.lamps} >= PLAZA_CORNERS
    assert all(lamp.radius == 4.0 for lamp in village.lamps)
    assert all(lamp.tile in village.blocked for lamp in village.lamps)  # posts, not light


def test_the_village_notice_board_stands_on_the_plaza_by_a_lamp(village: MapData) -> None:
    (board,) = village.boards
    assert board.name == "notice_board"
    assert board.description.startswith("The village notice board on the plaza")
    assert "notice_board" not in village.places  # a board is not a place
    plaza = village.places["plaza"]
    assert plaza.contains(board.tile) and board.tile in village.blocked
    bx, by = board.tile
    assert min(abs(x - bx) + abs(y - by) for x, y in PLAZA_CORNERS) == 1
    free = [(bx + dx, by + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    assert any(plaza.contains(t) and t not in village.blocked for t in free)  # read it there


def test_every_villager_has_a_day(village: MapData) -> None:
    for npc in village.npcs:
        plan = npc.plan
        assert plan is not None, npc.npc_id
        assert npc.home in village.places and npc.work in village.places
        assert "plan" in npc.properties  # the map's plan, not the default
        assert len(plan.places()) >= 3, (npc.npc_id, plan.text())
        assert set(plan.places()) <= set(village.places)
        for hour in (23.0, 0.0, 3.0):  # asleep at home at night
            stop = plan.stop_at(hour)
            assert stop.asleep and stop.place == npc.home, (npc.npc_id, hour, plan.text())
        for hour in (12.0, 13.0, 13.9):  # everyone meets on the plaza around midday
            assert plan.stop_at(hour).place == "plaza", (npc.npc_id, hour)
        assert not plan.stop_at(12.5).asleep


def test_the_villagers_days_fit_them(village: MapData) -> None:
    npcs = {n.npc_id: n for n in village.npcs}
    assert npcs["brenna"].work == "forge"
    tobin = npcs["tobin"]
    assert tobin.work == "bakery" and tobin.plan is not None
    assert tobin.plan.stop_at(4.5).place == "bakery" and not tobin.plan.stop_at(4.5).asleep
    assert tobin.plan.stop_at(21.0).asleep  # the baker is abed by nine
    maren = npcs["maren"]
    assert maren.home == "elder_house" and maren.plan is not None
    assert {"elder_house", "orchard", "garden"} <= set(maren.plan.places())
    wren = npcs["wren"]
    assert (wren.home, wren.work) == ("fisher_hut", "dock")
    pip = npcs["pip"]
    assert pip.home == "cottage" and pip.plan is not None
    assert {"pond", "beach", "bridge"} & set(pip.plan.places())
    cassius = npcs["cassius"]
    assert cassius.work == "market" and cassius.plan is not None
    assert {"market", "plaza"} <= set(cassius.plan.places())
    assert "compass" in cassius.properties["wares"]
    assert all("wares" not in n.properties for n in village.npcs if n is not cassius)


def test_both_village_files_agree() -> None:
    tmx, tmj = load_map(MAPS / "village.tmx"), load_map(MAPS / "village.tmj")
    assert tmx.lamps == tmj.lamps and tmx.boards == tmj.boards
    assert [n.plan for n in tmx.npcs] == [n.plan for n in tmj.npcs]


# A small map written by the test, as Tiled writes a .tmj with an external .tsj.


def prop(name: str, value: Any, kind: str = "string") -> dict[str, Any]:
    """One custom property as Tiled writes it."""
    return {"name": name, "type": kind, "value": value}


def obj(oid: int, name: str, kind: str, tile: tuple[int, int], **extra: Any) -> dict[str, Any]:
    """A point object at a tile's centre (`w`/`h` in tiles: a rectangle from its corner)."""
    w, h = extra.pop("w", 0), extra.pop("h", 0)
    x, y = tile
    out: dict[str, Any] = {
        "id": oid,
        "name": name,
        "type": kind,
        "x": x * 32 + (0 if w else 16),
        "y": y * 32 + (0 if h else 16),
        "width": w * 32,
        "height": h * 32,
        "rotation": 0,
        "visible": True,
    }
    if not w:
        out["point"] = True
    if extra.get("props"):
        out["properties"] = extra["props"]
    return out


def npc(oid: int, name: str, tile: tuple[int, int], **props: str) -> dict[str, Any]:
    """An NPC with everything but what `props` adds (home, work, plan)."""
    given = [
        prop("id", name.lower()),
        prop("persona", f"{name} lives in the hamlet. {name} likes a quiet day."),
        prop("greeting", "Hello."),
        prop("sprite", "baker"),
        *(prop(key, value) for key, value in props.items()),
    ]
    return obj(oid, name, "npc", tile, props=given)


def hamlet(folder: Path, npcs: list[dict[str, Any]]) -> Path:
    """A walled 10x8 hamlet: a lamp tile at (2, 1), a `lamps` layer with two more, a board,
    the places house, yard, plaza and shop, and `npcs`; its path."""
    tileset = {
        "columns": 8,
        "image": str(SHEET),
        "imageheight": 384,
        "imagewidth": 256,
        "margin": 0,
        "name": "hamlet",
        "spacing": 0,
        "tilecount": 3,
        "tileheight": 32,
        "tilewidth": 32,
        "type": "tileset",
        "version": "1.10",
        "tiles": [
            {"id": 0, "properties": [prop("walkable", True, "bool")]},
            {"id": 1, "properties": [prop("walkable", False, "bool")]},
            {
                "id": 2,
                "properties": [
                    prop("lamp", True, "bool"),
                    prop("radius", 5.0, "float"),
                    prop("walkable", False, "bool"),
                ],
            },
        ],
    }
    (folder / "hamlet.tsj").write_text(json.dumps(tileset))
    wall = [WALL if x in (0, W - 1) or y in (0, H - 1) else 0 for y in range(H) for x in range(W)]
    decor = [LAMP if (x, y) == (2, 1) else 0 for y in range(H) for x in range(W)]

    def tiles(lid: int, name: str, data: list[int]) -> dict[str, Any]:
        return {
            "data": data,
            "height": H,
            "id": lid,
            "name": name,
            "opacity": 1,
            "type": "tilelayer",
            "visible": True,
            "width": W,
            "x": 0,
            "y": 0,
        }

    def objects(lid: int, name: str, items: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "draworder": "topdown",
            "id": lid,
            "name": name,
            "objects": items,
            "opacity": 1,
            "type": "objectgroup",
            "visible": True,
            "x": 0,
            "y": 0,
        }

    board_text = "The hamlet's board: who lost what."
    places = [
        obj(1, "house", "place", (1, 1), w=3, h=2),
        obj(2, "yard", "place", (5, 1), w=4, h=2),
        obj(3, "plaza", "place", (1, 4), w=4, h=3),
        obj(4, "shop", "place", (6, 4), w=3, h=3),
        # A board among the places: a board, not a place.
        obj(5, "hamlet_board", "board", (4, 4), props=[prop("description", board_text)]),
    ]
    lamps = [
        obj(6, "", "", (7, 5), props=[prop("radius", 2.0, "float")]),
        obj(7, "porch", "", (6, 2), w=3, h=1),  # a rectangle: its middle tile
    ]
    doc = {
        "compressionlevel": -1,
        "height": H,
        "width": W,
        "infinite": False,
        "layers": [
            tiles(1, "ground", [GRASS] * (W * H)),
            tiles(2, "decor", decor),
            tiles(3, "walls", wall),
            objects(4, "places", places),
            objects(5, "lamps", lamps),
            objects(6, "npcs", npcs),
            objects(7, "spawns", [obj(8, "player_spawn", "spawn", (1, 3))]),
        ],
        "nextlayerid": 8,
        "nextobjectid": 100,
        "orientation": "orthogonal",
        "properties": [prop("name", "Hamlet")],
        "renderorder": "right-down",
        "tiledversion": "1.10.2",
        "tileheight": 32,
        "tilewidth": 32,
        "tilesets": [{"firstgid": 1, "source": "hamlet.tsj"}],
        "type": "map",
        "version": "1.10",
    }
    path = folder / "hamlet.tmj"
    path.write_text(json.dumps(doc))
    return path


def test_lamps_from_a_tile_property_and_a_lamps_layer(tmp_path: Path) -> None:
    data = load_map(hamlet(tmp_path, []))
    assert sorted(data.lamps, key=lambda lamp: lamp.tile) == [
        Lamp((2, 1), 5.0),  # the lamp tile, its radius from the tileset
        Lamp((7, 2), 3.0),  # the rectangle's middle, the default radius
        Lamp((7, 5), 2.0),  # the point, its own radius
    ]
    assert (2, 1) in data.blocked  # the lamp tile is not walkable


def test_a_board_object_is_a_board_and_not_a_place(tmp_path: Path) -> None:
    data = load_map(hamlet(tmp_path, []))
    (board,) = data.boards
    assert (board.name, board.tile) == ("hamlet_board", (4, 4))
    assert board.description == "The hamlet's board: who lost what."
    assert set(data.places) == {"house", "yard", "plaza", "shop"}


def test_a_plan_as_written(tmp_path: Path) -> None:
    ada = npc(20, "Ada", (2, 5), home="house", work="shop", plan="7 work; 12:30 plaza, 23 sleep")
    data = load_map(hamlet(tmp_path, [ada]))
    assert data.warnings == []
    (spawn,) = data.npcs
    assert spawn.plan is not None
    assert spawn.plan.text() == "7:00 shop, 12:30 plaza, 23:00 sleep"
    assert spawn.plan.stop_at(3.0).asleep and spawn.plan.stop_at(3.0).place == "house"
    assert spawn.plan.stop_at(12.0).place == "shop"


def test_a_plan_with_a_bad_entry_is_one_warning_and_the_default(tmp_path: Path) -> None:
    bo = npc(20, "Bo", (2, 5), home="house", work="yard", plan="7 yard, noon plaza, 22 sleep")
    data = load_map(hamlet(tmp_path, [bo]))
    (line,) = data.warnings
    assert "'Bo'" in line and "'noon plaza'" in line
    assert "7 yard, 12 plaza" in line  # the fix: how a plan is written, with the map's places
    assert "\n" not in line
    (spawn,) = data.npcs
    assert spawn.plan is not None
    assert spawn.plan.text() == "7:00 yard, 12:00 plaza, 14:00 yard, 19:00 house, 22:00 sleep"


def test_a_plan_naming_an_unknown_place(tmp_path: Path) -> None:
    cy = npc(20, "Cy", (2, 5), home="house", plan="8 tavern, 22 sleep")
    data = load_map(hamlet(tmp_path, [cy]))
    (line,) = data.warnings
    assert "'Cy'" in line and "no place named 'tavern'" in line
    (spawn,) = data.npcs
    assert spawn.plan is not None and "tavern" not in spawn.plan.places()
    assert spawn.plan.stop_at(23.0).asleep and spawn.plan.stop_at(23.0).place == "house"


def test_a_home_or_work_naming_no_place_is_a_warning(tmp_path: Path) -> None:
    eve = npc(20, "Eve", (2, 5), home="house", work="mill")
    data = load_map(hamlet(tmp_path, [eve]))
    (line,) = data.warnings
    assert "'Eve'" in line and "work 'mill'" in line
    (spawn,) = data.npcs
    assert spawn.plan is not None and "mill" not in spawn.plan.places()


def test_the_default_plan_is_made_from_home_and_work(tmp_path: Path) -> None:
    di = npc(20, "Di", (2, 5), home="house", work="shop")
    ed = npc(21, "Ed", (3, 5), home="yard")  # no work: the working hours at home
    data = load_map(hamlet(tmp_path, [di, ed]))
    assert data.warnings == []
    plans = {n.name: n.plan for n in data.npcs}
    assert plans["Di"] is not None and plans["Ed"] is not None
    assert plans["Di"].text() == "7:00 shop, 12:00 plaza, 14:00 shop, 19:00 house, 22:00 sleep"
    assert plans["Ed"].text() == "7:00 yard, 12:00 plaza, 14:00 yard, 19:00 yard, 22:00 sleep"
    for plan, home in ((plans["Di"], "house"), (plans["Ed"], "yard")):
        assert plan.stop_at(22.0).asleep and plan.stop_at(6.9).place == home
        assert not plan.stop_at(7.0).asleep
