"""A villager the player has just woken at night: a grumble once, then a hello of the hour
(not its shop's daytime greeting), a word on the player's sorry, a good night to a
goodbye, and no talk of the day as if it were now."""

from __future__ import annotations

import pytest

from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.reading.intent import read_intent
from game.npc.reading.kinds import Kind
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import mood_of
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import MOVE
from game.world.clock import hour_words
from tests.npc.test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("ferry steps", "Worn stone steps down to the river, where the ferry ties up."),
    ("bell tower", "A narrow tower whose bell is rung at dawn and dusk."),
    ("ropewalk", "A long shed where rope is twisted from hemp, smelling of tar."),
    ("pump", "An iron pump in the middle of the lane, with a trough beside it."),
]
# Nobody of any map's: each with a daytime greeting a map maker would write.
PEOPLE: list[Person] = [
    (
        "oda",
        "Oda",
        "Oda is a brisk, shrewd ferrywoman who haggles hard over every fare. She works the "
        "ferry steps and sells rope and lamp oil on the side.",
        {"work": "ferry steps", "greeting": "Fares up front, and mind the wet planks!"},
    ),
    (
        "lorcan",
        "Lorcan",
        "Lorcan is a gruff, gloomy bell ringer who rings the bell tower at dawn and dusk and "
        "has no patience for chatter.",
        {"work": "bell tower", "greeting": "Morning. The bell's rung, so be quick."},
    ),
    (
        "bea",
        "Bea",
        "Bea is a warm, chatty ropemaker who sings while she works in the ropewalk and "
        "loves a good story.",
        {"work": "ropewalk", "greeting": "Good day, good day! Come and see the new coils!"},
    ),
    (
        "tam",
        "Tam",
        "Tam is a shy, quiet lad who fetches water from the pump for everyone.",
        {"work": "pump", "greeting": "...Oh. Hello. Nice day for it."},
    ),
]
NIGHT = SensedFacts(hour=23.5, woken=True)  # just woken, half past eleven at night


@pytest.fixture(scope="module")
def folk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    path = write_village(tmp_path_factory.mktemp("river"), "river", PEOPLE, PLACES)
    return facts_of(path)


def said(npc: VillagerFacts, line: str, sensed: SensedFacts | None = NIGHT) -> str:
    return " ".join(s.text for s in map(said_by, answer(PlayerLine(npc, line, sensed=sensed))) if s)


def after_grumble(npc: VillagerFacts, text: str) -> str:
    """The line past its mood's grumble, which opens it once."""
    mood = mood_of(npc.persona, npc.sheet.talks)
    grumble = next((g for g in mood.grumbles if text.startswith(g)), None)
    assert grumble is not None, (npc.npc_id, text)
    rest = text[len(grumble) :].strip()
    assert not any(g in rest for g in mood.grumbles), text  # the grumble once
    return rest


def test_woken_it_greets_for_the_hour_and_not_with_its_daytime_greeting(
    folk: dict[str, VillagerFacts],
) -> None:
    for npc in folk.values():
        assert npc.greeting and npc.greeting != "Hello.", npc.npc_id  # the map's own words
        mood = mood_of(npc.persona, npc.sheet.talks)
        for line in ("Evening!", "hello? anyone awake?", "Hi there, it's only me."):
            text = said(npc, line)
            rest = after_grumble(npc, text)
            assert npc.greeting not in text, text
            assert rest in line_table("greet_woken", mood), (npc.npc_id, line, text)
        awake = said(npc, "Hello!", SensedFacts(hour=9.0))
        assert awake == npc.greeting, awake  # by day, the map maker's greeting


def test_a_sorry_for_waking_it_is_answered_and_a_question_after_it_too(
    folk: dict[str, VillagerFacts],
) -> None:
    for npc in folk.values():
        mood = mood_of(npc.persona, npc.sheet.talks)
        for line in (
            "Oh no, sorry, did I wake you?",
            "were you asleep?",
            "So sorry for waking you up.",
            "Good evening. Forgive me for disturbing you.",
        ):
            rest = after_grumble(npc, said(npc, line))
            assert rest in line_table("woken_sorry", mood), (npc.npc_id, line, rest)
    tam = folk["tam"]
    asked = after_grumble(tam, said(tam, "Sorry to wake you, but where's the ropewalk?"))
    assert "ropewalk" in asked.lower(), asked  # the question is answered, not the sorry
    assert asked not in line_table("woken_sorry", mood_of(tam.persona, tam.sheet.talks))


@pytest.mark.parametrize(
    "line",
    ["go back to sleep", "Sorry. I'll let you sleep now.", "sleep tight!", "get some rest, ok",
     "never mind, back to bed with you", "Night night!"],
)  # fmt: skip
def test_sent_back_to_bed_it_says_good_night(folk: dict[str, VillagerFacts], line: str) -> None:
    for npc in folk.values():
        assert read_intent(line, npc).kind is Kind.BYE, line
        mood = mood_of(npc.persona, npc.sheet.talks)
        plan = answer(PlayerLine(npc, line, sensed=SensedFacts(hour=0.5)))
        assert not any(getattr(s, "skill", None) is MOVE for s in plan), plan  # no walk
        text = " ".join(s.text for s in map(said_by, plan) if s)
        assert text in line_table("bye_night", mood), (npc.npc_id, text)
        by_day = said(npc, "Right, bye for now!", SensedFacts(hour=10.0))
        assert by_day in line_table("bye", mood), by_day


def test_asked_when_it_goes_to_bed_is_no_goodbye(folk: dict[str, VillagerFacts]) -> None:
    for line in ("When do you go to bed?", "Did you sleep well?", "where do you go to sleep?"):
        assert read_intent(line, folk["bea"]).kind is not Kind.BYE, line


def test_late_its_lines_do_not_speak_of_the_day_as_now(folk: dict[str, VillagerFacts]) -> None:
    day_words = ("plenty of day", "the day", "the sun", "daylight's", "let me work")
    for npc in folk.values():
        for n, line in enumerate(("What time is it?", "what hour is it even?", "Is it late?")):
            text = said(npc, line, SensedFacts(hour=23.0 + n / 4))
            assert "night" in text.lower(), text  # the hour as it is
            assert not any(w in text.lower() for w in day_words), text


def test_the_bundled_models_line_woken_leads_with_the_hello_of_the_hour(
    folk: dict[str, VillagerFacts],
) -> None:
    from game.npc.play.leads import lead_of
    from game.npc.play.script import build_script
    from tests.npc.test_play_script import SENSED, request

    bea = folk["bea"]
    woken = SENSED.model_copy(update={"woken": True, "hour": 23.5})
    asked = request("Hello?", sensed=woken).model_copy(update={"npc": bea})
    script = build_script(asked)
    assert not script.greets(), script.greeting  # not the ropewalk's daytime hello
    rest = after_grumble(bea, lead_of(asked))
    assert rest in line_table("greet_woken", mood_of(bea.persona, bea.sheet.talks)), rest
    by_day = request("Hello?").model_copy(update={"npc": bea})
    assert build_script(by_day).greets()


def test_the_bundled_models_line_woken_leads_with_its_answer_past_the_grumble(
    folk: dict[str, VillagerFacts],
) -> None:
    from game.npc.play.leads import lead_of
    from tests.npc.test_play_script import SENSED, request

    woken = SENSED.model_copy(update={"woken": True, "hour": 23.5})
    for npc in folk.values():
        for line, word in (("Where's the pump?", "pump"), ("Who is Bea?", "bea")):
            asked = request(line, sensed=woken).model_copy(update={"npc": npc})
            rest = after_grumble(npc, lead_of(asked))
            assert word in rest.lower(), (npc.npc_id, line, rest)  # not the grumble alone


def test_late_and_asked_when_it_gets_up_it_says_the_hour_its_day_starts(
    folk: dict[str, VillagerFacts],
) -> None:
    for npc in folk.values():
        starts = hour_words(npc.day[0][0], o_clock=True)
        mood = mood_of(npc.persona, npc.sheet.talks)
        for line in ("Shouldn't you be up by now?", "why are you in bed already?"):
            rest = after_grumble(npc, said(npc, line))
            assert starts in rest.lower(), (npc.npc_id, line, rest)
            ups = [u.replace("{up}", starts) for u in line_table("up_at", mood)]
            assert rest in [u.replace("{Up}", starts.capitalize()) for u in ups], rest
        by_day = said(npc, "Shouldn't you be up by now?", SensedFacts(hour=10.0))
        assert starts not in by_day.lower(), by_day  # by day it is up: no such answer
