"""The one seam where an NPC decides what to do next: a `Mind`, and its adapter.

A mind is a plain function of the provider request (who the NPC is, why it thinks, what
its turn did so far) to its next step: a `SkillCall` (validated by the skill's argument
model), a `Speech` (plain text, when no skills are offered), or None when the turn is
over. `MindProvider` wraps a mind as a provider, the way a function model stands in for
a language model: each step of a turn asks the mind and streams what it decided as
provider events, so the runtime runs it through the same skills a model's calls take.
The persona brain (`game.npc.scripted.persona.decide`) is the mind of `--provider
scripted` and the fallback of every other provider. Where the other providers decide:
docs/architecture.md, "Where an NPC decides what to do".
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass

from game.agent.providers.base import (
    Done,
    Provider,
    ProviderEvent,
    ProviderRequest,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
    Usage,
)
from game.agent.providers.registry import Capabilities
from game.npc.seeds import seed_of
from game.npc.skills import SkillCall

__all__ = ["CHUNK", "Decision", "Mind", "MindProvider", "Speech"]

CHUNK = 3  # characters of speech streamed at a time, so bubbles grow as with a model


@dataclass(frozen=True)
class Speech:
    """Plain text said as the turn's answer (a request that offers no skills)."""

    text: str


# What a mind decides for one step of a turn.
Decision = SkillCall | Speech
# A way of thinking: the next step of the turn the request is at; None: the turn is over.
Mind = Callable[[ProviderRequest], Decision | None]


class MindProvider(Provider):
    """A provider whose answer is a mind's decision, streamed as a model would stream it.

    `name`, `model` and `capabilities` left out stay the class's (a subclass declares them).
    """

    def __init__(
        self,
        mind: Mind,
        *,
        name: str | None = None,
        model: str | None = None,
        capabilities: Capabilities | None = None,
        delay_s: float = 0.03,
        chunk: int = CHUNK,
    ) -> None:
        self.mind = mind
        if name is not None:
            self.name = name
        if model is not None:
            self.model = model
        if capabilities is not None:
            self.capabilities = capabilities
        self.delay_s = delay_s
        self.chunk = chunk

    async def aclose(self) -> None:
        """Nothing to release."""

    async def stream(self, request: ProviderRequest) -> AsyncGenerator[ProviderEvent, None]:
        """Stream one step: the mind's next skill call, its plain text, or the turn's end."""
        decision = self.mind(request)
        if isinstance(decision, Speech):
            async for event in self._text(request, decision.text):
                yield event
            return
        if decision is not None and decision.name not in {t.name for t in request.tools}:
            decision = None  # a skill this NPC does not have: end quietly
        if decision is None:
            yield Usage(input_tokens=_estimate(request), output_tokens=1)
            yield Done(stop_reason="stop")
            return
        name, args = decision.name, decision.arguments()
        step = sum(1 for m in request.messages if m.role == "tool")
        call_id = f"call_{seed_of(json.dumps(args, sort_keys=True), str(step)):08x}"
        text = json.dumps(args, ensure_ascii=False)
        yield ToolCallStart(index=0, id=call_id, name=name)
        speaks = decision.skill.on_stream is not None  # its speech streams into the bubble
        chunk = self.chunk if speaks else len(text)
        for i in range(0, len(text), chunk):
            yield ToolCallArgsDelta(index=0, delta=text[i : i + chunk])
            if speaks:
                await asyncio.sleep(self.delay_s)  # even 0 lets the world step between pieces
        yield ToolCallDone(index=0, id=call_id, name=name, arguments=text)
        yield Usage(input_tokens=_estimate(request), output_tokens=max(1, len(text) // 4))
        yield Done(stop_reason="tool_calls")

    async def _text(
        self, request: ProviderRequest, text: str
    ) -> AsyncGenerator[ProviderEvent, None]:
        for i in range(0, len(text), self.chunk):
            yield TextDelta(text=text[i : i + self.chunk])
            await asyncio.sleep(self.delay_s)
        yield Usage(input_tokens=_estimate(request), output_tokens=max(1, len(text) // 4))
        yield Done(stop_reason="stop")


def _estimate(request: ProviderRequest) -> int:
    size = len(request.system) + sum(len(m.content) for m in request.messages)
    return max(1, size // 4)
