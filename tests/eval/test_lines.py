"""The line checks: each way a line reads wrong is caught, and lines a player accepts pass."""

from __future__ import annotations

import pytest

from game.eval.lines import LineFacts, line_problems
from game.eval.scenarios import LineCheck
from game.npc.facts import PersonFact, PlaceFact, VillagerFacts

PEOPLE = [
    PersonFact(npc_id="brenna", name="Brenna", role="Brenna is the blacksmith.", home="forge"),
    PersonFact(npc_id="maren", name="Elder Maren", role="Maren is the elder.", home="elder_house"),
    PersonFact(npc_id="pip", name="Pip", role="Pip is a curious child.", home="cottage"),
]
PLACES = [PlaceFact(name="well", description="A round stone well in the plaza.")]


def npc(npc_id: str, name: str, persona: str) -> VillagerFacts:
    others = [p for p in PEOPLE if p.npc_id != npc_id]
    return VillagerFacts(npc_id=npc_id, name=name, persona=persona, people=others, places=PLACES)


PIP = npc(
    "pip",
    "Pip",
    "Pip is a curious, restless child who asks a hundred questions a minute. Pip dreams of "
    "being an adventurer, collects shiny pebbles and is certain a dragon lives past the river.",
)
BRENNA = npc(
    "brenna",
    "Brenna",
    "Brenna is Hollowbrook's blacksmith: gruff, blunt and short on patience for idle chatter.",
)
CASSIUS = npc(
    "cassius",
    "Cassius",
    "Cassius is a travelling merchant with a silver tongue. He is charming, always ready to "
    "haggle, and has a tall tale for every trinket.",
)


def problems(
    line: str, who: VillagerFacts, player: str | None = None, **check: object
) -> list[str]:
    return line_problems(line, LineCheck(**check), LineFacts(who, player))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "who", "check", "player", "reason"),
    [
        # persona text read back, asked what he is up to
        ("I'm a curious child.", PIP, {}, None, "persona"),
        ("I'm a curious, restless child who asks a hundred questions.", PIP, {}, None, "persona"),
        ("Oh, I collect shiny pebbles and dream of being an adventurer!", PIP, {}, None, "persona"),
        # a bare yes or no against the persona
        ("No.", PIP, {"stance": "yes"}, None, "against"),
        ("Nope, no dragons.", PIP, {"stance": "yes"}, None, "against"),
        ("Yes.", CASSIUS, {"stance": "no"}, None, "against"),
        ("Sure, take it, it's yours!", CASSIUS, {"stance": "no"}, None, "against"),
        # the player's name taken as the NPC's own
        ("Quillon, I'm called Quillon.", BRENNA, {}, "Quillon", "player's name"),
        ("My name is Ada.", PIP, {}, "Ada", "player's name"),
        # its own role in the third person, or itself as another
        ("She's a good blacksmith.", BRENNA, {}, None, "third person"),
        ("Brenna works the forge all day.", BRENNA, {}, None, "by its name"),
        ("I'm the elder Maren.", PIP, {}, None, "another villager"),
        # a place answered with itself
        ("It's in the well.", PIP, {"place": "well"}, None, "answers where"),
        ("Down by the well, of course.", BRENNA, {"place": "well"}, None, "answers where"),
        # a fact it has, forgotten
        ("I can't remember.", BRENNA, {"knows": True}, None, "forgets"),
        ("No idea, sorry.", PIP, {"knows": True}, None, "forgets"),
        # what the scenario says it must and must not say
        ("The river.", PIP, {"says": ["dragon"]}, None, "does not say"),
        ("Football? The first.", PIP, {"never": ["football"]}, None, "says /football/"),
    ],
)
def test_a_known_bad_line_fails(
    line: str, who: VillagerFacts, check: dict[str, object], player: str | None, reason: str
) -> None:
    found = problems(line, who, player, **check)
    assert found, f"{line!r} passed"
    assert any(reason in p for p in found), found


@pytest.mark.parametrize(
    ("line", "who", "check", "player"),
    [
        ("A dragon? Of course there's one, past the river! Want to come look?", PIP,
         {"stance": "yes", "says": ["dragon"]}, None),
        ("Give it away? Ha! For you, friend, three silver and not a copper less.", CASSIUS,
         {"stance": "no"}, None),
        ("Quillon. You told me yourself.", BRENNA, {"knows": True}, "Quillon"),
        ("Hmph. Iron, all day. Horseshoes, nails, a blade if someone pays.", BRENNA, {}, None),
        ("The well? Middle of the plaza. Can't miss it.", PIP, {"place": "well"}, None),
        ("Maren keeps the peace. Ask her anything.", PIP, {}, None),
        ("Ada! How could I forget?", PIP, {"knows": True}, "Ada"),
    ],
)  # fmt: skip
def test_a_line_a_player_accepts_passes(
    line: str, who: VillagerFacts, check: dict[str, object], player: str | None
) -> None:
    assert problems(line, who, player, **check) == []


def test_an_empty_line_said_nothing() -> None:
    assert problems("   ", PIP) == ["said nothing"]


def test_a_bad_pattern_is_refused_when_the_scenario_loads() -> None:
    with pytest.raises(ValueError, match="not a regular expression"):
        LineCheck(says=["(unclosed"])


def test_a_quiet_check_lets_an_idle_npc_say_nothing_but_judges_what_it_says() -> None:
    assert problems("", PIP, quiet=True) == []
    assert problems("I'm a curious child.", PIP, quiet=True) == ["nothing but the persona's words"]


def _to(line: str, listener: str | None, player: str | None = "Rowan") -> list[str]:
    facts = LineFacts(BRENNA, player, listener, listener is not None)
    return line_problems(line, LineCheck(), facts)


@pytest.mark.parametrize(
    ("line", "listener", "wrong"),
    [
        ("Rowan, your name is Rowan.", "Pip", "Rowan"),  # said to Pip
        ("The forge is hot today, Pip.", None, "Pip"),  # said to the player
        ("Elder, not now.", "Pip", ""),  # a title, no name of the village
        ("Maren, I'll mend it by noon.", "Elder Maren", ""),  # her own name
        ("Aye, Rowan.", None, ""),  # the player by the name they gave
        ("Pip, that's who. He's quick.", None, ""),  # to the player, a name is the answer
        ("Not today, Pip.", "Elder Maren", "Pip"),
        ("Pip, not today.", "Elder Maren", "Pip"),  # to a villager, the name it opens with
        ("Your name's Maren, isn't it?", "Pip", "Maren"),
    ],
)
def test_the_one_talked_to_is_called_by_their_own_name(
    line: str, listener: str | None, wrong: str
) -> None:
    expected = [f"calls the one it talks to {wrong}"] if wrong else []
    assert _to(line, listener) == expected


def test_words_ending_a_persona_sentence_are_no_read_back() -> None:
    wren = npc("wren", "Wren", "Wren prefers the company of herons to crowds.")
    assert problems("Mm. Not crowds.", wren) == []
    assert problems("Herons to crowds, any day.", wren) == []  # three words in a row
    assert problems("The company of herons to crowds, always.", wren) == [
        "reads the persona back"
    ]  # six in a row
    assert problems("The company of herons, always.", wren) == []  # four
