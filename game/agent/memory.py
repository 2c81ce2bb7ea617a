"""Long sessions: compaction of old history into a summary, and a context that honours it.

When the unsummarised history of an NPC grows past `budget_tokens`, `Compactor` folds
every exchange but the newest ones (those within `keep_tokens`) into a summary: written
by the provider when it is a remote model, else extractive (who said what, in a few
lines). The text goes to `npcs/<id>/memory/summary.txt` and into a `summary` event whose
`upto_seq` is the last folded event. The log is never rewritten: raw events stay on disk.

`MemoryContextBuilder` is the `ContextBuilder` that reads such logs: the newest summary
hides the events it covers (`seq <= upto_seq`) and nothing else, so the provider input is
the summary (in the system prompt, as "What you remember") plus the newest exchanges.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from game.agent.bus import BusEvent
from game.agent.events import (
    AssistantMessage,
    EventBase,
    SummaryEvent,
    ToolResultEvent,
    UserMessage,
    WorldObservation,
)
from game.agent.providers.base import Message, Provider, ProviderRequest, RequestOptions
from game.agent.render import convert_exchange, message_tokens
from game.agent.tools import ToolRegistry
from game.atomic import write_atomic
from game.files import read_summary
from game.paths import npc_memory_file

__all__ = [
    "CompactionPlan",
    "Compactor",
    "extractive_summary",
    "plan_compaction",
    "said_in",
    "summarizer_for",
    "transcript_lines",
]

log = logging.getLogger(__name__)

_TRIGGERS = frozenset({"user.message", "world.observation"})
_LINE_CHARS = 100

SUMMARY_PROMPT = """\
You keep the memory of {name}, a character in a story. Below is what {name} remembers \
already and a transcript of what happened since. Write {name}'s updated memory in at most \
{lines} short lines, in the second person ("You ..."): who said what, promises, names, \
facts worth remembering. Plain lines only, no preamble."""


class CompactionPlan:
    """What to fold: the exchanges (events) before the kept ones, the prior summary."""

    def __init__(
        self, fold: list[EventBase], upto_seq: int, prior: str, tokens: int, kept: int
    ) -> None:
        self.fold = fold
        self.upto_seq = upto_seq
        self.prior = prior
        self.tokens = tokens
        self.kept = kept


def _exchanges(events: Sequence[EventBase]) -> list[list[EventBase]]:
    """Split events at triggers; events before the first trigger form their own group."""
    groups: list[list[EventBase]] = []
    for event in events:
        if event.type in _TRIGGERS or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    return groups


def _tokens(group: list[EventBase]) -> int:
    return sum(message_tokens(m) for m in convert_exchange(group, newest=False))


def plan_compaction(
    events: Sequence[EventBase], budget_tokens: int, keep_tokens: int
) -> CompactionPlan | None:
    """A plan if the unsummarised history passes `budget_tokens`, else None."""
    prior = ""
    floor = 0
    for event in reversed(events):
        if event.type == "summary":
            summary = cast(SummaryEvent, event)
            prior, floor = summary.text, summary.upto_seq
            break
    live = [e for e in events if e.seq > floor and e.type != "summary"]
    groups = _exchanges(live)
    sizes = [_tokens(g) for g in groups]
    total = sum(sizes)
    if total <= budget_tokens or len(groups) < 2:
        return None
    kept, used = 1, sizes[-1]
    while kept < len(groups) - 1 and used + sizes[-kept - 1] <= keep_tokens:
        used += sizes[-kept - 1]
        kept += 1
    first_kept = groups[-kept][0]
    if first_kept.type not in _TRIGGERS:
        return None  # the log starts mid-exchange and there is nothing to fold
    fold = [e for g in groups[:-kept] for e in g]
    return CompactionPlan(fold, first_kept.seq - 1, prior, total, kept)


def _clip(text: str, limit: int = _LINE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def said_in(event: AssistantMessage, spoken: Mapping[str, str]) -> list[str]:
    """What the character said in one response: its text, and what its speaking calls said
    (`spoken`: tool name -> the argument said out loud, `ToolRegistry.spoken`)."""
    said = [event.text] if event.text.strip() else []
    for call in event.tool_calls:
        field = spoken.get(call.name)
        text = call.parsed().get(field) if field else None
        if isinstance(text, str):
            said.append(text)
    return said


def transcript_lines(events: Sequence[EventBase], tools: ToolRegistry) -> list[str]:
    """One line per thing worth remembering: the player's words, what was heard and said,
    what was done (the calls of `tools` that act in the world)."""
    spoken, acting = tools.spoken(), tools.acting()
    lines: list[str] = []
    for event in events:
        if isinstance(event, UserMessage):
            lines.append(f'The player said: "{_clip(event.text)}"')
        elif isinstance(event, WorldObservation):
            if event.kind == "heard":
                lines.append(f"You noticed: {_clip(event.text)}")
        elif isinstance(event, AssistantMessage):
            for text in said_in(event, spoken):
                lines.append(f'You said: "{_clip(text)}"')
        elif isinstance(event, ToolResultEvent):
            if event.name in acting and not event.is_error:
                lines.append(f"You did: {_clip(event.content, 100)}")
    return lines


# What goes first when a summary is too long: the NPC's own words, then what it noticed or
# did, then the player's words; lines of any other kind (a hand-written memory) stay.
_DROP_ORDER = (("- You said:", 0), ("- You noticed:", 1), ("- You did:", 1), ("- The player", 2))


def _rank(line: str) -> int:
    return next((rank for prefix, rank in _DROP_ORDER if line.startswith(prefix)), 3)


def extractive_summary(
    prior: str, events: Sequence[EventBase], tools: ToolRegistry, max_chars: int = 3000
) -> str:
    """The prior summary plus one line per remembered event, within `max_chars`.

    When it does not fit, lines go least important first (the NPC's own words before the
    player's), oldest first within a kind.
    """
    old = [line.strip() for line in prior.splitlines() if line.strip()]
    if old and old[0].startswith("Earlier"):
        old = old[1:]
    lines: list[str] = []
    for line in [*old, *(f"- {line}" for line in transcript_lines(events, tools))]:
        if not lines or lines[-1] != line:
            lines.append(line)
    size = sum(len(line) + 1 for line in lines)
    keep = [True] * len(lines)
    for index in sorted(range(len(lines)), key=lambda i: (_rank(lines[i]), i)):
        if size <= max_chars:
            break
        keep[index] = False
        size -= len(lines[index]) + 1
    kept = [line for line, k in zip(lines, keep, strict=True) if k]
    dropped = len(lines) - len(kept)
    head = "Earlier (summarised):" if not dropped else f"Earlier ({dropped} lines let go):"
    return "\n".join([head, *kept])


class Compactor:
    """Watches turns end and compacts an NPC's history when it passes its budget.

    It compacts in the runtime's current slot (`runtime.slot`, read when a turn ends), on
    the agent loop; `AgentRuntime.start_compaction` makes the runtime's own.
    """

    def __init__(
        self,
        runtime: Any,
        *,
        budget_tokens: int = 3000,
        keep_tokens: int = 1200,
        summarizer: Provider | None = None,
        max_chars: int = 3000,
        timeout_s: float = 30.0,
    ) -> None:
        self.runtime = runtime
        self.budget_tokens = budget_tokens
        self.keep_tokens = keep_tokens
        self.summarizer = summarizer
        self.max_chars = max_chars
        self.timeout_s = timeout_s
        self._busy: set[tuple[str, str]] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    def attach(self) -> Callable[[], None]:
        """Check an NPC after each of its turns; returns a function that detaches."""
        return cast(Callable[[], None], self.runtime.bus.subscribe(self._on_bus))

    async def wait_idle(self) -> None:
        """Wait until the compactions started so far have finished."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _on_bus(self, event: BusEvent) -> None:
        if event.kind != "turn_finished":
            return
        slot: str = self.runtime.slot
        key = (slot, event.npc_id)
        if key in self._busy:
            return
        self._busy.add(key)
        task = asyncio.get_running_loop().create_task(self._run(slot, event.npc_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, slot: str, npc_id: str) -> None:
        try:
            await self.maybe_compact(slot, npc_id)
        except Exception:
            log.exception("compaction of %s failed", npc_id)
        finally:
            self._busy.discard((slot, npc_id))

    async def maybe_compact(self, slot: str, npc_id: str) -> SummaryEvent | None:
        """Compact the NPC's history if it passed the budget; the new summary event or None."""
        store = self.runtime.store(slot)
        plan = plan_compaction(store.recent(npc_id), self.budget_tokens, self.keep_tokens)
        if plan is None:
            return None
        prior = plan.prior or self._memory_file(slot, npc_id)
        text = await self._summarise(slot, npc_id, prior, plan.fold)
        path = self._memory_path(slot, npc_id)
        try:
            _write_text(path, text + "\n")
        except OSError as exc:
            log.warning("could not write %s: %s", path, exc)
        event = store.append(npc_id, SummaryEvent(text=text, upto_seq=plan.upto_seq))
        try:
            store.flush_npc(npc_id)
        except OSError as exc:
            log.warning("could not write the session of %s: %s", npc_id, exc)
        # summary.txt now holds the same text as the event: inject it once, not twice.
        self.runtime.set_npc_summary(slot, npc_id, "")
        log.info(
            "compacted %s: %d tokens, %d events folded up to seq %d",
            npc_id,
            plan.tokens,
            len(plan.fold),
            plan.upto_seq,
        )
        return cast(SummaryEvent, event)

    def _memory_path(self, slot: str, npc_id: str) -> Path:
        return npc_memory_file(self.runtime.saves_dir, slot, npc_id)

    def _memory_file(self, slot: str, npc_id: str) -> str:
        return read_summary(self._memory_path(slot, npc_id))[0]

    async def _summarise(self, slot: str, npc_id: str, prior: str, fold: list[EventBase]) -> str:
        provider = self.summarizer
        if provider is not None:
            try:
                name = self.runtime.profile(npc_id).name
                text = await asyncio.wait_for(
                    _ask(provider, name, prior, fold, self.runtime.registry, self.max_chars),
                    timeout=self.timeout_s,
                )
            except Exception as exc:  # any failure: the extractive summary never fails
                log.info("summary by the provider failed (%s); using an extractive one", exc)
                text = None
            if text:
                return text[: self.max_chars]
        return extractive_summary(prior, fold, self.runtime.registry, self.max_chars)


async def _ask(
    provider: Provider,
    name: str,
    prior: str,
    fold: list[EventBase],
    tools: ToolRegistry,
    max_chars: int,
) -> str | None:
    """A summary written by the provider, or None if it answered with anything but text.
    Its stream is read to `max_chars` characters at most, then closed."""
    lines = transcript_lines(fold, tools)
    body = f"What {name} remembers:\n{prior or '(nothing yet)'}\n\nSince then:\n" + "\n".join(lines)
    request = ProviderRequest(
        system=SUMMARY_PROMPT.format(name=name, lines=12),
        messages=[Message(role="user", content=body)],
        max_output_tokens=400,
        temperature=0.2,
        options=RequestOptions(purpose="summary"),
    )
    parts: list[str] = []
    size = 0
    stream = provider.stream(request)
    try:
        async for event in stream:
            if event.type == "text_delta":
                parts.append(event.text)
                size += len(event.text)
                if size >= max_chars:
                    break
            elif event.type in ("tool_call_start", "provider_error"):
                return None
            elif event.type == "done":
                break
    finally:
        await stream.aclose()
    return "".join(parts)[:max_chars].strip() or None


def summarizer_for(primary: Provider) -> Provider | None:
    """The provider to write summaries with: the chosen model itself (hand in the primary,
    not its fallback wrapper) when it is remote, else None (extractive summaries)."""
    return primary if primary.capabilities.remote else None


def _write_text(path: Path, text: str) -> None:
    write_atomic(path, text.encode("utf-8"), fsync=False)
