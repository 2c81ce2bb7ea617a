"""How the scripted brain answers the player: one line read, one short plan of skill calls.

`answer(talk)` reads what the player asked (`game.npc.reading.intent`) and plans at most one
gesture, walk, look or wait and one line (`game.npc.scripted.lines`): a gesture asked for is
made and then spoken to, a walk goes to a place or person that exists (else it knows no such
place), questions about places and villagers are answered from the facts, questions about
the NPC from its persona; the player's name once told is used, no recent line said again.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

from game.gestures import WAVE
from game.npc.life.news import asks_news, heard_line, news_answer, news_topic, read_news
from game.npc.reading.about_self import OWN_LIFE
from game.npc.reading.intent import Intent, asks_yes_no, read_intent
from game.npc.reading.kinds import ACTIONS, ONE_LINE, Kind, Named, Target
from game.npc.reading.naming import norm
from game.npc.reading.phrases import GREETED_WITH, MORE
from game.npc.reading.player import recall
from game.npc.scripted.about import (
    bit_of,
    fear_near,
    own,
    place_answer,
    self_answer,
    sheet_side,
)
from game.npc.scripted.advice import advice, ailing_act
from game.npc.scripted.asked_of import (
    PAST,
    asked_kind,
    asked_of,
    place_in,
)
from game.npc.scripted.asks import ask_answer, later
from game.npc.scripted.bargain import fresh_asked, ware_asked
from game.npc.scripted.errands import errand, sent_for
from game.npc.scripted.gesture_reply import asked_besides, gesture_reply
from game.npc.scripted.gossip import asks_gossip, between_them, gossip, most_of_all
from game.npc.scripted.held import about_mine, belief_named, belief_of_it, fear_reason, longed_for
from game.npc.scripted.howwhy import HOW_WHY, how_less, how_why_answer
from game.npc.scripted.hurt import hurt_reply
from game.npc.scripted.itself import LIFE, life_answer
from game.npc.scripted.job import job_phrases
from game.npc.scripted.manners import only_a_slip, opener
from game.npc.scripted.more import more_reply
from game.npc.scripted.near import dislike_near, omen, spotted, warned
from game.npc.scripted.nowhere import nobody_has
from game.npc.scripted.odd import odd_line
from game.npc.scripted.ownlife import own_life_answer
from game.npc.scripted.react import brawl, denied, harmed, hearsay_asked, reaction, really
from game.npc.scripted.recommend import recommend
from game.npc.scripted.requests import asked_for, requests
from game.npc.scripted.retell import in_own_words
from game.npc.scripted.social import (
    first_greeting,
    gestured,
    hello_again,
    passing_hello,
    player_act,
    praised_or_insulted,
    was_it_me,
)
from game.npc.scripted.speaker import (
    PlayerLine,
    React,
    Speaker,
    Step,
    label_of,
    place_named,
    said_by,
    say,
)
from game.npc.scripted.stance import refusal, weather_stops
from game.npc.scripted.story import story_reply
from game.npc.scripted.telling_time import time_answer
from game.npc.scripted.village_life import about_village, at_work, board_reply, village_places
from game.npc.scripted.villagers import of_whose, person_answer
from game.npc.scripted.voice import voiced_plan
from game.npc.scripted.when import when_answered
from game.npc.scripted.whereabouts import where_i_am_at
from game.npc.scripted.why_not import why_refused, why_so
from game.npc.scripted.woken import bye_table, rises, sorry_to_wake
from game.npc.skills import ASK, EMOTE, LOOK, MOVE, WAIT, SkillCall
from game.npc.skills.base import MAX_SAY
from game.world.clock import hour_words

__all__ = ["answer", "news_reply", "opener", "setting_off"]


def news_reply(talk: PlayerLine, intent: Intent | None = None) -> str:
    """The answer to a news question, from the news the NPC heard, or the news the player
    just told it said back; to a gossip question with no news heard, talk of a neighbour
    ("" when the line is none of these)."""
    intent = intent or read_intent(talk.said, talk.npc)
    if intent.kind in ACTIONS or intent.kind is Kind.BYE:
        return ""
    if intent.sub == "invite" and refusal(talk, intent, Speaker(talk, intent)) is not None:
        return ""  # "come to the pit after dark, I dropped my knife there": the dark first
    heard = talk.sensed.news if talk.sensed else []
    board = board_reply(talk.npc, talk.said, heard)  # "what's on the notice board?"
    if board:
        return board
    first = opener(talk)  # what the line opens with takes its room first
    room = MAX_SAY - (len(first) + 1 if first else 0)
    if asks_gossip(talk.said):  # the news heard, else talk of the neighbours
        word = news_answer(heard, "", room=room) if heard else gossip(talk, intent)
        if word:
            return word
    if asks_news(talk.said):
        heard_of = news_answer(heard, talk.said, room=room)
        ever = "" if heard or news_topic(talk.said) else at_work(talk.npc, talk.seed("news"))
        return f"{heard_of} {ever}" if ever and len(heard_of) + len(ever) < room else heard_of
    if omen(talk, Speaker(talk, intent)) is not None:  # "I dropped a pin": a sign it reads
        return ""
    places = {p.name: p.name for p in talk.npc.places}
    told = read_news(
        talk.said,
        npc=talk.npc,
        player_id="player",
        player_name=talk.player or "traveller",
        find_place=lambda name: places.get(name.lower().removeprefix("the ").replace(" ", "_")),
        clock=0.0,
    )
    return next((line for line in map(heard_line, told) if line), "")


def answer(talk: PlayerLine) -> list[Step]:
    """The plan of the NPC's turn when the player says `talk.said`: at most one gesture,
    walk, look or wait, and one line to the player (a question with its reaction rarely),
    opened by a grumble when it was just woken."""
    asked = hearsay_asked(talk.said)  # "people say you're scared of geese": "are you...?"
    asked = asked or asked_for(talk.said, talk.npc.sheet.wares)  # "got a bed for me?"
    talk = replace(talk, said=asked) if asked else talk
    plan = when_answered(talk, _answer(talk))  # "when...?" said no time: "couldn't say when"
    first = opener(talk)
    voice = talk.npc.sheet.talks
    if first and only_a_slip(talk):  # "me and him was going": the slip is all it answers
        return voiced_plan([say(first, "player")], voice)
    if not first:
        return voiced_plan(plan, voice, talk.npc.greeting)
    at = next((i for i, step in enumerate(plan) if said_by(step) is not None), None)
    if at is None:
        return voiced_plan([say(first, "player"), *plan], voice)
    said = said_by(plan[at])
    assert said is not None
    opened = say(f"{first} {said.text}", said.target)
    return voiced_plan([*plan[:at], opened, *plan[at + 1 :]], voice)


def _answer(talk: PlayerLine) -> list[Step]:
    intent = read_intent(talk.said, talk.npc)
    news = news_reply(talk, intent)
    if news:
        return [say(news, "player")]
    told = story_reply(talk, intent)  # a story asked for, or another after one
    if told is not None:
        return [told]
    if MORE.search(norm(talk.said)) and talk.earlier:
        return more_reply(talk, _answer)
    speak = Speaker(talk, intent)
    if sorry_to_wake(talk):  # "sorry, did I wake you?" and nothing more
        return [speak.line("woken_sorry")]
    up = rises(talk)
    if up is not None:  # late: "shouldn't you be up by now?"
        return [speak.line("up_at", up=hour_words(up, o_clock=True))]
    stopped = warned(talk, speak) or omen(talk, speak)  # "*whistles*": it calls a gale
    if stopped is None and player_act(talk.said) is not None:  # "*shows you a crab*"
        stopped = fear_near(talk, speak) or dislike_near(talk, speak)
    if stopped is not None:
        return [stopped]
    seen = spotted(talk.said)  # "look, a gull!", "*points at the old tower*"
    if seen:
        return _shown(talk, intent, speak, seen)
    cured = ailing_act(talk, speak)  # "*coughs*" to a maker of remedies: a remedy
    if cured is not None:
        return [cured]
    made = gestured(talk, speak)  # "*bows*", "I offer my hand": met in its own way
    if made is not None:
        return made
    felt = praised_or_insulted(talk, intent, speak)  # "you're a cheat", "you're lovely"
    felt = felt or odd_line(talk, intent, speak)  # "...", "asdf qwerty", a shout
    if felt is not None:
        return [felt]
    reacted = reaction(talk, speak)  # "did you hear? ...", "what do you make of that?"
    if hurt := hurt_reply(talk, intent, speak):  # "come quick, someone fell over!"
        return [*hurt]
    reacted = reacted or harmed(talk, speak)  # "I broke one of your jugs, sorry"
    reacted = reacted or was_it_me(talk, speak)  # "the bell woke me. was that you?"
    reacted = reacted or really(talk, speak)  # "really?": it stands by what it said
    reacted = reacted or denied(talk, speak)  # "do you poison people?"
    reacted = reacted or fear_reason(talk, speak)  # "why are you afraid of horses?"
    reacted = reacted or why_so(talk, speak)  # "why are you so gloomy?"
    reacted = reacted or longed_for(talk, speak) or about_mine(talk, speak)  # "your mare?"
    if reacted is not None:
        return [reacted]
    no = why_refused(talk, speak) or refusal(talk, intent, speak)  # "why not?": its reason
    no = no or brawl(talk, speak)  # "I'm going to thump him right here!"
    no = no or fresh_asked(talk, speak)  # "is this mackerel fresh?" of one who sells none old
    no = no or ware_asked(talk, speak)  # "is the ale good?" of one who sells it
    if no is not None:  # a fear or a refusal the request touches: no walk, no gift
        return [no]
    held = belief_named(talk, intent, speak)
    if held is not None:  # "who built the old bridge?" of one who believes the devil did
        return [held]
    named = about_village(talk, speak)  # "what's this village called?", "always this quiet?"
    if named is not None:
        return [named]
    met = errand(talk, intent, speak)  # who meets a need, and where; how far a place is
    if met is not None:
        return [met]
    most = most_of_all(talk, intent) or between_them(talk, intent)  # "do X and Y get on?"
    if most is not None:
        return [most]
    if later(talk, intent) and intent.target is not None:  # "come to the mill tonight"
        return [_invite(talk, intent.target, speak)]
    feared = None
    if intent.kind in _FRIGHTS:  # "a storm's rolling in", "look, a cat!"
        feared = fear_near(talk, speak) or dislike_near(talk, speak)
    if feared is not None:  # "a storm's rolling in", "smell that? something's burning"
        return [feared]
    if _TAG_ALONG.search(talk.said):  # "can I come with you?": the player goes along
        return [speak.line("tag_along")]
    plain = ask_answer(talk, intent, speak)  # "will you teach me?", "come with me" of one at work
    if plain is not None:
        return [plain]
    kind = intent.kind
    helped = advice(talk, speak)  # "what would help a cough?": from what it makes
    if kind is Kind.GESTURE and intent.gesture:
        return gesture_reply(talk, intent, speak, helped, _answer)
    reason = kind is Kind.SELF and intent.sub in HOW_WHY and intent.sub != "method"
    weak = intent.target is not None and intent.target.weak  # "a cough": its shop, by a jar
    if helped is not None and (kind in _HELPED or (kind is Kind.PLACE and weak)) and not reason:
        return [helped]
    if kind is Kind.PLACE and intent.target is not None and _INVITED.search(talk.said):
        kind, intent = Kind.GO, replace(intent, kind=Kind.GO)  # "fancy a swim in the cove?"
    if kind is Kind.GO:
        return _walk(talk, intent, speak)
    if kind is Kind.LOOK:
        return _look(talk, intent, speak)
    if kind is Kind.WAIT:
        return [speak.line(Kind.WAIT), WAIT.call(seconds=intent.seconds or 3.0)]
    if kind is Kind.BYE:
        return [EMOTE.call(name=WAVE.name), speak.line(bye_table(talk))]
    if kind is Kind.GREET or passing_hello(talk, intent):  # "Evening! Busy in the taproom?"
        if talk.sensed is not None and talk.sensed.woken:  # no shop's daytime hello at night
            return [speak.line("greet_woken")]
        if talk.first_meeting:  # the map maker's greeting, else its mood's first hello
            hello = first_greeting(talk, speak)
            heard = next((t for t, p in GREETED_WITH if p.search(talk.said)), "")
            if heard:  # "...my feet are killing me": met first, then its hello
                hello = f"{speak.text(heard)} {hello}"
            return [EMOTE.call(name=WAVE.name), say(hello, "player")]
        return [say(hello_again(talk, speak), "player")]
    if kind is Kind.TELL_NAME:
        return [speak.line(Kind.TELL_NAME, player=intent.name or "")]
    if kind is Kind.ASK_NAME:
        player = talk.player
        return [speak.line(Kind.ASK_NAME, player=player) if player else speak.line("no_name")]
    if kind is Kind.RECALL:
        earlier = recall(talk.said, talk.earlier)
        return [speak.line(Kind.RECALL, said=earlier) if earlier else speak.line("recall_none")]
    if kind is Kind.PLACE and intent.sub == "invite" and intent.target is not None:
        return [_invite(talk, intent.target, speak)]
    # "a black cat on your gate!"; "let me take the harbour book home" asks, says nothing
    remark = kind is Kind.PLACE and "?" not in talk.said and not requests(talk.said.lower())
    # "what do you think of the watchtower?" of one who believes it haunted
    remark = remark or (kind is Kind.PLACE and _PLACE_VIEW.search(talk.said) is not None)
    if kind in (Kind.PLACE, Kind.PERSON) and (asks_yes_no(talk.said) or remark):
        belief = belief_of_it(talk, intent, speak)
        if belief is not None:  # "can your goats really smell a storm?": what it holds
            return [belief]
    if kind in (Kind.PERSON, Kind.QUESTION, Kind.SELF) and asked_kind(talk.said)[0] == PAST:
        place = place_in(talk.npc, talk.said)  # "who built the toll gate?": its tale
        told = asked_of(talk, place, speak) if place is not None else None
        if told is not None:
            return [told]
    if kind is Kind.PLACE and intent.target is not None:  # "...of Rosamund's hawks?": her
        return [of_whose(talk, intent, speak) or place_answer(talk, intent.target, speak)]
    if kind is Kind.PERSON and intent.target is not None:
        return [person_answer(talk, intent, speak)]
    if kind is Kind.SELF and intent.sub == "own":
        return [_whose(talk, intent.target, speak)]
    if kind is Kind.SELF and intent.sub == "day":  # "where do you have your lunch?"
        day = where_i_am_at(talk)
        return [say(day, "player") if day else self_answer(talk, "work", speak)]
    if kind is Kind.SELF and intent.sub == "recommend":  # "what should I see before I go?"
        return [recommend(talk, speak)]
    if kind is Kind.SELF and intent.sub in HOW_WHY:  # "how do you make it?", "why?"
        told = how_why_answer(talk, intent.sub, speak)
        if told is not None:
            return [told]
        if intent.sub == "method":  # a belief of the thing asked ("brewed under a full moon")
            return [
                sheet_side(talk, speak, any_item=False, only=("beliefs",)) or how_less(talk, speak)
            ]
        if intent.sub == "reason":  # the persona's sentence nearest what is asked
            return [self_answer(talk, "about", speak)]
        if intent.sub == "learned":  # no teacher named: it learned by doing
            return [own_life_answer(talk, "learned", speak)]
    if kind is Kind.SELF and intent.sub in OWN_LIFE:  # "what's your favourite food?"
        return [own_life_answer(talk, intent.sub, speak)]
    if kind is Kind.SELF and intent.sub in LIFE:
        return [life_answer(talk, intent.sub, speak)]
    if kind is Kind.SELF:
        return [self_answer(talk, intent.sub, speak)]
    if kind is Kind.TIME:
        return [time_answer(talk, intent, speak)]
    if kind is Kind.VILLAGE:  # its places, with who works at each doing what
        places = village_places(talk.npc, talk.seed("village"))
        return [speak.line(Kind.VILLAGE, places=places) if places else speak.line(Kind.QUESTION)]
    if none := nobody_has(talk, speak):  # "where can I buy a sword?" with no smith
        return [none]
    # "does the wind speak to you?", and asked what, where or how: "where would a dragon
    # even live?" of one certain a dragon lives past the river
    if kind is Kind.QUESTION or (kind is Kind.CHAT and asks_yes_no(talk.said)):
        side = sheet_side(talk, speak, any_item=False)
        if side is not None:
            return [side]
    if kind is Kind.QUESTION and _IS_THERE.search(talk.said):  # "is there a fair soon?"
        return [speak.line("question_yes_no")]
    stops = weather_stops(talk, speak) if kind is Kind.WEATHER else None
    if stops is not None:  # "looks like rain", of one who hangs no washing out in it
        return [stops]
    if kind is Kind.WEATHER and _AHEAD.search(talk.said):  # "will it be fine tomorrow?"
        return [speak.line("weather_ahead")]
    if kind is Kind.FAVOUR and intent.sub == "leave":  # "can I hold one?": leave, no gift
        return [speak.line("leave_yes")]
    if kind in ONE_LINE and kind is not Kind.WEATHER:
        return [speak.line(kind)]
    line = speak.line(Kind.WEATHER if kind is Kind.WEATHER else Kind.CHAT)  # may ask besides
    rng = random.Random(talk.seed(ASK.name))
    question = talk.question
    if talk.talks and question is not None and not talk.asked and "?" not in talk.said:
        if rng.random() < 0.4:
            return [
                line,
                ASK.call(question=question.text, options=[o for o, _ in question.answers]),
                React(dict(question.answers)),
            ]
    return [line]


# Kinds of line its advice answers ("what would help a cough?").
_HELPED = frozenset({Kind.QUESTION, Kind.CHAT, Kind.SEEK, Kind.SELF})
# Kinds of line that may bring near what the NPC fears without asking of it.
_FRIGHTS = frozenset({Kind.CHAT, Kind.QUESTION, Kind.PLACE, Kind.WEATHER, Kind.SELF, Kind.LOOK})
# The hour an invitation asks from ("tonight": the evening's stops).
_ASKED_FOR = (
    (r"\b(?:tonight|this evening|after (?:supper|dinner|dark)|at (?:dusk|sundown))\b", 17.0),
    (r"\bthis afternoon\b", 12.0),
    (r"\bat (?:noon|midday)\b", 11.0),
    (r"\bthis morning\b", 5.0),
)


def _invite(talk: PlayerLine, target: Target, speak: Speaker) -> SkillCall:
    """Whether it will come to a place later, and when: the next stop of its day there,
    its own place most of the day, else a maybe after its work."""
    npc = talk.npc
    now = talk.sensed.hour if talk.sensed is not None else None
    asked = next((h for pattern, h in _ASKED_FOR if re.search(pattern, talk.said, re.I)), now)
    hours = [hour for hour, place in npc.day if place == target.name]
    later = [hour for hour in hours if asked is None or hour >= asked]
    if hours:
        hour = (later or hours)[0]
        when = "around midday" if 11.5 <= hour <= 12.5 else f"around {hour_words(hour, True)}"
    elif target.name in (npc.sheet.work, npc.home):
        when = "most of the day"
    else:
        return speak.line("invite_maybe")
    return speak.line("invite_yes", place=target.label, when=when)


def _whose(talk: PlayerLine, owner: Target | None, speak: Speaker) -> SkillCall:
    """Whose the things asked of are: its own, with what it does with them ("All mine! The
    village goats. I herd them at the pasture!"), another's by name, or no one's it knows."""
    if owner is not None and owner.kind is Named.SELF:
        text = in_own_words(
            lambda j: speak.text("own_yes", job=j), job_phrases(talk.npc), *_named(talk)
        )
        return say(text or speak.text("own_yes", job=f"I'm {talk.npc.name}"), "player")
    if owner is not None and owner.kind is Named.PERSON:
        return speak.line("own_other", who=owner.label)
    return speak.line("own_none")


def _named(talk: PlayerLine) -> tuple[str, str]:
    return talk.npc.persona, talk.npc.name


def setting_off(talk: PlayerLine) -> str:
    """What the NPC says as it sets off on a walk it was asked for ("Follow me, it's just
    along here!"): said before the walk, where the plan's line is said on arriving; a
    walk after the player ("come with me") is followed ("Lead on, friend.")."""
    speak = Speaker(talk, read_intent(talk.said, talk.npc))
    walks = [s for s in _answer(talk) if isinstance(s, SkillCall) and s.skill is MOVE]
    following = any(w.arguments().get("to") == "player" for w in walks)
    off = speak.text("follow" if following else "set_off")
    return f"{off} {sent_for(talk, '', speak)}".strip()


_TAG_ALONG = re.compile(
    r"\b(?:can|could|may) i (?:come|tag|walk|go) (?:with you|along)\b|\bmind if i (?:come|tag|"
    r"walk) (?:with you|along)\b|\b(?:can|could|may) i join you\b",
    re.I,
)
_PLACE_VIEW = re.compile(
    r"\bwhat do you (?:think|make) of\b|\bhow do you feel about\b|\bwhat(?:'s| is) your "
    r"(?:view|opinion) of\b",
    re.I,
)
# Asked along to a place now, to do something there: "would you swim in the cove with me?",
# "fancy a swim in the cove?", "shall we have a picnic on the headland?"
_INVITED = re.compile(
    r"\bwith (?:me|us)\b[^.!]*\?|^\W*(?:\w+, )?(?:fancy|shall we|let's|come for|how about|"
    r"(?:do you )?(?:want|wanna) to (?:go|come))\b",
    re.I,
)


def _walk(talk: PlayerLine, intent: Intent, speak: Speaker) -> list[Step]:
    target, sub = intent.target, intent.sub
    rng = random.Random(talk.seed("walk"))
    if sub == "unknown":
        return [speak.line(Kind.UNKNOWN_PLACE)]
    if sub == Named.SELF:
        return [speak.line("go_self")]
    if sub == "away":
        direction = rng.choice(("up", "down", "left", "right"))
        return [MOVE.call(direction=direction, steps=3), speak.line("away")]
    if intent.direction is not None:
        return [MOVE.call(direction=intent.direction, steps=3), speak.line("follow")]
    if sub == "tour" and (target is None or target.kind is not Named.PLACE):
        places = [p for p in talk.npc.places if p.name != talk.place]
        home = place_named(talk.npc, talk.npc.home)
        if home is not None and talk.place != home.name:
            choice = home
        elif places:
            choice = places[rng.randrange(len(places))]
        else:
            return [speak.line("follow")]
        return [MOVE.call(to=choice.name), speak.line("tour", place=label_of(choice))]
    if target is None or target.kind is Named.PLAYER:
        return [MOVE.call(to="player"), speak.line("follow")]
    if target.kind is Named.PERSON:
        return [MOVE.call(to=target.name), speak.line("go_person", who=target.label)]
    table = "tour" if sub == "tour" else Kind.GO
    place = place_named(talk.npc, target.name)
    bit = bit_of(own(place.description, talk.npc)) if place is not None else ""
    arrived = speak.text(table, place=target.label, bit=bit)
    sent = sent_for(talk, target.name, speak)  # "...and fetch me some rope": the rope
    return [MOVE.call(to=target.name), say(f"{arrived} {sent}".strip(), "player")]


# A question of whether there is or will be something: answered with what it has heard.
_IS_THERE = re.compile(
    r"^(?:\w+, )?(?:is|are|was|were|will) (?:there|anyone|anybody|someone)\b|"
    r"\b(?:any|anything) (?:new|on|happening|planned|coming)\b",
    re.I,
)
# The weather asked of a time to come.
_AHEAD = re.compile(
    r"\b(?:tomorrow|tonight|later|going to|gonna|will it|forecast|this (?:afternoon|evening))\b",
    re.I,
)


def _shown(talk: PlayerLine, intent: Intent, speak: Speaker, seen: str) -> list[Step]:
    """A look at what the player shows, met as the NPC meets it: a fright, a place it
    knows, else the thing seen."""
    fright = fear_near(talk, speak) or dislike_near(talk, speak)
    if fright is not None:
        return [fright]
    target = intent.target
    if target is not None and target.kind is Named.PLACE:
        return [LOOK.call(at=target.name), speak.line("look_at", thing=target.label)]
    return [LOOK.call(), speak.line("look_spotted", thing=seen)]


def _look(talk: PlayerLine, intent: Intent, speak: Speaker) -> list[Step]:
    target = intent.target
    asked = asked_besides(talk, Kind.LOOK)  # "could you look at the well?" asks none
    if asked and target is None:  # "Look at the sky. Is a storm on the way?": what it holds
        side = sheet_side(replace(talk, said=asked), speak, any_item=False)  # of it, if any
        if side is not None:
            return [LOOK.call(), side]
    if target is None:
        return [LOOK.call(), speak.line("look_around")]
    if target.kind is Named.PLAYER:
        return [LOOK.call(at="player"), speak.line("look_you")]
    if asked and target.kind is Named.PLACE:  # "look at the orchard: are the apples ripe?"
        return [LOOK.call(at=target.name), place_answer(replace(talk, said=asked), target, speak)]
    return [LOOK.call(at=target.name), speak.line("look_at", thing=target.label)]
