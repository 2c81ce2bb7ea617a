"""The village's day on the game thread: plans followed, news passed, the board used.

`VillageLife` is driven by `Brain.update` and looks at the world once a game second:

- **Plans.** Each NPC walks (never jumps) to the place its day plan names for the hour, and
  sleeps at home when the plan says so. It leaves its plan for a reason and goes back
  after: while the player talks with it (and `STAY_S` after), to go to an event it heard
  of (from its hour for an hour), or when its own turn walked it elsewhere (`STRAY_S`).
- **Sleep.** A sleeping NPC thinks of nothing on its own. Spoken to, it wakes grumbling:
  its first line starts with a grumble (`woken` in its facts), it stays up while the
  player talks, and it goes back to sleep `STAY_S` after the last word.
- **News.** The player's line in earshot of NPCs becomes news (`game.npc.life.news`), learned
  by the NPC it was said to (told) and any other in earshot. Two awake NPCs who meet pass
  on what the other has not heard from them: the teller gets a `news` cue, and when its
  line (holding the news's key word) is said, everyone in earshot learns it from the
  teller. Every pass is in `world.news.passes`.
- **The notice board.** An NPC passing a notice board reads the posts since it last read
  (learning their news from whoever posted them) and posts one piece the board lacks; a
  merchant with `wares` puts them up once a game week.
- **Feelings.** The player's thanks, praise, sorry and insults move the NPC's feeling
  about the player; news passed warms the listener to the teller.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from game.npc.cues import Sensed
from game.npc.facts import DayFacts, FeelingFact, NewsFact, VillagerFacts
from game.npc.known import villager_facts
from game.npc.life.feelings import NEWS_SHARED, read_feeling
from game.npc.life.news import read_news, tell_line
from game.tokens import estimate_tokens
from game.world.board_use import BOARD_TILES
from game.world.commands import GoTo, MoveTo
from game.world.entities import PLAYER_ID, Npc
from game.world.events import Spoke
from game.world.feelings import word_for
from game.world.news import Heard, How, News
from game.world.perception import DEFAULT_BUDGET, sense
from game.world.plans import Stop
from game.world.tiled import Place
from game.world.world import World

__all__ = ["LOOK_EVERY_S", "VillageLife"]

LOOK_EVERY_S = 1.0  # game seconds between looks at the plans, meetings and boards
STAY_S = 30.0  # an NPC the player spoke to stays (and stays awake) this long after
STRAY_S = 25.0  # a walk of its own elsewhere: back to the plan after this long
NEAR_PLACE = 2  # tiles from a place's edge that still count as being there
TELL_TILES = 4.0  # two NPCs this close meet, and may pass news on
TELL_COOLDOWN_S = 20.0  # between two tellings by one NPC
TELL_WAIT_S = 25.0  # a telling whose line did not come by then is given up
EVENT_HOURS = 1.0  # an NPC who heard of an event is there for this long from its hour
NEWS_IN_FACTS = 6
WEEK_DAYS = 7


@dataclass
class _Npc:
    stray_since: float | None = None  # when it was first seen away from its plan
    woken_until: float = -math.inf
    just_woken: bool = False
    last_told: float = -math.inf
    telling: tuple[str, str, float] | None = None  # (news id, to whom, since)
    read_at: dict[str, int] = field(default_factory=dict)  # board id -> next index to read
    board_day: dict[str, int] = field(default_factory=dict)  # board id -> day last walked by


class VillageLife:
    """Plans, sleep, news, the board and feelings, looked after once a game second."""

    def __init__(
        self,
        world: World,
        *,
        busy: Callable[[str], bool],
        engaged: Callable[[str], bool],
        plans: bool = True,
        walks: bool = True,
    ) -> None:
        self.world = world
        self.plans = plans  # off: NPCs stay where their turns take them, and never sleep (tests)
        # Off: the plans say who sleeps, but nobody walks to them (a talk from the command
        # line, which lasts seconds and keeps no one's place).
        self.walks = walks
        self.busy = busy  # a turn of this NPC is under way
        self.engaged = engaged  # the player is talking with it, or just did
        self.state = {npc_id: _Npc() for npc_id in world.npcs}
        self._next_look = world.clock
        self._profiles: dict[str, VillagerFacts] = {}

    # --- the plan -----------------------------------------------------------------------

    def stop_of(self, npc_id: str) -> Stop | None:
        """Where the NPC's plan has it now (None: it has no plan)."""
        plan = self.world.plans.get(npc_id)
        return plan.stop_at(self.world.day.hour) if plan is not None else None

    def goal_of(self, npc_id: str) -> tuple[str, str]:
        """The place the NPC should be at now and why it is not its plan's ("" if it is)."""
        hour = self.world.day.hour
        for news, _ in self.world.news.known_by(npc_id):
            if news.kind == "event" and news.hour is not None and news.place:
                if 0 <= (hour - news.hour) % 24 < EVENT_HOURS:
                    return news.place, f"to the {news.subject.removeprefix('a ')}"
        stop = self.stop_of(npc_id)
        return (stop.place if stop is not None else ""), ""

    def at_place(self, npc: Npc, place: Place) -> bool:
        """Whether an NPC stands in a place, or within `NEAR_PLACE` tiles of its edge."""
        x, y = npc.tile
        return (
            place.x - NEAR_PLACE <= x < place.x + place.width + NEAR_PLACE
            and place.y - NEAR_PLACE <= y < place.y + place.height + NEAR_PLACE
        )

    def heading_to(self, npc: Npc, place: Place) -> bool:
        """Whether the NPC is walking to a place."""
        if not npc.path:
            return False
        gx, gy = npc.path[-1]
        return place.contains((gx, gy))

    def on_plan(self, npc_id: str) -> bool:
        """Whether the NPC is at, or walking to, where its plan (or its reason) says."""
        npc = self.world.npcs[npc_id]
        goal, _ = self.goal_of(npc_id)
        place = self.world.map.places.get(goal)
        return place is None or self.at_place(npc, place) or self.heading_to(npc, place)

    def _follow(self, npc_id: str, npc: Npc) -> None:
        state = self.state[npc_id]
        clock = self.world.clock
        goal, why = self.goal_of(npc_id)
        place = self.world.map.places.get(goal)
        if place is None:
            return
        stop = self.stop_of(npc_id)
        here = self.at_place(npc, place)
        engaged = self.engaged(npc_id) or clock < state.woken_until
        sleepy = stop is not None and stop.asleep and not why
        # Only being spoken to wakes it (`wake`): the player standing by does not.
        npc.asleep = sleepy and here and clock >= state.woken_until and not self.busy(npc_id)
        if engaged or not self.walks:
            return
        if here or self.heading_to(npc, place):
            state.stray_since = None
            return
        if self.busy(npc_id) and npc.path:
            return  # its own walk, under way: let it arrive
        if state.stray_since is None:
            state.stray_since = clock
        if npc.path and clock - state.stray_since < STRAY_S:
            return
        state.stray_since = None
        board = self._board_in(place, npc_id)
        if board is not None:  # by way of the notice board: read it, post to it
            state.board_day[board] = self.world.day.day
            spot = self.world.grid.nearest_walkable(
                self.world.notice_boards[board],
                free=lambda t: self.world.occupant(t, exclude=npc) is None,
            )
            if spot is not None:
                self.world.post(MoveTo(npc_id, spot, "the notice board"))
                return
        self.world.post(GoTo(npc_id, place.name))

    def _board_in(self, place: Place, npc_id: str) -> str | None:
        """A notice board standing in `place` the NPC has not been by today, if any."""
        state = self.state[npc_id]
        for board_id, tile in self.world.notice_boards.items():
            if place.contains(tile) and state.board_day.get(board_id) != self.world.day.day:
                return board_id
        return None

    def wake(self, npc_id: str) -> None:
        """The player speaks to the NPC: it wakes if asleep, and stays up while they talk."""
        npc = self.world.npcs[npc_id]
        state = self.state[npc_id]
        state.just_woken = state.just_woken or npc.asleep
        npc.asleep = False
        state.woken_until = self.world.clock + STAY_S

    # --- the look once a game second --------------------------------------------------

    def update(self) -> list[tuple[str, str, str]]:
        """Follow plans, use boards, and find who meets whom: the tellings to cue now, as
        (teller, listener, news id)."""
        clock = self.world.clock
        if clock < self._next_look:
            return []
        self._next_look = clock + LOOK_EVERY_S
        for npc_id, npc in self.world.npcs.items():
            if self.plans and npc_id in self.world.plans:
                self._follow(npc_id, npc)
        for board_id, tile in self.world.notice_boards.items():
            for _, ent in self.world.near(tile, BOARD_TILES):
                if isinstance(ent, Npc) and not ent.asleep:
                    self._use_board(ent, board_id)
        return self._meetings()

    def _meetings(self) -> list[tuple[str, str, str]]:
        clock = self.world.clock
        cues: list[tuple[str, str, str]] = []
        book = self.world.news
        for npc_id, npc in self.world.npcs.items():
            state = self.state[npc_id]
            if state.telling is not None and clock - state.telling[2] > TELL_WAIT_S:
                state.telling = None
            if (
                npc.asleep
                or state.telling is not None
                or clock - state.last_told < TELL_COOLDOWN_S
                or not book.known.get(npc_id)
                or self.busy(npc_id)
                or self.engaged(npc_id)
            ):
                continue
            for _, other in self.world.near(npc.tile, TELL_TILES):
                if not isinstance(other, Npc) or other is npc or other.asleep:
                    continue
                untold = book.untold(npc_id, other.entity_id)
                if untold:
                    news = untold[0]
                    state.telling = (news.news_id, other.entity_id, clock)
                    state.last_told = clock
                    cues.append((npc_id, other.entity_id, news.news_id))
                    break
        return cues

    # --- the board ----------------------------------------------------------------------

    def _use_board(self, npc: Npc, board_id: str) -> None:
        world = self.world
        state = self.state[npc.entity_id]
        board = world.board
        since = state.read_at.get(board_id, 0)
        for post in board.read(board_id, since):
            if post.about and post.author != npc.entity_id:
                self.world.hear(npc.entity_id, post.about, post.author, post.author_name, "board")
        state.read_at[board_id] = board.board(board_id).count
        self._post_wares(npc, board_id)
        for news, _ in world.news.known_by(npc.entity_id):
            if not board.about(board_id, news.news_id):
                self._post(npc, board_id, news, _notice(news))
                break

    def _post(self, npc: Npc, board_id: str, news: News, text: str) -> None:
        world = self.world
        world.board.post(
            board_id,
            npc.entity_id,
            text,
            author_name=npc.name,
            about=news.news_id,
            clock=world.clock,
            hour=world.day.hour,
        )
        self.state[npc.entity_id].read_at[board_id] = world.board.board(board_id).count

    def _post_wares(self, npc: Npc, board_id: str) -> None:
        wares = npc.properties.get("wares", "").strip()
        if not wares:
            return
        week = (self.world.day.day - 1) // WEEK_DAYS
        news_id = "w-" + hashlib.sha256(f"{npc.entity_id}\n{week}".encode()).hexdigest()[:10]
        if self.world.board.about(board_id, news_id):
            return
        key = wares.split()[-1].lower()
        clock = self.world.clock
        piece = News(news_id, "wares", npc.entity_id, npc.name, wares, key=key, clock=clock)
        news = self.world.news.add(piece)
        self.world.news.known.setdefault(npc.entity_id, {})[news.news_id] = Heard(
            news.news_id, npc.entity_id, npc.name, self.world.clock, how="told"
        )
        self._post(npc, board_id, news, f"{npc.name}'s wares this week: {wares}.")

    # --- lines said -------------------------------------------------------------------

    def spoken(self, spoke: Spoke) -> None:
        """A finished line: news and feelings from the player's, a telling's news passed."""
        if spoke.interrupted:
            return
        if spoke.speaker_id == PLAYER_ID:
            self._player_line(spoke)
            return
        state = self.state.get(spoke.speaker_id)
        if state is None or state.telling is None:
            return
        news_id, to, _ = state.telling
        news = self.world.news.news.get(news_id)
        if news is None or news.key.lower() not in spoke.text.lower():
            return  # not the telling's line (yet)
        state.telling = None
        for listener in spoke.heard_by:
            heard_how: How = "told" if listener == to else "earshot"
            self.world.news.mark_told(spoke.speaker_id, listener, news_id)
            if self.world.hear(listener, news_id, spoke.speaker_id, spoke.speaker_name, heard_how):
                self._feel(listener, spoke.speaker_id, spoke.speaker_name, *NEWS_SHARED)

    def profile_facts(self, npc_id: str) -> VillagerFacts:
        """Who an NPC is and whom it knows by name, for reading a line said to it."""
        facts = self._profiles.get(npc_id)
        if facts is None:
            facts = self._profiles[npc_id] = villager_facts(self.world, npc_id)
        return facts

    def _player_line(self, spoke: Spoke) -> None:
        world = self.world
        target = spoke.target_id
        if target is not None and target in world.npcs:
            moved = read_feeling(spoke.text)
            if moved is not None:
                self._feel(target, PLAYER_ID, world.player.name, *moved)
        if not spoke.heard_by:
            return
        listener = target if target in world.npcs else spoke.heard_by[0]
        found = read_news(
            spoke.text,
            npc=self.profile_facts(listener),
            player_id=PLAYER_ID,
            player_name=world.player.name,
            find_place=_place_finder(world),
            clock=world.clock,
        )
        for piece in found:
            news = world.news.add(piece)
            for npc_id in spoke.heard_by:
                self.world.hear(
                    npc_id,
                    news.news_id,
                    PLAYER_ID,
                    world.player.name,
                    "told" if npc_id == target else "earshot",
                )

    def _feel(self, npc_id: str, other: str, name: str, delta: float, reason: str) -> None:
        self.world.feelings.change(npc_id, other, delta, reason, name=name, clock=self.world.clock)

    # --- facts for a turn -------------------------------------------------------------

    def sensed(
        self,
        npc_id: str,
        tell: str | None = None,
        *,
        budget: int = DEFAULT_BUDGET,
        count_tokens: Callable[[str], int] = estimate_tokens,
    ) -> Sensed:
        """What the NPC perceives now with the facts of its day (game thread), to hand
        over with a cue: what the brain and the command line's talks both give a turn."""
        perception = sense(self.world, npc_id)
        nearby = [seen.entity_id for seen in perception.nearby]
        return Sensed(perception, budget, count_tokens, self.facts(npc_id, nearby, tell))

    def facts(self, npc_id: str, nearby: Iterable[str], tell: str | None = None) -> DayFacts:
        """The NPC's facts of the day, taken now (game thread) for its `SensedFacts`: the
        hour, whether it was just woken, its news, its feelings about the player and those
        `nearby`, and the news it means to tell."""
        world = self.world
        state = self.state.get(npc_id)
        woken = state is not None and state.just_woken
        if state is not None:
            state.just_woken = False
        heard = [(n, h) for n, h in world.news.known_by(npc_id) if n.origin != npc_id]
        news = [news_fact(n, h, npc_id) for n, h in heard[:NEWS_IN_FACTS]]
        told = world.news.news.get(tell or "")
        how = world.news.knows(npc_id, tell or "")
        tell_fact = news_fact(told, how, npc_id) if told is not None and how is not None else None
        to = state.telling[1] if state is not None and state.telling is not None else None
        near = {PLAYER_ID, *nearby}
        feelings = [
            FeelingFact(
                other_id=other, name=f.name, value=f.value, word=word_for(f.value), reason=f.reason
            )
            for other, f in world.feelings.of.get(npc_id, {}).items()
            if other in near
        ]
        return DayFacts(
            hour=round(world.day.hour, 2),
            woken=woken,
            news=news,
            feelings=feelings[:4],
            tell=tell_fact,
            tell_to=world.npcs[to].name if tell_fact is not None and to in world.npcs else None,
        )

    def tell_text(self, teller: str, listener: str, news_id: str) -> str:
        """The cue text of a telling, written for models."""
        world = self.world
        news, heard = world.news.news[news_id], world.news.knows(teller, news_id)
        fact = news_fact(news, heard, teller) if heard is not None else None
        name = world.npcs[listener].name
        said = tell_line(fact, name) if fact is not None else ""
        return f"You meet {name}. Pass on what you heard, in your own words: {said}"


def news_fact(news: News, heard: Heard, knower: str) -> NewsFact:
    """A piece of news as `knower` knows it, for its facts."""
    fact = news.fact()
    if heard.source == PLAYER_ID and fact.startswith("the traveller"):
        fact = news.fact("they")  # "the traveller told me they lost ...", not "... the traveller"
    return NewsFact(
        news_id=news.news_id,
        kind=news.kind,
        fact=fact,
        subject=news.subject,
        fact_to_player=news.fact("you") if news.origin == PLAYER_ID else "",
        place=news.place,
        key=news.key,
        source=heard.source,
        source_name=heard.source_name,
        how=heard.how,
        origin_is_teller=news.origin == knower,
    )


def _notice(news: News) -> str:
    """A post's text for a piece of news."""
    if news.kind == "lost":
        return (
            f"Lost: {news.subject}"
            + (f", at the {news.place}" if news.place else "")
            + (f". Seen it? Tell {news.origin_name}.")
        )
    if news.kind == "found":
        return f"Found: {news.subject}" + (f", at the {news.place}" if news.place else "") + "."
    fact = news.fact()
    return fact[0].upper() + fact[1:] + "."


def _place_finder(world: World) -> Callable[[str], str | None]:
    def find(name: str) -> str | None:
        place = world.place_named(name)
        return place.name if place is not None else None

    return find
