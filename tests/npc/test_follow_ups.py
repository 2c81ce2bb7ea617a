"""Short follow-ups ("go on", "and?", "what else?") go on with something new from the
sheet and the map, and a gossip question with no news heard is talk of a neighbour; on a
river village no map of the game has, with its own people and phrasings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import NewsFact, SensedFacts, VillagerFacts
from game.npc.known import villager_facts
from game.npc.scripted.gossip import asks_gossip
from game.npc.scripted.lines import line_table
from game.npc.scripted.moods import MOODS
from game.npc.scripted.speaker import PlayerLine, said_by
from game.npc.scripted.talk import answer
from game.world.tiled import load_map
from game.world.world import World
from tests.npc.test_sheet_answers import Person, facts_of, write_village

RIVER_PLACES = [
    ("watermill", "A timber watermill on the weir, its wheel churning the brown water."),
    ("ferry_landing", "A plank landing where the flat ferry is hauled across on a rope."),
    ("tannery", "A reeking tannery downstream, its pits steaming under a slate roof."),
    ("toll_bridge", "A narrow stone toll bridge with a chain across it and a hut beside."),
    ("dovecote", "A round dovecote of yellow stone, loud with pigeons at dawn."),
]
RIVER: list[Person] = [
    (
        "aldous",
        "Aldous",
        "Aldous has ground the valley's grain at the watermill for thirty years, and sells it "
        "to the bakers of three villages. He is loud and cheerful. He thinks Mirela is the "
        "cleverest head on the river.",
        {"work": "watermill"},
    ),
    (
        "mirela",
        "Mirela",
        "Mirela poles the ferry across the river from dawn to dusk and hauls it on the rope "
        "when the water runs high. She is brisk and shrewd and sells eel pies on the crossing. "
        "She suspects Bertil waters down his dye.",
        {"work": "ferry_landing"},
    ),
    (
        "bertil",
        "Bertil",
        "Bertil tans hides in the tannery downstream and soaks them in oak bark for months. He "
        "is a quiet man of few words who hawks nothing and owes no one.",
        {"work": "tannery"},
    ),
    (
        "sister_hild",
        "Sister Hild",
        "Sister Hild is a stern toll keeper with no time for gossip. She keeps the toll bridge "
        "and writes every crossing in her book.",
        {"work": "toll_bridge"},
    ),
    (
        "wat",
        "Wat",
        "Wat is a dreamy boy who keeps the doves. He is sure a giant pike sleeps under the "
        "weir and dreams of catching it.",
        {"work": "dovecote"},
    ),
]


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    folder = tmp_path_factory.mktemp("river")
    return facts_of(write_village(folder, "river", RIVER, RIVER_PLACES))


def talk(npc: VillagerFacts, *lines: str, sensed: SensedFacts | None = None) -> list[str]:
    """What the NPC says to each line of a talk, in turn."""
    earlier: list[str] = []
    replies: list[str] = []
    out = []
    for turn, line in enumerate(lines):
        said = PlayerLine(
            npc=npc,
            said=line,
            earlier=list(earlier),
            replies=list(replies),
            turn=turn,
            met=turn > 0,
            sensed=sensed,
        )
        texts = [s.text for s in map(said_by, answer(said)) if s is not None]
        out.append(" ".join(texts))
        earlier.append(line)
        replies += texts
    return out


def test_a_thing_sold_as_a_pronoun_is_what_it_made(river: dict[str, VillagerFacts]) -> None:
    """ "has ground the grain ... and sells it": its wares are the grain, not "it"; its role
    is said as what it does now ("grinds"), not as "has ground"."""
    sheet = river["aldous"].sheet
    assert sheet.wares == ("valley's grain",)
    assert sheet.role.startswith("grinds")


def test_a_noun_that_looks_like_selling_sells_nothing(river: dict[str, VillagerFacts]) -> None:
    """ "keeps the doves", "hawks nothing": no wares."""
    assert river["wat"].sheet.wares == ()
    assert river["bertil"].sheet.wares == ()
    assert river["mirela"].sheet.wares == ("eel pies",)


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3}


@pytest.mark.parametrize(
    ("npc_id", "lines"),
    [
        ("aldous", ["what do you do here?", "go on", "and?", "what else?"]),
        ("mirela", ["so what's your work", "and?", "tell me more", "go on then"]),
        ("bertil", ["how do you tan a hide?", "go on", "and what else?"]),
    ],
)
def test_a_follow_up_goes_on_with_something_new(
    river: dict[str, VillagerFacts], npc_id: str, lines: list[str]
) -> None:
    """Each "go on" says something of its sheet, work or place that was not said before:
    never the same line, never a bare pronoun for its things ("Them.")."""
    npc = river[npc_id]
    place = next(p for p in npc.places if p.name == npc.sheet.work)
    known = _stems(f"{npc.persona} {place.description} {' '.join(npc.sheet.wares)}")
    said = talk(npc, *lines)
    for at, line in enumerate(said[1:], 1):
        assert not re.match(r"(?:them|it|those|these)\b", line, re.I), line
        assert line not in said[:at], said
        before = set().union(*map(_stems, said[:at]))
        assert (_stems(line) & known) - before, (line, said[:at])


def test_what_it_sells_as_them_is_named(river: dict[str, VillagerFacts]) -> None:
    """ "has ground the grain ... and sells it to the bakers": the grain, and to whom."""
    said = talk(river["aldous"], "what's your trade?", "go on")
    assert re.search(r"\bgrain\b", said[1], re.I) and re.search(r"\bbakers?\b", said[1], re.I)


def test_how_a_thing_is_done_goes_on_in_its_own_doings(river: dict[str, VillagerFacts]) -> None:
    """A trade verb of its own ("tans hides ... soaks them in oak bark") is a doing too."""
    said = talk(river["bertil"], "what do you do all day?", "tell me more", "go on")
    assert any(re.search(r"\bhides?\b", s, re.I) for s in said), said
    assert any(re.search(r"\boak bark\b|\bpits\b|\bsoak", s) for s in said[1:]), said


@pytest.mark.parametrize("more", ["whoa. what else?", "and?", "go on!"])
def test_more_of_a_story_goes_on_with_its_belief(
    river: dict[str, VillagerFacts], more: str
) -> None:
    """Asked all about a thing it believes in, it tells the belief; "what else?" then says
    that is all it knows of it, naming it: not the belief again, not a question back."""
    said = talk(river["wat"], "so tell me everything about this pike", more)
    assert re.search(r"\bpike\b.*\bweir\b", said[0], re.I), said
    assert re.search(r"\bpike\b", said[1], re.I), said
    assert "weir" not in said[1] and not said[1].rstrip().endswith("?"), said


def test_the_bundled_model_is_led_by_what_its_sheet_holds(
    river: dict[str, VillagerFacts],
) -> None:
    """ "Tell me everything about this pike" is no yes/no question, yet the sheet holds a
    side on it: the model's line opens with the belief, not its own reading of the persona."""
    from game.npc.play.leads import lead_of
    from tests.npc.test_play_script import request

    asked = request("ok tell me everything about this pike").model_copy(
        update={"npc": river["wat"]}
    )
    assert re.search(r"\bpike\b.*\bweir\b", lead_of(asked), re.I), lead_of(asked)


@pytest.mark.parametrize(
    "asked",
    [
        "Heard any good gossip lately?",
        "so what's the gossip round here",
        "any juicy rumours?",
        "who's been up to what?",
        "tell me something about the folk here",
        "What's the word around the village?",
        "what are people saying these days?",
        "What's been happening around here?",
        "How's everyone in the village?",
        "Has anyone been in trouble lately?",
        "Anything exciting happen lately?",
        "Anything worth knowing going on round here lately?",
        "anything interesting today?",
    ],
)
def test_gossip_with_no_news_is_talk_of_a_neighbour(
    river: dict[str, VillagerFacts], asked: str
) -> None:
    """No news heard: it names a neighbour and says what it thinks of them, its opinion
    first ("Bertil waters down his dye"), not "I haven't heard any news"."""
    npc = river["mirela"]
    said = talk(npc, asked)[0]
    assert "news" not in said.lower(), said
    assert "Bertil" in said and re.search(r"\bdye\b", said), said
    others = {p.name for p in river["wat"].people}
    said = talk(river["wat"], asked)[0]  # no opinions: nothing new, and what another does
    assert any(name in said for name in others), said
    if "as ever" in said:  # a neighbour at work is no gossip: it says it has none first
        assert any(said.startswith(none) for none in _all_moods("gossip_none")), said


def test_gossip_asked_again_names_someone_else(river: dict[str, VillagerFacts]) -> None:
    said = talk(
        river["aldous"], "heard any gossip?", "any other rumours?", "who else is up to what?"
    )
    named = [{p.name for p in river["aldous"].people if p.name in s} for s in said]
    assert all(named), said
    assert len(set().union(*named)) == len(said), said


def test_a_villager_who_will_not_gossip_says_no(river: dict[str, VillagerFacts]) -> None:
    """The toll keeper with no time for gossip refuses it, in her own way."""
    for asked in ("any juicy rumours?", "who's been up to what?"):
        said = talk(river["sister_hild"], asked)[0]
        assert re.search(r"\b(?:no|don't|won't|not)\b", said, re.I), said
        assert not any(p.name in said for p in river["sister_hild"].people), said


def test_gossip_with_news_heard_tells_the_news(river: dict[str, VillagerFacts]) -> None:
    news = NewsFact(
        news_id="n-1",
        kind="lost",
        fact="Aldous lost a millstone pin at the weir",
        source="wat",
        source_name="Wat",
        how="told",
    )
    sensed = SensedFacts(news=[news])
    said = talk(river["mirela"], "any juicy rumours?", sensed=sensed)[0]
    assert "millstone pin" in said, said


@pytest.mark.parametrize(
    "line",
    [
        *("I hate gossip.", "fancy a gossip?", "do you like gossip?", "stop spreading rumours"),
        *("What's going on at the mill?", "What's happening with the toll gate?"),
    ],
)
def test_a_line_about_gossip_that_asks_none(line: str) -> None:
    assert not asks_gossip(line)


def test_the_bundled_models_line_opens_with_them(river: dict[str, VillagerFacts]) -> None:
    """The bundled model's lead is the persona brain's: the neighbour for gossip, and
    something new for "go on"."""
    from game.npc.play.leads import lead_of
    from tests.npc.test_play_script import request, result, say_call

    npc = river["mirela"]
    lead = lead_of(request("any juicy rumours?").model_copy(update={"npc": npc}))
    assert "Bertil" in lead, lead
    first = talk(npc, "what's your work?")[0]
    history = [request("what's your work?").messages[-1], say_call(first), result()]
    lead = lead_of(request("go on", history).model_copy(update={"npc": npc}))
    assert lead and lead not in first and lead[:40] != first[:40], (first, lead)


def test_how_it_makes_its_own_thing_is_not_whoever_makes() -> None:
    """ "How do you make charcoal?" to the charcoal burner is about his work, though the
    dairywoman's role says "makes the cheese": the thing named outweighs the verb."""
    world = World(load_map(Path(__file__).resolve().parents[2] / "maps" / "thornwick.tmx"))
    ulric = villager_facts(world, "ulric")
    for asked in ("how do u even make charcoal", "How do you make your charcoal?"):
        said = talk(ulric, asked)[0]
        assert "charcoal" in said.lower() and "Agathe" not in said, said


def _all_moods(table: str) -> set[str]:
    return {line for mood in MOODS.values() for line in line_table(table, mood)}
