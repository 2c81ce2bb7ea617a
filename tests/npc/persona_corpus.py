"""Personas in the styles map makers write them, for the grammar checks of what the persona
brain says of them (`tests/npc/test_said_well.py`): each (id, name, persona)."""

from __future__ import annotations

CORPUS: tuple[tuple[str, str, str], ...] = (
    (
        "dagny",
        "Dagny Holt",
        "Dagny runs the windmill and scolds anyone who wastes bread. She is sure the mill "
        "stones are older than the church. She hates thunder because it scares the horses. "
        "She won't grind on a Sunday.",
    ),
    (
        "orrin",
        "Orrin",
        "Ropemaker. Hates rain. Counts every coil twice. Never sells on credit. Afraid of "
        "deep water.",
    ),
    (
        "bette",
        "Bette Lowe",
        "I keep the toll gate on the east road and I take a penny from every cart. I can't "
        "stand people who argue about the price. I think the bridge will fall one day.",
    ),
    (
        "fenwick",
        "Fenwick Stray",
        "Oh, Fenwick, where to begin - he mends nets down at the slip, has done since he was "
        "a lad, and he'll talk your ear off about the year the herring never came, which he "
        "swears was a curse. He loves a good storm but he dreads the long calm weeks.",
    ),
    (
        "ilsa",
        "Ilsa Brand",
        "Ilsa Brand is a tanner who soaks hides in oak bark behind the ford. She dislikes "
        "perfume, thinks the reeve takes bribes, and refuses to tan on holy days.",
    ),
    (
        "cato",
        "Cato Finch",
        "They keep the bell tower and ring the hours. They are afraid of heights, oddly "
        "enough. They believe the bells keep the fog away.",
    ),
    (
        "maud",
        "Maud",
        "Beekeeper, widow, sharp tongue. Loves lavender. Distrusts strangers. Will not sell "
        "honey to anyone who smokes.",
    ),
    (
        "hob",
        "Hob Garret",
        "Hob Garret, the cooper, builds barrels for the brewery and complains about the price "
        "of oak. He is proud of his straight staves, and he suspects that the brewer waters "
        "the ale.",
    ),
    (
        "yara",
        "Yara Quill",
        "Yara copies letters for folk who cannot write. She is gentle and speaks formally. She "
        "fears fire more than anything, since ink and paper burn so fast. She likes quiet "
        "evenings by the lamp.",
    ),
    (
        "tobiah",
        "Tobiah Wren",
        "He sweeps chimneys. He sings while he works and he never charges a widow. He hates "
        "cats on roofs.",
    ),
    (
        "nessa",
        "Nessa Crane",
        "Nessa herds geese on the common, and she's always cheerful. She collects blue "
        "feathers and tells anyone who asks that geese can smell a storm coming.",
    ),
    (
        "grimsby",
        "Grimsby Pole",
        "Gravedigger. Quiet. Believes the dead hear every word. Won't dig after dark.",
    ),
    (
        "aldo",
        "Aldo Brisk",
        "Aldo is the village's lamplighter, who walks the lanes at dusk with a long pole. He "
        "is terrified of dogs, and he can't abide anyone who breaks a lamp.",
    ),
    (
        "perpetua",
        "Perpetua Snell",
        "I'm the dyer, and my hands are blue to the wrist most days. I love madder red. I "
        "hate it when children poke the vats. I'm certain the river turns green before a "
        "flood.",
    ),
    (
        "wystan",
        "Wystan Hay",
        "Wystan thatches roofs all over the valley. He has thatched the church twice. He "
        "likes rye straw best and has no patience for slate roofs. He worries that the young "
        "ones won't learn the trade.",
    ),
    (
        "odile",
        "Odile Marr",
        "She weighs the grain at the market and keeps the scales honest. She trusts nobody "
        "who pays in foreign coin. She thinks Hob Garret is a fine neighbour.",
    ),
    (
        "brannock",
        "Brannock",
        "Brannock keeps the ferry, poles it across the river all day, and won't take anyone "
        "over after sunset because the current turns wicked. He's fond of his old dog.",
    ),
    (
        "sorrel",
        "Sorrel Pike",
        "Herbalist; grows feverfew and sage; distrusts doctors; sure that nettle tea cures "
        "everything.",
    ),
    (
        "ivo",
        "Ivo Lark",
        "Ivo Lark is a loud, jolly carter who drives the wagon to town twice a week. He loves "
        "gossip and hates mud. He believes Odile Marr cheats at cards.",
    ),
    (
        "rowena",
        "Rowena Teal",
        "Rowena Teal trains falcons in the old mews. She is a stern woman who speaks little, "
        "and she will never let anyone touch her birds. She fears the winter sickness.",
    ),
    (
        "jory",
        "Jory Coombe",
        "I shoe horses for the whole valley. I'm not much for talk. I can't abide a lame horse "
        "left standing. I reckon the old mine is haunted.",
    ),
    (
        "marigold",
        "Marigold Ames",
        "Marigold keeps the schoolroom and teaches the little ones their letters, and she "
        "adores poetry, but she gets so cross when anyone tracks mud across her clean floor. "
        "She is afraid of mice.",
    ),
    (
        "tace",
        "Tace Hollin",
        "Tace is the reeve. She collects the rents, settles quarrels about fences and "
        "distrusts anyone who talks too sweetly. She believes the north field floods because "
        "the ditches were never dug deep enough.",
    ),
    (
        "emlyn",
        "Emlyn Pryce",
        "Emlyn Pryce, a potter, throws jugs and bowls by the kiln. Dislikes hurry. Loves "
        "rain on the roof. Thinks the kiln has a temper of its own.",
    ),
    (
        "sabine",
        "Sabine Roux",
        "Sabine sells ribbons, buttons and thread from a cart by the well. She haggles hard "
        "and never gives anything away for free. She is convinced that the moon makes the "
        "cream sour.",
    ),
    (
        "harl",
        "Harl Bellow",
        "He keeps the bees behind the chapel, and talks to them every morning. He hates "
        "smoke from the charcoal pits. He is scared of wasps, which is a joke to everyone.",
    ),
    (
        "quenby",
        "Quenby Stott",
        "Quenby is a shepherd who walks the high fells with her flock. She loves lambing "
        "season, dislikes wolves, and is certain that the weather turns when the sheep lie "
        "down.",
    ),
    (
        "wenna",
        "Wenna Dowd",
        "Wenna Dowd mends the sails of the fishing boats. She laughs at her own jokes. She "
        "hates gulls. She is sure the harbour wall will hold another hundred years. She never "
        "works on the feast day.",
    ),
    (
        "corwin",
        "Corwin Ashe",
        "Charcoal burner. Lives in the woods. Smells of smoke. Suspects the forester of "
        "stealing his wood. Scared of the dark under the oaks.",
    ),
    (
        "lettice",
        "Lettice Vane",
        "I brew cider in the barn by the orchard. I love the first pressing of autumn. I hate "
        "wasps. I won't sell to anyone who is already drunk. I believe apples know who picks "
        "them.",
    ),
    (
        "barnaby",
        "Barnaby Colt",
        "Barnaby breaks horses for the farms. He is patient with colts but short with people. "
        "He dislikes whips. He thinks Tace Hollin is too soft on debtors. He fears fire in "
        "the stables.",
    ),
    (
        "fen",
        "Fen Marlow",
        "They carve spoons and bowls from fallen wood. They like birdsong and hate the sound "
        "of saws. They refuse to cut a living tree. They think the old oak on the green is "
        "wiser than the council.",
    ),
    (
        "goody",
        "Goody Parr",
        "Goody Parr is the midwife, and she has brought half the village into the world. She "
        "is brisk and practical. She can't stand superstition. She worries about the new "
        "mothers up the valley.",
    ),
)
