"""The art (tileset, character sheets, emotes) and the villages' maps (TMX + TMJ twins).

Everything is drawn procedurally with Pillow from fixed seeds, so the output is deterministic.
`tools/make_assets.py` runs it (see `output.main`). The modules, in the order they build on
each other: `palette` (sizes, colours), `canvas` (pixel helpers), the tile drawings
(`ground`, `overlays`, `props`, `buildings`), `tileset` (the registry), `layouts` (ASCII
maps to layers), `characters`, `emotes`, `map_objects` (NPCs from `personas.toml`, places,
spawns), `tiled` (the TMX/TSX/TMJ/TSJ writers) and `output` (files and the command line).
"""
