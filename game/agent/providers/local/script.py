"""A script job: a document for a base model to continue, as typed data from the game.

A base model without a chat template continues documents; it does not follow rules. The
game (`game.npc.play`) writes the document and the choices; the worker process only
scores, picks by a stated rule and samples, and knows nothing of what the words mean:

1. **Options are scored, not sampled.** Each option's `text` is scored as a continuation
   of `prompt`, less (for `choose="lift"`) its score after `neutral`, the same document
   with a neutral newest line. The best lift is taken when it reaches `min_lift` (always,
   when that is None), else the first option; `choose="sample"` draws by the scores
   (`ScriptJob.pick`, the one rule, pure: the worker hands it the scores and a draw).
2. **The line is sampled** after the chosen option's text, one line ending at a newline,
   from a vocabulary without markup or control characters, never continuing three tokens
   of `line.avoid` nor six of `line.own` (the persona: it is never read back), nudged
   towards `line.boost`; it streams as the `line.tool` call's
   `line.field` argument, `line.extra` merged in at its end.
3. **Calls are emitted** as the chosen option says: its calls alone (the line comes in the
   next step), or the line first and then its calls (`line_first`: a walk or a wait, said
   as it sets off).

A line with a `lead` starts with it as it is (shown at once), and the model goes on after
it, or ends the line there.

`prefix` opens every document (the examples), so the worker keeps its KV cache, on disk
too; `key` names whose KV state the rest is (one per character).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["Call", "LineSpec", "Option", "ScriptJob"]


class Call(BaseModel):
    """A tool call an option makes."""

    tool: str
    args: dict[str, Any] = Field(default_factory=dict)


class Option(BaseModel):
    """One candidate continuation and what choosing it does."""

    text: str  # scored right after the prompt, e.g. " [waves]:" (":" for just talking)
    calls: list[Call] = Field(default_factory=list)
    line_first: bool = False  # sample the line after `text`, then make the calls


class LineSpec(BaseModel):
    """How the line is sampled and said."""

    tool: str  # the speaking call ("say")
    field: str  # its argument that holds the line ("text")
    extra: dict[str, Any] = Field(default_factory=dict)  # the call's other arguments
    avoid: list[str] = Field(default_factory=list)  # lines not to continue or repeat
    boost: list[str] = Field(default_factory=list)  # words the line is nudged towards
    banned_first: list[str] = Field(default_factory=list)  # words the line may not start with
    banned_words: list[str] = Field(default_factory=list)  # words no token may start
    max_chars: int = 160
    lead: str = ""  # the line's first words, said as they are; the model goes on after them
    own: str = ""  # a text the line never copies six tokens in a row of (the persona)


class ScriptJob(BaseModel):
    """One step of a character's turn as a document to continue (see the module)."""

    key: str  # whose KV state: the character's id
    prefix: str  # opens every document: its KV cache is kept
    prompt: str  # the rest of the document, up to where the option comes
    neutral: str | None = None  # the same with a neutral newest line (for "lift")
    options: list[Option] = Field(default_factory=list)  # none: just the line after `after`
    choose: Literal["lift", "sample"] = "lift"
    min_lift: float | None = None  # None: the best lift, however small
    after: str = ":"  # what the line follows when there is no option to choose
    line: LineSpec | None = None  # None: no line (an option's calls end the step)
    say: str | None = None  # a line said as it is, with `line`'s call (no model needed)
    finished: bool = False  # the turn is over: nothing to do
    temperature: float = 0.4  # the line's, at most (a small model wanders off when hotter)
    prime: bool = False  # read `prefix` + `prompt` ahead and keep the state; answer nothing

    def pick(self, scores: Sequence[tuple[float, float]], draw: float) -> Option:
        """The option this job's rule picks, from each option's log-likelihood after
        `prompt` and after `neutral` (0.0 when there is none), in the options' order;
        `draw`, uniform in [0, 1), is what "sample" draws with."""
        options = self.options
        if self.choose == "sample" or self.neutral is None:
            return _sample(options, [main for main, _ in scores], draw)
        lifts = [(main - base, i) for i, (main, base) in enumerate(scores) if i > 0]
        if not lifts:
            return options[0]
        lift, best = max(lifts)
        return options[best] if self.min_lift is None or lift >= self.min_lift else options[0]


def _sample(options: list[Option], scores: list[float], draw: float) -> Option:
    """Pick by softmax of log-likelihoods, with `draw` as the uniform random number."""
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    acc = 0.0
    for option, weight in zip(options, weights, strict=True):
        acc += weight / total
        if draw < acc:
            return option
    return options[-1]
