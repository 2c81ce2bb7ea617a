"""A villager asked how it works, why, who taught it, how long or the hardest part answers
from what its persona says of it, in its own first person and never read back; when the
persona says nothing of how, it says less, but true, about its work."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.sheet.ways import past_of, reasons_of, ways_of
from tests.npc.test_sheet_answers import facts_of, reply, run_with, write_village

PLACES = [
    ("wheelshop", "A low timber shop stacked with spokes and felloes."),
    ("saltpans", "Shallow clay pans on the shore, white with crusted salt."),
    ("lace_house", "A quiet upstairs room with a wide window over the lane."),
    ("granary", "A raised stone granary on mushroom-shaped stones."),
]
PEOPLE = [
    (
        "odo",
        "Odo",
        "Odo builds cart wheels at the wheelshop. He bends the ash rims over steam and "
        "hammers each spoke into the hub by hand. His uncle taught him the trade when he "
        "was twelve. He is gruff and short with people.",
        {},
    ),
    (
        "sabine",
        "Sabine",
        "Boils seawater in the saltpans. Rakes the salt at dusk so the wind cannot take it. "
        "Been at it for thirty years. The hardest part is standing over the fires in summer. "
        "Few words.",
        {},
    ),
    (
        "liesl",
        "Liesl",
        "Liesl makes lace in the lace house and she could talk about patterns all day; she "
        "works by the window because her eyes are not what they were, and she keeps every "
        "pattern in her head, which is why she never writes one down.",
        {},
    ),
    (
        "wilma",
        "Wilma",
        "Wilma is the village cooper's wife and a soap boiler. She stirs her soap nine times "
        "so it sets hard and clean. She learned the craft as a girl in the town.",
        {},
    ),
    ("tova", "Tova", "Tova keeps the granary accounts. She is cheerful and loud.", {}),
    (
        "brun",
        "Brun",
        "Brun minds the granary. He thinks Odo is a good neighbour. He believes the cats "
        "keep the grain safe. He sweeps the floor every night because his father said rats "
        "come where crumbs lie. He sells sacks of oats for two coins a sack.",
        {},
    ),
]


@pytest.fixture(scope="module")
def shore(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    folder = tmp_path_factory.mktemp("shore")
    return facts_of(write_village(folder, "shore", PEOPLE, PLACES))


def persona(npc: VillagerFacts) -> str:
    return npc.persona


def test_the_sheet_reads_ways_reasons_and_past_in_any_wording() -> None:
    odo, sabine, liesl = (p[2] for p in PEOPLE[:3])
    assert "bends the ash rims over steam" in ways_of(odo, "Odo")
    assert any("uncle taught him" in p for p in past_of(odo, "Odo"))
    assert any("thirty years" in p for p in past_of(sabine, "Sabine"))
    assert "the wind cannot take it" in reasons_of(sabine, "Sabine").values()
    why = reasons_of(liesl, "Liesl")
    assert "her eyes are not what they were" in why.values()
    assert any("never writes one down" in done for done in why), why  # "which is why"
    brun = PEOPLE[3][2]
    assert not any("coins" in way or "oats" in way for way in ways_of(brun, "Brun"))  # a sale


@pytest.mark.parametrize(
    ("who", "line", "said"),
    [
        ("odo", "How do you make a wheel?", "steam"),
        ("odo", "Who taught you?", "uncle"),
        ("sabine", "how is salt made?", "salt"),
        ("sabine", "Why do you rake the salt at dusk?", "wind"),
        ("sabine", "How long have you been doing this?", "thirty years"),
        ("sabine", "What's the hardest part of the job?", "fires"),
        ("liesl", "Why do you work by the window?", "eyes"),
        ("liesl", "Why do you never write a pattern down?", "head"),
        ("brun", "Why do you keep cats?", "grain safe"),
        ("brun", "Why do you sweep every night?", "rats come"),
        ("wilma", "How is your soap made?", "nine times"),
        ("wilma", "Why stir it so much?", "it sets hard"),  # the soap sets, not she
        ("wilma", "Where did you learn soap boiling?", "as a girl"),
    ],
)
def test_how_and_why_are_answered_from_the_persona_in_its_own_words(
    shore: dict[str, VillagerFacts], who: str, line: str, said: str
) -> None:
    npc = shore[who]
    text, _ = reply(npc, line)
    assert said in text.lower(), text
    assert not any(w in text for w in (" she ", " he ", " his ", " her ")), text  # its own
    assert run_with(text, npc.persona) <= 5, text  # never the persona read back


def test_a_how_the_persona_does_not_tell_is_a_short_true_line_of_its_work(
    shore: dict[str, VillagerFacts],
) -> None:
    text, walks = reply(shore["tova"], "How do you keep the grain dry?")
    assert "granary" in text.lower() and not walks, text
    assert "mushroom" not in text, text  # not the place read out


def test_a_why_is_no_farewell_and_how_of_another_is_about_them(
    shore: dict[str, VillagerFacts],
) -> None:
    assert read_intent("Why rake the salt so long?", shore["sabine"]).kind.name != "BYE"
    text, _ = reply(shore["brun"], "How do you get on with Odo?")
    assert "Odo" in text, text


def test_what_it_did_today_is_its_work_and_how(shore: dict[str, VillagerFacts]) -> None:
    text, _ = reply(shore["odo"], "What did you do today?")
    assert "wheel" in text.lower() and ("steam" in text or "spoke" in text), text


def test_no_shipped_map_reads_a_way_of_someone_else(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2] / "maps"
    for name in ("village.tmx", "stonereach.tmx", "thornwick.tmx"):
        for npc in facts_of(root / name).values():
            for way in npc.sheet.ways:
                assert not way.lower().startswith(("she ", "he ", "they ")), (name, way)
