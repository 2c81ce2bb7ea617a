"""Thumbnails: raw pixels grabbed on the game thread, scaled and PNG-encoded off it.

The UI reads the frame buffer into a `Frame` (bytes only: cheap); everything costly,
building the image, flipping, scaling and encoding, happens on the save thread.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

__all__ = ["THUMB_SIZE", "Frame", "encode_png", "png_size"]

THUMB_SIZE = (256, 144)


@dataclass(frozen=True)
class Frame:
    """Raw pixels of one frame: `mode` "RGB" or "RGBA", rows bottom-up if `flipped`."""

    data: bytes
    width: int
    height: int
    mode: str = "RGB"
    flipped: bool = True


def encode_png(frame: Frame, size: tuple[int, int] = THUMB_SIZE) -> bytes:
    """The frame scaled to fit `size` (aspect kept), as PNG bytes."""
    from PIL import Image, ImageOps

    image = Image.frombytes(frame.mode, (frame.width, frame.height), frame.data)
    if frame.flipped:
        image = ImageOps.flip(image)
    image = image.convert("RGB")
    image.thumbnail(size, Image.Resampling.BILINEAR)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of PNG bytes, or None if they are not a PNG."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
