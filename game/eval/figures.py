"""The suite's figures: pure functions of what the NPCs did in a run.

Each takes the scenarios' runs (`ScenarioRun`: the scenario, its turns as the harness
reported them, the NPC's greeting and the names things go by) and returns one number.
`figures` puts them together as the JSON line `eval` prints last.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.eval.lines import accepted_share, judged
from game.eval.scenarios import PLAYER, Fit, Scenario
from game.harness import Call, TurnReport
from game.npc.facts import VillagerFacts
from game.npc.skills import SAY
from game.wording import echoes, overlap, reads_back, word_pairs

REPEAT_OVERLAP = 0.7  # a reply sharing this much of its word pairs with an earlier one repeats
# Speaking as or about an AI, a model, a program, its prompt or its instructions; code and
# JSON. Whole words and phrases, so a smith's tools or a merchant's models do not count.
FOURTH_WALL: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(an? )?(ai|a\.i\.)(?![\w.])",
        r"\bartificial intelligence\b",
        r"\blanguage models?\b",
        r"\b(large )?llms?\b",
        r"\bchat ?bots?\b",
        r"\b(as an?|i am an?|i'm an?|i am your|i'm your|virtual|helpful|digital) assistant\b",
        r"\b(i am|i'm) (just |only |merely )?(an? )?(computer )?program\b",
        r"\bcomputer program\b",
        r"\b(i am|i'm) (just |only |merely )?(an? )?(computer|machine|robot|bot)\b",
        r"\b(i was|i've been|i have been|i am|i'm) (programmed|trained)\b",
        r"\bmy (programming|training data|training|instructions|system prompt|prompt)\b",
        r"\bsystem (prompt|message)s?\b",
        r"\b(previous|prior|above) instructions\b",
        r"\b(my|your|the|this) prompt\b|\bprompt injection\b",
        r"\bdeveloper mode\b",
        r"\b(openai|anthropic|chatgpt|gpt-?\d)\b",
        r"\bnpcs?\b|\bnon-player\b|\bvideo game\b",
        r"\bjson\b",
        r"\btool ?calls?\b|\bfunction calls?\b",
        r"```",
        r"[{}]",
        r'"\w+"\s*:',
    )
)

# Markup or wire-format fragments in what an NPC says out loud.
JUNK: tuple[re.Pattern[str], ...] = (
    re.compile(r"[{}]"),
    re.compile(r"</?[a-zA-Z][\w-]*(\s[^<>]*)?/?>"),  # <tag>, </tag>, <br/>
    re.compile(r'"\w+"\s*:'),  # "text": a quoted key
    re.compile(r"\\[nrt]|\\u[0-9a-fA-F]{4}"),  # escapes written out
    re.compile(r"[\x00-\x1f\x7f]"),  # raw control characters, newlines too
)


@dataclass
class ScenarioRun:
    """One scenario as it ran: its turns, the NPC's greeting, and the names things go by
    (`names`: a canonical name, an NPC id or `player`, to its other names)."""

    scenario: Scenario
    turns: list[TurnReport]
    greeting: str = ""
    names: Mapping[str, Sequence[str]] = field(default_factory=dict)
    npc: VillagerFacts | None = None  # who the NPC is, for judging its line

    @property
    def last(self) -> TurnReport | None:
        """The turn the scenario is judged on."""
        return self.turns[-1] if self.turns else None


# --- words --------------------------------------------------------------------------------


# --- fitting ------------------------------------------------------------------------------


def _norm(name: object) -> str:
    """A name as the world reads it: lower case, spaces as underscores, no leading "the"."""
    text = str(name).strip().lower().replace(" ", "_")
    return text.removeprefix("the_")


def _accepted(values: Iterable[str], names: Mapping[str, Sequence[str]]) -> set[str]:
    out: set[str] = set()
    for value in values:
        out.add(_norm(value))
        out.update(_norm(alias) for alias in names.get(value, ()))
    return out


def call_fits(call: Call, fit: Fit, turn: TurnReport, names: Mapping[str, Sequence[str]]) -> bool:
    """Whether one call is the fitting action with fitting arguments (a call that could not
    run never is). A `say` fit is about the turn, not a call: see `acted`."""
    if call.rejected is not None or call.name != fit.skill:
        return False
    args = call.args()
    for key in fit.args:
        wanted = fit.accepted(key) or []
        got = args.get(key)
        if got is not None and _norm(got) in _accepted(wanted, names):
            continue
        if key == "to" and PLAYER in wanted and _beside(turn) and not call.is_error:
            continue  # walked up to the player, however it was put
        return False
    return True


def _beside(turn: TurnReport) -> bool:
    (nx, ny), (px, py) = turn.npc_tile, turn.player_tile
    return abs(nx - px) + abs(ny - py) == 1


def acted(turn: TurnReport, wanted: Sequence[Fit], names: Mapping[str, Sequence[str]]) -> bool:
    """Whether the turn took one of the fitting actions (`say`: it said something)."""
    for fit in wanted:
        if fit.skill == SAY.name and turn.said:
            return True
        if any(call_fits(call, fit, turn, names) for call in turn.calls):
            return True
    return False


def fits(run: ScenarioRun) -> bool:
    """Whether the last turn fits: a fitting action (if the scenario names any) and the
    pattern (if it gives one); with neither, a turn that said something fits."""
    turn = run.last
    scenario = run.scenario
    if turn is None or (scenario.fits and not acted(turn, scenario.fits, run.names)):
        return False
    if scenario.pattern is not None:
        return re.search(scenario.pattern, " ".join(turn.said), re.IGNORECASE) is not None
    return bool(scenario.fits) or bool(turn.said)


def line_problems(run: ScenarioRun) -> list[str] | None:
    """What is wrong with the last line (None: the scenario judges no line)."""
    turn = run.last
    if run.scenario.line is None or run.npc is None:
        return None
    return judged(run.scenario, turn.said if turn is not None else [], run.npc)


def line_fit(runs: Sequence[ScenarioRun], *, held_out: bool | None = None) -> float | None:
    """The share of judged scenarios whose last line a player accepts (`game.eval.lines`);
    only those held out of tuning, or only the others, when asked."""
    chosen = [r for r in runs if held_out is None or r.scenario.held_out == held_out]
    return accepted_share(line_problems(r) for r in chosen)


def line_fit_by_category(runs: Sequence[ScenarioRun]) -> dict[str, float]:
    """`line_fit` per kind of talk, for the kinds that judge a line."""
    categories = sorted({r.scenario.category for r in runs if line_problems(r) is not None})
    shares = {c: line_fit([r for r in runs if r.scenario.category == c]) for c in categories}
    return {c: round(share, 3) for c, share in shares.items() if share is not None}


def line_misses(runs: Sequence[ScenarioRun]) -> dict[str, int]:
    """How often each kind of line problem was found, its pattern left out ("does not say"),
    so the figure tells what goes wrong without quoting a village's scenarios."""
    kinds: dict[str, int] = {}
    for run in runs:
        for problem in line_problems(run) or []:
            kind = re.sub(r"\s*/.*/$", "", problem)  # does not say /pattern/
            kind = re.sub(r"^answers where the .*", "answers where with what", kind)
            kind = re.sub(r"^calls the one it talks to .*", "calls the one it talks to wrong", kind)
            kinds[kind] = kinds.get(kind, 0) + 1
    return dict(sorted(kinds.items()))


def fit(runs: Sequence[ScenarioRun]) -> float:
    """The share of scenarios whose last turn fits."""
    return _share(fits(r) for r in runs)


def action_fit(runs: Sequence[ScenarioRun]) -> float | None:
    """`fit` over the scenarios that ask for a gesture, a move, a look or a wait."""
    asking = [r for r in runs if r.scenario.asks_for_action()]
    return _share(fits(r) for r in asking) if asking else None


# --- what was said ------------------------------------------------------------------------


def replies(runs: Sequence[ScenarioRun]) -> list[str]:
    """Everything the NPCs said, in the order of the run."""
    return [text for run in runs for turn in run.turns for text in turn.said]


def parse_failures(runs: Sequence[ScenarioRun]) -> int:
    """Calls that could not run as the model wrote them, and turns failed on them."""
    return sum(turn.parse_failures for run in runs for turn in run.turns)


def is_fourth_wall(text: str) -> bool:
    """Whether a reply speaks as or about an AI, a model, a prompt, or holds code."""
    return any(p.search(text) for p in FOURTH_WALL)


def fourth_wall(runs: Sequence[ScenarioRun]) -> int:
    """Replies that break the fourth wall (`FOURTH_WALL`)."""
    return sum(1 for text in replies(runs) if is_fourth_wall(text))


def persona_copies(runs: Sequence[ScenarioRun]) -> int:
    """Replies that say six words in a row of the NPC's own persona (`reads_back`)."""
    return sum(
        1
        for run in runs
        if run.npc is not None
        for turn in run.turns
        for text in turn.said
        if reads_back(text, run.npc.persona)
    )


def echo(runs: Sequence[ScenarioRun]) -> int:
    """Replies that say `ECHO_RUN` words in a row of the line they answer or of the NPC's
    own notes for that turn (`echoes`). What the notes quote of earlier lines is left out:
    saying back what the player told it before is remembering, not echoing."""
    return sum(
        1
        for run in runs
        for turn in run.turns
        for text in turn.said
        if any(echoes(text, heard) for heard in (turn.line or "", _QUOTED.sub(" ", turn.notes)))
    )


_QUOTED = re.compile(r'"[^"]*"')  # a line heard, as the notes quote it


def is_junk(text: str) -> bool:
    """Whether a reply holds markup, JSON fragments, escapes or control characters."""
    return any(p.search(text) for p in JUNK)


def junk(runs: Sequence[ScenarioRun]) -> int:
    """Replies holding junk (`JUNK`)."""
    return sum(1 for text in replies(runs) if is_junk(text))


def repeat_rate(runs: Sequence[ScenarioRun]) -> float:
    """The share of replies whose word pairs overlap `REPEAT_OVERLAP` or more with an
    earlier reply of the same NPC in the run, or with its greeting (outside greetings)."""
    earlier: dict[tuple[str, str], list[str]] = {}  # by village and NPC: ids may recur
    repeats = total = 0
    for run in runs:
        for turn in run.turns:
            for text in turn.said:
                before = earlier.setdefault((run.scenario.village, turn.npc_id), [])
                others = list(before)
                if run.scenario.category != "greeting" and run.greeting:
                    others.append(run.greeting)
                total += 1
                repeats += any(overlap(text, o) >= REPEAT_OVERLAP for o in others)
                before.append(text)
    return repeats / total if total else 0.0


def distinct2(runs: Sequence[ScenarioRun]) -> float:
    """Distinct word pairs over all word pairs said (0 when nothing was)."""
    pairs = [pair for text in replies(runs) for pair in word_pairs(text)]
    return len(set(pairs)) / len(pairs) if pairs else 0.0


# --- time and effort ------------------------------------------------------------------------


def calls_per_turn(runs: Sequence[ScenarioRun]) -> list[int]:
    """How many tool calls each turn of the run made."""
    return [len(turn.calls) for run in runs for turn in run.turns]


def reply_seconds(runs: Sequence[ScenarioRun]) -> list[float]:
    """The wall time of each turn that answered a player's line."""
    return [t.wall_s for run in runs for t in run.turns if t.kind == "player"]


def first_letters(runs: Sequence[ScenarioRun]) -> list[float]:
    """From a player's line submitted to the first letter of the reply, per reply."""
    return [
        t.first_letter_s
        for run in runs
        for t in run.turns
        if t.kind == "player" and t.first_letter_s is not None
    ]


def percentile(values: Sequence[float], p: float) -> float | None:
    """The nearest-rank percentile `p` (0-100) of `values`, None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def _share(flags: Iterable[bool]) -> float:
    items = list(flags)
    return sum(items) / len(items) if items else 0.0


def _round(value: float | None) -> float | None:
    return round(value, 3) if value is not None else None


def figures(
    runs: Sequence[ScenarioRun], *, provider: str, model: str, fallbacks: int = 0
) -> dict[str, Any]:
    """Every figure of a run, as the JSON line `eval` prints (rounded to 3 places)."""
    calls = calls_per_turn(runs)
    seconds = reply_seconds(runs)
    return {
        "provider": provider,
        "model": model,
        "scenarios": len(runs),
        "turns": len(calls),
        "fit": _round(fit(runs)),
        "action_fit": _round(action_fit(runs)),
        "line_fit": _round(line_fit(runs)),
        "line_fit_tuned": _round(line_fit(runs, held_out=False)),
        "line_fit_held_out": _round(line_fit(runs, held_out=True)),
        "line_fit_by_category": line_fit_by_category(runs),
        "line_misses": line_misses(runs),
        "lines_judged": sum(1 for r in runs if line_problems(r) is not None),
        "parse_failures": parse_failures(runs),
        "fourth_wall": fourth_wall(runs),
        "persona_copies": persona_copies(runs),
        "echo": echo(runs),
        "repeat_rate": _round(repeat_rate(runs)),
        "junk": junk(runs),
        "distinct2": _round(distinct2(runs)),
        "calls_per_turn_mean": _round(statistics.fmean(calls) if calls else None),
        "calls_per_turn_max": max(calls, default=0),
        "s_per_reply_median": _round(_median(seconds)),
        "s_per_reply_p90": _round(percentile(seconds, 90)),
        "first_letter_s_median": _round(_median(first_letters(runs))),
        "fallbacks": fallbacks,
    }
