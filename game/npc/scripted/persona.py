"""The persona-driven scripted brain: a deterministic stand-in for a model.

It reads who the NPC is (`request.npc`: persona, home, the map's places, the other
villagers) and why it thinks (`request.trigger`: the kind, who spoke and what they said,
who is nearby, the earlier triggers) as typed facts, and acts through the same skills a
model would use. When the player talks it answers what was asked (`game.npc.scripted.talk`): a
gesture asked for is made, "come with me" or "take me to the forge" walks there, "look"
looks, "wait" waits, questions about places, villagers and itself are answered from the
facts, the player's name once told is used, and it does not repeat itself. When its name
is heard it answers the speaker; when the player comes near it waves and greets; on an
idle tick it wanders, walks home, gestures, looks about, waits or says an idle line.

A turn is a short plan of one to three skill calls, one per step; after each tool result
the next call follows, and a failed move is met with a shake of the head (or, when the
player asked for the walk, a line saying so) instead of the rest of the plan. Everything
is a pure function of the request, so the same world gives the same village. `say`
arguments stream a few characters at a time with a short delay, so bubbles grow as with a
model. It is the offline default and the fallback when a real provider fails.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.agent.providers.base import Message, ProviderRequest
from game.agent.providers.registry import REGISTRY
from game.gestures import NOD, SHAKE_HEAD, WAVE
from game.npc.facts import SensedFacts, VillagerFacts, sensed_of
from game.npc.life.news import tell_line
from game.npc.mind import CHUNK, Decision, MindProvider, Speech
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind
from game.npc.reading.player import player_line
from game.npc.scripted.between import heard_plan, to_a_villager
from game.npc.scripted.lines import line_table, pick
from game.npc.scripted.moods import Mood, mood_of
from game.npc.scripted.social import first_greeting
from game.npc.scripted.speaker import PlayerLine, React, Speaker, Step, said_by, say
from game.npc.scripted.talk import answer
from game.npc.scripted.voice import voiced_plan
from game.npc.seeds import seed_of
from game.npc.skills import ASK, EMOTE, LOOK, MOVE, SAY, WAIT, SkillCall
from game.npc.skills.ask import picked
from game.npc.skills.move import MoveArgs
from game.npc.skills.say import SayArgs

__all__ = [
    "MAX_PLAN",
    "PersonaProvider",
    "Situation",
    "decide",
    "line_for",
    "mood_of",
    "next_action",
    "plan_for",
    "situation_of",
]

_DIRECTIONS = ("up", "down", "left", "right")
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
MAX_PLAN = 3
_PLAYER_TRIGGERS = ("player_message", "player_near")  # the player spoke or came near


@dataclass
class Situation:
    """What the scripted brain reads from one request."""

    npc: VillagerFacts
    kind: str
    text: str  # the trigger's text (seeds the plan)
    perception: str  # the perception as written for models (seeds the plan)
    turn: int
    nearby: list[str] = field(default_factory=list)  # names, nearest first
    place: str | None = None  # the named place the NPC stands in
    speaker: str | None = None  # who spoke, for heard speech
    said: str = ""  # what they said
    met: bool = False  # the player spoke to or came up to this NPC before
    talks: int = 0  # how many earlier triggers were the player speaking
    earlier: list[str] = field(default_factory=list)  # the player's earlier lines
    replies: list[str] = field(default_factory=list)  # what the NPC said before
    asked: bool = False  # the NPC put a question to the player before
    sensed: SensedFacts | None = None  # what it perceived, with the facts of the day

    @property
    def name(self) -> str:
        """The NPC's name."""
        return self.npc.name

    @property
    def home(self) -> str:
        """The NPC's home place, if it has one."""
        return self.npc.home

    @property
    def mood(self) -> Mood:
        """The persona's mood."""
        return mood_of(self.npc.persona, self.npc.sheet.talks)

    @property
    def at_home(self) -> bool:
        """Whether the NPC stands at its home place."""
        return bool(self.home) and self.place == self.home

    def talk(self) -> PlayerLine:
        """The player's line and what the NPC knows around it."""
        return PlayerLine(
            npc=self.npc,
            said=self.said,
            turn=self.turn,
            met=self.met,
            earlier=self.earlier,
            replies=self.replies,
            place=self.place,
            asked=self.asked,
            talks=self.talks,
            sensed=self.sensed,
        )


def situation_of(request: ProviderRequest) -> Situation:
    """Read who is asked, why, and what it perceives, from the request's facts.

    A request without trigger facts (made by hand, not by the context builder) reads as
    the player saying the newest user message.
    """
    npc = VillagerFacts(npc_id="", name="Someone")
    if request.npc is not None:
        npc = VillagerFacts.of(request.npc)
    trigger = request.trigger
    if trigger is None:
        said = _last_user_text(request.messages)
        kind = "player_message" if any(m.role == "user" for m in request.messages) else "none"
        text, perception, speaker, earlier = said, "", None, []
        sensed = None
    else:
        kind, text, perception = trigger.kind, trigger.text, trigger.perception or ""
        said = trigger.said if trigger.said is not None else trigger.text
        speaker, earlier, sensed = trigger.speaker, trigger.earlier_kinds, sensed_of(trigger)
    lines, replies, asked = _history(request.messages)
    return Situation(
        npc=npc,
        kind=kind,
        text=text,
        perception=perception,
        turn=_turn_of(request.messages),
        nearby=[s.name for s in sensed.nearby if s.name] if sensed is not None else [],
        place=sensed.place if sensed is not None else None,
        speaker=speaker,
        said=said,
        met=any(k in _PLAYER_TRIGGERS for k in earlier),
        talks=sum(1 for k in earlier if k == "player_message"),
        earlier=lines,
        replies=replies,
        asked=asked,
        sensed=sensed,
    )


def _history(messages: list[Message]) -> tuple[list[str], list[str], bool]:
    """Before the newest trigger: the player's lines, what the NPC said, and whether it
    asked the player something. (This turn's own calls come after the trigger, so every
    step of a turn sees the same history.)"""
    newest = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    lines: list[str] = []
    replies: list[str] = []
    asked = False
    for msg in messages[: max(newest, 0)]:
        if msg.role == "user":
            line = player_line(msg)
            if line is not None:
                lines.append(line)
        elif msg.role == "assistant":
            if msg.content.strip():
                replies.append(msg.content.strip())
            for call in msg.tool_calls:
                if call.name == ASK.name:
                    asked = True
                if call.name != SAY.name:
                    continue
                said = SAY.parse(call.parsed())
                if isinstance(said, SayArgs) and said.text.strip():
                    replies.append(said.text.strip())
    return lines, replies, asked


def _turn_of(messages: list[Message]) -> int:
    """How many exchanges came before the newest trigger (its user message)."""
    users = sum(1 for m in messages if m.role == "user")
    return max(0, users - 1)


def plan_for(s: Situation) -> list[Step]:
    """The skill calls of one turn, in order, its lines in the NPC's voice; a pure
    function of the situation."""
    return voiced_plan(_plan_for(s), s.npc.sheet.talks, s.npc.greeting)


def _plan_for(s: Situation) -> list[Step]:
    rng = random.Random(seed_of(s.npc.npc_id or s.name, s.kind, str(s.turn), s.text, s.perception))
    mood = s.mood
    if s.kind == "player_message":
        return answer(s.talk())
    if s.kind == "heard":
        speaker = s.speaker or "friend"
        plan = heard_plan(
            s.npc, mood, speaker, s.said, turn=s.turn, replies=s.replies, sensed=s.sensed
        )
        if rng.random() < 0.3 and said_by(plan[0]) is not None:
            plan.insert(0, EMOTE.call(name=NOD.name))
        return plan
    if s.kind == "player_near":
        greeting = s.npc.greeting
        if not s.met and greeting not in s.replies:  # the first hello: the map maker's,
            talk = s.talk()  # else its mood's, with its name and work in it
            line = first_greeting(talk, Speaker(talk, Intent(Kind.GREET)))
        else:
            seed = seed_of(s.npc.npc_id, "again", str(s.turn))
            line = pick(line_table("again", mood), seed, [*s.replies, greeting], {"name": s.name})
        return [EMOTE.call(name=WAVE.name), say(line, "player")]
    if s.kind == "news":
        sensed = s.sensed
        if sensed is None or sensed.tell is None:
            return []
        to = sensed.tell_to or "friend"
        return [say(tell_line(sensed.tell, to), to)]
    if s.kind != "idle":
        return []
    return _idle_plan(s, rng)


def _idle_plan(s: Situation, rng: random.Random) -> list[Step]:
    mood = s.mood
    emote = EMOTE.call(name=rng.choice(mood.gestures).name)
    roll = rng.random()
    if s.home and not s.at_home and roll < 0.3:
        return [MOVE.call(to=s.home), emote]
    if roll < 0.55:
        step = MOVE.call(direction=rng.choice(_DIRECTIONS), steps=rng.randint(1, 3))
        after = rng.random()
        if after < 0.3:
            return [step, emote]
        if after < 0.45:
            return [step, LOOK.call()]
        return [step]
    if roll < 0.7:
        return [emote]
    if roll < 0.78:
        return [LOOK.call(at=s.home) if s.home and rng.random() < 0.5 else LOOK.call()]
    if roll < 0.85:
        return [WAIT.call(seconds=float(rng.randint(2, 5)))]
    seen = s.sensed.nearby if s.sensed is not None else []
    who = next((v for v in seen if v.entity_id != "player" and v.name), None)
    if who is not None and rng.random() < 0.6:  # a villager beside it: something to them
        seed = seed_of(s.npc.npc_id, "idle", str(s.turn), s.text)
        line = to_a_villager(
            s.npc, mood, who.name, who.entity_id, seed=seed, used=s.replies, sensed=s.sensed
        )
        return [say(line, who.name)]
    return [say(pick(line_table("idle", mood), rng.randrange(1 << 30), s.replies))]


def next_action(request: ProviderRequest) -> SkillCall | None:
    """The call to make at this step of the turn, or None when the turn is over."""
    s = situation_of(request)
    plan = plan_for(s)
    # The results since the trigger say how far the plan went. A model reads a failed move
    # and corrects it: the first time it tries the opposite way, then it gives up with a
    # shake of the head and the turn ends. A walk the player asked for that fails is
    # answered with a line saying so.
    results = []
    for msg in reversed(request.messages):
        if msg.role == "user":
            break
        if msg.role == "tool":
            results.append(msg)
    results.reverse()
    done = 0
    retried = False
    for result in results:
        action = plan[done] if done < len(plan) else None
        done += 1
        if not result.is_error or not isinstance(action, SkillCall) or action.skill is not MOVE:
            continue
        direction = action.args.direction if isinstance(action.args, MoveArgs) else None
        back = _OPPOSITE.get(direction) if direction is not None else None
        if back is not None and not retried:
            retried = True
            plan = [*plan[:done], MOVE.call(direction=back, steps=2), *plan[done:]]
        elif s.kind == "player_message":
            seed = seed_of(s.npc.npc_id, s.said, "failed")
            line = pick(line_table("move_failed", s.mood), seed, s.replies)
            plan = [*plan[:done], EMOTE.call(name=SHAKE_HEAD.name), say(line, "player")]
        else:
            plan = [*plan[:done], EMOTE.call(name=SHAKE_HEAD.name)]
    if done >= min(len(plan), MAX_PLAN + 1):
        return None
    step = plan[done]
    if isinstance(step, React):  # answer the player's pick of the question just asked
        last = results[-1] if results else None
        if last is None or last.is_error:
            return None
        reaction = step.answers.get(picked(last.data) or "")
        return say(reaction, "player") if reaction else None
    return step


def _last_user_text(messages: list[Message]) -> str:
    """The newest user message: the player's words if it is a player's line, else as is."""
    for msg in reversed(messages):
        if msg.role == "user":
            line = player_line(msg)
            return (line if line is not None else msg.content).strip()
    return ""


def line_for(npc: VillagerFacts, heard: str, turn: int) -> str:
    """What this NPC says back to `heard`, knowing nothing of the talk before (the line of
    the fallbacks); the greeting for nothing heard on a first meeting."""
    if not heard.strip():
        if turn == 0:
            talk = PlayerLine(npc=npc, said="")
            return first_greeting(talk, Speaker(talk, Intent(Kind.GREET)))
        mood = mood_of(npc.persona, npc.sheet.talks)
        return pick(line_table("again", mood), seed_of(npc.npc_id, str(turn)))
    for step in answer(PlayerLine(npc=npc, said=heard, turn=turn, met=turn > 0)):
        said = said_by(step)
        if said is not None:
            return said.text
    return npc.greeting or f"Hello there. I'm {npc.name}."


def decide(request: ProviderRequest) -> Decision | None:
    """The persona mind: the plan's next skill call, or with no skills offered the plan's
    line as plain text; None when the turn is over."""
    if request.tools:
        return next_action(request)
    s = situation_of(request)
    says = [said.text for said in map(said_by, plan_for(s)) if said is not None]
    return Speech(says[0] if says else line_for(s.npc, s.said, s.turn))


class PersonaProvider(MindProvider):
    """Answers like a model would, from the persona alone; deterministic and offline."""

    name = "scripted"
    model = "persona"
    capabilities = REGISTRY["scripted"].capabilities  # none: no prime, no load, not remote

    def __init__(self, *, delay_s: float = 0.03, chunk: int = CHUNK) -> None:
        super().__init__(decide, delay_s=delay_s, chunk=chunk)
