"""Emotes: 32x32 icons in a white rounded bubble; talk_hint is a 24x24 speech bubble."""

from __future__ import annotations

from collections.abc import Callable

from .canvas import Canvas, box, disc, rounded
from .palette import BLUSH, EYE, SKIN, SKIN_D, WHITE, Region, hexc


def bubble(size: int = 32, cloud: bool = False) -> tuple[Canvas, Region]:
    """A white speech (or thought) bubble with a dark outline; returns canvas and inner area."""
    c = Canvas(size, size)
    s = size / 32
    if cloud:
        body: Region = set()
        for cx, cy, r in (
            (16, 13, 11),
            (8, 11, 6),
            (24, 11, 6),
            (11, 6, 5.5),
            (21, 6, 5.5),
            (10, 17, 6),
            (22, 17, 6),
        ):
            body |= disc(cx * s, cy * s, r * s, r * s * 0.95)
        body = {(x, y) for x, y in body if 1 <= x < size - 1 and 1 <= y < size - 1}
        tail = disc(6 * s, 25 * s, 2.2 * s) | disc(3.5 * s, 29 * s, 1.3 * s)
    else:
        body = rounded(1, 1, size - 2, int(24 * s), max(2, int(5 * s)))
        tail = {
            (x, y)
            for y in range(int(24 * s), int(30 * s))
            for x in range(int(7 * s), int(7 * s) + int(6 * s) - (y - int(24 * s)))
        }
    c.fill(body | tail, WHITE)
    c.fill(
        {
            (x, y)
            for x, y in body
            if y >= (22 if not cloud else 20) * s and (x, y + 1) not in body | tail
        },
        hexc("#dcd6e4"),
    )
    c.outline()
    return c, body


def e_wave() -> Canvas:
    """A waving hand with motion marks."""
    c, _ = bubble()
    hand = box(11, 9, 20, 19) | rounded(11, 15, 20, 21, 2)
    for fx, top in ((11, 5), (13, 4), (15, 4), (17, 5)):
        hand |= box(fx, top, fx + 1, 10)
    hand |= box(20, 11, 22, 14) | {(22, 10), (23, 10)}
    layer = Canvas()
    layer.shaded(hand, SKIN, hexc("#fde4c8"), SKIN_D, 1)
    for fx in (12, 14, 16):
        layer.vline(fx + 1, 7, 10, SKIN_D)
    layer.outline()
    c.over(layer)
    for pts in (((7, 8), (6, 10), (6, 12)), ((25, 16), (26, 18), (26, 20))):
        c.fill(set(pts), hexc("#5a8fd8"))
    c.fill({(8, 6), (24, 21)}, hexc("#5a8fd8"))
    return c


def e_nod() -> Canvas:
    """A green check mark."""
    c, _ = bubble()
    check: Region = set()
    for i in range(5):
        check |= box(8 + i, 12 + i, 10 + i, 14 + i)
    for i in range(9):
        check |= box(12 + i, 15 - i, 14 + i, 17 - i)
    layer = Canvas()
    layer.shaded(check, hexc("#4cae50"), hexc("#86d884"), hexc("#2f8a3a"), 1)
    layer.outline(hexc("#1f5a28"))
    c.over(layer)
    return c


def e_shake_head() -> Canvas:
    """A red cross."""
    c, _ = bubble()
    cross: Region = set()
    for i in range(11):
        cross |= box(9 + i, 6 + i, 11 + i, 8 + i) | box(20 - i, 6 + i, 22 - i, 8 + i)
    layer = Canvas()
    layer.shaded(cross, hexc("#e04848"), hexc("#ff8a80"), hexc("#a83030"), 1)
    layer.outline(hexc("#6a1e22"))
    c.over(layer)
    return c


def e_laugh() -> Canvas:
    """A laughing face with closed eyes and an open mouth."""
    c, _ = bubble()
    face = disc(16, 13, 9, 8.5)
    layer = Canvas()
    layer.shaded(face, hexc("#f8cc48"), hexc("#ffe890"), hexc("#d8a030"), 1)
    for ex in (11, 18):
        layer.fill({(ex, 11), (ex + 1, 10), (ex + 2, 10), (ex + 3, 11)}, EYE)
    mouth = {(x, y) for x, y in disc(16, 14, 5.5, 5) if y >= 14}
    layer.fill(mouth, hexc("#8a2a3a"))
    layer.fill({(x, y) for x, y in mouth if y >= 17}, hexc("#f07888"))
    layer.hline(11, 21, 14, hexc("#8a2a3a"))
    layer.fill({(9, 13), (23, 13)}, BLUSH)
    layer.outline()
    c.over(layer)
    c.fill({(5, 8), (5, 9), (26, 8), (26, 9)}, hexc("#6ab8ee"))
    return c


def e_think() -> Canvas:
    """A thought cloud with an ellipsis."""
    c, _ = bubble(cloud=True)
    for x in (9, 15, 21):
        c.fill(box(x, 12, x + 2, 14), hexc("#5a5468"))
        c.dot(x, 12, hexc("#8a84a0"))
    return c


def e_talk_hint() -> Canvas:
    """A small 24x24 speech bubble with three dots: 'you can talk to me'."""
    c, _ = bubble(24)
    for x in (6, 11, 16):
        c.fill(box(x, 8, x + 1, 9), hexc("#3f78c8"))
    return c


EMOTES: dict[str, Callable[[], Canvas]] = {
    "wave": e_wave,
    "nod": e_nod,
    "shake_head": e_shake_head,
    "laugh": e_laugh,
    "think": e_think,
    "talk_hint": e_talk_hint,
}
