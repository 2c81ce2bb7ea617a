"""Character sprites: textures cut from 4x4 sheets, posed from an entity each frame."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache

import arcade
from PIL import Image, ImageDraw, ImageFont

from game.assets import ASSETS, PLAYER_SHEET
from game.files import os_reason
from game.gestures import GESTURES
from game.ui.bubbles import BORDER, FILL, INK
from game.world.entities import Entity

log = logging.getLogger(__name__)

EMOTES = ASSETS / "emotes"  # a gesture's icon: <name>.png
LABEL_FONT_PX = 10  # the words drawn in place of an icon that cannot be read
FRAME = 32
ROWS = ("down", "left", "right", "up")  # sheet rows, top to bottom
WALK_FPS = 8.0


@cache
def character_frames(sprite: str) -> dict[str, list[arcade.Texture]]:
    """The four walk frames for each facing of a character sheet (falls back to player)."""
    path = ASSETS / "characters" / f"{sprite}.png"
    if not path.is_file():
        path = ASSETS / "characters" / f"{PLAYER_SHEET}.png"
    sheet = arcade.load_spritesheet(path)
    grid = sheet.get_texture_grid(size=(FRAME, FRAME), columns=4, count=16)
    _to_atlas(grid)
    return {facing: grid[row * 4 : row * 4 + 4] for row, facing in enumerate(ROWS)}


@cache
def emote_texture(name: str) -> arcade.Texture:
    """The icon of an emote; one that is missing or cannot be read is the gesture's words
    on a label ("nods"), with one warning: a missing icon never stops the game."""
    path = EMOTES / f"{name}.png"
    try:
        texture = arcade.load_texture(path)
    except (OSError, ValueError) as exc:  # missing, not a PNG, damaged
        reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
        log.warning("the emote icon %s cannot be read (%s): showing its name instead", path, reason)
        texture = _label(name)
    _to_atlas([texture])
    return texture


def _label(name: str) -> arcade.Texture:
    """A gesture's words ("shakes head") on a small bubble, the size of an icon or so."""
    gesture = GESTURES.get(name)
    words = gesture.does if gesture is not None else name.replace("_", " ")
    font = ImageFont.load_default(size=LABEL_FONT_PX)
    left, top, right, bottom = (round(edge) for edge in font.getbbox(words))
    width, height = right - left + 8, bottom - top + 6
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=3, fill=FILL, outline=BORDER)
    draw.text((4 - left, 3 - top), words, font=font, fill=INK)
    return arcade.Texture(image, hash=f"emote-label-{name}")


def preload_emotes() -> None:
    """Load every gesture's icon now, so the first emote of the game costs no frame (and a
    missing icon is said once, at load)."""
    for name in GESTURES:
        emote_texture(name)


def _to_atlas(textures: list[arcade.Texture]) -> None:
    """Put textures in the default atlas now, not when a sprite first shows them.

    Adding a texture to the atlas mid-game can mean an upload or a resize of the whole
    atlas, which costs whole seconds on a software renderer: a walk frame seen for the
    first time would freeze the game.
    """
    atlas = arcade.get_window().ctx.default_atlas
    for texture in textures:
        atlas.add(texture)


@dataclass(frozen=True)
class TileRect:
    """A rectangle of (fractional) tile coordinates, edges included."""

    left: float
    top: float
    right: float
    bottom: float

    def holds(self, x: float, y: float) -> bool:
        """Whether the point lies inside."""
        return self.left <= x <= self.right and self.top <= y <= self.bottom


class CharacterSprite(arcade.Sprite):
    """The sprite of one entity: follows its position, facing and walk cycle."""

    def __init__(self, entity: Entity, map_height: int, tile: int) -> None:
        self.entity = entity
        self.frames = character_frames(entity.sprite)
        preload_emotes()
        super().__init__(self.frames["down"][0])
        self.map_height = map_height
        self.tile = tile
        self._pose: tuple[float, float, str, int] | None = None
        self.sync()

    def sync(self, seen: TileRect | None = None) -> None:
        """Pose the sprite from the entity's state (nothing to do for one standing still).

        With `seen`, the tiles in view: a sprite that is out of view and stays out of view
        is left where it was drawn last, and posed when it walks back in.
        """
        ent = self.entity
        if seen is not None and not seen.holds(ent.x, ent.y):
            last = self._pose
            if last is None or not seen.holds(last[0], last[1]):
                return
        index = 0
        if ent.moving or ent.walk_time > 0:
            index = 1 + int(ent.walk_time * WALK_FPS) % 3
        pose = (ent.x, ent.y, ent.facing, index)
        if pose == self._pose:
            return
        self._pose = pose
        self.position = tile_center(ent.x, ent.y, self.map_height, self.tile)
        frames = self.frames.get(ent.facing, self.frames["down"])
        if self.texture is not frames[index]:
            self.texture = frames[index]


def drawn_layers(tilemap: arcade.TileMap) -> list[arcade.SpriteList[arcade.Sprite]]:
    """The map's tile layers to draw, in order: all but the (invisible) collision layer."""
    return [layer for name, layer in tilemap.sprite_lists.items() if name.lower() != "collision"]


class TileAnimations:
    """The map's animated tiles (Tiled's tile animations), stepped every frame. Only those
    sprites are kept: a map without any costs nothing."""

    def __init__(self, layers: list[arcade.SpriteList[arcade.Sprite]]) -> None:
        self.sprites = [
            sprite
            for layer in layers
            for sprite in layer
            if isinstance(sprite, arcade.TextureAnimationSprite)
        ]

    def update(self, dt: float) -> None:
        """Advance every animated tile by `dt` seconds."""
        for sprite in self.sprites:
            sprite.update_animation(dt)


def tile_center(x: float, y: float, map_height: int, tile: int) -> tuple[float, float]:
    """Screen-space centre of a (fractional) tile position; Tiled's y grows down."""
    return x * tile + tile / 2, (map_height - 1 - y) * tile + tile / 2
