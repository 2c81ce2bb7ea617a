"""Generic means generic: a canned line carries only its mood's tone (a greeting's shape, a
farewell, how it asks and refuses), so any villager of that mood can say it; what a villager
does, sells, likes or believes reaches a line from its character sheet and the map, through
slots, and a line whose slot the villager has nothing for is not said.

The villagers are of a coast village no map of the game has, read from a map on disk as the
game reads one.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.known import villager_facts
from game.npc.reading.intent import read_intent
from game.npc.scripted.lines import line_table, pick
from game.npc.scripted.moods import MOODS, mood_of
from game.npc.scripted.speaker import PlayerLine, Speaker, sheet_slots
from game.npc.scripted.talk import answer
from game.npc.skills.ask import AskArgs
from game.world.tiled import load_map
from game.world.world import World
from tests.npc.test_sheet import write_map

# Trades, the things of a trade and the kinds of place a village may or may not have: no
# canned line names one, since a villager of any trade, in any village, says it.
TRADE_WORDS = frozenset(
    # trades
    "smith blacksmith baker miller fisher fisherman merchant trader pedlar tinker weaver "
    "potter shepherd goatherd farmer miner keeper innkeeper brewer cooper carpenter mason "
    "tailor butcher priest sister monk healer herbalist midwife hunter sailor ferryman "
    "ferrywoman beekeeper scribe soldier knight adventurer "
    # the things of a trade, and Hollowbrook's
    "anvil forge hammer tongs horseshoe bellows iron steel bread bun loaf oven flour dough "
    "pastry rye tart cake fish net hook heron reed boat ferry lobster rope wool goat sheep "
    "hive honey pot kiln clay loom thread ale beer stew herb salve candle lamp cart stall "
    "trinket compass dragon pebble sword "
    # kinds of place
    "bakery mill windmill tavern inn chapel church temple lighthouse dock quay harbour pier "
    "pond river lake beach market bridge garden orchard farm pasture meadow quarry "
    "cottage hut yard shop".split()
)

# The coast village: (id, name, persona, more properties); one villager or more per mood.
PEOPLE: list[tuple[str, str, str, dict[str, str]]] = [
    (
        "dagny",
        "Dagny",
        "Dagny is a cheerful, loud miller who is sure the wind speaks to her. She loves a "
        "windy morning and scolds anyone who wastes bread.",
        {"work": "windmill", "home": "windmill", "wares": "flour, oats and barley meal"},
    ),
    (
        "hobb",
        "Hobb",
        "Hobb is a nosy tavern keeper who trades rumours for coin and never pours on credit.",
        {"work": "tavern", "home": "tavern"},
    ),
    (
        "agathe",
        "Sister Agathe",
        "Sister Agathe is a stern chapel sister with no time for gossip. She suspects that "
        "the lighthouse keeper is hiding something.",
        {"work": "chapel", "home": "chapel"},
    ),
    (
        "fenwick",
        "Fenwick",
        "Fenwick is a gloomy lighthouse keeper who talks in short sentences. He swears he saw "
        "a sea serpent off the point, and he is afraid of the fog.",
        {"work": "lighthouse", "home": "lighthouse"},
    ),
    (
        "lise",
        "Lise",
        "Lise is a shy shepherd who is afraid of the sea and dreams of seeing a city.",
        {"work": "pasture", "home": "pasture"},
    ),
    (
        "runa",
        "Runa",
        "Runa is a brisk ferrywoman who sells lobster and rope and haggles hard.",
        {"work": "quay", "home": "quay"},
    ),
    (
        "bertil",
        "Bertil",
        "Bertil is a calm, patient beekeeper who loves the hum of his hives.",
        {"work": "hives", "home": "hives", "wares": "honey, beeswax"},
    ),
    (
        "ivo",
        "Ivo",
        "Ivo is an eager young potter who asks questions about everything and loves a "
        "thunderstorm. He is certain the old kiln is lucky.",
        {"work": "kiln", "home": "kiln"},
    ),
    (
        "tam",
        "Tam",
        "Tam mends nets on the quay and rarely says a word. He is terrified of thunder.",
        {"work": "quay", "home": "quay"},
    ),
]
PLACES = ("windmill", "tavern", "chapel", "lighthouse", "pasture", "quay", "hives", "kiln")

# What a table's caller gives a line besides the villager's own facts (a place walked to,
# the villager asked about, the player's name...).
CALLER = {
    "place": "the square",
    "bit": "Wide and sunny",
    "desc": "A wide, sunny square.",
    "who": "Ada",
    "role": "She keeps the accounts.",
    "player": "Sam",
    "said": "my hat is blue",
    "thing": "A brass button",
    "about": "I like a clear sky.",
    "job": "I mind my work.",
    "places": "the square and the quay",
    "speaker": "Ada",
    "feared": "spiders",
    "tail": "Ask Ada at the square.",
    "what": "the tide turns early",
    "view": "hard-working",
    "them": "she",
    "deed": "give credit",
    "price": "two coins",
    "echo": "Ada's hat",
    "order": "decree",
    "claim": "a decree",
    "cond": "unless you say why",
    "when": "still morning",
    "dusk": "six o'clock",
    "dark": "ten",
    "up": "seven o'clock",
    "wares": "brass buttons and string",
    "seen": "quiet enough",
    "verb": "built",
    "among": "if you know where to look",
    "trade": "I'd know; I work there.",
    "village": "Saltwick",
    "why": "it cracks the glaze",
    "doing": "whistling",
    "then": "calls up a gale",
    "manner": "gloomy",
    "age": "sixty",
}


@pytest.fixture
def coast(tmp_path: Path) -> dict[str, VillagerFacts]:
    world = World(load_map(write_map(tmp_path, PEOPLE, PLACES)))
    return {npc_id: villager_facts(world, npc_id, met=world.npcs) for npc_id, *_ in PEOPLE}


def _tables() -> dict[str, dict[str, list[str]]]:
    text = resources.files("game.npc.scripted").joinpath("lines.json").read_text("utf-8")
    data: dict[str, dict[str, list[str]]] = json.loads(text)
    return data


def _words(text: str) -> set[str]:
    """The words of a text, each also as its singular ("hives": "hive")."""
    found = set(re.findall(r"[a-z]+", text.lower()))
    return (
        found
        | {w[:-1] for w in found if w.endswith("s")}
        | {w[:-2] for w in found if w.endswith("es")}
    )


def _own_words(npc: VillagerFacts) -> set[str]:
    """The words a villager may say: its persona's, its sheet's, its places' and the names
    of the people it knows ("Sister Agathe")."""
    places = " ".join(f"{p.name} {p.description}" for p in npc.places)
    people = " ".join(p.name for p in npc.people)
    return _words(f"{npc.persona} {npc.sheet.model_dump_json()} {places} {people}")


def test_no_canned_line_names_a_trade_a_thing_or_a_kind_of_place() -> None:
    named = [
        (kind, mood, line, sorted(_words(line) & TRADE_WORDS))
        for kind, table in _tables().items()
        for mood, lines in table.items()
        for line in lines
        if _words(line) & TRADE_WORDS
    ]
    assert named == []


def test_the_coast_village_speaks_in_every_mood(coast: dict[str, VillagerFacts]) -> None:
    moods = {npc_id: PlayerLine(npc=npc, said="hi").mood.name for npc_id, npc in coast.items()}
    assert moods["dagny"] == "cheerful" and moods["lise"] == "quiet"
    assert moods["runa"] == "shrewd" and moods["agathe"] == "gruff"
    assert moods["bertil"] == "wise" and moods["ivo"] == "curious"
    assert set(moods.values()) == set(MOODS)


def test_every_line_of_a_mood_fits_each_villager_of_it(coast: dict[str, VillagerFacts]) -> None:
    said_by_someone: set[tuple[str, str, str]] = set()
    wrong: list[tuple[str, str, str, list[str]]] = []
    for npc_id, npc in coast.items():
        talk = PlayerLine(npc=npc, said="Tell me something.")
        speaker = Speaker(talk, read_intent(talk.said, npc))
        facts = {**speaker.facts, **CALLER}
        allowed = _own_words(npc) | _words(" ".join(CALLER.values()))
        for kind in _tables():
            for line in line_table(kind, talk.mood):
                text = pick([line], 0, facts=facts)
                if not text:
                    continue  # it needs a slot this villager has nothing for
                said_by_someone.add((kind, talk.mood.name, line))
                assert "{" not in text and "}" not in text, (npc_id, line)
                others = sorted((_words(text) & TRADE_WORDS) - allowed)
                if others:
                    wrong.append((npc_id, kind, text, others))
    assert wrong == []
    never = [
        (kind, mood, line)
        for kind, table in _tables().items()
        for mood, lines in table.items()
        for line in lines
        if (kind, mood, line) not in said_by_someone
    ]
    assert never == []  # each line is said by a villager of its mood


def test_a_line_needing_what_the_villager_lacks_is_not_said(
    coast: dict[str, VillagerFacts],
) -> None:
    lines = ["Have a look at {ware} while you're here.", "Hello there."]
    for npc_id, wares in (("dagny", coast["dagny"].sheet.wares), ("lise", ())):
        talk = PlayerLine(npc=coast[npc_id], said="Hello.")
        facts = Speaker(talk, read_intent(talk.said, talk.npc)).facts
        said = {pick(lines, seed, facts=facts) for seed in range(6)} - {"Hello there."}
        offered = {f"Have a look at {w} while you're here." for w in wares}
        assert len(said) == 1 and said <= offered if wares else said == set()
    assert coast["lise"].sheet.wares == () and coast["dagny"].sheet.wares


def test_each_moods_question_offers_the_millers_wares(coast: dict[str, VillagerFacts]) -> None:
    miller = coast["dagny"]
    assert miller.sheet.wares == ("flour", "oats", "barley meal")
    for mood in MOODS.values():
        for seed in range(4):
            question = mood.question_for(sheet_slots(miller, seed))
            assert question is not None, mood.name
            assert any(ware in question.text for ware in miller.sheet.wares), question.text
            AskArgs(question=question.text, options=[o for o, _ in question.answers])


def test_a_question_is_about_the_sheet_or_not_put(coast: dict[str, VillagerFacts]) -> None:
    # Ivo has no wares: the curious mood asks about what he believes.
    ivo = PlayerLine(npc=coast["ivo"], said="Hi.").question
    assert ivo is not None and ivo.text == "Do you believe the old kiln is lucky?"
    # Tam has no wares, likes or beliefs: no mood has anything to ask him.
    tam = coast["tam"]
    assert not (tam.sheet.wares or tam.sheet.likes or tam.sheet.beliefs)
    assert all(mood.question_for(sheet_slots(tam, 0)) is None for mood in MOODS.values())


def test_the_miller_asks_the_player_about_her_own_wares(coast: dict[str, VillagerFacts]) -> None:
    miller = coast["dagny"]
    asked = []
    for i in range(30):
        talk = PlayerLine(npc=miller, said=f"Lovely weather {i}.", turn=i, talks=1, met=True)
        asked += [s.args.question for s in answer(talk) if getattr(s, "name", "") == "ask"]
    assert asked, "the miller never asked"
    assert all(re.search(r"\b(flour|oats|barley meal)\b", q) for q in asked), asked


def test_a_mood_is_read_from_temperament_and_talk_never_from_a_trade() -> None:
    for trade in ("blacksmith at the forge", "baker", "fisher by the river", "child", "merchant"):
        assert mood_of(f"Ada is a {trade}.") is MOODS["cheerful"], trade
    assert mood_of("Ada is a miller.", talks=("few words",)) is MOODS["quiet"]
    assert mood_of("Ada is a shy baker.") is MOODS["quiet"]
    assert mood_of("Ada is a gruff fisher.") is MOODS["gruff"]
    assert mood_of("Ada is a patient smith.") is MOODS["wise"]


def test_a_talk_does_not_say_a_lines_own_words_twice() -> None:
    # Asked of two likes in one talk, a villager says the second in other words than the
    # first ("A clear sky! I love it! Do you?", then not "The smell of rain! I love it!...").
    first_thing, second_thing = "a clear sky", "the smell of rain"
    for mood in MOODS.values():
        table = line_table("my_like", mood)
        for seed in range(len(table)):
            first = pick(table, seed, facts={"thing": first_thing})
            second = pick(table, seed, [first], facts={"thing": second_thing})
            assert second, (mood.name, seed)
            assert second.lower().replace(second_thing, first_thing) != first.lower(), second
