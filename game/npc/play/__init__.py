"""The play script: how the bundled base model plays an NPC (the scene, the candidate
actions and the choice among them, the worker's job); see `script`."""
