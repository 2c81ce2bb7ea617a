"""The suite's scenarios: JSON files, one folder per village, one file per group, validated.

A village's set is `game/eval/scenarios/<map_id>/*.json`: the folder's name is the stem of
the map its scenarios play on (`village` is Hollowbrook, `maps/village.tmx`), so a scenario
names no map. Its `held_out/` folder holds scenarios kept out of tuning (`line_fit_held_out`),
and a `village.json` of `{"untuned": true}` keeps the whole village out of tuning: nobody
reads its transcripts while changing how NPCs think, only its figures.

A file is `{"scenarios": [...]}`; a scenario names the NPC, the steps of the talk (the
player's lines, a line the NPC overhears from another NPC, an idle tick), where the
player stands if not face to face, and what fits the last turn: the actions (with their
arguments where they matter) and a pattern the reply must match. Each runs in a fresh
slot named after its id, so ids are unique across villages. A bad file is one line naming
the file and the field.

The categories (`Category`) are the kinds of talk; most are plain (a greeting, a gesture
asked for, "come with me"). These need a word:

- `villagers`: a question about another villager, by name ("What's Wren like?");
- `role`: who does what, asked by the job, not the name ("Who runs the mill?"): the
  answer names the villager;
- `persona`: a question about the NPC itself ("What do you do all day?");
- `stance`: a yes/no question the persona decides ("Would you sail with me?"): its line
  check gives the persona's `stance`;
- `refusal`: a request the persona refuses, in character ("Give me a lobster for
  free?"): its line check's `stance` is `no`;
- `village_life`: the life of the village asked about: the news, the notice board, the
  time of day, how someone feels;
- `overheard`: villagers talking to each other: the NPC hears a line another says that
  names it, and takes it as its own turn;
- `villager_talk`: a villager says a line to the NPC itself (`"to": "npc"`), or the NPC,
  idle, has a villager beside it (`"beside"`): its line to them must name the right people
  and say something of its own (its work, its side, the news);
- `idle`: an idle tick, nobody needing the NPC.

`role`, `stance`, `refusal`, `village_life` and `villager_talk` are judged by their line,
so a scenario of these needs a `line`. (Hollowbrook's older yes/no questions and questions
by job stay `persona` and `villagers`, as they were written.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from game.errors import UsageError
from game.gestures import GESTURES
from game.npc.skills import EMOTE, SKILLS
from game.paths import HOME_MAP_ID
from game.safe_json import load_json

Category = Literal[
    "greeting",
    "gesture",
    "go",  # asked to go somewhere
    "follow",
    "guide",  # asked to show the way
    "look",
    "wait",
    "places",  # questions about places on the map
    "villagers",  # questions about another villager, by name
    "role",  # who does what, asked by the job: "who runs the mill?"
    "persona",  # questions about the NPC itself
    "stance",  # a yes/no question the persona decides
    "refusal",  # a request refused in character
    "memory",  # the player's name, something the player said
    "injection",  # prompt injection
    "fourth_wall",  # "you are an AI"
    "off_world",
    "goodbye",
    "long_talk",  # ten lines, for repetition
    "follow_up",  # "tell me more": the story goes on
    "overheard",  # villagers talking: the NPC hears its name from another NPC
    "villager_talk",  # a villager talks to the NPC, or the NPC to a villager beside it
    "idle",
    "village_life",  # the news, the board, the time of day, feelings
]
CATEGORIES: tuple[str, ...] = get_args(Category)
# The categories judged by their line: a scenario of one needs a `line`.
LINE_CATEGORIES = frozenset({"role", "stance", "refusal", "village_life", "villager_talk"})
PLAYER = "player"  # in a fit's arguments: the player (by this word or by their name)


def action_skills() -> frozenset[str]:
    """The skills `action_fit` is over: those that do something rather than speak."""
    return frozenset(name for name, skill in SKILLS.items() if skill.speech is None)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Overheard(_Strict):
    """A line another NPC says, naming the scenario's NPC: to the player, or (`to` "npc")
    to the NPC itself."""

    speaker: str = Field(min_length=1)
    text: str = Field(min_length=1)
    to: Literal["player", "npc"] = "player"


class OverheardStep(_Strict):
    """The NPC overhears a line (and takes its turn)."""

    overheard: Overheard


class IdleStep(_Strict):
    """An idle tick: nobody needs the NPC (`beside`: another NPC stands next to it)."""

    idle: Literal[True]
    beside: str | None = None


Step = str | OverheardStep | IdleStep  # a string is the player's line


class Fit(_Strict):
    """An action that fits: a skill, and the arguments that matter (a list: any of them).

    `say` fits a turn that said something. In a `move`'s `to` or a `look`'s `at`, the
    word `player` stands for the player (by that word, by their name, or, for a move,
    ending next to them)."""

    skill: str
    args: dict[str, str | list[str]] = Field(default_factory=dict)

    @field_validator("skill")
    @classmethod
    def _a_skill(cls, skill: str) -> str:
        if skill not in SKILLS:
            raise ValueError(f"no skill {skill!r}; the skills are {', '.join(SKILLS)}")
        return skill

    @model_validator(mode="after")
    def _known_args(self) -> Fit:
        allowed = SKILLS[self.skill].judged
        for key, value in self.args.items():
            if key not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                raise ValueError(f"{self.skill} takes no argument {key!r} here (known: {known})")
            values = [value] if isinstance(value, str) else value
            if not values or not all(v.strip() for v in values):
                raise ValueError(f"{key}: give a name, or a list of names")
            if self.skill == EMOTE.name and any(v not in GESTURES for v in values):
                raise ValueError(f"emote name must be one of {', '.join(GESTURES)}")
        return self

    def accepted(self, key: str) -> list[str] | None:
        """The values that fit argument `key`, or None when any value does."""
        value = self.args.get(key)
        if value is None:
            return None
        return [value] if isinstance(value, str) else list(value)


class LineCheck(_Strict):
    """What an acceptable last line must and must not say: case-insensitive regular
    expressions, and the facts the general checks need (`game.eval.lines`)."""

    says: list[str] = Field(default_factory=list)  # each must match (alternatives with |)
    never: list[str] = Field(default_factory=list)  # none may match
    stance: Literal["yes", "no"] | None = None  # the persona's answer to a yes/no question
    knows: bool = False  # the NPC has the fact asked for: "I don't know" is a miss
    place: str | None = None  # the place asked about: answered with itself is a miss
    quiet: bool = False  # saying nothing is fine (an idle tick); what is said is judged

    @field_validator("says", "never")
    @classmethod
    def _patterns(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{pattern!r} is not a regular expression: {exc}") from exc
        return patterns


class Scenario(_Strict):
    """One talk with one NPC, in a fresh slot; what fits is judged on its last turn."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")
    npc: str = Field(min_length=1)
    category: Category
    line: LineCheck | None = None  # what the last line must say (`line_fit`), if judged
    held_out: bool = False  # kept out of tuning: set by the loader for scenarios/held_out/
    village: str = ""  # the map it plays on: set by the loader, the name of its folder
    lines: list[Step] = Field(min_length=1)
    player_at: str | tuple[int, int] | None = None  # a place, or a tile; else face to face
    hour: float | None = None  # the hour of the talk, 0 to 24 (21.5: half past nine at night)
    fits: list[Fit] = Field(default_factory=list)
    pattern: str | None = None  # a case-insensitive regex the last turn's words must match

    @field_validator("lines")
    @classmethod
    def _no_blank_lines(cls, lines: list[Step]) -> list[Step]:
        if any(isinstance(line, str) and not line.strip() for line in lines):
            raise ValueError("a player's line must not be blank")
        return lines

    @field_validator("hour", mode="before")
    @classmethod
    def _an_hour(cls, hour: object) -> object:
        ok = isinstance(hour, int | float) and not isinstance(hour, bool) and 0 <= hour <= 24
        if hour is not None and not ok:
            raise ValueError(f"{hour!r} is no hour: give one from 0 to 24 (21.5 is 9:30 pm)")
        return hour

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, pattern: str | None) -> str | None:
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"not a regular expression: {exc}") from exc
        return pattern

    @model_validator(mode="after")
    def _judged_by_its_line(self) -> Scenario:
        if self.category in LINE_CATEGORIES and self.line is None:
            raise ValueError(f"a {self.category} scenario is judged by its line: give `line`")
        if self.category in ("stance", "refusal") and self.line is not None:
            wanted = "no" if self.category == "refusal" else self.line.stance
            if wanted is None or self.line.stance != wanted:
                need = '"no"' if self.category == "refusal" else '"yes" or "no"'
                raise ValueError(f"a {self.category} scenario's line needs stance {need}")
        return self

    def asks_for_action(self) -> bool:
        """Whether it asks for a gesture, a move, a look or a wait (`action_fit`): only
        such actions fit, and talking alone does not."""
        return bool(self.fits) and all(f.skill in action_skills() for f in self.fits)


class ScenarioFile(_Strict):
    """One group of scenarios."""

    scenarios: list[Scenario] = Field(min_length=1)


def bundled() -> Traversable:
    """The villages' scenario sets shipped with the game (package data): a folder each."""
    return resources.files("game.eval") / "scenarios"


HOME = HOME_MAP_ID  # Hollowbrook's set, scenarios/village/: the village the game ships
HELD_OUT = "held_out"  # the folder of a village's scenarios kept out of tuning
ABOUT = "village.json"  # a village's own settings beside its scenarios (`About`)


class About(_Strict):
    """A village's `village.json`: `untuned` keeps the whole village out of tuning."""

    untuned: bool = False


@dataclass(frozen=True)
class VillageSet:
    """One village's scenarios, the id of the map they play on (the folder's name), and
    whether the village is kept out of tuning."""

    map_id: str
    scenarios: tuple[Scenario, ...]
    untuned: bool = False


def load_villages(root: Traversable | Path | None = None) -> list[VillageSet]:
    """Every village's set in `root` (the bundled ones by default), Hollowbrook's first, then
    by name; ids are unique across villages. UsageError names a bad folder or file."""
    top = bundled() if root is None else root
    stray = sorted(f.name for f in top.iterdir() if f.is_file() and f.name.endswith(".json"))
    if stray:
        raise UsageError(
            f"{stray[0]}: a scenario file belongs in its village's folder, "
            f"{top}/<map_id>/, named after the map it plays on"
        )
    folders = sorted(
        (f for f in top.iterdir() if f.is_dir() and not f.name.startswith((".", "_"))),
        key=lambda f: (f.name != HOME, f.name),
    )
    if not folders:
        raise UsageError(f"no village folders in {top}: put scenarios in {top}/<map_id>/")
    out: list[VillageSet] = []
    seen: dict[str, str] = {}
    for folder in folders:
        scenarios = load_scenarios(folder)
        for scenario in scenarios:
            if scenario.id in seen:
                raise UsageError(
                    f"{folder.name}/: scenario id {scenario.id!r} is taken in {seen[scenario.id]}/"
                    "; ids are slots, unique across villages"
                )
            seen[scenario.id] = folder.name
        out.append(VillageSet(folder.name, tuple(scenarios), _about(folder).untuned))
    return out


def load_scenarios(folder: Traversable | Path | None = None) -> list[Scenario]:
    """One village's scenarios: every `*.json` file in `folder` (Hollowbrook's by default)
    and its `held_out/` folder (marked `held_out`), in file-name order, each marked with
    its village (the folder's name); ids are unique across files. UsageError names a bad
    file and field."""
    root = bundled() / HOME if folder is None else folder
    files = [(f, False) for f in root.iterdir() if f.name.endswith(".json") and f.name != ABOUT]
    kept = root / HELD_OUT
    if kept.is_dir():
        files += [(f, True) for f in kept.iterdir() if f.name.endswith(".json")]
    files.sort(key=lambda item: (item[1], item[0].name))
    if not files:
        raise UsageError(f"no scenario files (*.json) in {root}")
    out: list[Scenario] = []
    seen: dict[str, str] = {}
    for file, held_out in files:
        for found in load_file(file):
            for field, value, folder_says in (
                ("held_out", found.held_out, f"{HELD_OUT}/"),
                ("village", found.village, "the village's, named after its map"),
            ):
                if value:
                    raise UsageError(
                        f"{file.name}: scenario {found.id!r}: {field} is set by the folder "
                        f"({folder_says}); leave it out of the file"
                    )
            scenario = found.model_copy(update={"held_out": held_out, "village": root.name})
            if scenario.id in seen:
                first = seen[scenario.id]
                raise UsageError(f"{file.name}: scenario id {scenario.id!r} is taken in {first}")
            seen[scenario.id] = file.name
            out.append(scenario)
    return out


def load_file(file: Traversable | Path) -> list[Scenario]:
    """The scenarios of one file; UsageError (one line) naming the file and the field."""
    data = _read_json(file)
    try:
        return ScenarioFile.model_validate(data).scenarios
    except ValidationError as exc:
        # A union reports each member's failure: the deepest one is the one that was meant.
        err = max(exc.errors(include_url=False), key=lambda e: len(e["loc"]))
        raise UsageError(f"{file.name}: {_where(data, err['loc'])}: {err['msg']}") from exc


def _about(folder: Traversable | Path) -> About:
    """The village's `village.json`, or the defaults without one."""
    file = folder / ABOUT
    if not file.is_file():
        return About()
    data = _read_json(file)
    try:
        return About.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(k) for k in err["loc"]) or "(the file)"
        raise UsageError(f"{folder.name}/{ABOUT}: {where}: {err['msg']}") from exc


def _read_json(file: Traversable | Path) -> object:
    try:
        return load_json(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{file.name}: cannot read it: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise UsageError(f"{file.name}: not valid JSON: {exc}") from exc


def _where(data: object, loc: Sequence[int | str]) -> str:
    """A pydantic location as a path into the file, `scenarios[3].fits[0].skill`, and the
    scenario's id when it has one. The names pydantic gives union members are left out."""
    parts: list[str] = []
    node = data
    for key in loc:
        if isinstance(key, int):
            parts.append(f"[{key}]")
            node = node[key] if isinstance(node, list) and key < len(node) else None
        elif _UNION_TAG.fullmatch(key):
            continue  # str, OverheardStep, list[str], ...: not a field of the file
        else:
            parts.append(f".{key}" if parts else key)
            node = node.get(key) if isinstance(node, dict) else None
    where = "".join(parts) or "(the file)"
    items = data.get("scenarios") if isinstance(data, dict) else None
    if len(loc) > 1 and isinstance(loc[1], int) and isinstance(items, list) and loc[1] < len(items):
        item = items[loc[1]]
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            where += f" (scenario {item['id']!r})"
    return where


_UNION_TAG = re.compile(r"[A-Z].*|.*\[.*|str|int|float|bool|none")


def select(scenarios: Sequence[Scenario], only: Iterable[str]) -> list[Scenario]:
    """The scenarios whose id or category is named in `only` (all when it is empty)."""
    wanted = list(only)
    if not wanted:
        return list(scenarios)
    ids = {s.id for s in scenarios}
    unknown = [w for w in wanted if w not in ids and w not in CATEGORIES]
    if unknown:
        raise UsageError(
            f"--only {unknown[0]!r} is neither a scenario id nor a category; "
            f"categories: {', '.join(CATEGORIES)}"
        )
    chosen = [s for s in scenarios if s.id in wanted or s.category in wanted]
    if not chosen:
        raise UsageError(f"--only {' '.join(wanted)}: no scenario in that category")
    return chosen
