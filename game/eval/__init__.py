"""The believability suite: scenarios as data, run through the `chat` harness, and the
figures that judge what the NPCs did (`python run_game.py eval`)."""
