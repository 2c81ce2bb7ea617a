"""Output: write every asset and map, the art licence, previews; the command line."""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from .characters import VILLAGERS, build_sheet
from .emotes import EMOTES, e_talk_hint
from .layouts import (
    LARKMOOR_LAYOUT,
    STONEREACH_LAYOUT,
    THORNWICK_LAYOUT,
    TINY_LAYOUT,
    VILLAGE_LAYOUT,
    build_grids,
    compose_map,
)
from .map_objects import (
    LARKMOOR_BOARDS,
    LARKMOOR_NPCS,
    LARKMOOR_PLACES,
    LARKMOOR_SPAWN,
    STONEREACH_BOARDS,
    STONEREACH_NPCS,
    STONEREACH_PLACES,
    STONEREACH_SPAWN,
    THORNWICK_BOARDS,
    THORNWICK_NPCS,
    THORNWICK_PLACES,
    THORNWICK_SPAWN,
    TINY_NPCS,
    TINY_PLACES,
    TINY_SPAWN,
    VILLAGE_BOARDS,
    VILLAGE_NPCS,
    VILLAGE_PLACES,
    VILLAGE_SPAWN,
)
from .palette import TILE
from .tiled import make_map, write_tmj, write_tmx, write_tsj, write_tsx
from .tileset import build_tileset

DESCRIPTION = (
    "Generate the art (tileset, character sheets, emotes) and the villages' maps (TMX + TMJ twins)."
)
REPO = Path(__file__).resolve().parents[2]  # the default output root: ./assets and ./maps
LICENSE_TEXT = """# Art licence

All art in `assets/` (the tileset `tiles/village_tiles.png`, the character sheets in
`characters/`, the emote icons in `emotes/`) and the maps in `maps/` are original works drawn
for this project. Nothing was copied or derived from third-party art: every pixel is produced
procedurally by `tools/make_assets.py` with Pillow, and running that script regenerates the
files exactly.

The art and maps are dedicated to the public domain under
[CC0 1.0 Universal](https://creativecommons.org/publicdomain/zero/1.0/): you may copy, modify
and use them for any purpose without asking permission or giving credit.
"""

VILLAGE_DESCRIPTION = (
    "Hollowbrook is a cosy riverside village with a cobbled plaza around an old well, a forge, "
    "a bakery, a market and a quiet fishing pond."
)
LARKMOOR_DESCRIPTION = (
    "Larkmoor is a damp little moorland village on the edge of a great marsh: a village green "
    "with a notice board, a schoolhouse, a pottery, beehives in the heather, a glassworks, "
    "peat cuttings, and a causeway out to the watch house."
)
STONEREACH_DESCRIPTION = (
    "Stonereach is a windy hill village between a copper mine and a stone quarry: a cobbled "
    "square with a notice board, an inn, goats on the high pasture, an herb garden, a "
    "weaver's and a tinker's, and a cold little tarn."
)
THORNWICK_DESCRIPTION = (
    "Thornwick is a village where the west road meets an old wood: a cobbled market cross with "
    "a notice board, a dairy, a sawpit, a cooper's yard, a candle shop, hawks in the mews, a "
    "charcoal clearing at the wood's edge, a toll gate and a reedy mere."
)


def save_png(img: Image.Image, path: Path) -> None:
    """Write a PNG without metadata (byte-stable for a given Pillow version)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, format="PNG", optimize=False, compress_level=9)


def write_text(path: Path, text: str) -> None:
    """Write UTF-8 text with Unix newlines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def generate(root: Path) -> list[Path]:
    """Write every asset and map under root; return the written paths."""
    written: list[Path] = []

    def png(img: Image.Image, rel: str) -> None:
        save_png(img, root / rel)
        written.append(root / rel)

    def txt(text: str, rel: str) -> None:
        write_text(root / rel, text)
        written.append(root / rel)

    tileset = build_tileset()
    png(tileset, "assets/tiles/village_tiles.png")
    txt(write_tsx("village_tiles.png", tileset.size), "assets/tiles/village_tiles.tsx")
    txt(write_tsj("village_tiles.png", tileset.size), "assets/tiles/village_tiles.tsj")
    for name, v in VILLAGERS.items():
        png(build_sheet(v), f"assets/characters/{name}.png")
    for name, draw in EMOTES.items():
        png(draw().img, f"assets/emotes/{name}.png")
    txt(LICENSE_TEXT, "assets/LICENSE-ART.md")

    village = make_map(
        VILLAGE_LAYOUT,
        "Hollowbrook",
        VILLAGE_DESCRIPTION,
        VILLAGE_NPCS,
        VILLAGE_PLACES,
        VILLAGE_SPAWN,
        boards=VILLAGE_BOARDS,
    )
    txt(write_tmx(village, "../assets/tiles/village_tiles.tsx"), "maps/village.tmx")
    txt(write_tmj(village, "../assets/tiles/village_tiles.tsj"), "maps/village.tmj")
    larkmoor = make_map(
        LARKMOOR_LAYOUT,
        "Larkmoor",
        LARKMOOR_DESCRIPTION,
        LARKMOOR_NPCS,
        LARKMOOR_PLACES,
        LARKMOOR_SPAWN,
        boards=LARKMOOR_BOARDS,
    )
    txt(write_tmx(larkmoor, "../assets/tiles/village_tiles.tsx"), "maps/larkmoor.tmx")
    txt(write_tmj(larkmoor, "../assets/tiles/village_tiles.tsj"), "maps/larkmoor.tmj")
    stonereach = make_map(
        STONEREACH_LAYOUT,
        "Stonereach",
        STONEREACH_DESCRIPTION,
        STONEREACH_NPCS,
        STONEREACH_PLACES,
        STONEREACH_SPAWN,
        boards=STONEREACH_BOARDS,
    )
    txt(write_tmx(stonereach, "../assets/tiles/village_tiles.tsx"), "maps/stonereach.tmx")
    txt(write_tmj(stonereach, "../assets/tiles/village_tiles.tsj"), "maps/stonereach.tmj")
    thornwick = make_map(
        THORNWICK_LAYOUT,
        "Thornwick",
        THORNWICK_DESCRIPTION,
        THORNWICK_NPCS,
        THORNWICK_PLACES,
        THORNWICK_SPAWN,
        boards=THORNWICK_BOARDS,
    )
    txt(write_tmx(thornwick, "../assets/tiles/village_tiles.tsx"), "maps/thornwick.tmx")
    txt(write_tmj(thornwick, "../assets/tiles/village_tiles.tsj"), "maps/thornwick.tmj")
    tiny_desc = "A tiny test map: one villager, a bit of house wall and a small pond."
    tiny = make_map(TINY_LAYOUT, "Tinybrook", tiny_desc, TINY_NPCS, TINY_PLACES, TINY_SPAWN)
    txt(write_tmx(tiny, "../assets/tiles/village_tiles.tsx"), "maps/tiny.tmx")
    txt(write_tmj(tiny, "../assets/tiles/village_tiles.tsj"), "maps/tiny.tmj")
    no_spawn = make_map(
        TINY_LAYOUT,
        "No Spawn",
        "A valid map that lacks a player_spawn.",
        TINY_NPCS,
        TINY_PLACES,
        None,
    )
    txt(write_tmx(no_spawn, "../../assets/tiles/village_tiles.tsx"), "maps/broken/no_spawn.tmx")
    no_npcs = make_map(
        TINY_LAYOUT,
        "No NPCs",
        "A valid map with a spawn but no npcs layer.",
        TINY_NPCS,
        TINY_PLACES,
        TINY_SPAWN,
        with_npcs=False,
    )
    txt(write_tmx(no_npcs, "../../assets/tiles/village_tiles.tsx"), "maps/broken/no_npcs.tmx")
    return written


def write_previews(out_dir: Path) -> list[Path]:
    """Render preview PNGs (map with NPCs, sprite sheets, emotes) for eyeballing."""
    tileset = build_tileset()
    grids = build_grids(VILLAGE_LAYOUT)
    world = compose_map(grids, tileset)
    for n in VILLAGE_NPCS:
        frame = build_sheet(VILLAGERS[n.sprite]).crop((0, 0, TILE, TILE))
        world.alpha_composite(frame, (n.tile[0] * TILE, n.tile[1] * TILE))
    player = build_sheet(VILLAGERS["player"]).crop((0, 0, TILE, TILE))
    world.alpha_composite(player, (VILLAGE_SPAWN[0] * TILE, VILLAGE_SPAWN[1] * TILE))
    hint = e_talk_hint().img
    for n in VILLAGE_NPCS:
        world.alpha_composite(hint, (n.tile[0] * TILE + 4, n.tile[1] * TILE - 22))
    paths = [out_dir / "preview_map.png"]
    world.save(paths[0])
    sheets = Image.new("RGBA", (len(VILLAGERS) * 136, 136), (114, 181, 82, 255))
    for i, v in enumerate(VILLAGERS.values()):
        sheets.alpha_composite(build_sheet(v), (i * 136 + 4, 4))
    paths.append(out_dir / "preview_sheets.png")
    sheets.resize((sheets.width * 2, sheets.height * 2), Image.Resampling.NEAREST).save(paths[-1])
    emotes = Image.new("RGBA", (len(EMOTES) * 36, 36), (114, 181, 82, 255))
    for i, draw in enumerate(EMOTES.values()):
        emotes.alpha_composite(draw().img, (i * 36 + 2, 2))
    paths.append(out_dir / "preview_emotes.png")
    emotes.resize((emotes.width * 4, emotes.height * 4), Image.Resampling.NEAREST).save(paths[-1])
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO,
        help="root directory that receives assets/ and maps/ (default: repo)",
    )
    parser.add_argument(
        "--preview",
        type=Path,
        nargs="?",
        const=Path("/tmp"),
        default=None,
        help="also write preview PNGs into this directory (default /tmp)",
    )
    args = parser.parse_args(argv)
    written = generate(args.out)
    print(f"wrote {len(written)} files under {args.out}")
    if args.preview is not None:
        for p in write_previews(args.preview):
            print(f"preview: {p}")
    return 0
