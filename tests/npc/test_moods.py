"""A mood is declared once (`game.npc.scripted.moods`): the line tables speak only in
declared moods, each has the cheerful lines to fall back on, and a persona's words pick
its mood."""

from __future__ import annotations

import json
from importlib import resources

from game.gestures import GESTURES, NOD
from game.npc.facts import SensedFacts, VillagerFacts
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import CHEERFUL, GRUFF, MOODS, QUIET, SHREWD, WISE, Mood, mood_of
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer, opener


def _tables() -> dict[str, dict[str, list[str]]]:
    text = resources.files("game.npc.scripted").joinpath("lines.json").read_text("utf-8")
    data: dict[str, dict[str, list[str]]] = json.loads(text)
    return data


def test_every_line_table_speaks_in_declared_moods_and_falls_back_to_cheerful() -> None:
    for kind, table in _tables().items():
        assert set(table) <= set(MOODS), (kind, sorted(set(table) - set(MOODS)))
        assert CHEERFUL.name in table, kind


def test_a_mood_without_lines_speaks_the_cheerful_ones() -> None:
    sleepy = Mood("sleepy", ("yawns",), (NOD,), "Zzz... what?")
    tables = _tables()
    assert line_table("bye", sleepy) == tuple(tables["bye"][CHEERFUL.name])
    assert line_table("bye", GRUFF) == tuple(tables["bye"][GRUFF.name])
    assert line_table("no such table", GRUFF) == tuple(tables["chat"][GRUFF.name])


def test_a_persona_speaks_in_the_mood_its_words_name() -> None:
    assert mood_of("A gruff, blunt blacksmith at the forge.") is GRUFF
    assert mood_of("A travelling merchant who loves a bargain.") is SHREWD
    assert mood_of("Someone.") is CHEERFUL


def test_every_mood_reaches_for_declared_gestures_and_grumbles() -> None:
    for mood in MOODS.values():
        assert mood.gestures and all(GESTURES[g.name] is g for g in mood.gestures)
        assert len(mood.grumbles) >= 3 and len(set(mood.grumbles)) == len(mood.grumbles)
        for shape in mood.asks:
            assert "{" + shape.slot + "}" in shape.text, (mood.name, shape.text)
            assert 2 <= len(shape.answers) <= 4


def test_a_woken_npc_opens_with_its_moods_grumble() -> None:
    npc = VillagerFacts(npc_id="brenna", name="Brenna", persona="A gruff smith.")
    woken = PlayerLine(npc=npc, said="Hello?", sensed=SensedFacts(woken=True))
    assert opener(woken) in GRUFF.grumbles
    # woken on other nights, by other words, it grumbles otherwise
    heard = {
        opener(PlayerLine(npc=npc, said=line, sensed=SensedFacts(woken=True)))
        for line in ("Hello?", "Are you awake?", "Sorry to wake you.", "Hey!", "Good morning.")
    }
    assert len(heard) >= 2, heard


def test_a_manner_written_as_deeds_or_denials_picks_the_mood() -> None:
    """Map makers write a manner in deeds ("grumbles about everything") and denials
    ("never smiles") as often as in adjectives."""
    assert mood_of("Osk minds the sluice. He grumbles about the damp all day.") is GRUFF
    assert mood_of("She never smiles and hardly says a kind word.") is GRUFF
    assert mood_of("Ruth laughs at everything and talks the ears off anyone.") is CHEERFUL
    assert mood_of("Speaks like a priest, slow and solemn.") is WISE
    assert mood_of("A bashful lad who mumbles into his collar.") is QUIET
    # a warm word only said seldom is no warmth, and no grumbler either
    assert mood_of("Slow and shy, with a smile that comes rarely.") is QUIET
    # a grumble it never makes is no grumble
    assert mood_of("She never complains and laughs a lot.") is CHEERFUL


def test_a_grumbler_written_in_deeds_parts_and_greets_in_a_gruff_voice() -> None:
    grumbler = VillagerFacts(
        npc_id="osk", name="Osk", persona="Osk keeps the sluice. He grumbles and never smiles."
    )
    gruff_byes = set(line_table("bye", GRUFF))
    warm = set(line_table("bye", CHEERFUL)) - gruff_byes
    for said in ("Goodbye, have a lovely day!", "Bye now.", "See you later."):
        steps = answer(PlayerLine(npc=grumbler, said=said))
        text = " ".join(said.text for said in map(said_by, steps) if said is not None)
        assert not any(line in text for line in warm), (said, text)
        assert any(line.split("{")[0] in text for line in gruff_byes), (said, text)
