"""The short social lines in the villager's own voice: its first hello (the map maker's
`greeting`, else one of its mood with its name in it, never a hello-again to a stranger),
its answer to a gesture the player makes, and to praise or an insult aimed at it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.gestures import LAUGH, NOD, SHAKE_HEAD, WAVE
from game.npc.facts import FeelingFact, SensedFacts, VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import MOODS
from game.npc.scripted.persona import line_for
from game.npc.scripted.social import player_gesture
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.scripted.voice import voiced
from game.npc.skills import EMOTE
from tests.npc.test_sheet_answers import facts_of, write_village
from tests.world.crowd import crowd_map, prop

# A marsh village of no map of the game, written as different map makers write.
PEOPLE = [
    (
        "osric",
        "Osric Dunn",
        "Osric cuts peat on the moss. He is loud and jolly, sings while he works and "
        "calls everyone 'my friend'.",
        {},
    ),
    ("hild", "Hild", "Eel trapper. Dour. Few words. Trusts nobody.", {}),
    (
        "sabine",
        "Sabine Orr",
        "She weaves baskets of willow by the sluice and is shy with strangers.",
        {"greeting": "Oh... a visitor. Hello."},
    ),
    (
        "fennick",
        "Fennick",
        "Fennick sells lamp oil and wicks from his barrow and is a canny, haggling sort "
        "who never gives credit.",
        {},
    ),
]
NAMES = {npc_id: name for npc_id, name, _, _ in PEOPLE}
PLACES = [
    ("moss", "A wide brown bog cut into steps where the peat is dug."),
    ("sluice", "A wooden sluice gate where the channel meets the river."),
]


def _village(folder: Path, people: dict[str, str], **greetings: str) -> dict[str, VillagerFacts]:
    """A map on disk of these NPCs (id -> persona) and the marsh's places, read back."""
    data = crowd_map(len(people), places=len(PLACES))
    layers = {layer["name"]: layer for layer in data["layers"]}
    for obj, (npc_id, persona) in zip(layers["npcs"]["objects"], people.items(), strict=True):
        obj["name"] = NAMES.get(npc_id, npc_id.title())
        obj["properties"] = [prop("id", npc_id), prop("persona", persona), prop("sprite", "baker")]
        if npc_id in greetings:
            obj["properties"].append(prop("greeting", greetings[npc_id]))
    for obj, (place, description) in zip(layers["places"]["objects"][1:], PLACES, strict=True):
        obj["name"] = place
        obj["properties"] = [prop("description", description)]
    path = folder / "marsh.tmj"
    path.write_text(json.dumps(data), encoding="utf-8")
    return facts_of(path)


@pytest.fixture(scope="module")
def marsh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    people = {npc_id: persona for npc_id, _, persona, _ in PEOPLE}
    greetings = {npc_id: more["greeting"] for npc_id, _, _, more in PEOPLE if more}
    return _village(tmp_path_factory.mktemp("marsh"), people, **greetings)


def said(npc: VillagerFacts, line: str, **more: object) -> tuple[str, list[str]]:
    """What the NPC says to the player's line, and the gestures it makes."""
    plan = answer(PlayerLine(npc=npc, said=line, **more))  # type: ignore[arg-type]
    text = " ".join(s.text for s in map(said_by, plan) if s is not None)
    gestures = [str(s.arguments()["name"]) for s in plan if getattr(s, "skill", None) is EMOTE]
    return text, gestures


def mood_lines(npc: VillagerFacts, table: str) -> tuple[str, ...]:
    return line_table(table, PlayerLine(npc=npc, said="").mood)


AGAIN = ("again", "back", "twice", "return")


@pytest.mark.parametrize("hello", ["Hello!", "good morning", "hey there", "Greetings."])
@pytest.mark.parametrize("npc_id", ["osric", "hild", "fennick"])
def test_a_first_hello_without_a_greeting_is_its_moods_and_never_a_hello_again(
    marsh: dict[str, VillagerFacts], npc_id: str, hello: str
) -> None:
    text, gestures = said(marsh[npc_id], hello)
    assert gestures == [WAVE.name]
    assert not any(word in text.lower() for word in AGAIN), text
    assert text.lower() not in ("hello.", "hello there.", "good day.")


def test_a_loud_cheerful_villager_says_hello_loudly_and_a_terse_one_briefly(
    marsh: dict[str, VillagerFacts],
) -> None:
    for hello in ("Hello!", "hi", "good evening"):
        loud, _ = said(marsh["osric"], hello)
        terse, _ = said(marsh["hild"], hello)
        assert "!" in loud and len(loud.split()) >= 4, loud
        assert "!" not in terse and len(terse.split()) <= 10, terse


def test_the_map_makers_greeting_is_the_first_hello_spoken_or_not(
    marsh: dict[str, VillagerFacts],
) -> None:
    sabine = marsh["sabine"]
    assert said(sabine, "Hi!")[0] == "Oh... a visitor. Hello."
    assert line_for(sabine, "", 0) == "Oh... a visitor. Hello."
    first = line_for(marsh["osric"], "", 0)  # no greeting: its mood's first hello
    assert first in {
        line.replace("{first}", "Osric").replace("{Good}", "Good day")
        for line in mood_lines(marsh["osric"], "greet_first")
    }


def test_a_hello_again_is_not_said_word_for_word_twice(marsh: dict[str, VillagerFacts]) -> None:
    npc = marsh["osric"]
    first, _ = said(npc, "Hello!", met=True, turn=1, earlier=["hi"], replies=["Hi!"])
    second, _ = said(npc, "Hello!", met=True, turn=2, earlier=["hi", "Hello!"], replies=[first])
    assert first != second


@pytest.mark.parametrize(
    ("line", "gesture", "table"),
    [
        ("*bows*", NOD.name, "met_bow"),
        ("I bow low.", NOD.name, "met_bow"),
        ("*offers a hand to shake*", NOD.name, "met_hand"),
        ("shakes your hand", NOD.name, "met_hand"),
        ("*waves*", WAVE.name, "met_wave"),
        ("(smiles)", NOD.name, "met_smile"),
    ],
)
def test_a_gesture_of_the_players_is_answered_by_one_and_a_line_on_it(
    marsh: dict[str, VillagerFacts], line: str, gesture: str, table: str
) -> None:
    for npc_id in ("osric", "hild", "fennick"):
        npc = marsh[npc_id]
        text, gestures = said(npc, line)
        assert gestures == [gesture]
        assert text in mood_lines(npc, table), (npc_id, text)


def test_a_hug_is_met_in_the_moods_way(marsh: dict[str, VillagerFacts]) -> None:
    assert said(marsh["osric"], "*hugs him*")[1] == [LAUGH.name]
    assert said(marsh["hild"], "*hugs her*")[1] == [SHAKE_HEAD.name]


def test_a_first_wave_or_hand_to_one_with_a_greeting_gets_the_greeting(
    marsh: dict[str, VillagerFacts],
) -> None:
    assert said(marsh["sabine"], "*waves*") == ("Oh... a visitor. Hello.", [WAVE.name])
    text, _ = said(marsh["sabine"], "*waves*", met=True, turn=2, earlier=["hi"], replies=["Hi"])
    assert text in mood_lines(marsh["sabine"], "met_wave")


@pytest.mark.parametrize(
    "line",
    ["wave at me", "*shakes head*", "I think so.", "I want to see you smile", "hug?", "Hello"],
)
def test_words_that_are_not_a_gesture_of_the_players_are_not_read_as_one(line: str) -> None:
    assert player_gesture(line) is None


@pytest.mark.parametrize(
    ("line", "table"),
    [
        ("You're a cheat.", "insulted"),
        ("you are a miserable old wretch", "insulted"),
        ("You're lovely, you know that?", "praised"),
        ("You're very kind.", "praised"),
    ],
)
def test_praise_and_insults_aimed_at_it_are_answered_as_such(
    marsh: dict[str, VillagerFacts], line: str, table: str
) -> None:
    for npc_id in ("osric", "hild", "fennick"):
        npc = marsh[npc_id]
        assert said(npc, line)[0] in mood_lines(npc, table), (npc_id, line)


def test_a_question_with_a_kind_word_in_it_is_no_praise(marsh: dict[str, VillagerFacts]) -> None:
    npc = marsh["osric"]
    text, _ = said(npc, "Do you like your work?")
    assert text not in mood_lines(npc, "praised")


def test_late_the_first_hello_does_not_say_good_day(marsh: dict[str, VillagerFacts]) -> None:
    for hello in ("Hello!", "hi", "hey", "greetings", "evening!", "hullo"):
        text, _ = said(marsh["osric"], hello, sensed=SensedFacts(hour=20.5))
        assert "Good day" not in text and "morning" not in text.lower(), text


def test_a_villager_cross_with_the_player_greets_it_coldly(
    marsh: dict[str, VillagerFacts],
) -> None:
    npc = marsh["osric"]
    cross = FeelingFact(other_id="player", name="", value=-0.5, word="cross")
    sensed = SensedFacts(hour=10.0, feelings=[cross])
    text, _ = said(npc, "Hello!", met=True, turn=3, earlier=["hi"], sensed=sensed)
    assert any(line in text for line in mood_lines(npc, "greet_cold")), text
    warm, _ = said(npc, "Hello!", met=True, turn=3, earlier=["hi"], sensed=SensedFacts(hour=10.0))
    assert warm in mood_lines(npc, "greet_again") or "again" in warm.lower(), warm


@pytest.mark.parametrize(
    ("line", "whole"),
    [
        ("Don't mention it. Really, don't.", "Do not mention it. Really, do not."),
        ("I'm here. It's late, and I can't stay.", "I am here. It is late, and I cannot stay."),
        ("Won't you sit? Isn't it cold?", "Will you not sit? Is it not cold?"),
        (
            "Aye, you've the right of it. That'll do.",
            "Yes, you have the right of it. That will do.",
        ),
        ("Corra's ledger, at eight o'clock.", "Corra's ledger, at eight o'clock."),
    ],
)
def test_a_formal_speaker_says_its_words_whole(line: str, whole: str) -> None:
    assert voiced(line, ("formal",)) == whole


def test_a_stern_formal_villagers_lines_carry_no_short_forms(tmp_path: Path) -> None:
    people = {"clerk": "Mr Pym is the reeve's clerk. Stern and formal, he keeps the rolls."}
    npc = next(iter(_village(tmp_path, people).values()))
    for line in ("bye", "thanks", "*waves*", "you're a fool", "Hello!", "how are you?"):
        text, _ = said(npc, line)
        assert not re.search(r"\w'(?:t|m|re|ve|ll)\b", text), (line, text)


@pytest.mark.parametrize(
    "line", ["You keep a very tidy yard.", "Your baskets are beautiful!", "What a fine hat."]
)
def test_praise_of_what_is_its_own_is_answered_as_praise(
    marsh: dict[str, VillagerFacts], line: str
) -> None:
    npc = marsh["fennick"]
    assert said(npc, line)[0] in mood_lines(npc, "praised"), line


@pytest.mark.parametrize("line", ["Your prices are not good.", "Is your oil any good?"])
def test_a_complaint_or_a_question_is_no_praise(marsh: dict[str, VillagerFacts], line: str) -> None:
    npc = marsh["fennick"]
    assert said(npc, line)[0] not in mood_lines(npc, "praised"), line


def test_a_hello_of_the_hour_given_is_returned_in_kind(marsh: dict[str, VillagerFacts]) -> None:
    for hour in (8.0, 15.0, 21.0):
        text, _ = said(marsh["fennick"], "Good afternoon!", sensed=SensedFacts(hour=hour))
        assert "morning" not in text.lower() and "evening" not in text.lower(), text


def test_thanks_is_thanks_though_a_persona_gives_thanks_at_a_place(tmp_path: Path) -> None:
    """A thanks names no place, even when a neighbour's persona "gives thanks" where it
    works: the NPC says you're welcome, not what that place looks like."""
    people = [
        ("oda", "Oda", "Oda tends the shrine on the knoll, giving thanks at dawn.", {}),
        ("rolf", "Rolf", "Rolf grumbles and never smiles. He keeps the weir.", {}),
    ]
    places = [("shrine", "A ring of white stones on a knoll."), ("weir", "A low dam of logs.")]
    folder = facts_of(write_village(tmp_path, "knoll", people, places))
    for npc in folder.values():
        for said in ("Thanks for your help.", "Thank you!", "Thanks, mate.", "Cheers!"):
            assert read_intent(said, npc).kind is Kind.THANKS, (npc.npc_id, said)
            steps = answer(PlayerLine(npc=npc, said=said))
            text = " ".join(s.text for s in map(said_by, steps) if s is not None)
            assert "stones" not in text and "logs" not in text, (said, text)
    # thanks with a question in it still answers the question
    where = read_intent("Thanks! Where is the weir?", folder["oda"])
    assert where.kind is Kind.PLACE and where.target is not None


def test_small_talk_of_the_weather_is_met_in_the_villagers_own_mood(tmp_path: Path) -> None:
    """A remark on the weather is small talk, met by a line of the mood's own table (a
    grumbler shrugs it off, a cheerful one enjoys it), never a shrug at a question."""
    people = [
        ("rolf", "Rolf", "Rolf grumbles and never smiles. He keeps the weir.", {}),
        ("una", "Una", "Una laughs at everything and talks to anyone who stops.", {}),
    ]
    places = [("weir", "A low dam of logs."), ("green", "A patch of grass.")]
    folder = facts_of(write_village(tmp_path, "weir", people, places))
    for npc_id, mood in (("rolf", "gruff"), ("una", "cheerful")):
        npc = folder[npc_id]
        for said in ("Nice weather today, isn't it?", "Bit cold today, eh?"):
            assert read_intent(said, npc).kind is Kind.WEATHER, said
            text = " ".join(
                s.text for s in map(said_by, answer(PlayerLine(npc=npc, said=said))) if s
            )
            assert any(line in text for line in line_table("weather", MOODS[mood])), text
    # asked where, or of a place, it is no small talk
    rolf = folder["rolf"]
    assert read_intent("Where can I get out of the rain?", rolf).kind is not Kind.WEATHER
    assert read_intent("Does the rain ever flood the weir?", rolf).kind is not Kind.WEATHER
