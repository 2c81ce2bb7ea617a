#!/usr/bin/env python3
"""Generate the art (tileset, character sheets, emotes) and the villages' maps (TMX + TMJ twins).

Everything is drawn procedurally with Pillow from fixed seeds, so the output is deterministic;
the drawing lives in the package `tools/make_assets/`. Run from the repository root:

    python tools/make_assets.py               # writes ./assets and ./maps
    python tools/make_assets.py --out DIR     # writes DIR/assets and DIR/maps
    python tools/make_assets.py --preview     # also writes /tmp/preview_*.png (never commit)
"""

from make_assets.output import main

if __name__ == "__main__":
    raise SystemExit(main())
