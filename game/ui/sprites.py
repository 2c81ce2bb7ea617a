"""Character sprites: textures cut from 4x4 sheets, posed from an entity each frame."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import arcade

from game.world.entities import Entity

ASSETS = Path(__file__).resolve().parents[2] / "assets"
FRAME = 32
ROWS = ("down", "left", "right", "up")  # sheet rows, top to bottom
WALK_FPS = 8.0


@cache
def character_frames(sprite: str) -> dict[str, list[arcade.Texture]]:
    """The four walk frames for each facing of a character sheet (falls back to player)."""
    path = ASSETS / "characters" / f"{sprite}.png"
    if not path.is_file():
        path = ASSETS / "characters" / "player.png"
    sheet = arcade.load_spritesheet(path)
    grid = sheet.get_texture_grid(size=(FRAME, FRAME), columns=4, count=16)
    return {facing: grid[row * 4 : row * 4 + 4] for row, facing in enumerate(ROWS)}


@cache
def emote_texture(name: str) -> arcade.Texture:
    """The icon of an emote."""
    return arcade.load_texture(ASSETS / "emotes" / f"{name}.png")


class CharacterSprite(arcade.Sprite):
    """The sprite of one entity: follows its position, facing and walk cycle."""

    def __init__(self, entity: Entity, map_height: int, tile: int) -> None:
        self.entity = entity
        self.frames = character_frames(entity.sprite)
        super().__init__(self.frames["down"][0])
        self.map_height = map_height
        self.tile = tile
        self.sync()

    def sync(self) -> None:
        """Pose the sprite from the entity's state."""
        ent = self.entity
        self.center_x, self.center_y = tile_center(ent.x, ent.y, self.map_height, self.tile)
        frames = self.frames.get(ent.facing, self.frames["down"])
        index = 0
        if ent.moving or ent.walk_time > 0:
            index = 1 + int(ent.walk_time * WALK_FPS) % 3
        if self.texture is not frames[index]:
            self.texture = frames[index]


def tile_center(x: float, y: float, map_height: int, tile: int) -> tuple[float, float]:
    """Screen-space centre of a (fractional) tile position; Tiled's y grows down."""
    return x * tile + tile / 2, (map_height - 1 - y) * tile + tile / 2
