"""game/agent."""
