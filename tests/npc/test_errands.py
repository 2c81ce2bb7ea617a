"""Errands asked of a villager: a place for what is asked ("a good place to sit and watch
the barges?"), how far a place just talked of is ("Is it far?"), what the board holds and
how a neighbour is doing, in a village no shipped map has and on a real map."""

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


def test_how_a_villager_is_doing_says_of_whom_it_thinks_what(stonereach: World) -> None:
    """What it thinks follows them at work as ever said of them, with nothing between
    ("Oh, I'll tell you!") and not begun on its verb ("Spends too many nights alone!")."""
    text = _said(villager_facts(stonereach, "ilse"), "How's young Tamsin getting on?", [], (9, 9))
    thought = text.split("same as ever. ", 1)[1]
    assert re.match(r"(?:That one|She) spends too many nights alone", thought), text


def test_a_place_asked_for_a_use_is_the_one_its_description_says(
    canal: dict[str, VillagerFacts],
) -> None:
    text, _ = reply(canal["lio"], "Where's a good place to sit and watch the barges?")
    assert re.match(r"the wharf\b", text, re.I) and "Huw" not in text, text  # the place


@pytest.mark.parametrize(
    ("npc_id", "line"),
    [
        ("tamsin", "Where can I get a drink of water?"),
        ("odile", "Where can I water my mule?"),
    ],
)
def test_water_asked_for_is_a_place_with_water_not_the_alehouse(
    stonereach: World, npc_id: str, line: str
) -> None:
    # Water asked for is the place that has it, not the inn by the word "drink".
    text = _said(villager_facts(stonereach, npc_id), line, [], (18, 6))
    assert "tarn" in text.lower() and "Ilse" not in text, text


def test_far_of_how_much_asks_no_distance(stonereach: World) -> None:
    npc = villager_facts(stonereach, "tamsin")
    line = "Tamsin, come down and sleep at the inn tonight, it's far too cold up on that pasture."
    text = _said(npc, line, ["Where's the inn?"], (4, 12))
    assert not re.search(r"\bof here\b|\bwalk\b", text), text


@pytest.mark.parametrize(
    ("line", "thing"),
    [
        ("Would you run down to the wharf and fetch me a sack of coal?", "sack of coal"),
        ("Could you go to the cookhouse to get my pies, please?", "your pies"),
    ],
)
def test_a_walk_sent_to_fetch_something_says_what_it_went_for(
    canal: dict[str, VillagerFacts], line: str, thing: str
) -> None:
    """Sent to fetch a thing, the NPC goes, and on arriving speaks of the thing, not only
    of the place ("Ta-da! The goat hut!" to "fetch me a length of rope")."""
    npc = canal["lio"]
    plan = answer(PlayerLine(npc=npc, said=line, earlier=[], sensed=None))
    assert [s.skill.name for s in plan if s.skill.name != "say"] == ["move"]
    text = " ".join(s.text for s in map(said_by, plan) if s is not None)
    assert thing in text.lower(), text


def test_a_walk_sent_to_see_if_someone_is_there_speaks_of_them(
    canal: dict[str, VillagerFacts],
) -> None:
    """ "Go and see if Huw is at the wharf": the NPC speaks of Huw on arriving, from where the
    map says Huw works; of another place, that Huw is more often at his own."""
    npc = canal["lio"]
    at_his = _said_to(npc, "Run over to the wharf and see if Huw is there.")
    elsewhere = _said_to(npc, "Could you pop over to the cookhouse and check if Huw is in?")
    assert "Huw" in at_his and "Huw" in elsewhere, (at_his, elsewhere)
    assert "wharf" in elsewhere, elsewhere
    assert at_his != elsewhere


def _said_to(npc: VillagerFacts, line: str) -> str:
    plan = answer(PlayerLine(npc=npc, said=line, earlier=[], sensed=None))
    return " ".join(s.text for s in map(said_by, plan) if s is not None)


@pytest.mark.parametrize(
    "line", ["How are things down at the cookhouse?", "How's business at the cookhouse these days?"]
)
def test_how_things_are_at_a_place_is_its_keeper_at_work_not_its_looks(
    canal: dict[str, VillagerFacts], line: str
) -> None:
    """ "How are things at the cookhouse?" asks how it goes there, not what it looks like:
    asked of another's place, its keeper at work as ever; of its own, how it is itself."""
    other = _said_to(canal["orla"], line)
    assert "Sabine" in other and "smoky" not in other, other
    own = _said_to(canal["sabine"], line)
    assert "smoky" not in own and "Sabine" not in own, own
    assert read_intent(line, canal["sabine"]).kind is Kind.PLACE


@pytest.mark.parametrize(
    "line", ["Who'd sell me some coal?", "I'm after some coal. Who'd sell me a sack?"]
)
def test_who_would_sell_a_thing_is_who_sells_it(canal: dict[str, VillagerFacts], line: str) -> None:
    """ "Who'd" asks who, and "I'm after" is no word of a thing ("the tan pits after dark"
    was a fear it touched, and "after" a thing for sale)."""
    assert "Huw" in _said_to(canal["sabine"], line)


@pytest.mark.parametrize(
    ("line", "hurry"),
    [
        ("Can I sleep at the inn tonight?", False),
        ("Could you finish my cloak tonight?", True),
        ("Can you have my blanket done by tomorrow?", True),
    ],
)
def test_tonight_is_a_hurry_only_of_a_deed_asked_of_the_npc(
    stonereach: World, line: str, hurry: bool
) -> None:
    """Fenna never hurries an order: a stay of the player's own tonight asks no hurry."""
    text = _said(villager_facts(stonereach, "fenna"), line, [], (4, 22))
    assert bool(re.search(r"\bhurry\b", text)) is hurry, text


@pytest.mark.parametrize(
    ("npc", "line", "expected"),
    [
        ("joss", "Do you ever go to the inn?", r"^Most days, around \w+"),
        ("garrow", "Are you often at the square?", r"^Not often\. I keep to the mine\."),
    ],
)
def test_whether_it_goes_to_a_place_is_what_its_day_says(
    stonereach: World, npc: str, line: str, expected: str
) -> None:
    """Asked if it goes somewhere, its day says whether and when: not the place's looks."""
    text = _said(villager_facts(stonereach, npc), line, [], (9, 9))
    assert re.search(expected, text), text


@pytest.mark.parametrize("npc", ["ilse", "odile", "garrow"])
@pytest.mark.parametrize(
    "line",
    ["What's your best price?", "Do you barter? I've got eggs.", "Mates' rates for me?"],
)
def test_a_haggle_put_to_one_whose_persona_sells_nothing_is_still_a_haggle(
    stonereach: World, npc: str, line: str
) -> None:
    """An innkeeper, a healer and a miner say no persona words of selling: a haggle is met
    with their prices, not a word of their work or a line of chat."""
    text = _said(villager_facts(stonereach, npc), line, [], (9, 9))
    assert re.search(r"\bprices?\b|\bNo\b", text), text


def test_a_place_it_fears_or_names_as_a_landmark_is_not_its_own(stonereach: World) -> None:
    """Tamsin is afraid of the mine and herds "above the square": she is at neither every
    day, and says neither is hers."""
    tamsin = villager_facts(stonereach, "tamsin")
    deep = _said(tamsin, "How deep is the mine?", [], (9, 9))
    assert "every day" not in deep or "Garrow" in deep, deep
    assert "I'm at the mine" not in deep, deep
    square = _said(tamsin, "Is the square nice in the evening?", [], (9, 9))
    assert "mine" not in square.lower(), square


def test_whether_a_place_is_any_good_is_its_word_on_it_not_its_description(
    stonereach: World,
) -> None:
    text = _said(villager_facts(stonereach, "tamsin"), "Is the inn any good?", [], (9, 9))
    assert "inn" in text and "red-roofed" not in text and "upstairs" not in text, text


@pytest.mark.parametrize("line", ["What time does the inn open?", "When does the inn close?"])
def test_the_hours_of_anothers_place_are_theirs_to_tell(stonereach: World, line: str) -> None:
    text = _said(villager_facts(stonereach, "tamsin"), line, [], (9, 9))
    assert re.search(r"[Aa]sk Ilse|Ilse to say|Ilse's say", text), text


def test_a_nod_asked_for_is_no_purchase_to_refuse(stonereach: World) -> None:
    """ "Give us a nod" asks for no goods: Fenna never hurries an order, and nods."""
    npc = villager_facts(stonereach, "fenna")
    sensed = SensedFacts(npc_id=npc.npc_id, tile=(4, 22), hour=10.0)
    plan = answer(PlayerLine(npc=npc, said="Give us a nod if you weave the cloaks.", sensed=sensed))
    assert plan and plan[0].skill.name == "emote", plan
    assert not any("hurry" in s.text for s in map(said_by, plan) if s is not None), plan
