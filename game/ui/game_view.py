"""The play screen: the map, the characters, their bubbles, and the talk box."""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable

import arcade
import arcade.gui

from game.agent.history import Line
from game.npc.brain import Brain
from game.ui import menus
from game.ui.board_panel import BOARD_REACH, BoardPanel, board_near
from game.ui.bubbles import PLAYER_FILL, BubbleView, draw_emote, warm_glyphs
from game.ui.choices import AskPanel
from game.ui.dialogue import TalkPanel
from game.ui.hud import Hud
from game.ui.inspector import Inspector
from game.ui.night import Daylight
from game.ui.sprites import (
    CharacterSprite,
    TileAnimations,
    TileRect,
    drawn_layers,
    emote_texture,
    tile_center,
)
from game.ui.theme import HEADING
from game.world.entities import Entity, Npc
from game.world.world import World

HistoryFn = Callable[[str], "concurrent.futures.Future[list[Line]]"]
REVEAL_CPS = 120.0  # letters a second at text speed 1: about what a model streams
MOVE_KEYS = {
    arcade.key.UP: "up",
    arcade.key.W: "up",
    arcade.key.DOWN: "down",
    arcade.key.S: "down",
    arcade.key.LEFT: "left",
    arcade.key.A: "left",
    arcade.key.RIGHT: "right",
    arcade.key.D: "right",
}
TALK_REACH = 1.5
BOARD_KEYS = (arcade.key.E, arcade.key.ESCAPE, arcade.key.PAGEUP, arcade.key.PAGEDOWN)
MAX_DT = 0.1
BACKGROUND = (34, 40, 30)


class GameView(arcade.View):
    """Draws the world and feeds it the player's input; never waits on an agent."""

    def __init__(
        self,
        world: World,
        brain: Brain,
        notice: Callable[[], str | None] | None = None,
        saves: menus.SaveControls | None = None,
        *,
        history: HistoryFn | None = None,
        progress: Callable[[], tuple[float, str] | None] | None = None,
        inspector: Inspector | None = None,
        text_speed: float = 1.0,
        text_scale: float = 1.0,
    ):
        super().__init__()
        self.history = history  # the talk panel's history, read on the agent thread
        self.inspector = inspector  # F3
        self.reveal_cps = None if text_speed >= 8 else REVEAL_CPS * text_speed
        self.saves = saves  # F5 quick-save, F9 load list, Esc pause menu, autosave
        self.world = world
        self.brain = brain
        data = world.map
        self.tile = data.tile_width
        self.map_px = (data.width * data.tile_width, data.height * data.tile_height)
        # No spatial hash: nothing asks the tile sprites where they are, and filing each
        # tile took a quarter of a big map's loading.
        self.tilemap = arcade.load_tilemap(data.path, scaling=1.0)
        self.layers = drawn_layers(self.tilemap)
        self.animations = TileAnimations(self.layers)
        self.characters: arcade.SpriteList[CharacterSprite] = arcade.SpriteList()
        self.sprites: dict[str, CharacterSprite] = {}
        for ent in world.entities():
            sprite = CharacterSprite(ent, data.height, self.tile)
            self.sprites[ent.entity_id] = sprite
            self.characters.append(sprite)
        self.bubbles = {
            e.entity_id: BubbleView(scale=text_scale, reveal_cps=self.reveal_cps)
            for e in world.npcs.values()
        }
        self.bubbles[world.player.entity_id] = BubbleView(PLAYER_FILL, scale=text_scale)
        self.camera = arcade.Camera2D()
        self.gui_camera = arcade.Camera2D()
        self.held: list[str] = []
        self._focus_pending = False
        self.talking_to: Npc | None = None
        self.help_visible = False
        self.hint = arcade.Text("E: talk", 0, 0, HEADING, 11, anchor_x="center", bold=True)
        self.board_hint = arcade.Text(
            "E: read the board", 0, 0, HEADING, 11, anchor_x="center", bold=True
        )
        self.ui = arcade.gui.UIManager()
        self.talk = TalkPanel(self.ui, world, text_scale)
        self.talk_input = self.talk.input
        # An NPC's question (buttons and keys 1-4), above the talk panel that may be open.
        self.ask_panel = AskPanel(world, self.ui, align_y=16 + 290 * text_scale)
        self.board_panel = BoardPanel(self.ui, world, text_scale)  # E beside a notice board
        # Dusk and night: the map and characters darkened, lamps, sleepers, the HUD clock.
        self.daylight = Daylight(world, [*self.layers, self.characters], self.tile, BACKGROUND)
        self.hud = Hud(world, self.daylight, notice, progress)  # over the map; F1's help
        warm_glyphs(12)  # the place names of the HUD

    # --- talk box ---------------------------------------------------------------------

    def open_talk(self, npc: Npc) -> None:
        """Open the talk box for an NPC next to the player."""
        self.board_panel.hide()
        self.talking_to = npc
        self.talk.show(npc, self.history(npc.entity_id) if self.history else None)
        self.brain.player_opens_talk(npc.entity_id)
        # Focus the field on the next frame, so the "e" of this key press is not typed.
        self._focus_pending = True
        self.stop_walking()

    def stop_walking(self) -> None:
        """Forget the held direction keys: the player stands still until one is pressed."""
        self.held.clear()
        self.world.hold_direction(None)

    def close_talk(self) -> None:
        """Close the talk box; the NPC keeps talking if it was."""
        self.talking_to = None
        self.talk.hide()
        self.brain.player_closes_talk()

    def send_talk(self) -> None:
        """Send what the player typed to the NPC they are talking to."""
        text = self.talk.take_input()
        if self.talking_to is None:
            return
        if not text:
            self.reveal_all()  # Enter on an empty line shows the whole reply at once
            return
        self.brain.player_talks(self.talking_to.entity_id, text)

    def reveal_all(self) -> None:
        """Show every bubble's text at once instead of letter by letter."""
        for ent in self.world.entities():
            view = self.bubbles.get(ent.entity_id)
            if view is not None:
                view.reveal_all(id(ent.bubble) if ent.bubble is not None else None)

    def npc_is_replying(self, npc: Npc) -> bool:
        """Whether the NPC is thinking about or still streaming its reply."""
        return npc.bubble is not None and npc.bubble.streaming

    # --- arcade handlers --------------------------------------------------------------

    def on_show_view(self) -> None:
        """Take input when this view is shown."""
        self.window.background_color = BACKGROUND
        self.hud.f1_text.x = self.window.width - 12
        self.ui.enable()

    def on_hide_view(self) -> None:
        """Release input when another view (a menu, the load list) replaces this one; the
        player stops walking, as the keys held now will be released to that view."""
        self.ui.disable()
        self.stop_walking()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Move, talk, send, close."""
        if self.ask_panel.on_key_press(symbol):
            return True
        if symbol == arcade.key.F1:
            self.help_visible = not self.help_visible
            return True
        if self.help_visible and symbol == arcade.key.ESCAPE:
            self.help_visible = False
            return True
        if self.board_panel.open and symbol in BOARD_KEYS:
            if symbol in (arcade.key.PAGEUP, arcade.key.PAGEDOWN):
                self.board_panel.scroll(-1 if symbol == arcade.key.PAGEUP else 1)
            else:
                self.board_panel.hide()  # E or Esc
            return True
        if self.talking_to is not None:
            if symbol in (arcade.key.ENTER, arcade.key.RETURN, arcade.key.NUM_ENTER):
                self.send_talk()
                return True
            if symbol == arcade.key.ESCAPE:
                if self.npc_is_replying(self.talking_to):
                    self.brain.interrupt(self.talking_to.entity_id)  # first Esc: stop it
                else:
                    self.close_talk()
                return True
            if symbol in (arcade.key.PAGEUP, arcade.key.PAGEDOWN):
                self.talk.scroll(-1 if symbol == arcade.key.PAGEUP else 1)
                return True
            if symbol == arcade.key.F3 and self.inspector is not None:
                self.inspector.toggle()
                return True
            return None  # typing goes to the input field
        if self.saves is not None and symbol in (arcade.key.F5, arcade.key.F9, arcade.key.ESCAPE):
            return menus.on_menu_key(self, self.saves, symbol)
        if symbol in MOVE_KEYS:
            direction = MOVE_KEYS[symbol]
            if direction in self.held:
                self.held.remove(direction)
            self.held.append(direction)
            self.world.hold_direction(direction)
            return True
        if self.inspector is not None and self._inspector_key(symbol):
            return True
        if symbol == arcade.key.SPACE:
            self.reveal_all()
            return True
        if symbol == arcade.key.E:
            npc = self.world.npc_in_reach(TALK_REACH)
            if npc is not None:
                self.open_talk(npc)
                return True
            board_id = board_near(self.world)  # an NPC in reach wins
            if board_id is not None:
                self.board_panel.show(board_id)
                return True
        return None

    def _inspector_key(self, symbol: int) -> bool:
        """F3 shows the inspector; while it shows, Tab picks the next NPC, C the context."""
        assert self.inspector is not None
        if symbol == arcade.key.F3:
            self.inspector.toggle()
        elif self.inspector.visible and symbol == arcade.key.TAB:
            self.inspector.cycle()
        elif self.inspector.visible and symbol == arcade.key.C:
            self.inspector.toggle_context()
        else:
            return False
        return True

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        """Stop walking when the last held direction is released."""
        direction = MOVE_KEYS.get(symbol)
        if direction in self.held:
            self.held.remove(direction)
            self.world.hold_direction(self.held[-1] if self.held else None)
            return True
        return None

    def on_update(self, delta_time: float) -> None:
        """Step the world and the brain, pose the sprites, then give the agents' costly
        work what the frame has to spare; never blocks on an agent."""
        started = time.perf_counter()
        dt = min(delta_time, MAX_DT)
        if self._focus_pending:
            self._focus_pending = False
            self.talk_input.activate()
        self.world.step(dt)
        self.animations.update(dt)
        self.brain.update(dt)
        if self.ask_panel.sync():
            self.talk_input.deactivate()  # number keys answer, they do not type
        if self.saves is not None and self.saves.autosave_due(dt):
            menus.quick_save(self, self.saves, auto=True)
        self._follow_player()
        seen = self._tiles_in_view()
        for sprite in self.sprites.values():
            sprite.sync(seen)
        if self.talking_to is not None:
            self.talk.refresh()
        if self.board_panel.open:
            if board_near(self.world, BOARD_REACH + 1) != self.board_panel.board_id:
                self.board_panel.hide()  # walked away from it
            else:
                self.board_panel.refresh()
        if self.inspector is not None:
            self.inspector.update(dt)
        if (
            self.talking_to is not None
            and self.world.distance(self.world.player, self.talking_to) > TALK_REACH + 1
        ):
            self.close_talk()
        self.brain.spare_time(time.perf_counter() - started)

    def _tiles_in_view(self, margin: int = 2) -> TileRect:
        """The tiles the camera shows, and `margin` more on each side."""
        left, right, bottom, top = self._view_bounds()
        rows = self.world.map.height
        return TileRect(
            left / self.tile - 1 - margin,
            rows - top / self.tile - 1 - margin,
            right / self.tile + margin,
            rows - bottom / self.tile + margin,
        )

    def _follow_player(self) -> None:
        """Centre the camera on the player, kept within the map; a map smaller than the
        window (along an axis) sits in its middle."""
        px, py = tile_center(
            self.world.player.x, self.world.player.y, self.world.map.height, self.tile
        )
        map_w, map_h = self.map_px
        self.camera.position = (
            _follow(px, self.window.width, map_w),
            _follow(py, self.window.height, map_h),
        )

    def on_draw(self) -> None:
        """Draw map, characters, bubbles, then the GUI."""
        self.clear(color=self.daylight.apply())  # the world darkened for the hour
        with self.camera.activate():
            for layer in self.layers:
                layer.draw(pixelated=True)
            self.characters.sort(key=lambda s: -s.center_y)
            self.characters.draw(pixelated=True)
            self.daylight.draw(self._view_bounds())  # lamps' glow, sleepers' z
            self._draw_overheads()
        with self.gui_camera.activate():
            self.hud.draw(self.window.width, self.window.height)
        if any(widget.visible for layer in self.ui.children.values() for widget in layer):
            self.ui.draw()  # a blend of the whole window: 9 ms on a software renderer
        with self.gui_camera.activate():
            if self.inspector is not None:
                self.inspector.draw(self.window.width, self.window.height)
            if self.help_visible:
                self.hud.draw_help(self.window.width, self.window.height)

    def _view_bounds(self) -> tuple[float, float, float, float]:
        cx, cy = self.camera.position
        w, h = self.window.width, self.window.height
        return cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2

    def _draw_overheads(self) -> None:
        clock = self.world.clock
        left, right, bottom, top = self._view_bounds()
        placed: list[tuple[Entity, float, float, float, float]] = []  # entity, x, y, w, h
        speakers = sorted(
            (e for e in self.world.entities() if e.bubble is not None),
            key=lambda e: e.bubble.started if e.bubble else 0.0,
        )
        for ent in speakers:
            hx, hy = self._head(ent)
            w, h = self.bubbles[ent.entity_id].measure(ent, clock)
            x = min(max(hx - w / 2, left + 4), right - w - 4)
            y = hy + 10
            # Stack above earlier bubbles it would overlap, then keep it on screen.
            for _, ox, oy, ow, oh in placed:
                if x < ox + ow and ox < x + w and y < oy + oh and oy < y + h:
                    y = oy + oh + 4
            y = min(max(y, bottom + 4), top - h - 4)
            placed.append((ent, x, y, w, h))
        # Newest first, so older bubbles cover the tails of those stacked above them.
        for ent, x, y, _, _ in reversed(placed):
            self.bubbles[ent.entity_id].draw(ent, x, y, self._head(ent), clock)
        for ent in self.world.entities():
            if ent.emote is not None:
                hx, hy = self._head(ent)
                emote = ent.emote
                draw_emote(
                    emote_texture(emote.name), hx + 18, hy + 6, emote.started, clock, emote.expires
                )
        if self.talking_to is None and not self.board_panel.open:
            npc = self.world.npc_in_reach(TALK_REACH)
            board_id = board_near(self.world) if npc is None else None
            if npc is not None and npc.bubble is None:
                hx, hy = self._head(npc)
                self.hint.position = (hx, hy + 8)
                self.hint.draw()
            elif board_id is not None:
                x, y = tile_center(
                    *self.world.notice_boards[board_id], self.world.map.height, self.tile
                )
                self.board_hint.position = (x, y + self.tile / 2 + 8)
                self.board_hint.draw()

    def _head(self, ent: Entity) -> tuple[float, float]:
        x, y = tile_center(ent.x, ent.y, self.world.map.height, self.tile)
        return x, y + self.tile / 2


def _follow(at: float, window: float, size: float) -> float:
    """The camera's centre along one axis: on `at`, but showing no more than the map's
    `size` beyond its edges; the map's middle if it is smaller than the `window`."""
    if size <= window:
        return size / 2
    return min(max(at, window / 2), size - window / 2)
