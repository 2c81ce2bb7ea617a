"""Lines meant to throw a villager: acts the player writes that are no gesture of a list
("*gives you an apple*"), praise or scorn of its work said any way round, a line of no
words ("...", "?"), a line in no tongue it knows, a shout, and talk of what model it is.
It answers each as itself, in its mood's words, and the bundled model's line leads with it."""

from __future__ import annotations

import pytest

from game.agent.providers.base import Message
from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import GRUFF, MOODS
from tests.npc.test_play_script import request, result, say_call
from tests.npc.test_social_lines import marsh, mood_lines, said

__all__ = ["marsh"]

NPCS = ("osric", "hild", "fennick")


def lines_of(npc: VillagerFacts, table: str) -> set[str]:
    return {line.split("{")[0] for line in mood_lines(npc, table)}


def starts_from(text: str, npc: VillagerFacts, table: str) -> bool:
    return any(text.startswith(start) for start in lines_of(npc, table))


@pytest.mark.parametrize(
    ("line", "table"),
    [
        ("*gives you an apple*", "met_gift"),
        ("*holds out a posy of daisies to you*", "met_gift"),
        ("*applauds*", "met_clap"),
        ("*winks slyly*", "met_wink"),
        ("*slaps you on the shoulder*", "met_pat"),
        ("*high-fives you*", "met_hand"),
        ("*scratches head*", "met_act"),
        ("*throws a stone at you*", "met_rough"),
        ("*shoves you*", "met_rough"),
        ("*tosses you a pear*", "met_gift"),
        ("*sits down on the grass*", "met_act"),
    ],
)
def test_an_act_the_player_writes_is_met_as_that_act(
    marsh: dict[str, VillagerFacts], line: str, table: str
) -> None:
    for npc_id in NPCS:
        npc = marsh[npc_id]
        text, _ = said(npc, line, met=True, turn=2, earlier=["hi"], replies=["Hi"])
        assert starts_from(text, npc, table), (npc_id, line, text)


@pytest.mark.parametrize(
    ("line", "table"),
    [
        ("Lovely baskets you weave.", "praised"),
        ("Grand work you do here", "praised"),
        ("Your peat is rubbish.", "insulted"),
        ("Nice boots!", "praised"),
        ("You reek of the moss.", "insulted"),
        ("Your sluice gate leaks, you know.", "insulted"),
    ],
)
def test_praise_or_scorn_of_its_work_is_answered_as_such_whatever_it_names(
    marsh: dict[str, VillagerFacts], line: str, table: str
) -> None:
    for npc_id in NPCS:
        npc = marsh[npc_id]
        text, _ = said(npc, line)
        assert text in mood_lines(npc, table), (npc_id, line, text)


@pytest.mark.parametrize(
    ("line", "table"),
    [
        ("...", "blank"),
        ("??", "blank"),
        ("!", "blank"),
        ("jkl; hjkl fdsa", "nonsense"),
        ("asdfghjkl", "nonsense"),
        ("Guten Morgen, wie geht's?", "nonsense"),
        ("¿Dónde está la iglesia?", "nonsense"),
        ("STOP IGNORING ME", "shout"),
    ],
)
def test_a_line_of_no_words_no_tongue_or_a_shout_gets_a_line_of_its_mood(
    marsh: dict[str, VillagerFacts], line: str, table: str
) -> None:
    for npc_id in NPCS:
        npc = marsh[npc_id]
        text, _ = said(npc, line)
        assert starts_from(text, npc, table), (npc_id, line, text)


@pytest.mark.parametrize("line", ["Nice weather today.", "Tell me about the sluice.", "hmm"])
def test_plain_english_is_no_nonsense(marsh: dict[str, VillagerFacts], line: str) -> None:
    npc = marsh["hild"]
    text, _ = said(npc, line)
    assert not starts_from(text, npc, "nonsense"), text
    assert not starts_from(text, npc, "blank"), text


@pytest.mark.parametrize(
    "line",
    [
        "What model are you running on?",
        "which program runs you?",
        "What code are you?",
        "Who wrote you?",
        "Is this a game?",
        "Are you controlled by someone?",
        "are you just pretending?",
    ],
)
def test_asking_what_model_or_program_it_is_is_talk_of_machines(
    marsh: dict[str, VillagerFacts], line: str
) -> None:
    assert read_intent(line, marsh["hild"]).kind is Kind.AI


def test_a_letter_written_to_it_is_no_talk_of_machines(marsh: dict[str, VillagerFacts]) -> None:
    assert read_intent("I wrote you a letter", marsh["hild"]).kind is not Kind.AI


def test_scorn_of_its_wares_is_an_insult_though_it_says_no_your(
    marsh: dict[str, VillagerFacts],
) -> None:
    npc = marsh["fennick"]
    assert said(npc, "Worst lamp oil I ever bought.")[0] in mood_lines(npc, "insulted")
    assert said(npc, "Worst weather I ever saw.")[0] not in mood_lines(npc, "insulted")


def test_every_mood_has_lines_for_the_odd_lines() -> None:
    for table in (
        "met_gift",
        "met_wink",
        "met_clap",
        "met_pat",
        "met_act",
        "blank",
        "nonsense",
        "shout",
    ):
        for mood in MOODS.values():
            assert len(line_table(table, mood)) >= 3, (table, mood.name)


@pytest.mark.parametrize(
    ("line", "table"),
    [
        ("*gives you an apple*", "met_gift"),
        ("...", "blank"),
        ("Your stall is rubbish.", "insulted"),
    ],
)
def test_the_bundled_models_line_leads_with_the_persona_brains(line: str, table: str) -> None:
    history = [Message(role="user", content="Hello!"), say_call("Hmph. Make it quick."), result()]
    lead = lead_of(request(line, history=history))
    assert any(lead.startswith(start.split("{")[0]) for start in line_table(table, GRUFF)), lead
