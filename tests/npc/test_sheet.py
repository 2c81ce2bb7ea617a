"""The character sheet: read once from a map's personas and properties, over many people
who are not Hollowbrook's, with the map maker's own statements winning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.limits import NPC_TEXT_CHARS, SHEET_ITEMS
from game.npc.known import sheets_of, villager_facts
from game.npc.sheet import CharacterSheet, read_sheets
from game.world.tiled import load_map
from game.world.world import World
from tests.world.crowd import crowd_map, prop

ROOT = Path(__file__).resolve().parents[2]

# Villagers of a coast village no map of the game has: (id, name, persona, more properties).
PEOPLE: list[tuple[str, str, str, dict[str, str]]] = [
    (
        "dagny",
        "Dagny",
        "Dagny is a cheerful, loud miller who is sure the wind speaks to her. She runs the "
        "windmill on the hill and scolds anyone who wastes bread.",
        {"work": "windmill", "wares": "flour, oats and barley meal"},
    ),
    (
        "hobb",
        "Hobb",
        "Hobb is a nosy tavern keeper who trades rumours for coin and never pours on credit.",
        {"work": "tavern"},
    ),
    (
        "agathe",
        "Sister Agathe",
        "Sister Agathe is a stern chapel sister with no time for gossip. She keeps the chapel's "
        "records and suspects that the lighthouse keeper is hiding something.",
        {},
    ),
    (
        "fenwick",
        "Fenwick",
        "Fenwick is a gloomy lighthouse keeper who talks in short sentences. He swears he saw "
        "a sea serpent off the point.",
        {},
    ),
    (
        "lise",
        "Lise",
        "Lise is a shy shepherd who is afraid of the sea and dreams of seeing a city.",
        {},
    ),
    (
        "runa",
        "Runa",
        "Runa is a brisk ferrywoman who sells lobster and rope and haggles hard.",
        {},
    ),
    (
        "otto",
        "Otto",
        "Otto is a clockmaker with a formal manner. He loves the ticking of a hundred clocks "
        "and hates being rushed.",
        {},
    ),
    (
        "brannoc",
        "Brannoc",
        "Brannoc is a jolly cooper who tells jokes all day. He thinks Hobb waters the ale.",
        {},
    ),
    (
        "mirela",
        "Mirela",
        "Mirela is a nervous young scribe who stammers when strangers speak to her. She "
        "believes the old tower is haunted.",
        {},
    ),
    (
        "tam",
        "Tam",
        "Tam mends nets on the quay and rarely says a word. He is terrified of thunder.",
        {},
    ),
    (
        "yselde",
        "Yselde",
        "Yselde is the village midwife, kind and practical. She will never lend her tools to "
        "anyone and dislikes idle chatter.",
        {},
    ),
    (
        "corwin",
        "Corwin",
        "Corwin is a proud goldsmith who deals in rings and brooches. He is convinced that "
        "Runa cheats at cards.",
        {},
    ),
    (
        "nell",
        "Nell",
        "Nell is a curious little girl who asks questions about everything. She is certain a "
        "giant sleeps under the dunes.",
        {},
    ),
    (
        "gus",
        "Gus",
        "Gus is a grim gravedigger who fears nothing but the dark. He enjoys a quiet pipe at dusk.",
        {},
    ),
    (
        "wilma",
        "Wilma",
        "Wilma is a stable hand with a booming voice. She adores the horses and cannot stand "
        "people who shout at them.",
        {},
    ),
    (
        "pell",
        "Pell",
        "Pell is a pedlar who sells ribbons, buttons and needles. He never gives anything for "
        "nothing.",
        {},
    ),
]


def write_map(
    folder: Path,
    people: list[tuple[str, str, str, dict[str, str]]],
    places: tuple[str, ...] = (),
) -> Path:
    """A map on disk with these NPCs, as a map maker writes it (and these places, each
    with a plain description, beside the map's green)."""
    data = crowd_map(len(people), places=len(places)) if places else crowd_map(len(people))
    layers = {layer["name"]: layer for layer in data["layers"]}
    if places:
        houses = [o for o in layers["places"]["objects"] if o["name"] != "green"]
        for obj, name in zip(houses, places, strict=True):
            obj["name"] = name
            obj["properties"] = [prop("description", f"The {name} of the coast.")]
    for obj, (npc_id, name, persona, more) in zip(layers["npcs"]["objects"], people, strict=True):
        obj["name"] = name
        obj["properties"] = [
            prop("id", npc_id),
            prop("persona", persona),
            prop("greeting", "Hello."),
            prop("sprite", "baker"),
            *(prop(k, v) for k, v in more.items()),
        ]
    path = folder / "coast.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def coast(tmp_path: Path) -> dict[str, CharacterSheet]:
    warnings: list[str] = []
    sheets = read_sheets(load_map(write_map(tmp_path, PEOPLE)), warnings)
    assert warnings == []
    return sheets


def test_the_trade_is_read_from_the_persona(coast: dict[str, CharacterSheet]) -> None:
    roles = {k: s.role for k, s in coast.items()}
    assert roles["dagny"] == "miller"
    assert roles["hobb"] == "tavern keeper"
    assert roles["agathe"] == "chapel sister"
    assert roles["fenwick"] == "lighthouse keeper"
    assert roles["runa"] == "ferrywoman"
    assert roles["otto"] == "clockmaker"
    assert roles["yselde"] == "midwife"
    assert roles["tam"] == "mends nets"  # no trade named: what it does
    assert coast["dagny"].work == "windmill"


def test_likes_dislikes_and_fears(coast: dict[str, CharacterSheet]) -> None:
    assert coast["otto"].likes == ("the ticking of a hundred clocks",)
    assert coast["otto"].dislikes == ("being rushed",)
    assert coast["dagny"].dislikes == ("anyone who wastes bread",)
    assert coast["lise"].fears == ("the sea",)
    assert coast["lise"].likes == ("a city",)  # what she dreams of, without "seeing"
    assert coast["tam"].fears == ("thunder",)
    assert coast["gus"].likes == ("a quiet pipe at dusk",)
    assert coast["wilma"].likes == ("the horses",)
    assert coast["wilma"].dislikes == ("people who shout at them",)


def test_beliefs_carry_how_sure(coast: dict[str, CharacterSheet]) -> None:
    def said(npc_id: str) -> list[tuple[str, str]]:
        return [(b.what, b.sure) for b in coast[npc_id].beliefs]

    assert said("dagny") == [("the wind speaks to me", "certain")]
    assert said("fenwick") == [("I saw a sea serpent off the point", "certain")]
    assert said("mirela") == [("the old tower is haunted", "thinks")]
    assert said("nell") == [("a giant sleeps under the dunes", "certain")]
    assert said("agathe") == [("the lighthouse keeper is hiding something", "suspects")]


def test_refusals_of_a_counter_and_of_its_own(coast: dict[str, CharacterSheet]) -> None:
    assert coast["hobb"].refuses == ("credit",)
    assert coast["runa"].refuses == ("free goods",)
    assert coast["pell"].refuses == ("free goods",)
    assert "idle talk" in coast["agathe"].refuses and coast["agathe"].dislikes == ("gossip",)
    assert "idle talk" in coast["yselde"].refuses
    assert "lend my tools to anyone" in coast["yselde"].refuses


def test_opinions_name_the_others_by_name_or_trade(coast: dict[str, CharacterSheet]) -> None:
    assert coast["agathe"].opinions == {"fenwick": "is hiding something"}
    assert coast["brannoc"].opinions == {"hobb": "thinks Hobb waters the ale"}
    assert coast["corwin"].opinions == {"runa": "is convinced that Runa cheats at cards"}
    assert coast["lise"].opinions == {}


def test_how_it_talks(coast: dict[str, CharacterSheet]) -> None:
    assert set(coast["dagny"].talks) == {"loud", "cheerful"}
    assert "questions" in coast["hobb"].talks
    assert "formal" in coast["agathe"].talks
    assert "few words" in coast["fenwick"].talks and "gloomy" in coast["fenwick"].talks
    assert "jokes" in coast["brannoc"].talks
    assert "stammer" in coast["mirela"].talks
    assert "loud" in coast["wilma"].talks
    assert "brisk" in coast["runa"].talks


def test_wares_from_the_property_else_the_persona(coast: dict[str, CharacterSheet]) -> None:
    assert coast["dagny"].wares == ("flour", "oats", "barley meal")
    assert coast["runa"].wares == ("lobster", "rope")
    assert coast["pell"].wares == ("ribbons", "buttons", "needles")
    assert coast["corwin"].wares == ("rings", "brooches")
    assert coast["hobb"].wares == ("rumours",)


def test_stonereach_people_get_their_sheets() -> None:
    sheets = read_sheets(load_map(ROOT / "maps" / "stonereach.tmx"))
    assert sheets["joss"].role == "tinker"
    assert sheets["ilse"].role == "keeps the inn" and sheets["ilse"].work == "inn"
    assert sheets["tamsin"].fears == ("the mine",)
    assert sheets["tamsin"].opinions["garrow"] == "is the bravest man alive"
    assert ("the goats can smell a storm a day before it comes", "certain") in [
        (b.what, b.sure) for b in sheets["tamsin"].beliefs
    ]
    # "a chancer, but an honest one": what follows "but" without a verb is the same view
    assert sheets["garrow"].opinions["joss"] == "is a chancer, but an honest one"
    assert "take anyone below without a lamp and a helmet" in sheets["garrow"].refuses
    assert "few words" in sheets["garrow"].talks
    assert sheets["joss"].fears == ("heights",)
    assert sheets["joss"].wares[0] == "copper pots"
    assert "hurry an order" in sheets["fenna"].refuses


def test_every_npc_of_every_shipped_map_gets_a_role() -> None:
    for path in sorted((ROOT / "maps").glob("*.tmx")):
        warnings: list[str] = []
        sheets = read_sheets(load_map(path), warnings)
        assert sheets and all(s.role for s in sheets.values()), path.name
        assert warnings == [], path.name


def test_stated_properties_win(tmp_path: Path) -> None:
    stated = {
        "role": "harbour master",
        "likes": "calm seas; tarred rope",
        "dislikes": "gulls",
        "beliefs": "certain: the tide turns at noon; suspects: the bell is cracked",
        "fears": "fog",
        "refuses": "credit, free goods",
        "opinions": "hobb: a fair host; runa: drives too hard a bargain",
        "talks": "few words, formal",
    }
    people = [(*PEOPLE[0][:3], stated), *PEOPLE[1:6]]
    warnings: list[str] = []
    sheet = read_sheets(load_map(write_map(tmp_path, people)), warnings)["dagny"]
    assert warnings == []
    assert sheet.role == "harbour master"
    assert sheet.likes == ("calm seas", "tarred rope")
    assert sheet.dislikes == ("gulls",)
    assert [(b.what, b.sure) for b in sheet.beliefs] == [
        ("the tide turns at noon", "certain"),
        ("the bell is cracked", "suspects"),
    ]
    assert sheet.fears == ("fog",) and sheet.refuses == ("credit", "free goods")
    assert sheet.opinions == {"hobb": "a fair host", "runa": "drives too hard a bargain"}
    assert sheet.talks == ("few words", "formal")


@pytest.mark.parametrize(
    ("key", "value", "why"),
    [
        ("opinions", "nobody: a ghost", "'nobody: a ghost'"),
        ("opinions", "hobb a fair host", "'hobb a fair host'"),
        ("talks", "whispers", "'whispers'"),
        ("beliefs", "maybe: the moon is cheese", "'maybe: the moon is cheese'"),
    ],
)
def test_a_bad_property_is_one_warning(tmp_path: Path, key: str, value: str, why: str) -> None:
    people = [(*PEOPLE[0][:3], {key: value}), *PEOPLE[1:3]]
    warnings: list[str] = []
    sheet = read_sheets(load_map(write_map(tmp_path, people)), warnings)["dagny"]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"map coast.tmj: NPC 'Dagny': its {key} property has {why}")
    read = read_sheets(load_map(write_map(tmp_path, PEOPLE[:3])))["dagny"]
    assert getattr(sheet, key) == getattr(read, key)  # what the persona says, instead


def test_long_lists_are_bounded(tmp_path: Path) -> None:
    many = "; ".join(f"thing {i}" for i in range(30))
    assert len(many) <= NPC_TEXT_CHARS["likes"]
    people = [(*PEOPLE[0][:3], {"likes": many}), PEOPLE[1]]
    sheet = read_sheets(load_map(write_map(tmp_path, people)))["dagny"]
    assert len(sheet.likes) == SHEET_ITEMS


def test_the_sheet_is_read_once_and_rides_on_the_facts(tmp_path: Path) -> None:
    world = World(load_map(write_map(tmp_path, PEOPLE[:4])))
    first = sheets_of(world)
    assert sheets_of(world) is first
    facts = villager_facts(world, "hobb")
    assert facts.sheet is first["hobb"] and facts.sheet.refuses == ("credit",)
    again = type(facts).of(type(facts).model_validate_json(facts.model_dump_json()))
    assert again.sheet == facts.sheet  # as a replayed request's log carries it
