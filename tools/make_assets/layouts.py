"""Maps as ASCII layouts, turned into ground, decor and collision layers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from PIL import Image

from .palette import CLEAR, COLUMNS, TILE, Px
from .tileset import TILES, gid

# Legend. Ground: . grass   , grass+flowers   : dirt path   # cobblestone   ~ water (banks are
# automatic)   @ water with lily pad   s sand   = bridge   d dock   _ wooden floor.
# Decor (ground beneath is taken from the neighbours): T tree  P pine  b bush  o rock  t stump
# m mushrooms  - | fence (pieces join automatically)  W well  A anvil  F forge furnace  O oven
# B bread stall  M fruit stall  Y cloth stall  C crate  K barrel  S sign  k boat  L lamp
# h hay bale  % flour sacks  l log pile  n bench  v flower pot  c cart  p pumpkins  q bucket
# f fish basket  x cabbages  " tall grass  i reeds (in water)  a table  N notice board.
# Buildings: H wall  w wall+window  D door  G stone wall  g stone window
# E stone door; roofs: r/R red ridge/eave row, u/U slate ridge/eave row, ^ red chimney,
# & slate chimney (left/middle/right roof pieces are chosen automatically).
VILLAGE_LAYOUT = """
TTTPPTTPTPTPPPPPTTTPTTTTPPTTPTPTT~~~PPPTPTTPPTTP
TT.T...bT..T.PTTTb..T.Tb.T....TbP~~~PTTP..Tb..TT
Tb.,............T...,...,......T.~~~...........T
TT.......-----.......,........"..~~~.......T...T
TP.rrr^r.|xxx|h...........T..T...~~~..T........T
Tb.RRRRR.|p,,|..uuuuu&u..".......~~~......,...PT
TbbHwDwHb|,,p|..UUUUUUU..........~~~..".....,..T
TT...:...|x,x|..HwHwHwH...T..T...~~~...........T
TT...:...--.--.bHwHDHwHb.........~~~..........TT
P.,..:.,........,,.:.,,........".~~~...rrrrr..TT
Tb.,.:.......b.....:....t.T..T...~~~...RRRRR...T
TP...:.rrr^r.......:.............~~~..bHwDwHb.TT
P....:.RRRRR...,...:...,..,...,..~~~.....:.K..TT
PbT..:%HwDwHO.LN#######vL..n.....~~~.....:..T..T
P....:..v:v...##n#####a##b.....P.~~~,.T..:....bT
T....:...:.B..###########...,....~~~.,...:.....T
T....:...:....#####Wq####.S......~~~.....:....TT
TT::::::::::::###########::::::::===::::::::::.T
TT::::::::::::###########::::::::===::::::::::.T
T........:...,###########..P.....~~~.....:.....T
TTT......:..,.###########,..T....~~~.o...:."...T
P..".....:....L#########L.,......~~~.....:..o..P
TP.uuuuu.:..T..#########.........~~~~~~..:f....P
T..UUUUU.:.....#M#Y#M#C#.....ss.~~~~~~~~~d~...TP
T..GgEgGF:.....#######K#....sss~~~~~~~~~~d~~...T
PT.:::::::K....##p##%###...sss~~~~~~@~~~~d~~i.TT
T..l:::::A:....C##a###c#.bsssi~~~~~~~~~~~dk~~~bT
TT.::::::::.P.b#########..sos~~~~~~~~~~~~d~~~~TP
T......:................T.sss~~~~~~~~~~~~~~~~~TP
TT.----.----.,......."....sss~~~~@~~~~~~~~~~~~bP
T..|x:x:x:x|......,........sss~~~~~~~~~~~~~~~"bT
T..|x:x:x:x|.m,.....T....,...ssoi~~~~~@~~~~~...T
P..|:::::::|..........,......ss.~~~~~~~~~~~...TT
T..---------".................................bP
TTbTTbbTP......bT.P..T.....bPP.P.TT..TTTPbb.P.bP
PPTPTTTTTTPPTPPTTTPTTTTTPTTTPTTTTTPTPTTPTTTPPTTT
"""

# Larkmoor, a moorland village on the edge of a marsh: the same legend, read for its trades
# (O the potter's kiln, F the glass furnace, h straw beehives, l stacks of drying peat, v
# pots, d the causeway's boards over the marsh).
LARKMOOR_LAYOUT = """
bTPoPbbPTPPToPPbbTPbPTbbbPPbPPPbbTboTTPoPPbbPP
PT...Pb.bPT.b...."....b.Pb...b.T..."...P.....b
T..."..".."....,.."".....,....",.....,..,....P
P..uuu&uuu.""...rrr^r.......|--------|.rr^rrTP
T."UUUUUUU......RRRRR.,...".|,,,,,,,,|.RRRRRPT
Pb.HwHwHwH.....CHwDwHO...~~.|,h,,h,h,|.HwDwHPP
P..HwHDHwH...,.v..:::vv..~~.|,,,,,,,,|v..:"qTb
b..S..:..nn.......:::.K."...|,h,h,,h,|...:...P
PP....:....~~i......:"."....|,,,,,,,,|...:...P
P.....:....~~.""....:.".....|---::---|...:.".b
TT."..:,...,q",.....::::::::::::::::::::::...b
T.."..:........LN::::::::L...................P
P."...:.~~i....:....:,..v:...."....o.........P
TT....:.~~~....:.n".:..n.:.".....o...o...."..P
P..,".:.,,.....:....:.,..:..............~~~~~P
P.....:::::::::::::::::::::::...o..t.,o.~i~~~P
P.........:.:..:...,:....:..:........,..~~~~~P
P..uuuu&u.:.:..:.n,.:..,M:..:....o...o".~~i~~b
P..UUUUUU.K.:."L:::::::::L.":.".,..o..."~~~~~T
P.CGgGEgGF,.:.........."....:.~~.""....~~~@~~P
T.....:::.:.:..............":.i~.."....~i~~~~P
P......,.K:::::."..""."..".L:S."..".~~~~~~~~~P
T..rrr^r....:........"..~.~~d~.~~~~"~uu&uu~~~P
P..RRRRR...":...........~~~id~~~~i~~~UUUUU~~~b
P..HwDwH....:.o.."..."o.~~~~d~~i~~~~.GgEgG.~~T
P..".:".....:..."~~~~"".~~~~d~~~~~~....:.L.~~P
P.:::::::::::q..~~~~~~i.~~~~ddddddd"::::....~P
P.:ll::::::l::..~~~~~~..~~~~~~~~~~~"..."..K.~P
TT:::::ll:::::b.~~~~~~..~~~~~i~~~~~.l.......~T
T.::::::::::c:.i~~~~~~..~~~~~~~~~~~......oo.~P
P.:l::::::l:::.."~~~~"..~i~~~~@~~~~~.".".".~~T
T.::::l:::::l:.........t~~i~~~~~~~i~~~~~~~~~~b
PP"."."."."."....b...b..~~~~~~~~~~~~~~~~~~~~~P
TPPbPPPPTPbPbPPPbPPoPPPPoPbPPbPPPPTPbPPPoPPTPb
"""

# Stonereach, a hill village between a copper mine and a quarry: sand is the quarry's floor of
# broken stone, l the pit props, c the ore carts (and the tinker's barrow), Y cloth drying.
STONEREACH_LAYOUT = """
PoTPTPTPoPPPoPPPPoPPoPPoTPoPPPPPPPTPPPPPTPTP
PoPPPoTPTPPPoPPPTToPPPTPPTPPoPPoPoPoPPPTPPPP
Po|---------|....uuuu&.....oooossssssssssooo
oT|...".....|....UUUUU...P.osssssossossKss.o
oP|.h......q|..L.GgEgG.C...osssoosssssssss.P
PP|......h..|...c:::::l:...ossCsssssssooss.P
PT|"P..h....|...:::::::l.b.osssssssscsssssoP
PP|.........|.o.K:::::::.."sssssssosssssss.P
PP|..h.o".h.|...:::::::S:::sssosssssssCsos.P
oP|.".......|......:....:::ossssslsssossss.P
PT|----..---|.P..T.:.P..:.".osssssssssssoo.P
PP.r^r.:...........:....:............o..o.PP
Po.RRR.::::::::::::::::::..........:ot....oo
oT.HDH........LN########L..rrrr^rr.:..nn.oPP
Po..:.........#####v#####..RRRRRRR.:S......P
oP..::::::::::##n#####n##."HwHwHwHK:.....o.P
PPrrr^r.......###########.vHwHDHwHK:o..o..oP
ooRRRRR.P.T...#######v#####a#n###a::......Po
PPHwDwH.......##an####c##.....:..."....P...o
oP.,::::::::::###########.o...:...P.P.....PP
PP|---::---|..L#########L.....:.........P.PP
Po|,,,::,,,|..:....:.....:::::::::.........P
PP|,m,m,,m,|..:..P.:..o...:...uu&uu."T.T...P
Po|,,,,x,,,|.t:....:......:...UUUUU..."....o
PP|,,m,,m,,|.::::::::::::::...GgEgG....o...P
Po|,x,,,,,x|..:....:......:.P...:...,o.....P
PP|--------|..:...~~~o~~~.:...b.:.b.....P.oP
oP............:.~i~~~~~~~~:.P..............P
PT.rrr^r...o..:.~~~~@~~~~~:......uuu&u.....P
PP.RRRRR.b....:.~~~~~~~~~o:..P.o.UUUUU.....P
oo.HwDwH.,..b.:.~~~~~~~~~~:......HwDwH.c...P
PPY..:..Y.P...:.~~~~~~~~i~:,.T.T.C.:...M...P
Pot..:.v..,...:..~~~~~~~..:......K.:...CK..P
Po...::::::::::...........::::::::::.......P
PT....P.T.P.bbPT..PTPb.......b..b......b..PP
PTPooPoPTPPPTPoPPPoTPPPPPPToPPPPPoPPToPoPPPP
"""

# Thornwick, a village where the west road meets an old wood: Stonereach's ground mirrored east
# to west, the quarry's floor now a charcoal burners' clearing of trodden ash (sand), l the
# stacked cordwood, c the charcoal carts and the cooper's barrow, Y cheesecloths drying.
THORNWICK_LAYOUT = """
PTPTPPPPPTPPPPPPPoPToPPoPPoPPPPoPPPoPTPTPToP
PPPPTPPPoPoPoPPoPPTPPTPPPoTTPPPoPPPTPToPPPoP
ooossssssssssoooo.....&uuuu....|---------|oP
o.ssKssossossssso.P...UUUUU....|....."...|To
P.sssssssssoossso...C.GgEgG.L..|q......h.|Po
P.ssoosssssssCsso...:l:::::c...|..h......|PP
Possssscsssssssso.b.l:::::::...|....h..P"|TP
P.sssssssosssssss"..:::::::K.o.|.........|PP
P.sosCsssssssosss:::S:::::::...|.h."o.h..|PP
P.ssssossslssssso:::....:......|.......".|Po
P.oossssssssssso.".:..P.:.T..P.|---..----|TP
PP.o..o............:....:...........:.r^r.PP
oo....to:..........::::::::::::::::::.RRR.oP
PPo.nn..:.rr^rrrr..L########NL........HDH.To
P......S:.RRRRRRR..#####v#####.........:..oP
P.o.....:KHwHwHwH".##n#####n##::::::::::..Po
Po..o..o:KHwHDHwHv.###########.......r^rrrPP
oP......::a###n#a#####v#######...T.P.RRRRRoo
o...P...."...:.....##c####na##.......HwDwHPP
PP.....P.P...:...o.###########::::::::::,.Po
PP.P.........:.....L#########L..|---::---|PP
P.........:::::::::.....:....:..|,,,::,,,|oP
P...T.T".uu&uu...:...o..:.P..:..|,m,,m,m,|PP
o...."...UUUUU...:......:....:t.|,,,x,,,,|oP
P...o....GgEgG...::::::::::::::.|,,m,,m,,|PP
P.....o,...:...P.:......:....:..|x,,,,,x,|oP
Po.P.....b.:.b...:.~~~o~~~...:..|--------|PP
P..............P.:~~~~~~~~i~.:............Po
P.....u&uuu......:~~~~~@~~~~.:..o...r^rrr.TP
P.....UUUUU.o.P..:o~~~~~~~~~.:....b.RRRRR.PP
P...c.HwDwH......:~~~~~~~~~~.:.b..,.HwDwH.oo
P...M...:.C.T.T.,:~i~~~~~~~~.:...P.Y..:..YPP
P..KC...:.K......:..~~~~~~~..:...,..v.:..toP
P.......::::::::::...........::::::::::...oP
PP..b......b..b.......bPTP..TPbb.P.T.P....TP
PPPPoPoTPPoPPPPPoTPPPPPPToPPPoPTPPPTPoPooPTP
"""

TINY_LAYOUT = """
TTPTTTTPTT
T...,....T
T.HwH..~~T
T......~~T
T.::::...T
T........T
T...,..b.T
TTTPTTTTTT
"""

GROUND_CHARS: dict[str, str] = {
    ".": "grass",
    ",": "grass",
    ":": "path",
    "#": "cobble",
    "~": "water",
    "@": "water_lily",
    "s": "sand",
    "=": "bridge",
    "d": "dock",
    "_": "wood_floor",
}
# fmt: off
DECOR_CHARS: dict[str, str] = {
    "T": "tree", "P": "pine", "b": "bush", "o": "rock", "t": "stump", "m": "mushrooms",
    "W": "well", "A": "anvil", "F": "forge", "O": "oven", "B": "bread_stall",
    "M": "market_stall", "Y": "cloth_stall", "C": "crate", "K": "barrel", "S": "sign",
    "k": "boat", "L": "lamp", "h": "hay_bale", "%": "sacks", "l": "log_pile", "n": "bench",
    "v": "flower_pot", "c": "cart", "p": "pumpkins", "q": "bucket", "f": "fish_basket",
    "x": "cabbages", '"': "tall_grass", "i": "reeds", "a": "table", "N": "notice_board",
    "H": "wall", "w": "wall_window", "D": "wall_door",
    "G": "wall_stone", "g": "wall_stone_window", "E": "wall_stone_door",
}
# fmt: on
FENCE_CHARS = "-|"
# fmt: off
ROOF_CHARS: dict[str, tuple[str, bool]] = {
    "r": ("red", True), "^": ("red", True), "R": ("red", False),
    "u": ("slate", True), "&": ("slate", True), "U": ("slate", False),
}
# fmt: on
FLOWER_TILES = ("flowers_red", "flowers_yellow", "flowers_blue")
GRASS_TILES = ("grass", "grass", "grass", "grass", "grass", "grass_2", "grass_2", "grass_3")
# Tile kinds that a decor cell may borrow as its ground, most preferred first.
GROUND_PREFERENCE = ("cobble", "path", "sand", "wood_floor", "dock", "grass")
OVER_WATER = {"water", "water_lily", "bridge", "dock"}
WATER_DECOR = "ki"  # decor that stands in water: boat, reeds


def parse_layout(text: str) -> list[str]:
    """Split an ASCII layout into equal-length rows."""
    rows = [r for r in text.strip("\n").split("\n")]
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ValueError(f"layout row {i} has {len(r)} chars, expected {width}")
        for ch in r:
            if (
                ch not in GROUND_CHARS
                and ch not in DECOR_CHARS
                and ch not in FENCE_CHARS
                and ch not in ROOF_CHARS
            ):
                raise ValueError(f"unknown layout char {ch!r} in row {i}")
    return rows


def cell_hash(x: int, y: int, salt: int = 0) -> int:
    """A stable per-cell pseudo-random number (independent of PYTHONHASHSEED)."""
    return ((x * 73856093) ^ (y * 19349663) ^ (salt * 83492791)) % 1000003


@dataclass
class TileGrids:
    """The three tile layers of a map as row-major gid lists."""

    width: int
    height: int
    ground: list[int]
    decor: list[int]
    collision: list[int]


def build_grids(layout: str) -> TileGrids:
    """Turn an ASCII layout into ground, decor and collision gid grids."""
    rows = parse_layout(layout)
    h, w = len(rows), len(rows[0])

    def ch(x: int, y: int) -> str | None:
        return rows[y][x] if 0 <= x < w and 0 <= y < h else None

    # 1. Ground kind per cell: explicit, else borrowed from neighbours.
    kind: dict[Px, str] = {}
    for y in range(h):
        for x in range(w):
            c = rows[y][x]
            if c in GROUND_CHARS:
                kind[(x, y)] = GROUND_CHARS[c]
    explicit = dict(kind)
    # Two passes: the second also hears from decor neighbours resolved in the first, so a lamp
    # in a plaza corner next to a flower pot still stands on cobbles.
    for _ in range(2):
        known = dict(kind)
        for y in range(h):
            for x in range(w):
                if (x, y) in explicit:
                    continue
                votes: Counter[str] = Counter()
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    k = known.get((x + dx, y + dy))
                    if k is None:
                        continue
                    if rows[y][x] in WATER_DECOR:
                        votes["water"] += 1
                    elif k in GROUND_PREFERENCE:
                        votes[k] += 1
                if not votes:
                    kind[(x, y)] = "water" if rows[y][x] in WATER_DECOR else "grass"
                    continue
                if rows[y][x] in FENCE_CHARS and votes["grass"]:
                    kind[(x, y)] = "grass"  # fences stand in the meadow
                    continue
                best = max(votes.values())
                winners = [k for k in (*GROUND_PREFERENCE, "water") if votes.get(k) == best]
                kind[(x, y)] = winners[0]

    def wet(x: int, y: int) -> bool:
        if not (0 <= x < w and 0 <= y < h):
            return True  # water flowing off the map edge has no bank there
        return kind[(x, y)] in OVER_WATER

    ground: list[int] = []
    decor: list[int] = []
    for y in range(h):
        for x in range(w):
            k = kind[(x, y)]
            c = rows[y][x]
            if k == "grass":
                name = GRASS_TILES[cell_hash(x, y) % len(GRASS_TILES)]
            elif k == "water":
                n, s_, w_, e = (
                    not wet(x, y - 1),
                    not wet(x, y + 1),
                    not wet(x - 1, y),
                    not wet(x + 1, y),
                )
                sides = ("n" if n else "s" if s_ else "") + ("w" if w_ else "e" if e else "")
                name = f"water_{sides}" if sides else "water"
                if not sides:
                    for corner, (dx, dy) in (
                        ("nw", (-1, -1)),
                        ("ne", (1, -1)),
                        ("sw", (-1, 1)),
                        ("se", (1, 1)),
                    ):
                        if not wet(x + dx, y + dy):
                            name = f"water_corner_{corner}"
                            break
            elif k == "bridge":
                top, bottom = ch(x, y - 1) != "=", ch(x, y + 1) != "="
                name = "bridge" if top and bottom else "bridge_n" if top else "bridge_s"
                if not top and not bottom:
                    name = "bridge_s"
            else:
                name = k
            ground.append(gid(name))
            over = decor_tile(rows, x, y)
            decor.append(gid(over) if over else 0)
    blocked = {gid(t.name) for t in TILES if not t.walkable}
    collision = [
        gid("collision") if (g in blocked or d in blocked) else 0
        for g, d in zip(ground, decor, strict=True)
    ]
    return TileGrids(w, h, ground, decor, collision)


def decor_tile(rows: list[str], x: int, y: int) -> str | None:
    """The decor tile name for one layout cell, or None."""
    h, w = len(rows), len(rows[0])

    def ch(xx: int, yy: int) -> str:
        return rows[yy][xx] if 0 <= xx < w and 0 <= yy < h else " "

    c = rows[y][x]
    if c == ",":
        return FLOWER_TILES[cell_hash(x, y, 1) % len(FLOWER_TILES)]
    if c in DECOR_CHARS:
        return DECOR_CHARS[c]
    if c in FENCE_CHARS:
        conn = "".join(
            side
            for side, (dx, dy) in (("l", (-1, 0)), ("r", (1, 0)), ("u", (0, -1)), ("d", (0, 1)))
            if ch(x + dx, y + dy) in FENCE_CHARS
        )
        return {
            "lr": "fence_h",
            "ud": "fence_v",
            "r": "fence_end_l",
            "l": "fence_end_r",
            "rd": "fence_nw",
            "ld": "fence_ne",
            "ru": "fence_sw",
            "lu": "fence_se",
            "u": "fence_v",
            "d": "fence_v",
        }.get(conn, "fence_h")
    if c in ROOF_CHARS:
        colour, top = ROOF_CHARS[c]
        if c in "^&":
            return f"roof_{colour}_chimney"

        def same(cc: str) -> bool:
            return cc in ROOF_CHARS and ROOF_CHARS[cc] == (colour, top)

        side = "l" if not same(ch(x - 1, y)) else "r" if not same(ch(x + 1, y)) else "m"
        return f"roof_{colour}_{'top_' if top else ''}{side}"
    return None


def compose_map(grids: TileGrids, tileset: Image.Image) -> Image.Image:
    """Render the visible tile layers (ground, decor) into one image."""
    tiles = [
        tileset.crop(
            (
                (i % COLUMNS) * TILE,
                (i // COLUMNS) * TILE,
                (i % COLUMNS + 1) * TILE,
                (i // COLUMNS + 1) * TILE,
            )
        )
        for i in range(len(TILES))
    ]
    out = Image.new("RGBA", (grids.width * TILE, grids.height * TILE), CLEAR)
    for layer in (grids.ground, grids.decor):
        for i, g in enumerate(layer):
            if g:
                x, y = (i % grids.width) * TILE, (i // grids.width) * TILE
                out.alpha_composite(tiles[g - 1], (x, y))
    return out
