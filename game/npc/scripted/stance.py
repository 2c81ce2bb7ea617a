"""What the NPC will not do, from its character sheet: a request that touches one of its
fears or refusals is answered no, in its mood, saying why.

A request touches a fear or a refusal by the words they share (by their stems: "goats"
finds "goat"), or by a family of plain English words for one idea ("boat" and "sail" are
the sea's, "rush" is a hurry's). A counter's refusals (credit, free goods, idle talk) are
touched by how the player asks: on credit, for nothing, a chat. A worry ("worries about
the old bridge") keeps no one away, and a refusal to turn someone away is a kindness, not
a no. A refusal of some things only ("sell a candle that leans") is said by what it is
refused on ("Not one that leans."), and an offer to be rid of what it fears or hates ("want
me to catch the rat?") is a yes.
"""

from __future__ import annotations

import re

from game.npc.facts import VillagerFacts
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind, Named
from game.npc.scripted.bargain import (
    BARTER,
    BID_ALONE,
    BIDS,
    deal,
    haggles,
    sells_goods,
    states_price,
    under_floor,
)
from game.npc.scripted.counters import COUNTER, PAY
from game.npc.scripted.first_person import base_verb
from game.npc.scripted.matching import fears_of, kind_of, names_thing, without_wares, worried
from game.npc.scripted.owned import its_own_work, own_thing, own_thing_kept
from game.npc.scripted.refused import (
    ABOUT_ANOTHER,
    DEALING,
    FOR_ANOTHER,
    UNLESS,
    WITHHOLDS,
    at_a_time,
    deed_asked,
    kind_named,
    not_unless,
    on_its_condition,
    plural_of,
    restricted,
    stems_asked,
    terms_met,
    touches_refusal,
)
from game.npc.scripted.requests import (
    PRICE,
    TELLING,
    TOLD,
    asked_of,
    asks_withheld,
    bids_refused,
    requests,
)
from game.npc.scripted.retell import bare, in_own_words, shorter
from game.npc.scripted.speaker import PlayerLine, Speaker, place_named, say
from game.npc.scripted.willing import offers
from game.npc.sheet.model import NOT_ALLOWED
from game.npc.skills import SkillCall

__all__ = ["refusal", "touches_fear", "weather_stops"]

# Kinds of line that ask the NPC to do or give something by what they are.
_ASKING = frozenset({Kind.GO, Kind.FAVOUR, Kind.CHATTER, Kind.SKILL})
# Kinds that may, when put as a request ("will you...?", "I'll give you ten silver").
_MAYBE = frozenset(
    {
        *(Kind.QUESTION, Kind.CHAT, Kind.SELF, Kind.PLACE, Kind.PERSON, Kind.SEEK),
        *(Kind.UNKNOWN_PLACE, Kind.GREET),  # "hello! can I stroke the big hawk?"
        Kind.WEATHER,  # "open a hive for me, never mind the rain"
        *(Kind.GLAD, Kind.SAD),  # "I'm so happy! can I have a pie for free?"
    }
)

# A refusal to send someone away is a promise to take them in.
# "leave a stack burning" leaves no one: the one not left is a person.
_KINDNESS = re.compile(
    r"\baway\b|^let \w+ down\b|^(?:turn|send|refuse|deny|abandon|leave)\s+(?:a |an |the |any )?"
    r"(?:anyone|anybody|someone|somebody|nobody|no one|people|folk|friends?|travell?ers?|"
    r"strangers?|child|children|guests?|neighbours?|souls?|man|woman|person|customers?|"
    r"beggars?|wayfarers?|pilgrims?|patients?|them|him|her|you|us)\b"
)
# An order the player claims someone gave that the NPC hand its things over: "the council
# has decreed...". Nobody's word moves a villager's goods; the word it is met with.
_CLAIMED = re.compile(
    r"\b(?P<decree>decree[sd]?|by decree)\b|\b(?P<order>order(?:ed|s)?|command(?:ed|s)?)\b|"
    r"\bthe (?P<law>law)\b|\b(?P<rule>rules?|ruled)\b|"
    # someone's say-so: "the reeve says shops must give candles out free"
    r"\b(?P<word>says?|said|told (?:me|us)|wants)\b(?=[^.!?]*\b(?:must|have to|has to|are to)\b)"
)
_HAND_OVER = re.compile(
    r"\bhand (?:\w+ )?over\b|\bgive (?:away|up|over|me|us)\b|\bsurrender\b|\bturn over\b|"
    r"\bmust (?:give|hand)\b|\bhave to (?:give|hand)\b"
)


def touches_fear(talk: PlayerLine, intent: Intent, fear: str) -> bool:
    """Whether what is asked touches a fear: the line or the name of a place walked to, by
    stems or a family ("the quay": the sea); that place's description by the fear's own
    words only (a windmill's sails are no boat's)."""
    said = without_wares(talk.said, talk.npc.sheet.wares)  # its own firewood frights it not
    target = intent.target
    description = ""
    if intent.kind is Kind.GO and target is not None and target.kind is Named.PLACE:
        place = place_named(talk.npc, target.name)
        said += " " + target.label
        description = place.description if place is not None else ""
    feared = stems_asked(fear)
    # "light a bonfire" of one who fears fire: a kind of the thing feared (no "firewood")
    made = any(kind_of(w, f) for w in stems_asked(said, False) for f in stems_asked(fear, False))
    return bool(
        stems_asked(said) & feared
        or made
        or stems_asked(description, False) & stems_asked(fear, False)
    )


_ON_TICK = re.compile(r"\bon (?:tick|the slate|credit|account|(?:my |the )?tab)\b")


def refusal(talk: PlayerLine, intent: Intent, speak: Speaker) -> SkillCall | None:
    """The NPC's no to a request that touches its fears or refusals (or that claims an
    order to hand its things over), its yes to one a pledge of its covers, or None."""
    kind = intent.kind
    line = talk.said.lower()
    if offers(line):  # "would you like some tar for your punts?" asks nothing of it
        return None
    claimed = _CLAIMED.search(line)
    if claimed and _HAND_OVER.search(line):  # however it is put: "you have to give me..."
        word = next(k for k, v in claimed.groupdict().items() if v)
        claim = f"{'an' if word[0] in 'aeiou' else 'a'} {word}"
        who = re.search(r"\b((?:the|my|your|our|a) [a-z]+|[a-z]+) $", line[: claimed.start()])
        if word == "word" and who:  # "the reeve says...": "The reeve's word?"
            claim = f"{who.group(1)}'s word"
        return say(speak.text("claimed_order", order=word, claim=claim), "player")
    npc = talk.npc
    rid = _RID.search(line)
    if rid:  # "want me to catch the rat?": a yes to be rid of what it fears or hates
        sheet = npc.sheet
        pest = next(
            (
                t
                for t in (*sheet.fears, *sheet.dislikes)
                if stems_asked(line, False) & stems_asked(t, False)
            ),
            "",
        )
        if pest:
            return _no(npc, speak, "rid_yes", "thing", pest, stems_asked(line, False))
    own = own_thing(line, npc)
    sheet = npc.sheet
    refusals = [r for r in sheet.refuses if r not in COUNTER and not _KINDNESS.search(r)]
    # "sell me some cordials" asks no telling of what goes into them
    refusals = [r for r in refusals if asked_of(r, line)]
    # "how much for a cask?", "sell me some honey"; "give us a nod" buys nothing
    bought = deal(talk, speak, refusals) if kind is not Kind.GESTURE else None
    if (
        bought is not None
        and bought.refused
        and not (
            on_its_condition(
                bought.refused, set(), hour=talk.sensed.hour if talk.sensed else None, line=line
            )
            and kind_named(bought.refused, stems_asked(talk.said))
        )
    ):
        kept = [r for r in refusals if r != bought.refused]  # "sell arrows to poachers"
        bought = deal(talk, speak, kept)
    traded = BARTER.search(line)
    if traded and sells_goods(npc):  # "I'll swap you a good knife for a wheel of cheese"
        return speak.line("barter_offer", thing=traded.group("thing"))
    bid = _counter_bid(talk)
    haggled = COUNTER["haggling"][1].search(line) or bid
    # "I'll owe you for it", "a bowl of stew on tick?"
    owed = COUNTER["credit"][1].search(line) and (_I.search(line) or _ON_TICK.search(line))
    told = any(
        r.split()[0] in TELLING and (TOLD.search(line) or asks_withheld(r, line)) for r in refusals
    )
    bids = requests(line) or bids_refused(line, refusals) or bool(haggled or owed or told)
    if kind not in _ASKING and not (kind in _MAYBE and bids) and bought is None:
        return own_thing_kept(speak, own) if own else None
    counters = list(sheet.refuses)
    sells = "credit" in counters or states_price(npc.persona) or sells_goods(npc)
    sells = sells or (bought is not None and bought.line is not None)  # what it makes
    if "free goods" not in counters and sells and not _GIVES.search(npc.persona):
        counters.append("free goods")  # who sells, on credit or for coin, gives none free
    if "credit" not in counters and sells and not _ON_CREDIT.search(npc.persona):
        counters.append("credit")  # nor hands its goods over now for coin next week
    giving = next((w for w in sheet.ways if _ON_CREDIT.search(w)), "")
    giving = f"{base_verb(giving.split()[0])} {' '.join(giving.split()[1:])}" if giving else ""
    later = "credit" not in counters and COUNTER["credit"][1].search(line) and bids
    if later and giving:
        return _no(npc, speak, "credit_yes", "deed", giving, stems_asked(talk.said))
    if later and not sells and _I.search(line):  # a fee or a debt of one who sells nothing
        return speak.line("pay_later")
    if (sells or haggled) and not haggles(npc):
        counters.append("haggling")  # nor comes down on its prices, unless it haggles
    elif sells and haggled and not COUNTER["free goods"][1].search(line):
        # one who haggles meets a bid halfway ("That? Robbery."), and asks one of a plea,
        # but goes no lower than its floor ("never below three pennies")
        floor = under_floor(line, sheet.refuses)
        if floor:
            return speak.line("haggle_floor", price=floor)
        met = under_floor(line, sheet.refuses, met=True)
        if met:
            return speak.line("haggle_done", price=met)
        return speak.line("haggle_back" if bid or BIDS.search(line) else "haggle_ask")
    # "half price for a cracked jug" of one who sells no cracked pot: that no, not haggling's
    traded_line = _of_its_trade(line, npc)
    specific = any(
        touches_refusal(traded_line, stems_asked(traded_line), r)
        and on_its_condition(r, stems_asked(traded_line), named=True)
        for r in refusals
    )
    for refused in counters:
        counter = COUNTER.get(refused)
        if counter is None or (specific and refused not in sheet.refuses):
            continue
        deeds, asks = counter
        wanted = {"free goods": Kind.FAVOUR, "idle talk": Kind.CHATTER}.get(refused)
        stated = refused in sheet.refuses  # an implied refusal: only when asked in words
        if (
            (kind is wanted and bought is None and stated and intent.sub != "leave")
            or asks.search(line)
            or (refused == "haggling" and bid)
        ):
            table = "refuse_pay" if refused in PAY else "refuse"
            deed = deeds[talk.seed("deed") % len(deeds)]
            return say(speak.text(table, deed=deed), "player")
    # A fear is touched by where a walk goes too ("the quay": the sea); a refusal only by
    # what is asked ("fetch me rope from your goat hut" sells no goat).
    # a refusal on a condition the line names, or by its verb, wins over a fear the line
    # touches by a family only ("take a boat out, the storm flag's up" of one who fears
    # thunder; "fancy a swim?" of one who cannot swim and fears deep water)
    plain = stems_asked(talk.said, False)
    on_named = any(
        ((limit := restricted(r)) and plain & stems_asked(limit["cond"], False))
        or plain & stems_asked(r.split()[0], False)  # "swim", of one who cannot swim
        for r in refusals
    )
    for fear in fears_of(sheet.fears, npc.persona):
        if on_named and not plain & stems_asked(fear, False):
            continue
        if not worried(fear, npc.persona) and touches_fear(talk, intent, fear):
            return _no(npc, speak, "fear_no", "thing", fear, stems_asked(talk.said))
    asked = stems_asked(traded_line)
    if bought is not None:  # "sell me some honey" is no word on "sell the comb"
        asked -= DEALING
    # the refusal the line touches most first: "borrow your loom for a day" is the loom's
    for refused in sorted(sheet.refuses, key=lambda r: -len(asked & stems_asked(r))):
        if refused in COUNTER or _KINDNESS.search(refused):
            continue
        if not asked_of(refused, line):
            continue
        unless = UNLESS.search(refused)
        deed = refused.split()[0]  # its verb asked, or its things: "give me...", "a candle"
        by_deed = re.search(rf"\b{re.escape(deed)}\b", line)
        asks_it = bool(by_deed or asked & stems_asked(refused))
        # "open a lock without a key" names the deed refused, and withholds nothing
        named = bool(
            unless and unless.group("without") and stems_asked(unless.group("without")) & asked
        )
        if unless and named and not by_deed and not asked & stems_asked(refused[: unless.start()]):
            continue  # "a lamp for me?" asks no trip below of one who goes none without one
        # "don't ask me why"; "it's for my sister" of one who gives nothing without a look
        if unless and unless["without"] and terms_met(unless["without"], line):
            return speak.line("terms_met")  # "come and see my mother" of one who sees first
        away = unless and unless.group("without") and FOR_ANOTHER.search(line)
        if unless and asks_it and not named and (WITHHOLDS.search(line) or away):
            return not_unless(npc, speak, unless, to_you=not ABOUT_ANOTHER.search(line))
        if (unless or restricted(refused)) and PRICE.search(line):
            # "how much are the cough drops?" asks a price, not the deed on its terms, nor
            # "how much for a crab?" the fish it sells none of ("more than a day old")
            if unless or not on_its_condition(refused, asked, named=True):
                continue
        hour = talk.sensed.hour if talk.sensed is not None else None
        if not on_its_condition(refused, asked, hour=hour, line=line):
            # "let me into the forest" at noon, of one who lets no one in after dark: yes, but
            limit = restricted(refused)
            if limit and at_a_time(limit["cond"]) and touches_refusal(traded_line, asked, refused):
                return say(speak.text("yes_but_not", cond=limit["cond"].split(",")[0]), "player")
            continue  # "up on the roof on a fine dry day" of one who will not in wind or rain
        # a ware names its trade's thing only with what the refusal is refused on: "old
        # mackerel" of "a fish more than a day old", not "a shilling for the herring"
        of_trade = traded_line != line and on_its_condition(refused, asked, named=True)
        if touches_refusal(line, stems_asked(talk.said), refused) or (
            of_trade and touches_refusal(traded_line, asked, refused)
        ):
            deed = deed_asked(refused, asked)
            said = stems_asked(_said_no(npc, speak, "refuse", "deed", deed, asked))
            # "No. Not that.", "I don't give anyone medicine, ever.": its terms say more
            if unless and not named and not (said & stems_asked(deed) & stems_asked(unless[0])):
                return not_unless(npc, speak, unless, to_you=not ABOUT_ANOTHER.search(line))
            return _refused(npc, speak, deed, asked)
    # a deed asked that it cannot abide: "a wrestling match in here" of one who hates rough play
    for disliked in sheet.dislikes:
        if bought is None and touches_fear(talk, intent, disliked):
            return _no(npc, speak, "offer_no", "thing", disliked, stems_asked(talk.said))
    hour = talk.sensed.hour if talk.sensed is not None else None
    if (
        bought is not None
        and bought.refused
        and on_its_condition(bought.refused, asked, hour=hour, line=line)
    ):
        return _refused(npc, speak, deed_asked(bought.refused, asked), asked)  # not that one
    if bought is not None and bought.line is not None:
        return bought.line
    if own:
        return own_thing_kept(speak, own)
    if done := its_own_work(line, npc):  # "let me ring the church bell" of the sexton
        return speak.line("own_work", deed=done)
    for pledged in sheet.refuses:  # by whom it is for, not the words of turning away
        if _KINDNESS.search(pledged) and (
            asked & (stems_asked(pledged) - _TURNING)
            or (bids and _SHELTER.search(line) and pledged.split()[0] in _TURNING)
        ):
            return _yes(npc, speak, pledged, asked)
    return None


# The thing a trade is of, at the end of what the NPC does: "guts and sells fish".
_TRADE_THING = re.compile(
    r"\b(?:sells?|bakes?|makes?|brews?|catches?|grows?|cooks?|dyes?|weaves?|carves?) "
    r"(?:\w+ )?(?P<thing>[a-z]{3,})$"
)


def _of_its_trade(line: str, npc: VillagerFacts) -> str:
    """A line that names one of the NPC's wares, with the thing its trade is of: "that old
    mackerel" of one who sells fish names a fish (and its refusal of old fish)."""
    thing = _TRADE_THING.search(npc.sheet.role)
    if thing is None or not any(names_thing(line, ware) for ware in npc.sheet.wares):
        return line
    return f"{line} {thing['thing']}"


def _counter_bid(talk: PlayerLine) -> bool:
    """Whether the line is a bid alone made after a price asked or a haggle."""
    if not talk.earlier or not BID_ALONE.match(talk.said.lower()):
        return False
    haggle = COUNTER["haggling"][1]
    return any(PRICE.search(e.lower()) or haggle.search(e.lower()) for e in talk.earlier[-2:])


# A roof asked for, of one who turns no one away: "have you got a bed for me?"
_SHELTER = re.compile(r"\b(?:beds?|rooms?|stay|sleep|shelter|roof|lodging|bunk|come in)\b")
_TURNING = frozenset("turn away send refuse deny abandon leave let down".split())
# A persona that gives its goods away: "gives the broken biscuits away", "free to children".
_I = re.compile(r"\b(?:i|i'll|i'd|i'm|me|my|we|us)\b", re.I)  # the player, of itself
_ON_CREDIT = re.compile(
    r"\bcredit\b|\bon (?:tick|the slate|account)\b|\bpay (?:later|when)\b", re.I
)
_GIVES = re.compile(
    r"\bgives? (?:\w+ ){0,4}?(?:away|free|for nothing)\b|\bfree (?:of charge|to)\b|"
    r"\bgives? (?:credit|credits)\b",
    re.I,
)
# An offer to be rid of something: "want me to catch it?", "I'll chase them off".
_RID = re.compile(
    r"\b(?:want me to|shall i|should i|let me|i(?:'ll| will| can| could)|can i|may i)\b[^.!?]*"
    r"\b(?:catch|kill|chase|trap|shoo|get rid of|deal with|take care of|drive (?:\w+ )?(?:off|"
    r"away|out)|scare (?:\w+ )?(?:off|away)|see (?:\w+ )?off|get (?:\w+ )?out)\b"
)


_IS_STATE = re.compile(
    r"(?:when|while|if|whenever) (?P<what>(?:the|a|an|his|her|its) (?:\w+ ){0,2}?\w+) "
    r"(?:is|are) (?P<state>up|down|out|in|on|off|open|shut|closed|flying|raised|lit|high|low)"
)


def _refused(npc: VillagerFacts, speak: Speaker, refused: str, asked: set[str]) -> SkillCall:
    """The no to a refused deed: by what it is refused on ("Not one that leans or smokes.")
    when it is refused only of some things, else the deed said not done."""
    limit = restricted(refused)
    if limit:
        cond = limit.group("cond").split(",")[0]  # not what it adds: ", not even..."
        cond = f"one {cond}" if re.match(r"(?:that|which|with)\b", cond) else cond
        keep = {w[:5] for w in asked}
        # "when the storm flag is up": "with the storm flag up", not cut at "the storm"
        state = _IS_STATE.fullmatch(cond)
        # "one that's more than a day old": "one more than a day old"
        plain = re.sub(r"^one (?:that|which)(?:'s| is| are) ", "one ", cond)
        said = (
            [f"with {state['what']} {state['state']}"]
            if state
            else [plain]
            if plain != cond
            else []
        )
        text = in_own_words(
            lambda c: speak.text("refuse_unless", cond=c),
            [*said, *shorter(cond)],
            npc.persona,
            npc.name,
            keep,
        )
        if text:
            return say(text, "player")
    # not what it adds after a comma: "set foot in the alehouse, however I'm asked"
    table = "refuse_not_allowed" if npc.sheet.reasons.get(refused) == NOT_ALLOWED else "refuse"
    head, comma, added = refused.partition(", ")
    if comma and len(head.split()) >= 2 and not re.match(r"(?:or|and|nor)\b", added):
        refused = head
    return _no(npc, speak, table, "deed", refused, asked)


def _yes(npc: VillagerFacts, speak: Speaker, pledged: str, asked: set[str]) -> SkillCall:
    """A yes that says the pledge ("Of course. A stormy night? I'd never turn a traveller
    away."): what it never does, and when, said apart."""
    deed, _, when = pledged.partition(",")[0].partition(" on ")
    when = f"on {when}" if when else ""
    for cut in re.finditer(r"\s(?:in|at|during|when|while|for)\s", deed):
        deed, when = deed[: cut.start()], deed[cut.start() + 1 :]
        break
    said = shorter(deed)
    keep = {w[:5] for w in asked}

    def fill(phrase: str) -> str:
        return speak.text("pledge", deed=phrase, **({"when": when} if when else {}))

    text = in_own_words(fill, said, npc.persona, npc.name, keep)
    return say(text or speak.text("pledge", deed="turn you away"), "player")


def _no(
    npc: VillagerFacts, speak: Speaker, table: str, slot: str, item: str, asked: set[str]
) -> SkillCall:
    """A no from `table`, the item said in the NPC's own words, the words asked kept first."""
    text = _said_no(npc, speak, table, slot, item, asked)
    return say(text or speak.text("refuse", deed="do that"), "player")


def _said_no(
    npc: VillagerFacts, speak: Speaker, table: str, slot: str, item: str, asked: set[str]
) -> str:
    said = shorter(item)
    said += bare(said)
    said += [many for p in said if (many := plural_of(p)) != p]  # "let strangers touch..."
    keep = {w[:5] for w in asked}
    return in_own_words(lambda p: speak.text(table, **{slot: p}), said, npc.persona, npc.name, keep)


def weather_stops(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """What the weather told stops, of one that will not do a deed in it ("looks like
    rain", of one who never hangs washing out when rain is coming: "Then the washing
    stays in today."); None when the weather touches none of its refusals."""
    said = stems_asked(talk.said)
    for refused in talk.npc.sheet.refuses:
        limit = restricted(refused)
        cond = stems_asked(limit["cond"]) if limit and not at_a_time(limit["cond"]) else set()
        if cond & said & _WEATHER:
            return speak.line("weather_stops", deed=limit["deed"]) if limit else None
    return None


_WEATHER = stems_asked("rain storm wind thunder snow")
