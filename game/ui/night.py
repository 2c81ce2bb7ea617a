"""The time of day on screen: the HUD clock, the world darkened at dusk and night, the
lamps' glow, and a "z" over each sleeper.

Cheap by design, on a software renderer too. The dark is a multiply colour on the sprite
lists that are drawn anyway (the tile layers and the characters), set only when the
darkness moves a step: it looks like a dark blue overlay of about 170 alpha, but a blended
window-sized overlay costs about 5 ms a frame on llvmpipe and the multiply nothing. A
lamp's glow is one sprite of a pre-built radial gradient, drawn additively with nearest
filtering (a third cheaper than linear and alpha blending); only the lamps whose light may
reach the view are in the drawn list, which is refilled when the view crosses into
another square of `SQUARE` tiles. The z's are sprites of one list, moved only when their
sleeper moves. The GUI (HUD, panels) is drawn after and never darkened.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

import arcade
from PIL import Image, ImageDraw, ImageFilter

from game.ui.sprites import tile_center
from game.ui.theme import INK
from game.world.clock import darkness, lamps_lit
from game.world.world import World

NIGHT = (78, 92, 150)  # the multiply at full darkness: dark, and bluer than it is dark
GLOW = (255, 190, 110)  # lamp light
GLOW_PEAK = 0.6  # the light a lamp adds at its middle, 0..1 of GLOW, in the dead of night
GLOW_MAX_PX = 256  # a bigger glow scales this texture up
GLOW_CROP = 0.85  # of the radius: the light beyond adds under 2% (a third of the pixels)
STEPS = 64  # darkness steps: the tint is set again only when it moves one
SQUARE = 8  # tiles: lamps are filed by square, the drawn ones refilled by square
Z_COLOUR = (225, 232, 255)


def night_tint(dark: float) -> tuple[int, int, int]:
    """The multiply colour of a darkness from 0 (day: white, no change) to 1 (night)."""
    dark = min(1.0, max(0.0, dark))
    return (
        round(255 + (NIGHT[0] - 255) * dark),
        round(255 + (NIGHT[1] - 255) * dark),
        round(255 + (NIGHT[2] - 255) * dark),
    )


@cache
def glow_texture(size: int) -> arcade.Texture:
    """A lamp's light `size` px across: GLOW, strongest in the middle and falling off
    with the square of the distance, to nothing at the radius (`GLOW_CROP` of the way
    out is the texture's rim); premultiplied (its colour already scaled by its alpha) for
    additive blending."""
    # PIL's radial gradient is 256 px, 0 in the middle and 181 at 128 px from it.
    reach = 181.0 / GLOW_CROP
    falloff = [round(255 * GLOW_PEAK * max(0.0, 1 - v / reach) ** 2) for v in range(256)]
    light = Image.radial_gradient("L").point(falloff)
    light = light.resize((size, size), Image.Resampling.BILINEAR)
    channels = [light.point([v * c // 255 for v in range(256)]) for c in GLOW]
    image = Image.merge("RGBA", (*channels, light))
    box = (
        (-size / 2, -size / 2),
        (size / 2, -size / 2),
        (size / 2, size / 2),
        (-size / 2, size / 2),
    )
    return arcade.Texture(image, hash=f"lamp-glow-{size}", hit_box_points=box)


@cache
def z_texture() -> arcade.Texture:
    """A sleeper's mark: a big and a small "z", pale, outlined in dark blue."""
    size = 18
    ink = Image.new("L", (size, size))
    pen = ImageDraw.Draw(ink)
    for x, y, s in ((2, 7, 8), (11, 2, 5)):  # (left, top, side) of each z
        pen.line([(x, y), (x + s, y), (x, y + s), (x + s, y + s)], fill=255, width=2)
    outline = ink.filter(ImageFilter.MaxFilter(3))
    image = Image.new("RGBA", (size, size), (20, 24, 60, 0))
    image.putalpha(outline)
    image.paste(Image.new("RGBA", (size, size), (*Z_COLOUR, 255)), mask=ink)
    return arcade.Texture(image, hash="sleeper-z")


class Daylight:
    """Darkens the world's sprite lists by the hour and draws the night's lights."""

    def __init__(
        self,
        world: World,
        darkened: Sequence[arcade.SpriteList[Any]],
        tile: int,
        background: tuple[int, int, int],
    ) -> None:
        self.world = world
        self.ctx = arcade.get_window().ctx
        self.darkened = darkened
        self.tile = tile
        self.rows = world.map.height
        self.day_background = background
        self.background = arcade.types.Color(*background)
        self._step = -1
        self._square: tuple[int, int, int, int] | None = None
        self.squares: dict[tuple[int, int], list[arcade.Sprite]] = {}
        self.reach = 0.0  # tiles: the widest lamp's light
        for lamp in world.map.lamps:
            diameter = 2 * lamp.radius * tile * GLOW_CROP
            texture = glow_texture(min(GLOW_MAX_PX, round(diameter)))
            x, y = tile_center(lamp.tile[0], lamp.tile[1], self.rows, tile)
            sprite = arcade.Sprite(texture, diameter / texture.width, x, y + tile / 4)
            key = (lamp.tile[0] // SQUARE, lamp.tile[1] // SQUARE)
            self.squares.setdefault(key, []).append(sprite)
            self.reach = max(self.reach, lamp.radius)
        self.glows: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.lamps_lit = False
        self.marks: dict[str, arcade.Sprite] = {}
        self.sleepers: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.clock = arcade.Text("", 12, 32, INK, 12)
        self._minute: int | None = None

    def apply(self) -> arcade.types.Color:
        """Before drawing: tint the world for the hour (when the darkness moved a step);
        the background colour to clear the window with."""
        hour = self.world.day.hour
        self.lamps_lit = lamps_lit(hour) and bool(self.squares)
        step = round(darkness(hour) * STEPS)
        if step != self._step:
            self._step = step
            dark = step / STEPS
            tint = night_tint(dark)
            for sprites in self.darkened:
                sprites.color = (*tint, 255)
            r, g, b = (c * t // 255 for c, t in zip(self.day_background, tint, strict=True))
            self.background = arcade.types.Color(r, g, b)
            light = round(255 * (0.25 + 0.75 * dark))  # a lamp shows more the darker it is
            self.glows.color = (light, light, light, 255)
        return self.background

    def draw(self, view: tuple[float, float, float, float]) -> None:
        """In the world camera, after the tinted world: the lamps' glow while they burn
        (those that may light the `view`, its left, right, bottom, top in px), then the
        sleepers' z's."""
        if self.lamps_lit:
            self._fill_glows(view)
            self.glows.draw(blend_function=self.ctx.BLEND_ADDITIVE, pixelated=True)
        self._sync_sleepers()
        if self.sleepers:
            self.sleepers.alpha = round(190 + 65 * math.sin(self.world.clock * 2.5))
            self.sleepers.draw(pixelated=True)

    def _fill_glows(self, view: tuple[float, float, float, float]) -> None:
        """Refill the drawn glows when the view's squares (widened by the light's reach)
        changed."""
        left, right, bottom, top = view
        t, reach = self.tile, self.reach + 1
        square = (
            math.floor((left / t - reach) / SQUARE),
            math.floor((self.rows - top / t - reach) / SQUARE),
            math.floor((right / t + reach) / SQUARE),
            math.floor((self.rows - bottom / t + reach) / SQUARE),
        )
        if square == self._square:
            return
        self._square = square
        x0, y0, x1, y1 = square
        self.glows.clear()
        for sx in range(x0, x1 + 1):
            for sy in range(y0, y1 + 1):
                self.glows.extend(self.squares.get((sx, sy), ()))

    def _sync_sleepers(self) -> None:
        """A z over each NPC asleep, none over one awake."""
        for npc in self.world.npcs.values():
            mark = self.marks.get(npc.entity_id)
            if not npc.asleep:
                if mark is not None:
                    self.sleepers.remove(mark)
                    del self.marks[npc.entity_id]
                continue
            if mark is None:
                mark = self.marks[npc.entity_id] = arcade.Sprite(z_texture())
                self.sleepers.append(mark)
            x, y = tile_center(npc.x, npc.y, self.rows, self.tile)
            at = (x + self.tile / 3, y + self.tile * 0.75)
            if mark.position != at:
                mark.position = at

    @property
    def glowing(self) -> int:
        """How many lamp glows the last frame drew (0 when the lamps are out)."""
        return len(self.glows) if self.lamps_lit else 0

    def draw_clock(self) -> None:
        """The time of day in the HUD (GUI camera), bottom left above the place name; its
        text is made again only when the minute shown changes."""
        minute = round(self.world.day.minutes)
        if minute != self._minute:
            self._minute = minute
            self.clock.text = self.world.day.text()
        self.clock.draw()
