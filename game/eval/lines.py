"""Judging an NPC's line as a player reads it: what it must say, and the misses that read
wrong whatever was asked.

A scenario's `LineCheck` names what its last line must say (`says`) and must not
(`never`). Every judged line also passes the general checks, each a way a line reads
wrong that players noticed:

- **persona read back**: six words in a row of the persona (in the first person: the
  issue's definition of reading it back verbatim), clauses of it stitched together (runs
  of four or more covering eight words), or a line that is nothing but the persona's own
  words ("I'm a curious child.");
- **against the persona**: a bare yes or no on the other side of a yes/no question the
  persona decides (`stance`: Pip denying the dragon, the merchant giving his goods away);
- **someone else**: the player's name taken as its own, its own name or trade spoken of in
  the third person ("She's a good blacksmith."), or itself as another villager;
- **the wrong one addressed**: whoever it talks to (the player, or the villager who spoke
  to it) called by another's name ("Rowan, your name is Rowan." said to Tobin);
- **a place answered with itself**: "It's in the well." asked where the well is (`place`);
- **a known fact forgotten**: "I don't know" when the NPC has the fact (`knows`).

`line_problems` says which a line has; `accepted_share` is the share of judged scenarios whose
last line has none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game.eval.scenarios import IdleStep, LineCheck, OverheardStep, Scenario
from game.npc.facts import VillagerFacts
from game.npc.reading.naming import TITLES, name_words, people_words, trades_of
from game.npc.reading.player import told_name
from game.npc.scripted.first_person import first_person
from game.wording import READ_BACK_RUN

__all__ = ["LineFacts", "accepted_share", "judged", "line_problems"]

READ_BACK_WORDS = READ_BACK_RUN  # words in a row of the persona that read it back (six)
STITCH_WORDS = 4  # a shorter run counts when such runs cover twice this many words
_YES = re.compile(r"^\W*(yes|yeah|yep|aye|sure|of course|certainly|okay|ok|indeed)\b", re.I)
_NO = re.compile(r"^\W*(no|nope|nah|never|not at all|of course not)\b", re.I)
_FORGOT = re.compile(
    r"\b(i )?(don'?t|do not|can'?t|cannot|couldn'?t) (know|remember|recall|say|tell)\b"
    r"|\bno idea\b|\bnot sure\b|(?<!could )(?<!would )\bi forget\b|\bi(?:'ve| have) forgotten\b",
    re.I,
)
_WORD = re.compile(r"[a-z']+")


@dataclass(frozen=True)
class LineFacts:
    """What the general checks know of a talk: the NPC, the others, the player's name."""

    npc: VillagerFacts
    player: str | None = None  # the name the player gave, if they gave one
    listener: str | None = None  # the villager who spoke to it or stands by, if one did
    to_villager: bool = False  # the line is for that villager, not the player


def line_problems(line: str, check: LineCheck, facts: LineFacts) -> list[str]:
    """Why the line reads wrong, one short reason each (none: a player accepts it)."""
    problems: list[str] = []
    text = " ".join(line.split())
    if not text:
        return [] if check.quiet else ["said nothing"]
    for pattern in check.says:
        if re.search(pattern, text, re.I) is None:
            problems.append(f"does not say /{pattern}/")
    for pattern in check.never:
        if re.search(pattern, text, re.I) is not None:
            problems.append(f"says /{pattern}/")
    if check.stance == "yes" and _NO.search(text):
        problems.append("a no against the persona")
    if check.stance == "no" and _YES.search(text):
        problems.append("a yes against the persona")
    if check.knows and _FORGOT.search(text):
        problems.append("forgets what it knows")
    if check.place and _answered_with_itself(text, check.place):
        problems.append(f"answers where the {check.place} is with the {check.place}")
    problems += _persona_read_back(text, facts.npc)
    problems += _someone_else(text, facts)
    problems += _wrong_one_addressed(text, facts)
    return problems


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def _persona_read_back(text: str, npc: VillagerFacts) -> list[str]:
    """Six words in a row of the persona said of itself, or runs of four or more that
    cover eight of the line's words (two clauses stitched), or the persona's words alone."""
    said = _words(text)
    own = [_words(first_person(s, npc.name)) for s in re.split(r"(?<=[.!?])\s+", npc.persona)]
    runs = {tuple(o[i : i + STITCH_WORDS]) for o in own for i in range(len(o) - STITCH_WORDS + 1)}
    covered = [False] * len(said)
    longest = run = 0
    for i in range(len(said)):
        if tuple(said[i : i + STITCH_WORDS]) in runs:
            covered[i : i + STITCH_WORDS] = [True] * STITCH_WORDS
    for hit in covered:
        run = run + 1 if hit else 0
        longest = max(longest, run)
    if longest >= READ_BACK_WORDS or sum(covered) >= 2 * STITCH_WORDS:
        return ["reads the persona back"]
    content = [w for w in said if w not in _LITTLE]
    first = set(_words(npc.persona.split(".")[0])) | {"i'm", "am"}
    if 2 <= len(content) <= 4 and all(w in first for w in content):
        return ["nothing but the persona's words"]
    return []


def _someone_else(text: str, facts: LineFacts) -> list[str]:
    """The NPC speaking as someone it is not."""
    low = " ".join(_words(text))
    npc = facts.npc
    out: list[str] = []
    player = facts.player
    if player and re.search(
        rf"\b(i'm|i am|my name is|my name's|call me|i'm called)\s+{player.lower()}\b", low
    ):
        out.append("takes the player's name as its own")
    names = {w for w in name_words(npc.name) if len(w) > 2}
    trades = people_words(trades_of(npc.persona))
    for name in names:
        if re.search(rf"\b{name}('s| is| was| has| does| works| lives)\b", low):
            out.append("speaks of itself by its name")
    if trades and re.search(
        rf"\b(she's|she is|he's|he is|they're|they are)\b[^.!?]*\b({'|'.join(sorted(trades))})s?\b",
        low,
    ):
        out.append("speaks of its own trade in the third person")
    others = {w for p in npc.people for w in name_words(p.name) if len(w) > 2} - names
    if others and re.search(rf"\b(i'm|i am)( the| elder)? ({'|'.join(sorted(others))})\b", low):
        out.append("speaks as another villager")
    return out


def _wrong_one_addressed(text: str, facts: LineFacts) -> list[str]:
    """Whoever the NPC talks to, called by a name that is not theirs: a name it opens or
    closes the line with ("Tobin, ...", "..., Tobin!"), or their name told them."""
    npc = facts.npc
    known = {w for p in npc.people for w in name_words(p.name) - TITLES if len(w) > 2}
    known |= {w for w in name_words(npc.name) - TITLES if len(w) > 2}
    if facts.player:
        known.add(facts.player.lower())
    theirs = {w for w in name_words(facts.listener or "") if len(w) > 2}
    if facts.player and not facts.to_villager:
        theirs.add(facts.player.lower())
    low = " ".join(text.lower().split())
    # A name opening a line to the player is most often the answer ("Joss, right there."):
    # only a line to a villager is judged by the name it opens with.
    opening = r"^\W*([a-z]+)\s*,|" if facts.to_villager else ""
    called = re.findall(rf"{opening},\s*([a-z]+)\s*[.!?]*$", low)
    called = [c if isinstance(c, tuple) else ("", c) for c in called]
    called += [("", m) for m in re.findall(r"\byour name(?:'s| is)\s+([a-z]+)", low)]
    for words in called:
        name = next((w for w in words if w), "")
        if name in known and name not in theirs:
            return [f"calls the one it talks to {name.capitalize()}"]
    return []


def _answered_with_itself(text: str, place: str) -> bool:
    words = " ".join(place.lower().replace("_", " ").split())
    return (
        re.search(
            rf"\b(in|at|by|inside|into|near|beside) (the |a )?{re.escape(words)}\b", text, re.I
        )
        is not None
    )


_LITTLE = frozenset("i i'm am a an the and of is are my me to it's its just very so".split())


def _player_name(lines: Iterable[str], npc: VillagerFacts) -> str | None:
    name = None
    for line in lines:
        name = told_name(line, npc) or name
    return name


def _listener(scenario: Scenario, npc: VillagerFacts) -> str | None:
    """The villager the NPC's last line may be for: who spoke (to it, or to the player
    naming it), or who stands beside it on an idle tick (None: only the player)."""
    last = scenario.lines[-1]
    if isinstance(last, OverheardStep):
        who = last.overheard.speaker
    elif isinstance(last, IdleStep) and last.beside is not None:
        who = last.beside
    else:
        return None
    return next((p.name for p in npc.people if p.npc_id == who), who)


def judged(scenario: Scenario, said: Sequence[str], npc: VillagerFacts) -> list[str] | None:
    """The problems of a scenario's last line (None: the scenario judges no line)."""
    if scenario.line is None:
        return None
    lines = [step for step in scenario.lines if isinstance(step, str)]
    last = scenario.lines[-1]
    to_villager = isinstance(last, OverheardStep) and last.overheard.to == "npc"
    to_villager |= isinstance(last, IdleStep) and last.beside is not None
    facts = LineFacts(npc, _player_name(lines, npc), _listener(scenario, npc), to_villager)
    return line_problems(" ".join(said), scenario.line, facts)


def accepted_share(problems: Iterable[list[str] | None]) -> float | None:
    """The share of judged scenarios whose last line has no problem (None: none judged)."""
    verdicts = [not p for p in problems if p is not None]
    return sum(verdicts) / len(verdicts) if verdicts else None
