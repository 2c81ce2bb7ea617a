"""The persona brain reads what a question asks, on a river village no map of the game has:
whose things these are, who minds a thing, what is for sale, what else, an invitation, a
look with a question after it, a recommendation, and what the player asked for before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.npc.skills import LOOK

from .test_sheet_answers import Person, facts_of, write_village

PLACES = [
    ("lighthouse", "A white lighthouse on the point, its great lamp turning all night."),
    ("apiary", "Rows of straw hives on the heath, humming all summer long."),
    ("pottery", "A low shed with a kiln behind it and shelves of drying jugs."),
    ("quay", "A stone quay on the river where the ferry ties up."),
    ("green", "The green in the middle of Reedmouth, with a maypole and a pump."),
]
PEOPLE: list[Person] = [
    (
        "bram",
        "Bram",
        "Bram keeps the lighthouse out past the dunes. He is a man of few words, and he swears "
        "the lamp has never once gone out on his watch.",
        {"work": "lighthouse"},
    ),
    (
        "wenna",
        "Wenna",
        "Wenna tends the bees in the hives up on the heath and sells honey and beeswax "
        "candles. She is cheerful and chatty, and she is sure the bees can feel a storm "
        "coming a day before it breaks. She will not sell a single hive, not for any price.",
        {"work": "apiary", "plan": "6 work, 12 green, 13 work, 18 quay, 20 work"},
    ),
    (
        "cato",
        "Cato",
        "Cato is the potter who throws jugs and bowls at his wheel and mends cracked pots "
        "for a copper. He is calm and patient, and he thinks Maud is the best judge of "
        "weather on the river. He never fires the kiln in the rain, since he is certain it "
        "cracks the glaze.",
        {"work": "pottery", "wares": "jugs, bowls and glazed cups"},
    ),
    (
        "maud",
        "Maud",
        "Maud runs the ferry across the river and sells rope and smoked eels at the quay. She "
        "is brisk and haggles hard.",
        {"work": "quay"},
    ),
]


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("river"), "river", PEOPLE, PLACES))


def talk(npc: VillagerFacts, *lines: str) -> list[tuple[str, list[str]]]:
    """What the NPC says to each line of one talk, with the skills its plan calls."""
    earlier: list[str] = []
    replies: list[str] = []
    out = []
    for turn, line in enumerate(lines):
        plan = answer(
            PlayerLine(
                npc=npc,
                said=line,
                turn=turn,
                met=turn > 0,
                earlier=list(earlier),
                replies=list(replies),
                talks=turn,
            )
        )
        said = " ".join(s.text for s in map(said_by, plan) if s is not None)
        skills = [step.skill.name for step in plan if hasattr(step, "skill")]
        out.append((said, skills))
        earlier.append(line)
        replies.append(said)
    return out


def reply(npc: VillagerFacts, *lines: str) -> str:
    """The NPC's line to the last of `lines`."""
    return talk(npc, *lines)[-1][0]


def test_who_minds_a_thing_names_them_even_in_few_words(
    river: dict[str, VillagerFacts],
) -> None:
    for line, who in (
        ("Who minds the hives up on the heath?", "Wenna"),
        ("Who minds the apiary?", "Wenna"),
        ("Who looks after the quay?", "Maud"),
        ("Who runs the pottery?", "Cato"),
    ):
        for asker in ("bram", "cato", "maud"):
            if asker.capitalize() == who:
                continue
            said = reply(river[asker], line)
            assert who in said, (asker, line, said)


@pytest.mark.parametrize(
    ("npc_id", "line", "wares"),
    [
        (
            "wenna",
            "I saw your name on the board by the green. What are you selling this week?",
            "honey",
        ),
        ("cato", "What have you got for sale?", "jugs"),
        ("maud", "What do you sell?", "rope"),
        ("cato", "What's on your stall today?", "bowls"),
    ],
)
def test_what_it_sells_is_its_wares(
    river: dict[str, VillagerFacts], npc_id: str, line: str, wares: str
) -> None:
    said = reply(river[npc_id], line)
    assert wares in said.lower(), said


def test_one_who_sells_nothing_says_what_it_does(river: dict[str, VillagerFacts]) -> None:
    said = reply(river["bram"], "What are you selling?")
    assert "lighthouse" in said.lower(), said


NO = re.compile(r"\b(?:no|not|never|won't|don't|nope|nuh-uh)\b", re.I)


def test_a_question_of_its_work_is_no_request(river: dict[str, VillagerFacts]) -> None:
    """A refusal answers a request or an offer, not a question that merely names the thing."""
    said = reply(river["wenna"], "How many hives do you look after?")
    assert not NO.search(said) and "bees" in said, said
    for asked in ("Will you sell me a hive?", "Do you sell your hives?"):
        said = reply(river["wenna"], asked)
        assert NO.search(said) and "hive" in said, (asked, said)


def test_its_work_on_things_says_them(river: dict[str, VillagerFacts]) -> None:
    """ "The bees. I tend them": a plural thing is "them", and small within a sentence."""
    said = reply(river["wenna"], "How many hives do you look after?")
    assert "I tend them" in said and "tend it" not in said, said
    assert "The bees" not in said[1:], said  # "Oh, the bees." not "Oh, The bees."


def test_what_the_player_asked_for_is_said_back(river: dict[str, VillagerFacts]) -> None:
    said = reply(
        river["cato"],
        "I'd like a jug in sea green, whenever you have the time.",
        "How long have you been a potter?",
        "What colour did I ask for?",
    )
    assert "sea green" in said and "whenever" not in said, said
    said = reply(river["maud"], "I need two coils of rope for my boat.", "What did I order?")
    assert "two coils of rope" in said, said


def test_a_belief_that_points_elsewhere_is_not_said_alone(
    river: dict[str, VillagerFacts],
) -> None:
    """ "It cracks the glaze" (the rain does) means nothing said on its own."""
    for asked in ("How long have you been a potter?", "Do you like throwing pots?"):
        said = reply(river["cato"], asked)
        assert not said.lower().startswith("it cracks"), (asked, said)


@pytest.mark.parametrize("more", ["And what else?", "What more?", "Anything else?"])
def test_what_else_after_its_work_says_more_of_it(
    river: dict[str, VillagerFacts], more: str
) -> None:
    """ "What else?" after its work: what else it does or sells, then its work place."""
    first, second, third = (s for s, _ in talk(river["wenna"], "What do you do?", more, more))
    assert "honey" in second.lower() and "candles" in second, second
    assert "hives" in third and third not in (first, second), third
    said = reply(river["cato"], "What do you do?", more)
    assert re.search(r"cracked pots|jugs", said, re.I), said
    assert "cracked pots. i mend them" in said.lower() or "jugs" in said, said


def test_what_else_keeps_a_list_whole(river: dict[str, VillagerFacts]) -> None:
    said = reply(river["maud"], "What do you do?", "And what else?")
    assert "rope and smoked eels" in said.lower(), said


def test_an_invitation_for_later_is_answered_with_when(river: dict[str, VillagerFacts]) -> None:
    """ "Will you come to the green later?": yes and when, from its day; no walk now."""
    said, skills = talk(river["wenna"], "Will you come down to the green later on?")[0]
    assert re.search(r"\b(?:yes|of course)\b", said, re.I) and "midday" in said, said
    assert "move" not in skills, skills
    said = reply(river["wenna"], "Are you coming down to the quay tonight?")
    assert "six o'clock" in said and "green" not in said, said
    said = reply(river["wenna"], "Will you be at the apiary this afternoon?")
    assert re.search(r"\b(?:yes|of course)\b", said, re.I) and "one o'clock" in said, said
    said, skills = talk(river["bram"], "Will you come to the green later?")[0]
    assert re.search(r"\bmaybe|\bmight\b|\bperhaps\b", said, re.I), said  # not in his day
    assert "move" not in skills, skills
    _, skills = talk(river["wenna"], "Will you come to the green with me?")[0]
    assert "move" in skills, skills  # asked now, a walk now


def test_a_look_with_a_question_after_it_is_answered_from_the_sheet(
    river: dict[str, VillagerFacts],
) -> None:
    """ "Look at the sky over the dunes. Is a storm on the way?": it looks, at no place a
    keeper's persona only names, and says what it holds of storms."""
    for line in (
        "Look at the sky over the dunes. Is a storm on the way?",
        "Look at those clouds. Is a storm coming?",
    ):
        plan = answer(PlayerLine(npc=river["wenna"], said=line))
        looks = [s for s in plan if getattr(s, "skill", None) is LOOK]
        said = " ".join(s.text for s in map(said_by, plan) if s is not None)
        assert looks and "storm" in said and "bees" in said, (line, said)
    plan = answer(PlayerLine(npc=river["wenna"], said="Look at the sky over the dunes."))
    look = next(s for s in plan if getattr(s, "skill", None) is LOOK)
    assert getattr(look.args, "at", None) is None, look  # not the lighthouse: a persona word


def test_whose_things_they_are_is_answered(river: dict[str, VillagerFacts]) -> None:
    """ "Are all these hives yours?": yes and what it does with them to their keeper, the
    keeper's name to anyone else; never the keeper's hut described."""
    said = reply(river["wenna"], "Hello there! Are all these hives yours?")
    assert not NO.search(said) and re.search(r"\bmine\b", said, re.I), said
    assert "bees" in said, said
    for asker, line, who in (
        ("bram", "Are all these hives yours?", "Wenna"),
        ("maud", "Whose hives are those up on the heath?", "Wenna"),
        ("wenna", "Is this jug yours?", "Cato"),
    ):
        said = reply(river[asker], line)
        assert who in said and not re.match(r"\W*(?:yes|mine|all mine)\b", said, re.I), said
    said = reply(river["cato"], "Are these jugs yours?")
    assert re.search(r"\bmine\b", said, re.I) and not NO.search(said), said


def test_a_recommendation_names_a_place_it_would_send_you_to(
    river: dict[str, VillagerFacts],
) -> None:
    said = reply(river["wenna"], "It's been fun. What should I see before I leave?")
    assert "the apiary" in said, said  # its own work place
    said = reply(
        river["wenna"], "What's the best thing about this village?", "Where should I go next?"
    )
    assert re.search(r"the (?:lighthouse|pottery|quay|green)\b", said), said  # another one
    assert "the apiary" not in said, said


def test_only_the_village_itself_asks_for_a_place_to_see(
    river: dict[str, VillagerFacts],
) -> None:
    """ "The best thing about Reedmouth?" (the village, named in its descriptions) wants a
    place; "the best thing about honey?" does not."""
    said = reply(river["wenna"], "What's the best thing about Reedmouth?")
    assert "the apiary" in said and "straw hives" in said, said  # the place, how it looks
    said = reply(river["wenna"], "What's the best thing about honey?")
    assert "straw hives" not in said, said


def test_a_price_asked_is_an_offer_and_is_refused(river: dict[str, VillagerFacts]) -> None:
    said = reply(river["wenna"], "How much do you want for a hive?")
    assert NO.search(said) and "hive" in said, said


def test_a_recalled_order_keeps_what_follows_a_comma_unless_an_aside(
    river: dict[str, VillagerFacts],
) -> None:
    said = reply(
        river["cato"], "I lost my ring, the silver one with a blue stone.", "What did I say?"
    )
    assert "blue stone" in said, said


def test_a_belief_of_what_there_is_is_still_said(tmp_path: Path) -> None:
    people: list[Person] = [
        (
            "ida",
            "Ida",
            "Ida keeps the old mill. She believes there is a ghost in the mill loft.",
            {"work": "mill"},
        )
    ]
    npc = facts_of(write_village(tmp_path, "mill", people, [("mill", "An old mill.")]))["ida"]
    said = reply(npc, "Is there really a ghost in the loft?")
    assert "ghost" in said, said


def test_and_after_a_thing_of_its_work_is_more_of_the_thing_not_its_place(
    tmp_path: Path,
) -> None:
    """ "And?" after what cheeses she makes: more of her cheese (her belief of it), not
    what her dairy looks like, though its description names the cheese room too."""
    people: list[Person] = [
        (
            "agda",
            "Agda",
            "Agda has made the cheese and butter in the dairy for fifty years and sells "
            "them to anyone with a basket. She is old and kind. She believes a cheese will "
            "not set if anyone quarrels in the dairy.",
            {"work": "dairy"},
        )
    ]
    places = [("dairy", "A long red-roofed house with the cheese room at the back.")]
    agda = facts_of(write_village(tmp_path, "vale", people, places))["agda"]
    first, more = (s for s, _ in talk(agda, "What kinds of cheese do you make?", "And?"))
    assert "roof" not in more and more != first, (first, more)
