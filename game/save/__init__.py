"""Save slots: the world state and every NPC's session, written crash-safely.

    layout.py     the files of a slot, declared once (SLOT_FILES): every save path iterates it
    format.py     the models of world.json and meta.json, versions, migrations
    slot_io.py    read_slot (repairs and warns) and write_slot (never raises on disk errors)
    catalog.py    list, show and delete whole slots, copy for "save as" (the CLI, the load list)
    transfer.py   export a slot to a zip, import one (every member checked first)
    keeper.py     SlotKeeper: the running game's saves (snapshot on the game thread, disk
                  work off it, load, save as, autosave)
    world_state.py  the world to a snapshot and back (restore_world at startup)
    life.py       news.json, board.json, feelings.json: the village's news, boards and
                  feelings, copied on the game thread, written and read off it
    life_format.py  the models of those files, read record by record
    salvage.py    what a save cannot read is set aside (.rejected, .damaged), never lost
    thumbnail.py  raw frame -> 256x144 PNG, off the game thread
    cli.py        `run_game.py saves ...`
    errors.py     SaveError and its children

Files are written through `game.atomic` (temp file, fsync, rename, keeping a .bak).
The format itself is documented in `saves/README.md` at the root of the repository.
"""
