"""The context builder: rebuild the provider input of one NPC from its event log.

The request is a stable prefix (persona, rules of character, world summary, NPC summary,
skill descriptions; byte-identical between turns so prompt caches hit) followed by the
newest whole exchanges of the history that fit a token budget. History starts after the
newest `summary` event's `upto_seq` (compaction keeps the newest events after it); the
caller passes its text in `npc_summary`. Player text never goes into the system prompt;
how each exchange reads is `game.agent.render`'s. The request also carries typed facts
for the providers that plan (`npc`: the profile; `trigger`: the newest trigger event's
facts and the kinds of the earlier triggers in the window).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pydantic import BaseModel, Field, SerializeAsAny, model_validator

from game.agent.events import TRIGGER_PRIORITY, EventBase, SummaryEvent
from game.agent.facts import NpcFacts
from game.agent.providers.base import Message, ProviderRequest, RequestOptions, ToolSpec
from game.agent.render import (
    DEFAULT_RULES,
    convert,
    message_tokens,
    tool_tokens,
    trigger_facts,
    trigger_kind,
)
from game.tokens import estimate_tokens

__all__ = ["ContextBuilder", "NpcProfile", "visible_events"]

# Hot paths compare `event.type`: isinstance on pydantic models is several times slower.
_TRIGGER_TYPES = frozenset({"user.message", "world.observation"})
_NO_TRIGGER_PRIORITY = 20  # of a request whose window holds no trigger: above an idle tick


class NpcProfile(BaseModel):
    """Who an NPC is: the stable part of its prompt, and its facts for the providers."""

    npc_id: str
    name: str
    persona: str
    greeting: str = ""
    extra: dict[str, str] = Field(default_factory=dict)
    # The same NPC as the game's facts (its subclass of NpcFacts), carried as they are;
    # None: the fields above.
    facts: SerializeAsAny[NpcFacts] | None = None

    @model_validator(mode="after")
    def _same_npc(self) -> NpcProfile:
        if self.facts is not None and self.facts.npc_id != self.npc_id:
            raise ValueError(f"facts of {self.facts.npc_id!r} in the profile of {self.npc_id!r}")
        return self

    def request_facts(self) -> NpcFacts:
        """Who the NPC is, as the request carries it."""
        if self.facts is not None:
            return self.facts
        return NpcFacts(
            npc_id=self.npc_id, name=self.name, persona=self.persona, greeting=self.greeting
        )


def visible_events(
    events: Sequence[EventBase], summary: SummaryEvent | bool | None = True
) -> Sequence[EventBase]:
    """The events replay uses: those after the newest summary's `upto_seq`.

    What came before is told by the summary's text, which goes into the system prompt.
    `summary` is that event when the caller knows it (None: there is none); True finds it.
    """
    if summary is True:
        index = len(events) - 1
        while index >= 0 and events[index].type != "summary":
            index -= 1
        summary = cast(SummaryEvent, events[index]) if index >= 0 else None
    if not isinstance(summary, SummaryEvent):
        return events
    upto = summary.upto_seq
    return [e for e in events if e.seq > upto and e.type != "summary"]


class ContextBuilder:
    """Builds `ProviderRequest`s from an NPC's profile, its events and the tools."""

    def __init__(
        self,
        *,
        history_token_budget: int = 2000,
        rules: str = DEFAULT_RULES,
        max_output_tokens: int = 256,
        temperature: float = 0.7,
        model: str | None = None,
        cache_size: int = 4096,
    ) -> None:
        self.history_token_budget = history_token_budget
        self.rules = rules
        self.max_output_tokens = max_output_tokens
        self.temperature = temperature
        self.model = model
        # Converted exchanges, keyed by id(first event). Messages are shared between
        # requests: providers must treat `request.messages` as read-only.
        self.cache_size = cache_size
        self._cache: dict[int, _Exchange] = {}
        self._npcs: dict[str, tuple[NpcProfile, NpcFacts]] = {}

    def system_prompt(
        self,
        profile: NpcProfile,
        tools: Sequence[ToolSpec],
        *,
        world_summary: str = "",
        npc_summary: str = "",
    ) -> str:
        """The stable prefix: the same inputs always give the same bytes."""
        parts = [f"You are {profile.name}.", profile.persona.strip()]
        if profile.extra:
            parts.append("\n".join(f"- {k}: {v}" for k, v in sorted(profile.extra.items())))
        if profile.greeting:
            parts.append(f"You usually greet people with: {profile.greeting}")
        parts.append(f"# Rules of character\n{self.rules.strip()}")
        if world_summary.strip():
            parts.append(f"# The world\n{world_summary.strip()}")
        if npc_summary.strip():
            parts.append(f"# What you remember\n{npc_summary.strip()}")
        if tools:
            skills = "\n".join(f"- {t.name}: {t.description}" for t in tools)
            parts.append(f"# Your skills\n{skills}")
        return "\n\n".join(p for p in parts if p)

    def build(
        self,
        profile: NpcProfile,
        events: Sequence[EventBase],
        tools: list[ToolSpec],
        *,
        world_summary: str = "",
        npc_summary: str = "",
        summary: SummaryEvent | bool | None = True,
    ) -> ProviderRequest:
        """The provider input for the NPC's next step, rebuilt from its events.

        `summary`: the NPC's newest summary event if the caller knows it (None: none),
        else True to look for it in `events`.
        """
        messages, trigger, earlier, history_tokens = self._history(visible_events(events, summary))
        system = self.system_prompt(
            profile, tools, world_summary=world_summary, npc_summary=npc_summary
        )
        facts = trigger_facts(trigger, earlier) if trigger is not None else None
        kind = facts.kind if facts is not None else "none"
        options = RequestOptions(
            priority=TRIGGER_PRIORITY.get(kind, _NO_TRIGGER_PRIORITY),
            estimated_input_tokens=estimate_tokens(system)
            + history_tokens
            + sum(tool_tokens(t) for t in tools),
        )
        return ProviderRequest(
            system=system,
            messages=messages,
            tools=list(tools),
            model=self.model,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            npc=self._npc_facts(profile),
            trigger=facts,
            options=options,
        )

    def _npc_facts(self, profile: NpcProfile) -> NpcFacts:
        """The profile's facts, made once per profile (requests share them: read-only)."""
        known = self._npcs.get(profile.npc_id)
        if known is None or known[0] is not profile:
            known = self._npcs[profile.npc_id] = (profile, profile.request_facts())
        return known[1]

    def _history(
        self, events: Sequence[EventBase]
    ) -> tuple[list[Message], EventBase | None, list[str], int]:
        """Newest whole exchanges within the budget (the newest is always kept), the newest
        trigger, the kinds of the earlier triggers in the window, and the tokens.

        An exchange is a trigger (player message or world observation) and what followed
        it up to the next trigger. Older exchanges are added newest first while they fit
        the budget; the window never starts with a partial exchange. `events` holds no
        summary (`visible_events` dropped it and what it covers).
        """
        start = len(events) - 1
        while start >= 0 and events[start].type not in _TRIGGER_TYPES:
            start -= 1
        if start < 0:
            return [], None, [], 0
        newest = self._exchange(events, start, len(events), newest=True)
        room = self.history_token_budget - newest.tokens
        older, used = self._older(events, start, newest, room)
        # `_older` leaves the newest exchange's chain holding exactly the older exchanges
        # in the window, newest first.
        chain = newest.chain
        earlier = [entry.kind for entry in reversed(chain.entries)] if chain is not None else []
        return older + newest.messages, events[start], earlier, used + newest.tokens

    def _older(
        self, events: Sequence[EventBase], start: int, newest: _Exchange, room: int
    ) -> tuple[list[Message], int]:
        """The exchanges before events[start] that fit `room`, as messages, and their tokens.

        Each step of a turn asks again for the same older exchanges, and each turn for those
        of the previous turn plus one: the chain of older exchanges is kept on the newest
        exchange (seeded from the previous exchange's chain), checked against the list by
        identity, cut to the budget, and extended when more may fit.
        """
        chain = newest.chain
        if chain is None or not chain.matches(events, start):
            chain = newest.chain = self._seed(events, start, newest)
        count = 0
        for offset, total in zip(chain.offsets, chain.totals, strict=True):
            if offset > start or total > room:
                # The list starts inside this exchange (the rest of it holds no trigger),
                # or it does not fit: the chain needs nothing older.
                chain.keep(count)
                return chain.flat()
            count += 1
        return self._grow(chain, events, start, newest, room)

    def _seed(self, events: Sequence[EventBase], start: int, newest: _Exchange) -> _Chain:
        """A chain for a new newest exchange: the previous exchange plus its own chain."""
        previous = self._previous(events, start, newest)
        if previous < 0:
            return _Chain()
        entry = self._exchange(events, previous, start, newest=False)
        inherited = entry.chain
        if inherited is not None and inherited.matches(events, previous):
            return _Chain.joined(entry, inherited)
        return _Chain.joined(entry, _Chain())

    def _grow(
        self,
        chain: _Chain,
        events: Sequence[EventBase],
        start: int,
        newest: _Exchange,
        room: int,
    ) -> tuple[list[Message], int]:
        """Add older exchanges to a chain that all fit, while the next one fits too."""
        used = chain.totals[-1] if chain.totals else 0
        position = start - chain.offsets[-1] if chain.offsets else start
        current = chain.entries[-1] if chain.entries else newest
        while position > 0:
            previous = self._previous(events, position, current)
            if previous < 0:
                break
            entry = self._exchange(events, previous, position, newest=False)
            if used + entry.tokens > room:
                break
            used += entry.tokens
            chain.push_older(entry)
            current, position = entry, previous
        return chain.flat()

    def _exchange(
        self, events: Sequence[EventBase], start: int, end: int, *, newest: bool
    ) -> _Exchange:
        """The exchange events[start:end], converted once and cached: old ones never change."""
        first = events[start]
        span = list(events[start:end])
        known = self._cache.get(id(first))
        if known is not None and known.events[0] is not first:
            known = None  # an id reused after its entry left the cache
        # List equality checks identity first: cheap for the same event objects.
        if known is not None and known.newest == newest and known.events == span:
            return known
        reuse: list[Message | None] = []
        if known is not None and span[: len(known.events)] == known.events:
            # The exchange grew, or lost its perception: convert only what changed.
            reuse = known.made if known.newest == newest else [None, *known.made[1:]]
        messages, made = convert(span, newest=newest, reuse=reuse)
        entry = _Exchange(span, newest, messages, made)
        if known is not None:
            # The newest exchange grew, or an older one lost its perception: entries are
            # never changed (chains hold them), but what lies before them is the same.
            entry.back, entry.chain = known.back, known.chain
        elif len(self._cache) >= self.cache_size:
            del self._cache[next(iter(self._cache))]
        self._cache[id(first)] = entry
        return entry

    @staticmethod
    def _previous(events: Sequence[EventBase], start: int, entry: _Exchange) -> int:
        """Where the exchange before events[start] starts, or _AT_START."""
        if entry.back is not None:
            distance, marker = entry.back
            index = start - distance
            # The nearest boundary before an event never changes in a log.
            if index >= 0 and events[index] is marker:
                return index
        index = start - 1
        while index >= 0 and events[index].type not in _TRIGGER_TYPES:
            index -= 1
        if index < 0:
            return _AT_START  # no trigger before: the list starts inside an exchange
        marker = events[index]
        entry.back = (start - index, marker)
        return index


_AT_START = -1


class _Exchange:
    """One converted exchange (never changed once built) and what is known before it."""

    __slots__ = ("back", "chain", "events", "kind", "made", "messages", "newest", "tokens")

    def __init__(
        self,
        events: list[EventBase],
        newest: bool,
        messages: list[Message],
        made: list[Message | None],
    ) -> None:
        # The events themselves validate a cache hit, and holding the first keeps its id
        # from being reused while the entry is cached.
        self.events = events
        self.kind = trigger_kind(events[0])  # the kind of the trigger that opens it
        self.newest = newest
        self.messages = messages
        self.made = made  # the message of each event, for reuse when the exchange grows
        self.tokens = sum(message_tokens(m) for m in messages)
        # (distance back, event) of the nearest trigger or summary before this exchange.
        self.back: tuple[int, EventBase] | None = None
        # The older exchanges seen from this one while it was the newest.
        self.chain: _Chain | None = None


class _Chain:
    """Older exchanges, newest first, with their running offsets and tokens.

    `span` is every event the chain covers, in log order: comparing it with the list
    (identity first) proves the chain still describes that list.
    """

    __slots__ = ("_flat", "entries", "offsets", "span", "totals")

    def __init__(self) -> None:
        self.entries: list[_Exchange] = []
        self.offsets: list[int] = []  # events back from the newest trigger to each start
        self.totals: list[int] = []
        self.span: list[EventBase] = []
        self._flat: tuple[int, list[Message]] = (-1, [])

    @classmethod
    def joined(cls, entry: _Exchange, older: _Chain) -> _Chain:
        """`entry` followed (further back) by the exchanges of `older`."""
        chain = cls()
        size = len(entry.events)
        chain.entries = [entry, *older.entries]
        chain.offsets = [size, *(offset + size for offset in older.offsets)]
        chain.totals = [entry.tokens, *(total + entry.tokens for total in older.totals)]
        chain.span = older.span + entry.events
        return chain

    def push_older(self, entry: _Exchange) -> None:
        """Add the next older exchange."""
        self.entries.append(entry)
        self.offsets.append((self.offsets[-1] if self.offsets else 0) + len(entry.events))
        self.totals.append((self.totals[-1] if self.totals else 0) + entry.tokens)
        self.span[:0] = entry.events
        self._flat = (-1, [])

    def keep(self, count: int) -> None:
        """Forget all but the `count` newest entries."""
        if count < len(self.entries):
            covered = self.offsets[count - 1] if count else 0
            del self.entries[count:], self.offsets[count:], self.totals[count:]
            self.span = self.span[len(self.span) - covered :] if covered else []
            self._flat = (-1, [])

    def matches(self, events: Sequence[EventBase], start: int) -> bool:
        """True if the events before events[start] are (the end of) this chain's span."""
        overlap = min(len(self.span), start)
        if overlap == 0:
            return True
        return list(events[start - overlap : start]) == self.span[-overlap:]

    def flat(self, count: int | None = None) -> tuple[list[Message], int]:
        """The messages of the `count` newest entries in log order, and their tokens."""
        count = len(self.entries) if count is None else count
        if self._flat[0] != count:
            messages = [m for entry in reversed(self.entries[:count]) for m in entry.messages]
            self._flat = (count, messages)
        return self._flat[1], self.totals[count - 1] if count else 0
