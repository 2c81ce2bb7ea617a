"""NPC Village: a 2D game whose NPCs are LLM agents."""

APP_NAME = "npc-village"
