"""The talk panel: history from the log, replies streaming in, Esc interrupting, F3."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from game.agent.events import AssistantMessage
from game.agent.providers.base import (
    Done,
    Provider,
    ProviderEvent,
    ProviderRequest,
    ToolCallArgsDelta,
    ToolCallDone,
    ToolCallStart,
)
from game.config import Settings
from game.npc.scripted.persona import PersonaProvider
from game.village import Village

from .conftest import VILLAGE, frames_until

HELD_REPLY = "Well now, let me tell you about the old mill by the river"


class HeldSay(Provider):
    """A model that answers the player with a say whose text stops half way until freed."""

    name = "held"
    model = "held"

    def __init__(self) -> None:
        self.release: asyncio.Event | None = None

    async def aclose(self) -> None:
        """Nothing held."""

    async def stream(self, request: ProviderRequest) -> AsyncIterator[ProviderEvent]:
        answered = request.messages[-1].role == "tool"
        player = request.trigger is not None and request.trigger.kind == "player_message"
        if not player or answered:
            yield Done()
            return
        self.release = asyncio.Event()
        args = json.dumps({"text": HELD_REPLY})
        yield ToolCallStart(index=0, id="c1", name="say")
        half = len(args) // 2
        for i in range(0, half, 5):
            yield ToolCallArgsDelta(index=0, delta=args[i : min(i + 5, half)])
        await self.release.wait()
        yield ToolCallArgsDelta(index=0, delta=args[half:])
        yield ToolCallDone(index=0, id="c1", name="say", arguments=args)
        yield Done()


def open_view(window, village: Village):
    from game.ui.game_view import GameView
    from game.ui.inspector import Inspector

    monitor, snapshot = village.inspector_feed()
    view = GameView(
        village.world,
        village.brain,
        notice=village.notice,
        saves=village.saves,
        history=village.history,
        inspector=Inspector(village.world, monitor, snapshot),
    )
    window.show_view(view)
    return view


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    return tmp_path / "saves"


def open_village(saves: Path, provider=None) -> Village:
    return Village.open(
        VILLAGE,
        slot="talk",
        saves_dir=saves,
        settings=Settings(provider="scripted", idle_chatter=False),
        provider=provider or PersonaProvider(delay_s=0),
    )


def beside(village: Village, npc_id: str) -> None:
    world = village.world
    npc = world.npcs[npc_id]
    world.player.place(
        world.grid.nearest_walkable(
            npc.tile, free=lambda t: t != npc.tile and world.occupant(t) is None
        )
    )


def talk_to_tobin(window, village: Village):
    """The play view with the player beside Tobin and the talk panel open."""
    import arcade

    view = open_view(window, village)
    beside(village, "tobin")
    view.on_key_press(arcade.key.E, 0)
    return view


def say_to(window, view, text: str) -> None:
    import arcade

    frames_until(view, lambda: view.talk.input.active)
    for ch in text:
        window.dispatch_event("on_text", ch)
    # As pyglet delivers Return: the key press, then its text.
    window.dispatch_event("on_key_press", arcade.key.ENTER, 0)
    window.dispatch_event("on_text", "\r")
    window.dispatch_events()


@pytest.fixture
def cleanup(window) -> Iterator[list[Village]]:
    import arcade

    opened: list[Village] = []
    yield opened
    for village in opened:
        village.close()
    window.show_view(arcade.View())


def test_history_shows_after_reloading_the_slot(window, saves: Path, cleanup) -> None:

    village = open_village(saves)
    cleanup.append(village)
    view = talk_to_tobin(window, village)
    say_to(window, view, "What do you do?")
    tobin = village.world.npcs["tobin"]
    frames_until(
        view,
        lambda: tobin.bubble is not None and not tobin.bubble.streaming and bool(tobin.bubble.text),
    )
    reply = tobin.bubble.text
    frames_until(view, lambda: f"Tobin: {reply}" in view.talk.history.text)
    assert "You: What do you do?" in view.talk.history.text
    village.close()

    again = open_village(saves)
    cleanup.append(again)
    view = talk_to_tobin(window, again)
    frames_until(view, lambda: view.talk.loading is None)
    text = view.talk.history.text
    assert "You: What do you do?" in text and f"Tobin: {reply}" in text
    assert text.index("You: What do you do?") < text.index(f"Tobin: {reply}")


def test_esc_interrupts_the_reply_and_the_log_marks_it(window, saves: Path, cleanup) -> None:
    import arcade

    village = open_village(saves, HeldSay())
    cleanup.append(village)
    view = talk_to_tobin(window, village)
    say_to(window, view, "Tell me a story")
    tobin = village.world.npcs["tobin"]
    frames_until(view, lambda: tobin.bubble is not None and len(tobin.bubble.text) > 10)
    assert tobin.bubble.streaming and view.npc_is_replying(tobin)
    partial = tobin.bubble.text
    assert HELD_REPLY.startswith(partial) and partial != HELD_REPLY
    view.on_key_press(arcade.key.ESCAPE, 0)  # first Esc: stop the reply, keep the panel
    assert view.talking_to is not None
    frames_until(view, lambda: tobin.bubble is not None and tobin.bubble.interrupted)
    assert tobin.bubble.text == partial and not tobin.bubble.streaming
    frames_until(view, lambda: f"Tobin: {partial} —" in view.talk.history.text)
    logged = village.thread.submit(_read(village, "tobin")).result(timeout=10)
    marked = [e for e in logged if isinstance(e, AssistantMessage) and e.interrupted]
    assert [m.text for m in marked] == [partial]
    view.on_key_press(arcade.key.ESCAPE, 0)  # nothing streams now: Esc closes
    assert view.talking_to is None


def test_lines_typed_while_the_npc_answers_queue(window, saves: Path, cleanup) -> None:

    village = open_village(saves)
    cleanup.append(village)
    view = talk_to_tobin(window, village)
    say_to(window, view, "hello")
    say_to(window, view, "who are you?")  # sent before the first reply is done
    frames_until(view, lambda: view.talk.history.text.count("Tobin: ") >= 2)
    text = view.talk.history.text
    first, second = text.index("You: hello"), text.index("You: who are you?")
    assert first < second
    assert "Tobin" in text[second:].split("Tobin: ", 1)[1]  # who he is, in his answer


def test_keys_never_type_into_the_talk_box(window, saves: Path, cleanup) -> None:
    import arcade

    village = open_village(saves)
    cleanup.append(village)
    view = open_view(window, village)
    beside(village, "tobin")
    window.dispatch_event("on_key_press", arcade.key.E, 0)  # as pyglet sends E: the press,
    window.dispatch_event("on_text", "e")  # then its text, which must not be typed
    window.dispatch_events()
    frames_until(view, lambda: view.talk.input.active)
    assert view.talking_to is village.world.npcs["tobin"] and view.talk.input.text == ""
    say_to(window, view, "hello")
    assert view.talk.input.text == ""  # Return's "\r" did not start the next line
    for text in ("\t", "\x1b", "again"):
        window.dispatch_event("on_text", text)
    window.dispatch_events()
    assert view.talk.input.text == "again"
    view.on_key_press(arcade.key.ESCAPE, 0)


def test_the_headless_script_types_as_a_keyboard_does(window, saves: Path, cleanup) -> None:
    from game.ui.key_script import ScriptStep, feed

    village = open_village(saves)
    cleanup.append(village)
    view = open_view(window, village)
    beside(village, "tobin")
    for step in (ScriptStep(0, "press", "E"), ScriptStep(0, "release", "E")):
        feed(window, step)
    window.dispatch_events()
    frames_until(view, lambda: view.talk.input.active)
    for step in (ScriptStep(0, "type", "hello"), ScriptStep(0, "press", "ENTER")):
        feed(window, step)
    window.dispatch_events()
    feed(window, ScriptStep(0, "type", "again"))
    window.dispatch_events()
    assert view.talk.input.text == "again"  # no "e" before it, no "\r" left from Return
    assert [s.text for s in village.world.speech_log if s.speaker_id == "player"] == ["hello"]


async def _read(village: Village, npc_id: str):
    return village.runtime.store(village.slot).read(npc_id)


def test_reveal_speed_and_reveal_at_once(window, saves: Path, cleanup) -> None:
    from game.ui.game_view import GameView

    village = open_village(saves)
    cleanup.append(village)
    view = GameView(village.world, village.brain, text_speed=0.5)
    window.show_view(view)
    npc = village.world.npcs["tobin"]
    from game.world.commands import Say

    village.world.submit(Say("tobin", "A rather long line that takes a while to show."))
    view.on_update(1 / 60)
    view.on_draw()
    bubble_view = view.bubbles["tobin"]
    assert len(bubble_view._shown.rstrip("_")) < len(npc.bubble.text)
    view.reveal_all()
    view.on_draw()
    assert bubble_view._shown.startswith(npc.bubble.text)


def test_inspector_shows_the_nearest_npc(window, saves: Path, cleanup) -> None:
    import arcade

    village = open_village(saves)
    cleanup.append(village)
    view = talk_to_tobin(window, village)
    say_to(window, view, "hello")
    tobin = village.world.npcs["tobin"]
    frames_until(view, lambda: tobin.bubble is not None and not tobin.bubble.streaming)
    view.on_key_press(arcade.key.ESCAPE, 0)
    view.on_key_press(arcade.key.F3, 0)
    inspector = view.inspector
    assert inspector.visible and inspector.target() == "tobin"
    frames_until(view, lambda: "tokens" in inspector.text()[1])
    title, body = inspector.text()
    assert title.startswith("Tobin (tobin)")
    assert "provider  scripted" in body and "call   say" in body and "player_message" in body
    view.on_key_press(arcade.key.C, 0)
    frames_until(view, lambda: "context (next provider input)" in inspector.text()[1])
    assert "[user]" in inspector.text()[1] and "Player says" in inspector.text()[1]
    view.on_key_press(arcade.key.TAB, 0)
    assert inspector.target() != "tobin"
    view.on_key_press(arcade.key.F3, 0)
    assert not inspector.visible


def test_f1_shows_every_key(window, saves: Path, cleanup) -> None:
    import arcade

    village = open_village(saves)
    cleanup.append(village)
    view = open_view(window, village)
    view.on_key_press(arcade.key.F1, 0)
    assert view.help_visible
    view.on_draw()
    for key in ("WASD", "E ", "Enter", "Esc", "PgUp", "1-4", "F3", "F5", "F9"):
        assert key in view.hud.help_text.text
    view.on_key_press(arcade.key.ESCAPE, 0)  # Esc closes the help, not the game
    assert not view.help_visible and window.current_view is view


def test_a_progress_bar_while_the_model_is_prepared(window, saves: Path, cleanup) -> None:
    from game.ui.game_view import GameView

    village = open_village(saves)
    cleanup.append(village)
    state: list[tuple[float, str] | None] = [(0.4, "assembling the model")]
    view = GameView(village.world, village.brain, progress=lambda: state[0])
    window.show_view(view)
    view.on_update(1 / 60)
    view.on_draw()
    assert view.hud.progress_text.text == "assembling the model  40%"
    state[0] = None
    view.hud.progress_text.text = ""
    view.on_draw()
    assert view.hud.progress_text.text == ""


def test_the_panel_is_drawn_while_open_and_gone_once_closed(window, saves: Path, cleanup) -> None:
    """The GUI layer is drawn only while something in it shows: check the pixels."""
    import arcade

    from game.ui.theme import PANEL

    def panel_pixels() -> int:
        view.on_draw()
        shot = arcade.get_image(0, 0, 1280, 200).convert("RGB")
        panel = PANEL[:3]
        return sum(
            all(abs(a - b) <= 12 for a, b in zip(p, panel, strict=True)) for p in shot.getdata()
        )

    village = open_village(saves)
    cleanup.append(village)
    view = talk_to_tobin(window, village)
    frames_until(view, lambda: view.talk.input.active)
    assert panel_pixels() > 20_000  # the dark panel across the bottom of the window
    view.close_talk()
    assert panel_pixels() < 500
    view.on_key_press(arcade.key.E, 0)
    frames_until(view, lambda: view.talk.input.active)
    assert panel_pixels() > 20_000, "opened again, the panel shows again"
