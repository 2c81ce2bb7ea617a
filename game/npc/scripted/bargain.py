"""What the NPC says to a price asked ("how much for a cask?") or a thing asked for to buy
("sell me some honey", "I'll take the tallow one"): the price its persona states for that
thing, found by the words they share; a sale said when it sells the thing but states no
price; the refusal of its sheet that covers the thing (`Deal.refused`, said by the stance).

One reading for every villager: the persona's clauses that name an amount of money are its
prices, its sheet's wares (and what a clause says it sells) its goods, and a thing is
matched by its words' stems, or a word made with one of them ("honeycomb": the comb).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from game.npc.facts import VillagerFacts
from game.npc.reading.naming import FILLER, stem, tokens
from game.npc.reading.words import NUMBER_WORDS
from game.npc.scripted.lines import sentences
from game.npc.scripted.matching import made_with, touched
from game.npc.scripted.refused import stems_asked
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.skills import SkillCall

__all__ = [
    "AMOUNT",
    "BARTER",
    "BIDS",
    "BID_ALONE",
    "COIN",
    "Deal",
    "asks_price",
    "deal",
    "fresh_asked",
    "haggles",
    "sells_goods",
    "service_price",
    "states_price",
    "under_floor",
    "ware_asked",
]

# A price asked: "how much...", "what does a cask cost?", "what do you want for it?".
_PRICE = re.compile(
    r"\bhow much\b|\bprices?\b|\bcosts?\b|\bwhat(?:'s| is| do you| would you)? (?:\w+ )?"
    r"(?:charge|want|ask|take) for\b|\bwhat (?:do|would|will) you charge\b|"
    r"\b(?:is|are)\b[^.?!]*\b(?:cheap|dear|expensive|pricey|costly)\b\s*\?",  # "is it dear?"
    re.I,
)
# A thing asked for to buy: "sell me...", "I'll take/have/buy...", "can I buy/get...",
# "I'd like a...", "I want to buy...", "give me some...", "one jar, please".
_BUY = re.compile(
    r"\bsell (?:me|us)\b|\b(?:i'll|i will|i'd|i would|let me) (?:take|have|buy)\b|"
    r"\bi(?:'d| would) like (?:a|an|some|one|two|three|the)\b|"
    r"\b(?:can|could|may) (?:i|we) (?:buy|have|get|purchase|take)\b|"
    r"\bi(?:'d| would)? (?:like|want|need) to buy\b|\bi want (?:a|an|some|one|two|three)\b|"
    r"\b(?:give|hand|lend|spare) (?:me|us) (?:a|an|some|one|two|three)\b|"
    r"\bbuy (?:a|an|some|one|your)\b|"
    # an order: "a jug of ale for my boy, please"
    r"^(?:(?:and|just|right|ok|okay|well),? )?(?:a|an|one|two|three|some) [^?]*\bplease\b|"
    # a bid for a thing: "I'll give you a shilling for the whole basket"
    r"\b(?:i'll|i will|i'd|i can) (?:give|pay) (?:you )?(?:\w+ ){1,2}for "
    r"(?:a|an|the|that|your|some)\b",
    re.I,
)
# An amount of money: "two pennies", "a penny", "three silver", "4 coins".
AMOUNT = (
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|fifty|a hundred|half a|a few|\d+)"
)
COIN = (
    r"(?:cop+ers?|silvers?|gold|coins?|pennies|penny|pence|crowns?|shillings?|farthings?|"
    r"groats?|marks?|florins?|ducats?)"
)
_MONEY = re.compile(
    rf"\b{AMOUNT}\s+(?:\w+\s+)?{COIN}\b(?P<unit>\s+(?:each|apiece|(?:a|an|per|the)\s+[a-z]+))?",
    re.I,
)
# Where a persona's sentence parts meet: one price each ("a beeswax candle costs two pennies
# | and a tallow one costs a penny").
_PARTS = re.compile(r"\s*;\s*|,?\s+(?:and|but|while|whereas)\s+", re.I)
# What a clause says it sells ("sells honey cakes", "trades in rope").
_SELLS = re.compile(r"\b(?:sells?|selling|trades? in|deals? in|offers?|peddles?)\s+(.+)$", re.I)
# Words of asking and of money: they name no thing.
_NOT_THING = FILLER | frozenset(
    """how much many what price prices cost costs charge want ask take have buy get sell
    sells sold like need give hand please one ones some any piece pieces bit bits few
    couple each per apiece for the your you me please i'll i'd could would can may let
    anything something do does did thanks thank just then there here this that these
    those""".split()
)
# An amount said without its coin, the coin said before it: "the red one costs six".
_BARE = re.compile(rf"\b(?:costs?|is|are|goes for|for)\s+(?P<amount>{AMOUNT})\s*$", re.I)
_COINS = re.compile(rf"\b{COIN}\b", re.I)
_NOT_FOR = re.compile(r"\b(?:not|never|nor|won't|no)\b", re.I)
_ONES = re.compile(r"\bones?\b", re.I)
_MONEY_WORDS = re.compile(rf"\b(?:{AMOUNT}|{COIN}|each|apiece|per|costs?|price[sd]?)\b", re.I)
# Goods offered for goods: "I'll swap you a good knife for a wheel", "trade you my hat for it".
BARTER = re.compile(
    r"\b(?:swap|trade|exchange)(?: (?:you|ya))? (?P<thing>(?:a|an|my|some|this|these|two|three)"
    r"(?: [a-z]+){1,3}?) for\b"
)
# A bid alone, after a price or a haggle: "fine, 3 then?", "how about two pennies".
BID_ALONE = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|fine|alright|all right|well|hm+|go on|right)\W+)?(?:how about |what "
    r"about |make it |say )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|half)"
    r"(?: \w+)?(?: then)?\W*$"
)
# A bid named: an amount of coin, or a part of the price ("half", "two pennies").
BIDS = re.compile(
    rf"\b{AMOUNT} (?:\w+ )?{COIN}\b|\bhalf\b|\b\d+\b|"
    r"\b(?:how about|what about|make it) (?:one|two|three|four|five|six|seven|eight|nine|ten)\b"
)


_HANDING = frozenset("sell give lend hand let pour serve trade spare part".split())


@dataclass(frozen=True)
class Deal:
    """What a price or a purchase asked comes to: a line said, or the refusal to say."""

    line: SkillCall | None = None
    refused: str = ""  # the sheet's refusal that covers the thing asked for


def asks_price(line: str) -> bool:
    """Whether a line asks a price or asks to buy something."""
    return bool(_PRICE.search(line) or _BUY.search(line))


# How much of a thing, not what: "can I have a pint?" of the brewer asks for its ale.
_MEASURES = frozenset(
    "pint jug mug glass cup tankard flagon bottle slice piece sack bag bundle dozen "
    "pound handful bowl plate basket".split()
)


def _things(text: str) -> set[str]:
    """The words of a text that name things, by their stems ("candles" -> "candle")."""
    return {stem(w) for w in tokens(text.lower()) if len(w) > 2 and w not in _NOT_THING}


def _shares(asked: set[str], words: set[str]) -> int:
    """How many of the asked words a text's words name: the same stem, or a word made with
    it ("comb" in "honeycomb", "storm" in "thunderstorm")."""
    return sum(1 for a in asked if a in words or any(made_with(a, w) for w in words))


def _prices(persona: str) -> list[tuple[set[str], str]]:
    """The persona's prices: the words of the thing each is for, and the amount as said
    ("three silver each"), in the persona's order."""
    out: list[tuple[set[str], str]] = []
    coin = ""  # "...four pennies an ell, and the red costs six": six pennies
    for sentence in sentences(persona):
        head = ""  # "a red one" after "a skein of blue wool": red wool
        for part in _PARTS.split(sentence.rstrip(".!?")):
            money = _MONEY.search(part)
            bare = _BARE.search(part) if money is None and coin else None
            if bare is not None:
                lead = part[: bare.start()]
                things = _things(_MONEY_WORDS.sub(" ", lead))
                out.append(
                    (
                        things | ({head} if head and _ONES.search(lead) else set()),
                        f"{bare.group('amount')} {coin}",
                    )
                )
                continue
            if money is None:
                continue
            coin = _COINS.findall(money.group())[-1]
            lead, tail = part[: money.start()], part[money.end() :]
            if _NOT_FOR.search(lead):  # "never sells a cracked pot, not even for a farthing"
                continue
            before = _things(_MONEY_WORDS.sub(" ", lead))
            unit = money.group("unit") or ""  # "a jar": what the price is of
            things = _things(_MONEY_WORDS.sub(" ", f"{lead} {unit} {tail}"))
            if head and _ONES.search(lead):
                things.add(head)
            named = [stem(w) for w in tokens(lead.lower()) if stem(w) in before]
            head = named[-1] if named else head
            out.append((things, money.group().strip()))
    return out


def states_price(persona: str) -> bool:
    """Whether a persona states a price for anything (one who asks coin gives nothing free)."""
    return bool(_prices(persona))


def service_price(said: str, persona: str) -> str:
    """The price a persona states for what a request asks done ("teach me the pipes?" of
    one who "teaches the pipes for a penny a lesson"): the one whose clause shares the most
    of the line's words, else ""."""
    asked = _things(_MONEY_WORDS.sub(" ", said))
    scored = [(_shares(asked, words), price) for words, price in _prices(persona)]
    best = max(scored, key=lambda s: s[0], default=(0, ""))
    return best[1] if best[0] else ""


def sells_goods(npc: VillagerFacts) -> bool:
    """Whether the NPC sells anything: wares on its sheet, or a clause that says it sells."""
    return bool(_goods(npc))


def _goods(npc: VillagerFacts) -> list[str]:
    """What the NPC sells: its sheet's wares and what a persona clause says it sells."""
    goods = list(npc.sheet.wares)
    for sentence in sentences(npc.persona):
        for part in _PARTS.split(sentence.rstrip(".!?")):
            sold = _SELLS.search(part)
            if sold and not re.search(r"\b(?:not|never|won't|doesn't|don't)\b", part, re.I):
                goods.append(_MONEY.sub("", sold.group(1)).strip(" ,"))
    return [g for g in goods if g]


def deal(talk: PlayerLine, speak: Speaker, refusals: list[str]) -> Deal | None:
    """What a price asked or a purchase asked for comes to, or None when the line asks
    neither, or names nothing the NPC sells, prices or of `refusals` (its refusals of
    things) refuses."""
    said = talk.said
    buying = bool(_BUY.search(said))
    if not (buying or _PRICE.search(said)):
        return None
    npc = talk.npc
    asked = _things(_MONEY_WORDS.sub(" ", said)) - _things(npc.name)
    # of what it hands over, not what it does: "sell me a horseshoe" shoes no horse
    refusals = [r for r in refusals if r.split()[0].lower() in _HANDING]
    refused = max(refusals, key=lambda r: _shares(asked, _things(r)), default="")
    if refused and _shares(asked, _things(refused)):
        return Deal(refused=refused)
    prices = _prices(npc.persona)
    scored = [(_shares(asked, words), price) for words, price in prices]
    best = max(scored, key=lambda s: s[0], default=(0, ""))
    goods = _goods(npc)
    sold = max(goods, key=lambda g: _shares(asked, _things(g)), default="")
    sells = bool(sold) and _shares(asked, _things(sold)) > 0
    if sells and not _shares(asked, _things(sold.split()[-1])) and len(sold.split()) > 1:
        sells = False  # "where can I buy eels?" of the eel pies' baker; "a duck" of duck eggs
    price = best[1] if best[0] else ""
    trade = _things(npc.sheet.role)  # "how much is the toll?" of the toll keeper
    if not price and len(prices) == 1 and (sells or not asked or _shares(asked, trade)):
        price = prices[0][1]
    if not price and not (asked - _MEASURES) and goods:  # "I'll take one", "a pint": its first
        sold, sells = goods[0], True
    named = _named_in(asked, npc.persona) if not (price or sells) else ""
    if named and len(prices) == 1:  # "a barrel" of one who makes them and prices one thing
        price = prices[0][1]
    elif named:
        sold, sells = named, True
    if price:
        table = "sale" if buying else "price"
        return Deal(line=say(speak.text(table, price=price), "player"))
    if sells:
        thing = _said_thing(sold)
        # one who haggles names no fair price: "what'll you give me?"
        table = "sale_unpriced" if buying else "price_unsaid"
        table = "price_offer" if table == "price_unsaid" and haggles(npc) else table
        return Deal(line=say(speak.text(table, thing=thing), "player"))
    return None


def haggles(npc: VillagerFacts) -> bool:
    """Whether the NPC's persona says it haggles or bargains over its prices ("never
    haggles", "no time for haggling" say it does not)."""
    for found in re.finditer(r"\bhaggl|\bbargain", npc.persona, re.I):
        before = npc.persona[max(0, found.start() - 30) : found.start()]
        if not _NOT_SO.search(before):
            return True
    return False


_NOT_SO = re.compile(r"\b(?:never|not|no|won't|doesn't|don't|refuses? to|hates?)\b[^,.;]*$", re.I)


# What a persona says the NPC makes: a thing of its making is a thing it may sell.
_MAKES = re.compile(
    r"\b(?:makes?|making|builds?|brews?|bakes?|sews?|weaves?|carves?|crafts?|grows?|"
    r"mends?|binds?|twists?|spins?|pours?|blows?|dyes?|knits?|tans?|churns?|presses?|"
    r"distils?|cures?|smokes?|gathers?|picks?|grinds?|mills?|roasts?|pickles?|plaits?|glazes?|"
    r"throws (?:pots|jugs|bowls))\b",
    re.I,
)


def _named_in(asked: set[str], persona: str) -> str:
    """The persona's word for a thing it makes that is asked of ("barrels" for "a
    barrel", of one who "makes barrels and casks"), or ""."""
    for sentence in sentences(persona):
        for part in _PARTS.split(sentence):
            made = _MAKES.search(part)
            words = tokens(part[made.end() :].lower()) if made else []
            found = next((w for w in words if w not in _NOT_THING and stem(w) in asked), "")
            if found:
                return found
    return ""


def _said_thing(ware: str) -> str:
    """A ware as said in passing: its head before a comma or "for" ("willow-bark tea")."""
    return re.split(r",|\s+(?:for|at|from|to|by)\s+", ware, maxsplit=1)[0].strip()


_NUMBERS: dict[str, float] = {w: n for n, w in enumerate(NUMBER_WORDS, 1)} | {
    "zero": 0,
    "a": 1,
    "an": 1,
    "half a": 0.5,
    "thirty": 30,
    "fifty": 50,
}
# A floor on a price the sheet refuses to go under: "below three pennies", "less than a crown".
_FLOOR = re.compile(
    rf"^(?:go |sell )?(?:below|under|lower than|less than) (?P<price>{AMOUNT}\s+{COIN})$", re.I
)
_SUM = re.compile(rf"\b(?P<n>{AMOUNT})\s+(?:\w+\s+)?{COIN}\b|\b(?P<d>\d+)\b", re.I)


def _number(amount: str) -> float | None:
    """An amount as a number ("three" -> 3, "12" -> 12), None if it is no plain one."""
    low = amount.lower()
    return float(low) if low.isdigit() else _NUMBERS.get(low)


def under_floor(line: str, refusals: Iterable[str], met: bool = False) -> str:
    """The price one will not go under ("three pennies") when a bid in the line is lower
    ("two pennies for a bucket"), else ""; `met`: the bid when it is the floor or more."""
    for refusal in refusals:
        floor = _FLOOR.match(refusal)
        bid = _SUM.search(line)
        if floor is None or bid is None:
            continue
        least = _number(floor["price"].split()[0])
        offered = _number(bid["n"] or bid["d"])
        if least is None or offered is None:
            continue
        if offered < least and not met:
            return floor["price"]
        if offered >= least and met:  # "three pennies? done!": the bid it takes
            return f"{bid.group().split()[0]} {floor['price'].split(maxsplit=1)[1]}"
    return ""


# "Is this mackerel fresh?", "are these pies today's?": its freshness asked.
_FRESH_ASKED = re.compile(
    r"\b(?:is|are) (?:this|that|these|those|the|your|it|they)\b[^?.!]*"
    r"\b(?:fresh|from today|today's|stale|old|yesterday's)\b",
    re.I,
)


def fresh_asked(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """Its yes to whether what it sells is fresh, of one who sells nothing stale ("never
    sells a fish more than a day old"); None when the line asks no such thing."""
    if not _FRESH_ASKED.search(talk.said):
        return None
    if not any("stale" in stems_asked(r) for r in talk.npc.sheet.refuses):
        return None
    return speak.line("fresh_yes")


# How good a thing is asked: "is the ale good?", "what's the stew like today?", "how's your
# honey?", "is your cider any good?"
_HOW_GOOD = re.compile(
    r"\b(?:is|are) (?:the|your|this|that|these|those)\b[^?.!]*\b(?:good|any good|nice|tasty|"
    r"decent|worth (?:it|buying|having))\b|"
    r"\bwhat(?:'s| is| are) (?:the|your|this|that)\b[^?.!]* like\b|"
    r"\bhow(?:'s| is| are) (?:the|your|this|that)\b",
    re.I,
)


def ware_asked(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """What the NPC says of a thing it sells asked how good it is ("is the ale good?":
    "Good as ever."); None when the line asks no such thing of one of its wares."""
    if not _HOW_GOOD.search(talk.said):
        return None
    ware = touched(talk.said, talk.npc.sheet.wares, kin=False)
    return speak.line("ware_good", thing=ware) if ware else None
