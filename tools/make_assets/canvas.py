"""Pixel helpers: regions, the `Canvas` every tile and sprite is drawn on, shadows."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from PIL import Image, ImageOps

from .palette import CLEAR, OUTLINE, RGBA, SHADOW, TILE, Px, Region


def disc(cx: float, cy: float, rx: float, ry: float | None = None) -> Region:
    """Pixels whose centres lie inside an ellipse."""
    ry = rx if ry is None else ry
    out: Region = set()
    for y in range(int(cy - ry) - 1, int(cy + ry) + 2):
        for x in range(int(cx - rx) - 1, int(cx + rx) + 2):
            if ((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1.0:
                out.add((x, y))
    return out


def box(x0: int, y0: int, x1: int, y1: int) -> Region:
    """Pixels of an inclusive rectangle."""
    return {(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)}


def rounded(x0: int, y0: int, x1: int, y1: int, r: int = 1) -> Region:
    """An inclusive rectangle with its corners cut by r pixels."""
    out = box(x0, y0, x1, y1)
    for i in range(r):
        for j in range(r - i):
            out -= {(x0 + i, y0 + j), (x1 - i, y0 + j), (x0 + i, y1 - j), (x1 - i, y1 - j)}
    return out


class Canvas:
    """A small RGBA pixel canvas with pixel-art drawing helpers."""

    def __init__(self, width: int = TILE, height: int = TILE) -> None:
        self.w = width
        self.h = height
        self.img = Image.new("RGBA", (width, height), CLEAR)
        px = self.img.load()
        assert px is not None
        self.px = px

    def dot(self, x: int, y: int, c: RGBA) -> None:
        """Set one pixel (ignored outside the canvas)."""
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[x, y] = c

    def get(self, x: int, y: int) -> RGBA:
        """Read one pixel (transparent outside the canvas)."""
        if 0 <= x < self.w and 0 <= y < self.h:
            v = self.px[x, y]
            assert isinstance(v, tuple)
            return (v[0], v[1], v[2], v[3])
        return CLEAR

    def rect(self, x0: int, y0: int, x1: int, y1: int, c: RGBA) -> None:
        """Fill an inclusive rectangle."""
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.dot(x, y, c)

    def fill(self, region: Iterable[Px], c: RGBA) -> None:
        """Fill every pixel of a region."""
        for x, y in region:
            self.dot(x, y, c)

    def blend(self, region: Iterable[Px], c: RGBA) -> None:
        """Alpha-blend a colour over every pixel of a region."""
        a = c[3] / 255
        for x, y in region:
            if not (0 <= x < self.w and 0 <= y < self.h):
                continue
            r, g, b, al = self.get(x, y)
            if al == 0:
                self.dot(x, y, c)
                continue
            self.dot(
                x,
                y,
                (
                    int(r * (1 - a) + c[0] * a),
                    int(g * (1 - a) + c[1] * a),
                    int(b * (1 - a) + c[2] * a),
                    max(al, c[3]),
                ),
            )

    def hline(self, x0: int, x1: int, y: int, c: RGBA) -> None:
        """Horizontal line, inclusive."""
        self.rect(x0, y, x1, y, c)

    def vline(self, x: int, y0: int, y1: int, c: RGBA) -> None:
        """Vertical line, inclusive."""
        self.rect(x, y0, x, y1, c)

    def shaded(
        self, region: Region, base: RGBA, light: RGBA, dark: RGBA, dark_depth: int = 2
    ) -> None:
        """Fill a region lit from the top-left: light rim top-left, dark rim bottom-right."""
        self.fill(region, base)
        for x, y in region:
            if (x - 1, y) not in region or (x, y - 1) not in region:
                self.dot(x, y, light)
        for x, y in region:
            if any((x + d, y + d) not in region for d in range(1, dark_depth + 1)):
                self.dot(x, y, dark)

    def outline(self, c: RGBA = OUTLINE) -> None:
        """Draw a 1px outline around every fully opaque pixel."""
        solid = {(x, y) for y in range(self.h) for x in range(self.w) if self.get(x, y)[3] == 255}
        edge = set()
        for x, y in solid:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (x + dx, y + dy)
                if n not in solid and 0 <= n[0] < self.w and 0 <= n[1] < self.h:
                    edge.add(n)
        self.fill(edge, c)

    def over(self, other: Canvas, dx: int = 0, dy: int = 0) -> None:
        """Composite another canvas on top of this one."""
        layer = Image.new("RGBA", (self.w, self.h), CLEAR)
        layer.paste(other.img, (dx, dy))
        self.img.alpha_composite(layer)

    def mirrored(self) -> Canvas:
        """A left-right mirrored copy."""
        out = Canvas(self.w, self.h)
        out.img.paste(ImageOps.mirror(self.img), (0, 0))
        return out


def sprinkle(
    c: Canvas, rng: random.Random, n: int, colour: RGBA, region: Region | None = None
) -> None:
    """Scatter single pixels of a colour."""
    cells = sorted(region) if region else [(x, y) for y in range(c.h) for x in range(c.w)]
    for _ in range(n):
        x, y = rng.choice(cells)
        c.dot(x, y, colour)


def ground_shadow(c: Canvas, cx: float, cy: float, rx: float, ry: float) -> None:
    """A soft translucent shadow under an object."""
    c.blend(disc(cx, cy, rx, ry), SHADOW)


def with_object(
    draw: Callable[[Canvas], None], shadow: tuple[float, float, float, float] | None
) -> Canvas:
    """Draw an outlined object over an optional ground shadow, on a transparent tile."""
    obj = Canvas()
    draw(obj)
    obj.outline()
    out = Canvas()
    if shadow:
        ground_shadow(out, *shadow)
    out.over(obj)
    return out


def bricks(
    c: Canvas, region: Region, base: RGBA, light: RGBA, dark: RGBA, bw: int = 6, bh: int = 4
) -> None:
    """Fill a region with a running-bond brick pattern."""
    c.fill(region, dark)
    for x, y in region:
        row = y // bh
        off = (row % 2) * (bw // 2)
        if y % bh == bh - 1 or (x + off) % bw == bw - 1:
            continue
        c.dot(x, y, light if y % bh == 0 else base)
