"""game/world."""
