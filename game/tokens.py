"""The one cheap token estimate, shared by the agent's context budget and the world's
perception budget (both count the same way, so what fits one fits the other)."""

from __future__ import annotations

__all__ = ["estimate_tokens"]


def estimate_tokens(text: str) -> int:
    """A cheap token estimate: about four characters a token."""
    return (len(text) + 3) // 4
