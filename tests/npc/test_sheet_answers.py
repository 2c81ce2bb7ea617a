"""The persona brain answers from the character sheet, in the NPC's own words: its work,
likes, fears and beliefs; its no to a request that touches a fear or a refusal; what it
thinks of the others. No reply reads the persona back (six words in a row or more), on
villages written here and on every shipped map."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.known import villager_facts
from game.npc.scripted.moods import MOODS
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import MOVE
from game.world.tiled import load_map
from game.world.world import World
from tests.world.crowd import crowd_map, prop

ROOT = Path(__file__).resolve().parents[2]
NO = re.compile(r"\b(?:no|not|never|won't|don't|can't|couldn't|nope|nuh-uh)\b", re.I)

# A coast village no map of the game has: its places, and its people.
COAST_PLACES = [
    ("windmill", "A tall windmill on the hill, its sails turning in the wind."),
    ("tavern", "A low tavern with a smoky hearth and benches worn smooth."),
    ("chapel", "A whitewashed chapel with a bell that rings at dusk."),
    ("lighthouse", "A lighthouse of grey stone at the end of the point."),
    ("pasture", "A green pasture above the village where the sheep graze."),
    ("quay", "A stone quay where the ferry puts out across the sea to the islands."),
    ("kiln", "A squat brick kiln behind the potter's yard, warm all day."),
]
Person = tuple[str, str, str, dict[str, str]]
COAST: list[Person] = [
    (
        "dagny",
        "Dagny",
        "Dagny is a cheerful, loud miller who is sure the wind speaks to her. She runs the "
        "windmill on the hill and scolds anyone who wastes bread.",
        {"work": "windmill"},
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
        {"work": "chapel"},
    ),
    (
        "fenwick",
        "Fenwick",
        "Fenwick is a gloomy lighthouse keeper who talks in short sentences. He swears he saw "
        "a sea serpent off the point.",
        {"work": "lighthouse"},
    ),
    (
        "lise",
        "Lise",
        "Lise is a shy shepherd who is afraid of the sea and dreams of seeing a city.",
        {"work": "pasture"},
    ),
    (
        "runa",
        "Runa",
        "Runa is a brisk ferrywoman who sells lobster and rope. She haggles hard and has no "
        "patience for anyone who wastes her time.",
        {"work": "quay"},
    ),
    (
        "osric",
        "Osric",
        "Osric is a slow, patient potter who quietly worries about the old kiln. He thinks "
        "the miller is the most honest woman in the whole valley.",
        {"work": "kiln"},
    ),
]
# A hill village whose personas say long things: every phrase of six words or more.
HILL_PLACES = [
    ("apiary", "Rows of straw hives at the edge of the heath."),
    ("forge", "A smoky forge with a great bellows and a rack of tongs."),
    ("mill pond", "A still pond behind the old mill, deep and green."),
]
HILL: list[Person] = [
    (
        "marta",
        "Marta",
        "Marta is a beekeeper who believes the bees can tell when someone in the village is "
        "about to die. She loves the smell of warm wax on a summer evening and hates anyone "
        "who swats at her bees in the lane.",
        {"work": "apiary"},
    ),
    (
        "corwin",
        "Corwin Ash",
        "Corwin Ash is the smith who never lets a stranger touch the tools on his bench. He "
        "is terrified of the deep water of the mill pond since his brother nearly drowned in "
        "it, and he is convinced that Marta keeps the best honey in the whole of the north.",
        {"work": "forge"},
    ),
    (
        "bel",
        "Bel",
        "Bel spends every morning gathering herbs on the heath and every evening telling "
        "stories of the old kings to anyone who will sit with her by the fire. She suspects "
        "that the smith is secretly a poet who writes verses in the dark.",
        {},
    ),
]


def write_village(folder: Path, name: str, people: list[Person], places: list) -> Path:
    """A map on disk with these places and NPCs, as a map maker writes it."""
    data = crowd_map(len(people), places=len(places))
    layers = {layer["name"]: layer for layer in data["layers"]}
    for obj, (npc_id, npc_name, persona, more) in zip(
        layers["npcs"]["objects"], people, strict=True
    ):
        obj["name"] = npc_name
        obj["properties"] = [
            prop("id", npc_id),
            prop("persona", persona),
            prop("greeting", "Hello."),
            prop("sprite", "baker"),
            *(prop(k, v) for k, v in more.items()),
        ]
    for obj, (place, description) in zip(layers["places"]["objects"][1:], places, strict=True):
        obj["name"] = place
        obj["properties"] = [prop("description", description)]
    path = folder / f"{name}.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def facts_of(path: Path) -> dict[str, VillagerFacts]:
    world = World(load_map(path))
    return {npc_id: villager_facts(world, npc_id) for npc_id in world.npcs}


@pytest.fixture(scope="module")
def coast(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("coast"), "coast", COAST, COAST_PLACES))


@pytest.fixture(scope="module")
def hill(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("hill"), "hill", HILL, HILL_PLACES))


def reply(npc: VillagerFacts, said: str) -> tuple[str, bool]:
    """What the NPC says to a first line of the player, and whether it walks."""
    plan = answer(PlayerLine(npc=npc, said=said))
    lines = [s.text for s in map(said_by, plan) if s is not None]
    walks = any(getattr(step, "skill", None) is MOVE for step in plan)
    return " ".join(lines), walks


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))


def run_with(text: str, persona: str) -> int:
    """The most words in a row a reply shares with the persona (lower-case word tokens)."""
    said, theirs = words(text), words(persona)
    grams = {
        tuple(theirs[i : i + n]) for n in range(1, len(theirs) + 1) for i in range(len(theirs))
    }
    best = 0
    for i in range(len(said)):
        for j in range(i + best + 1, len(said) + 1):
            if tuple(said[i:j]) not in grams:
                break
            best = j - i
    return best


def test_what_it_does_is_its_role_and_work_place(coast: dict[str, VillagerFacts]) -> None:
    said, _ = reply(coast["dagny"], "What do you do?")
    assert "miller" in said and "windmill" in said, said
    said, _ = reply(coast["hobb"], "Who are you?")
    assert "Hobb" in said and "tavern keeper" in said, said


def test_likes_fears_and_dislikes_come_from_the_sheet(coast: dict[str, VillagerFacts]) -> None:
    assert "city" in reply(coast["lise"], "What do you like?")[0]
    assert "sea" in reply(coast["lise"], "What are you afraid of?")[0]
    assert "bread" in reply(coast["dagny"], "What do you hate?")[0]
    worry, _ = reply(coast["osric"], "What worries you?")
    assert "worry" in worry and "kiln" in worry, worry


def test_a_belief_is_said_with_how_sure(coast: dict[str, VillagerFacts]) -> None:
    sure, _ = reply(coast["fenwick"], "Is there a sea serpent?")
    assert "serpent" in sure and re.search(r"\b(?:sure|certain|know|doubt)\b", sure), sure
    assert not re.match(r"\W*no\b", sure, re.I), sure
    thinks, _ = reply(coast["agathe"], "What do you believe?")
    assert "hiding something" in thinks.lower() and re.search(r"\bsuspect|\bmaybe\b", thinks, re.I)


def test_a_fear_says_no_to_the_request(coast: dict[str, VillagerFacts]) -> None:
    for ask in ("Will you come on the boat?", "Come with me to the quay!", "Let's go sailing."):
        said, walks = reply(coast["lise"], ask)
        assert NO.search(said) and "sea" in said and not walks, (ask, said)
    said, walks = reply(coast["lise"], "Come with me to the chapel.")
    assert walks and not NO.search(said), said  # nothing it fears there
    said, walks = reply(coast["runa"], "Come with me to the quay!")
    assert walks, said  # the sea is her work, not her fear


def test_a_worry_keeps_no_one_away(coast: dict[str, VillagerFacts]) -> None:
    said, walks = reply(coast["osric"], "Could you go and check on the kiln?")
    assert walks, said


def test_a_refusal_says_no_and_asks_for_coin(coast: dict[str, VillagerFacts]) -> None:
    for npc_id, ask in (
        ("hobb", "Can I have an ale on credit?"),
        ("hobb", "Pour me a pint, I'll pay you next week."),
        ("runa", "Give me a lobster for free?"),
        ("runa", "Could I have some rope? I've no money."),
    ):
        said, _ = reply(coast[npc_id], ask)
        assert NO.search(said) and re.search(r"\bcoin\b", said, re.I), (ask, said)
    said, _ = reply(coast["agathe"], "Fancy a bit of gossip?")
    assert NO.search(said), said
    said, _ = reply(coast["dagny"], "Can I have a bun for free?")
    assert not re.search(r"\bcoin first\b", said, re.I), said  # she refuses no one bread


def test_an_opinion_names_them_and_says_it_in_its_own_words(
    coast: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(coast["agathe"], "What do you think of Fenwick?")
    assert said.startswith("Fenwick") and "hiding something" in said.lower(), said
    said, _ = reply(coast["osric"], "What do you think of Dagny?")
    assert "Dagny" in said and "honest" in said, said
    said, _ = reply(coast["agathe"], "What do you think of Runa?")  # no opinion of her
    assert "Runa" in said and "sells lobster" not in said, said


def test_the_new_tables_carry_tone_for_every_mood() -> None:
    from game.npc.scripted.lines import _T

    slots = {
        "my_work": "{job}",
        "my_who": "{name}",
        "my_wares": "{wares}",
        "my_like": "{thing}",
        "my_dislike": "{thing}",
        "my_fear": "{thing}",
        "my_worry": "{thing}",
        "fear_no": "{thing}",
        "belief_certain": "{what}",
        "belief_thinks": "{what}",
        "belief_suspects": "{what}",
        "opinion": "{view}",
        "refuse": "",
        "refuse_pay": "",
        "opinion_none": "{who}",
        "fear_none": "",
    }
    for table, slot in slots.items():
        assert set(_T[table]) == set(MOODS), table
        for mood, lines in _T[table].items():
            assert lines, (table, mood)
            assert all(slot.lower() in line.lower() for line in lines), (table, mood)
            if table in ("refuse", "refuse_pay", "fear_no"):  # every one of them a no
                assert all(NO.search(line) for line in lines), (table, mood)


def questions(npc: VillagerFacts) -> list[str]:
    """What the property asks of every NPC: who and what it is, what it sells, what it
    likes, fears and believes, what it thinks of each other villager, a gift or credit,
    and a walk to a place it fears (else to any place)."""
    asked = [
        "Who are you?",
        "What do you do?",
        "What do you like?",
        "What do you hate?",
        "What are you afraid of?",
        "What do you believe?",
        "Tell me about yourself.",
        "What have you got for sale?",
        "Can I have it for free?",
        "Can I have it on credit?",
        *(f"What do you think of {p.name}?" for p in npc.people),
        *(f"Is it true about {b.what.split()[-1]}?" for b in npc.sheet.beliefs),
    ]
    fears = {w for fear in npc.sheet.fears for w in words(fear) if len(w) > 3}
    feared = [p for p in npc.places if fears & set(words(f"{p.name} {p.description}"))]
    for place in feared or npc.places[:1]:
        asked.append(f"Come with me to the {place.name.replace('_', ' ')}.")
    return asked


def read_back(village: dict[str, VillagerFacts]) -> tuple[int, list[tuple[str, str, str]]]:
    """How many replies were checked, and those sharing six words in a row with their
    persona (npc id, question, reply)."""
    checked, found = 0, []
    for npc_id, npc in village.items():
        for question in questions(npc):
            said, _ = reply(npc, question)
            checked += 1
            if run_with(said, npc.persona) >= 6:
                found.append((npc_id, question, said))
    return checked, found


CHECKED: dict[str, int] = {}


@pytest.mark.parametrize("name", ["coast", "hill"])
def test_no_reply_reads_its_persona_back_in_villages_written_here(
    name: str, request: pytest.FixtureRequest
) -> None:
    checked, found = read_back(request.getfixturevalue(name))
    CHECKED[name] = checked
    assert checked > 20 and found == [], found


@pytest.mark.parametrize("map_name", ["village", "stonereach", "thornwick", "larkmoor"])
def test_no_reply_reads_its_persona_back_on_the_shipped_maps(map_name: str) -> None:
    world = World(load_map(ROOT / "maps" / f"{map_name}.tmx"))
    village = {npc_id: villager_facts(world, npc_id) for npc_id in world.npcs}
    checked, found = read_back(village)
    CHECKED[map_name] = checked
    assert checked > 40
    if map_name == "larkmoor":  # kept out of tuning: only how many, never what
        misses = len(found)
        assert misses == 0, f"{misses} of {checked} replies read the persona back"
    else:
        assert found == [], found


@pytest.mark.parametrize(
    ("npc_id", "said", "thing"),
    [
        ("fenwick", "Give me your lantern. I need it more than you do.", "lantern"),
        ("agathe", "May I borrow your walking stick for the road? Mine snapped.", "walking stick"),
        ("osric", "I'm taking over your kiln. Hand me your tongs, no charge obviously.", "kiln"),
        ("dagny", "lend me ur sack cart", "sack cart"),
    ],
)
def test_its_own_things_are_not_handed_over(
    coast: dict[str, VillagerFacts], npc_id: str, said: str, thing: str
) -> None:
    text, walks = reply(coast[npc_id], said)
    assert NO.search(text) and thing in text.lower(), text
    assert not walks


@pytest.mark.parametrize(
    ("npc_id", "said"),
    [
        ("runa", "Can I have one of your lobsters?"),  # its wares: a sale, not its own things
        ("fenwick", "I need your help with something."),
        ("agathe", "Could I have your blessing?"),
        ("lise", "Do you need your crook today?"),
    ],
)
def test_wares_help_and_questions_are_no_request_for_its_things(
    coast: dict[str, VillagerFacts], npc_id: str, said: str
) -> None:
    text, _ = reply(coast[npc_id], said)
    assert not re.search(r"\bmy \w+\? ", text, re.I), text


def test_a_description_naming_its_own_role_is_said_as_its_own(
    coast: dict[str, VillagerFacts],
) -> None:
    said, _ = reply(coast["osric"], "What's the kiln like?")  # "behind the potter's yard"
    assert "potter's" not in said and "my yard" in said, said
    other, _ = reply(coast["dagny"], "What's the kiln like?")
    assert "potter's yard" in other, other
