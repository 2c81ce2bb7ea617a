"""The rule a script job states for picking its option (`ScriptJob.pick`): the one the
worker applies to the scores it measured, pure, so it is tested without a model."""

from __future__ import annotations

from typing import Any

import pytest

from game.agent.providers.local.script import Call, Option, ScriptJob

TALK = Option(text=":")
WAVE = Option(text=" [waves]:", calls=[Call(tool="emote", args={"name": "wave"})])
NOD = Option(text=" [nods]:", calls=[Call(tool="emote", args={"name": "nod"})])


def job(**rule: Any) -> ScriptJob:
    return ScriptJob(key="k", prefix="", prompt="", options=[TALK, WAVE, NOD], **rule)


def test_lift_takes_the_option_most_lifted_over_the_neutral_line() -> None:
    scores = [(-0.5, -0.5), (-4.0, -4.5), (-3.0, -3.2)]  # lifts: 0, 0.5, 0.2
    assert job(neutral="n").pick(scores, 0.0) == WAVE


def test_a_lift_below_the_minimum_keeps_to_the_first_option() -> None:
    scores = [(-0.5, -0.5), (-4.0, -4.5), (-3.0, -3.2)]
    assert job(neutral="n", min_lift=0.6).pick(scores, 0.0) == TALK
    assert job(neutral="n", min_lift=0.4).pick(scores, 0.0) == WAVE


def test_a_single_option_is_the_pick() -> None:
    alone = ScriptJob(key="k", prefix="", prompt="", neutral="n", options=[TALK])
    assert alone.pick([(-1.0, -1.0)], 0.9) == TALK


@pytest.mark.parametrize(("draw", "expected"), [(0.0, TALK), (0.49, TALK), (0.51, WAVE)])
def test_sample_draws_by_the_softmax_of_the_scores(draw: float, expected: Option) -> None:
    scores = [(-1.0, 0.0), (-1.0, 0.0), (-50.0, 0.0)]  # halves between the first two
    assert job(choose="sample", neutral="n").pick(scores, draw) == expected


def test_no_neutral_line_means_a_draw_even_for_lift() -> None:
    scores = [(-50.0, 0.0), (-50.0, 0.0), (-1.0, 0.0)]
    assert job().pick(scores, 0.5) == NOD
