"""The place a villager would send a visitor to, asked in any words ("what should I see
before I go?", "best place to watch the sunset?", "what's good to eat here?"): one the
question needs (a view for the sunset, water for fishing), names (whoever sells food) or
whose description shares its words, else one a like of its sheet names, else its work
place, else another it knows (not the one it stands in), its home last; a goodbye in the
same line is said after the place, never instead of it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from game.npc.facts import PlaceFact, VillagerFacts
from game.npc.reading.kinds import Kind, Named
from game.npc.reading.naming import find_target, norm, village_names
from game.npc.reading.phrases import BYE
from game.npc.scripted.about import bit_of, own, stems_of
from game.npc.scripted.describe import doing_at, keepers_of
from game.npc.scripted.lines import line_table, pick
from game.npc.scripted.retell import MAX_RUN, shared_run, shorter, words_of
from game.npc.scripted.speaker import PlayerLine, Speaker, label_of, place_named, say
from game.npc.skills import SkillCall
from game.npc.skills.base import MAX_SAY

__all__ = ["recommend"]

# The words of asking for a sight, which name no sight themselves.
_ASKING = stems_of(
    "best nicest finest prettiest loveliest place places spot spots sight sights worth seeing "
    "visit visiting recommend suggest miss newcomer visitor stranger traveller tips advice "
    "free afternoon morning evening day while here round around village town before leave "
    "should would could think were shoes next else good nice anything anywhere somewhere "
    "what's where's there's"
)
_TO_DO = re.compile(r"\bto do\b|\bdoing\b", re.I)  # asks what goes on, not what to see
_ARTICLES = frozenset({"the", "a", "an", "my"})
_ROUND_HERE = re.compile(r"\b(?:a)?round (?:here|these parts|the village)\b")
# Plain English for what a sight asked for needs: a question for a view ("the sunset")
# finds a place its description says is high or open ("a rocky knoll with a view"), one
# for fishing or a swim a place of water, one for peace a quiet or green one.
_NEEDS = (
    (
        stems_of("sunset sunrise sundown dawn view views stars sky skies watch scenery"),
        stems_of("view views lookout knoll hill hilltop rise ridge cliff shore beach tower"),
    ),
    (
        stems_of("fish fishing catch angling swim swimming paddle rowing ducks"),
        stems_of("pond lake tarn mere river stream brook pool jetty dock quay water"),
    ),
    (
        stems_of("quiet peace peaceful read reading rest sit alone"),
        stems_of("quiet bench benches garden orchard shade meadow"),
    ),
)


def recommend(talk: PlayerLine, speak: Speaker) -> SkillCall:
    """The place it would send a visitor to, with a bit of how it looks (asked again, one
    it has not named yet), and the farewell after it when the line is also a goodbye."""
    npc = talk.npc
    options = _options(talk.said, npc, talk.place)
    said = " ".join(talk.replies[-1:]).lower()  # one just named: asked again, another
    fresh = [p for p in options if label_of(p) not in said]
    place = next(iter(fresh or options), None)
    if place is None:
        return speak.line(Kind.QUESTION)
    described = bit_of(own(place.description, npc))
    # Its own words: "the toll gate where the west road comes..." may be its persona's too.
    bits = [b for b in shorter(described) if shared_run(b, npc.persona, npc.name) <= MAX_RUN]
    bit = next(iter(bits), "") if described else ""
    if not set(words_of(bit)) - set(words_of(label_of(place))) - _ARTICLES:
        bit = ""  # "The toll gate. The toll gate." says nothing of it
    bit = bit or "It's lovely"
    keepers = keepers_of(npc, place.name) if _TO_DO.search(talk.said) else []
    if keepers and place.name not in (npc.sheet.work, npc.home):  # "what is there to do?"
        bit = doing_at(keepers[0], place.name)  # what goes on there, not how it looks
    named = label_of(place)
    facts = dict(place=named, bit=bit[:1].upper() + bit[1:])
    text = speak.text("recommend", **facts)
    if named.lower() not in text.lower():  # every shape said lately: a new place
        text = pick(line_table("recommend", talk.mood), talk.seed("recommend"), (), facts)
    if BYE.search(norm(talk.said)):  # "ok I'm off, what should I see?": the place, then bye
        farewell = speak.text(Kind.BYE)
        if len(text) + len(farewell) < MAX_SAY:
            text = f"{text} {farewell}"
    return say(text, "player")


def _options(asked: str, npc: VillagerFacts, here: str | None) -> list[PlaceFact]:
    """The places it would name, best first."""
    # Neither "round here" nor the village's own name ("Reedmouth") names one place of it.
    asked = _ROUND_HERE.sub(" ", norm(asked))
    for name in village_names(npc):
        asked = re.sub(rf"\b{re.escape(name)}\b", " ", asked)
    named = find_target(asked, npc)  # "what's good to eat?": whoever sells food
    if named is not None and named.kind is Named.PERSON:
        named = replace(named, name=named.home)
    asked_for = place_named(npc, named.name) if named is not None else None
    topic = stems_of(asked) - _ASKING
    found = [p for p in npc.places if topic & stems_of(_words(p))]
    needed = [
        p
        for wants, offers in _NEEDS
        if topic & wants
        for p in npc.places
        if offers & stems_of(_words(p))
    ]
    likes = stems_of(" ".join(npc.sheet.likes))
    liked = [p for p in npc.places if likes & stems_of(_words(p))]
    work, home = place_named(npc, npc.sheet.work), place_named(npc, npc.home)
    others = [p for p in npc.places if p.name not in (here, npc.home)]  # no sight, its own hut
    options: list[PlaceFact] = []
    for place in (*needed, asked_for, *found, *liked, work, *others, home):
        if place is not None and all(place.name != o.name for o in options):
            options.append(place)
    return options


def _words(place: PlaceFact) -> str:
    return f"{place.name.replace('_', ' ')} {place.description}"
