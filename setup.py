"""The build puts the repository's `maps/` and `assets/` into the package as `game/data/`.

Everything else is in pyproject.toml. The repository keeps them at the top level, where
map makers find them; an installed game finds them inside the package
(`game.assets`, with `importlib.resources`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = ("maps", "assets")  # top-level folders that ship inside the package


class BuildWithData(build_py):
    """`build_py`, then the bundled folders copied to `game/data/` in the build."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "game" / "data"
        for name in BUNDLED:
            shutil.copytree(
                ROOT / name,
                target / name,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("broken", "__pycache__", "*.pyc"),
            )


setup(cmdclass={"build_py": BuildWithData})
