"""A second village of trades no map of the game has (a tanner, a brewer, a swineherd, a
cobbler, a basket weaver, a carpenter): a belief with its thing after the verb, a
request said after a remark, a no on a full moon, a dislike of someone's ways, a joke
asked for and the NPC's own work asked by its things."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.claims import claim_phrases
from game.npc.scripted.lines import line_table
from game.npc.scripted.speaker import PlayerLine
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    (
        "hobb",
        "Hobb",
        "Hobb is the tanner; he soaks and scrapes hides in the pits by the stream. He is a "
        "gruff man of few words. He swears oak bark makes the only leather worth having. He "
        "is afraid of the river in flood.",
        {"work": "tannery"},
    ),
    (
        "maudie",
        "Maudie",
        "Maudie is the brewer. She is jolly and loud. She believes hops picked at dawn make "
        "the sweetest ale. She will not serve anyone who is already drunk.",
        {"work": "brewhouse"},
    ),
    (
        "ned",
        "Ned",
        "Ned is the swineherd; he drives the village pigs into the oak wood for acorns. He is "
        "a shy boy.",
        {"work": "pig_wood"},
    ),
    (
        "crispin",
        "Crispin",
        "Crispin is the cobbler. He is fussy and formal. He believes a man's boots tell you "
        "his whole character. He cannot stand mud on his floor.",
        {"work": "cobbler_shop"},
    ),
    (
        "elspeth",
        "Elspeth",
        "Elspeth is the old basket weaver. She is wise and gentle. She will not cut willow "
        "under a full moon.",
        {},
    ),
    (
        "jory",
        "Jory",
        "Jory is the carpenter. He is cheerful and full of bad jokes. He will never build "
        "with green wood. He dislikes Crispin's fussing. He loves his dog Patch more than "
        "anything.",
        {},
    ),
]
PLACES = [
    ("tannery", "A tannery by the stream with hides soaking in pits."),
    ("brewhouse", "A brewhouse with copper vats and a smell of malt."),
    ("pig_wood", "An oak wood where the pigs root for acorns."),
    ("cobbler_shop", "A cobbler's shop with lasts on the wall."),
    ("ford", "A ford where the road crosses the river over flat stones."),
]


@pytest.fixture(scope="module")
def ford(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("ford"), "ford", PEOPLE, PLACES))


def said(npc: VillagerFacts, line: str) -> str:
    return reply(npc, line)[0]


def test_a_belief_is_never_cut_after_its_verb() -> None:
    made = claim_phrases("oak bark makes the only leather worth having")
    assert "The only leather worth having? Oak bark makes it" in made, made
    assert not any(p.endswith(("makes", "It makes")) for p in made), made
    hops = claim_phrases("hops picked at dawn make the sweetest ale")
    assert hops[0] == "Hops picked at dawn? They make the sweetest ale", hops
    assert "Picked at dawn, hops make the sweetest ale" in hops, hops
    boots = claim_phrases("a man's boots tell you his whole character")
    assert boots[0] == "A man's boots? They tell you his whole character", boots
    assert not any(p.endswith("will make") for p in claim_phrases("Ned will make a fine man")), (
        claim_phrases("Ned will make a fine man")
    )


def test_a_persona_reads_his_of_someone_else_as_theirs(ford: dict[str, VillagerFacts]) -> None:
    beliefs = [b.what for b in ford["crispin"].sheet.beliefs]
    assert "a man's boots tell you his whole character" in beliefs, beliefs
    assert ford["jory"].sheet.likes == ("my dog Patch",)


@pytest.mark.parametrize(
    ("npc", "line", "expected"),
    [
        # a request said after a remark, touching a fear
        ("hobb", "The river's rising fast. Help me move my cart across the ford?", r"\bflood"),
        ("maudie", "One more pint, Maudie!", r"\bdrunk"),
        ("crispin", "Sorry about the mud, I'll just come in and wait.", r"\bmud\b"),
        ("elspeth", "Cut me some willow tonight, the moon's full and bright.", r"full moon"),
        ("jory", "Build me a table from this oak, I need it by Friday.", r"green wood"),
        ("jory", "What do you think of Crispin?", r"I dislike (?:his|their) fussing"),
        ("ned", "Hello there! What are you doing with all these pigs?", r"swineherd|pigs"),
    ],
)
def test_it_answers_what_was_asked(
    ford: dict[str, VillagerFacts], npc: str, line: str, expected: str
) -> None:
    text = said(ford[npc], line)
    assert re.search(expected, text, re.I), text
    assert "oak wood where the pigs root" not in text, text  # not its place described


def test_a_joke_asked_for_is_a_joke(ford: dict[str, VillagerFacts]) -> None:
    npc = ford["jory"]
    text = said(npc, "Tell me a joke, Jory!")
    assert text in line_table("joke_told", PlayerLine(npc=npc, said="hi").mood), text
