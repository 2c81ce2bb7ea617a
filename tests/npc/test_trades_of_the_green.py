"""A third village of trades no map of the game has (a chandler, a sexton, a fletcher, a
falconer, a cooper, a dyer): a request bid by the deed refused, a few coppers offered, a
fear behind an invitation, a boast asked of, the hours a workshop shuts, a possessive
opinion, a deed of its own work asked bare or with a tag, and a belief that one thing only
will do."""

from __future__ import annotations

import re

import pytest

from game.npc.facts import VillagerFacts
from game.npc.play.leads import lead_of
from game.npc.play.script import build_script
from game.npc.scripted.claims import view_phrases
from game.npc.scripted.moods import mood_of
from game.npc.scripted.retell import clauses
from tests.npc.test_play_script import request
from tests.npc.test_sheet_answers import facts_of, reply, write_village

PEOPLE = [
    (
        "wenna",
        "Wenna",
        "Wenna is the chandler; she makes tallow and beeswax candles in the chandlery. She "
        "is chatty and curious. She never sells candles on credit. She is afraid of fire "
        "catching the thatch.",
        {"work": "chandlery", "wares": "tallow candles, beeswax candles and rushlights"},
    ),
    (
        "osric",
        "Osric",
        "Osric is the sexton; he digs the graves and rings the chapel bell. He is gloomy and "
        "dry. He thinks Wenna means well but never stops talking.",
        {"work": "churchyard"},
    ),
    (
        "tibb",
        "Tibb",
        "Tibb is the fletcher; he makes arrows in his workshop. He is boastful and loud and "
        "brags about his aim. He swears he once split an arrow down the middle at a hundred "
        "paces. He will not sell arrows to poachers. He is afraid of dogs. He thinks "
        "Rosamund's hawks are vicious brutes.",
        {"work": "fletcher_shop", "home": "fletcher_shop", "plan": "7 work, 18 green, 20 home"},
    ),
    (
        "rosamund",
        "Rosamund",
        "Rosamund is the falconer; she trains the hawks in the mews. She is proud and formal. "
        "She never lets a stranger touch her birds. She hates loud noises.",
        {"work": "mews"},
    ),
    (
        "cuthbert",
        "Cuthbert",
        "Cuthbert is the cooper; he makes barrels, tubs and buckets in the cooperage. He is "
        "slow and careful and thinks a long time before he speaks. He swears oak from the "
        "north slope is the only wood for a barrel. He is afraid of wasps.",
        {"work": "cooperage", "wares": "barrels, tubs and buckets"},
    ),
    (
        "perrin",
        "Perrin",
        "Perrin is the young dyer; he boils woad and madder at the dye works and his hands "
        "are always blue. He is cheerful. He will not dye anything black. He thinks Osric "
        "is secretly kind.",
        {"work": "dye_works"},
    ),
]
PEOPLE.append(
    (
        "meg",
        "Meg",
        "Meg is a pedlar who sells ribbons and buttons from a tray. She is shrewd and haggles "
        "hard.",
        {"wares": "ribbons and buttons"},
    )
)
PLACES = [
    ("green", "The green in the middle of Ashcombe: a maypole and a well."),
    ("chandlery", "A chandlery where candles hang in rows to dry."),
    ("churchyard", "The churchyard with its old yew tree."),
    ("fletcher_shop", "A fletcher's workshop with feathers drying in bunches."),
    ("mews", "The mews, a long shed where the hawks sit hooded on their perches."),
    ("cooperage", "A cooperage stacked with staves and iron hoops."),
    ("pond", "The mill pond south of the green, dark and still."),
    ("dye_works", "The dye works with steaming vats of woad."),
]


@pytest.fixture(scope="module")
def green(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("green"), "green", PEOPLE, PLACES))


def said(npc: VillagerFacts, line: str) -> str:
    return reply(npc, line)[0]


@pytest.mark.parametrize(
    ("npc", "line", "expected"),
    [
        # a request opened by the deed refused, and not by another of the same deed
        ("perrin", "Dye my cloak black for the funeral, please.", r"\bblack\b"),
        # a few coppers offered to one who sells and does not haggle
        ("wenna", "How much for a beeswax candle? I'll give you a farthing.", r"\bprices?\b"),
        ("cuthbert", "Would you sell me a butter churn for two pennies?", r"\bhaggle|\bprices?"),
        # a fear behind an invitation said after what is there
        ("cuthbert", "There's a wasps' nest behind the cooperage, come and look!", r"\bwasps\b"),
        # a boaster asked if it is the best
        ("tibb", "Are you really the best shot around?", r"\bbest\b.*\barrow\b"),
        # when a workshop its owner lives in shuts: when it goes out in the evening
        ("tibb", "What time do you shut the workshop?", r"\bsix\b"),
        # what it thinks of someone, asked by a thing of theirs
        ("tibb", "What do you think of Rosamund's hawks?", r"\bHer hawks are vicious\b"),
        # a refusal said in other words than the persona's
        ("rosamund", "Hello! Can I stroke the big hawk?", r"^No\b.*\bstrangers touch\b"),
        # a shout at one who hates loud noises
        ("rosamund", "BANG! Ha, did I scare you?", r"\bloud noises\b"),
        # a deed of its own work asked with a tag, and asked bare
        ("osric", "Ring the bell for me, will you?", r"\bring the chapel bell\b"),
        ("cuthbert", "Could you make me a tub?", r"\bI make tubs\b"),
        ("cuthbert", "Make me a barrel.", r"\bI make barrels\b"),
        # a thing that one thing only will do, asked of another
        ("cuthbert", "Make me a barrel from this pine, quick as you can.", r"^Pine\?.*\bOak\b"),
        # the half of an opinion a question asks
        ("osric", "Who talks the most in Ashcombe?", r"\bWenna\b.*\bstops talking\b"),
        # its own doing asked after, and not
        ("osric", "The chapel bell woke me at dawn. Was that you?", r"\bme\b.*\bring\b"),
        ("wenna", "Someone left a cart in the road. Was that you?", r"\b[Nn]ot me\b"),
        # a refusal to whom is no refusal of anyone else; asked by its deed, not its thing
        ("tibb", "Sell me some arrows, please.", r"^(?!.*poachers).*\b[Aa]rrows\b"),
        ("tibb", "I need arrows for the lord's deer, at night. Sell me some?", r"\bpoachers\b"),
        ("tibb", "Knock a farthing off these arrows and I'll take a dozen.", r"\bprices\b"),
        ("rosamund", "Can I borrow a hawk for the afternoon?", r"\bstrangers touch\b"),
        ("rosamund", "Whistle for your hawk, would you?", r"\bhawks\b"),
        # a fear by another word for it
        ("tibb", "Want to go hunting with me and my hound tomorrow?", r"\b[Dd]ogs\b"),
        ("wenna", "Do you ever worry about fire in the chandlery?", r"\bthatch\b"),
        # its work asked of: hard, enjoyed
        ("rosamund", "Is it hard work, training hawks?", r"\bloud noises\b"),
        ("cuthbert", "Do you enjoy making barrels?", r"\bcooper\b"),
        # a place nobody keeps: whose it is, and whether the player may be there
        ("wenna", "Who looks after the green?", r"\b[Nn]obody|\beveryone|\ball of us\b"),
        ("wenna", "Can I sit on the green for a while?", r"\bmaypole\b"),
        # another's place: theirs to say, not what it looks like
        ("wenna", "Can I go into the mews?", r"\bRosamund\b(?!.*\bperches\b)"),
        ("wenna", "Is the churchyard haunted?", r"\bNot that I've ever seen\b"),
        # a secret of someone: what it thinks of them
        ("perrin", "Go on, tell me a secret about Osric.", r"\bOsric\b.*\bkind\b"),
    ],
)
def test_it_answers_what_was_asked(
    green: dict[str, VillagerFacts], npc: str, line: str, expected: str
) -> None:
    text = said(green[npc], line)
    assert re.search(expected, text), text


def test_what_is_not_refused_or_asked_is_not_answered_as_if_it_were(
    green: dict[str, VillagerFacts],
) -> None:
    assert "black" not in said(green["perrin"], "Perrin, dye this wool blue.")
    assert "chandlery" not in said(green["wenna"], "Morning! What a lot of candles.").lower()
    assert "Pine" not in said(green["cuthbert"], "Make me a barrel.")
    # a place the player says it came from is not told where it is
    came = said(green["wenna"], "I just came up from the mill pond, it's freezing down there!")
    assert "south of" not in came and "dark and still" in came, came


def test_a_slow_careful_speaker_is_not_a_bubbly_one(green: dict[str, VillagerFacts]) -> None:
    npc = green["cuthbert"]
    assert mood_of(npc.persona, npc.sheet.talks).name == "quiet"


def test_what_someone_else_does_after_but_stays_theirs(green: dict[str, VillagerFacts]) -> None:
    osric = green["osric"]
    mine = clauses(osric.persona, osric.name)
    assert "I never stop talking" not in mine, mine
    halves = view_phrases(osric.sheet.opinions["wenna"], {"Wenna"}, halves=True)
    assert halves == ["Means well", "Never stops talking"], halves


def test_one_who_haggles_meets_a_haggle_halfway(green: dict[str, VillagerFacts]) -> None:
    meg = green["meg"]
    for line in (
        "Can you do me a better price on the ribbons?",
        "Three coppers, final offer.",
        "That's daylight robbery! Lower your price.",
    ):
        assert re.search(r"\bhalfway|\ba little off\b|\boffer\b", said(meg, line), re.I), line
    # one who does not haggle says no; nobody takes a haggle for another tongue
    assert re.search(r"\bprices?\b", said(green["wenna"], "Three coppers, final offer."))


@pytest.mark.parametrize(
    "line",
    [
        "Can you do me a deal on the ribbons?",
        "I'll give you half what you're asking.",
        "Will you take three pennies for the lot?",
        "Is that your final price?",
        "I bet you'd sell the ribbons for less.",
        "Two coppers and not a penny more.",
        "Give me a fair price and I'll buy.",
    ],
)
def test_a_haggle_in_other_words_is_met_as_a_haggle(
    green: dict[str, VillagerFacts], line: str
) -> None:
    """One who haggles meets it halfway, takes a little off or asks an offer; one who sells
    and does not haggle says its prices are its prices."""
    assert re.search(r"\bhalfway|\ba little off\b|\boffer\b", said(green["meg"], line), re.I), line
    candles = line.replace("ribbons", "candles")
    assert re.search(r"\bprices?\b|\bhaggle", said(green["wenna"], candles)), candles


@pytest.mark.parametrize(
    "line", ["Can I pay you tomorrow for the barrel?", "I'll owe you for the tub, alright?"]
)
def test_one_who_sells_and_says_nothing_of_credit_wants_coin_first(
    green: dict[str, VillagerFacts], line: str
) -> None:
    """Pay next week for what it sells now: coin first, though its persona never said so;
    a question of another's debts is no such bid."""
    assert re.search(
        r"\bcoin first\b|\bpay first\b|\bcredit\b|\bon tick\b|\bslate\b",
        said(green["cuthbert"], line),
        re.I,
    ), line


def test_the_bundled_models_lead_is_the_persona_brains_answer_not_a_belief(
    green: dict[str, VillagerFacts],
) -> None:
    asked = request("Do you enjoy making barrels?").model_copy(update={"npc": green["cuthbert"]})
    lead = lead_of(asked)
    assert "cooper" in lead and "Oak" not in lead, lead
    hawk = request("Hello! Can I stroke the big hawk?").model_copy(
        update={"npc": green["rosamund"]}
    )
    assert not build_script(hawk).greets()  # its no, not its hello
    assert "strangers touch" in lead_of(hawk), lead_of(hawk)


@pytest.mark.parametrize(
    ("npc", "line", "expected"),
    [
        ("rosamund", "Show me how you fly a hawk!", r"\bmews\b"),  # not the hawks described
        ("tibb", "Teach me to fly.", r"^(?!.*\barrows?\b)"),  # not its work: a maybe
        ("cuthbert", "Could you make me a tub?", r"\bI make tubs\b"),
    ],
)
def test_a_deed_asked_of_it_is_answered_and_leads_the_bundled_models_line(
    green: dict[str, VillagerFacts], npc: str, line: str, expected: str
) -> None:
    """A request to show, teach or make is answered by the persona brain, and its answer is
    the first words of the bundled model's line too (its own was "I can't.")."""
    text = said(green[npc], line)
    assert re.search(expected, text), text
    lead = lead_of(request(line).model_copy(update={"npc": green[npc]}))
    assert lead and lead in text, (lead, text)
