"""The persona told short (`game.npc.scripted.retell`): clauses, the closest one, and
"I worry about it"."""

from __future__ import annotations

from game.npc.scripted.retell import about_it, clauses, closest, in_own_words

BRENNA = (
    "Brenna is the village blacksmith: gruff and blunt. She takes fierce pride in honest "
    "work and quietly worries about the old bridge."
)


def test_a_persona_is_cut_into_first_person_clauses() -> None:
    told = clauses(BRENNA, "Brenna")
    assert "I quietly worry about the old bridge" in told
    assert "I take fierce pride in honest work" in told  # its verb as said of oneself
    assert all(len(c.split()) >= 2 for c in told)
    assert not any("Brenna" in c or "She" in c for c in told)


def test_the_clause_a_question_is_about() -> None:
    told = clauses(BRENNA, "Brenna")
    assert closest("Is the old bridge safe?", told) == "I quietly worry about the old bridge"
    assert closest("Who won the football?", told) is None


def test_a_named_thing_is_spoken_of_as_it() -> None:
    assert about_it("quietly worry about the old bridge") == "I worry about it."
    assert about_it("am afraid of the mine") == "I am afraid of it."  # not "I afraid"
    assert about_it("I take fierce pride in honest work") == ""  # its verb is not one word


def test_the_persona_brain_says_what_it_thinks_of_a_place_without_reading_it_back() -> None:
    from game.npc.facts import PlaceFact, VillagerFacts
    from game.npc.scripted.speaker import PlayerLine
    from game.npc.scripted.talk import answer

    from .conftest import shown_all

    npc = VillagerFacts(
        npc_id="brenna",
        name="Brenna",
        persona=BRENNA,
        places=[PlaceFact(name="old_bridge", description="A wooden bridge over the river.")],
    )
    ((_, args),) = shown_all(answer(PlayerLine(npc=npc, said="Where is the old bridge?")))
    assert "I worry about it." in args["text"]
    assert "quietly" not in args["text"]


def test_a_phrase_only_the_persona_words_is_said_as_speech_says_it() -> None:
    """Every way to say it shares six words with the persona: it is said shorter, as
    speech says it, not cut to the two words it is about ("Joss's needles.")."""
    persona = "Fenna weaves. She thinks Joss's needles are the only good thing he sells."
    phrases = ["Joss's needles? The only good thing he sells", persona.split("thinks ")[1]]
    line = in_own_words(lambda p: f"{p}. That's my reckoning.", phrases, persona, "Fenna")
    assert line.startswith("Joss's needles? Only good thing he sells"), line
    assert (
        in_own_words(
            lambda p: f"{p}.",
            ["he is not the one who will not pay"],
            "he is not the one who will not pay",
            "",
        )
        == "he's not the one who won't pay."
    )
