"""Where the game's own files are: the art (`assets/`) and the maps (`maps/`).

In the repository they sit at the top level, where map makers find them; the build puts
them into the package as `game/data/` (see `setup.py`), so an installed game finds them
with `importlib.resources`. The one place that knows, so the rest asks here: the
character sheets an NPC may wear, and the map as the game loads it (NPC sprites checked
against those sheets, and every image it draws from read as an image, before any window
opens: a bad one would otherwise surface late, from arcade, in the window).
"""

from __future__ import annotations

import warnings
from functools import cache
from importlib import resources
from pathlib import Path

from PIL import Image

from game.limits import MAX_IMAGE_PX, MAX_MAP_IMAGE_PIXELS
from game.paths import HOME_MAP_ID
from game.world.errors import MapError
from game.world.tiled import MapData, load_map
from game.world.tiled_check import check_file

__all__ = [
    "ASSETS",
    "DEFAULT_MAP",
    "MAPS",
    "character_sheets",
    "check_image",
    "check_image_total",
    "load_game_map",
]


def _bundled(name: str) -> Path:
    """A folder the wheel carries in `game/data/`, else the source tree's own."""
    packaged = Path(str(resources.files("game"))) / "data" / name
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[1] / name


ASSETS = _bundled("assets")
MAPS = _bundled("maps")
DEFAULT_MAP = MAPS / f"{HOME_MAP_ID}.tmx"
PLAYER_SHEET = "player"


@cache
def character_sheets() -> tuple[str, ...]:
    """The sheets in `assets/characters/` an NPC may wear (the player's is the player's)."""
    found = sorted(p.stem for p in (ASSETS / "characters").glob("*.png"))
    return tuple(name for name in found if name != PLAYER_SHEET)


def load_game_map(path: Path) -> MapData:
    """`load_map` as the game plays it: an NPC's missing or unknown sprite gets a sheet,
    every image the map draws from must pass `check_image`, and all of them together may
    have at most `MAX_MAP_IMAGE_PIXELS` pixels."""
    data = load_map(path, sheets=character_sheets())
    sizes = {image: check_image(data.path, image) for image in data.images}
    check_image_total(data.path, sizes)
    return data


def check_image_total(map_path: Path, sizes: dict[Path, tuple[int, int]]) -> None:
    """The images of a map, by their (width, height), add up to at most
    `MAX_MAP_IMAGE_PIXELS` pixels; else one `MapError` naming the largest and the bound."""
    total = sum(w * h for w, h in sizes.values())
    if total <= MAX_MAP_IMAGE_PIXELS:
        return
    largest = sorted(sizes, key=lambda image: -sizes[image][0] * sizes[image][1])
    named = ", ".join(f"{image.name} {sizes[image][0]}x{sizes[image][1]}" for image in largest[:4])
    more = f" and {len(largest) - 4} more" if len(largest) > 4 else ""
    raise MapError(
        f"map {map_path}: its images have {total:,} pixels in all ({named}{more}); a map's "
        f"images may have at most {MAX_MAP_IMAGE_PIXELS:,} pixels in all "
        f"({MAX_IMAGE_PX}x{MAX_IMAGE_PX}); use fewer or smaller images"
    )


def check_image(map_path: Path, image: Path) -> tuple[int, int]:
    """An image a map draws from must be a regular file within the bound of a map's files
    that PIL reads as an image of at most `MAX_IMAGE_PX` pixels a side; else `MapError`.
    Its (width, height)."""
    what = f"map {map_path}: image"
    check_file(image, what)
    too_big = f"an image may have at most {MAX_IMAGE_PX}x{MAX_IMAGE_PX} pixels; make it smaller"
    try:
        with warnings.catch_warnings():  # PIL warns of a huge image: that is an error here
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(image) as img:
                width, height = img.size
                img.verify()  # reads it through without decoding the pixels
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise MapError(f"{what} {image} has too many pixels; {too_big}") from None
    except Exception as exc:  # PIL raises many kinds; all mean "not an image it can read"
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise MapError(f"{what} {image} is not an image ({reason}); save it as a PNG") from None
    if max(width, height) > MAX_IMAGE_PX:
        raise MapError(f"{what} {image} is {width}x{height} pixels; {too_big}")
    return width, height
