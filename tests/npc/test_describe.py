"""A place as a villager tells of it (`game.npc.scripted.describe`): a part of its
description, the one asked about, else one the seed picks; never the same recital."""

from __future__ import annotations

from game.npc.scripted.describe import described, parts
from game.wording import overlap

QUAY = (
    "The old stone quay at the foot of the harbour steps: a crane, lobster pots stacked "
    "high and the ferry's mooring ring; gulls fight over the scraps at dusk."
)
KILN = "A squat brick kiln behind the potter's yard, with a chimney that smokes all day."
WELL = "A round well under a red roof."


def test_a_description_comes_apart_in_sentences_a_villager_can_say() -> None:
    assert parts(QUAY) == [
        "The old stone quay at the foot of the harbour steps.",
        "A crane, lobster pots stacked high and the ferry's mooring ring.",
        "Gulls fight over the scraps at dusk.",
    ]
    assert parts(KILN) == [
        "A squat brick kiln behind the potter's yard.",
        "It has a chimney that smokes all day.",
    ]
    assert parts(WELL) == [WELL]  # one short part: said whole


def test_the_part_asked_about_is_said_else_the_seed_picks_one() -> None:
    assert described(QUAY, seed=0, asked="Is the ferry in? Where does it moor?") == (
        "A crane, lobster pots stacked high and the ferry's mooring ring."
    )
    assert described(KILN, seed=5, asked="Does the chimney smoke?") == parts(KILN)[1]
    told = {described(QUAY, seed=s, asked="What's it like?") for s in range(6)}
    assert told == set(parts(QUAY))
    # Two tellings of one place are not one recital said twice.
    a, b = (described(QUAY, seed=s) for s in (0, 1))
    assert overlap(a, b) < 0.7
    assert described(WELL, seed=3) == WELL
