"""The suite's figures, each on hand-made turns: every figure can fail."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.eval import figures as f
from game.eval.figures import ScenarioRun
from game.eval.scenarios import Scenario
from game.harness import Call, TurnReport

NAMES = {"player": ["player", "Traveller"], "maren": ["maren", "Elder Maren", "Maren"]}


def call(skill: str, /, rejected: str | None = None, is_error: bool = False, **args: Any) -> Call:
    return Call(skill, json.dumps(args), is_error=is_error, rejected=rejected)


def say(text: str) -> Call:
    return call("say", text=text)


def turn(
    *calls: Call,
    said: list[str] | None = None,
    kind: str = "player",
    npc: str = "tobin",
    wall_s: float = 1.0,
    first: float | None = 0.2,
    npc_tile: tuple[int, int] = (5, 5),
    player_tile: tuple[int, int] = (5, 6),
    line: str = "hi",
    **kw: Any,
) -> TurnReport:
    texts = said if said is not None else [t for c in calls if (t := c.text())]
    return TurnReport(
        kind, npc, line=line, calls=list(calls), said=texts, wall_s=wall_s,
        first_letter_s=first, npc_tile=npc_tile, player_tile=player_tile, **kw,
    )  # fmt: skip


def scenario(**kw: Any) -> Scenario:
    data = {"id": "s", "npc": "tobin", "category": "gesture", "lines": ["hi"], **kw}
    return Scenario.model_validate(data)


def run(sc: Scenario, *turns: TurnReport, greeting: str = "Good morning to you!") -> ScenarioRun:
    return ScenarioRun(sc, list(turns), greeting=greeting, names=NAMES)


WAVE = scenario(fits=[{"skill": "emote", "args": {"name": "wave"}}])


# --- fit ------------------------------------------------------------------------------------


def test_a_gesture_fits_only_with_its_name() -> None:
    assert f.fits(run(WAVE, turn(call("emote", name="wave"), say("Hello!"))))
    assert not f.fits(run(WAVE, turn(call("emote", name="nod"), say("Hello!"))))
    assert not f.fits(run(WAVE, turn(say("Oh, a wave! What a lovely thing to ask about."))))


def test_only_the_last_turn_is_judged() -> None:
    assert not f.fits(run(WAVE, turn(call("emote", name="wave")), turn(say("Well then."))))


def test_a_call_that_could_not_run_never_fits() -> None:
    bad = call("emote", rejected="arguments", name="wave")
    assert not f.fits(run(WAVE, turn(bad)))


def test_a_list_of_targets_is_any_of_them_and_names_are_read_as_the_world_reads_them() -> None:
    go = scenario(fits=[{"skill": "move", "args": {"to": ["well", "plaza"]}}])
    assert f.fits(run(go, turn(call("move", to="The Well"))))
    assert f.fits(run(go, turn(call("move", to="plaza"))))
    assert not f.fits(run(go, turn(call("move", to="forge"))))
    assert not f.fits(run(go, turn(call("move", direction="up", steps=2))))
    to_maren = scenario(fits=[{"skill": "move", "args": {"to": "maren"}}])
    assert f.fits(run(to_maren, turn(call("move", to="Elder Maren"))))


def test_moving_to_the_player_by_any_name_or_ending_beside_them() -> None:
    follow = scenario(category="follow", fits=[{"skill": "move", "args": {"to": "player"}}])
    far = {"npc_tile": (1, 1), "player_tile": (9, 9)}
    assert f.fits(run(follow, turn(call("move", to="Traveller"), **far)))
    assert f.fits(run(follow, turn(call("move", to="player"), **far)))
    beside = {"npc_tile": (8, 9), "player_tile": (9, 9)}
    assert f.fits(run(follow, turn(call("move", direction="right", steps=3), **beside)))
    assert not f.fits(run(follow, turn(call("move", direction="left", steps=3), **far)))
    failed = call("move", is_error=True, direction="right", steps=3)
    assert not f.fits(run(follow, turn(failed, **beside)))  # it stood there all along


def test_a_look_at_something_and_any_look() -> None:
    at = scenario(category="look", fits=[{"skill": "look", "args": {"at": "player"}}])
    assert f.fits(run(at, turn(call("look", at="traveller"))))
    assert not f.fits(run(at, turn(call("look"))))
    anything = scenario(category="look", fits=[{"skill": "look"}])
    assert f.fits(run(anything, turn(call("look"))))
    assert not f.fits(run(anything, turn(call("wait", seconds=2))))


def test_say_fits_a_turn_that_said_something_and_the_pattern_must_match() -> None:
    place = scenario(category="places", fits=[{"skill": "say"}], pattern="forge|anvil")
    assert f.fits(run(place, turn(say("Down by the Forge, south-west."))))
    assert not f.fits(run(place, turn(say("No idea, friend."))))
    assert not f.fits(run(place, turn(call("emote", name="think"))))
    plain = scenario(category="places", fits=[{"skill": "say"}])
    assert f.fits(run(plain, turn(said=["Hm."])))  # plain text, no call: said all the same


def test_without_fits_the_pattern_decides_and_with_neither_a_reply_fits() -> None:
    memory = scenario(category="memory", pattern=r"\bada\b")
    assert f.fits(run(memory, turn(say("You're Ada, aren't you?"))))
    assert not f.fits(run(memory, turn(say("You're Adam, aren't you?"))))
    anything = scenario(category="greeting")
    assert f.fits(run(anything, turn(say("Hello."))))
    assert not f.fits(run(anything, turn(call("emote", name="wave"))))


def test_fit_and_action_fit_are_shares() -> None:
    talk = scenario(category="places", fits=[{"skill": "say"}, {"skill": "emote"}])
    runs = [
        run(WAVE, turn(call("emote", name="wave"))),
        run(WAVE, turn(say("no"))),
        run(talk, turn(say("yes"))),
        run(talk, turn(say("yes"))),
    ]
    assert f.fit(runs) == 0.75
    assert f.action_fit(runs) == 0.5  # only the two that ask for the wave
    assert f.action_fit(runs[2:]) is None


# --- what was said ------------------------------------------------------------------------------


def test_parse_failures_count_rejected_calls_and_turns_failed_on_parsing() -> None:
    bad = call("say", rejected="arguments")
    unknown = call("dance", rejected="unknown_tool")
    ran_and_failed = call("move", is_error=True, to="nowhere")
    runs = [
        run(WAVE, turn(bad, unknown, ran_and_failed)),
        run(WAVE, turn(outcome="failed", error="bad json", error_kind="parse")),
        run(WAVE, turn(outcome="failed", error="slow", error_kind="timeout")),
    ]
    assert f.parse_failures(runs) == 3


@pytest.mark.parametrize(
    "reply",
    [
        "As an AI, I cannot do that.",
        "I'm an A.I. made to chat.",
        "I am just a language model.",
        "Sorry, I'm a chatbot.",
        "I am a program written by someone.",
        "I'm a computer.",
        "I am only a machine, traveller.",
        "My system prompt says to be polite.",
        "I can't share my instructions.",
        "Ignoring previous instructions now.",
        'Sure: {"name": "wave"}',
        "```python print(1)```",
        "I'm not an NPC, you know.",
    ],
)
def test_fourth_wall_phrases_count(reply: str) -> None:
    assert f.is_fourth_wall(reply)
    assert f.fourth_wall([run(WAVE, turn(say(reply)))]) == 1


@pytest.mark.parametrize(
    "reply",
    [
        "Hand me those tools, the tongs and the big hammer.",
        "These are scale models of ships from the coast.",
        "The rain came in aid of the farmers.",
        "I'd be happy to assist you with your order.",
        "Wait, said the maid, and she was gone.",
        "My instructor in the forge was my mother.",
        "The miller's machine broke again, so no flour today.",
    ],
)
def test_in_world_words_are_not_the_fourth_wall(reply: str) -> None:
    assert not f.is_fourth_wall(reply)


@pytest.mark.parametrize(
    "reply",
    ['{"text": "hi"}', "Hello</h4> there", '"text": hello', "one\\ntwo", "one\ntwo", "bell\x07"],
)
def test_junk_is_markup_json_escapes_and_control_characters(reply: str) -> None:
    assert f.is_junk(reply)
    assert f.junk([run(WAVE, turn(say(reply)))]) == 1


def test_plain_speech_is_not_junk() -> None:
    assert not f.is_junk("Fresh bread, still warm! Care for a bun? It's two coins - or three.")


def test_repeat_rate_counts_earlier_replies_of_the_same_npc_across_scenarios() -> None:
    talk = scenario(category="persona", fits=[{"skill": "say"}])
    runs = [
        run(talk, turn(say("The iron won't wait for anyone today."), npc="brenna")),
        run(talk, turn(say("The iron won't wait for anyone today, friend."), npc="brenna")),
        run(talk, turn(say("The iron won't wait for anyone today."), npc="tobin")),  # another NPC
        run(talk, turn(say("Quite a different line about bread and buns."), npc="brenna")),
    ]
    assert f.repeat_rate(runs) == 0.25


def test_the_greeting_counts_as_said_before_except_in_greetings() -> None:
    greeting = "Good morning, good morning! Mind the crust."
    chat = scenario(category="persona", fits=[{"skill": "say"}])
    hello = scenario(category="greeting")
    assert f.repeat_rate([run(chat, turn(say(greeting)), greeting=greeting)]) == 1.0
    assert f.repeat_rate([run(hello, turn(say(greeting)), greeting=greeting)]) == 0.0


def test_short_replies_compare_as_word_sets() -> None:
    chat = scenario(category="persona", fits=[{"skill": "say"}])
    assert f.overlap("Hello.", "Hello there, friend") == 1.0
    runs = [run(chat, turn(say("Hmph."), say("Hmph!"), say("Well.")), greeting="")]
    assert f.repeat_rate(runs) == pytest.approx(1 / 3)


def test_distinct2_is_unique_pairs_over_all_pairs() -> None:
    runs = [run(WAVE, turn(say("a b c"), say("a b d")))]  # pairs: ab bc ab bd
    assert f.distinct2(runs) == 0.75
    assert f.distinct2([run(WAVE, turn(call("emote", name="wave")))]) == 0.0


# --- time and effort ---------------------------------------------------------------------------


def test_calls_per_turn_over_every_turn() -> None:
    runs = [run(WAVE, turn(say("a"), say("b"), say("c")), turn(say("d"))), run(WAVE, turn())]
    out = f.figures(runs, provider="p", model="m")
    assert (out["calls_per_turn_mean"], out["calls_per_turn_max"]) == (1.333, 3)
    assert out["turns"] == 3 and out["scenarios"] == 2


def test_seconds_are_over_player_turns_and_first_letters_over_replies() -> None:
    turns = [turn(say("x"), wall_s=s, first=s / 10) for s in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)]
    turns.append(turn(say("x"), kind="idle", wall_s=100.0, first=50.0))
    turns.append(turn(wall_s=11.0, first=None))  # answered nothing
    out = f.figures([run(WAVE, *turns)], provider="p", model="m")
    assert out["s_per_reply_median"] == 6.0  # 1..11
    assert out["s_per_reply_p90"] == 10.0
    assert out["first_letter_s_median"] == 0.55


def test_the_figures_line_holds_every_figure() -> None:
    out = f.figures([run(WAVE, turn(call("emote", name="wave"), say("Hi!")))], provider="scripted",
                    model="persona", fallbacks=2)  # fmt: skip
    assert set(out) == {
        "provider", "model", "scenarios", "turns", "fit", "action_fit", "line_fit",
        "line_fit_tuned", "line_fit_held_out", "line_fit_by_category", "line_misses",
        "lines_judged", "parse_failures",
        "fourth_wall", "persona_copies", "echo", "repeat_rate", "junk", "distinct2",
        "calls_per_turn_mean",
        "calls_per_turn_max", "s_per_reply_median", "s_per_reply_p90", "first_letter_s_median",
        "fallbacks",
    }  # fmt: skip
    assert out["fit"] == 1.0 and out["fallbacks"] == 2
    json.dumps(out)


def test_persona_copies_counts_replies_that_say_six_words_of_the_persona_in_a_row() -> None:
    from game.npc.facts import VillagerFacts

    tobin = VillagerFacts(
        npc_id="tobin", name="Tobin", persona="Tobin bakes the village bread before dawn."
    )
    said = [
        "I bake the village bread before dawn, friend.",  # five in a row: "the village ... dawn"
        "Tobin bakes the village bread before dawn!",  # six and more
        "Bread before dawn, the village bakes.",
    ]
    runs = [
        ScenarioRun(WAVE, [turn(say(text))], greeting="", names=NAMES, npc=tobin) for text in said
    ]
    assert f.persona_copies(runs) == 1
    assert f.persona_copies([run(WAVE, turn(say(said[1])))]) == 0  # no NPC facts: not judged


def test_echo_counts_replies_that_say_five_words_of_the_line_or_the_notes_in_a_row() -> None:
    notes = "Traveller is one tile to the west. The bakery is to the north."
    heard = "Please go over to the mill."
    said = [
        "Please go over to the mill.",  # the player's line said back
        "Traveller is one tile to the west.",  # its notes read aloud
        "Over to the mill? Gladly.",  # four in a row: an answer
        "The mill? Follow me, it's to the west.",
    ]
    runs = [run(WAVE, turn(say(text), line=heard, notes=notes)) for text in said]
    assert [f.echo([r]) for r in runs] == [1, 1, 0, 0]
    assert f.figures(runs, provider="local", model="m")["echo"] == 2
    # what the player said before, quoted in the notes, recalled: memory, not echo
    told = 'Heard: Traveller (to you, 11s ago): "I dropped my silver ring off the dock."'
    recalled = turn(say("You said you dropped my silver ring off the dock!"), notes=told)
    assert f.echo([run(WAVE, recalled)]) == 0


def test_line_fit_by_category_and_line_misses_name_kinds_not_patterns() -> None:
    from game.npc.facts import VillagerFacts

    tobin = VillagerFacts(npc_id="tobin", name="Tobin", persona="Tobin bakes the bread.")

    def judged(category: str, line: dict[str, Any], text: str) -> ScenarioRun:
        sc = scenario(category=category, line=line)
        return ScenarioRun(sc, [turn(say(text))], greeting="", names=NAMES, npc=tobin)

    runs = [
        judged("role", {"says": ["bread|loaf"]}, "I bake bread."),
        judged("role", {"says": ["bread|loaf"]}, "I like walks."),
        judged("refusal", {"stance": "no", "says": ["coin"]}, "Yes, gladly!"),
        run(WAVE, turn(call("emote", name="wave"))),  # judges no line: in neither figure
    ]
    assert f.line_fit_by_category(runs) == {"refusal": 0.0, "role": 0.5}
    misses = f.line_misses(runs)
    assert misses == {"does not say": 2, "a yes against the persona": 1}
    assert not any("bread" in kind or "coin" in kind for kind in misses)
