"""What the persona brain says of itself from a persona reads as plain first-person English,
whatever style the persona is written in (`tests/npc/persona_corpus.py`): its work, likes,
dislikes, refusals, beliefs, fears and opinions, and its replies to questions about them."""

from __future__ import annotations

import pytest

from game.npc.facts import VillagerFacts
from game.npc.scripted.claims import view_phrases
from game.npc.scripted.clauses import clauses_of, said_of_someone
from game.npc.scripted.first_person import first_person
from game.npc.scripted.job import job_phrases
from game.npc.scripted.retell import clauses, said_as_mine
from game.npc.scripted.said_well import garbled, proper_words
from game.npc.sheet.model import COUNTER_REFUSALS
from tests.npc.persona_corpus import CORPUS
from tests.npc.test_sheet_answers import facts_of, reply, write_village

# What the guard must catch, each a miss the rewrite once made.
GARBLED = (
    "I sells rope by the yard.",
    "I always keeps the gate.",
    "I'm a I keep the bees.",
    "I tell my what ails them.",
    "Come and sit with I.",
    "And the lighthouse.",
    "Which rots hemp.",
    "I can't stand anyone who lets the.",
    "I'm a Toll keeper.",
    "Oh, Rope. I twist it.",
    "Than the church, it stones are older.",
    "I scold anyone and.",
)
PLAIN = (
    "I sell rope by the yard.",
    "I'm a toll keeper at the bridge.",
    "The bees. I keep them.",
    "I won't grind on a Sunday.",
    "Best work there is!",
    "Anything else, though!",
    "Of Bryn, I will say this. Calls me a miser.",
    "Hob Garret? A fine neighbour.",
    "I was born here, and I'm proud of it.",
)


@pytest.mark.parametrize("line", GARBLED)
def test_the_guard_names_a_garbled_line(line: str) -> None:
    assert garbled(line, {"Sunday", "Hob", "Garret", "Bryn"}), line


@pytest.mark.parametrize("line", PLAIN)
def test_the_guard_passes_plain_english(line: str) -> None:
    assert garbled(line, {"Sunday", "Hob", "Garret", "Bryn"}) == "", line


def test_the_corpus_has_a_hundred_sentences_in_many_styles() -> None:
    count = sum(len(p.replace("; ", ". ").split(". ")) for _, _, p in CORPUS)
    assert count >= 100
    names = [n for _, n, _ in CORPUS]
    firsts = [p.split()[0] for _, _, p in CORPUS]
    assert {"I", "He", "She", "They"} <= set(firsts)  # pronouns and the first person
    assert sum(f in n for f, n in zip(firsts, names, strict=True)) >= 10  # by name
    assert sum(len(p.split(". ")[0].split()) <= 3 for _, _, p in CORPUS) >= 4  # notes


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, VillagerFacts]:
    people = [(npc_id, name, persona, {}) for npc_id, name, persona in CORPUS]
    return facts_of(write_village(tmp_path_factory.mktemp("corpus"), "corpus", people, []))


_SURE = {"certain": "I'm certain {}.", "thinks": "I think {}.", "suspects": "I suspect {}."}


def statements(npc: VillagerFacts, facts: dict[str, VillagerFacts]) -> list[str]:
    """Everything the brain says of itself from its sheet and persona, in a plain frame."""
    sheet = npc.sheet
    out = [f"{p[:1].upper()}{p[1:]}." for p in job_phrases(npc)]
    out += [f"I like {x}." for x in sheet.likes]
    out += [f"I can't stand {x}." for x in sheet.dislikes]
    out += [f"I'm afraid of {x}." for x in sheet.fears]
    out += [f"I won't {x}." for x in sheet.refuses if x not in COUNTER_REFUSALS]
    out += [_SURE[b.sure].format(b.what) for b in sheet.beliefs]
    for other, held in sheet.opinions.items():
        name = facts[other].name
        said = view_phrases(held, [name, *name.split()])
        out.append(f"{name}? {said[0] if said else held}.")
    out += [m for m in (said_as_mine(c, npc.persona) for c in clauses(npc.persona, npc.name)) if m]
    return out


def test_every_statement_from_every_persona_reads_as_plain_english(
    corpus: dict[str, VillagerFacts],
) -> None:
    names = {w for _, n, p in CORPUS for w in [*n.split(), *proper_words(p)]}
    said = [(npc_id, s) for npc_id, npc in corpus.items() for s in statements(npc, corpus)]
    assert len(said) >= 200
    bad = [(npc_id, s, why) for npc_id, s in said if (why := garbled(s, names))]
    assert not bad, "\n".join(map(str, bad))


QUESTIONS = (
    "What do you do?",
    "What do you like?",
    "What do you hate?",
    "What are you afraid of?",
    "Tell me about yourself.",
    "What do you believe?",
)


def test_every_reply_about_itself_reads_as_plain_english(
    corpus: dict[str, VillagerFacts],
) -> None:
    bad = []
    for npc_id, npc in corpus.items():
        for question in QUESTIONS:
            text = reply(npc, question)[0]
            if why := garbled(text, None):
                bad.append((npc_id, question, text, why))
    assert not bad, "\n".join(map(str, bad))


@pytest.mark.parametrize(
    ("npc_id", "job"),
    [
        ("bette", "I keep the toll gate"),  # first person: not "I'm a I keep"
        ("orrin", "I'm a ropemaker"),  # notes: not "I'm a Ropemaker"
        ("maud", "I'm a beekeeper"),
        ("hob", "I'm a cooper"),  # "Hob Garret, the cooper, builds barrels"
        ("emlyn", "I'm a potter"),
        ("perpetua", "I'm a dyer"),  # "I'm the dyer"
        ("cato", "I keep the bell tower"),  # "They keep": not "I'm a keep"
        ("fen", "I carve spoons and bowls"),
        ("fenwick", "I mend nets"),  # a chatty opener before the work
        ("jory", "I shoe horses"),  # not "I sho"
        ("rowena", "I train falcons"),  # "a stern woman" is no trade
    ],
)
def test_its_work_is_said_in_its_own_first_person(
    corpus: dict[str, VillagerFacts], npc_id: str, job: str
) -> None:
    assert job in job_phrases(corpus[npc_id])


def test_others_named_in_a_clause_are_not_the_npc(corpus: dict[str, VillagerFacts]) -> None:
    """ "copies letters for folk who cannot write": the NPC refuses nothing; "collects the
    rents" is work, not a like; "rain, which rots hemp" is rain."""
    assert corpus["yara"].sheet.refuses == ()
    assert "the rents" not in corpus["tace"].sheet.likes
    assert clauses_of("Orla hates rain, which rots hemp.", "Orla") == ["hates rain"]
    said = clauses("Bette keeps the gate and can't stand people who argue.", "Bette")
    assert "I can't stand people who argue" in said  # not "I can't stand people."


def test_verbs_are_said_of_someone_and_of_oneself() -> None:
    assert [said_of_someone(v) for v in ("keep", "carry", "wash", "go", "am", "won't")] == [
        "keeps",
        "carries",
        "washes",
        "goes",
        "is",
        "won't",
    ]
    assert first_person("Tobin shoes horses and throws jugs and bowls by the kiln.", "Tobin") == (
        "I shoe horses and throw jugs and bowls by the kiln."
    )


def test_a_belief_is_told_by_its_subject_not_cut_before_its_thing(
    corpus: dict[str, VillagerFacts],
) -> None:
    text = reply(corpus["cato"], "What do you believe?")[0]
    assert "keep the fog away" in text, text
    text = reply(corpus["dagny"], "What do you believe?")[0]
    assert "it stones" not in text and "Than the" not in text, text


def test_a_phrase_put_mid_line_keeps_its_small_letter() -> None:
    from game.npc.scripted.said_well import capital_misplaced

    assert capital_misplaced("Oh, Rope. I twist it!", "Rope. I twist it", set())
    assert not capital_misplaced("Why, I'm a miller!", "I'm a miller", set())
    assert not capital_misplaced("Oh, Hob Garret? A fine one.", "Hob Garret? A fine one", {"Hob"})
    assert not capital_misplaced("Rope. I twist it!", "Rope. I twist it", set())
