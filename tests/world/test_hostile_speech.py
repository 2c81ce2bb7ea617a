"""No control character a model sends reaches a bubble, a heard line or a question."""

from __future__ import annotations

from game.world.commands import Ask, Impossible, Say, SpeechDelta, SpeechStart
from game.world.events import Spoke
from game.world.world import World

# Clear screen, set the title, write the clipboard (OSC 52), CR, NUL, C1 CSI, DEL.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\r\x00\x9b\x7f"
FORBIDDEN = {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))} - {"\t", "\n"}


def clean(text: str | None) -> bool:
    return text is not None and not set(text) & FORBIDDEN


def test_a_streamed_and_said_line_shows_no_control_character(world: World) -> None:
    world.player.place((7, 2))
    npc = world.npcs["npc_a"]
    world.submit(SpeechStart("npc_a"))
    shown: list[str] = []
    for piece in ("Hel", "lo" + HOSTILE, "\r\n there\x1b"):
        world.submit(SpeechDelta("npc_a", piece))
        world.step(1 / 60)
        assert npc.bubble is not None
        shown.append(npc.bubble.text)
    assert all(map(clean, shown)) and shown[-1].startswith("Hello[2J]0;pwned")
    fut = world.submit(Say("npc_a", "Hello" + HOSTILE + "\tthere\nfriend"))
    world.step(1 / 60)
    assert fut.result(timeout=0).ok
    assert npc.bubble is not None
    assert npc.bubble.text == "Hello[2J]0;pwned]52;c;ZXZpbA==\tthere\nfriend"
    spoke = [e for e in world.drain_events() if isinstance(e, Spoke)]
    assert spoke and all(clean(s.text) for s in spoke)


def test_a_line_of_control_characters_only_is_nothing_to_say(world: World) -> None:
    fut = world.submit(Say("npc_a", "\x1b\x07\r\x00\x9b"))
    world.step(1 / 60)
    assert isinstance(fut.result(timeout=0), Impossible)
    assert world.npcs["npc_a"].bubble is None


def test_a_question_and_its_options_and_the_players_line_are_cleaned(world: World) -> None:
    world.player.place((7, 2))
    fut = world.submit(Ask("npc_a", "Tea?" + HOSTILE, ("Yes\x1b[31m", "\x07No", "\x00\x9b")))
    world.step(1 / 60)
    assert not fut.done() and world.ask is not None
    assert clean(world.ask.question) and world.ask.options == ("Yes[31m", "No")
    bubble = world.npcs["npc_a"].bubble
    assert bubble is not None and clean(bubble.text) and bubble.text.startswith("Tea?")
    world.player_said("hi" + HOSTILE)
    assert world.player.bubble is not None and clean(world.player.bubble.text)
    said = [e for e in world.drain_events() if isinstance(e, Spoke)]
    assert len(said) == 2 and all(clean(s.text) for s in said)
