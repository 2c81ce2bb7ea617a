"""Checks on the generated art: sprite sheets, emotes, tileset, licence, regeneration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"
SHEETS = [
    "player",
    "smith",
    "baker",
    "elder",
    "fisher",
    "child",
    "merchant",
    "potter",
    "beekeeper",
    "teacher",
    "watchman",
    "peatcutter",
    "glassblower",
    "miner",
    "innkeeper",
    "goatherd",
    "herbalist",
    "weaver",
    "tinker",
]
EMOTES = ["wave", "nod", "shake_head", "laugh", "think"]
TILE = 32


def frame(sheet: Image.Image, row: int, col: int) -> Image.Image:
    """One 32x32 frame of a character sheet."""
    return sheet.crop((col * TILE, row * TILE, (col + 1) * TILE, (row + 1) * TILE))


def differs(a: Image.Image, b: Image.Image) -> bool:
    """True if two images differ in any pixel."""
    return a.size != b.size or a.convert("RGBA").tobytes() != b.convert("RGBA").tobytes()


@pytest.mark.parametrize("name", SHEETS)
def test_character_sheet_layout_and_animation(name: str) -> None:
    with Image.open(ASSETS / "characters" / f"{name}.png") as img:
        sheet = img.convert("RGBA")
        assert img.mode == "RGBA"
    assert sheet.size == (128, 128)
    for row in range(4):
        frames = [frame(sheet, row, col) for col in range(4)]
        for f in frames:
            alpha = f.getchannel("A")
            assert alpha.getextrema()[1] == 255, "empty frame"
            assert alpha.getpixel((0, 0)) == 0, "frames need a transparent background"
        assert differs(frames[0], frames[1]) and differs(frames[1], frames[3])
        assert differs(frames[0], frames[2])
    down, left, right, up = (frame(sheet, r, 0) for r in range(4))
    assert differs(down, up) and differs(left, down)
    assert not differs(right, left.transpose(Image.Transpose.FLIP_LEFT_RIGHT))


def test_characters_look_different() -> None:
    standing = []
    for name in SHEETS:
        with Image.open(ASSETS / "characters" / f"{name}.png") as img:
            standing.append(frame(img.convert("RGBA"), 0, 0))
    for i in range(len(standing)):
        for j in range(i + 1, len(standing)):
            diff = ImageChops.difference(standing[i], standing[j]).convert("L")
            changed = sum(diff.histogram()[25:])
            assert changed > 60, f"{SHEETS[i]} and {SHEETS[j]} look too alike"


@pytest.mark.parametrize("name", EMOTES)
def test_emote_icons(name: str) -> None:
    with Image.open(ASSETS / "emotes" / f"{name}.png") as img:
        assert img.mode == "RGBA"
        icon = img.convert("RGBA")
    assert icon.size == (32, 32)
    alpha = icon.getchannel("A")
    assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((31, 31)) == 0
    assert alpha.getextrema() == (0, 255)
    colours = {c for c, a in zip(icon.getdata(), alpha.getdata(), strict=True) if a == 255}
    assert len(colours) >= 4, "an icon inside a bubble needs more than two colours"


def test_emotes_are_distinct_and_talk_hint_is_small() -> None:
    icons = []
    for name in EMOTES:
        with Image.open(ASSETS / "emotes" / f"{name}.png") as img:
            icons.append(img.convert("RGBA"))
    for i in range(len(icons)):
        for j in range(i + 1, len(icons)):
            assert differs(icons[i], icons[j])
    with Image.open(ASSETS / "emotes" / "talk_hint.png") as img:
        assert img.size == (24, 24)


def test_ground_layer_tiles_are_opaque_and_decor_tree_is_not() -> None:
    import pytiled_parser

    m = pytiled_parser.parse_map(ROOT / "maps" / "village.tmx")
    ground = next(la for la in m.layers if la.name == "ground")
    assert isinstance(ground, pytiled_parser.TileLayer) and ground.data is not None
    ((firstgid, ts),) = m.tilesets.items()
    assert ts.tiles is not None
    names = {firstgid + i: str((t.properties or {})["name"]) for i, t in ts.tiles.items()}
    with Image.open(ASSETS / "tiles" / "village_tiles.png") as img:
        sheet = img.convert("RGBA")

    def tile(g: int) -> Image.Image:
        i = g - firstgid
        col, row = i % ts.columns, i // ts.columns
        return sheet.crop((col * TILE, row * TILE, (col + 1) * TILE, (row + 1) * TILE))

    for g in {g for row in ground.data for g in row}:
        assert tile(g).getchannel("A").getextrema() == (255, 255), f"{names[g]} not opaque"
    tree = next(g for g, n in names.items() if n == "tree")
    assert tile(tree).getchannel("A").getextrema()[0] == 0


def test_art_licence() -> None:
    text = (ASSETS / "LICENSE-ART.md").read_text(encoding="utf-8")
    assert "CC0" in text and "tools/make_assets.py" in text and "original" in text


def test_generator_reproduces_committed_files(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_assets.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    produced = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(produced) > 20
    for rel in produced:
        committed = ROOT / rel
        assert committed.is_file(), f"{rel} is generated but not in the repository"
        if rel.suffix == ".png":
            with Image.open(tmp_path / rel) as a, Image.open(committed) as b:
                assert a.size == b.size and not differs(a.convert("RGBA"), b.convert("RGBA")), (
                    f"{rel} is out of date: run tools/make_assets.py"
                )
        else:
            assert (tmp_path / rel).read_bytes() == committed.read_bytes(), (
                f"{rel} is out of date: run tools/make_assets.py"
            )
