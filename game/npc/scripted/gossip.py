"""Gossip asked for ("heard any good gossip?", "who's been up to what?"): the news the NPC
heard, and with none, talk of the neighbours: what it thinks of one its sheet has an
opinion of, else a neighbour at work as ever, in its mood's words; a villager who
will not stand about gossiping says so instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from game.npc.facts import PersonFact
from game.npc.reading.intent import Intent
from game.npc.reading.kinds import Kind, Named, Target
from game.npc.reading.phrases import CHATTER, GOSSIP, LIKING
from game.npc.scripted.clauses import clauses_of, verb_led
from game.npc.scripted.matching import COLD, WARM
from game.npc.scripted.moods import mood_of_word
from game.npc.scripted.speaker import PlayerLine, Speaker, said_by
from game.npc.scripted.stance import refusal
from game.npc.scripted.village_life import at_work
from game.npc.scripted.villagers import opinion_line
from game.npc.scripted.who import what_they_do
from game.npc.skills import SkillCall

__all__ = ["asks_gossip", "between_them", "gossip", "most_of_all"]

# A line about gossip that asks none: "I hate gossip", "stop spreading rumours".
_NOT_ASKED = re.compile(
    r"\b(?:stop|quit|don't|do not|never|hate|spreading|spread)\b.*\b(?:gossip|rumou?rs?)\b", re.I
)


def asks_gossip(said: str) -> bool:
    """Whether a line asks for gossip or talk of the neighbours, not offers a natter
    ("fancy a gossip?") or asks the NPC's liking ("do you like gossip?")."""
    line = said.lower()
    if not GOSSIP.search(line) or _NOT_ASKED.search(line):
        return False
    return not (CHATTER.search(line) or LIKING.search(line))


def gossip(talk: PlayerLine, intent: Intent) -> str:
    """What the NPC says to a gossip question when it heard no news: its no when it will
    not gossip, else a word on a neighbour (one named in the line first, then those its
    sheet has an opinion of, then the others, from a turn's seed), not one said lately."""
    npc = talk.npc
    speak = Speaker(talk, intent)
    if "idle talk" in npc.sheet.refuses:  # its no, as to a natter offered
        no = refusal(talk, replace(intent, kind=Kind.CHATTER), speak)
        said = said_by(no) if no is not None else None
        if said is not None:
            return said.text
    said_lately = " ".join(talk.replies[-4:])
    named = intent.target
    if not npc.sheet.opinions and named is None:  # nothing to say of anyone: the day
        ever = at_work(npc, talk.seed("gossip"))
        if ever and not speak.stale(ever):  # "Nothing much. Wren fishes at the dock, as ever."
            return f"{speak.text('gossip_none')} {ever}"
    for person in _neighbours(talk, intent):
        target = Target(Named.PERSON, person.name, person.name, person.role, person.home)
        asked = named is not None and named.name == person.name  # else no news, but...
        line = said_by(opinion_line(talk, target, speak, "opinion" if asked else "gossip_view"))
        if line is not None and not speak.stale(line.text) and person.name not in said_lately:
            return line.text
    return ""


def _neighbours(talk: PlayerLine, intent: Intent) -> list[PersonFact]:
    """The villagers to gossip of, in order: one the line names, those the NPC has an
    opinion of, then the others from a place the turn's seed picks."""
    npc = talk.npc
    people = list(npc.people)
    if not people:
        return []
    named = intent.target
    first = [p for p in people if named is not None and named.name in (p.name, p.npc_id)]
    held = [p for p in people if p.npc_id in npc.sheet.opinions and p not in first]
    rest = [p for p in people if p not in first and p not in held]
    start = talk.seed("gossip") % len(rest) if rest else 0
    return first + held + rest[start:] + rest[:start]


# "Who's the kindest person here?": a neighbour asked by what they are most.
_MOST = re.compile(
    r"\b(?:who|which)(?:'s| is|'d| would| do you think is| do you reckon is)?\b[^?]*?\b(?:the )?"
    r"(?P<most>most \w+|best|worst|\w{3,}est)\b",
    re.I,
)
# Who it likes best or least: "who do you like least in the village?"
_LIKED = re.compile(
    r"\bwho (?:do you )?(?:like|love) (?:the )?(?P<liked>least|most|best)\b|"
    r"\bwho (?:do you|d'you) (?:like|love)\b(?! (?:the )?(?:least|most|best)\b)|"
    r"\b(?:your )?(?P<fav>least) favou?rite\b|"
    r"\bwho(?:'s| is) your favou?rite\b|\byour favou?rite (?:person|grown-?up|neighbou?r)\b",
    re.I,
)
# Someone asked after by how they are: "who's that woman with the loud voice?", "who's
# the grumpy fellow at the forge?"
_BY_MANNER = re.compile(
    r"\bwho(?:'s| is| was)\b[^?]*?\b(?:with (?:the|a|that) (?P<most>[a-z]{3,}) (?:voice|laugh|"
    r"temper|tongue)|(?:that|the) (?P<manner>[a-z]{3,}) (?:one|fellow|man|woman|lady|chap|girl|boy|"
    r"lad|lass|sort|type|old \w+)\b)",
    re.I,
)
_TRUSTED = re.compile(
    r"\bwho (?:can|could|should|do|d'you) (?:i|we|you) (?P<most>trust|rely on|count on)\b", re.I
)
_OLD_DAYS = re.compile(
    r"\bwho\b[^?]*\b(?P<most>old days|old times|olden days|old stories|history|long ago)\b", re.I
)
_ANYONE = frozenset("perso peopl villa aroun here there think recko whos place folks".split())


def _mine(word: str, talks: Sequence[str]) -> bool:
    """Whether a word of manner says how one talks ("loud" of a loud talker)."""
    return any(t.startswith(word.lower()[:4]) for t in talks)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


# Words that call someone the same thing: "the nosiest?" of one thought a busybody.
_ALIKE = (
    ("nosy", "nosey", "nosi", "busybod", "prying", "meddl"),
    ("brave", "bravest", "fearless", "bold", "courag", "daring"),
    ("cleve", "wise", "wisest", "smart", "sharp", "cunning", "shrewd"),
    ("kind", "gener", "good heart", "warm", "gentle"),
    ("lazy", "lazi", "idle", "idler", "layabout"),
    ("mean", "miser", "stingy", "stingi", "tight-fisted", "skinflint"),
    ("rich", "wealth", "well off"),
    ("honest", "straight", "true"),
    ("lying", "liar", "cheat", "crook", "rogue", "swindl", "fraud", "chancer"),
)


def most_of_all(talk: PlayerLine, intent: Intent) -> SkillCall | None:
    """Who the NPC names asked who is the kindest, cleverest or laziest: the neighbour its
    sheet's opinion says so of, by the words, else by whether it asks good or ill of them;
    None when the line asks no such thing or the sheet holds no fitting opinion."""
    said = talk.said
    found = _LIKED.search(said) or _OLD_DAYS.search(said) or _MOST.search(said)
    found = found or _BY_MANNER.search(said) or _TRUSTED.search(said)
    if found is None or intent.target is not None:
        return None
    if found.re is _LIKED:  # "who do you like least?": the worst of its opinions
        least = "least" in (found["liked"], found["fav"])
        said = "who's the worst?" if least else "who's the best?"
        best = most_of_all(replace(talk, said=said), intent)
        # "who do you like?" of one it holds no warm view of: most folk
        return best or (None if least else Speaker(talk, intent).line("trust_all"))
    by_manner = found.re is _BY_MANNER
    word = (found.group("most") or (found["manner"] if by_manner else "")).lower().split()[-1]
    word = "honest" if found.re is _TRUSTED else word  # "who can I trust?": the honest one
    word = "oldest" if found.re is _OLD_DAYS else word  # "who remembers the old days?"
    if by_manner and not (mood_of_word(word) or _mine(word, talk.npc.sheet.talks)):
        return None  # "who's that tall woman?" asks by no manner
    if by_manner and _mine(word, talk.npc.sheet.talks):
        return Speaker(talk, intent).line("me_who")  # "the woman with the loud voice?": me
    root = word[:-3] if word.endswith("est") and word not in ("best", "worst") else word
    if _of_itself(talk, root) and not WARM.search(word):  # "who's the bossiest?" of the bossy
        return Speaker(talk, intent).line("me_who")
    asked = {w[:5] for w in re.findall(r"[a-z]{4,}", talk.said.lower()[found.start() :])}
    asked = (asked - _ANYONE) | {root[:4]}
    asked |= next((set(g) for g in _ALIKE if any(root.startswith(w[:4]) for w in g)), set())
    warm = not COLD.search(talk.said)
    people = {p.npc_id: p for p in talk.npc.people}
    held = [(people[k], v) for k, v in talk.npc.sheet.opinions.items() if k in people]
    fit = next((p for p, v in held if any(a in v.lower() for a in asked)), None)
    # "who's the oldest?": the one its words call old ("Bertram is the old watchman")
    fit = fit or next((p for p in people.values() if root in _words(p.role)), None)
    # "who's the loudest?", "the grumpiest?": one who talks so, by its word or its mood's
    # ("gloomy" is a grumpy one's); said plainly, whatever it thinks of them
    mood = mood_of_word(root)
    manner = next(
        (p for p in people.values() if any(t.startswith(root[:4]) for t in p.talks)), None
    )
    manner = manner or next(
        (p for p in people.values() if mood and set(p.talks) & set(mood.words)), None
    )
    if fit is None and WARM.search(word):  # "the kindest?": one it thinks well of first
        fit = next((p for p, v in held if WARM.search(v) and not COLD.search(v)), None)
    if fit is None and manner is not None:
        them = what_they_do(manner) or "a neighbour"
        return Speaker(talk, intent).line("most_of_them", who=manner.name, them=them)
    fit = fit or next(
        # "the meanest man... but makes the best cord" is no answer to "the nicest?"
        (
            p
            for p, v in held
            if (WARM if warm else COLD).search(v) and not (COLD if warm else WARM).search(v)
        ),
        None,
    )
    moody = next((p for p in people.values() if mood and p.mood == mood.name), None)
    if fit is None and moody is not None:  # else one of that mood
        them = what_they_do(moody) or "a neighbour"
        return Speaker(talk, intent).line("most_of_them", who=moody.name, them=them)
    if fit is None and found.re is _TRUSTED:  # "who can I trust?": not the one it doubts
        doubted = next((p for p, v in held if COLD.search(v)), None)
        speak = Speaker(talk, intent)
        return speak.line("trust_but", who=doubted.name) if doubted else speak.line("trust_all")
    if fit is None:
        return None
    if found.re is _OLD_DAYS:  # sent to the one who has been here longest, as it knows
        return Speaker(talk, intent).line("old_days", who=fit.name)
    target = Target(Named.PERSON, fit.name, fit.name, fit.role, fit.home)
    return opinion_line(talk, target, Speaker(talk, intent))


def _of_itself(talk: PlayerLine, root: str) -> bool:
    """Whether the NPC's persona says it is so ("is brisk, bossy and quick to laugh")."""
    npc = talk.npc
    said = clauses_of(npc.persona, npc.name)  # "is gloomy", "Brisk, bossy and quick to laugh"
    own = [c for c in said if re.match(r"(?:is|am)\b", c, re.I) or not verb_led(c)]
    return len(root) > 3 and any(re.search(rf"\b{re.escape(root[:4])}", c, re.I) for c in own)


# Two villagers asked after together: "do Silas and Nell get along?"
_TWO = re.compile(
    r"\b(?:do|does|did|are|were) (?P<a>[a-z][\w']+) and (?P<b>[a-z][\w']+) (?:\w+ )?"
    r"(?:get (?:on|along)|like each other|fight|argue|quarrel|friends|speak|talk)\b",
    re.I,
)


def between_them(talk: PlayerLine, intent: Intent) -> SkillCall | None:
    """How two villagers get on, asked of the NPC: of itself and another, its opinion of
    the other; of two others, that it keeps out of their business; None otherwise."""
    found = _TWO.search(talk.said)
    if found is None:
        return None
    named = {found["a"].lower(), found["b"].lower()}
    me = {w.lower() for w in talk.npc.name.split()} | {"you"}
    others = [p for p in talk.npc.people if p.name.split()[0].lower() in named]
    speak = Speaker(talk, intent)
    if len(others) == 1 and named & me:  # "do you and Nell get on?": its view of Nell
        other = others[0]
        return opinion_line(talk, Target(Named.PERSON, other.name, other.name, other.role), speak)
    return speak.line("between_them") if len(others) == 2 else None
