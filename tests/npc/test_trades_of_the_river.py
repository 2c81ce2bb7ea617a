"""A village on a river (a baker, a carter, a verger, a smith's girl, a keeper of woods, an
innkeeper, a seamstress), talked to as a player would: whom a persona's "him" means, one
trusted above all, a suspicion, a belief said as the player names its thing or with its
doer first, other words for a deed refused, a refusal only to those who have drunk too
much, a sign told as news, two verbs of one thing, and what goes on where no one works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.npc.facts import VillagerFacts
from tests.npc.test_sheet_answers import Person, facts_of, write_village
from tests.npc.test_trades_of_the_ford import plan

PEOPLE: list[Person] = [
    (
        "hilda",
        "Hilda",
        "Hilda bakes bread at the bakery. She is warm and chatty. She can't stand Godric "
        "and calls him a braggart.",
        {"work": "bakery", "wares": "bread and buns"},
    ),
    (
        "godric",
        "Godric",
        "Godric carts sacks between the villages. He is gruff and says little. He trusts "
        "nobody but Hilda. He suspects Perrin of stealing eggs.",
        {"work": "yard"},
    ),
    (
        "perrin",
        "Perrin",
        "Perrin is the verger who sweeps the church. He is quiet and shy. He believes the "
        "belfry is haunted by a sad ghost called Grey Meg.",
        {"work": "church"},
    ),
    (
        "wenna",
        "Wenna",
        "Wenna is eight and the smith's daughter. She is curious and asks questions. She "
        "believes goblins live under the old stone bridge. She adores Godric.",
        {"work": "bridge"},
    ),
    (
        "ruff",
        "Ruff",
        "Ruff is the keeper of Oakhurst woods. He is loud and loves a joke. He won't let "
        "anyone hunt in his woods. He is frightened of ghosts.",
        {"work": "woods"},
    ),
    (
        "bess",
        "Bess",
        "Bess keeps the Black Swan and serves cider and pies. She is jolly and loves a "
        "gossip. She won't serve anyone who has had too much to drink. She thinks Perrin "
        "is too proud for his own good.",
        {"work": "inn", "wares": "cider and pies"},
    ),
    (
        "tamsin",
        "Tamsin",
        "Tamsin is the seamstress: she mends and patches cloaks and shirts in her room by "
        "the well. She is formal and precise. She believes a dropped spoon means a visitor "
        "is coming.",
        {"work": "well"},
    ),
]
PLACES = [
    ("bakery", "The bakery by the green, smelling of warm loaves."),
    ("market", "The market place, where the drovers sell sheep on Mondays."),
    ("church", "The grey church, with a belfry and a yew in the churchyard."),
    ("bridge", "The old stone bridge over the river."),
    ("woods", "Oakhurst woods, full of pheasants and old oaks."),
    ("inn", "The Black Swan inn, with a low taproom and a fire."),
    ("well", "The village well, with a bucket on a chain."),
    ("yard", "The carter's yard behind the inn, with two carts."),
]
NO = re.compile(r"\bno\b|\bnot\b|n't|\bnever\b|\bnope\b", re.I)


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    return facts_of(write_village(tmp_path_factory.mktemp("river"), "river", PEOPLE, PLACES))


def test_him_of_someone_named_is_them_not_the_npc(river: dict[str, VillagerFacts]) -> None:
    assert river["hilda"].sheet.dislikes == ("Godric",)
    said, _ = plan(river["hilda"], "what do you think of Godric?")
    assert "calls him a braggart" in said and "calls me" not in said, said


def test_one_trusted_above_all_is_who_it_trusts(river: dict[str, VillagerFacts]) -> None:
    said, _ = plan(river["godric"], "who do you trust round here?")
    assert "Hilda" in said and "I trust nobody but her" in said, said
    of_her, _ = plan(river["godric"], "what do you make of Hilda?")
    assert "I trust nobody but her" in of_her and "that one" not in of_her, of_her


def test_a_suspicion_is_said_as_what_they_are_up_to(river: dict[str, VillagerFacts]) -> None:
    assert "Perrin is stealing eggs" in [b.what for b in river["godric"].sheet.beliefs]
    said, _ = plan(river["godric"], "what do you think of Perrin?")
    assert "up to stealing eggs" in said.lower() and "of stealing" not in said.lower(), said


def test_a_belief_is_said_as_the_player_names_its_thing(
    river: dict[str, VillagerFacts],
) -> None:
    said, _ = plan(river["wenna"], "are there really goblins under the bridge?")
    assert "live under the bridge" in said, said


def test_a_belief_of_a_thing_done_by_one_named_says_the_doer_first(
    river: dict[str, VillagerFacts],
) -> None:
    said, _ = plan(river["perrin"], "is the belfry really haunted?")
    assert "Grey Meg" in said and "haunts it" in said, said


@pytest.mark.parametrize(
    "line", ["can I bag a few pheasants in your woods?", "mind if I go hunting in the woods?"]
)
def test_hunting_in_other_words_meets_a_refusal_to_hunt(
    river: dict[str, VillagerFacts], line: str
) -> None:
    said, _ = plan(river["ruff"], line)
    assert NO.search(said) and "hunt" in said, said


def test_a_night_somewhere_haunted_meets_a_fear_of_ghosts(
    river: dict[str, VillagerFacts],
) -> None:
    said, _ = plan(river["ruff"], "fancy a night in the haunted mill?")
    assert "host" in said and "treasure" not in said, said


def test_a_refusal_to_those_who_drank_too_much_is_only_to_them(
    river: dict[str, VillagerFacts],
) -> None:
    served, _ = plan(river["bess"], "a mug of cider, please")
    assert "too much" not in served and not NO.search(served), served
    drunk, _ = plan(river["bess"], "another cider, I've only had nine")
    assert "too much" in drunk, drunk
    owed, _ = plan(river["bess"], "a pie on tick?")
    assert re.search(r"slate|coin|pay", owed, re.I) and NO.search(owed), owed


def test_a_sign_told_as_news_is_read_as_the_sign(river: dict[str, VillagerFacts]) -> None:
    said, _ = plan(river["tamsin"], "I dropped a spoon, what does that mean?")
    assert "visitor" in said and "keep an eye out" not in said, said


def test_two_verbs_of_one_thing_are_said_whole(river: dict[str, VillagerFacts]) -> None:
    said, _ = plan(river["tamsin"], "what do you do all day?")
    assert re.search(r"I (?:mend|patch) cloaks", said) and not said.rstrip().endswith("I mend."), (
        said
    )


def test_what_goes_on_where_no_one_works_is_what_its_description_says(
    river: dict[str, VillagerFacts],
) -> None:
    said, _ = plan(river["bess"], "what happens at the market?")
    assert "drovers sell sheep" in said, said


def test_an_age_before_the_trade_leaves_the_trade(river: dict[str, VillagerFacts]) -> None:
    assert river["wenna"].sheet.role == "smith's daughter"


def test_who_it_likes_is_one_it_adores_and_the_kindest_no_cold_one(
    river: dict[str, VillagerFacts],
) -> None:
    liked, _ = plan(river["wenna"], "who do you like?")
    assert "Godric" in liked, liked
    kindest, _ = plan(river["bess"], "who's the kindest person in the village?")
    assert "Perrin" not in kindest, kindest


def test_a_ware_asked_how_good_it_is_is_praised(river: dict[str, VillagerFacts]) -> None:
    for line in ("is the cider good?", "what are the pies like today?", "how's your bread?"):
        npc = river["hilda"] if "bread" in line else river["bess"]
        said, _ = plan(npc, line)
        thing = re.search(r"cider|pies|bread", line)
        assert thing and thing.group() in said.lower() and not NO.search(said), (line, said)


def test_something_given_is_thanked_and_a_seat_is_no_gift(
    river: dict[str, VillagerFacts],
) -> None:
    sweet, _ = plan(river["wenna"], "can I give you a sweet?")
    assert re.search(r"thank|ooh|lovely", sweet, re.I), sweet
    seat, _ = plan(river["tamsin"], "take a seat")
    assert not re.search(r"gift|thank", seat, re.I), seat


def test_a_curtsey_shown_is_made(river: dict[str, VillagerFacts]) -> None:
    _, emotes = plan(river["tamsin"], "show me a curtsey")
    assert emotes, emotes


def test_an_event_asked_of_with_no_news_is_none_heard(river: dict[str, VillagerFacts]) -> None:
    said, _ = plan(river["tamsin"], "is there a dance on the green this week?")
    assert "a dance" in said and re.search(r"nobody|not|no\b|haven't", said, re.I), said


def test_a_gesture_on_what_it_has_seen_answers_its_belief(
    river: dict[str, VillagerFacts],
) -> None:
    said, emotes = plan(river["wenna"], "nod if you've seen the goblins")
    assert emotes and "oblins" in said, (said, emotes)


def test_a_fear_asked_with_a_tag_and_a_hunt_asked_by_chance(
    river: dict[str, VillagerFacts],
) -> None:
    scared, _ = plan(river["ruff"], "u scared of ghosts or what")
    assert "host" in scared, scared
    rabbit, _ = plan(river["ruff"], "any chance i could catch a rabbit or two in your woods?")
    assert NO.search(rabbit) and "hunt" in rabbit, rabbit


def test_a_visit_asked_is_welcome_at_its_home(river: dict[str, VillagerFacts]) -> None:
    said, _ = plan(river["hilda"], "can I come to yours for tea?")
    assert "bakery" in said and not NO.search(said), said


def test_a_request_said_with_gladness_is_still_a_request(
    river: dict[str, VillagerFacts],
) -> None:
    said, _ = plan(river["bess"], "I'm so happy today! can I have a pie for free?")
    assert NO.search(said) and "happy" not in said.lower(), said


def test_a_trade_said_with_its_particle_is_kept_whole(tmp_path: Path) -> None:
    washer = (
        "dot",
        "Dot",
        "Dot takes in washing at the wash house by the stream. She is timid and kind.",
        {"work": "well"},
    )
    facts = facts_of(write_village(tmp_path, "wash", [washer, PEOPLE[0]], PLACES))
    said, _ = plan(facts["dot"], "what's your job?")
    assert "take in washing" in said and not said.startswith("In washing"), said


def test_who_it_likes_of_one_with_no_warm_view_is_most_folk(tmp_path: Path) -> None:
    sour = (
        "amos",
        "Amos",
        "Amos chairs the parish meetings. He is pompous and loves the sound of his own voice. "
        "He thinks Hilda is a gossip.",
        {"work": "church"},
    )
    facts = facts_of(write_village(tmp_path, "parish", [sour, PEOPLE[0]], PLACES))
    said, _ = plan(facts["amos"], "who do you like?")
    assert "sound" not in said and "Hilda" not in said, said


def test_one_it_thinks_ill_of_is_never_called_a_dear(river: dict[str, VillagerFacts]) -> None:
    said, _ = plan(river["bess"], "who is Perrin?")
    assert "Perrin" in said and "proud" in said.lower(), said
    assert not re.search(r"a dear|lovely soul", said, re.I), said
