"""What the persona brain says of a place, a person and the NPC itself: a place's
description as the NPC says it (its own name in it becomes "my"), its side on a place, a
villager's role and home and what it thinks of them, and itself from its character sheet:
its work and work place, a like, dislike, fear or worry, a belief with how sure it is, each
in its own words (`game.npc.scripted.retell.in_own_words`), never its persona read back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.npc.facts import PlaceFact, VillagerFacts
from game.npc.reading.about_self import ENJOY
from game.npc.reading.intent import asks_yes_no
from game.npc.reading.kinds import Kind, Target
from game.npc.reading.naming import speaks_of_trade
from game.npc.scripted.asked_of import OPINION, asked_kind, asked_of
from game.npc.scripted.claims import claim_phrases, reason_phrases
from game.npc.scripted.describe import (
    asked_beyond,
    asks_use,
    beyond_line,
    described,
    keepers_of,
    use_line,
)
from game.npc.scripted.first_person import first_person
from game.npc.scripted.job import job_line, wares_line
from game.npc.scripted.matching import (
    favourite,
    fears_of,
    names_thing,
    one_listed,
    sign_of,
    stems_of,
    touched,
    without_wares,
    worried,
)
from game.npc.scripted.retell import (
    about_it,
    clauses,
    in_own_words,
    said_as_mine,
    shorter,
    side_on,
    words_of,
)
from game.npc.scripted.speaker import (
    PlayerLine,
    Speaker,
    label_of,
    place_named,
    said_by,
    say,
    then,
)
from game.npc.scripted.whereabouts import (
    asks_the_way,
    goes_there,
    my_hours,
    way_to,
    where_i_am_at,
    where_is,
)
from game.npc.scripted.why_not import why_me
from game.npc.skills import SkillCall
from game.npc.skills.base import MAX_SAY

__all__ = [
    "bit_of",
    "favourite",
    "fear_near",
    "mine_line",
    "own",
    "place_answer",
    "self_answer",
    "sheet_side",
    "side_of",
    "stems_of",
    "touched",
    "worried",
]


def own(description: str, npc: VillagerFacts) -> str:
    """A description as the NPC says it: its own name in it, or its role's ("the elder's
    house", of the elder), becomes "my" or "I"."""
    role = npc.sheet.role
    if npc.name and role != "villager" and 0 < len(role.split()) <= 2:
        mine = re.compile(rf"\bthe {re.escape(role)}'s\b", re.I)
        description = mine.sub(f"{npc.name}'s", description)
    names = [npc.name, npc.name.split()[-1]] if npc.name else []
    if any(re.search(rf"\b{re.escape(n)}\b", description) for n in names):
        description = first_person(description, npc.name)
    return description[:1].upper() + description[1:]


_BIT_WORDS = 3  # a bit of a description is cut at a comma only past this many words
_BIT_CHARS = 70  # and is no longer than this, to say in passing


def bit_of(description: str) -> str:
    """The first part of a description ("A round stone well under a little red roof"), to
    say on arriving; empty if it is too long to say in passing."""
    head = re.split(r"[;:.]", description, maxsplit=1)[0].strip()
    parts = head.split(",")
    head = parts[0]
    for part in parts[1:]:  # "A small, cold mountain tarn": not cut to "A small"
        if len(head.split()) >= _BIT_WORDS or len(head) + len(part) >= _BIT_CHARS:
            break
        head = f"{head},{part}"
    head = head.strip()
    if not 0 < len(head) <= _BIT_CHARS:
        return ""
    return head[:1].lower() + head[1:] if re.match(r"(?:A|An|The)\b", head) else head


def place_answer(talk: PlayerLine, target: Target, speak: Speaker) -> SkillCall:
    """The line about a place asked of: its description as the NPC says it, or its side."""
    npc = talk.npc
    mine = target.weak or target.name == npc.sheet.work  # "when does school finish?"
    if mine and (day := (where_i_am_at(talk) if target.weak else "") or my_hours(talk)):
        return say(day, "player")
    went = goes_there(talk, target)  # "do you ever go to the inn?": if its day does
    if went:
        return say(went, "player")
    way = where_is(talk, target)  # "where is the tavern?": the way, not its looks
    if way and not speak.stale(way):
        return say(f"{way} {_persona_on(npc, target)}".strip(), "player")
    place = place_named(npc, target.name)
    used = use_line(talk, target, speak) if place is not None else None
    if used is not None:  # "what goes on at the kiln?": who works there, doing what
        return used
    if place is not None and asks_use(talk.said) and target.name == npc.sheet.work:
        return self_answer(talk, "work", speak)
    if place is not None and (kept := _kept_by(talk, place, speak)) is not None:
        return kept  # "who looks after the green?", "can I swim in the pond?"
    sided = asks_yes_no(talk.said) or asked_kind(talk.said)[0] == OPINION  # its side, if any
    if place is not None and not (sided and _persona_on(npc, target)):
        in_kind = asked_of(talk, place, speak)  # "is it busy today?", "who built it?"
        if in_kind is not None:
            return in_kind
    beyond = asked_beyond(talk.said, place.description, target.label, npc.name) if place else ""
    asks_way = re.search(
        r"\bwhere\b|\bhow (?:do|can|could|would|should) (?:i|we)\b", talk.said, re.I
    )
    asks = re.search(r"\?\s*$", talk.said) and not asks_way  # "how do I cross?": the way
    of_itself = any(pattern.search(talk.said) for _, pattern in _ASKS)  # "scares you there?"
    if beyond and asks and not of_itself and not _persona_on(npc, target):  # "what fish...?"
        return beyond_line(talk, target, speak)
    desc = ""
    if place is not None and place.description:
        desc = own(described(place.description, talk.seed("desc"), talk.said, target.label), npc)
        told = "?" not in talk.said and not _TELL_OF.search(talk.said)
        if told and not asks_way:  # "I came up from the pond": not where it is
            desc = _WHEREABOUTS.sub("", desc).strip() or desc
    if not desc:
        desc = f"It's {target.label}. You can't miss it."
    table = "place_mine" if target.name == npc.home else Kind.PLACE
    label = target.label[:1].upper() + target.label[1:]
    said = _persona_on(npc, target)
    if said and sided and not speak.stale(said):
        # "Is the old bridge safe?": the NPC's side on it, not the bridge described.
        return say(f"{label}? {said}", "player")
    text = speak.text(table, place=target.label, desc=desc)
    if desc in text and not set(words_of(target.label)) - {"the"} <= set(words_of(text)):
        text = f"{label}? {text}"  # "Its water is cold and sweet.": which place's
    if said and said not in text and len(text) + len(said) < 200 and not speak.stale(said):
        text = f"{text} {said}"
    if desc in text or not speak.stale(text):
        return say(text, "player")
    return speak.line(Kind.GO, place=target.label)


def _kept_by(talk: PlayerLine, place: PlaceFact, speak: Speaker) -> SkillCall | None:
    """Of a place nobody works: who looks after it (nobody in particular), and whether the
    player may do something there (yes, and a bit of how it is); of another's, that they
    say whether; None when neither is asked, or who keeps it is (they are asked after)."""
    label = label_of(place)
    if place.name in (talk.npc.sheet.work, talk.npc.home):
        return None
    keepers = keepers_of(talk.npc, place.name)
    # "can I go down the mine?", "when does the inn open?": the miner's, the innkeeper's say
    if keepers and (_MAY_I.search(talk.said) or _HOURS.search(talk.said)):
        return speak.line("place_ask_whose", who=keepers[0].name, place=label)
    if any(p.home == place.name for p in talk.npc.people) or keepers:
        return None
    if _WHO_KEEPS.search(talk.said):
        return speak.line("keeper_none", place=label)
    last = re.escape(label.split()[-1])  # how it is, past its name and where it is
    told = re.sub(rf"^(?:the |an? )?(?:[\w-]+ ){{0,2}}?{last}\b", "", place.description, flags=re.I)
    told = _WHEREABOUTS.sub("", f" {told}").strip(" ,:;.")
    bit = bit_of(told[:1].upper() + told[1:])
    if _MAY_I.search(talk.said) and bit:
        return speak.line("place_yes", bit=bit)
    return None


_WHO_KEEPS = re.compile(
    r"\bwho (?:looks after|keeps|tends|minds|cares for|owns|runs|takes care of)\b", re.I
)
_HOURS = re.compile(r"\b(?:what time|when|what hours)\b[^.!?]*\b(?:open|close|shut)", re.I)
_MAY_I = re.compile(r"^(?:\w+,\s*)?(?:can|may|could) (?:i|we)\b|\bmind if (?:i|we)\b", re.I)
_TELL_OF = re.compile(r"\b(?:tell|describe|show)\b", re.I)
# Where a place is, in its description: "south of the green", "on the north side".
_WHEREABOUTS = re.compile(
    r",?\s+(?:(?:just |right |off )?(?:north|south|east|west)(?:-(?:east|west))? of the \w+|"
    r"(?:in|on|at) the (?:far )?(?:north|south|east|west|middle)(?:-(?:east|west))?"
    r"(?: (?:side|end|corner|edge))?(?: of (?:the )?\w+)?)(?=[,.:;]|$)"
)


def _persona_on(npc: VillagerFacts, target: Target) -> str:
    """What the NPC's persona says of a place, told short ("I worry about it." for "quietly
    worries about the old bridge"), if it says anything."""
    words = [w for w in target.name.split("_") if len(w) > 2]
    for clause in clauses(npc.persona, npc.name):
        # "butter in the dairy" (of "made the cheese and butter in the dairy") has no verb.
        if not said_as_mine(clause, npc.persona):
            continue
        named = [w for w in words if re.search(rf"\b{re.escape(w)}\b", clause, re.I)]
        # "lives in the shed near the chalk pit" says where the shed is, not of the pit
        near = r"\b(?:near|by|beside|behind|next to|past|towards?|opposite|across from)\s+"
        if named and not any(
            re.search(rf"{near}(?:the\s+)?(?:\w+\s+)?{re.escape(w)}", clause, re.I) for w in named
        ):
            return about_it(clause)
    return ""


# What a persona says the NPC carries ("collects shiny pebbles") and where its things come
# from ("curiosities from distant towns"): the words after these, for "have" and "origin".
_OBJECTS = {
    "have": re.compile(r"\b(?:collects?|carr(?:y|ies)|full of|sells?|hoards?)\s+(.+)$", re.I),
    "origin": re.compile(r"\bfrom\s+(.+)$", re.I),
}


def side_of(talk: PlayerLine) -> str:
    """The persona's side on what the player asks, as the NPC says it, or ""."""
    return side_on(talk.said, talk.npc.persona, talk.npc.name)


def _persona_object(npc: VillagerFacts, sub: str) -> str:
    """The words the first persona clause matching `_OBJECTS[sub]` says ("shiny pebbles",
    "distant towns"), or ""."""
    for clause in clauses(npc.persona, npc.name):
        found = _OBJECTS[sub].search(clause)
        if found:
            return found.group(1).strip()
    return ""


def self_answer(talk: PlayerLine, sub: str, speak: Speaker) -> SkillCall:
    """The line about the NPC itself, from its character sheet in its own words."""
    npc = talk.npc
    if day := where_i_am_at(talk) or my_hours(talk):  # "where do you have lunch?": its day
        return say(day, "player")
    if sub == "wares" or (_SELL_ASKED.search(talk.said) and touched(talk.said, npc.sheet.wares)):
        return wares_line(talk, speak)  # "do you sell jugs?" of the potter: what it sells
    if sub == "no_leader":  # "who's in charge?" in a village nobody leads
        return speak.line("no_leader")
    if sub != "side" and asks_yes_no(talk.said):  # "mind if I whistle?": a dislike it names
        held = sheet_side(talk, speak, any_item=False, only=("beliefs", "fears", "dislikes"))
        if held is not None:
            return held
    if ENJOY.search(talk.said) and _of_its_work(talk):  # "do you enjoy making barrels?"
        felt = sheet_side(talk, speak, any_item=False, only=("dislikes", "likes"))
        work = said_by(job_line(talk, speak, "my_work"))
        said = then(speak.text("enjoy_work"), work.text if work else "")
        return felt or say(said, "player")
    why = why_me(talk) if _WHY_YOU.search(talk.said) else ""
    if why:  # "why are your hands blue?": the clause that says so
        return said_as(talk, speak, "self_side", "about", shorter(why))
    if sub in ("work", "trade", "who"):
        ware = touched(talk.said, npc.sheet.wares) if sub == "trade" else ""
        if ware:
            return mine_line(talk, speak, "my_like", ware)
        job = job_line(talk, speak, "my_who" if sub == "who" else "my_work")
        told = said_by(job)
        if sub == "work" and told and re.match(r"\W*who\b", talk.said, re.I):  # "who mends..?"
            return say(then(speak.text("me_who"), told.text), "player")
        return job
    if sub in _OBJECTS:
        carried = _persona_object(npc, sub) or ", ".join(npc.sheet.wares[:2])
        if not carried:
            return job_line(talk, speak, "my_work")
        if sub == "have":
            carried = carried[:1].upper() + carried[1:]
        return said_as(talk, speak, f"self_{sub}", "thing", shorter(carried))
    if sub == "side" and speaks_of_trade(talk.said, npc):  # "do you make swords too?"
        # "do you like clover?": a like; a belief by more words than the trade's own
        held = sheet_side(talk, speak, any_item=False, only=("likes", "dislikes", "fears"))
        if any(len(stems_of(talk.said) & stems_of(b.what)) > 1 for b in npc.sheet.beliefs):
            held = held or sheet_side(talk, speak, any_item=False, only=("beliefs",))
        return held or job_line(talk, speak, "my_work")
    stated = favourite(talk.said, npc.persona)
    if stated:  # "what's your favourite colour?" of one whose persona names it
        return mine_line(talk, speak, "my_like", stated)
    if sub in ("like", "side", "about"):
        found = sheet_side(talk, speak)
        if found is not None:
            return found
        if sub == "side":
            side = side_of(talk)
            sure = next((b for b in npc.sheet.beliefs if b.what.lower() in side.lower()), None)
            if sure:  # a belief of its sheet: said as one, not cut to "I believe"
                return said_as(talk, speak, f"belief_{sure.sure}", "what", claim_phrases(sure.what))
            if side:
                return said_as(talk, speak, "self_side", "about", shorter(side.rstrip(".")))
        job = job_line(talk, speak, "my_work")
        like = npc.sheet.likes[:1]
        if not like:
            return job
        liked = mine_line(talk, speak, "my_like", like[0])
        if sub == "like":
            return liked
        both = f"{said_by(job).text} {said_by(liked).text}"  # type: ignore[union-attr]
        return say(both, "player") if len(both) <= MAX_SAY else job
    works = re.search(r"\bwork", talk.said, re.I) and npc.sheet.work  # "where do you work?"
    home = place_named(npc, npc.sheet.work if works else npc.home)
    if sub == "home" and home is not None:
        way = way_to(talk, home) if works else ""  # "where do you work?": there, the way
        if way:
            return say(f"At {label_of(home)}. {way}", "player")
        return speak.line("self_home", home=label_of(home), desc=own(home.description, npc))
    return job_line(talk, speak, "my_who")


_SELL_ASKED = re.compile(
    r"\b(?:do|did|can|could) you (?:sell|have|make|stock|carry|do)\b|\bhave you got\b|"
    r"\b(?:got|any) (?:\w+ )?(?:for sale|to sell)\b|\bgot any\b",
    re.I,
)
_IT = re.compile(r"^(?:it|this|these|those|so)\b", re.I)  # a belief of a thing said before it

# What a question about the NPC asks of its sheet, by its words.
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fears", re.compile(r"\b(?:afraid|fear|scare|frighten|worr|dread|terrif|nervous)", re.I)),
    (
        "dislikes",
        re.compile(
            r"\b(?:hate|dislike|annoy|can'?t stand|bother|irritat|anger)|"
            r"\bwhat (?:(?:don'?t|do not) you|do you not) (?:like|love|enjoy|care for)\b",
            re.I,
        ),
    ),
    (
        "beliefs",
        re.compile(
            r"\b(?:believe|true|really|sure|certain|think|real|exist|superstiti|luck)", re.I
        ),
    ),
    ("likes", re.compile(r"\b(?:like|love|enjoy|favou?rite|dream|wish|hope|want|fond)", re.I)),
)
# "the company of herons to crowds": a like of one thing over another.
_OVER = re.compile(r"^(?P<liked>.+\S) to (?P<not>[a-z]+s)$")


def _likes_and_dislikes(
    likes: Iterable[str], dislikes: Iterable[str]
) -> tuple[list[str], list[str]]:
    """The sheet's likes and dislikes, a liking of one thing over another split in two."""
    liked, disliked = [], list(dislikes)
    for like in likes:
        over = _OVER.match(like)
        liked.append(over.group("liked") if over else like)
        if over:
            disliked.append(over.group("not"))
    return liked, disliked


def sheet_side(
    talk: PlayerLine, speak: Speaker, any_item: bool = True, only: tuple[str, ...] = ()
) -> SkillCall | None:
    """The NPC's side on what the player asks, from its sheet: the belief, like, dislike or
    fear the question names (by shared words), else the kind it asks for ("what do you
    fear?") unless `any_item` is False; `only`: of those lists only ("beliefs"). None when
    the sheet has nothing to say to it."""
    sheet = talk.npc.sheet
    said = talk.said
    field = next((f for f, pattern in _ASKS if pattern.search(said)), "")
    # "do you believe in luck?": named only; "are you afraid of anything?": the kind asked
    any_item = any_item and (not asks_yes_no(said) or bool(_ANY.search(said)))
    likes, dislikes = _likes_and_dislikes(sheet.likes, sheet.dislikes)
    doubted = [r for r in sheet.refuses if r.startswith("believe ")]  # "believe in ghosts"
    pools = {
        # "it snarls the threads" says nothing without what "it" is: not said alone ("there
        # is a ghost in the tower" is)
        "beliefs": [
            b.what
            for b in sheet.beliefs
            if not _IT.match(b.what) and f"believe {b.what}" not in doubted
        ],
        "fears": fears_of(sheet.fears, talk.npc.persona),
        "dislikes": dislikes,
        "likes": likes,
    }
    if only:
        pools = {f: items for f, items in pools.items() if f in only}
    if _WHEN_ASKED.search(said):  # "when's the next market day?" asks no liking of markets
        pools = {f: items for f, items in pools.items() if f not in ("likes", "dislikes")}
    # a belief by the words it says ("weave me a cloak" is no word on red thread's luck)
    found = {f: touched(said, items, kin=f != "beliefs") for f, items in pools.items()}
    doubt = touched(said, doubted, kin=False) if "beliefs" in pools else ""
    if doubt and not found["beliefs"]:  # "do you believe in ghosts?": what it doubts
        return said_as(talk, speak, "refuse", "deed", one_listed(doubt, said) + shorter(doubt))
    asked_one = asks_yes_no(said) and not _ANY.search(said)  # not "scared of anything?"
    if field == "fears" and "fears" in pools and not found["fears"] and asked_one:
        # "are you scared of ghosts?" of one who fears only the sea: no, and what it fears
        fears = pools["fears"]
        if not fears:
            return speak.line("fear_none")
        return said_as(talk, speak, "fear_not", "thing", shorter(fears[0]))
    # What the question names wins over the kind it asks for.
    hit = next((f for f in pools if found[f]), "")
    if hit:  # "do you like geese?" of one who fears them: its no
        if hit == "fears" and field in ("likes", "dislikes"):
            return said_as(talk, speak, "fear_no", "thing", shorter(found[hit]))
        field, item = hit, found[hit]
    elif any_item and field in pools:
        # "what do you hate most?" of one who hates nothing: what it fears
        items = pools[field] or (pools.get("fears", []) if field == "dislikes" else [])
        if not items:
            return speak.line("fear_none") if field == "fears" else None
        item = items[0]
    else:
        return None
    if field == "beliefs":
        sure = next(b.sure for b in sheet.beliefs if b.what == item)
        phrases = reason_phrases(item, said) + claim_phrases(item, bool(found["beliefs"]), said)
        npc = talk.npc
        said_so = in_own_words(
            lambda p: speak.text(f"belief_{sure}", what=p), phrases, npc.persona, npc.name
        )
        if asks_yes_no(said) and not said_so:  # "is it true the knots slip...?": its yes
            phrases = ["it's true"]
        return said_as(talk, speak, f"belief_{sure}", "what", phrases)
    if field == "fears":
        return _fear_line(talk, speak, item)
    table = "my_dislike" if field == "dislikes" else "my_like"
    return mine_line(talk, speak, table, item)


_ANY = re.compile(r"\b(?:anything|anyone|something|much|superstiti\w*)\b")  # of any kind
_WHEN_ASKED = re.compile(r"^(?:\w+, )?when\b|\bwhen(?:'s| is| are| does| do| will)\b", re.I)
_WHY_YOU = re.compile(r"\bwhy\b[^?.!]*\b(?:you|your)\b", re.I)


def _fear_line(talk: PlayerLine, speak: Speaker, fear: str) -> SkillCall:
    """What the NPC says of a fear: "I worry ..." when its persona says it worries."""
    if worried(fear, talk.npc.persona):
        return said_as(talk, speak, "my_worry", "thing", claim_phrases(fear))
    return mine_line(talk, speak, "my_fear", fear)


def fear_near(talk: PlayerLine, speak: Speaker) -> SkillCall | None:
    """The NPC's fright at a line that brings what it fears near without asking of its
    fears ("a storm's rolling in", of one terrified of thunderstorms): "Thunderstorms? Oh
    no, not that!"; None when the line touches no fear, asks the way, or asks what it fears."""
    said = talk.said
    if asks_the_way(said) or _ASKS[0][1].search(said):
        return None
    fears = fears_of(talk.npc.sheet.fears, talk.npc.persona)
    said = without_wares(said.replace("cats and dogs", "hard"), talk.npc.sheet.wares)  # rain
    # by its words, or by a sign of it ("smoke over the forest" of one afraid of fire)
    fear = next((f for f in fears if names_thing(said, f) or sign_of(said, f)), "")
    if not fear or worried(fear, talk.npc.persona):  # a worry is no fright
        return None
    return said_as(talk, speak, "fear_near", "thing", shorter(fear))


def mine_line(talk: PlayerLine, speak: Speaker, table: str, item: str) -> SkillCall:
    """A like, dislike or fear said in a line of `table`, in the NPC's own words."""
    return said_as(talk, speak, table, "thing", shorter(item))


def _of_its_work(talk: PlayerLine) -> bool:
    """Whether a line asks of the NPC's work: "your job", or a word of its trade or its
    ways ("making barrels" of a cooper)."""
    if re.search(r"\byour (?:work|job|trade|craft)\b", talk.said, re.I):
        return True
    sheet = talk.npc.sheet
    asked = stems_of(talk.said) - stems_of("do you really still enjoy like love your being")
    deeds = [re.split(r"\s+and (?:his|her|their|my)\b", w)[0] for w in sheet.ways]  # not "...
    return bool(asked & stems_of(" ".join([sheet.role, *deeds])))  # and his hands are blue"


def said_as(
    talk: PlayerLine, speak: Speaker, table: str, slot: str, phrases: list[str]
) -> SkillCall:
    """A line of `table` with `slot` filled by the first of `phrases` that does not read
    the persona back (the job's line if none can be said)."""
    npc = talk.npc
    text = in_own_words(lambda p: speak.text(table, **{slot: p}), phrases, npc.persona, npc.name)
    if not text:
        return job_line(talk, speak, "my_work")
    return say(text, "player")
