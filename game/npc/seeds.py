"""Stable randomness from text: the same NPC makes the same choices on every run."""

from __future__ import annotations

import hashlib
import random

__all__ = ["rng_of", "seed_of"]


def _digest(parts: tuple[str, ...]) -> bytes:
    return hashlib.sha256("|".join(parts).encode()).digest()


def seed_of(*parts: str) -> int:
    """A stable number from text, for choices that must be the same every run."""
    return int.from_bytes(_digest(parts)[:4], "big")


def rng_of(*parts: str) -> random.Random:
    """A random generator seeded from text: the same sequence every run."""
    return random.Random(int.from_bytes(_digest(parts)[:8], "big"))
