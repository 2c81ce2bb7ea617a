"""What the player asked: the intent of one line, with the place or person it names.

The scripted brain reads a line as a listener would, by families of words and short
patterns, never by whole sentences: a gesture ("give us a wave"), a walk ("take me to the
smithy"), a look, a wait, a question about a place, a villager or the NPC itself, the
player's name, a call back, talk of prompts, machines or things not in the village,
greetings, goodbyes and thanks. What is named is matched against the facts by
`game.npc.reading.naming`, never pasted back. The phrases are `game.npc.reading.phrases`;
the player's name and words `game.npc.reading.player`'s; how a request is phrased
(clauses, politeness, the verbs of each action) `game.npc.reading.asking`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from game.npc.facts import VillagerFacts
from game.npc.reading.about_self import HOW_IT_WORKS, OWN_LIFE, SELF
from game.npc.reading.asking import (
    DIRECTIONS,
    FOLLOW,
    GO,
    LOOK,
    OPENERS,
    SEE,
    WAIT,
    asked_act,
    asked_gesture,
    asks_yes_no,
    clauses,
    only_wait,
    request,
    wait_seconds,
)
from game.npc.reading.fourth_wall import AI, INJECTION
from game.npc.reading.kinds import Kind, Named, Target
from game.npc.reading.naming import (
    FILLER,
    PLACE_NOUNS,
    TITLES,
    described_by,
    find_target,
    name_words,
    names_a_place,
    norm,
    place_target,
    speaks_of_trade,
    stem,
    tokens,
    village_names,
    whose,
    without_village,
)
from game.npc.reading.phrases import (
    ASK_NAME,
    BEST_PLACE,
    BYE,
    CHATTER,
    DOING_YOU,
    FAVOUR,
    GLAD,
    HAVE,
    HELLO,
    HOW_ARE_YOU,
    INVITE,
    LEADER,
    LEADER_ASKED,
    LIKING,
    NOT_STORY,
    OFFWORLD,
    ORIGIN,
    OWNER,
    PERSON_SUB,
    QUESTION,
    RECALL,
    RECOMMEND,
    SAD,
    SEEK,
    SONG,
    STORY,
    TELL_ME_OF,
    THANKS,
    TIME,
    TO_BED,
    VILLAGE,
    WEATHER,
    time_asked,
)
from game.npc.reading.player import told_name
from game.npc.reading.words import spelt_out
from game.npc.scripted.retell import side_on
from game.npc.skills import SKILLS

__all__ = ["Intent", "asked_actions", "asks_yes_no", "read_intent"]


@dataclass(frozen=True)
class Intent:
    """What one line asks of the NPC."""

    kind: Kind
    gesture: str | None = None  # wave, nod, shake_head, laugh, think
    target: Target | None = None
    direction: str | None = None  # up, down, left, right: a walk that way
    seconds: float = 0.0  # how long to wait
    sub: str = ""  # person/self questions: who, where, opinion...; "invite": come later
    name: str | None = None  # the name the player gave in this line
    words: tuple[str, ...] = field(default_factory=tuple)  # content words (recall)


_SEEN_GONE = (Kind.LOOK, Kind.GO)


def read_intent(text: str, npc: VillagerFacts) -> Intent:
    """What the line asks of the NPC, and the place or person it names, from the facts."""
    line = norm(spelt_out(text))
    names = {*(name_words(npc.name) - TITLES), npc.npc_id.lower()}
    name = told_name(text, npc)
    words = tuple(w for w in tokens(line) if w not in FILLER)
    if not line.strip(" .!?,"):
        return Intent(Kind.CHAT)
    if INJECTION.search(line):
        return Intent(Kind.INJECTION)
    if AI.search(line):
        return Intent(Kind.AI)
    if ASK_NAME.search(line):
        return Intent(Kind.ASK_NAME, name=name)
    if RECALL.search(line):
        return Intent(Kind.RECALL, words=words)
    invited = INVITE.search(line)
    if invited:  # "will you come to the square later?": when it will be there, if at all
        where = find_target(line[invited.start() :], npc)
        if where is not None and where.kind is Named.PLACE and not where.weak:
            return Intent(Kind.PLACE, target=where, sub="invite", name=name)
    if TO_BED.search(line) and "?" not in line:  # "go back to sleep": no walk to "sleep"
        return Intent(Kind.BYE, name=name)
    action = _action(line, npc, names)  # "check my phone" is no look: a thing of elsewhere
    if action is not None and not (action.kind in _SEEN_GONE and OFFWORLD.search(line)):
        return replace(action, name=name)
    if re.search(r"\b(?:show|teach) (?:me|us) how you\b", line):
        return Intent(Kind.CHAT, name=name)  # "show me how you fly a hawk": no hawk field
    told = _story(line, npc)
    if told is not None:  # "tell me a story", "any ghost stories?", "sing us a song"
        return replace(told, name=name)
    if RECOMMEND.search(line):  # "ok I'm off, what should I see before I go?": a place to see
        return Intent(Kind.SELF, sub="recommend", name=name)
    if LEADER_ASKED.search(line):  # "who's in charge here?": whoever the village looks to
        return _leader(npc, name)
    owner = whose(line, npc) if OWNER.search(line) else None
    if owner is not None:  # "are all these goats yours?": its own things, or whose
        return Intent(Kind.SELF, sub="own", target=owner, name=name)
    if BYE.search(line):
        return Intent(Kind.BYE, name=name)
    if OFFWORLD.search(line):
        return Intent(Kind.OFFWORLD, name=name)
    if TIME.search(line):
        return Intent(Kind.TIME, sub=time_asked(line))  # "when does it get dark?": "dark"
    if HAVE.search(line):
        return Intent(Kind.SELF, sub="have")
    if ORIGIN.search(line) and re.search(r"\byou(?:r|rs)?\b", line):
        return Intent(Kind.SELF, sub="origin")
    favour = FAVOUR.search(line)
    if favour and not re.search(r"\b(?:where|how)\b", line):
        return Intent(Kind.FAVOUR, name=name, sub="leave" if favour["leave"] else "")
    if CHATTER.search(line):
        return Intent(Kind.CHATTER, name=name)
    if name is not None:
        return Intent(Kind.TELL_NAME, name=name, words=words)
    if VILLAGE.search(line):
        return Intent(Kind.VILLAGE)
    question = bool(QUESTION.search(line) or TELL_ME_OF.search(line))
    target = find_target(without_village(_without_greeting(line), npc), npc)
    self_sub = next((sub for sub, pattern in SELF if pattern.search(line)), None)
    # "how do you get on with Cassius?" names another; "how are your candles made?" does
    # not, though a neighbour's trade may be read in it
    of_other = target is not None and target.kind is Named.PERSON and not target.weak
    if of_other and target is not None and target.name.split()[0].lower() not in line.lower():
        of_other = False
    if self_sub in HOW_IT_WORKS and of_other:
        self_sub = None
    of_place = target is not None and target.kind is Named.PLACE and _THING_TO.search(line)
    if self_sub and target is not None and (target.kind is Named.PERSON or of_place):
        # "what's your favourite thing to make?" asks of itself, not of whoever makes rope;
        # "...thing to bake?", not of the bakery
        if _OF_YOU.search(line) and not re.match(r"\W*who\b", line) and not of_other:
            target = None
    if self_sub in ("years", "feeling", "day", *OWN_LIFE, *HOW_IT_WORKS) or (
        self_sub == "family" and not of_other  # "does Silas have any family?": his
    ):
        return Intent(Kind.SELF, sub=self_sub)
    best = _BEST_OF.search(line)
    if best and (best["here"] or (best["of"] or best["about"]) in village_names(npc)):
        self_sub = "recommend"  # "what's the best thing about Stonereach?"
    mine = target is not None and (target.weak or target.name in (npc.home, npc.sheet.work))
    if self_sub == "wares" and _sells_here(line, npc):
        return Intent(Kind.SELF, sub="wares")
    if self_sub is None and question and (target is None or mine) and speaks_of_trade(line, npc):
        self_sub, target = "trade", None  # "do you make swords too?" to the smith
    if target is not None and target.kind is Named.SELF:
        # "Tobin, ..." only calls the NPC; "are you the baker?" asks about it.
        if self_sub is None and question and not _addressed(line, names):
            if re.search(r"\bwhere\b|\bfind\b", line):
                self_sub = "home"
            else:
                self_sub = "who" if set(tokens(line)) & names else "work"
        target = None
    # "Do you enjoy crowds?", "is there really a dragon?": the persona's side on it.
    liking = self_sub == "like" and LIKING.search(line)
    sought = re.search(r"\b(?:any|some) ?(?:where|place|spot)\b", line)  # "is there anywhere..."
    if liking or (asks_yes_no(line) and (target is None or target.weak) and not sought):
        home = "|".join(village_names(npc)) or "^$"  # "is there an inn in Ashby?" asks no side
        if side_on(re.sub(rf"\b(?:{home})\b", " ", line), npc.persona, npc.name):
            return Intent(Kind.SELF, sub="side")
    if SEEK.search(line):  # "I'm looking for Wren", "have you seen my goat?"
        if target is not None and target.kind is Named.PERSON:
            return Intent(Kind.PERSON, target=target, sub="where")
        if target is not None and not target.weak:
            return Intent(Kind.PLACE, target=target)
        return Intent(Kind.SEEK)
    if question and mine and DOING_YOU.search(line):  # "what are you doing with the pigs?"
        return Intent(Kind.SELF, sub="work")
    if target is not None and not target.weak and (question or _short(line)):
        return _about(target, line)
    if self_sub is not None:
        return Intent(Kind.SELF, sub=self_sub)
    if HOW_ARE_YOU.search(line):
        return Intent(Kind.HOW)
    if question and _asks_where(line):
        return Intent(Kind.UNKNOWN_PLACE)
    if target is not None and (_SEEKING.search(line) or _short(line)):
        return _about(target, line)  # "where can I get a drink?": the well, by its description
    if HELLO.search(line):
        return Intent(Kind.GREET)
    if THANKS.search(line):
        return Intent(Kind.THANKS)
    small = len(words) <= _SMALL_TALK and not re.search(r"\bwhere\b", line)
    if WEATHER.search(line) and (target is None or target.weak) and small:
        return Intent(Kind.WEATHER)  # "nice weather today, isn't it?": small talk, no fact
    if target is not None and not target.weak:
        return _about(target, line)
    if question and _ABOUT_YOU.search(line) and not _REQUEST_OF_YOU.search(line):
        return Intent(Kind.SELF, sub="like")  # "what are you proud of?": from the persona
    if not question and SAD.search(line):
        return Intent(Kind.SAD)
    if not question and GLAD.search(line):
        return Intent(Kind.GLAD)
    if BEST_PLACE.search(line):  # "best place to watch the sunset?": no place named by it
        return Intent(Kind.SELF, sub="recommend")
    return Intent(Kind.QUESTION if question else Kind.CHAT, words=words)


def _story(line: str, npc: VillagerFacts) -> Intent | None:
    """A story or a song asked for, and what kind (`Intent.sub`): a ghost story, one of the
    old days, the strangest thing; of a villager the line names, told of them. None when
    none is asked, or one of a place the line names ("the story of the old bridge": the
    place's own history is the place's answer)."""
    if SONG.search(line):
        return Intent(Kind.STORY, sub="song")
    if not STORY.search(line) or NOT_STORY.search(line):
        return None
    # "a story" is no place's "store": the words of asking for one name nothing
    told_of = re.sub(r"\b(?:stor(?:y|ies)|tales?)\b", " ", _without_greeting(line))
    target = find_target(told_of, npc)
    if target is not None and target.kind is Named.PLACE and not target.weak:
        return None
    about = target if target is not None and target.kind is Named.PERSON else None
    sub = next((sub for sub, pattern in _TOLD if pattern.search(line)), "")
    return Intent(Kind.STORY, target=about, sub=sub)


# What kind of story a line asks for, by its words.
_TOLD = (
    ("ghost", re.compile(r"\b(?:ghosts?|scary|spooky|haunt\w*|scariest|spookiest|fright\w*)\b")),
    ("odd", re.compile(r"\b(?:strange\w*|odd\w*|weird\w*|curious|funniest|craziest)\b")),
    ("old", re.compile(r"\b(?:old|olden|legends?|myths?|long ago|your day|fables?)\b")),
)


_SEEKING = re.compile(  # "what a lot of candles!" seeks nothing
    r"\b(?:where|what(?! an? )|which|is there|are there|tell me about|know (?:of|about)|"
    r"how (?:do|can|would|should) (?:i|we|one)|find|get|buy|see)\b"
)


_OF_YOU = re.compile(r"\byour\b")
_THING_TO = re.compile(r"\b(?:favou?rite|best) (?:thing|kind|sort)s? (?:to|you) \w+")
_ABOUT_YOU = re.compile(
    r"\b(?:what|how|why|which|are|do|did|have|were|was|is)\b[^?]{0,30}\b(?:you|your|yours|"
    r"yourself)\b"
)
_REQUEST_OF_YOU = re.compile(
    r"\b(?:can|could|would|will|won't|may|might|shall) (?:you|i|we)\b|\bdo you (?:know|mind|"
    r"think|see|hear|remember|want me|need me)\b|\bhave you (?:seen|heard)\b"
)


def _leader(npc: VillagerFacts, name: str | None) -> Intent:
    """Whom "who's in charge?" is answered with: the villager whose role or persona says
    they lead (an elder, a reeve, a mayor...), the NPC itself if it does, else nobody."""
    if LEADER.search(f"{npc.sheet.role} {npc.persona}"):
        return Intent(Kind.SELF, sub="who", name=name)
    for person in npc.people:
        if LEADER.search(f"{person.trade} {person.role} {person.does}"):
            them = Target(
                Named.PERSON, person.name, person.name, person.role, person.home, by_place=True
            )
            return Intent(Kind.PERSON, target=them, sub="where")
    return Intent(Kind.SELF, sub="no_leader", name=name)


def _about(target: Target, line: str) -> Intent:
    if target.kind is Named.PERSON:
        sub = next((s for s, p in PERSON_SUB if re.search(p, line)), "who")
        if target.by_place and sub == "who":
            sub = "where"  # "who runs the windmill?": its keeper, and where they are found
        return Intent(Kind.PERSON, target=target, sub=sub)
    return Intent(Kind.PLACE, target=target)


_BEST_OF = re.compile(
    r"\bwhat(?:'s| is) (?:the best|your fav(?:ou?rite)?) (?:thing|part|place|spot) (?:about|in|of) "
    r"(?:(?P<here>here|th(?:is|e) (?:village|place|town))|(?P<of>\w+))|"
    r"\bwhat do you (?:like|love) (?:most |best )?about (?P<about>\w+)"
)


def _sells_here(line: str, npc: VillagerFacts) -> bool:
    """Whether a question of what is for sale asks what the NPC sells: the sentence asking
    names no place, or only its own ("I saw your name by the well. What are you selling?",
    not "what can I buy at the quay?")."""
    wares = dict(SELF)["wares"]
    asked = next((s for s in re.split(r"(?<=[.!?])\s+", line) if wares.search(s)), line)
    there = find_target(asked, npc)
    own = (npc.home, npc.sheet.work)
    return there is None or there.weak or there.kind is Named.SELF or there.name in own


def _addressed(line: str, names: set[str]) -> bool:
    """The NPC's name only calls it: "Tobin, ...", "..., Tobin?", "Evening, Tobin. ..."."""
    who = "|".join(re.escape(n) for n in {*names, *TITLES} if n)
    return bool(re.search(rf"^(?:\w+ )?(?:{who})\b\s*,|,\s*(?:{who})\s*(?:[.!?]+\s|[.!?]*$)", line))


_SMALL_TALK = 6  # a remark of the weather this many words long or fewer is small talk


def _without_greeting(line: str) -> str:
    """The line without its hello or thanks: "thanks!" names nothing ("always thanks")."""
    return THANKS.sub("", HELLO.sub("", line)).strip(" ,!")


def _short(line: str) -> bool:
    """A line that is little more than the name of a place or person ("The forge?")."""
    return len(tokens(line)) <= 4


def _asks_where(line: str) -> bool:
    """A question for a place the map lacks ("is there a tavern?", "where is the castle?")."""
    if re.search(
        r"\bwhere(?:'s| is| are| can| do| would)\b|\bis there (?:a|an|any)\b|"
        r"\bare there any\b|\bhow do i get to\b|\bway to\b|\bdirections to\b",
        line,
    ):
        return any(w in PLACE_NOUNS or stem(w) in PLACE_NOUNS for w in tokens(line))
    return False


def asked_actions(text: str, npc: VillagerFacts) -> list[Intent]:
    """Every action the line asks of the NPC, in the order asked: a gesture, walks, looks,
    waits, and any other skill by the words its declaration gives (`Intent(Kind.SKILL)`)."""
    line = norm(spelt_out(text))
    names = {*(name_words(npc.name) - TITLES), npc.npc_id.lower()}
    found = sorted(_actions(line, npc, names), key=lambda f: f[0])
    gone = _SEEN_GONE if OFFWORLD.search(line) else ()  # "check my phone": no look
    return [intent for _, intent in found if intent.kind not in gone]


def _action(line: str, npc: VillagerFacts, names: set[str]) -> Intent | None:
    """A gesture, a walk, a look or a wait asked for: the first one asked, if any."""
    found = _actions(line, npc, names)
    if not found:
        return None
    # The first thing asked; a walk to a place not found only if nothing else was asked.
    return min(found, key=lambda f: (f[1].sub == "unknown", f[0]))[1]


def _actions(line: str, npc: VillagerFacts, names: set[str]) -> list[tuple[int, Intent]]:
    """Each action asked for, with where in the line it is asked."""
    found: list[tuple[int, Intent]] = []
    gesture = asked_gesture(line, names)
    if gesture is not None:
        found.append((gesture[0], Intent(Kind.GESTURE, gesture=gesture[1])))
    act = asked_act(line, names)  # "bow to the lady": made with a gesture, said as itself
    if act is not None and (gesture is None or act[0] < gesture[0]):
        found.append((act[0], Intent(Kind.GESTURE, gesture=act[1].shown.name, sub=act[1].name)))
    offset = 0
    for clause in clauses(line):
        at = line.find(clause, offset)
        offset = max(offset, at)
        walk = _walk(clause, npc, names)
        if walk is not None:
            if walk.sub == "lead":  # "Which way to the market? Lead on!": the place named
                named = find_target(line, npc)
                places = (Named.PLACE, Named.PERSON)
                lead = named is not None and named.kind in places and not named.weak
                walk = Intent(Kind.GO, target=named) if lead else replace(walk, sub="follow")
            elif walk.sub == "unknown" and re.search(r"\b(?:him|her|them)\b", clause):
                named = find_target(line, npc)  # "I need Tobin. Can you take me to him?"
                if named is not None and named.kind is Named.PERSON:
                    walk = Intent(Kind.GO, target=named)
            found.append((at, walk))
            continue
        look = request(clause, LOOK, names)
        if look is not None and not re.search(r"\blook(?:s|ing)? like\b|\bsee you\b", clause):
            rest = clause[look.end() :]
            target = find_target(rest, npc) if rest.strip() else None
            if target is not None and target.weak and not described_by(rest, target):
                target = None  # "the sky over the hills": no place's own words, no place
            if re.match(r"\s*(?:at )?(?:me|us)\b", rest):
                target = _PLAYER
            elif target is None and not re.search(r"\b(?:around|about)\b", rest):
                named = find_target(line, npc)  # "a splash in the pond; take a peek"
                target = named if named is not None and not named.weak else None
            found.append((at, Intent(Kind.LOOK, target=target)))
            continue
        if SEE.search(clause):
            found.append((at, Intent(Kind.LOOK)))
            continue
        wait = request(clause, WAIT, names)
        if wait is not None and only_wait(line[at:], wait.end()):
            found.append((at, Intent(Kind.WAIT, seconds=wait_seconds(clause))))
            continue
        for skill in SKILLS.values():
            if skill.asks is not None and request(clause, skill.asks, names) is not None:
                found.append((at, Intent(Kind.SKILL, sub=skill.name)))
    return found


_PLAYER = Target(Named.PLAYER, "player", "you")


def _walk(clause: str, npc: VillagerFacts, names: set[str]) -> Intent | None:
    """A walk asked for: where to, or to the player, or a way; None if not asked."""
    if re.search(r"\bhow (?:do|can|would|should|might) (?:i|we|one)\b|\bwhere do you\b", clause):
        return None  # "how do I get to the well?" asks for directions: a question
    if re.search(r"\b(?:show|teach) (?:me|us) how\b", clause):
        return None  # "show me how you split stone": a how, not a walk
    follow = request(clause, FOLLOW, names)
    go = request(clause, GO, names)
    match = follow or go
    if match is None:
        return None
    asked, rest = clause[: match.end()], clause[match.end() :]
    # "go and see Tobin": the errand names where to; the destination ends where the reason
    # begins: "to the tavern, I need a drink".
    rest = re.sub(
        r"^\s*and (?:see|visit|find|check on|check|look at|ask|talk to|speak to|fetch|get|meet|"
        r"help|tell)\b",
        "",
        rest,
    )
    rest = re.split(r",|\b(?:and|because|so|since|as|i|i'm|i've|we|cause|for i)\b", rest)[0]
    if re.search(r"^\s*(?:away|off|along|elsewhere)\b", rest) and follow is None:
        return Intent(Kind.GO, sub="away")
    if re.search(r"\baround\b|\ba tour\b", asked + rest[:8]) and not re.search(r"\bto\b", rest):
        return Intent(Kind.GO, target=find_target(rest, npc), sub="tour")
    direction = next((DIRECTIONS[w] for w in tokens(rest)[:3] if w in DIRECTIONS), None)
    target = find_target(rest, npc)
    if direction is not None and target is None:
        return Intent(Kind.GO, direction=direction)
    if re.search(r"\bhome\b", rest) and not re.search(r"\b(?:my|his|her|their|your)\b", rest):
        if re.search(r"\b(?:take|bring|walk|lead|guide|show) (?:me|us)\b", asked):
            return Intent(Kind.GO, sub="unknown")  # the player's home is not on the map
        home = next((p for p in npc.places if p.name == npc.home), None)
        if home is not None:
            return Intent(Kind.GO, target=place_target(home))
    if target is not None and target.kind is Named.SELF:
        return Intent(Kind.GO, target=_PLAYER, sub=Named.SELF)
    # "the old mill": a mill the map has not; "the apple trees" are the orchard's own
    unnamed = [w for w in tokens(rest) if target is None or not described_by(w, target)]
    if target is not None and target.weak and names_a_place(unnamed):
        return Intent(Kind.GO, sub="unknown")
    if target is not None:
        return Intent(Kind.GO, target=target)
    content = [w for w in tokens(rest) if w not in FILLER]
    if follow is not None and (not content or not re.match(r"\s*(?:over |down |up )?to\b", rest)):
        return Intent(Kind.GO, target=_PLAYER, sub="follow")  # "come with me, I've got to..."
    if not content:
        if re.search(r"\blead (?:the way|on)\b|\btake (?:me|us)\b|\bshow (?:me|us)\b", asked):
            return Intent(Kind.GO, target=_PLAYER, sub="lead")  # where to may be said elsewhere
        return None
    if re.search(r"\b(?:to|towards?|into|where|at)\b", asked + rest) or names_a_place(content):
        return Intent(Kind.GO, sub="unknown")
    if re.match(r"(?:(?:" + OPENERS + r")\b[, ]*)*(?:go|head|visit|take)\b", clause):
        return Intent(Kind.GO, sub="unknown")
    return None
