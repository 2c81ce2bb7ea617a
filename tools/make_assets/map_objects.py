"""Map objects: NPCs (from personas.toml), spawns, places and notice boards, in tile
coordinates."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .palette import Px

PERSONAS = Path(__file__).with_name("personas.toml")


@dataclass(frozen=True)
class NpcDef:
    """An NPC placed on a map."""

    id: str
    name: str
    sprite: str
    home: str
    tile: Px
    persona: str
    greeting: str
    work: str = ""  # a place of the map, where the plan's `work` is
    plan: str = ""  # the day plan, "7 work, 12 plaza, 19 home, 22 sleep" (game.world.plans)
    wares: str = ""  # what a merchant sells (posted on the notice board)


@dataclass(frozen=True)
class BoardDef:
    """A notice board: a one-tile object of class `board` where its tile is drawn."""

    id: str
    tile: Px
    description: str


@dataclass(frozen=True)
class PlaceDef:
    """A named rectangle of tiles."""

    id: str
    rect: tuple[int, int, int, int]  # x, y, width, height in tiles
    description: str


def load_npcs(map_key: str, path: Path = PERSONAS) -> tuple[NpcDef, ...]:
    """The NPCs of one map (`village`, `tiny`) as the personas file describes them."""
    with path.open("rb") as file:
        entries = tomllib.load(file)[map_key]
    return tuple(
        NpcDef(
            id=e["id"],
            name=e["name"],
            sprite=e["sprite"],
            home=e["home"],
            tile=(e["tile"][0], e["tile"][1]),
            persona=e["persona"],
            greeting=e["greeting"],
            work=e.get("work", ""),
            plan=e.get("plan", ""),
            wares=e.get("wares", ""),
        )
        for e in entries
    )


VILLAGE_NPCS = load_npcs("village")
VILLAGE_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef(
        "plaza",
        (14, 13, 11, 9),
        "The cobbled heart of Hollowbrook, with lamp posts at its corners, the notice board "
        "by a lamp and the old well in the middle.",
    ),
    PlaceDef(
        "well",
        (19, 16, 1, 1),
        "A round stone well under a little red roof; its water is cold and sweet.",
    ),
    PlaceDef(
        "elder_house",
        (16, 5, 7, 5),
        "Elder Maren's large slate-roofed house, looking down the lane to the plaza.",
    ),
    PlaceDef(
        "cottage",
        (3, 4, 5, 4),
        "A snug red-roofed cottage where Pip's family lives, beside the vegetable garden.",
    ),
    PlaceDef(
        "garden",
        (9, 3, 5, 6),
        "A fenced vegetable garden with cabbages, flowers and fat orange pumpkins.",
    ),
    PlaceDef(
        "bakery",
        (6, 11, 7, 5),
        "Tobin's bakery, with a brick oven by the wall and a stall of fresh loaves out front.",
    ),
    PlaceDef(
        "forge",
        (3, 22, 8, 6),
        "Brenna's stone forge: a roaring furnace, an anvil and a yard that smells of coal "
        "and hot iron.",
    ),
    PlaceDef(
        "market",
        (15, 22, 9, 6),
        "Market stalls selling fruit, cloth and curiosities, with crates and barrels "
        "stacked about.",
    ),
    PlaceDef(
        "orchard",
        (25, 3, 7, 9),
        "A small orchard of old apple trees between the elder's house and the river.",
    ),
    PlaceDef(
        "bridge",
        (33, 17, 3, 2),
        "A sturdy wooden bridge over the river, linking the village to the east bank.",
    ),
    PlaceDef("fisher_hut", (38, 9, 7, 4), "Wren's little cottage on the east bank of the river."),
    PlaceDef(
        "dock",
        (40, 22, 3, 6),
        "A wooden jetty reaching into the pond, where Wren fishes beside her rowboat.",
    ),
    PlaceDef(
        "pond", (28, 22, 18, 11), "A wide, quiet pond fed by the river and dotted with lily pads."
    ),
    PlaceDef("beach", (25, 23, 6, 10), "A little sandy beach on the west shore of the pond."),
)
VILLAGE_SPAWN: Px = (17, 19)
VILLAGE_BOARDS: tuple[BoardDef, ...] = (
    BoardDef(
        "notice_board",
        (15, 13),  # the `N` of the layout: the plaza's north edge, by its north-west lamp
        "The village notice board on the plaza: news, lost and found, and the merchant's wares.",
    ),
)

TINY_NPCS = load_npcs("tiny")
TINY_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef("house", (2, 2, 3, 1), "A short stretch of house wall with a window."),
    PlaceDef("pond", (7, 2, 2, 2), "A tiny pond."),
    PlaceDef("yard", (1, 4, 8, 3), "An open yard with a short dirt path."),
)
TINY_SPAWN: Px = (2, 5)

LARKMOOR_NPCS = load_npcs("larkmoor")
LARKMOOR_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef(
        "green",
        (15, 11, 11, 8),
        "The village green in the middle of Larkmoor: a square of grass ringed by a dirt path, "
        "with a lamp at each corner, benches, and the notice board by the north-west lamp.",
    ),
    PlaceDef(
        "schoolhouse",
        (3, 3, 7, 5),
        "Agnes's schoolhouse in the north-west of the village: a long slate-roofed building "
        "with benches outside where the children wait for the bell.",
    ),
    PlaceDef(
        "pottery",
        (15, 3, 8, 5),
        "Edda's pottery north of the green: a red-roofed workshop with a brick kiln at its "
        "side and pots drying in the yard.",
    ),
    PlaceDef(
        "apiary",
        (28, 3, 10, 7),
        "A fenced meadow of heather in the north-east of the village where Corin keeps his "
        "straw beehives.",
    ),
    PlaceDef(
        "hive_cottage",
        (38, 3, 7, 5),
        "Corin's small cottage in the north-east corner, just past the beehives.",
    ),
    PlaceDef(
        "spring",
        (11, 8, 2, 2),
        "A small clear spring north-west of the green, by the path to the schoolhouse, where "
        "the village draws its water.",
    ),
    PlaceDef(
        "glassworks",
        (2, 17, 9, 5),
        "Ivo's stone glassworks on the west side of the village, with the glass furnace "
        "roaring by its door.",
    ),
    PlaceDef(
        "turf_cottage",
        (3, 22, 5, 4),
        "Mab's low cottage in the south-west of the village, beside the peat cuttings.",
    ),
    PlaceDef(
        "peat_cuttings",
        (2, 26, 12, 6),
        "The peat cuttings in the south-west corner: dark cut banks of bog where the peat is "
        "stacked to dry.",
    ),
    PlaceDef(
        "standing_stones",
        (32, 12, 7, 7),
        "A ring of old standing stones on the open moor east of the green.",
    ),
    PlaceDef(
        "black_pool",
        (15, 24, 9, 8),
        "The Black Pool south of the green: a deep, dark pool cut off from the marsh by a "
        "grassy bank. Folk keep away from it.",
    ),
    PlaceDef(
        "marsh",
        (24, 21, 21, 12),
        "The great marsh south-east of the village: reeds, black water and mist, crossed only "
        "by the causeway.",
    ),
    PlaceDef(
        "causeway",
        (28, 21, 8, 6),
        "A wooden causeway that starts at the lamp south-east of the green and runs out across "
        "the marsh to the watch house.",
    ),
    PlaceDef(
        "watch_house",
        (36, 22, 7, 5),
        "Lowen's stone watch house on a dry island out in the marsh, at the far end of the "
        "causeway, with a lamp that burns all night.",
    ),
)
LARKMOOR_SPAWN: Px = (20, 16)
LARKMOOR_BOARDS: tuple[BoardDef, ...] = (
    BoardDef(
        "notice_board",
        (16, 11),  # the `N` of the layout: the green's north edge, by its north-west lamp
        "The village notice board on the green: news, lost and found, and the glassblower's wares.",
    ),
)

STONEREACH_NPCS = load_npcs("stonereach")
STONEREACH_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef(
        "square",
        (14, 13, 11, 8),
        "The cobbled square in the middle of Stonereach, with a lamp at each corner, benches "
        "and tables, and the notice board by the north-west lamp.",
    ),
    PlaceDef(
        "mine",
        (15, 2, 10, 7),
        "The mouth of the copper mine on the north side of the village: a stone pithead with "
        "a slate roof, ore carts and stacks of pit props.",
    ),
    PlaceDef(
        "quarry",
        (27, 2, 15, 9),
        "The stone quarry in the north-east corner: a pale floor of broken rock walled off by "
        "boulders, with a gap on its west side.",
    ),
    PlaceDef(
        "pasture",
        (2, 2, 11, 9),
        "The high pasture in the north-west: a fenced meadow where the village goats graze, "
        "with hay put by for the winter.",
    ),
    PlaceDef("goat_hut", (3, 11, 3, 4), "Tamsin's little hut just below the pasture gate."),
    PlaceDef(
        "inn",
        (26, 13, 9, 5),
        "Ilse's inn on the east side of the square: a long red-roofed house with tables and "
        "barrels out front and beds upstairs.",
    ),
    PlaceDef(
        "miner_cottage",
        (30, 22, 5, 4),
        "Garrow's stone cottage south-east of the square, on the path between the inn and the "
        "tinker's yard.",
    ),
    PlaceDef(
        "herb_cottage",
        (2, 16, 5, 4),
        "Odile's cottage on the west side of the village, just above her herb garden.",
    ),
    PlaceDef(
        "herb_garden",
        (2, 20, 10, 7),
        "Odile's fenced herb garden on the west side of the village, full of flowers, "
        "mushrooms and greens.",
    ),
    PlaceDef(
        "weaver_cottage",
        (2, 28, 8, 5),
        "Fenna's cottage in the south-west corner, with her cloth hung out to dry on either "
        "side of the door.",
    ),
    PlaceDef(
        "tinker_yard",
        (32, 28, 9, 5),
        "Joss's yard in the south-east corner: a slate-roofed workshop with crates, barrels, a "
        "stall and his barrow.",
    ),
    PlaceDef(
        "tarn",
        (16, 26, 10, 7),
        "A small, cold mountain tarn south of the square, with reeds at its edges.",
    ),
    PlaceDef(
        "lookout",
        (35, 11, 7, 6),
        "A rocky knoll east of the inn, with a bench and a view down the valley.",
    ),
)
STONEREACH_SPAWN: Px = (19, 17)
STONEREACH_BOARDS: tuple[BoardDef, ...] = (
    BoardDef(
        "notice_board",
        (15, 13),  # the `N` of the layout: the square's north edge, by its north-west lamp
        "The village notice board on the square: news, lost and found, and the tinker's wares.",
    ),
)

THORNWICK_NPCS = load_npcs("thornwick")
THORNWICK_PLACES: tuple[PlaceDef, ...] = (
    PlaceDef(
        "cross",
        (19, 13, 11, 8),
        "Thornwick Cross, the cobbled market place in the middle of the village, with a lamp at "
        "each corner, benches and tables, and the notice board by the north-east lamp.",
    ),
    PlaceDef(
        "sawpit",
        (19, 2, 10, 7),
        "The sawpit on the north side of the village: a stone shed with a slate roof, log carts "
        "and stacks of cordwood waiting for the saw.",
    ),
    PlaceDef(
        "clearing",
        (2, 2, 15, 9),
        "The charcoal clearing in the north-west corner, at the edge of the wood: a floor of "
        "trodden ash ringed by boulders, where the clamps smoke day and night.",
    ),
    PlaceDef(
        "hawk_field",
        (31, 2, 11, 9),
        "The hawk field in the north-east: a fenced meadow where the hawks are flown, with "
        "perches and bales to land on.",
    ),
    PlaceDef("mews", (38, 11, 3, 4), "Hesper's mews, where the hawks roost, below the field gate."),
    PlaceDef(
        "dairy",
        (9, 13, 9, 5),
        "Agathe's dairy on the west side of the Cross: a long red-roofed house with churns and "
        "tables out front and the cheese room at the back.",
    ),
    PlaceDef(
        "toll_house",
        (9, 22, 5, 4),
        "Corin's stone toll house south-west of the Cross, on the path between the dairy and "
        "the cooperage.",
    ),
    PlaceDef(
        "chandlery",
        (37, 16, 5, 4),
        "Wenna's candle shop on the east side of the village, just above the orchard, with "
        "tapers in the window.",
    ),
    PlaceDef(
        "orchard",
        (32, 20, 10, 7),
        "The fenced orchard on the east side of the village: apple trees, flowers, mushrooms "
        "in the long grass and cabbages between the rows.",
    ),
    PlaceDef(
        "rose_cottage",
        (34, 28, 8, 5),
        "Agathe's cottage in the south-east corner, with cheesecloths drying on either side "
        "of the door.",
    ),
    PlaceDef(
        "cooperage",
        (3, 28, 9, 5),
        "The cooper's yard in the south-west corner: a slate-roofed workshop with staves, "
        "barrels, a stall, the old cider tun and the barrow.",
    ),
    PlaceDef(
        "mere",
        (18, 26, 10, 7),
        "Thornwick Mere, a deep reedy pond south of the Cross.",
    ),
    PlaceDef(
        "toll_gate",
        (2, 11, 7, 6),
        "The toll gate where the west road comes over the rise into the village, with Corin's "
        "bench and a sign.",
    ),
)
THORNWICK_SPAWN: Px = (24, 17)
THORNWICK_BOARDS: tuple[BoardDef, ...] = (
    BoardDef(
        "notice_board",
        (28, 13),  # the `N` of the layout: the Cross's north edge, by its north-east lamp
        "The village notice board on the Cross: news, lost and found, and the chandler's wares.",
    ),
)
