"""A villager's hello, goodbye and the things it is asked to do that no gesture is named
for, in its own voice: the mood read from how the persona says it is (not from what it
thinks of a neighbour), a titled name said whole ("Mother Gisla"), a bow, a smile, a
handshake, a show of anger or a dance asked for made with the nearest gesture and said as
itself, and the bundled model's hello led by the persona brain's."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.agent.providers.base import Message
from game.gestures import ACTS, LAUGH, NOD, SHAKE_HEAD
from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.reading.words import called
from game.npc.scripted.between import heard_plan
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import CHEERFUL, GRUFF, QUIET, mood_of
from game.npc.scripted.speaker import PlayerLine, said_by
from tests.npc.test_play_script import request, result, say_call
from tests.npc.test_social_lines import _village, said

PEOPLE = {
    "orrin": "Orrin is the ropemaker. He is a gruff man of few words who would sooner "
    "twist hemp than talk.",
    "gisela": "Mother Gisela is the midwife. She is old, bossy and warm-hearted and calls "
    "everybody pet. She says Orrin has a good heart under all that grumbling.",
    "hew": "Hew dyes wool by the ford. He is dry, sarcastic and mocking, and pokes fun at "
    "everyone.",
    "ansel": "Ansel minds the lock gates. He is shy and timid and keeps to himself.",
}
NAMES = {"gisela": "Mother Gisela"}


@pytest.fixture(scope="module")
def folk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    import tests.npc.test_social_lines as social

    named = {**social.NAMES, **NAMES}
    old, social.NAMES = social.NAMES, named
    try:
        return _village(Path(tmp_path_factory.mktemp("folk")), PEOPLE)
    finally:
        social.NAMES = old


def test_a_persona_speaks_in_its_own_temperament_not_a_neighbours(
    folk: dict[str, VillagerFacts],
) -> None:
    def mood(npc_id: str) -> object:
        return mood_of(folk[npc_id].persona, folk[npc_id].sheet.talks)

    # what it says of someone else ("all that grumbling") is no grumbling of its own
    assert mood("gisela") is CHEERFUL
    assert mood_of("Ada thinks Bram is a sour, grumbling old miser. She is bright.") is CHEERFUL
    # "few words" is a way of talking a gruff one shares with a shy one
    assert "few words" in folk["orrin"].sheet.talks
    assert mood("orrin") is GRUFF
    assert mood_of("Nell is quiet and uses few words.", ("few words",)) is QUIET
    # a mocker speaks a grumbler's lines, never a jolly one's
    assert mood("hew") is GRUFF
    assert mood("ansel") is QUIET


def test_a_titled_name_is_said_whole() -> None:
    assert called("Mother Gisela") == "Mother Gisela"
    assert called("Old Tom") == "Old Tom"
    assert called("Brenna Ash") == "Brenna"
    assert called("Wren") == "Wren"


def test_a_titled_villager_introduces_itself_by_its_whole_name(
    folk: dict[str, VillagerFacts],
) -> None:
    for turn in range(6):
        text, _ = said(folk["gisela"], "Hello!", turn=turn)
        assert "Mother." not in text, text
        assert "Mother" not in text.replace("Mother Gisela", ""), text


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("Bow to the lady.", "bow"),
        ("would you curtsy for the mayor?", "bow"),
        ("Can you dance?", "dance"),
        ("go on, do a little jig!", "dance"),
        ("Shake my hand.", "hand"),
        ("Show me you're angry.", "angry"),
        ("Make a scary face!", "angry"),
        ("put on your grumpiest face", "angry"),
        ("give us a twirl!", "dance"),
        ("Give us a smile.", "smile"),
    ],
)
def test_an_act_asked_for_is_made_with_its_gesture_and_said_as_itself(
    folk: dict[str, VillagerFacts], line: str, act: str
) -> None:
    intent = read_intent(line, folk["orrin"])
    assert (intent.kind, intent.sub, intent.gesture) == (Kind.GESTURE, act, ACTS[act].shown.name)
    for npc in folk.values():
        text, gestures = said(npc, line)
        assert gestures == [ACTS[act].shown.name], (npc.npc_id, line, gestures)
        mood = PlayerLine(npc=npc, said=line).mood  # its mood's line for the act
        assert text in line_table(f"act_{act}", mood), (npc.npc_id, line, text)


@pytest.mark.parametrize(
    "line",
    [
        "Do you like to dance?",
        "What makes you smile?",
        "I love your smile",
        "don't frown",
        "the bow of the boat is cracked",
        "are you angry with me?",
    ],
)
def test_talk_of_an_act_asks_for_none(folk: dict[str, VillagerFacts], line: str) -> None:
    assert read_intent(line, folk["orrin"]).kind is not Kind.GESTURE


def test_every_mood_has_lines_for_every_act() -> None:
    shown = {LAUGH.name, NOD.name, SHAKE_HEAD.name}
    for act in ACTS.values():
        assert act.shown.name in shown
        for mood in (GRUFF, CHEERFUL, QUIET):
            assert line_table(f"act_{act.name}", mood) != line_table("chat", mood)


def test_the_bundled_models_hello_leads_with_the_persona_brains() -> None:
    # its own was "Come in, Odo." (the examples' name) or "Yes!" to "hello again!"
    first = lead_of(request("Hello there!"))
    assert first == "Hmph. Make it quick.", first  # the map maker's greeting
    history = [Message(role="user", content="Hello!"), say_call("Hmph. Make it quick."), result()]
    again = lead_of(request("Hello again!", history=history))
    gruff_again = line_table("greet_again", GRUFF)
    assert any(again.startswith(line.split("{")[0][:10]) for line in gruff_again), again


@pytest.mark.parametrize("line", ["*bows deeply*", "*hugs you*", "I offer my hand"])
def test_the_bundled_models_answer_to_a_players_gesture_leads_with_the_persona_brains(
    line: str,
) -> None:
    # its own was "I'm a bit tired." to a hug, "I'm sorry, I'm afraid." to a bow
    table = {"*bows deeply*": "met_bow", "*hugs you*": "met_hug", "I offer my hand": "met_hand"}
    history = [Message(role="user", content="Hello!"), say_call("Hmph. Make it quick."), result()]
    assert lead_of(request(line, history=history)) in line_table(table[line], GRUFF)


def test_a_neighbours_hello_is_met_as_a_neighbours_not_a_strangers(
    folk: dict[str, VillagerFacts],
) -> None:
    npc = folk["orrin"]
    for turn in range(6):
        plan = heard_plan(
            npc,
            mood_of(npc.persona, npc.sheet.talks),
            "Hew",
            "Good day to you, Orrin. Fine weather for ropemaking?",
            turn=turn,
            replies=[],
            sensed=None,
        )
        text = " ".join(s.text for s in map(said_by, plan) if s is not None)
        assert "Hew" in text, text
        assert "I'm Orrin" not in text and "call me" not in text, text
