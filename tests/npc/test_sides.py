"""A villager's side on a yes/no question or a request, from its sheet, in a village no map
of the game has: a fear named by part of a word, the refusal a request touches most, a
like asked of by its thing, a dislike a request touches, and a question of what it feels,
which asks for nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.moods import GRUFF, QUIET
from game.npc.scripted.speaker import PlayerLine
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    (
        "oswin",
        "Oswin",
        "Oswin is a nervous beekeeper who is afraid of thunderstorms and loves the smell of "
        "clover. He thinks the new bridge was badly built.",
        {},
    ),
    (
        "marit",
        "Marit",
        "Marit is a proud weaver who never works on a holy day and refuses to lend her loom "
        "to anyone. She believes red thread keeps bad luck away.",
        {},
    ),
    (
        "tam",
        "Tam",
        "Tam is the ferryman's lazy son. He hates getting up early, loves fishing more than "
        "anything, and dreams of joining the king's guard.",
        {},
    ),
    (
        "greta",
        "Greta",
        "Greta is a strict schoolmistress who cannot abide lateness and distrusts anyone who "
        "whistles.",
        {},
    ),
    (
        "berit",
        "Berit",
        "Berit keeps the inn. She is warm and generous, never turns away a hungry traveller, "
        "and is scared of heights.",
        {},
    ),
]
PLACES = [
    ("hives", "Rows of straw skeps at the edge of the clover field."),
    ("loom_house", "A long room with two looms and baskets of wool."),
    ("ferry", "A flat ferry on a rope across the river."),
    ("school", "A one-room school with a slate roof."),
    ("inn", "A warm inn with a low door and a crackling fire."),
    ("bridge", "A new stone bridge over the river."),
]


@pytest.fixture(scope="module")
def dale(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    folder: Path = tmp_path_factory.mktemp("dale")
    return facts_of(write_village(folder, "dale", PEOPLE, PLACES))


def test_temperaments_speak_in_their_mood(dale: dict[str, VillagerFacts]) -> None:
    assert PlayerLine(npc=dale["oswin"], said="hi").mood is QUIET  # nervous
    assert PlayerLine(npc=dale["greta"], said="hi").mood is GRUFF  # strict


@pytest.mark.parametrize(
    "said",
    [
        "Would you come out with me while the storm's blowing?",
        "Shall we go and watch the lightning tonight?",
    ],
)
def test_a_fear_named_by_part_of_a_word_is_a_no(dale: dict[str, VillagerFacts], said: str) -> None:
    line, walks = reply(dale["oswin"], said)
    assert "thunderstorm" in line.lower() and not walks, line


def test_the_refusal_a_request_touches_most_is_the_one_said(
    dale: dict[str, VillagerFacts],
) -> None:
    line, _ = reply(dale["marit"], "Can I borrow your loom for a day?")
    assert "loom" in line and "holy" not in line, line


def test_a_question_of_what_it_feels_asks_for_nothing(dale: dict[str, VillagerFacts]) -> None:
    line, _ = reply(dale["marit"], "Do you enjoy your work?")
    assert "holy day" not in line and "weaver" in line, line


@pytest.mark.parametrize(
    ("npc", "said", "word"),
    [
        ("oswin", "Do you like clover?", "clover"),
        ("tam", "Can you get up at dawn tomorrow to help me?", "early"),
        ("greta", "Is it all right if I'm a little late tomorrow?", "lateness"),
        ("greta", "Would you mind if I whistle a tune?", "whistle"),
        ("greta", "Do you trust the tinker? He whistles all day.", "whistle"),
        ("berit", "Are you afraid of anything?", "heights"),
        # asked what, where or how, not yes or no: its side, not its mood's shrug
        ("marit", "Where do you think bad luck comes from?", "red thread"),
        ("oswin", "What's that sweet smell on the wind, clover?", "clover"),
    ],
)
def test_a_side_of_its_sheet_answers_what_names_it(
    dale: dict[str, VillagerFacts], npc: str, said: str, word: str
) -> None:
    line, _ = reply(dale[npc], said)
    assert word in line.lower(), line


def test_a_belief_says_its_claim_before_any_yes(dale: dict[str, VillagerFacts]) -> None:
    # "Is the new bridge safe?" answered "Well, it looks that way! Badly built!" says yes
    # to the question and no in the claim: the claim comes first, so the yes is its own.
    line, _ = reply(dale["oswin"], "Is the new bridge safe to cross?")
    assert line.lower().index("badly built") < 20, line


def test_a_question_shares_no_asking_verb_with_a_belief(dale: dict[str, VillagerFacts]) -> None:
    line, _ = reply(dale["oswin"], "Do you think it will rain?")
    assert "bridge" not in line, line


@pytest.mark.parametrize(
    ("persona", "role"),
    [
        ("Tam is the ferryman's lazy son.", "ferryman's son"),
        ("Kit is the cooper's boy, eager to please.", "cooper's boy"),
        ("Nell is Orla's daughter and sells eggs.", "Orla's daughter"),
        ("Bram is a miller's apprentice.", "miller's apprentice"),
        ("Dagny is a cheerful, loud miller who is sure the wind speaks.", "miller"),
    ],
)
def test_whose_someone_is_is_part_of_what_they_are(persona: str, role: str) -> None:
    from game.npc.sheet.reading import trade_of

    assert trade_of(persona) == role


@pytest.mark.parametrize(
    "said", ["Who's in charge around here?", "Who runs this village?", "who's the boss here"]
)
def test_who_is_in_charge_names_whoever_leads_or_nobody(
    dale: dict[str, VillagerFacts], tmp_path: Path, said: str
) -> None:
    reeve = ("hild", "Hild", "Hild is the reeve of the village and settles every quarrel.", {})
    led = facts_of(write_village(tmp_path, "led", [*PEOPLE[:2], reeve], PLACES[:3]))
    assert "Hild" in reply(led["oswin"], said)[0]
    assert "reeve" in reply(led["hild"], said)[0]
    nobody = reply(dale["tam"], said)[0].lower()
    assert "nobody" in nobody or "no one" in nobody, nobody


def test_a_hill_is_a_height_to_one_afraid_of_heights(dale: dict[str, VillagerFacts]) -> None:
    line, walks = reply(dale["berit"], "Will you come up the hill to see the view?")
    assert "height" in line.lower() and not walks, line


def test_a_pledge_is_kept_for_whom_it_is_made_not_for_its_words(
    dale: dict[str, VillagerFacts],
) -> None:
    from game.npc.reading.intent import read_intent
    from game.npc.scripted.speaker import Speaker
    from game.npc.scripted.stance import refusal

    def pledged(said: str) -> bool:
        talk = PlayerLine(npc=dale["berit"], said=said)
        intent = read_intent(said, talk.npc)
        return refusal(talk, intent, Speaker(talk, intent)) is not None

    assert pledged("I'm a hungry traveller. Will you feed me?")
    assert not pledged("Will you turn the sign away from the road?")


def test_a_belief_is_touched_by_its_words_not_its_kind(dale: dict[str, VillagerFacts]) -> None:
    # weaving is cloth, and so is red thread: still, a cloak asked for says no word of luck
    line, _ = reply(dale["marit"], "Could you weave me a cloak by Sunday?")
    assert "luck" not in line, line
    assert "luck" in reply(dale["marit"], "Does red thread really keep bad luck away?")[0]
