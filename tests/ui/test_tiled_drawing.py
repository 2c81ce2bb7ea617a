"""What Tiled draws, the game draws: flipped tiles, animated tiles, several tilesets,
layers inside groups, image layers with their opacity, hidden layers.

The map is written by the test, as Tiled writes it (a .tmx with an external .tsx of its
own holding an animation, the village's tileset as a second one, a group, an image
layer), and loaded the way the play view loads it (`arcade.load_tilemap`, `drawn_layers`,
`TileAnimations`); the world reads the same file (`load_map`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageChops, ImageOps

from game.world.tiled import load_map

from .conftest import ROOT

TILES = ROOT / "assets" / "tiles"
FLIP_H = 0x80000000
SECOND = 89  # the first gid of the village tileset, after the 88 tiles of the first
GRASS, WALL = 1, 31  # tile ids in both tilesets (same sheet): plain grass, a house wall

ANIMATED_TSX = f"""<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="anim" tilewidth="32" tileheight="32"
 tilecount="88" columns="8">
 <image source="{TILES / "village_tiles.png"}" width="256" height="352"/>
 <tile id="0">
  <animation>
   <frame tileid="0" duration="200"/>
   <frame tileid="{WALL}" duration="200"/>
  </animation>
 </tile>
</tileset>
"""


def tmx(flipped: int) -> str:
    ground = ",".join(["1"] + [str(GRASS + 1)] * 11)  # (0, 0) is the animated tile
    inner = ",".join([str(flipped)] + ["0"] * 11)
    hidden = ",".join(["0"] * 11 + [str(SECOND + WALL)])
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down"
 width="4" height="3" tilewidth="32" tileheight="32" infinite="0" nextlayerid="7"
 nextobjectid="2">
 <tileset firstgid="1" source="anim.tsx"/>
 <tileset firstgid="{SECOND}" source="{TILES / "village_tiles.tsx"}"/>
 <layer id="1" name="ground" width="4" height="3">
  <data encoding="csv">{ground}</data>
 </layer>
 <group id="2" name="decor">
  <layer id="3" name="inner" width="4" height="3">
   <data encoding="csv">{inner}</data>
  </layer>
 </group>
 <imagelayer id="4" name="sky" opacity="0.5">
  <image source="{TILES / "village_tiles.png"}" width="256" height="352"/>
 </imagelayer>
 <layer id="5" name="hidden" width="4" height="3" visible="0">
  <data encoding="csv">{hidden}</data>
 </layer>
 <objectgroup id="6" name="spawns">
  <object id="1" name="player_spawn" x="48" y="48"><point/></object>
 </objectgroup>
</map>
"""


@pytest.fixture
def drawn(window, tmp_path: Path):  # type: ignore[no-untyped-def]
    import arcade

    from game.ui.sprites import TileAnimations, drawn_layers

    (tmp_path / "anim.tsx").write_text(ANIMATED_TSX)
    path = tmp_path / "made.tmx"
    path.write_text(tmx(FLIP_H | (SECOND + WALL)))
    tilemap = arcade.load_tilemap(path, scaling=1.0)
    layers = drawn_layers(tilemap)
    return path, tilemap, layers, TileAnimations(layers)


def test_every_kind_of_layer_is_drawn_in_order(drawn) -> None:  # type: ignore[no-untyped-def]
    path, tilemap, layers, _ = drawn
    names = [name for name, layer in tilemap.sprite_lists.items() if layer in layers]
    assert [n.rsplit("/", 1)[-1] for n in names] == ["ground", "inner", "sky", "hidden"]
    sky = tilemap.sprite_lists[names[2]]
    assert [s.alpha for s in sky] == [127]  # the image layer, at its opacity
    assert not tilemap.sprite_lists[names[3]].visible  # hidden in Tiled, hidden here
    world = load_map(path)  # the simulation reads the same file
    assert world.player_spawn == (1, 1) and world.tile_layers == ["ground", "inner", "hidden"]


def test_a_flipped_tile_is_drawn_flipped(window, drawn) -> None:  # type: ignore[no-untyped-def]
    import arcade

    _, tilemap, _, _ = drawn
    inner = next(layer for name, layer in tilemap.sprite_lists.items() if name.endswith("inner"))
    (flipped,) = inner
    plain = arcade.SpriteList()
    sheet = arcade.load_spritesheet(TILES / "village_tiles.png")
    texture = sheet.get_texture_grid(size=(32, 32), columns=8, count=88)[WALL]
    plain.append(arcade.Sprite(texture, center_x=flipped.center_x, center_y=flipped.center_y))

    def drawn_at_the_tile(layer: arcade.SpriteList) -> object:
        window.clear()
        layer.draw(pixelated=True)
        box = (int(flipped.center_x) - 16, int(flipped.center_y) - 16, 32, 32)  # the tile
        return arcade.get_image(*box).convert("RGB")

    as_tiled, as_is = drawn_at_the_tile(inner), drawn_at_the_tile(plain)
    assert ImageChops.difference(as_tiled, ImageOps.mirror(as_is)).getbbox() is None
    assert ImageChops.difference(as_tiled, as_is).getbbox() is not None  # not symmetric


def test_an_animated_tile_animates(drawn) -> None:  # type: ignore[no-untyped-def]
    *_, animations = drawn
    (tile,) = animations.sprites
    first = tile.texture
    animations.update(0.1)
    assert tile.texture is first  # 200 ms a frame
    animations.update(0.15)
    assert tile.texture is not first
    animations.update(0.2)
    assert tile.texture.image.tobytes() == first.image.tobytes()  # and round again
