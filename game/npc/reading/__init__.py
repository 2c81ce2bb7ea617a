"""The English reader of the player's words: what a line asks (`intent`), the ways players
say each thing (`phrases`), what it names (`naming`), how it asks (`asking`), who the
player is and what they said (`player`)."""
