"""The first words of the bundled model's line, from the persona brain (`lead_of`).

A small model asked "Who is Brenna?" says "She's a young woman." even with the note that
she is the blacksmith right above, says "Yes." to the boat trip the shepherd fears and
"I'm sorry, but you're not welcome here." to a thank-you. So the line starts with what the
persona brain answers, cut to its whole sentences within `LEAD_CHARS` (an opener such as
"Tamsin? Oh, I'll tell you!" alone answers nothing), and the model may add one sentence of
its own after it:

- a fact (a place, a villager, what the player said, the player's name, the time), a talk
  of machines or prompts, a favour or idle talk offered, a question about the NPC itself,
  and the kinds the persona brain answers in one line of its mood;
- a refusal, fear or belief of the character sheet that the line touches;
- a thing shown ("look, a gull!"): its look at it;
- a fright at a fear brought near, news told, harm owned up to, a fight threatened: its
  reaction;
- a thing offered: its like's glad yes, its dislike's no, else its thanks;
- a story asked for, its first sentences (the model tells the rest in its own words);
- "tell me more" or "another one", from what was just talked of;
- the line of an action this step does;
- to a villager who spoke, or one beside it when idle, the persona brain's line to them.

The model's line is its own from the start only for plain chat and questions the persona
brain has no answer for.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise

from game.agent.providers.base import ProviderRequest
from game.npc.play.scene import MAX_LINE_CHARS, one_line
from game.npc.reading.intent import Intent, asks_yes_no, read_intent
from game.npc.reading.kinds import ACTIONS, LEADS, ONE_LINE, Kind
from game.npc.reading.naming import norm
from game.npc.reading.phrases import MORE, STORY_AGAIN
from game.npc.scripted.about import fear_near, sheet_side
from game.npc.scripted.asks import DEED_SIDES, ask_answer, asks_deed
from game.npc.scripted.between import to_a_villager
from game.npc.scripted.near import spotted
from game.npc.scripted.nowhere import wanted_thing
from game.npc.scripted.odd import odd_line
from game.npc.scripted.persona import plan_for, situation_of
from game.npc.scripted.react import brawl, harmed, hearsay_asked, reaction
from game.npc.scripted.social import player_act, praised_or_insulted
from game.npc.scripted.speaker import PlayerLine, Speaker, said_by
from game.npc.scripted.stance import refusal
from game.npc.scripted.talk import answer, news_reply, opener, setting_off
from game.npc.scripted.why_not import why_refused
from game.npc.scripted.willing import offers
from game.npc.scripted.woken import answers_waking
from game.npc.seeds import seed_of
from game.npc.skills.base import MAX_SAY
from game.world.entities import PLAYER_ID

__all__ = ["LEAD_CHARS", "LEAD_MIN", "heard_lead", "idle_lead", "lead_of", "refuses"]

# Also led: what it says of itself, its goodbye (the model's own was "Goodnight, Maren."
# said by Maren) and its hello (the model's own was "Come in, Odo." from the examples, or
# "Yes!" to "hello again!"): the persona brain's, in its mood, the model's after it.
_OWN_LEADS = frozenset({Kind.SELF, Kind.BYE, Kind.GREET})
LEAD_MIN = 20  # a lead ends at a sentence's end past this many characters,
LEAD_CHARS = 120  # the last one within this many


def lead_of(request: ProviderRequest, acts: bool = False) -> str:
    """The persona brain's answer to the newest line, cut to its whole sentences (`_cut`),
    when its sheet refuses or holds a side on what was asked, when what was asked is one of
    `LEADS`, `ONE_LINE`, about the NPC itself, a goodbye or "tell me more", or for an action
    this step does (`acts`) or cannot do; "" otherwise (plain chat is the model's own). A
    news question is answered whole, from the news the NPC heard; a line of an NPC just
    woken opens with its grumble, once."""
    talk = situation_of(request).talk()
    asked = hearsay_asked(talk.said)  # "people say you're scared of geese": "are you...?"
    talk = replace(talk, said=asked) if asked else talk
    intent = read_intent(talk.said, talk.npc)
    first = opener(talk)
    lead = news_reply(talk, intent) or _lead(talk, intent, acts)
    if first and lead.startswith(first):  # the persona brain's line opens with it too
        lead = lead[len(first) :].lstrip()
    return " ".join(part for part in (first, lead) if part)[:MAX_SAY]


def _lead(talk: PlayerLine, intent: Intent, acts: bool) -> str:
    held = _held(talk, intent)
    if held:  # a refusal, fear or belief of its sheet the line touches: said from the sheet
        return _cut(held)
    if intent.kind is Kind.GO and acts:  # the line is said as it sets off, not on arriving
        return setting_off(talk)
    line = norm(talk.said)  # "tell me more", "another one": what was talked of, told on
    more = bool(MORE.search(line) or STORY_AGAIN.search(line)) and bool(talk.earlier)
    led = more or intent.kind in LEADS or intent.kind in ONE_LINE or intent.kind in _OWN_LEADS
    led = led or answers_waking(talk, intent)  # its hello of the hour, not the shop's
    # "*bows deeply*", "*hugs you*": met in its mood's way (its own was "I'm a bit tired.")
    led = led or player_act(talk.said) is not None or _social(talk, intent)
    led = led or bool(spotted(talk.said))  # "look, a gull!": its own was "I can't see a gull."
    # "a spider on your shelf!", "did you hear? ...", "I broke your jug": its own was
    # "I know, it's my fault."
    led = led or _reacts(talk, intent)
    led = led or bool(wanted_thing(talk.said, talk.npc))  # nobody here sells it: says so
    led = led or offers(talk.said)  # "I brought you plum cake!": its own was "I have a cake"
    # "make me a barrel from this pine": its own was "I can't."
    led = led or (
        intent.kind is Kind.CHAT and ask_answer(talk, intent, Speaker(talk, intent)) is not None
    )
    if not led and intent.kind not in ACTIONS:  # an action asked: its line as it is done
        return ""
    plan = answer(talk)
    if not led and not acts and any(said_by(step) is None for step in plan):
        return ""  # the action is not this step's: the line is the model's own
    said = next((s.text for s in map(said_by, plan) if s is not None), "")
    first = opener(talk)  # cut past the grumble: its answer is the lead, not the grumble
    said = said[len(first) :].lstrip() if first and said.startswith(first) else said
    # a story is told whole: cut short, "A wolf? Deep in the wood." tells no tale
    return _cut(said, MAX_SAY if intent.kind is Kind.STORY else LEAD_CHARS)


def _social(talk: PlayerLine, intent: Intent) -> bool:
    """Whether the persona brain meets the line as praise, an insult, a line of no words
    or no tongue, or a shout: its own to those was "I'm a fool." to "you're an idiot",
    "..." to "...", "I'll be back in a minute." to keys mashed."""
    speak = Speaker(talk, intent)
    return bool(praised_or_insulted(talk, intent, speak) or odd_line(talk, intent, speak))


def _reacts(talk: PlayerLine, intent: Intent) -> bool:
    """Whether the persona brain meets the line with a reaction from its sheet: a fright
    at what it fears brought near, news told, harm owned up to, a fight threatened."""
    speak = Speaker(talk, intent)
    return bool(
        fear_near(talk, speak) or reaction(talk, speak) or harmed(talk, speak) or brawl(talk, speak)
    )


def refuses(request: ProviderRequest) -> bool:
    """Whether the persona brain says no to the newest line from its sheet (a fear or a
    refusal it touches): the walk or gift asked for is then not made."""
    talk = situation_of(request).talk()
    intent = read_intent(talk.said, talk.npc)
    return refusal(talk, intent, Speaker(talk, intent)) is not None


def _held(talk: PlayerLine, intent: Intent) -> str:
    """The persona brain's no to a request its sheet refuses or fears, its side on a yes/no
    question its sheet holds a belief, fear or dislike on, or on any other question its
    sheet holds a side on ("" when none): a small model says "Yes." to the boat trip the
    shepherd fears, and "tell me about this dragon" got the persona read back."""
    speak = Speaker(talk, intent)
    no = why_refused(talk, speak) or refusal(talk, intent, speak)  # "why won't you...?": why
    if no is None and intent.kind is Kind.QUESTION and not asks_yes_no(talk.said):
        side = sheet_side(talk, speak, any_item=False)  # "tell me about the dragon"
        told = said_by(side) if side is not None else None  # if the persona brain says it
        plan = [s.text for s in map(said_by, answer(talk)) if s is not None] if told else []
        no = side if told is not None and told.text in plan else None
    elif no is None and asks_yes_no(talk.said) and intent.kind not in ACTIONS:
        only = DEED_SIDES[:2] if asks_deed(talk.said) else _HELD  # a deed: no belief on it
        no = sheet_side(talk, speak, any_item=False, only=only)
        told = said_by(no) if no is not None and intent.kind in _OWN_LEADS else None
        if told is not None and told.text not in [s.text for s in map(said_by, answer(talk)) if s]:
            no = None  # "do you enjoy making barrels?": its own answer leads, not a belief
    said = said_by(no) if no is not None else None
    return said.text if said is not None else ""


_HELD = ("beliefs", "fears", "dislikes")  # what a yes/no answer leads with from the sheet


def _cut(said: str, limit: int = LEAD_CHARS) -> str:
    """A line cut to its whole sentences within `limit` (at least its first past
    `LEAD_MIN`). Never mid-sentence: a small model asked to finish a description's sentence
    garbles it ("...notice board by a."). Never to an opener alone: "Tamsin? Oh, I'll tell
    you!" cut there answers nothing, so the sentence that says something stays."""
    text = one_line(said)
    if len(text) <= limit:
        return text
    ends = [m.end() for m in re.finditer(r"[.!?](?=\s|$)", text) if m.end() > LEAD_MIN]
    # Past an opener only ("Oh, you mean the glass house?", "Ah, the mill!"): a sentence
    # that tells something, a statement or one of some length, must be in the lead.
    starts = [0, *(m.end() for m in re.finditer(r"[.!?](?=\s|$)", text))]
    told = next((e for s, e in pairwise(starts) if _tells(text[s:e].strip())), None)
    if told is not None:
        ends = [end for end in ends if end >= told] or ends
    within = [end for end in ends if end <= limit]
    end = within[-1] if within else (ends[0] if ends else len(text))
    return text[:end][:MAX_LINE_CHARS]


def _tells(sentence: str) -> bool:
    """Whether a sentence says something rather than opens: a statement, or five words."""
    return sentence.endswith(".") or (not sentence.endswith("?") and len(sentence.split()) >= 5)


def idle_lead(request: ProviderRequest) -> tuple[str | None, str]:
    """Whom an idle line is for and what it starts with: to a villager in view, what the
    persona brain would say to them (its opinion of them, news, its work); to nobody, the
    model's own words."""
    s = situation_of(request)
    seen = s.sensed.nearby if s.sensed is not None else []
    who = next((v for v in seen if v.entity_id != PLAYER_ID and v.name), None)
    if who is None:
        return None, ""
    seed = seed_of(s.npc.npc_id, "idle", str(s.turn), s.text)
    line = to_a_villager(
        s.npc, s.mood, who.name, who.entity_id, seed=seed, used=s.replies, sensed=s.sensed
    )
    return who.name, _cut(line)


def heard_lead(request: ProviderRequest) -> str:
    """What a villager spoken to by another starts its answer with: the persona brain's
    line to them (`game.npc.scripted.between`), cut to a lead, so it names the right
    people and says something of its own sheet."""
    plan = plan_for(situation_of(request))
    return _cut(next((s.text for s in map(said_by, plan) if s is not None), ""))
