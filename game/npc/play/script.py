"""The play script's decisions: the candidate actions, what a line asks for, and the rule
the worker picks one by (`ScriptJob.pick`, set in `writer`).

A base model without a chat template continues documents; it does not follow rules. So the
bundled model is not asked to write JSON calls: it is shown a play script, short scenes of
made-up villagers in which every line is `Name [action]: what they say`, then the NPC's own
scene and conversation, ending at the NPC's name. What it does and says come apart:

- **The action is chosen, not sampled.** The candidates are what the skills offer (each
  gesture, walking to or looking at each place or person the NPC knows of, waiting) and
  just talking; the worker scores each one's bracket after the script, less its score
  after a neutral line in the same place, so an action is picked because of what was
  said, not because it is common. What the player asks for ("wave", "show me the well",
  "wait") is read by the persona brain's reader (`game.npc.reading.intent.asked_actions`), which
  also finds the place or person meant; the candidates narrow to that. Targets come only
  from the NPC's facts, so they always exist.
- **The line is sampled**, one line, ending at the newline; see
  `game.agent.providers.local.script` for how the worker does it. It mostly starts with
  what the persona brain answers (`game.npc.play.leads`), and the model goes on after it:
  a small model asked "Who is Brenna?" says "She's a young woman." even with the note that
  she is the blacksmith right above.
- **One reply per line.** A turn is at most one action (a gesture first when a gesture and
  a walk are asked together), then one line, then the end; an idle tick is one action or
  one line.

`scene` writes the text; `writer` turns a step into the worker's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.agent.facts import TriggerFacts
from game.agent.providers.base import Message, ProviderRequest, ToolSpec
from game.gestures import GESTURES
from game.npc.facts import VillagerFacts, sensed_of
from game.npc.life.feelings import feeling_note
from game.npc.life.news import tell_line
from game.npc.play.leads import heard_lead, idle_lead, lead_of, refuses
from game.npc.play.scene import (
    EXAMPLES,
    MAX_LINE_CHARS,
    PLAYER,
    label_of,
    nearby,
    notes_of,
    one_line,
    player_lines,
    scene_of,
    transcript_of,
    trigger_line,
    unaddressed,
)
from game.npc.reading.intent import Intent, asked_actions, asks_yes_no, read_intent
from game.npc.reading.kinds import Kind, Named
from game.npc.scripted.retell import clauses, closest
from game.npc.skills import EMOTE, LOOK, MOVE, SKILLS, WAIT, SkillCall
from game.npc.skills.look import LookArgs
from game.npc.skills.move import MoveArgs

__all__ = [
    "GESTURE_MIN",
    "TALK",
    "TRANSCRIPT_LINES",
    "Candidate",
    "Script",
    "applies",
    "build_script",
]

# The conversation lines a prompt holds: a small model reads little further back, and each
# line costs prefill time (what the player told, such as their name, comes in the notes).
TRANSCRIPT_LINES = 16
TRANSCRIPT_STEP = 8  # the oldest lines are dropped this many at a time
NEUTRAL_LINE = f"{PLAYER}: Hm."  # the line an action's likelihood is compared against
GESTURE_MIN = 2.5  # how much likelier an unasked gesture must be than after a neutral line
_ANSWERED = ("player_message", "heard", "player_near")


@dataclass(frozen=True)
class Candidate:
    """One candidate action: the skill call it makes and how the script writes it."""

    call: SkillCall | None = field(hash=False)  # None: just talking
    label: str = ""  # the bracket text ("waves", "walks to the well"); "" for just talking

    @classmethod
    def of(cls, call: SkillCall) -> Candidate:
        """The candidate that makes `call`, written as its skill writes it."""
        return cls(call, call.bracket())

    @property
    def tool(self) -> str:
        """The skill called ("" for just talking)."""
        return self.call.name if self.call is not None else ""

    @property
    def args(self) -> dict[str, Any]:
        """The call's arguments as it sends them ({} for just talking)."""
        return self.call.arguments() if self.call is not None else {}

    @property
    def bracket(self) -> str:
        """What follows the NPC's name in the script."""
        return f" [{self.label}]:" if self.label else ":"

    @property
    def target(self) -> str | None:
        """The place or person it goes to or looks at."""
        args = self.call.args if self.call is not None else None
        if isinstance(args, MoveArgs):
            return args.to
        return args.at if isinstance(args, LookArgs) else None


TALK = Candidate(None)


@dataclass
class Script:
    """One step of a turn as the script protocol sees it."""

    name: str  # the NPC's name as the script writes it
    npc: VillagerFacts
    head: str  # the examples, the scene and the conversation before the newest line
    last: str  # the newest line (what was said, or a stage direction)
    acted: list[str]  # skills called so far in this turn
    said: bool  # whether the NPC already spoke in this turn
    kind: str  # the trigger's kind
    speaker: str | None  # whom the line is for: who spoke ("player"), a villager beside it
    request_text: str  # what was said to the NPC, lowercased ("" if nothing)
    request: str  # the same, as said (a name is told in capitals)
    earlier_replies: list[str]  # what this NPC said before, oldest first
    greeting: str
    targets: list[tuple[str, str]]  # (script name, skill argument) of places and people
    doing: str = ""  # the bracket of the action this turn made, if it made one
    notes: str = ""  # facts the newest line is about (the line leans on their words)
    people: set[str] = field(default_factory=set)  # the targets that are villagers in view
    lead: str = ""  # the line's first words, from the facts ("" : the model's from the start)
    refused: bool = False  # its sheet refuses what the newest line asks: no action is taken

    @property
    def prompt(self) -> str:
        """The document up to the NPC's name, where its action bracket comes next."""
        return f"{self.head}{self.last}\n{self.name}"

    @property
    def neutral(self) -> str:
        """The same document with a neutral newest line."""
        return f"{self.head}{NEUTRAL_LINE}\n{self.name}"

    def intent(self) -> Intent:
        """What the newest line asks, as the persona brain reads it."""
        return read_intent(self.request, self.npc)

    def greets(self) -> bool:
        """Whether this step is the first meeting's hello: the NPC's own greeting fits."""
        if not self.greeting or self.earlier_replies or self.doing:
            return False
        if self.kind == "player_near":
            return True
        # "hello! can I stroke the big hawk?" of one who lets no stranger: its no, not hello
        return (
            self.kind == "player_message" and self.intent().kind is Kind.GREET and not self.refused
        )

    def done(self) -> bool:
        """Whether the turn is over: it spoke, or an idle turn already did a thing."""
        if self.said:
            return True
        return self.kind not in _ANSWERED and bool(self.acted)

    def asked_if_machine(self) -> bool:
        """Whether the newest line asks if the NPC is an AI, a program or the like: a
        villager never says yes to that."""
        return self.intent().kind is Kind.AI

    def persona_decides(self) -> bool:
        """Whether the newest line is a yes/no question about something the persona has a
        side on ("Is there really a dragon?" to a child certain of one)."""
        if not asks_yes_no(self.request_text):
            return False
        return closest(self.request_text, clauses(self.npc.persona, self.npc.name)) is not None

    def candidates(self, tools: list[ToolSpec]) -> list[Candidate]:
        """Every action the NPC could take now, with the skills it has: just talking, then
        what each skill offers for the places and people it can act on."""
        out: list[Candidate] = [TALK]
        for spec in tools:
            skill = SKILLS.get(spec.name)
            if skill is None or skill.offers is None:
                continue
            for args in skill.offers(self.targets):
                if _allowed(spec, args):
                    out.append(Candidate.of(skill.call(**args)))
        return out

    def may_act(self) -> bool:
        """Whether this step may still act before speaking: nothing done yet, or a gesture
        done and a walk or a look asked for too ("wave, then show me the well")."""
        if not self.acted:
            return True
        return self.acted == [EMOTE.name] and bool(self.asked_now())

    def asked_now(self) -> list[Intent]:
        """The actions asked for that this step may take: a gesture first when a gesture
        and a walk or look are both asked, then the walk or look."""
        if self.refused:
            return []
        asked = asked_actions(self.request_text, self.npc) if self.request_text else []
        places = [a for a in asked if a.kind in (Kind.GO, Kind.LOOK)]
        if EMOTE.name in self.acted:
            return places
        gestures = [a for a in asked if a.kind is Kind.GESTURE]
        return gestures if gestures and places else asked

    def acts(self, tools: list[ToolSpec]) -> bool:
        """Whether this turn does an action asked for: it did one, or this step will (the
        lift picks among the asked actions whenever one of them is a candidate)."""
        if self.doing:
            return True
        return self.may_act() and bool(self.asked_now()) and len(self.pool(tools)) > 1

    def pool(self, tools: list[ToolSpec]) -> list[Candidate]:
        """The candidates worth scoring at this step (the first is always just talking)."""
        everything = self.candidates(tools)
        if self.kind == "idle":
            # Alone, a villager walks somewhere, looks at someone, gestures, waits or
            # talks; gazing at each place is left out: the scoring's cost is per candidate.
            return [c for c in everything if c.tool != LOOK.name or c.target in self.people]
        if self.kind not in ("player_message", "heard"):
            return [TALK]
        asked = self.asked_now()
        if not asked and self.kind == "player_message":
            # The player waits for the first letter: a gesture nobody asked for is not
            # worth the scoring before it (about 0.2 s on two cores).
            return [TALK]
        if not asked:
            return [c for c in everything if c.tool == EMOTE.name or c is TALK]
        out = [TALK]
        for intent in asked:
            out += [c for c in everything[1:] if c not in out and self._fits(intent, c)]
        if self.looks_around(tools):
            out.append(Candidate.of(LOOK.call()))
        return out

    def _fits(self, intent: Intent, candidate: Candidate) -> bool:
        """Whether a candidate is the action the reader found asked for."""
        if intent.kind is Kind.GESTURE:
            gesture = GESTURES.get(intent.gesture or "")
            return gesture is not None and candidate.call == EMOTE.call(name=gesture.name)
        if intent.kind is Kind.WAIT:
            return candidate.tool == WAIT.name
        if intent.kind is Kind.SKILL:
            return candidate.tool == intent.sub
        if intent.kind is Kind.LOOK and intent.target is None:
            return False  # "look around": the look without a target, added below
        if intent.kind not in (Kind.GO, Kind.LOOK):
            return False
        tool = MOVE.name if intent.kind is Kind.GO else LOOK.name
        return candidate.tool == tool and candidate.target == self._target_of(intent)

    def _target_of(self, intent: Intent) -> str | None:
        """The skill argument of the place or person the reader found, among the targets:
        a villager out of view is found at their home."""
        target = intent.target
        if target is None:
            return None
        if target.kind is Named.PLAYER:
            return "player"
        if target.kind is Named.PERSON and target.name not in self.people:
            return target.home or None
        return target.name

    def looks_around(self, tools: list[ToolSpec]) -> bool:
        """Whether a look with no target was asked for and can be made."""
        return any(a.kind is Kind.LOOK and a.target is None for a in self.asked_now()) and any(
            t.name == LOOK.name for t in tools
        )


def _allowed(spec: ToolSpec, args: dict[str, Any]) -> bool:
    """Whether arguments keep to the values a tool spec lists (an `enum`) for them."""
    params = spec.parameters
    for key, value in args.items():
        prop = params.get("properties", {}).get(key, {})
        if "$ref" in prop:
            prop = params.get("$defs", {}).get(prop["$ref"].rsplit("/", 1)[-1], {})
        if "enum" in prop and value not in prop["enum"]:
            return False
    return True


def applies(request: ProviderRequest) -> bool:
    """Whether the script protocol can play this request: it has facts and a line skill."""
    return (
        request.npc is not None
        and request.trigger is not None
        and any(t.name == line_tool() for t in request.tools)
        and request.options.tool_choice != "none"
    )


def line_tool() -> str:
    """The skill the script's lines are said with: the one whose speech streams."""
    return next(name for name, skill in SKILLS.items() if skill.on_stream is not None)


def _this_turn(messages: list[Message]) -> tuple[list[Message], list[Message]]:
    """The messages before the newest trigger, and those after it (this turn's calls)."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].role == "user":
            return messages[:i], messages[i + 1 :]
    return [], list(messages)


def build_script(request: ProviderRequest) -> Script:
    """The script of this step: scene, conversation, newest line, what the turn did."""
    trigger = request.trigger
    assert request.npc is not None and trigger is not None
    npc = VillagerFacts.of(request.npc)
    name = one_line(npc.name, 40) or "Someone"
    before, turn = _this_turn(request.messages)
    scene, now, targets = scene_of(npc, trigger, name)
    history, replies = transcript_of(before, name)
    acted: list[str] = []
    said = False
    for message in turn:
        for call in message.tool_calls:
            acted.append(call.name)
            said = said or call.name == line_tool()
    last = trigger_line(trigger, name)
    doing = [label_of(c.name, c.parsed()) for m in turn for c in m.tool_calls]
    said_to = trigger.said or (trigger.text if trigger.kind == "player_message" else "")
    told = [*player_lines(before), said_to if trigger.kind == "player_message" else ""]
    notes = notes_of(npc, said_to, told)
    feeling = _feeling_note(trigger)
    notes = f"{notes} {feeling}." if notes and feeling else notes or (feeling and f"{feeling}.")
    addressed = unaddressed(said_to, npc) if trigger.kind in ("player_message", "heard") else ""
    # The oldest lines go 8 at a time, so the prompt's start stays put for several turns.
    start = max(0, -(-(len(history) - TRANSCRIPT_LINES) // TRANSCRIPT_STEP) * TRANSCRIPT_STEP)
    head = EXAMPLES + "\n" + scene + "\n" + "".join(line + "\n" for line in history[start:])
    if notes:
        head += f"(Note: {notes})\n"
    if now:
        head += f"({now})\n"
    script = Script(
        name=name,
        npc=npc,
        head=head,
        last=last,
        acted=acted,
        said=said,
        kind=trigger.kind,
        speaker=_addressed(trigger),
        request_text=addressed.lower(),
        request=addressed,
        earlier_replies=replies,
        greeting=_greeting(npc, trigger),
        targets=targets,
        doing=next((d for d in reversed(doing) if d), ""),
        notes=notes,
        people={seen.name for seen in nearby(trigger)[:6] if seen.entity_id != "player"},
    )
    if trigger.kind == "player_message" and not script.said:  # a turn's one line leads
        script.refused = refuses(request)
        script.lead = lead_of(request, acts=script.acts(request.tools))
    if trigger.kind == "heard" and not script.said:  # a villager answers as itself
        script.lead = heard_lead(request)
    if trigger.kind == "idle" and not script.said:  # a villager beside it: said to them
        script.speaker, script.lead = idle_lead(request)
    sensed = sensed_of(trigger)
    if trigger.kind == "news" and not script.said and sensed is not None and sensed.tell:
        script.lead = tell_line(sensed.tell, sensed.tell_to or "friend")
    return script


def _greeting(npc: VillagerFacts, trigger: TriggerFacts) -> str:
    """The NPC's own greeting for a first meeting: none for one just woken (a shop's
    daytime hello said at midnight): its lead, the grumble and a hello of the hour, is."""
    sensed = sensed_of(trigger)
    return "" if sensed is not None and sensed.woken else one_line(npc.greeting, MAX_LINE_CHARS)


def _addressed(trigger: TriggerFacts) -> str | None:
    """Whom the line is said to: the player, whoever spoke, or whom news is passed to."""
    if trigger.source == "player":
        return "player"
    sensed = sensed_of(trigger)
    if trigger.kind == "news" and sensed is not None:
        return sensed.tell_to
    return trigger.speaker


def _feeling_note(trigger: TriggerFacts) -> str:
    """How the NPC feels about whoever it answers, as a note ("" when neutral)."""
    sensed = sensed_of(trigger)
    source = trigger.source or ""
    feeling = next((f for f in (sensed.feelings if sensed else []) if f.other_id == source), None)
    return feeling_note(feeling) if feeling is not None else ""
