"""The persona-driven scripted brain: a deterministic stand-in for a model.

It reads who the NPC is (`request.npc`) and why it thinks (`request.trigger`: the kind, who
spoke and what they said, who is nearby, the earlier triggers) as typed facts, never from
the prose written for models, and acts through the same skills a model would use: on an
idle tick it wanders, walks home, gestures, looks about, waits or says an idle line; when
its name is heard it answers the speaker; when the player comes near it waves and greets;
when the player talks it answers. A turn is a short plan of one to three skill calls, one
per step; after each tool result the next call follows, and a failed move is met with a
shake of the head instead of the rest of the plan. Everything is a pure function of the
request, so the same world gives the same village. `say` arguments stream a few characters
at a time with a short delay, so bubbles grow as with a model. It is the offline default
and the fallback when a real provider fails.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from game.agent.facts import NpcFacts
from game.agent.providers.base import (
    Done,
    Message,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)

CHUNK = 3

_FAREWELL = ("bye", "goodbye", "farewell", "see you", "later")
_GREETING = ("hello", "hi", "hey", "greetings", "good morning", "good evening", "howdy")
_WHO = ("who are you", "your name", "what do you do", "your job", "your work", "about you")
_WHERE = ("where", "way to", "how do i get", "find the")
_THANKS = ("thank", "thanks", "cheers")

# Mood is read from the persona; each mood has its own turns of phrase.
_MOODS: dict[str, tuple[str, ...]] = {
    "gruff": ("gruff", "stern", "blunt", "grumpy", "smith", "forge"),
    "cheerful": ("cheerful", "warm", "kind", "jolly", "baker", "friendly", "bright"),
    "wise": ("wise", "elder", "old", "calm", "patient", "remembers"),
    "quiet": ("quiet", "shy", "fisher", "few words", "patient", "river"),
    "curious": ("curious", "child", "young", "questions", "eager", "adventure"),
    "shrewd": ("merchant", "trader", "travell", "bargain", "coin", "shrewd"),
}
_REPLIES: dict[str, tuple[str, ...]] = {
    "gruff": (
        "Hmph. {topic}? Ask me something useful, or let me work.",
        "Say what you need. Iron cools while we chat.",
        "{topic}... fine. I've heard stranger things at this anvil.",
    ),
    "cheerful": (
        "Oh, {topic}! What a lovely thing to ask about. Have you eaten today?",
        "Ha! You always brighten my morning. Tell me more!",
        "{topic}? Well, I'll think on it over the next batch of bread.",
    ),
    "wise": (
        "{topic}... The village has seen much of that. Patience shows the way.",
        "Sit a while. Most questions answer themselves, given time.",
        "Hm. When I was young I asked the same about {topic}.",
    ),
    "quiet": (
        "...{topic}. Hm.",
        "The river knows. I just listen.",
        "Maybe. The fish aren't biting today anyway.",
    ),
    "curious": (
        "{topic}? Ooh! Can you show me? Is it far? Is it dangerous?",
        "Wow! Did you really come from outside the village?",
        "I knew it! I'm going to tell everyone about {topic}!",
    ),
    "shrewd": (
        "{topic}? For you, friend, I might know a thing or two... for a price.",
        "Everything has its value. Even a chat about {topic}.",
        "Ah, a customer with questions. The best kind!",
    ),
}
_STOP = {
    "the",
    "a",
    "an",
    "you",
    "your",
    "i",
    "me",
    "my",
    "is",
    "are",
    "do",
    "does",
    "what",
    "how",
    "why",
    "to",
    "of",
    "and",
    "in",
    "on",
    "it",
    "this",
    "that",
    "can",
    "about",
}


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).encode()).digest()[:4], "big")


def mood_of(persona: str) -> str:
    """The mood whose words the persona uses most (ties go to the first listed)."""
    text = persona.lower()
    scores = {mood: sum(text.count(w) for w in words) for mood, words in _MOODS.items()}
    best = max(scores, key=lambda m: scores[m])
    return best if scores[best] else "cheerful"


def topic_of(text: str) -> str:
    """The most telling word of what was said, for echoing it back."""
    words = [w for w in re.findall(r"[A-Za-z']+", text) if w.lower() not in _STOP]
    if not words:
        return "That"
    word = max(words, key=len)
    return word[0].upper() + word[1:]


def reply_for(name: str, persona: str, greeting: str, heard: str, turn: int, home: str = "") -> str:
    """What this NPC says back to `heard`, deterministic for the same inputs."""
    said = heard.lower().strip()
    mood = mood_of(persona)
    if turn == 0 and (not said or any(w in said for w in _GREETING)):
        return greeting or f"Hello there. I'm {name}."
    if any(w in said for w in _FAREWELL):
        return {"gruff": "Off with you, then.", "quiet": "...Safe travels."}.get(
            mood, f"Goodbye! Come back and see {name} soon."
        )
    if any(w in said for w in _THANKS):
        return "Hmph. You're welcome." if mood == "gruff" else "You're very welcome!"
    if any(w in said for w in _WHO):
        first = persona.split(". ")[0].rstrip(".")
        return f"I'm {name}. {first}."[:200]
    if any(w in said for w in _WHERE) and home:
        return f"I'm usually by the {home.replace('_', ' ')}. Follow the path, you can't miss it."
    if any(w in said for w in _GREETING):
        return greeting or f"Hello again. It's {name}."
    lines = _REPLIES[mood]
    line = lines[_seed(name, said, str(turn)) % len(lines)]
    return line.format(topic=topic_of(heard))[:200]


_IDLE_LINES: dict[str, tuple[str, ...]] = {
    "gruff": (
        "This blade won't sharpen itself.",
        "Hmph. Bridge creaked again this morning.",
        "{who}. Keep your hands off the tongs.",
        "Honest work, {who}. That's what fixes things.",
    ),
    "cheerful": (
        "Smell that? The rye is nearly ready!",
        "Morning, {who}! Saved you a honey bun.",
        "What a day for baking. What a day for anything!",
        "{who}, have you tried the plum tarts yet?",
    ),
    "wise": (
        "The wind is turning. Change is coming to Hollowbrook.",
        "{who}, do you remember the winter the river froze?",
        "Patience. The well fills one drop at a time.",
        "Hm. Every path in this village has a story.",
    ),
    "quiet": (
        "...Hm.",
        "The herons are back.",
        "{who}. Quiet today.",
        "Water's calm.",
    ),
    "curious": (
        "I found a shiny pebble! Look, {who}!",
        "Do you think dragons like bread?",
        "{who}! Have you ever been past the river?",
        "One day I'll be a real adventurer.",
    ),
    "shrewd": (
        "Fine wares! Finer prices! Well... fine prices.",
        "{who}, a trinket from the mountains? Special price.",
        "Business is slow, but the stories are free.",
        "Hollowbrook. Nice village. Never stay too long anywhere.",
    ),
}
_AGAIN: dict[str, str] = {
    "gruff": "You again. What is it?",
    "cheerful": "Oh, hello again! Hungry yet?",
    "wise": "Ah, you return. Good.",
    "quiet": "...Hello.",
    "curious": "You're back! Tell me everything!",
    "shrewd": "My favourite customer returns!",
}
# A question some moods put to the player: (question, [(option, reaction), ...]).
_ASKS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "curious": (
        "Will you help me find the dragon past the river?",
        (
            ("Yes, let's go!", "Yes! I'll get my wooden sword!"),
            ("Maybe later", "Aww. Later, then. Promise?"),
            ("Dragons aren't real", "They are too! You'll see!"),
        ),
    ),
    "shrewd": (
        "Care to see something special from the mountains?",
        (
            ("Show me", "Behold: a compass that always points home. For you, a bargain!"),
            ("Not today", "Your loss, friend. My cart will be here... for now."),
        ),
    ),
    "cheerful": (
        "Would you like a warm bun?",
        (
            ("Yes, please!", "Here you are, fresh from the oven!"),
            ("No, thank you", "Another time, then! They're best in the morning."),
        ),
    ),
}
_HELLO_AGAIN: dict[str, str] = {
    "gruff": "Yes, yes, hello. What do you need?",
    "cheerful": "Hello, hello! Don't be shy, the buns won't bite.",
    "wise": "Hello again, child. What brings you to me?",
    "quiet": "...Hi.",
    "curious": "Hi! Hi! So, have you? Seen a dragon, I mean?",
    "shrewd": "Greetings again, friend! Browsing, or buying?",
}
_EMOTES: dict[str, tuple[str, ...]] = {
    "gruff": ("shake_head", "nod", "think"),
    "cheerful": ("laugh", "wave", "nod"),
    "wise": ("think", "nod"),
    "quiet": ("nod", "think"),
    "curious": ("laugh", "think", "wave"),
    "shrewd": ("laugh", "nod", "think"),
}
_DIRECTIONS = ("up", "down", "left", "right")
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}
MAX_PLAN = 3
_PLAYER_TRIGGERS = ("player_message", "player_near")  # the player spoke or came near

Action = tuple[str, dict[str, Any]]


@dataclass
class Situation:
    """What the scripted brain reads from one request."""

    npc_id: str
    name: str
    persona: str
    greeting: str
    kind: str
    text: str  # the trigger's text (seeds the plan)
    perception: str  # the perception as written for models (seeds the plan)
    home: str
    turn: int
    nearby: list[str] = field(default_factory=list)  # names, nearest first
    place: str | None = None  # the named place the NPC stands in
    speaker: str | None = None  # who spoke, for heard speech
    said: str = ""  # what they said
    met: bool = False  # the player spoke to or came up to this NPC before
    talks: int = 0  # how many earlier triggers were the player speaking

    @property
    def mood(self) -> str:
        """The persona's mood."""
        return mood_of(self.persona)

    @property
    def at_home(self) -> bool:
        """Whether the NPC stands at its home place."""
        return bool(self.home) and self.place == self.home


def situation_of(request: ProviderRequest) -> Situation:
    """Read who is asked, why, and what it perceives, from the request's facts.

    A request without trigger facts (made by hand, not by the context builder) reads as
    the player saying the newest user message.
    """
    npc = request.npc if request.npc is not None else NpcFacts(npc_id="", name="Someone")
    trigger = request.trigger
    if trigger is None:
        said = _last_user_text(request.messages)
        kind = "player_message" if any(m.role == "user" for m in request.messages) else "none"
        text, perception, speaker, earlier = said, "", None, []
        sensed = None
    else:
        kind, text, perception = trigger.kind, trigger.text, trigger.perception or ""
        said = trigger.said if trigger.said is not None else trigger.text
        speaker, earlier, sensed = trigger.speaker, trigger.earlier_kinds, trigger.sensed
    return Situation(
        npc_id=npc.npc_id,
        name=npc.name,
        persona=npc.persona,
        greeting=npc.greeting,
        kind=kind,
        text=text,
        perception=perception,
        home=npc.home,
        turn=_turn_of(request.messages),
        nearby=[s.name for s in sensed.nearby if s.name] if sensed is not None else [],
        place=sensed.place if sensed is not None else None,
        speaker=speaker,
        said=said,
        met=any(k in _PLAYER_TRIGGERS for k in earlier),
        talks=sum(1 for k in earlier if k == "player_message"),
    )


def _turn_of(messages: list[Message]) -> int:
    """How many exchanges came before the newest trigger (its user message)."""
    users = sum(1 for m in messages if m.role == "user")
    return max(0, users - 1)


def _say(text: str, target: str | None = None) -> Action:
    args: dict[str, Any] = {"text": text[:200]}
    if target:
        args["target"] = target
    return ("say", args)


def plan_for(s: Situation) -> list[Action]:
    """The skill calls of one turn, in order; a pure function of the situation."""
    rng = random.Random(_seed(s.npc_id or s.name, s.kind, str(s.turn), s.text, s.perception))
    mood = s.mood
    if s.kind == "player_message":
        said = s.said.lower()
        turn = max(1, s.turn) if s.met else 0
        reply = reply_for(s.name, s.persona, s.greeting, s.said, turn, s.home)
        if any(w in said for w in _FAREWELL):
            return [_say(reply, "player"), ("emote", {"name": "wave"})]
        hello = any(re.search(rf"\b{w}\b", said) for w in _GREETING) and len(said) < 30
        if turn == 0 and (not said or hello):
            return [_say(reply, "player"), ("emote", {"name": "wave"})]
        if hello:  # greeted already: no second greeting speech
            return [_say(_HELLO_AGAIN[mood], "player")]
        if s.talks and mood in _ASKS and "?" not in said and rng.random() < 0.4:
            question, answers = _ASKS[mood]
            options = [o for o, _ in answers]
            return [
                _say(reply, "player"),
                ("ask", {"question": question, "options": options}),
                ("_react", {"answers": dict(answers)}),
            ]
        return [_say(reply, "player")]
    if s.kind == "heard":
        reply = reply_for(s.name, s.persona, "", s.said, max(1, s.turn), s.home)
        plan: list[Action] = [_say(reply, s.speaker)]
        if rng.random() < 0.3:
            plan.insert(0, ("emote", {"name": "nod"}))
        return plan
    if s.kind == "player_near":
        line = s.greeting if not s.met and s.greeting else _AGAIN[mood]
        return [("emote", {"name": "wave"}), _say(line, "player")]
    if s.kind != "idle":
        return []
    return _idle_plan(s, rng)


def _idle_plan(s: Situation, rng: random.Random) -> list[Action]:
    mood = s.mood
    emote: Action = ("emote", {"name": rng.choice(_EMOTES[mood])})
    roll = rng.random()
    if s.home and not s.at_home and roll < 0.3:
        return [("move", {"to": s.home}), emote]
    if roll < 0.55:
        step: Action = (
            "move",
            {"direction": rng.choice(_DIRECTIONS), "steps": rng.randint(1, 3)},
        )
        after = rng.random()
        if after < 0.3:
            return [step, emote]
        if after < 0.45:
            return [step, ("look", {})]
        return [step]
    if roll < 0.7:
        return [emote]
    if roll < 0.78:
        return [("look", {"at": s.home} if s.home and rng.random() < 0.5 else {})]
    if roll < 0.85:
        return [("wait", {"seconds": float(rng.randint(2, 5))})]
    line = rng.choice(_IDLE_LINES[mood])
    who = s.nearby[0] if s.nearby else None
    if "{who}" in line:
        if who is None:
            return [emote]
        return [_say(line.format(who=who), who)]
    return [_say(line)]


def next_action(request: ProviderRequest) -> Action | None:
    """The call to make at this step of the turn, or None when the turn is over."""
    s = situation_of(request)
    plan = plan_for(s)
    # The results since the trigger say how far the plan went. A model reads a failed move
    # and corrects it: the first time it tries the opposite way, then it gives up with a
    # shake of the head and the turn ends.
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
        action = plan[done] if done < len(plan) else ("", {})
        done += 1
        if result.is_error and action[0] == "move":
            back = _OPPOSITE.get(str(action[1].get("direction")))
            if back is not None and not retried:
                retried = True
                plan = [*plan[:done], ("move", {"direction": back, "steps": 2}), *plan[done:]]
            else:
                plan = [*plan[:done], ("emote", {"name": "shake_head"})]
    if done >= min(len(plan), MAX_PLAN + 1):
        return None
    name, args = plan[done]
    if name == "_react":  # answer the player's pick of the question just asked
        last = results[-1] if results else None
        if last is None or last.is_error:
            return None
        chose = (last.data or {}).get("choice", "")
        reaction = args["answers"].get(chose)
        return _say(reaction, "player") if reaction else None
    return plan[done]


def _last_user_text(messages: list[Message]) -> str:
    """The newest user message as it stands (a hand-made request: nothing to parse)."""
    for msg in reversed(messages):
        if msg.role == "user":
            return msg.content.strip()
    return ""


class PersonaProvider:
    """Answers like a model would, from the persona alone; deterministic and offline."""

    name = "scripted"
    model = "persona"

    def __init__(self, *, delay_s: float = 0.03, chunk: int = CHUNK) -> None:
        self.delay_s = delay_s
        self.chunk = chunk

    async def aclose(self) -> None:
        """Nothing to release."""

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """Stream one step: the plan's next skill call, plain text, or the end of the turn."""
        tool_names = {t.name for t in request.tools}
        if not tool_names:
            async for event in self._text(request):
                yield event
            return
        action = next_action(request)
        while action is not None and action[0] not in tool_names:
            action = None  # a skill this NPC does not have: end quietly
        if action is None:
            yield Usage(input_tokens=_estimate(request), output_tokens=1)
            yield Done(stop_reason="stop")
            return
        name, args = action
        step = sum(1 for m in request.messages if m.role == "tool")
        call_id = f"call_{_seed(json.dumps(args, sort_keys=True), str(step)):08x}"
        text = json.dumps(args, ensure_ascii=False)
        yield ToolCallStart(index=0, id=call_id, name=name)
        chunk = self.chunk if name == "say" else len(text)
        for i in range(0, len(text), chunk):
            yield ToolCallArgsDelta(index=0, delta=text[i : i + chunk])
            if name == "say":
                await asyncio.sleep(self.delay_s)  # even 0 lets the world step between pieces
        yield ToolCallDone(index=0, id=call_id, name=name, arguments=text)
        yield Usage(input_tokens=_estimate(request), output_tokens=max(1, len(text) // 4))
        yield Done(stop_reason="tool_calls")

    async def _text(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        """No skills offered: answer the last thing said in plain text."""
        s = situation_of(request)
        text = reply_for(s.name, s.persona, s.greeting, s.said, s.turn, s.home)
        for i in range(0, len(text), self.chunk):
            yield TextDelta(text=text[i : i + self.chunk])
            await asyncio.sleep(self.delay_s)
        yield Usage(input_tokens=_estimate(request), output_tokens=max(1, len(text) // 4))
        yield Done(stop_reason="stop")


def _estimate(request: ProviderRequest) -> int:
    size = len(request.system) + sum(len(m.content) for m in request.messages)
    return max(1, size // 4)
