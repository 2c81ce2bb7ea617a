"""The provider names a player can choose, and which of them answer from a remote API."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["PROVIDER_NAMES", "REMOTE_PROVIDERS", "ProviderName"]

ProviderName = Literal["auto", "local", "openai", "openai-chat", "anthropic", "scripted"]
PROVIDER_NAMES: tuple[ProviderName, ...] = get_args(ProviderName)
REMOTE_PROVIDERS: frozenset[str] = frozenset({"openai", "openai-chat", "anthropic"})
