"""Finding things in screenshots by colour: sprites by the colours only they use."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import Image

from .conftest import ROOT

ASSETS = ROOT / "assets"


def colours(path: Path) -> set[tuple[int, int, int]]:
    """The opaque colours of an image."""
    return {c[:3] for c in Image.open(path).convert("RGBA").getdata() if c[3] == 255}


@cache
def own_colours_of(path: Path) -> frozenset[tuple[int, int, int]]:
    """Colours found in one image of the art and in no other."""
    mine = colours(path)
    others: set[tuple[int, int, int]] = set()
    for png in ASSETS.rglob("*.png"):
        if png != path:
            others |= colours(png)
    return frozenset(mine - others)


def own_colours(sheet: str) -> frozenset[tuple[int, int, int]]:
    """Colours found in one character sheet and in no other art."""
    return own_colours_of(ASSETS / "characters" / f"{sheet}.png")


def locate(
    img: Image.Image, palette: set[tuple[int, int, int]] | frozenset[tuple[int, int, int]]
) -> tuple[int, int, int]:
    """Count and centre of the pixels of a palette in a screenshot."""
    xs, ys = [], []
    w = img.width
    for i, c in enumerate(img.getdata()):
        if c in palette:
            xs.append(i % w)
            ys.append(i // w)
    if not xs:
        return 0, -1, -1
    return len(xs), sum(xs) // len(xs), sum(ys) // len(ys)


def bubble_pixels(region: Image.Image) -> tuple[int, int]:
    """(cream, ink) pixel counts: a speech bubble's fill and its text."""
    data = list(region.getdata())
    cream = sum(1 for r, g, b in data if r > 240 and g > 238 and 215 < b < 250)
    ink = sum(1 for r, g, b in data if r < 70 and g < 70 and b < 80)
    return cream, ink
