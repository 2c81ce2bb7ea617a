"""The play-script protocol for a small base model: pure text in, plans out (no llama.cpp).

A base model without a chat template continues documents; it does not follow rules. So the
local model is not asked to write JSON calls: it is shown a play script, many short scenes of
made-up villagers in which every line is `Name [action]: what they say`, then the NPC's own
scene and conversation, ending at the NPC's name. What it does and says come apart:

- **The action is chosen, not sampled.** The candidate actions (each gesture, walking to or
  looking at each place or person the NPC knows of, waiting, just talking) are scored by
  the model's likelihood of their bracket after the script, less their likelihood after a
  neutral line in the same place (so an action is picked because of what was said, not
  because it is common). A request the player spells out ("wave", "follow me", "wait")
  narrows the candidates to that kind; the model still picks among them (which place,
  which person). Targets come only from the NPC's facts, so they always exist.
- **The line is sampled**, one line, ending at the newline, from a vocabulary without
  markup, braces, quotes or control characters, and never continuing three tokens an
  earlier reply of this NPC already had (see `llama_script`).
- **One reply per line.** A turn is at most one action, then one line, then the end; an
  idle tick is one action or one line.

The example block is the same for every NPC, so its KV cache is computed once per process
(and kept on disk) and every NPC's prompt continues it. The script's text (the example
block, the scene, the conversation, the notes) is written by `local_scene`; this module puts
it together and holds the candidate actions and the choice among them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from game.agent.providers.base import Message, ProviderRequest, ToolSpec
from game.agent.providers.local_scene import (
    EXAMPLES,
    GESTURES,
    MAX_LINE_CHARS,
    PLAYER,
    label_of,
    nearby,
    notes_of,
    one_line,
    place_aliases,
    player_lines,
    scene_of,
    transcript_of,
    trigger_line,
    unaddressed,
)

__all__ = [
    "GESTURE_MIN",
    "TALK",
    "TRANSCRIPT_LINES",
    "Action",
    "Script",
    "applies",
    "build_script",
    "requested_kinds",
]

# The conversation lines a prompt holds: a small model reads little further back, and each
# line costs prefill time (what the player told, such as their name, comes in the notes).
TRANSCRIPT_LINES = 16
TRANSCRIPT_STEP = 8  # the oldest lines are dropped this many at a time
NEUTRAL_LINE = f"{PLAYER}: Hm."  # the line an action's likelihood is compared against

# Requests the player spells out, by the kind of action they ask for. Word families, not
# sentences: they narrow the candidates; the model still picks the one that fits.
_REQUESTS: dict[str, re.Pattern[str]] = {
    "wave": re.compile(r"\bwav(e|es|ing)\b"),
    "nod": re.compile(r"\bnod(s|ding)?\b"),
    "shake_head": re.compile(r"\bshak(e|es|ing)\b[\w\s']{0,12}\bhead\b"),
    "laugh": re.compile(r"\blaugh|\bjoke|\bfunny\b|\bgiggle|\bchuckle"),
    "think": re.compile(
        r"\bthink (about|it over|on|hard|it through)|\bhave a think\b|\bponder|\bmull\b"
        r"|\bconsider\b|\bthink carefully\b"
    ),
    "wait": re.compile(
        r"\bwait\b|\bhold on\b|\bhang on\b|\b(one|a) (moment|minute|second|sec)\b"
        r"|\bstay (here|put|there)\b|\bdon'?t move\b|\bstand still\b"
    ),
    "look": re.compile(
        r"\blook\b|\blooks\b|\bhave a look\b|\btake a look\b|\bglance\b|\bwatch\b"
        r"|\bcheck out\b|\bsee (the|that|those|this|it)\b|\bturn (to|and face)\b"
    ),
    "move": re.compile(
        r"\bfollow\b|\bcome (with|along|here|over|closer|and walk)\b|\bshow me\b"
        r"|\btake me\b|\blead (me|the way|us)\b|\bwalk (me|with)\b|\blet'?s go\b"
        r"|\bguide me\b|\bjoin me\b|\bgo (and )?(check|see|look|fetch|find|ask)\b"
        r"|\b(go|walk|pop|run|head|hurry|stroll|wander|come|step)( over| down| up| across"
        r"| out| back)? (to|with)\b"
    ),
}
_HELLO = re.compile(
    r"^\W*(hello|hi|hey|hiya|howdy|greetings|good (morning|day|afternoon|evening)|morning"
    r"|evening|well met)\b[^?]{0,30}$"
)
_COME_ALONG = re.compile(
    r"\bfollow\b|\bcome (with|along|here|over|closer|and walk)\b|\bjoin me\b"
    r"|\bwalk with (me|us)\b"
)
_MACHINE = re.compile(
    r"\b(ai|a\.i|bot|chatbot|robot|program|computer|machine|software|language model"
    r"|artificial|simulation|npc|game character)\b"
)


@dataclass(frozen=True)
class Action:
    """One candidate action: the call it makes and how the script writes it."""

    kind: str  # a gesture's emote name, "move", "look", "wait" or "talk"
    label: str  # the bracket text ("waves", "walks to the well"); "" for just talking
    tool: str = ""  # the skill called ("" for just talking)
    args: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def bracket(self) -> str:
        """What follows the NPC's name in the script."""
        return f" [{self.label}]:" if self.label else ":"


TALK = Action("talk", "")


@dataclass
class Script:
    """One step of a turn as the script protocol sees it."""

    name: str  # the NPC's name as the script writes it
    head: str  # the examples, the scene and the conversation before the newest line
    last: str  # the newest line (what was said, or a stage direction)
    acted: list[str]  # skills called so far in this turn
    said: bool  # whether the NPC already spoke in this turn
    kind: str  # the trigger's kind
    speaker: str | None  # who spoke the newest line ("player" for the player)
    request_text: str  # what was said to the NPC, lowercased ("" if nothing)
    earlier_replies: list[str]  # what this NPC said before, oldest first
    greeting: str
    targets: list[tuple[str, str]]  # (script name, skill argument) of places and people
    doing: str = ""  # the bracket of the action this turn made, if it made one
    notes: str = ""  # facts the newest line is about (the line leans on their words)
    aliases: dict[str, list[str]] = field(default_factory=dict)  # place -> other words
    people: set[str] = field(default_factory=set)  # the targets that are villagers in view

    @property
    def prompt(self) -> str:
        """The document up to the NPC's name, where its action bracket comes next."""
        return f"{self.head}{self.last}\n{self.name}"

    @property
    def neutral(self) -> str:
        """The same document with a neutral newest line."""
        return f"{self.head}{NEUTRAL_LINE}\n{self.name}"

    def greets(self) -> bool:
        """Whether this step is the first meeting's hello: the NPC's own greeting fits."""
        if not self.greeting or self.earlier_replies or self.doing:
            return False
        if self.kind == "player_near":
            return True
        return self.kind == "player_message" and bool(_HELLO.search(self.request_text))

    def done(self) -> bool:
        """Whether the turn is over: it spoke, or an idle turn already did a thing."""
        if self.said:
            return True
        return self.kind not in _ANSWERED and bool(self.acted)

    def candidates(self, tools: list[ToolSpec]) -> list[Action]:
        """Every action the NPC could take now, with the skills it has."""
        names = {t.name for t in tools}
        out: list[Action] = [TALK]
        if "emote" in names:
            allowed = _emote_names(tools)
            out += [
                Action(g, label, "emote", {"name": g})
                for g, label in GESTURES.items()
                if g in allowed
            ]
        if "wait" in names:
            out.append(Action("wait", "waits", "wait", {"seconds": 4.0}))
        for shown, arg in self.targets:
            if "move" in names:
                out.append(Action("move", f"walks to {shown}", "move", {"to": arg}))
            if "look" in names:
                out.append(Action("look", f"looks at {shown}", "look", {"at": arg}))
        return out

    def asked_if_machine(self) -> bool:
        """Whether the newest line asks if the NPC is an AI, a program or the like: a
        villager never says yes to that."""
        return bool(_MACHINE.search(self.request_text))

    def may_act(self) -> bool:
        """Whether this step may still act before speaking: nothing done yet, or a gesture
        done and a walk or a look asked for too ("wave, then show me the well")."""
        if not self.acted:
            return True
        return self.acted == ["emote"] and bool(self._asked_now())

    def _asked_now(self) -> set[str]:
        """The kinds of action asked for that this step may take: a gesture first when a
        gesture and a walk or look are both asked, then the walk or look."""
        kinds = requested_kinds(self.request_text)
        places = kinds & {"move", "look"}
        if "emote" in self.acted:
            return places
        gestures = kinds & set(GESTURES)
        return gestures if gestures and places else kinds

    def pool(self, tools: list[ToolSpec]) -> list[Action]:
        """The candidates worth scoring at this step (the first is always just talking)."""
        everything = self.candidates(tools)
        if self.kind == "idle":
            # Alone, a villager walks somewhere, looks at someone, gestures, waits or
            # talks; gazing at each place is left out: the scoring's cost is per candidate.
            return [
                a
                for a in everything
                if not (a.kind == "look" and a.args.get("at") not in self.people)
            ]
        if self.kind not in ("player_message", "heard"):
            return [TALK]
        kinds = self._asked_now()
        if not kinds and self.kind == "player_message":
            # The player waits for the first letter: a gesture nobody asked for is not
            # worth the scoring before it (about 0.2 s on two cores).
            return [TALK]
        if not kinds:
            return [a for a in everything if a.kind in GESTURES or a is TALK]
        out = [TALK]
        asked = [a for a in everything[1:] if a.kind in kinds]
        # Going or looking somewhere: to what the line names; else, for "come with me",
        # to the speaker; else nowhere (it says it does not know the place instead).
        # The clearest naming wins: a villager's own name over a trade or a place's word.
        naming = {
            a: _naming(a, self.request_text, self.aliases, self.people)
            for a in asked
            if a.kind in ("move", "look")
            and not (a.kind == "move" and a.args.get("to") == "player")  # "take me to X"
        }
        clearest = max(naming.values(), default=0)
        named = [a for a, n in naming.items() if n and n == clearest]
        for action in asked:
            if action.kind in ("move", "look") and named and action not in named:
                continue
            if (
                action.kind == "move"
                and not named
                and (action.args.get("to") != "player" or not comes_along(self.request_text))
            ):
                continue
            out.append(action)
        if "look" in kinds and any(t.name == "look" for t in tools):
            out.append(Action("look", "looks around", "look", {}))
        return out

    def choose(self, scored: list[tuple[Action, float, float]], draw: float) -> Action:
        """The action to take, from each candidate's log-likelihood after the newest line
        and after a neutral one; `draw` in [0, 1) picks among idle actions."""
        if not scored:
            return TALK
        if self.kind == "idle":
            return _sample([(a, main) for a, main, _ in scored], draw)
        gain = [(a, main - neutral) for a, main, neutral in scored if a is not TALK]
        if not gain:
            return TALK
        best, lift = max(gain, key=lambda item: item[1])
        if not requested_kinds(self.request_text):
            return best if lift >= GESTURE_MIN else TALK
        return best


GESTURE_MIN = 2.5  # how much likelier an unasked gesture must be than after a neutral line
_ANSWERED = ("player_message", "heard", "player_near")


_NAMED = 10  # how much a villager's own name counts over one other word of a target


def _naming(action: Action, text: str, aliases: dict[str, list[str]], people: set[str]) -> int:
    """How clearly `text` names the place or person the action goes to or looks at: the
    words of it that the text has; the name of who lives at a place counts `_NAMED`, of a
    villager in view twice that. 0 when it does not name it."""
    target = str(action.args.get("to") or action.args.get("at") or "")
    if target == "player":
        return int(bool(re.search(r"\b(me|us)\b", text)))
    words = [w for w in re.split(r"[_\s]+", target.lower()) if len(w) > 2]
    if target in people:  # the villager themself, unless it is "Tobin's bakery"
        said = [w for w in words if re.search(rf"\b{re.escape(w)}\b(?!'s)", text)]
        return 2 * _NAMED * len(said)
    score = sum(1 for w in words if re.search(rf"\b{re.escape(w)}", text))
    for word in aliases.get(target, []):
        if re.search(rf"\b{re.escape(word.lstrip('@'))}", text):
            score += _NAMED if word.startswith("@") else 1
    return score


def _sample(weighted: list[tuple[Action, float]], draw: float) -> Action:
    """Pick by softmax of log-likelihoods, with `draw` as the uniform random number."""
    top = max(score for _, score in weighted)
    weights = [math.exp(score - top) for _, score in weighted]
    total = sum(weights)
    acc = 0.0
    for (action, _), weight in zip(weighted, weights, strict=True):
        acc += weight / total
        if draw < acc:
            return action
    return weighted[-1][0]


def applies(request: ProviderRequest) -> bool:
    """Whether the script protocol can play this request: it has facts and a `say` skill."""
    return (
        request.npc is not None
        and request.trigger is not None
        and any(t.name == "say" for t in request.tools)
        and request.metadata.get("tool_choice") != "none"
    )


def _emote_names(tools: list[ToolSpec]) -> set[str]:
    for tool in tools:
        if tool.name == "emote":
            prop = tool.parameters.get("properties", {}).get("name", {})
            values = prop.get("enum")
            if values is None and "$ref" in prop:
                ref = prop["$ref"].rsplit("/", 1)[-1]
                values = tool.parameters.get("$defs", {}).get(ref, {}).get("enum")
            return set(values or GESTURES)
    return set()


def requested_kinds(text: str) -> set[str]:
    """The kinds of action a line spells out (empty: nothing in particular)."""
    low = text.lower()
    kinds = {kind for kind, pattern in _REQUESTS.items() if pattern.search(low)}
    if "shake_head" in kinds:
        kinds.discard("wait")
    return kinds


def comes_along(text: str) -> bool:
    """Whether the line asks the NPC to come with the speaker (walking to them fits)."""
    return bool(_COME_ALONG.search(text.lower()))


def _this_turn(messages: list[Message]) -> tuple[list[Message], list[Message]]:
    """The messages before the newest trigger, and those after it (this turn's calls)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].role == "user":
            return messages[:i], messages[i + 1 :]
    return [], list(messages)


def build_script(request: ProviderRequest) -> Script:
    """The script of this step: scene, conversation, newest line, what the turn did."""
    npc = request.npc
    trigger = request.trigger
    assert npc is not None and trigger is not None
    name = one_line(npc.name, 40) or "Someone"
    before, turn = _this_turn(request.messages)
    scene, now, targets = scene_of(npc, trigger, name)
    history, replies = transcript_of(before, name)
    acted: list[str] = []
    said = False
    for message in turn:
        for call in message.tool_calls:
            acted.append(call.name)
            said = said or call.name == "say"
    last = trigger_line(trigger, name)
    doing = [label_of(c.name, c.parsed()) for m in turn for c in m.tool_calls]
    said_to = trigger.said or (trigger.text if trigger.kind == "player_message" else "")
    told = [*player_lines(before), said_to if trigger.kind == "player_message" else ""]
    notes = notes_of(npc, said_to, told)
    # The oldest lines go 8 at a time, so the prompt's start stays put for several turns.
    start = max(0, -(-(len(history) - TRANSCRIPT_LINES) // TRANSCRIPT_STEP) * TRANSCRIPT_STEP)
    head = EXAMPLES + "\n" + scene + "\n" + "".join(line + "\n" for line in history[start:])
    if notes:
        head += f"(Note: {notes})\n"
    if now:
        head += f"({now})\n"
    return Script(
        name=name,
        head=head,
        last=last,
        acted=acted,
        said=said,
        kind=trigger.kind,
        speaker="player" if trigger.source == "player" else trigger.speaker,
        request_text=(
            unaddressed(said_to, npc).lower() if trigger.kind in ("player_message", "heard") else ""
        ),
        earlier_replies=replies,
        greeting=one_line(npc.greeting, MAX_LINE_CHARS),
        targets=targets,
        doing=next((d for d in reversed(doing) if d), ""),
        notes=notes,
        aliases=place_aliases(npc),
        people={seen.name for seen in nearby(trigger)[:6] if seen.entity_id != "player"},
    )
