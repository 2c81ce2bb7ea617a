"""Errands asked of a villager: who in the village meets a need, and where ("where can I
get a drink?" is the one who pours it, at their place, and the way there), and how far a
place just talked of is ("Is it far?"), in a village no shipped map has and on a real map."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import NewsFact, SensedFacts, VillagerFacts
from game.npc.known import villager_facts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.world.tiled import load_map
from game.world.world import World

from .test_sheet_answers import facts_of, reply, write_village

ROOT = Path(__file__).resolve().parents[2]

# Nobody of a shipped map's trades: a cider presser, a bargeman who lets bunks, a
# sausage maker, a saddler who mends boots, and a lamplighter who meets no need.
PEOPLE = [
    (
        "orla",
        "Orla",
        "Orla presses the cider and pours it at the press house for anyone "
        "thirsty. She is merry and loud.",
        {"work": "press_house"},
    ),
    (
        "huw",
        "Huw",
        "Huw steers the coal barge and lets three bunks on it to travellers. He is slow and kind.",
        {"work": "wharf", "wares": "a bunk for the night and coal"},
    ),
    (
        "sabine",
        "Sabine",
        "Sabine makes sausages and hot pies at the cookhouse. She is brisk and proud.",
        {"work": "cookhouse"},
    ),
    (
        "ewan",
        "Ewan",
        "Ewan is the saddler who mends saddles, boots and harness at the "
        "leather shop. He is grumpy.",
        {"work": "leather_shop"},
    ),
    ("lio", "Lio", "Lio lights the lamps of the lanes at dusk. He is shy and dreamy.", {}),
]
PLACES = [
    ("press_house", "A low barn with a great wooden cider press."),
    ("wharf", "Planks along the canal where folk sit to watch the barges come in."),
    ("cookhouse", "A smoky kitchen with a hatch to the lane."),
    ("leather_shop", "A narrow shop that smells of hides."),
]


@pytest.fixture(scope="module")
def canal(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("canal"), "canal", PEOPLE, PLACES))


@pytest.mark.parametrize(
    ("line", "who", "place"),
    [
        ("Where can I get a drink?", "Orla", "press house"),
        ("I'm parched. Anywhere I can get a cider?", "Orla", "press house"),
        ("I need somewhere to sleep tonight.", "Huw", "wharf"),
        ("where could I find a bed?", "Huw", "wharf"),
        ("I'm starving!", "Sabine", "cookhouse"),
        ("Where can I buy a pie?", "Sabine", "cookhouse"),
        ("Where can I get my boots mended?", "Ewan", "leather shop"),
        ("My saddle needs mending, where can I take it?", "Ewan", "leather shop"),
    ],
)
def test_a_need_is_met_by_the_villager_whose_trade_names_it_and_their_place(
    canal: dict[str, VillagerFacts], line: str, who: str, place: str
) -> None:
    text, walks = reply(canal["lio"], line)
    assert who in text and place in text, text
    assert not walks, text
    others = {name for _, name, *_ in PEOPLE} - {who, "Lio"}
    assert not any(re.search(rf"\b{o}\b", text) for o in others), text


def test_a_need_met_by_the_villager_asked_is_its_own_work(
    canal: dict[str, VillagerFacts],
) -> None:
    text, _ = reply(canal["sabine"], "I'm so hungry")
    assert "cookhouse" in text or re.search(r"\b(?:pies|sausages)\b", text), text
    assert "Sabine" not in text, text  # not itself by name


@pytest.mark.parametrize("line", ["I need Orla.", "I need a moment.", "Where is Huw?"])
def test_a_line_naming_a_villager_or_no_need_is_no_errand(
    canal: dict[str, VillagerFacts], line: str
) -> None:
    assert read_intent(line, canal["lio"]).sub != "need"


@pytest.fixture(scope="module")
def stonereach() -> World:
    return World(load_map(ROOT / "maps" / "stonereach.tmx"))


def _said(npc: VillagerFacts, said: str, earlier: list[str], tile: tuple[int, int]) -> str:
    sensed = SensedFacts(npc_id=npc.npc_id, tile=tile, hour=10.0)
    plan = answer(PlayerLine(npc=npc, said=said, earlier=earlier, sensed=sensed))
    return " ".join(s.text for s in map(said_by, plan) if s is not None)


@pytest.mark.parametrize("line", ["Is it far?", "How far is that?", "is it a long walk?"])
def test_is_it_far_is_how_far_the_place_just_asked_of_is(stonereach: World, line: str) -> None:
    npc = villager_facts(stonereach, "garrow")
    far = _said(npc, line, ["Where is the weaver cottage?"], (18, 6))  # from the mine
    near = _said(npc, line, ["Where is the mine?"], (10, 4))  # beside it
    assert re.search(r"\bacross the village\b|\bfair walk\b", far), far
    assert re.search(r"south-west|south|west", far), far
    assert re.search(r"\bnot far\b|\bright here\b|\bjust over there\b", near, re.I), near
    assert far != near


def test_is_the_place_far_names_the_place_itself(stonereach: World) -> None:
    npc = villager_facts(stonereach, "garrow")
    text = _said(npc, "Is the tarn far from here?", [], (18, 6))
    assert re.search(r"\bwalk\b|\bfar\b", text) and "south" in text.lower(), text
    assert read_intent("Is the tarn far from here?", npc).kind is Kind.PLACE


@pytest.mark.parametrize(
    "line", ["What's on the notice board?", "Anything pinned up on the board lately?"]
)
def test_the_board_asked_of_is_its_news_else_nothing_new_and_who_pins_it(
    stonereach: World, line: str
) -> None:
    npc = villager_facts(stonereach, "garrow")
    text = _said(npc, line, [], (18, 6))
    assert re.search(r"\bnothing new\b", text, re.I) and "square" in text, text
    told = NewsFact(news_id="n1", kind="event", fact="the tarn froze over", how="board")
    sensed = SensedFacts(npc_id="garrow", tile=(18, 6), hour=10.0, news=[told])
    plan = answer(PlayerLine(npc=npc, said=line, sensed=sensed))
    text = " ".join(s.text for s in map(said_by, plan) if s is not None)
    assert "tarn froze over" in text, text


@pytest.mark.parametrize("line", ["Where's the notice board?", "What's the board made of?"])
def test_the_board_itself_asked_of_is_no_news(stonereach: World, line: str) -> None:
    text = _said(villager_facts(stonereach, "garrow"), line, [], (18, 6))
    assert "Nothing new" not in text, text


@pytest.mark.parametrize("line", ["How's Ilse doing?", "How is Ilse these days?", "How's Ilse?"])
def test_how_a_villager_is_doing_is_them_at_their_work(stonereach: World, line: str) -> None:
    text = _said(villager_facts(stonereach, "odile"), line, [], (4, 22))
    assert re.search(r"\bIlse\b.*\binn\b.*same as ever", text), text
    assert re.search(r"works herself|bone", text, re.I), text  # what Odile's sheet thinks


def test_a_place_asked_for_a_use_is_the_one_its_description_says(
    canal: dict[str, VillagerFacts],
) -> None:
    text, _ = reply(canal["lio"], "Where's a good place to sit and watch the barges?")
    assert re.match(r"the wharf\b", text, re.I) and "Huw" not in text, text  # the place


def test_a_need_beside_a_place_named_is_the_way_to_that_place(
    canal: dict[str, VillagerFacts],
) -> None:
    assert read_intent("Where's the cookhouse? I'm starving.", canal["lio"]).sub != "need"
