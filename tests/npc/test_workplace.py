"""A villager whose map gives no `work` works where its persona says it does: the first
place named in a clause of what it does, not one it fears, believes of, lives at, or that is
someone else's; and others then find it there."""

from __future__ import annotations

from pathlib import Path

from game.npc.reading.workplace import named_work, place_index

from .test_sheet_answers import facts_of, reply, write_village

PLACES = ("saltpans", "bell_tower", "glasshouse", "wash_house", "quay")
INDEX = place_index(PLACES)


def test_the_place_a_persona_works_at_is_its_work() -> None:
    said = "Idris rakes salt at the saltpans below the dunes."
    assert named_work(said, "Idris", INDEX) == "saltpans"
    assert named_work("Ringer. Keeps the bell tower.", "Maud", INDEX) == "bell_tower"
    # The first place of a clause of its work, though another is named near it.
    said = "Makes lamps in the glasshouse near the wash house. Shy."
    assert named_work(said, "Tove", INDEX) == "glasshouse"


def test_a_place_feared_believed_of_or_lived_at_is_not_its_work() -> None:
    assert named_work("Nell is afraid of the quay and mends nets.", "Nell", INDEX) == ""
    said = "Bo thinks the glasshouse is cursed. He lives by the wash house."
    assert named_work(said, "Bo", INDEX) == ""
    assert named_work("Ada sweeps out Idris's saltpans.", "Ada", INDEX) == ""
    said = "Ada is scared of the quay, so she sweeps the saltpans instead."
    assert named_work(said, "Ada", INDEX) == "saltpans"


def test_others_find_a_villager_at_the_place_its_persona_works_at(tmp_path: Path) -> None:
    people = [
        ("idris", "Idris", "Idris rakes salt at the saltpans below the dunes. Dour.", {}),
        ("maud", "Maud", "She keeps the bell tower and rings the hours. Strict.", {}),
        ("tove", "Tove", "Makes lamps in the glasshouse near the wash house.", {"work": "quay"}),
    ]
    places = [(p, f"A {p.replace('_', ' ')} of grey stone.") for p in PLACES]
    village = facts_of(write_village(tmp_path, "dunes", people, places))
    assert village["idris"].sheet.work == "saltpans"
    assert village["maud"].sheet.work == "bell_tower"
    assert village["tove"].sheet.work == "quay"  # the map's own `work` wins
    said, _ = reply(village["maud"], "Where can I find Idris?")
    assert "saltpans" in said, said
