"""Speech bubbles and emote icons drawn above characters' heads."""

from __future__ import annotations

import math
import string
from functools import cached_property

import arcade

from game.world.entities import Entity

BUBBLE_MAX_WIDTH = 260
PAD = 8
FONT_SIZE = 11
FILL = (255, 253, 240, 240)
PLAYER_FILL = (226, 238, 255, 240)
BORDER = (40, 36, 52, 255)
INK = (30, 28, 40, 255)
MUTED = (110, 104, 120, 255)
DOTS_SIZE = (42.0, 22.0)  # the "..." bubble while a turn waits for its first words


GLYPHS = string.ascii_letters + string.digits + string.punctuation + " —–…’‘“”éèàçöüäñ·"
_warm: set[tuple[int, bool]] = set()


def warm_glyphs(size: int = FONT_SIZE, bold: bool = False) -> None:
    """Render every common glyph of a font size once, at load time.

    A glyph is rendered and uploaded to the font texture the first time some text uses
    it; on a software renderer that upload can stall a frame for seconds mid-game.
    """
    if (size, bold) in _warm:
        return
    _warm.add((size, bold))
    label = arcade.Text(GLYPHS, 0, 0, INK, size, bold=bold)
    _ = label.content_width  # laying the text out creates every glyph


class BubbleView:
    """One entity's bubble: an `arcade.Text` built once (when first needed) and updated when
    the text grows."""

    def __init__(
        self,
        fill: tuple[int, int, int, int] = FILL,
        *,
        scale: float = 1.0,
        reveal_cps: float | None = None,
    ) -> None:
        self.fill = fill
        self.max_width = int(BUBBLE_MAX_WIDTH * scale)
        # Letters a second shown of a reply (a typewriter); None shows text as it arrives.
        self.reveal_cps = reveal_cps
        self.revealed = 0.0
        self._bubble_id = 0
        self._clock = 0.0
        self.size = round(FONT_SIZE * scale)
        self._shown = ""
        warm_glyphs(self.size)

    @cached_property
    def label(self) -> arcade.Text:
        """The bubble's text, built when the entity first speaks (a village of hundreds of
        NPCs builds none of them at load)."""
        return arcade.Text(
            "",
            0,
            0,
            INK,
            self.size,
            width=self.max_width,
            multiline=True,
            anchor_x="left",
            anchor_y="bottom",
        )

    def reveal_all(self, bubble_id: int | None = None) -> None:
        """Show the whole text now; `bubble_id` (`id` of the entity's bubble) also covers
        a bubble that came since the last draw, which would otherwise start from nothing."""
        if bubble_id is not None:
            self._bubble_id = bubble_id
        self.revealed = float("inf")

    def _visible(self, text: str, bubble_id: int, clock: float) -> str:
        """The part of `text` the typewriter has reached."""
        if bubble_id != self._bubble_id:
            self._bubble_id, self.revealed = bubble_id, 0.0
        elif self.reveal_cps is not None:
            self.revealed += max(0.0, clock - self._clock) * self.reveal_cps
        self._clock = clock
        if self.reveal_cps is None:
            return text
        return text[: int(min(self.revealed, len(text)))]

    def measure(self, entity: Entity, clock: float) -> tuple[float, float]:
        """Update the text from the entity's bubble; return the bubble's (width, height)."""
        bubble = entity.bubble
        assert bubble is not None
        if bubble.waiting:
            return DOTS_SIZE
        text = self._visible(bubble.text, id(bubble), clock)
        if bubble.streaming or len(text) < len(bubble.text):
            text = text + ("_" if int(clock * 4) % 2 else "")
        elif bubble.interrupted:
            text = text + " —"
        if text != self._shown:
            # Shrink-wrap short lines: measure the single-line width first.
            self.label.multiline = False
            self.label.text = text
            natural = self.label.content_width
            self.label.multiline = True
            self.label.width = int(min(self.max_width, max(12, natural + 2)))
            self._shown = text
        return self.label.content_width + 2 * PAD, self.label.content_height + 2 * PAD

    def draw(
        self, entity: Entity, x: float, y: float, head: tuple[float, float], clock: float
    ) -> None:
        """Draw the measured bubble with its lower left corner at (x, y), tail to `head`."""
        bubble = entity.bubble
        assert bubble is not None
        if bubble.waiting:
            w, h = DOTS_SIZE
        else:
            w = self.label.content_width + 2 * PAD
            h = self.label.content_height + 2 * PAD
        alpha = 255
        if bubble.expires is not None:
            alpha = int(255 * max(0.0, min(1.0, (bubble.expires - clock) / 0.6)))
        fill = (*self.fill[:3], int(self.fill[3] * alpha / 255))
        border = (*BORDER[:3], alpha)
        head_x, head_y = head
        tail_x = min(max(head_x, x + 10), x + w - 10)
        arcade.draw_triangle_filled(tail_x - 6, y + 1, tail_x + 6, y + 1, head_x, head_y + 2, fill)
        arcade.draw_lrbt_rectangle_filled(x, x + w, y, y + h, fill)
        arcade.draw_lrbt_rectangle_outline(x, x + w, y, y + h, border, 2)
        if bubble.waiting:
            _draw_dots(x + w / 2, y + h / 2, clock - bubble.started)
            return
        self.label.x = x + PAD
        self.label.y = y + PAD
        self.label.color = (*(MUTED if bubble.waiting else INK)[:3], alpha)
        self.label.draw()


def _draw_dots(cx: float, cy: float, age: float) -> None:
    """Three dots taking turns to hop: someone is thinking of what to say."""
    for i in range(3):
        hop = max(0.0, math.sin(age * 7 - i * 0.9)) * 3
        arcade.draw_circle_filled(cx + (i - 1) * 9, cy - 1 + hop, 2.6, MUTED)


def draw_emote(
    texture: arcade.Texture,
    x: float,
    y: float,
    started: float,
    clock: float,
    expires: float | None = None,
) -> None:
    """Draw an emote icon that pops in (with a little overshoot), bobs, and fades out."""
    age = clock - started
    pop = min(1.0, age * 5)
    scale = 0.4 + 0.6 * pop + 0.15 * math.sin(pop * math.pi)
    bob = math.sin(age * 6) * 2
    alpha = 255
    if expires is not None:
        alpha = int(255 * max(0.0, min(1.0, (expires - clock) / 0.3)))
    arcade.draw_texture_rect(
        texture,
        arcade.XYWH(round(x), round(y + bob), texture.width * scale, texture.height * scale),
        alpha=alpha,
        pixelated=True,
    )
