"""What a maker would give for what the player asks help with, from what its persona says
it makes and for whom: "what would help a cough?" to the one who makes salves and teas for
anyone who is ailing gets "One of my salves or teas, I'd say."; and why something happens,
from a belief of its sheet the question touches.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.npc.reading.naming import tokens
from game.npc.scripted.about import sheet_side, stems_of
from game.npc.scripted.lines import sentences
from game.npc.scripted.matching import touched
from game.npc.scripted.retell import in_own_words
from game.npc.scripted.speaker import PlayerLine, Speaker, say
from game.npc.scripted.why_not import why_me
from game.npc.skills import SkillCall

__all__ = ["advice", "ailing_act"]


# A question that asks what would help with something ("what would help a cough?").
_HELP = re.compile(
    r"\bwhat (?:would|will|could|might|can|should|do you think would) (?:help|cure|ease|fix|mend|"
    r"soothe|settle|do for|sort out)\b|\bwhat (?:helps|cures|eases|fixes|mends|soothes)\b|"
    r"\b(?:any|a) (?:remedy|cure|fix) for\b|\bwhat should i (?:take|use|try) for\b|"
    r"\bwhat(?:'s| is| would be) (?:good|best) for\b|"
    # "do you have anything for a headache?", "got something for a cough?"
    r"\b(?:have|got|sell)\s+(?:you\s+)?(?:anything|something|aught)\s+(?:good\s+)?for\b",
    re.I,
)
# A question of why something happens, which a belief may answer.
_WHY = re.compile(r"\bwhy (?:would|does|do|did|is|are|was|won't|doesn't|can't|might)\b", re.I)
_OF_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)  # "why are your hands blue?"
# One idea in many words: what ails someone, and a maker's "for anyone who is ailing".
_AILING = frozenset(
    """ail ails ailing ill illness sick sickness cough coughs cold colds fever ache aches
    aching sore throat chest hurt hurts pain pains wound wounds cut cuts burn burns rash
    headache bruise sniffle sniffles unwell poorly burnt burned scald scalded sprain sprained
    bite sting stings toothache fevers""".split()
)
# What a way of the NPC makes, for anyone: "makes up powders and draughts".
_MAKES_ANY = re.compile(
    r"(?:makes?|mix(?:es)?|brews?|prepares?)(?: up)? (?P<things>[\w ,'-]+?)(?: in .*)?$"
)
# What is made for the ailing whoever it is made for.
_REMEDIES = frozenset(
    """salve salves tea teas cordial cordials poultice poultices tincture tinctures remedy
    remedies potion potions ointment ointments medicine medicines syrup syrups tonic tonics
    balm balms draught draughts physic pills""".split()
)
# What a persona says the NPC makes for others: "makes salves and teas for anyone who...".
_MAKES = re.compile(
    r"\b(?:makes?|brews?|mix(?:es)?|bakes?|sews?|carves?|builds?|weaves?|sells?)\s+"
    r"(?P<things>[\w ,'-]+?)\s+for\s+(?P<whom>.+)$",
    re.I,
)


_FEELING = re.compile(
    r"\byou (?:\w+ )?(?:hate|fear|dislike|like|love|loathe|mind)\b|\bafraid\b", re.I
)


def advice(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """What the NPC would give for what the player asks help with, from what its persona
    says it makes and for whom ("One of my salves or teas, I'd say." asked what would help
    a cough, of the one who makes salves and teas for anyone who is ailing); None when the
    question asks no help, or its work is not for that."""
    said = talk.said
    found = _HELP.search(said)
    if found is None:  # "why would a cheese go runny?": what it believes of that, if anything
        return (
            sheet_side(talk, speak, any_item=False, only=("beliefs",))
            if _WHY.search(said)
            and not (_OF_YOU.search(said) and why_me(talk))
            and not _FEELING.search(said)  # "why do you hate bees?": its feeling, not a belief
            else None
        )
    need = set(tokens(said[found.end() :]))
    npc = talk.npc
    for sentence in sentences(npc.persona):
        made = _MAKES.search(sentence.rstrip(".!?"))
        if made is None:
            continue
        whom, things = set(tokens(made.group("whom"))), made.group("things")
        cures = whom & _AILING or set(tokens(things)) & _REMEDIES  # "cordials for the village"
        ailing = bool(need & _AILING and cures)
        if not ailing and not stems_of(" ".join(need)) & stems_of(f"{things} {made.group('whom')}"):
            continue
        items = [i for i in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", things) if i]
        mine = "one of my " + " or ".join(items[:3])
        text = in_own_words(lambda t: speak.text("advice", thing=t), [mine], npc.persona, npc.name)
        if text:
            return say(text, "player")
    # "makes up powders and draughts": remedies, whoever they are made for
    for way in npc.sheet.ways if need & _AILING else ():
        made = _MAKES_ANY.match(way)
        if made and set(tokens(made["things"])) & _REMEDIES:
            items = [i for i in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", made["things"]) if i]
            mine = "one of my " + " or ".join(items[:3])
            text = in_own_words(
                lambda t: speak.text("advice", thing=t), [mine], npc.persona, npc.name
            )
            if text:
                return say(text, "player")
    # "...and sells them to anyone who is poorly": its wares, the one for the ailment first
    wares = npc.sheet.wares
    if wares and need & _AILING and set(tokens(npc.persona.lower())) & _AILING:
        fit = touched(" ".join(need), wares, kin=False)
        mine = "one of my " + (fit or " or ".join(wares[:3]))
        text = in_own_words(lambda t: speak.text("advice", thing=t), [mine], npc.persona, npc.name)
        if text:
            return say(text, "player")
    return None


# An act that shows an ailment ("*coughs*", "*sneezes loudly*"), and the ailment it shows.
_SHOWS = (
    (re.compile(r"\bcough", re.I), "cough"),
    (re.compile(r"\b(?:sneez|sniffl|shiver)", re.I), "cold"),
    (re.compile(r"\b(?:limp|winc|groan|rubs? (?:my|his|her) (?:back|knee))", re.I), "ache"),
)


def ailing_act(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """What a maker of remedies offers an act that shows an ailment ("*coughs*": "One of
    my cordials, I'd say."), and anyone's "Bless you!" to a sneeze; None otherwise."""
    if not talk.said.lstrip().startswith("*"):
        return None
    shown = next((ailment for pattern, ailment in _SHOWS if pattern.search(talk.said)), "")
    if not shown:
        return None
    helped = advice(replace(talk, said=f"What would help a {shown}?"), speak)
    if helped is None and shown == "cold" and re.search(r"sneez", talk.said, re.I):
        return speak.line("bless_you")
    return helped
