"""game/npc."""
