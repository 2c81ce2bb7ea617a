"""What anyone who sells refuses without saying so: credit, its goods for free, idle talk at
its counter, and haggling, each with ways to say the deed refused and the words that ask
it ("put it on the slate", "cheaper?", "two pennies for a bucket")."""

from __future__ import annotations

import re

__all__ = ["COUNTER", "PAY"]

# A counter's refusal: ways to say what the NPC does not do, and the words that ask it.
COUNTER: dict[str, tuple[tuple[str, ...], re.Pattern[str]]] = {
    "credit": (
        ("give credit", "put anything on the slate", "sell on tick"),
        re.compile(
            r"\bcredit\b|\bon (?:tick|the slate|account)\b|\bowe\b|"
            r"\bpa(?:y|id) (?:you )?(?:back|later|tomorrow|next)\b|\bnext (?:week|time|month)\b|"
            r"\bpay you later\b|\bput it on\b|"
            r"\b(?:tab|slate)\b|\bsettle (?:up )?(?:later|tomorrow|next)\b|"
            r"\bend of the (?:week|month|year)\b|\bwhen i get paid\b|\bpay (?:you )?when\b|"
            r"\b(?:a bit |rather |a little )?short (?:today|this week|of (?:money|coin|cash))\b|"
            r"\bpa(?:y|id) (?:you )?(?:on |by |come )?(?:monday|tuesday|wednesday|thursday|friday|"
            r"saturday|sunday|market day|payday)\b",
        ),
    ),
    "free goods": (
        ("give my goods away for nothing", "hand out what I sell", "give things away"),
        re.compile(
            r"\bfree\b(?! (?:time|afternoon|morning|evening|day|hour|moment|minute|will|rein))|"
            r"\bfor nothing\b|\bgift\b|\bno charge\b|\bon the house\b|"
            r"\b(?:no|any) (?:money|coin)\b|\b(?:can't|cannot|couldn't) pay\b|"
            r"\bwithout (?:paying|payment|a (?:penny|coin))\b"
        ),
    ),
    "idle talk": (
        ("waste the day on idle chatter", "stand about gossiping", "natter the day away"),
        re.compile(r"\bchat|\bgossip|\bnatter|\bchinwag"),
    ),
    # a seller's: its prices are its prices ("how about cheaper?")
    "haggling": (
        ("come down on my prices", "haggle over a fair price", "cut my prices"),
        re.compile(
            r"\bcheaper\b|\b(?:sell|give|let) (?:me|us)\b[^.?!]*\bcheap(?:ly)?\b|\bdiscount\b|"
            r"\bmy (?:last |final |best )?offer\b|\blower (?:the |your )?price|\bgoing cheap\b|"
            r"\bknock (?:\w+ ){0,2}off\b|"
            r"\b(?:better|lower|special) price\b|\bhalf (?:the )?price\b|\bhaggle\b|"
            # a few coppers offered: "I'll give you a farthing", "...for two pennies?"
            r"\b(?:give|pay|offer|for|take|accept)(?: you)? (?:just |only )?"
            r"(?:a|one|two|three|a few|half a) "
            r"(?:farthings?|halfpenn(?:y|ies)|penn(?:y|ies)|pence|coppers?)\b|"
            # "two pennies for a bucket, then"
            r"^(?:\w+, )?(?:a|one|two|three|four|five|a few|\d+) (?:farthings?|halfpenn(?:y|ies)|"
            r"penn(?:y|ies)|pence|coppers?|silver|coins?) for\b|"
            r"\bhalf (?:of )?what you\b|\bnot a (?:penny|copper|coin|farthing) more\b|"
            # a price called too high, an offer called final, a deal or less asked
            r"\btoo (?:dear|steep|pricey|expensive)\b|\boverpriced\b|\brobbery\b|"
            r"\b(?:final|last|best|lowest) (?:price|offer)\b|\bfair price\b|"
            r"\bgo lower\b|\bmeet me (?:halfway|in the middle)\b|"
            r"\b(?:for|any|bit|little) less\b|\ba (?:good |special )?deal on\b|"
            r"\b(?:do|give|cut|make) (?:me|us) a (?:deal|bargain)\b|\bany deals?\b|"
            # coin's worth in kind, a friend's price, one thrown in
            r"\bbarter|\bpay (?:you )?in (?!full\b)\w+|\binstead of (?:coin|money|paying)\b|"
            r"\bmates'? rates?\b|\bfriend'?s? (?:price|rate)\b|\btwo for (?:the price of )?one\b|"
            r"\bthrow (?:it |one |that |in )\w*|\bhalf off\b|"
            r"\bcome down (?:on|in) (?:the |your )?price|\btake less\b|"
            # "that's too much", not "you talk too much"
            r"\b(?:that'?s|it'?s|is|costs?|charge|asking|want) (?:a bit |way |far )?too much\b|"
            r"\b(?:how about|make|strike|cut) (?:me |us )?a deal\b|\bgive you half\b|"
            r"\b(?:take|accept) (?:\w+ )?(?:silver|coppers?|coins?|pennies|pence|gold|crowns?)\b|"
            # "I'll give you two silver for the lot", "I only have a penny", "three for two"
            r"\b(?:give|pay|offer) you (?:\w+ )?(?:silver|coppers?|coins?|pennies|penny|pence|"
            r"gold|crowns?)\b|\bi (?:only )?(?:have|got) (?:only )?(?:a|one|two|three|\d+) "
            r"(?:silver|coppers?|coins?|pennies|penny|pence)\b|\bfor the price of\b|"
            r"\b(?:bit|little|rather|too) (?:steep|dear|pricey)\b"
        ),
    ),
}
PAY = frozenset({"credit", "free goods"})
