"""Start NPC Village: `python run_game.py --help` lists every option."""

import sys

from game.cli import main

if __name__ == "__main__":
    sys.exit(main())
