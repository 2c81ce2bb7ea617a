"""Every bound the game holds what it reads to: one table.

A map, a save slot, a download, a config file and what a model sends back can be
anything. Each has a bound here, checked before the thing is read or kept; anything at a
bound works end to end (load, play, save, load), and anything past it costs one line,
never the game. The README ("Limits") and `saves/README.md` ("Size bounds") document
this table; `tests/test_limits.py` checks that they say the same.

Pure data: every package may import it (the agent runtime too).
"""

from __future__ import annotations

KB = 1024
MB = 1024 * KB
GB = 1024 * MB

# --- what the game parses -------------------------------------------------------------
# JSON nesting: no file or message the game writes nests deeper than a handful of levels.
# Deeper JSON (from a slot, a log line, an import, a config, a provider's response, the
# model worker) is refused as damaged before the parser recurses into it.
MAX_JSON_DEPTH = 64

# --- a map (checked before pytiled_parser reads it) ------------------------------------
MAX_MAP_FILE_BYTES = 32 * MB  # the map, and each tileset, template and image it names
MAX_MAP_NODES = 1_000_000  # XML elements, or JSON objects and arrays, in one file
MAX_LAYER_TILES = 1_000_000  # the map's width x height, and each tile layer's (1000x1000)
MAX_MAP_TILES = 4_000_000  # all tile layers together
MAX_MAP_LAYERS = 64  # layers of any kind, groups included
MAX_TILE_PX = 1024  # a tile's width and height, in pixels
MAX_MAP_OBJECTS = 10_000  # objects in all object layers
MAX_MAP_NPCS = 1_000  # objects in the layer named npcs
MAX_IMAGE_PX = 8192  # an image's width and height, in pixels
# An NPC's text, from its Tiled properties (the name also from the object's name): a
# persona goes into every request the NPC makes, wares onto the notice board and into
# news.json. Longer text is cut there, with one warning line naming the NPC.
NPC_TEXT_CHARS: dict[str, int] = {
    "name": 40,
    "persona": 2000,
    "greeting": 300,
    "wares": 500,
    "plan": 1000,  # at most 24 stops
    # A character sheet's fields stated directly (game/npc/sheet/): short lists.
    "role": 80,
    "likes": 300,
    "dislikes": 300,
    "beliefs": 500,
    "fears": 300,
    "refuses": 300,
    "opinions": 500,
    "talks": 100,
}
MAX_NPC_PROPERTY_CHARS = 500  # any other property's value (home, work, description, ...)
MAX_NPC_PROPERTIES = 32  # properties of one NPC; more, or a name past 64 characters, dropped
MAX_NPC_PROPERTY_NAME = 64
# The pixels of all the images a map draws from, added up: one sheet of the largest side's
# worth (256 MiB decoded as RGBA). Each image is within MAX_IMAGE_PX, yet six such would
# decode to gigabytes; past this the map is refused before any window opens.
MAX_MAP_IMAGE_PIXELS = MAX_IMAGE_PX * MAX_IMAGE_PX

# --- an NPC's character sheet (game/npc/sheet/), read once when the village opens ---
SHEET_ITEMS = 8  # of each list (likes, beliefs, opinions, ...): more are left out
SHEET_PHRASE_CHARS = 120  # of one phrase on it ("the wind speaks to me"): longer is cut

# --- what an NPC knows by heart (its profile, on every request; game/npc/known.py) ------
# On a bigger map than these an NPC knows the nearest (and whom it met, and its own places):
# a profile, and the work of every turn, stays the same size however big the map.
PROFILE_VILLAGERS = 50  # the other villagers a profile names
# The places a profile names (its home, work, plan's stops, then the nearest), and those a
# message to a model lists (an unknown place's: the nearest).
PROFILE_PLACES = 50
# The words of a village the English reader keeps made (game/npc/reading/families.py), one
# per set of villagers and places a profile knows: past this many, it starts afresh.
LEXICONS_KEPT = 64

# --- a save slot ---------------------------------------------------------------------
# The most bytes the game reads of each file of a slot, by its name (a zip's members too).
SLOT_FILE_BYTES: dict[str, int] = {
    "meta.json": 64 * KB,
    "world.json": 16 * MB,
    "thumbnail.png": 4 * MB,
    "world_summary.txt": 1 * MB,
    "news.json": 4 * MB,
    "board.json": 4 * MB,
    "feelings.json": 4 * MB,
    "events.jsonl": 1 * GB,
    "state.json": 64 * KB,
    "summary.txt": 1 * MB,
}
# The clock and play time, in seconds: about 30 years of play. A game played past it is
# saved at it (its clock goes on); a file past it is damaged.
MAX_CLOCK_S = 1e9
# The time of day in game minutes: a day can pass in a real minute, so 24 per second. A
# game played past it is saved whole days back, at the same time of day.
MAX_DAY_MINUTES = 24 * MAX_CLOCK_S
MAX_UNIX_TIME = 1e11  # the dates of a save (unix time): about the year 5138
MAX_COORD = 1_000_000  # a saved tile's x and y, either sign: beyond any map the game plays
# Text in a slot, in characters (a longer name the game holds is saved cut to its bound).
MAX_ID_CHARS = 128  # an NPC, "player", a news or board id
MAX_NAME_CHARS = 200  # a name: the player's, a slot's, an NPC's or a board's
MAX_SHORT_CHARS = 500  # a place, a when, a key, a reason
MAX_TEXT_CHARS = 2000  # a piece of news, a post
MAX_PATH_CHARS = 4096  # the map's path a save records
# Records in news.json, board.json and feelings.json: ten times what the world keeps
# (game.world.news.MAX_NEWS, MAX_PASSES, game.world.board.MAX_POSTS), so a bound is never
# what a game reaches. Past one, the records beyond it are set aside, not the file.
MAX_SAVED_IDS = 10_000  # NPCs, boards, pairs of characters: keys of one map of the file
MAX_SAVED_NEWS = 2_000  # pieces of news, and pieces one character knows
MAX_SAVED_PASSES = 20_000  # passes of news kept for the record
MAX_SAVED_POSTS = 2_000  # posts of one board
# The records of a file set aside because this game cannot read them (`<file>.rejected`):
# the newest that fit are kept.
MAX_REJECTED_BYTES = 8 * MB
# Of many warnings alike (200,000 NPCs of a save not on the map), the ones named before
# "... and N more".
MAX_WARNINGS_NAMED = 3
# One line of an NPC's log: no event the game writes comes near it; a longer one is skipped.
MAX_EVENT_BYTES = 1 * MB
MAX_THUMBNAIL_PIXELS = 1024 * 1024  # a save's thumbnail is 256x144
MAX_SUMMARY_CHARS = 8000  # of a world or NPC summary, the characters put in a prompt
MAX_IMPORT_BYTES = 2 * GB  # an import zip's files, added up (a zip bomb guard)
# An import zip's members, folders included: a slot holds 8 files and 2 folders, and each
# NPC 3 files in 3 folders (a zip made by hand lists the folders too). Read from the zip's
# end record, before its list of members is parsed or anything is unpacked.
MAX_IMPORT_MEMBERS = 8 * MAX_MAP_NPCS + 32
# The zip's list of members: an entry is its name (under 200 bytes) and a few fields, so a
# zip that declares few members but lists more cannot make parsing the list long.
MAX_IMPORT_INDEX_BYTES = 4 * MB  # over 512 bytes for each of MAX_IMPORT_MEMBERS

# --- a download (a model pulled from the Hugging Face Hub, `local.hub`) ------------------
# The largest file a pull takes, unless NPC_VILLAGE_MAX_DOWNLOAD_GB sets another: the
# catalogue's largest model is 2.5 GB, and 16 GB holds a 30B model at 4 bits. Any pull
# also needs the size the hub declares in free disk, and never writes a byte past it.
MAX_DOWNLOAD_BYTES = 16 * GB
DOWNLOAD_DISK_MARGIN = 64 * MB  # free disk a pull leaves, for saves and logs
MAX_DOWNLOAD_REDIRECTS = 5  # hops from the hub to where the file is (the hub uses one)

# --- what a model sends back -----------------------------------------------------------
# What an NPC says in a turn is a few hundred characters (a say is at most 200). A reply
# past one of these is cut there and its stream closed, with one warning line: the bubble,
# `chat`'s stdout and the log get no more of it, and the turn ends after that response.
MAX_REPLY_CHARS = 4000  # the plain text of one turn, all its responses together
MAX_TOOL_ARGS_CHARS = 4000  # the arguments (JSON text) of one tool call
MAX_TOOL_CALLS = 16  # tool calls in one response
MAX_TOOL_NAME_CHARS = 128  # a tool call's name, and its id

# --- files handed to the game ----------------------------------------------------------
MAX_CONFIG_BYTES = 1 * MB  # config.toml and .env
MAX_SCRIPT_BYTES = 1 * MB  # a --script key script
MAX_SCRIPT_FRAME = 10_000_000  # frames and hold counts in a script (about 46 hours)
