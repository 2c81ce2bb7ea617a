"""game/agent/providers."""
