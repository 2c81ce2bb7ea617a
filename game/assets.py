"""Where the game's own files are: the art (`assets/`) and the maps (`maps/`).

In the repository they sit at the top level, where map makers find them; the build puts
them into the package as `game/data/` (see `setup.py`), so an installed game finds them
with `importlib.resources`. The one place that knows, so the rest asks here: the
character sheets an NPC may wear, and the map as the game loads it (NPC sprites checked
against those sheets).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from game.world.tiled import MapData, load_map

__all__ = ["ASSETS", "DEFAULT_MAP", "MAPS", "character_sheets", "load_game_map"]


def _bundled(name: str) -> Path:
    """A folder the wheel carries in `game/data/`, else the source tree's own."""
    packaged = Path(str(resources.files("game"))) / "data" / name
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[1] / name


ASSETS = _bundled("assets")
MAPS = _bundled("maps")
DEFAULT_MAP = MAPS / "village.tmx"
PLAYER_SHEET = "player"


@cache
def character_sheets() -> tuple[str, ...]:
    """The sheets in `assets/characters/` an NPC may wear (the player's is the player's)."""
    found = sorted(p.stem for p in (ASSETS / "characters").glob("*.png"))
    return tuple(name for name in found if name != PLAYER_SHEET)


def load_game_map(path: Path) -> MapData:
    """`load_map` as the game plays it: an NPC's missing or unknown sprite gets a sheet."""
    return load_map(path, sheets=character_sheets())
