"""The village's facts: one builder from the world's perception and the day, carried by
the agent runtime as they are and read back from any log, old or new."""

from __future__ import annotations

from pathlib import Path

from game.agent.events import UserMessage, dump_event, parse_event
from game.agent.facts import Facts, TriggerFacts
from game.agent.render import trigger_facts
from game.agent.store import SessionStore
from game.npc.cues import Sensed, idle_cue, trigger_for
from game.npc.facts import (
    BoardFact,
    DayFacts,
    FeelingFact,
    NewsFact,
    SensedFacts,
    sensed_facts,
    sensed_of,
)
from game.tokens import estimate_tokens
from game.world.perception import DEFAULT_BUDGET, sense
from game.world.tiled import load_map
from game.world.world import World

VILLAGE = Path(__file__).resolve().parents[2] / "maps" / "village.tmx"
BOARD_TILE = (15, 13)  # the village's notice board

# A player's line as the game wrote it before the notice board reached the facts.
OLD_LINE = (
    '{"type":"user.message","seq":2,"ts":1.0,"run_id":null,"text":"Morning!",'
    '"perception":"You are at the bakery.","speaker":null,"sensed":{"place":"bakery",'
    '"tile":[10,15],"activity":"idle","map_name":"Hollowbrook","nearby":[{"entity_id":'
    '"player","name":"Ada","distance":1.0,"direction":"east","activity":"standing"}],'
    '"heard":[{"speaker":"Ada","text":"Morning!","ago_s":2.0,"to_you":true}],"hour":9.5,'
    '"woken":false,"news":[{"news_id":"n1","kind":"lost","fact":"Ada lost a red key at the '
    'well","fact_to_player":"","subject":"a red key","place":"well","key":"key","source":'
    '"player","source_name":"Ada","how":"told","origin_is_teller":false}],"feelings":[{'
    '"other_id":"player","name":"Ada","value":0.3,"word":"warm","reason":"thanked you"}],'
    '"tell":null,"tell_to":null}}'
)


def _village() -> World:
    return World(load_map(VILLAGE))


def test_the_notice_board_in_sight_reaches_the_facts_and_the_text() -> None:
    world = _village()
    world.npcs["tobin"].place((BOARD_TILE[0], BOARD_TILE[1] + 2))
    sensed = Sensed(sense(world, "tobin"), DEFAULT_BUDGET, estimate_tokens)
    trigger = trigger_for(idle_cue(), sensed)
    assert trigger.perception is not None
    assert "A notice board (0 posts) stands two tiles to the north." in trigger.perception
    assert isinstance(trigger.sensed, SensedFacts)
    assert trigger.sensed.board == BoardFact(
        board_id="notice_board", name="notice board", distance=2.0, direction="north", posts=0
    )
    world.npcs["tobin"].place((BOARD_TILE[0] + 30, BOARD_TILE[1]))  # out of sight
    assert sensed_facts(sense(world, "tobin")).board is None


def test_the_day_goes_into_the_facts_beside_the_perception() -> None:
    world = _village()
    news = NewsFact(news_id="n1", kind="lost", fact="Ada lost a key")
    feeling = FeelingFact(other_id="player", name="Ada", value=0.3, word="warm")
    day = DayFacts(hour=9.5, woken=True, news=[news], feelings=[feeling], tell=news, tell_to="Pip")
    facts = sensed_facts(sense(world, "tobin"), day)
    assert (facts.hour, facts.woken, facts.news, facts.feelings) == (9.5, True, [news], [feeling])
    assert (facts.tell, facts.tell_to) == (news, "Pip")
    assert facts.tile == world.npcs["tobin"].tile
    assert sensed_facts(sense(world, "tobin")).hour is None  # no day given: none made up


def test_an_old_log_line_still_reads_as_the_villages_facts() -> None:
    event = parse_event(OLD_LINE)
    assert isinstance(event, UserMessage) and type(event.sensed) is Facts  # carried opaquely
    sensed = sensed_of(trigger_facts(event))
    assert sensed is not None and sensed.board is None  # not kept then
    assert (sensed.place, sensed.tile, sensed.hour) == ("bakery", (10, 15), 9.5)
    assert sensed.nearby[0].name == "Ada" and sensed.heard[0].to_you
    assert sensed.news[0].key == "key" and sensed.feelings[0].reason == "thanked you"
    assert dump_event(event) == OLD_LINE  # written again, it is the line it was


def test_a_line_from_before_facts_and_one_from_a_newer_game_read_too() -> None:
    before = parse_event('{"type":"user.message","seq":2,"ts":1.0,"text":"Hi"}')
    assert sensed_of(trigger_facts(before)) is None
    newer = OLD_LINE.replace('"tell_to":null}', '"tell_to":null,"smell":"bread"}')
    sensed = sensed_of(trigger_facts(parse_event(newer)))
    assert sensed is not None and sensed.place == "bakery" and "smell" not in sensed.model_dump()


def test_the_facts_survive_the_log_whole(tmp_path: Path) -> None:
    world = _village()
    world.npcs["tobin"].place((BOARD_TILE[0] + 1, BOARD_TILE[1]))
    sensed = Sensed(sense(world, "tobin"), DEFAULT_BUDGET, estimate_tokens, DayFacts(hour=7.0))
    trigger = trigger_for(idle_cue(), sensed)
    store = SessionStore(tmp_path, "s")
    store.append("tobin", trigger.to_event())
    store.close()
    (read,) = SessionStore(tmp_path, "s").read("tobin")
    facts = TriggerFacts(kind="idle", sensed=read.sensed)  # type: ignore[attr-defined]
    assert sensed_of(facts) == trigger.sensed
    assert trigger.sensed is not None and SensedFacts.of(trigger.sensed) is trigger.sensed
