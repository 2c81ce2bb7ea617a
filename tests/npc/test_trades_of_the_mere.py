"""A village by a lake (a physician, a brewer, a sexton, a girl who minds ducks), talked to as
a player would: a role said before a colon keeps the work after it, a child may not do what
it is not allowed ("I'm not allowed..."), a refusal to whom is only to them, one who does
not believe in charms says so of any it lists, a request that meets a refusal's terms is a
yes, and what is the NPC's own (its ducks, its bell) is kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import NewsFact, SensedFacts, VillagerFacts
from game.npc.scripted.clauses import clauses_of
from game.npc.scripted.matching import one_listed
from game.npc.scripted.speaker import PlayerLine
from game.npc.scripted.talk import answer
from game.npc.scripted.village_life import board_reply
from game.npc.skills import SkillCall
from tests.npc.test_sheet_answers import Person, facts_of, write_village
from tests.npc.test_trades_of_the_ford import plan

PEOPLE: list[Person] = [
    (
        "lucan",
        "Lucan",
        "Dr Lucan is the village physician: he sees the sick in his surgery and makes up "
        "powders and draughts. He is formal and dry. He will not give any medicine without "
        "seeing the patient first. He does not believe in charms, curses or lucky feet.",
        {"work": "surgery"},
    ),
    (
        "barnaby",
        "Barnaby",
        "Barnaby brews ale in the brewhouse and sells it by the jug. He is big, jolly and "
        "loud. He will never serve ale to a child.",
        {"work": "brewhouse", "wares": "ale, cider and malt"},
    ),
    (
        "ambrose",
        "Ambrose",
        "Ambrose is the old sexton: he rings the bell and digs the graves at the church. He "
        "is gloomy and says very little.",
        {"work": "church"},
    ),
    (
        "lark",
        "Lark",
        "Lark is a girl of twelve who minds the ducks on the duck pond and sells duck eggs. "
        "She is cheeky and chatty. She is not allowed on the lake in a boat by herself.",
        {"work": "pond", "wares": "duck eggs"},
    ),
]
PLACES = [
    ("surgery", "Dr Lucan's surgery, a tidy house with a brass plate on the door."),
    ("brewhouse", "The brewhouse, smelling of malt, with barrels stacked by the door."),
    ("church", "The squat grey church, with a bell tower and the churchyard behind."),
    ("pond", "The duck pond by the cottages, with a hen house at the back."),
    ("lake", "The deep cold lake south of the village, with rowing boats at the jetty."),
]
NO = re.compile(r"\bno\b|\bnot\b|n't|\bnever\b|\bnope\b", re.I)


@pytest.fixture(scope="module")
def mere(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("mere"), "mere", PEOPLE, PLACES))


def test_the_work_after_a_role_and_a_colon_is_its_own_clause(
    mere: dict[str, VillagerFacts],
) -> None:
    said = clauses_of("Bo is the old sexton: he rings the bell and digs the graves.", "Bo")
    assert said[:2] == ["is the old sexton", "rings the bell"], said
    assert "rings the bell" in mere["ambrose"].sheet.ways, mere["ambrose"].sheet.ways
    assert any(w.startswith("sees the sick") for w in mere["lucan"].sheet.ways)


def test_what_it_is_not_allowed_it_says_it_is_not_allowed(mere: dict[str, VillagerFacts]) -> None:
    sheet = mere["lark"].sheet
    assert any(r.startswith("go on the lake") for r in sheet.refuses), sheet.refuses
    line, _ = plan(mere["lark"], "Want to row out on the lake with me?")
    assert "not allowed to go on the lake" in line, line


def test_a_refusal_to_a_child_is_no_refusal_to_a_grown_up(mere: dict[str, VillagerFacts]) -> None:
    child, _ = plan(mere["barnaby"], "Can my little sister have a mug of ale? She's nine.")
    assert NO.search(child) and "child" in child.lower(), child
    order, _ = plan(mere["barnaby"], "A jug of ale for my boy, please.")
    assert "child" in order.lower(), order
    pint, _ = plan(mere["barnaby"], "Can I have a pint?")
    assert "ale" in pint.lower() and "child" not in pint.lower(), pint
    later, _ = plan(mere["barnaby"], "One more pint, I'll pay you tomorrow, honest.")
    assert "child" not in later.lower() and NO.search(later), later


def test_a_charm_not_believed_in_is_said_by_the_one_asked_of(
    mere: dict[str, VillagerFacts],
) -> None:
    listed = one_listed("believe in charms, curses or lucky feet", "a rabbit's foot?")
    assert listed[0] == "believe in lucky feet" and "believe in charms" in listed, listed
    assert one_listed("believe in ghosts", "ghosts?") == []
    line, _ = plan(mere["lucan"], "Will this rabbit's foot cure my fever?")
    assert NO.search(line) and "lucky feet" in line, line


def test_a_request_on_a_refusals_terms(mere: dict[str, VillagerFacts]) -> None:
    mine, _ = plan(mere["lucan"], "Just give me the strong stuff, you don't need to look at me.")
    assert "without seeing you" in mine, mine
    other, _ = plan(mere["lucan"], "Give me something for my mother's cough, don't ask why.")
    assert "seeing you" not in other and "patient" in other, other
    visit, _ = plan(mere["lucan"], "Will you come and see my son? He has a fever.")
    assert not NO.search(visit) and "come" in visit.lower(), visit


def test_its_own_things_and_work_are_kept(mere: dict[str, VillagerFacts]) -> None:
    ducks, _ = plan(mere["lark"], "Give me one of your ducks, please?")
    assert "ducks" in ducks and "eggs" not in ducks and " it " not in ducks, ducks
    bell, _ = plan(mere["ambrose"], "Let me ring the church bell, go on.")
    assert "ring the bell" in bell and NO.search(bell + " no"), bell
    assert "tower" not in bell, bell  # it was the church's description


def test_a_remedy_it_makes_for_anyone(mere: dict[str, VillagerFacts]) -> None:
    line, emotes = plan(mere["lucan"], "Have a think: what's good for a burnt hand?")
    assert "powders or draughts" in line and emotes == ["think"], (line, emotes)


def test_its_own_post_on_the_board(mere: dict[str, VillagerFacts]) -> None:
    said = "I saw your name on the notice board. What's it about?"
    assert "nothing up" in board_reply(mere["ambrose"], said, [])
    own = NewsFact(news_id="n1", kind="notice", fact="the bell is cracked", origin_is_teller=True)
    assert "bell is cracked" in board_reply(mere["ambrose"], said, [own])
    assert board_reply(mere["ambrose"], "I saw your name on the board. Selling eggs?", []) == ""


WILF: Person = (
    "wilf",
    "Wilf",
    "Wilf is the thatcher: he thatches the roofs. He is cheerful. He never climbs a roof in the "
    "rain. He believes a hare crossing your path means rain by nightfall.",
    {"work": "pond"},
)
BREWER_TALES = (
    "Barnaby brews ale in the brewhouse and sells it by the jug. He tells tall tales about "
    "the giants who dug the lake. He swears his ale tastes better brewed under a full moon."
)


@pytest.fixture(scope="module")
def mere2(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    brewer = ("barnaby", "Barnaby", BREWER_TALES, {"work": "brewhouse", "wares": "ale"})
    people = [p for p in PEOPLE if p[0] != "barnaby"] + [WILF, brewer]
    return facts_of(write_village(tmp_path_factory.mktemp("mere2"), "mere2", people, PLACES))


def test_what_it_reckons_is_no_request(mere2: dict[str, VillagerFacts]) -> None:
    hare, _ = plan(mere2["wilf"], "do you reckon it'll rain today? i saw a hare this morning")
    assert "hare" in hare.lower() and "not in the rain" not in hare.lower(), hare
    roof, _ = plan(mere2["wilf"], "Do you reckon you'll be on the roof today in this rain?")
    assert NO.search(roof) and "rain" in roof.lower(), roof


def test_the_secret_of_its_ware_is_its_belief(mere2: dict[str, VillagerFacts]) -> None:
    for line in ("whats the secret to your ale then", "how do you make your ale so good?"):
        said, _ = plan(mere2["barnaby"], line)
        assert "full moon" in said, (line, said)


def test_a_tale_it_tells_is_told_as_its_own(mere2: dict[str, VillagerFacts]) -> None:
    tale, _ = plan(mere2["barnaby"], "tell me about the giants who dug the lake")
    assert "giants dug the lake" in tale.lower() and "settlers" not in tale, tale


def test_a_slight_on_its_wares_is_an_insult(mere2: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere2["barnaby"], "my mate says your ale is watered down")
    assert "celebrat" not in said and "lovely" not in said, said


def test_someone_hurt_brings_the_one_who_tends_the_sick(
    mere2: dict[str, VillagerFacts],
) -> None:
    steps = answer(
        PlayerLine(
            npc=mere2["lucan"],
            said="can you come to the lake right now? someone fell over",
            sensed=SensedFacts(hour=12.0),
        )
    )
    moves = [s.arguments().get("to") for s in steps if isinstance(s, SkillCall)]
    assert "lake" in moves, steps
    sent, _ = plan(mere2["wilf"], "come quick, a man's collapsed by the pond!")
    assert "Lucan" in sent, sent
    once, _ = plan(mere2["lucan"], "I fell off a ladder once. Can you help me find Wilf?")
    assert "Wilf" in once, once


def test_a_belief_asked_of_a_person_names_them(mere2: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere2["ambrose"], "does lucan go to church?")
    assert "dead" not in said.lower(), said


def test_what_it_will_be_is_its_dream(tmp_path: Path) -> None:
    lark = (
        "lark",
        "Lark",
        "Lark is a girl of twelve who minds the ducks. She dreams of joining the travelling "
        "players.",
        {"work": "pond"},
    )
    facts = facts_of(write_village(tmp_path, "dream", [lark, WILF], PLACES))
    said, _ = plan(facts["lark"], "do you want to be an actor when you grow up?")
    assert "travelling players" in said, said


def test_a_word_of_the_terms_is_not_the_terms_met(mere: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere["lucan"], "I'm going to thump Barnaby when I see him, the cheat.")
    assert "come" not in said.lower(), said


def test_the_village_day_asked_in_other_words(mere2: dict[str, VillagerFacts]) -> None:
    news, _ = plan(mere2["lucan"], "has anything happened in the village today?")
    assert "travelled" not in news and "news" in news.lower(), news
    sun, _ = plan(mere2["wilf"], "when does the sun come up round here?")
    assert "six" in sun and "midday" not in sun, sun
    supper, _ = plan(mere2["ambrose"], "is it nearly supper time?")
    assert "midday" in supper.lower(), supper
    shut, _ = plan(mere2["lucan"], "when do you shut up the surgery?")
    assert "o'clock" in shut, shut


def test_the_players_own_hurt_is_looked_at(mere2: dict[str, VillagerFacts]) -> None:
    steps = answer(
        PlayerLine(npc=mere2["lucan"], said="could you look at my hand? i cut it", sensed=None)
    )
    assert any(isinstance(s, SkillCall) and s.skill.name == "look" for s in steps), steps
    sent, _ = plan(mere2["wilf"], "i cut my hand on a sickle")
    assert "Lucan" in sent, sent


def test_who_it_likes_least_and_best(tmp_path: Path) -> None:
    sexton = (
        "ambrose",
        "Ambrose",
        "Ambrose is the old sexton. He is gloomy. He thinks Dr Lucan is a know-all.",
        {"work": "church"},
    )
    lark = ("lark", "Lark", "Lark minds the ducks. She thinks Barnaby is the funniest man alive.")
    people = [sexton, (*lark, {"work": "pond"}), PEOPLE[0], PEOPLE[1]]
    facts = facts_of(write_village(tmp_path, "likes", people, PLACES))
    least, _ = plan(facts["ambrose"], "who's your least favourite?")
    assert "Lucan" in least, least
    best, _ = plan(facts["lark"], "which of the grown-ups is the nicest?")
    assert "Barnaby" in best, best


def test_the_best_thing_it_sells_is_a_ware(mere: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere["lark"], "what's the best thing you sell?")
    assert "egg" in said.lower(), said


FEN: list[Person] = [
    (
        "rollo",
        "Rollo",
        "Rollo is an old soldier. He tells long war stories to anyone who will listen, and he "
        "walks with a stick. He will never talk about the battle at the river ford, whoever "
        "asks.",
        {"work": "church"},
    ),
    (
        "bettany",
        "Bettany",
        "Bettany bakes pies in her pie shop. She is kind and motherly and feeds everyone.",
        {"work": "pond", "wares": "eel pies"},
    ),
    (
        "hester",
        "Hester",
        "Hester grows herbs in her garden. She is sharp-tongued and has no patience for gossip.",
        {"work": "surgery"},
    ),
    (
        "kester",
        "Kester",
        "Kester is the eel-catcher: he sets willow traps in the river. He is shy.",
        {"work": "lake"},
    ),
]


@pytest.fixture(scope="module")
def fen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("fen"), "fen", FEN, PLACES))


def test_what_happened_asks_a_telling_it_will_not_give(fen: dict[str, VillagerFacts]) -> None:
    said, _ = plan(fen["rollo"], "what happened at the river ford?")
    assert NO.search(said) and "battle" in said, said


def test_hunger_told_to_one_who_feeds_everyone(fen: dict[str, VillagerFacts]) -> None:
    said, _ = plan(fen["bettany"], "I'm starving and I've no money")
    assert "Kester" not in said and not NO.search(said), said


def test_news_of_a_neighbour_to_one_with_no_patience_for_gossip(
    fen: dict[str, VillagerFacts],
) -> None:
    said, _ = plan(fen["hester"], "did you hear Kester caught a huge eel?")
    assert re.search(r"gossip|business", said, re.I), said


def test_when_it_does_its_work_asks_its_hours(fen: dict[str, VillagerFacts]) -> None:
    traps, _ = plan(fen["kester"], "when do you check your traps?")
    assert "o'clock" in traps, traps
    stick, _ = plan(fen["rollo"], "when do you walk with your stick?")
    assert "o'clock" not in stick, stick


def test_a_thing_of_its_own_told_of_as_its_persona_says(fen: dict[str, VillagerFacts]) -> None:
    traps, _ = plan(fen["kester"], "tell me about your traps")
    assert "them in the river" in traps and "willow them" not in traps, traps
    stick, _ = plan(fen["rollo"], "tell me about your stick")
    assert "walk with it" in stick, stick


def test_spitting_with_rain_is_rain(mere2: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere2["wilf"], "come and thatch my shed, it's only spitting")
    assert NO.search(said) and "rain" in said, said


def test_a_stickler_puts_a_slip_right(tmp_path: Path) -> None:
    teacher = (
        "prue",
        "Prue",
        "Miss Prue is the schoolmistress. She is strict and formal, and she corrects other "
        "people's grammar without meaning to.",
        {"work": "church"},
    )
    facts = facts_of(write_village(tmp_path, "school", [teacher, WILF], PLACES))
    slip, _ = plan(facts["prue"], "me and him was going to the market")
    assert "He and I were" in slip and "market" not in slip.lower(), slip
    asked, _ = plan(facts["prue"], "I seen a fox by the church, where does it live?")
    assert "I saw" in asked and len(asked) > len("'I saw', not 'I seen'.") + 5, asked
    plain, _ = plan(facts["wilf"], "me and him was going to the market")
    assert "He and I" not in plain, plain


def test_a_remedy_for_kin_told_ill_is_on_its_terms(mere: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere["lucan"], "my sister's got a fever, sell me something for her")
    assert "patient" in said and "seeing you" not in said, said


def test_the_most_of_a_manner_it_has_itself_is_itself(tmp_path: Path) -> None:
    harbour = (
        "nell",
        "Nell",
        "Nell runs the harbour. Brisk, bossy and quick to laugh. She thinks Wilf is kind.",
        {"work": "lake"},
    )
    fish = (
        "peg",
        "Peg",
        "Peg sells fish at her stall. She will not sell a fish that's more than a day old.",
        {"work": "pond", "wares": "mackerel and herring"},
    )
    facts = facts_of(write_village(tmp_path, "harbour", [harbour, fish, WILF], PLACES))
    bossy, _ = plan(facts["nell"], "who's the bossiest person in the village?")
    assert re.search(r"\bme\b", bossy, re.I), bossy
    kind, _ = plan(facts["nell"], "who's the kindest person here?")
    assert "Wilf" in kind, kind
    fresh, _ = plan(facts["peg"], "is this mackerel fresh?")
    assert re.match(r"\W*(?:fresh|today)", fresh, re.I), fresh
    rope, _ = plan(facts["wilf"], "is this reed fresh?")
    assert "stale" not in rope.lower(), rope


def test_when_a_place_is_busy_is_its_descriptions_time(tmp_path: Path) -> None:
    places = [
        *PLACES,
        ("market", "The fish market by the quay, loud at dawn when the boats come in."),
    ]
    facts = facts_of(write_village(tmp_path, "quay", [WILF, PEOPLE[0]], places))
    said, _ = plan(facts["wilf"], "when's the fish market on?")
    assert "dawn when the boats come in" in said, said


def test_a_sign_it_believes_in_is_met_with_what_it_means(tmp_path: Path) -> None:
    cobbler = (
        "hobb",
        "Hobb",
        "Hobb is the cobbler. He believes new shoes on a table bring bad luck.",
        {"work": "pond"},
    )
    washer = (
        "dilly",
        "Dilly",
        "Dilly takes in washing. She believes a robin at the window means a letter is coming.",
        {"work": "lake"},
    )
    teller = (
        "zora",
        "Madame Zora",
        "Madame Zora tells fortunes. She is mysterious and dramatic. She thinks Hobb is a dear.",
        {"work": "church"},
    )
    facts = facts_of(write_village(tmp_path, "signs", [cobbler, washer, teller], PLACES))
    shoes, _ = plan(facts["hobb"], "can I put my new shoes on your table?")
    assert "bad luck" in shoes, shoes
    robin, _ = plan(facts["dilly"], "there's a robin at your window")
    assert "letter is coming" in robin, robin
    # a titled name ("Madame Zora") no longer breaks a question of beliefs
    asked, _ = plan(facts["dilly"], "is the robin lucky?")
    assert asked, asked
    assert PlayerLine(npc=facts["zora"], said="hi").mood.name == "wise"


def test_weather_told_stops_what_it_will_not_do_in_it(mere2: dict[str, VillagerFacts]) -> None:
    said, _ = plan(mere2["wilf"], "it's raining cats and dogs")
    assert "climb a roof" in said and "dog" not in said.lower(), said


def test_admit_it_asks_what_it_will_never_admit(tmp_path: Path) -> None:
    mayor = (
        "amos",
        "Mayor Amos",
        "Mayor Amos runs the village. He is pompous. He will never admit he is wrong.",
        {"work": "church"},
    )
    facts = facts_of(write_village(tmp_path, "hall", [mayor, WILF], PLACES))
    said, _ = plan(facts["amos"], "admit it, the new well was a mistake")
    assert "admit" in said and NO.search(said), said


def test_why_not_asked_of_a_deed_it_never_does_says_it(tmp_path: Path) -> None:
    hermit = (
        "fen",
        "Old Fen",
        "Old Fen is a hermit who lives in the woods. He is silent. He never goes into the "
        "village on market day.",
        {"work": "lake"},
    )
    washer = (
        "dilly",
        "Dilly",
        "Dilly takes in washing. She is kind and cheerful. She thinks Wilf is a dear.",
        {"work": "pond"},
    )
    jolly = ("jo", "Jo", "Jo minds the church. She is cheerful and jolly.", {"work": "church"})
    facts = facts_of(write_village(tmp_path, "woods", [hermit, washer, jolly, WILF], PLACES))
    why, _ = plan(facts["fen"], "why don't you come to the village more?")
    assert "go into the village" in why and "No such place" not in why, why
    kind, _ = plan(facts["dilly"], "who's the kindest person here?")
    assert "Wilf" in kind, kind  # its warm opinion, before one of a cheerful mood
