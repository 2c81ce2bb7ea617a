"""The persona-driven scripted brain: a deterministic stand-in for a model.

It reads the NPC's name, persona and greeting from `request.metadata`, answers through
the same skills a model would use, and streams its arguments a few characters at a time
with a short delay, so the village looks alive with no model, key or network. It is the
offline default and the fallback when a real provider fails.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import AsyncIterator

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


def _last_user_text(messages: list[Message]) -> str:
    for msg in reversed(messages):
        if msg.role == "user":
            m = re.search(r'"""(.*?)"""', msg.content, re.S)
            return m.group(1).strip() if m else msg.content.strip()
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
        """Stream one decision: a `say` call (or plain text when no tools are offered)."""
        meta = request.metadata
        messages = request.messages
        if messages and messages[-1].role == "tool":
            # The skill ran; a model would now end its turn without more words.
            yield Usage(input_tokens=_estimate(request), output_tokens=1)
            yield Done(stop_reason="stop")
            return
        turn = sum(1 for m in messages if m.role == "assistant")
        text = reply_for(
            str(meta.get("name", "Someone")),
            str(meta.get("persona", "")),
            str(meta.get("greeting", "")),
            _last_user_text(messages),
            turn,
            str(meta.get("home", "")),
        )
        tool_names = {t.name for t in request.tools}
        if "say" in tool_names:
            call_id = f"call_{_seed(text, str(turn)):08x}"
            yield ToolCallStart(index=0, id=call_id, name="say")
            args = json.dumps({"text": text}, ensure_ascii=False)
            for i in range(0, len(args), self.chunk):
                yield ToolCallArgsDelta(index=0, delta=args[i : i + self.chunk])
                await asyncio.sleep(self.delay_s)
            yield ToolCallDone(index=0, id=call_id, name="say", arguments=args)
        else:
            for i in range(0, len(text), self.chunk):
                yield TextDelta(text=text[i : i + self.chunk])
                await asyncio.sleep(self.delay_s)
        yield Usage(input_tokens=_estimate(request), output_tokens=max(1, len(text) // 4))
        yield Done(stop_reason="tool_calls" if "say" in tool_names else "stop")


def _estimate(request: ProviderRequest) -> int:
    size = len(request.system) + sum(len(m.content) for m in request.messages)
    return max(1, size // 4)
