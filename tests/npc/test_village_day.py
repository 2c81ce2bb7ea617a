"""The village's day: plans walked, sleep, news passed with its source, the notice board,
feelings; on the real village map with the persona brain standing in for the model."""

from __future__ import annotations

import re
from pathlib import Path

from game.npc.facts import NewsFact, VillagerFacts
from game.npc.life.life import news_fact
from game.npc.life.news import news_answer, read_news, tell_line
from game.npc.scripted.moods import CHEERFUL
from game.world.news import Heard, News
from tests.npc.conftest import Life


def ring() -> News:
    return News("n-ring", "lost", "player", "Ana", "a silver ring", "well", key="ring")


def test_the_player_line_becomes_typed_news_and_chatter_does_not() -> None:
    npc = VillagerFacts(npc_id="tobin", name="Tobin")
    places = {"well": "well", "plaza": "plaza"}

    def read(line: str) -> list[News]:
        return read_news(
            line, npc=npc, player_id="player", player_name="Traveller",
            find_place=lambda name: places.get(name.lower()), clock=0.0,
        )  # fmt: skip

    lost = read("I lost my silver ring near the well.")
    assert [(n.kind, n.subject, n.place, n.key) for n in lost] == [
        ("lost", "a silver ring", "well", "ring")
    ]
    event = read("There will be a dance on the plaza tonight at seven!")[0]
    assert (event.kind, event.place, event.hour) == ("event", "plaza", 19.0)
    assert read("I'm Ana.")[0].fact() == "the traveller's name is Ana"
    assert read("I'm Ana.")[0].fact("you") == "your name is Ana"
    assert lost[0].fact("you") == "you lost a silver ring at the well"
    for chatter in ("How are you today?", "Lovely weather.", "Where is the well?"):
        assert read(chatter) == []


def test_any_news_names_the_source_and_an_untold_topic_is_not_invented() -> None:
    fact = NewsFact(
        news_id="n", kind="lost", fact="Ana lost a silver ring at the well", subject="a ring",
        key="ring", source="wren", source_name="Wren", how="told",
    )  # fmt: skip
    said = news_answer([fact], "Any news?")
    assert said == "Wren told me Ana lost a silver ring at the well."
    assert news_answer([fact], "Heard anything about the wolf in the orchard?") == (
        "Nobody has told me anything about the wolf."
    )
    assert news_answer([], "What have you heard?") == "I haven't heard any news today."


def test_the_players_own_news_is_told_back_to_the_player_as_theirs() -> None:
    name = News("n-ana", "name", "player", "the traveller", "Ana", key="ana")
    lost = ring()
    facts = [
        news_fact(name, Heard("n-ana", "tobin", "Tobin", 0.0, "", "board"), "wren"),
        news_fact(lost, Heard("n-ring", "player", "Ana", 0.0, "dock", "told"), "wren"),
    ]
    assert news_answer(facts, "What have you heard?") == (
        "Tobin's note on the board says your name is Ana. And you told me you lost a silver"
        " ring at the well."
    )
    # To a villager, the same pieces are the traveller's.
    assert tell_line(facts[0], "Pip") == (
        "Pip, have you heard? Tobin's note on the board says the traveller's name is Ana."
    )
    # A merchant's own wares are his: said in the first person, naming them (the key word).
    wares = News("w-1", "wares", "cassius", "Cassius", "silk and a music box", key="box")
    own = news_fact(wares, Heard("w-1", "cassius", "Cassius", 0.0, "", "told"), "cassius")
    assert tell_line(own, "Tobin") == (
        "Tobin, have you heard? I have new wares this week: silk and a music box."
    )
    many = News("w-2", "wares", "cassius", "Cassius", "silk, " * 40 + "a box", key="box")
    own = news_fact(many, Heard("w-2", "cassius", "Cassius", 0.0, "", "told"), "cassius")
    assert tell_line(own, "Tobin") == (
        "Tobin, have you heard? I have new wares this week, up on the notice board."
    )
    # Told by the traveller themself: "they", not the traveller named twice over.
    nameless = News("n-key", "lost", "player", "the traveller", "a key", "well", key="key")
    told = news_fact(nameless, Heard("n-key", "player", "Ana", 0.0, "", "told"), "wren")
    assert tell_line(told, "Pip") == (
        "Pip, have you heard? The traveller told me they lost a key at the well."
    )
    assert tell_line(facts[1], "Pip") == (
        "Pip, have you heard? The traveller told me Ana lost a silver ring at the well."
    )


async def test_npcs_walk_their_plans_and_never_jump(tmp_path: Path) -> None:
    life = Life(tmp_path, day_plans=True)
    world = life.world
    world.day.day_s = 24 * 60
    world.day.set_hour(11.9)
    before = {i: n.tile for i, n in world.npcs.items()}
    jumps: list[str] = []

    def moved() -> bool:
        for npc_id, npc in world.npcs.items():
            x, y = before[npc_id]
            if max(abs(npc.tile[0] - x), abs(npc.tile[1] - y)) > 1:
                jumps.append(npc_id)
            before[npc_id] = npc.tile
        settled = all(life.brain.life.on_plan(i) and not n.path for i, n in world.npcs.items())
        return world.day.hour >= 12.0 and settled

    await life.run(until=moved, limit_s=60)
    plaza = world.map.places["plaza"]
    assert not jumps
    assert world.day.hour < 14  # still the midday stop
    assert all(life.brain.life.at_place(npc, plaza) for npc in world.npcs.values())
    await life.close()


async def test_a_sleeping_npc_wakes_grumbling_and_sleeps_again(tmp_path: Path) -> None:
    life = Life(tmp_path, day_plans=True)
    world = life.world
    world.day.day_s = 24 * 3600  # the clock all but stands still
    world.day.set_hour(23)
    tobin = world.npcs["tobin"]
    await life.run(until=lambda: tobin.asleep, limit_s=60)
    world.stand_player_by("tobin")
    await life.run(2.0)  # the player stands by a while, as when typing: it sleeps on
    assert tobin.asleep
    life.brain.player_talks("tobin", "Where is the well?")
    await life.run(until=lambda: bool(life.said_by("tobin")), limit_s=20)
    line = life.said_by("tobin")[-1].text
    assert line.startswith(CHEERFUL.grumbles), line
    assert "well" in line.lower()
    assert not tobin.asleep
    world.player.place(world.map.player_spawn)
    await life.run(until=lambda: tobin.asleep, limit_s=90)
    await life.close()


async def test_news_passes_in_earshot_with_its_source_and_not_beyond(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    book = world.news
    book.add(ring())
    book.learn("tobin", Heard("n-ring", "player", "Ana", 0.0, "bakery", "told"))
    tobin, maren, wren = world.npcs["tobin"], world.npcs["maren"], world.npcs["wren"]
    spot = world.grid.nearest_walkable((tobin.tile[0] + 2, tobin.tile[1]))
    assert spot is not None
    maren.place(spot)  # Maren meets Tobin; Wren is far away at the dock
    await life.run(until=lambda: book.knows("maren", "n-ring") is not None, limit_s=30)
    heard = book.knows("maren", "n-ring")
    assert heard is not None and (heard.source, heard.how) == ("tobin", "told")
    told = [s for s in life.said_by("tobin") if "ring" in s.text]
    assert told and "Ana" in told[0].text, told
    assert told[0].target_id == "maren"  # said to the one it tells, not to the player
    assert told[0].text.startswith("Elder Maren, have you heard? The traveller told me")
    assert book.knows("wren", "n-ring") is None
    assert world.distance(wren, tobin) > 8
    life.brain.player_talks("maren", "Any news?")
    await life.run(until=lambda: any("told me" in s.text for s in life.said_by("maren")))
    answer = next(s.text for s in life.said_by("maren") if "told me" in s.text)
    assert re.search(r"Tobin told me .*ring", answer), answer
    await life.close()


async def test_the_notice_board_is_read_and_posted_to_as_npcs_pass(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    board_id, tile = next(iter(world.notice_boards.items()))
    world.news.add(ring())
    world.news.learn("wren", Heard("n-ring", "player", "Ana", 0.0, "dock", "told"))
    wren, pip = world.npcs["wren"], world.npcs["pip"]
    spot = world.grid.nearest_walkable(tile, free=lambda t: world.occupant(t) is None)
    assert spot is not None
    wren.place(spot)
    await life.run(until=lambda: world.board.about(board_id, "n-ring"), limit_s=10)
    post = world.board.read(board_id)[-1]
    assert (post.author, post.about) == ("wren", "n-ring") and "ring" in post.text
    wren.place(world.map.npcs[3].tile)  # away again
    spot = world.grid.nearest_walkable(tile, free=lambda t: world.occupant(t) is None)
    assert spot is not None
    pip.place(spot)
    await life.run(until=lambda: world.news.knows("pip", "n-ring") is not None, limit_s=10)
    heard = world.news.knows("pip", "n-ring")
    assert heard is not None and (heard.source, heard.how) == ("wren", "board")
    await life.close()


async def test_feelings_change_with_what_the_player_says(tmp_path: Path) -> None:
    life = Life(tmp_path)
    world = life.world
    world.stand_player_by("brenna")
    life.brain.player_talks("brenna", "Thank you so much, Brenna!")
    await life.run(until=lambda: world.feelings.about("brenna", "player") is not None)
    feeling = world.feelings.about("brenna", "player")
    assert feeling is not None and feeling.value > 0 and feeling.reason == "thanked you"
    await life.run(2.0)
    life.brain.player_talks("brenna", "You are a stupid useless fool.")
    await life.run(until=lambda: feeling.value < 0)
    assert feeling.reason == "insulted you"
    facts = life.brain.life.facts("brenna", [])
    assert facts.feelings[0].word in ("wary", "cross")
    await life.close()
